// SPDX-License-Identifier: MIT
/*
 * FEAT_SPE smoke test of the project's QEMU (platform/qemu patches, -cpu max,spe=on), run at
 * EL2 on the virt board with the MMU off. Checks, each as a "RESULT spe-<name> PASS|FAIL" line:
 * the ID and reset values and RES0 masks of the SPE registers (SPE supplement, Arm DDI 0586A,
 * 4.3), MDCR_EL2.TPMS and E2PB traps from EL1 (SPE 3.2.3, 3.4.6), PMBIDR_EL1.P, sampling a
 * loop into the Profiling Buffer (whose bytes go to the console as "SPE-BUF" lines for
 * tools/vperf-spe: tests/qemu/spe/smoke.sh), records held back until PSB CSYNC (SPE 3.6), the
 * held records landing in the next buffer when software switches without PSB CSYNC, the FT,
 * FL and FE (PMSEVFR_EL1) filters, the sampling interval with PMSIRR_EL1.RND 0 and 1 and
 * PMSICR_EL1 resuming (SPE 3.1.1, 3.1.2), the PMSCR_EL12 alias, the buffer-full event raising
 * PMBIRQ on PPI INTID 21 (SPE 3.5.2), stage 1 and stage 2 fault events with DL (SPE 3.5.3).
 * Packets and filters: Arm DDI 0487 K.a D18.2, D17.5. Ends with "SUITE DONE", then PSCI SYSTEM_OFF.
 */
#include <stdint.h>

#include "../lib/lib.h"

/* The SPE registers by encoding (SPE 4.3), so any assembler takes them. */
#define PMSCR_EL1     "S3_0_C9_C9_0"
#define PMSCR_EL2     "S3_4_C9_C9_0"
#define PMSICR_EL1    "S3_0_C9_C9_2"
#define PMSIRR_EL1    "S3_0_C9_C9_3"
#define PMSFCR_EL1    "S3_0_C9_C9_4"
#define PMSEVFR_EL1   "S3_0_C9_C9_5"
#define PMSLATFR_EL1  "S3_0_C9_C9_6"
#define PMSIDR_EL1    "S3_0_C9_C9_7"
#define PMBLIMITR_EL1 "S3_0_C9_C10_0"
#define PMBPTR_EL1    "S3_0_C9_C10_1"
#define PMBSR_EL1     "S3_0_C9_C10_3"
#define PMBIDR_EL1    "S3_0_C9_C10_7"

#define read_sys(r)                                        \
	({                                                 \
		uint64_t v_;                               \
		__asm__ volatile("mrs %0, " r : "=r"(v_)); \
		v_;                                        \
	})
#define write_sys(r, v) __asm__ volatile("msr " r ", %0\n\tisb" : : "r"((uint64_t)(v)))

/* PSB CSYNC (HINT #17) then DSB: the records of earlier operations are in memory (SPE 3.6). */
static void psb_csync(void)
{
	__asm__ volatile("hint #17\n\tdsb nsh\n\tisb" ::: "memory");
}

/* QEMU virt, GICv3: the redistributor's SGI frame of CPU 0; ISPENDR0 shows a PPI's level. */
#define GICR_ISPENDR0 0x080b0200ul
#define PMBIRQ_INTID  21

uint64_t trap_esr, trap_count; /* head.S: traps from EL1 */
static unsigned int failures;

static uint8_t spe_buf[32768] __attribute__((aligned(4096)));
static volatile uint64_t sink[64];

/* head.S */
void call_el1(void (*fn)(void));
void smoke_unexpected(uint64_t esr, uint64_t elr);
void smoke_main(void);

void smoke_unexpected(uint64_t esr, uint64_t elr)
{
	printf("RESULT spe-unexpected FAIL esr=0x%lx elr=0x%lx\n", (unsigned long)esr,
	       (unsigned long)elr);
	printf("SUITE DONE\n");
}

static void result(const char *name, int ok, uint64_t got, uint64_t want)
{
	if (!ok)
		failures++;
	printf("RESULT spe-%s %s got=0x%lx want=0x%lx\n", name, ok ? "PASS" : "FAIL",
	       (unsigned long)got, (unsigned long)want);
}

static void expect(const char *name, uint64_t got, uint64_t want)
{
	result(name, got == want, got, want);
}

static uint32_t pmbirq_level(void)
{
	return (*(volatile uint32_t *)GICR_ISPENDR0 >> PMBIRQ_INTID) & 1u;
}

static void check_ids_and_reset(void)
{
	uint64_t dfr0 = read_sys("id_aa64dfr0_el1");

	result("pmsver", ((dfr0 >> 32) & 0xf) >= 1, (dfr0 >> 32) & 0xf, 1);
	/* FE FT FL ArchInst, Interval 4096, MaxSize 64 B, CountSize 12-bit saturating */
	expect("pmsidr", read_sys(PMSIDR_EL1), 0x2680f);
	/* At EL2, owner EL2 (MDCR_EL2.E2PB = 0b00): P = 0; F = 1, Align = 0 */
	expect("pmbidr-el2", read_sys(PMBIDR_EL1), 0x20);
	expect("reset-pmscr-el1", read_sys(PMSCR_EL1), 0);
	expect("reset-pmscr-el2", read_sys(PMSCR_EL2), 0);
	expect("reset-pmsicr", read_sys(PMSICR_EL1), 0);
	expect("reset-pmsirr", read_sys(PMSIRR_EL1), 0);
	expect("reset-pmsfcr", read_sys(PMSFCR_EL1), 0);
	expect("reset-pmsevfr", read_sys(PMSEVFR_EL1), 0);
	expect("reset-pmslatfr", read_sys(PMSLATFR_EL1), 0);
	expect("reset-pmblimitr", read_sys(PMBLIMITR_EL1), 0);
	expect("reset-pmbptr", read_sys(PMBPTR_EL1), 0);
	expect("reset-pmbsr", read_sys(PMBSR_EL1), 0);
	expect("pmbirq-low", pmbirq_level(), 0);

	/* RES0 bits read as zero (SPE 4.3.x field lists) */
	write_sys(PMSFCR_EL1, ~0ull);
	expect("res0-pmsfcr", read_sys(PMSFCR_EL1), 0x70007);
	write_sys(PMSFCR_EL1, 0);
	write_sys(PMSIRR_EL1, ~0ull);
	expect("res0-pmsirr", read_sys(PMSIRR_EL1), 0xffffff01);
	write_sys(PMSIRR_EL1, 0);
	write_sys(PMSCR_EL1, ~0ull);
	expect("res0-pmscr-el1", read_sys(PMSCR_EL1), 0x7b);
	write_sys(PMSCR_EL1, 0);
	write_sys(PMSLATFR_EL1, ~0ull);
	expect("res0-pmslatfr", read_sys(PMSLATFR_EL1), 0xfff);
	write_sys(PMSLATFR_EL1, 0);
	/* PMSEVFR_EL1: only the filterable events E[1], E[3], E[5], E[7] (SPE 4.3.8) */
	write_sys(PMSEVFR_EL1, ~0ull);
	expect("res0-pmsevfr", read_sys(PMSEVFR_EL1), 0xaa);
	write_sys(PMSEVFR_EL1, 0);
}

/* At EL1: each access below traps to EL2 (head.S counts them) but PMBIDR_EL1. */
static uint64_t el1_pmbidr;
static void el1_sampling_regs(void)
{
	(void)read_sys(PMSCR_EL1);
	(void)read_sys(PMSIRR_EL1);
	__asm__ volatile("hvc #1");
}

static void el1_buffer_regs(void)
{
	(void)read_sys(PMBPTR_EL1);
	el1_pmbidr = read_sys(PMBIDR_EL1);
	__asm__ volatile("hvc #1");
}

static void check_traps(void)
{
	uint64_t mdcr = read_sys("mdcr_el2");

	/* MDCR_EL2.TPMS (bit 14): sampling control registers trap (SPE 4.3.5, 4.3.12) */
	trap_count = 0;
	write_sys("mdcr_el2", mdcr | (1u << 14));
	call_el1(el1_sampling_regs);
	expect("tpms-traps", trap_count, 2);
	expect("tpms-ec", trap_esr >> 26, 0x18);
	/* Without TPMS, E1 reads them freely; E2PB = 0b00 traps the buffer registers */
	trap_count = 0;
	write_sys("mdcr_el2", mdcr & ~(1u << 14));
	call_el1(el1_sampling_regs);
	expect("no-tpms-no-trap", trap_count, 0);
	call_el1(el1_buffer_regs);
	expect("e2pb-traps", trap_count, 1);
	/* PMBIDR_EL1.P from EL1 while EL2 owns the buffer (SPE 4.3.1) */
	expect("pmbidr-el1-p", el1_pmbidr, 0x30);
	/* E2PB = 0b11: EL1 owns the buffer and its registers */
	trap_count = 0;
	write_sys("mdcr_el2", mdcr | (3u << 12));
	call_el1(el1_buffer_regs);
	expect("e2pb-el1-owner", trap_count, 0);
	expect("pmbidr-el1-owner", el1_pmbidr, 0x20);
	write_sys("mdcr_el2", mdcr);
}

/* A loop of loads, stores and branches for the sampler. */
static void __attribute__((noinline)) workload(unsigned int iters)
{
	for (unsigned int i = 0; i < iters; i++)
		sink[i & 63] = sink[(i * 7) & 63] + i;
}

static void program_buffer(uint64_t base, uint64_t limit)
{
	write_sys(PMBSR_EL1, 0);
	write_sys(PMBPTR_EL1, base);
	write_sys(PMBLIMITR_EL1, limit | 1); /* E */
}

static void program_sampler(uint64_t irr, uint64_t icr, uint64_t fcr, uint64_t evfr)
{
	write_sys(PMSIRR_EL1, irr);
	write_sys(PMSICR_EL1, icr);
	write_sys(PMSEVFR_EL1, evfr);
	write_sys(PMSFCR_EL1, fcr);
}

static void start_sampling(uint64_t base, uint64_t limit, uint64_t scr)
{
	program_buffer(base, limit);
	program_sampler(256, 0, 0, 0); /* interval 256 operations */
	write_sys(PMSCR_EL2, scr);
}

static void stop_sampling(void)
{
	write_sys(PMSCR_EL2, 0);
	psb_csync();
	write_sys(PMBLIMITR_EL1, 0);
}

static void dump_buffer(const uint8_t *p, uint64_t len)
{
	for (uint64_t off = 0; off < len; off += 32) {
		printf("SPE-BUF ");
		for (uint64_t i = off; i < len && i < off + 32; i++)
			printf("%02x", p[i]);
		printf("\n");
	}
}

static void check_sampling(void)
{
	uint64_t base = (uint64_t)spe_buf;
	/* E2SPE, PA, TS, PCT: EL2 samples, physical addresses, physical counter timestamps */
	uint64_t scr = (1u << 1) | (1u << 4) | (1u << 5) | (1u << 6);
	uint64_t before, after;

	start_sampling(base, base + sizeof(spe_buf), scr);
	workload(2000);
	write_sys(PMSCR_EL2, 0);
	before = read_sys(PMBPTR_EL1);
	psb_csync();
	after = read_sys(PMBPTR_EL1);
	write_sys(PMBLIMITR_EL1, 0);
	/* Records wait in the PE until PSB CSYNC (SPE 3.6): the write pointer moves there */
	result("records-held-until-psb", after > before, after - before, 1);
	result("records-written", after > base && after - base >= 16 * 20, after - base, 320);
	expect("no-event", read_sys(PMBSR_EL1), 0);
	/* The first record starts with the PC address packet of EL2 (D18.2.1) */
	expect("first-packet", spe_buf[0], 0xb0);
	expect("first-pc-el", (spe_buf[8] >> 5) & 3, 2);
	dump_buffer(spe_buf, after - base);
}

/*
 * Switching buffers without PSB CSYNC (what a hypervisor must not do, SPE 3.6): the records the
 * PE still holds are written to whichever buffer is programmed when they leave it.
 */
static void check_switch_without_psb(void)
{
	uint64_t first = (uint64_t)spe_buf, second = first + sizeof(spe_buf) / 2;
	uint64_t held;

	start_sampling(first, second, 1u << 1);
	workload(2000);
	write_sys(PMSCR_EL2, 0);
	held = read_sys(PMBPTR_EL1);
	write_sys(PMBLIMITR_EL1, 0);
	write_sys(PMBPTR_EL1, second);
	write_sys(PMBLIMITR_EL1, (second + sizeof(spe_buf) / 2) | 1);
	psb_csync();
	result("held-records-reach-next-buffer", read_sys(PMBPTR_EL1) > second,
	       read_sys(PMBPTR_EL1) - second, 1);
	result("first-buffer-short", held > first, held - first, 1);
	expect("next-buffer-starts-with-record", spe_buf[sizeof(spe_buf) / 2], 0xb0);
	write_sys(PMBLIMITR_EL1, 0);
}

/* The size of the packet whose header is h (D18.2), 0 for one this model never writes. */
static unsigned int packet_size(uint8_t h)
{
	if ((h & 0xf8) == 0xb0 || h == 0x71)
		return 9; /* Address, Timestamp */
	if ((h & 0xfc) == 0x48)
		return 2; /* Operation Type */
	if (h == 0x52 || (h & 0xf8) == 0x98)
		return 3; /* Events (halfword), Counter */
	if ((h & 0xfc) == 0x64)
		return 5; /* Context */
	return h == 0x01 ? 1 : 0;
}

/* How many records [base, end) holds, and whether each one's Operation Type header is op. */
static unsigned int records_all_of_type(const uint8_t *p, uint64_t len, uint8_t op, int *all)
{
	unsigned int n = 0;
	uint64_t pos = 0;

	*all = 1;
	while (pos < len) {
		uint8_t h = p[pos];
		unsigned int sz = packet_size(h);

		if (!sz) {
			*all = 0;
			return n;
		}
		if ((h & 0xfc) == 0x48 && h != op)
			*all = 0;
		if (h == 0x71 || h == 0x01)
			n++;
		pos += sz;
	}
	return n;
}

/* PMSFCR_EL1 filters (D17.5): FT with B keeps branches, FL with MINLAT 4 keeps loads/stores. */
static void check_filter(const char *name, uint64_t fcr, uint64_t minlat, uint8_t op)
{
	uint64_t base = (uint64_t)spe_buf, len;
	unsigned int n;
	int all;

	start_sampling(base, base + sizeof(spe_buf), (1u << 1) | (1u << 5));
	write_sys(PMSFCR_EL1, fcr);
	write_sys(PMSLATFR_EL1, minlat);
	workload(2000);
	stop_sampling();
	write_sys(PMSFCR_EL1, 0);
	write_sys(PMSLATFR_EL1, 0);
	len = read_sys(PMBPTR_EL1) - base;
	n = records_all_of_type(spe_buf, len, op, &all);
	result(name, n > 0 && all, n, all);
}

/* What the checks below read of a record. */
struct record {
	uint64_t pc, ts;
	uint32_t events;
};

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/*
 * The record at *pos of [p, p + len): its PC (Address INDEX 0, D18.2.1), Events (D18.2.6) and
 * Timestamp (D18.2.9). Returns 0 at the end of the data or at a packet this model never writes.
 */
static int next_record(const uint8_t *p, uint64_t len, uint64_t *pos, struct record *r)
{
	r->pc = r->ts = 0;
	r->events = 0;
	while (*pos < len) {
		uint8_t h = p[*pos];
		unsigned int sz = packet_size(h);

		if (!sz || *pos + sz > len)
			return 0;
		if (h == 0xb0)
			r->pc = le64(p + *pos + 1) & ((1ull << 56) - 1);
		if (h == 0x52)
			r->events = p[*pos + 1] | (uint32_t)p[*pos + 2] << 8;
		if (h == 0x71)
			r->ts = le64(p + *pos + 1);
		*pos += sz;
		if (h == 0x71 || h == 0x01)
			return 1;
	}
	return 0;
}

/* Sample workload(iters) at EL2 with Timestamps; the bytes of records written. */
static uint64_t sample_run(uint64_t irr, uint64_t fcr, uint64_t evfr, unsigned int iters)
{
	uint64_t base = (uint64_t)spe_buf;

	program_buffer(base, base + sizeof(spe_buf));
	program_sampler(irr, 0, fcr, evfr);
	write_sys(PMSCR_EL2, (1u << 1) | (1u << 5) | (1u << 6)); /* E2SPE, TS, PCT */
	workload(iters);
	stop_sampling();
	program_sampler(0, 0, 0, 0);
	return read_sys(PMBPTR_EL1) - base;
}

/*
 * The smallest and largest distance between consecutive records' Timestamps. Under -icount
 * shift=0 the virtual clock moves 1 ns per instruction, so with the 1 GHz counter a distance is
 * the number of instructions (the sample population: ArchInst) from one sampled operation to
 * the next (each Timestamp is taken as the instruction after it starts, docs/qemu-spe.md).
 */
static unsigned int ts_spacing(uint64_t len, uint64_t *lo, uint64_t *hi)
{
	struct record r;
	uint64_t pos = 0, prev = 0;
	unsigned int n = 0;

	*lo = ~0ull;
	*hi = 0;
	while (next_record(spe_buf, len, &pos, &r)) {
		if (n++) {
			uint64_t d = r.ts - prev;

			*lo = d < *lo ? d : *lo;
			*hi = d > *hi ? d : *hi;
		}
		prev = r.ts;
	}
	return n ? n - 1 : 0;
}

/*
 * PMSIRR_EL1 (SPE 3.1.2, 4.3.12): with RND = 0 the sampled operations are INTERVAL * 256 + 1
 * members of the population apart; with RND = 1 and PMSIDR_EL1.ERnd = 0 COUNT[7:0] is reloaded
 * with a random 0-255, so INTERVAL * 256 + 1 to INTERVAL * 256 + 256 apart, not always the
 * same; with ERnd = 1 the secondary counter moves each sample by 0-255 after the primary
 * counter's expiry, so within 255 either side of INTERVAL * 256 + 1.
 */
static void check_interval(void)
{
	const uint64_t k = 3, want = k * 256 + 1;
	uint64_t lo, hi, min, max;
	unsigned int n;

	expect("cntfrq-1ghz", read_sys("cntfrq_el0"), 1000000000);
	n = ts_spacing(sample_run(k << 8, 0, 0, 3000), &lo, &hi);
	result("interval-fixed", n >= 8 && lo == want && hi == want, lo == want ? hi : lo, want);

	min = (read_sys(PMSIDR_EL1) >> 5) & 1 ? want - 255 : want;
	max = want + 255;
	n = ts_spacing(sample_run((k << 8) | 1, 0, 0, 3000), &lo, &hi);
	result("interval-random-range", n >= 8 && lo >= min && hi <= max, lo < min ? lo : hi,
	       lo < min ? min : max);
	result("interval-random-varies", n >= 8 && hi > lo, hi - lo, 1);
}

/*
 * Where the first sampled operation lies, in instructions after the ISB that enables profiling
 * with PMSICR_EL1 = count (interval 65536: one sample in the 256 NOPs); -1 if none.
 */
static int64_t first_sample_after(uint64_t count)
{
	uint64_t base = (uint64_t)spe_buf, scr = 1u << 1, start;
	struct record r;
	uint64_t pos = 0;

	program_buffer(base, base + sizeof(spe_buf));
	program_sampler(1u << 16, count, 0, 0);
	__asm__ volatile("adr %0, 1f\n\t"
			 "msr " PMSCR_EL2 ", %1\n\t"
			 "isb\n"
			 "1:\n\t"
			 ".rept 256\n\tnop\n\t.endr\n\t"
			 "msr " PMSCR_EL2 ", xzr\n\t"
			 "isb"
			 : "=&r"(start)
			 : "r"(scr)
			 : "memory");
	psb_csync();
	write_sys(PMBLIMITR_EL1, 0);
	program_sampler(0, 0, 0, 0);
	if (!next_record(spe_buf, read_sys(PMBPTR_EL1) - base, &pos, &r))
		return -1;
	return (int64_t)(r.pc - start) / 4;
}

/*
 * PMSICR_EL1 non-zero when profiling becomes enabled: counting resumes from it (SPE 3.1.1), so
 * COUNT 140 selects the operation 100 instructions after the one COUNT 40 selects (a reload
 * would take the interval, 65536: no sample). Counting down to zero, the operation selected
 * is the one after COUNT members (SPE 3.1.2): the NOP at index COUNT, or COUNT - 1 if the
 * enabling ISB is a member too (its own profiling is not guaranteed, only what follows it).
 */
static void check_interval_resume(void)
{
	int64_t a = first_sample_after(40), b = first_sample_after(140);

	result("interval-resume", a >= 0 && b - a == 100, (uint64_t)(b - a), 100);
	result("interval-resume-first", a == 39 || a == 40, (uint64_t)a, 40);
}

/* How many records [spe_buf, +len) holds and how many of them have Events bit e. */
static unsigned int records_with_event(uint64_t len, unsigned int e, unsigned int *with)
{
	struct record r;
	uint64_t pos = 0;
	unsigned int n = 0;

	*with = 0;
	while (next_record(spe_buf, len, &pos, &r)) {
		n++;
		*with += (r.events >> e) & 1;
	}
	return n;
}

/*
 * PMSFCR_EL1.FE with PMSEVFR_EL1 (D17.5.2, SPE 4.3.8): only records whose Events packet has
 * every required event are written. This QEMU sets E[1] (retired) in every record and never
 * E[3], E[5], E[7] (docs/qemu-spe.md): E[1] keeps all the records, the others none, and E[1]
 * with E[3] (both required) none.
 */
static void check_event_filter(void)
{
	static const char *const none_name[] = { "evfilter-e3-none", "evfilter-e5-none",
						 "evfilter-e7-none", "evfilter-e1-e3-none" };
	static const uint64_t none_evfr[] = { 1u << 3, 1u << 5, 1u << 7, (1u << 1) | (1u << 3) };
	unsigned int all, n, with;

	all = records_with_event(sample_run(256, 0, 0, 2000), 1, &with);
	result("evfilter-off-retired", all >= 8 && with == all, with, all);
	n = records_with_event(sample_run(256, 1, 1u << 1, 2000), 1, &with);
	result("evfilter-e1-all", n == all && with == n, n, all);
	for (unsigned int i = 0; i < 4; i++)
		expect(none_name[i], sample_run(256, 1, none_evfr[i], 2000), 0);
}

/* HCR_EL2.E2H: at EL2 PMSCR_EL1 names PMSCR_EL2, PMSCR_EL12 names PMSCR_EL1 (SPE 4.3.6). */
static void check_e2h_alias(void)
{
	uint64_t hcr = read_sys("hcr_el2");

	write_sys("hcr_el2", hcr | (1ull << 34));
	write_sys(PMSCR_EL1, 0x41);	 /* PMSCR_EL2: PCT, E0HSPE */
	write_sys("S3_5_C9_C9_0", 0x18); /* PMSCR_EL12: PA, CX */
	write_sys("hcr_el2", hcr);
	expect("e2h-pmscr-el1-is-el2", read_sys(PMSCR_EL2), 0x41);
	expect("e2h-pmscr-el12-is-el1", read_sys(PMSCR_EL1), 0x18);
	write_sys(PMSCR_EL2, 0);
	write_sys(PMSCR_EL1, 0);
}

static void check_buffer_full(void)
{
	uint64_t base = (uint64_t)spe_buf;
	uint64_t limit = base + 4096;
	uint64_t sr, ptr;

	start_sampling(base, limit, 1u << 1);
	workload(20000);
	sr = read_sys(PMBSR_EL1);
	ptr = read_sys(PMBPTR_EL1);
	/* S set, EC 0 (other), BSC 1 (buffer filled), DL clear (SPE 3.5.2) */
	expect("full-pmbsr", sr, (1u << 17) | 1);
	result("full-ptr-near-limit", ptr <= limit && limit - ptr < 64, limit - ptr, 63);
	expect("full-pmbirq-high", pmbirq_level(), 1);
	write_sys(PMBSR_EL1, 0);
	expect("pmbirq-cleared", pmbirq_level(), 0);
	stop_sampling();
}

static void check_fault(void)
{
	/* MMU off at EL2: a VA above the PA range is an Address size fault, level 0 */
	uint64_t bad = 0xfff0000000000000ull;

	start_sampling(bad, bad + 0x10000, 1u << 1);
	workload(4000);
	write_sys(PMSCR_EL2, 0);
	psb_csync();
	/* S set, EC 0x24 (stage 1 Data Abort), FSC 0b000000 (SPE 4.3.4) */
	expect("fault-pmbsr", read_sys(PMBSR_EL1), (0x24ull << 26) | (1u << 17));
	expect("fault-pmbptr", read_sys(PMBPTR_EL1), bad);
	expect("fault-pmbirq-high", pmbirq_level(), 1);
	write_sys(PMBSR_EL1, 0);
	write_sys(PMBLIMITR_EL1, 0);
}

/*
 * The cost of sampling: the same loop with profiling off and on (interval 4096, PMSIDR_EL1's
 * recommendation, with PA and timestamps), in generic counter ticks. Without -icount the
 * counter follows the host's time: the ratio is QEMU's slowdown (docs/qemu-spe.md).
 */
static void bench(void)
{
	uint64_t base = (uint64_t)spe_buf, t0, t1, t2;
	uint64_t scr = (1u << 1) | (1u << 4) | (1u << 5) | (1u << 6);

	t0 = read_sys("cntpct_el0");
	workload(2000000);
	t1 = read_sys("cntpct_el0");
	start_sampling(base, base + sizeof(spe_buf), scr);
	write_sys(PMSIRR_EL1, 4096);
	write_sys(PMBLIMITR_EL1, 0); /* a buffer that never fills: rewind it each pass */
	for (int pass = 0; pass < 8; pass++) {
		write_sys(PMBPTR_EL1, base);
		write_sys(PMBLIMITR_EL1, (base + sizeof(spe_buf)) | 1);
		workload(250000);
		write_sys(PMBLIMITR_EL1, 0);
	}
	t2 = read_sys("cntpct_el0");
	stop_sampling();
	printf("spe-bench: loop of 2000000 iterations: %lu ticks unsampled, %lu ticks sampled\n",
	       (unsigned long)(t1 - t0), (unsigned long)(t2 - t1));
}

/*
 * EL1 owns the buffer (MDCR_EL2.E2PB = 0b11) and samples itself with its MMU off under a stage 2
 * translation that maps only the 1 GiB block of RAM at IPA 0x40000000: a buffer at IPA
 * 0x80000000 takes a stage 2 Translation fault, level 1 (EC 0x25, FSC 0b000101, SPE 3.5.3); a
 * buffer starting 16 bytes below it loses the record that crosses the boundary (DL).
 */
static uint64_t s2_table[512] __attribute__((aligned(4096)));

static void el1_workload(void)
{
	workload(4000);
	__asm__ volatile("hvc #1");
}

static uint64_t stage2_fault_run(uint64_t ptr)
{
	uint64_t mdcr = read_sys("mdcr_el2"), hcr = read_sys("hcr_el2");
	uint64_t sr;

	/* VTCR_EL2: T0SZ 32, SL0 1 (level 1 start), inner/outer WB, inner shareable, 4K, PS 32-bit */
	write_sys("vtcr_el2", 32 | (1u << 6) | (1u << 8) | (1u << 10) | (3u << 12));
	write_sys("vttbr_el2", (uint64_t)s2_table);
	__asm__ volatile("tlbi vmalls12e1\n\tdsb nsh\n\tisb" ::: "memory");
	write_sys("mdcr_el2", mdcr | (3u << 12));
	write_sys(PMBSR_EL1, 0);
	write_sys(PMBPTR_EL1, ptr);
	write_sys(PMBLIMITR_EL1, 0x80010000ull | 1);
	write_sys(PMSIRR_EL1, 256);
	write_sys(PMSICR_EL1, 0);
	write_sys(PMSCR_EL1, 1u << 1); /* E1SPE */
	write_sys("hcr_el2", hcr | 1); /* VM */
	call_el1(el1_workload);
	write_sys("hcr_el2", hcr);
	write_sys(PMSCR_EL1, 0);
	psb_csync();
	sr = read_sys(PMBSR_EL1);
	write_sys(PMBSR_EL1, 0);
	write_sys(PMBLIMITR_EL1, 0);
	write_sys("mdcr_el2", mdcr);
	return sr;
}

static void check_stage2_fault(void)
{
	uint64_t want = (0x25ull << 26) | (1u << 17) | 0x05;

	/* Block descriptor: valid, MemAttr normal WB, S2AP RW, inner shareable, AF */
	s2_table[1] = 0x40000000ull | 0x7fd;
	expect("s2-fault-pmbsr", stage2_fault_run(0x80000000ull), want);
	expect("s2-fault-pmbptr", read_sys(PMBPTR_EL1), 0x80000000ull);
	/* The first record starts at 0x7ffffff0 and is cut at 0x80000000: DL (bit 19) */
	expect("s2-fault-dl", stage2_fault_run(0x7ffffff0ull), want | (1u << 19));
	expect("s2-fault-dl-pmbptr", read_sys(PMBPTR_EL1), 0x80000000ull);
}

void smoke_main(void)
{
	printf("spe-smoke: EL2, FEAT_SPE\n");
	check_ids_and_reset();
	check_traps();
	check_sampling();
	check_filter("filter-branch", (1u << 1) | (1u << 16), 0, 0x4a);
	check_filter("filter-latency", 1u << 2, 4, 0x49);
	check_event_filter();
	check_interval();
	check_interval_resume();
	check_e2h_alias();
	check_switch_without_psb();
	check_buffer_full();
	check_fault();
	check_stage2_fault();
	bench();
	printf("spe-smoke: %u failures\n", failures);
	printf("SUITE DONE\n");
}
