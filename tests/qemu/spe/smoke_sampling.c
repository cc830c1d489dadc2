// SPDX-License-Identifier: MIT
/*
 * FEAT_SPE smoke test (smoke.c), sampling: a loop sampled at EL2 into the Profiling Buffer, the
 * PMSFCR_EL1 filters (FT, FL, FE with PMSEVFR_EL1), the interval counter (PMSIRR_EL1,
 * PMSICR_EL1). SPE supplement (Arm DDI 0586A) 3.1, 3.6, 4.3; Arm DDI 0487 K.a D17.5, D18.2.
 */
#include "smoke.h"

void check_sampling(void)
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
void check_filter(const char *name, uint64_t fcr, uint64_t minlat, uint8_t op)
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
 * members of the population apart (the INTERVAL * 256 that count COUNT down to zero, the last of
 * them selected, and the next one, which finds COUNT zero and only reloads it); with RND = 1 and PMSIDR_EL1.ERnd = 0 COUNT[7:0] is reloaded
 * with a random 0-255, so INTERVAL * 256 + 1 to INTERVAL * 256 + 256 apart, not always the
 * same; with ERnd = 1 the secondary counter moves each sample by 0-255 after the primary
 * counter's expiry, so within 255 either side of INTERVAL * 256 + 1.
 */
void check_interval(void)
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
 * would take the interval, 65536: no sample). Each member decrements COUNT, and the one that
 * brings it to zero is selected (Arm DDI 0487 K.a J1.1.1, SPEToCollectSample(); SPE 3.1.2): the
 * COUNT-th member, the NOP at index COUNT - 1, or COUNT - 2 if the enabling ISB is a member too
 * (its own profiling is not guaranteed, only what follows it).
 */
void check_interval_resume(void)
{
	int64_t a = first_sample_after(40), b = first_sample_after(140);

	result("interval-resume", a >= 0 && b - a == 100, (uint64_t)(b - a), 100);
	result("interval-resume-first", a == 38 || a == 39, (uint64_t)a, 39);
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
void check_event_filter(void)
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
