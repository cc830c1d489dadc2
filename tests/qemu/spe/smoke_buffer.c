// SPDX-License-Identifier: MIT
/*
 * FEAT_SPE smoke test (smoke.c), the Profiling Buffer: records held across a buffer switch
 * without PSB CSYNC, the buffer-full event and PMBIRQ, stage 1 and stage 2 fault events (with
 * DL), and the cost of sampling (SPE_BENCH). SPE supplement (Arm DDI 0586A) 3.5, 3.6, 4.3.4.
 */
#include "smoke.h"

/*
 * Switching buffers without PSB CSYNC (what a hypervisor must not do, SPE 3.6): the records the
 * PE still holds are written to whichever buffer is programmed when they leave it.
 */
void check_switch_without_psb(void)
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

void check_buffer_full(void)
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

void check_fault(void)
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
void bench(void)
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
uint64_t s2_table[512] __attribute__((aligned(4096)));

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

void check_stage2_fault(void)
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

/*
 * An operation sampled just before an exception to an Exception level where profiling is
 * disabled: its record must not be lost. After the exception, a context synchronization event,
 * PSB CSYNC synchronizes the profiling of every instruction before it, and a DSB after the
 * PSB CSYNC completes the records' writes (SPE 3.6). EL1 owns the buffer (MDCR_EL2.E2PB = 0b11,
 * no stage 2, its MMU off) and samples itself; PMSICR_EL1.COUNT = 9 selects the ninth member,
 * the HVC after eight NOPs: the last instruction EL1 runs before EL2, where profiling is
 * disabled (the owner is below EL2, SPE 3.2.3). So a hypervisor finds the record of the last
 * operation its guest ran when it drains the buffer at a vCPU switch.
 */
void el1_nops_hvc(void);
extern const char el1_sampled_hvc[];
__asm__(".text\n\t.balign 4\n\t.globl el1_nops_hvc\n"
	"el1_nops_hvc:\n\t.rept 8\n\tnop\n\t.endr\n\t.globl el1_sampled_hvc\n"
	"el1_sampled_hvc:\n\thvc #1\n");

/*
 * Sample el1_nops_hvc at EL1 with virtual Timestamps and drain at EL2 with PSB CSYNC, after
 * writing PMSICR_EL1 first (what a hypervisor restoring the next vCPU does) when rewrite_icr.
 * Returns the bytes of records written; *icr is PMSICR_EL1 read at EL2 right after the HVC,
 * [*t0, *t1] the virtual counter before and after the run.
 */
static uint64_t el1_hvc_run(int rewrite_icr, uint64_t *icr, uint64_t *t0, uint64_t *t1)
{
	uint64_t mdcr = read_sys("mdcr_el2"), base = (uint64_t)spe_buf, len;

	write_sys("mdcr_el2", mdcr | (3u << 12));
	program_buffer(base, base + sizeof(spe_buf));
	program_sampler(256, 9, 0, 0);
	write_sys(PMSCR_EL1, (1u << 1) | (1u << 5)); /* E1SPE, TS (virtual) */
	*t0 = read_sys("cntvct_el0");
	call_el1(el1_nops_hvc);
	*icr = read_sys(PMSICR_EL1);
	if (rewrite_icr)
		write_sys(PMSICR_EL1, 0);
	psb_csync();
	*t1 = read_sys("cntvct_el0");
	len = read_sys(PMBPTR_EL1) - base;
	write_sys(PMSCR_EL1, 0);
	write_sys(PMBLIMITR_EL1, 0);
	write_sys(PMSICR_EL1, 0);
	write_sys("mdcr_el2", mdcr);
	return len;
}

/* The first record of spe_buf is the HVC's: its PC at EL1, E[1], E[0], a Timestamp in range. */
static void check_hvc_record(const char *name, uint64_t len, uint64_t t0, uint64_t t1)
{
	struct record r;
	uint64_t pos = 0;
	char n[48];
	int found = next_record(spe_buf, len, &pos, &r);

	snprintf(n, sizeof(n), "%s-record", name);
	result(n, found && r.pc == (uint64_t)el1_sampled_hvc, found ? r.pc : 0,
	       (uint64_t)el1_sampled_hvc);
	snprintf(n, sizeof(n), "%s-el1", name);
	expect(n, found ? (spe_buf[8] >> 5) & 3 : 0, 1);
	/* E[1] architecturally retired, E[0] generated an exception (SPE 5.3.7) */
	snprintf(n, sizeof(n), "%s-events", name);
	expect(n, r.events & 3, 3);
	snprintf(n, sizeof(n), "%s-timestamp", name);
	result(n, found && r.ts >= t0 && r.ts <= t1, r.ts, t0);
}

void check_exception_completes_sample(void)
{
	uint64_t icr, t0, t1, len;

	len = el1_hvc_run(0, &icr, &t0, &t1);
	check_hvc_record("exc-psb", len, t0, t1);
	/* The HVC brought COUNT to zero; no member since reloaded it (SPE 3.1.1) */
	expect("exc-icr-zero", icr, 0);
	/* A PMSICR_EL1 write before the PSB CSYNC loses no record of an earlier operation */
	len = el1_hvc_run(1, &icr, &t0, &t1);
	check_hvc_record("exc-icr-write-psb", len, t0, t1);
}

/*
 * The selected operation is the MSR that disables profiling (PMSCR_EL2.E2SPE = 0, as a driver
 * stopping a session does: then ISB, PSB CSYNC, DSB). The operation was selected, so its record
 * is written at that PSB CSYNC (SPE 3.6). Members: the enabling ISB (docs/qemu-spe.md,
 * interval-resume-first), eight NOPs, then the MSR, the tenth, which COUNT = 10 selects.
 */
void check_disable_completes_sample(void)
{
	uint64_t base = (uint64_t)spe_buf, scr = 1u << 1, msr_pc, len;
	struct record r;
	uint64_t pos = 0;
	int found;

	program_buffer(base, base + sizeof(spe_buf));
	program_sampler(256, 10, 0, 0);
	__asm__ volatile("adr %0, 1f\n\t"
			 "msr " PMSCR_EL2 ", %1\n\t"
			 "isb\n\t"
			 ".rept 8\n\tnop\n\t.endr\n"
			 "1:\n\t"
			 "msr " PMSCR_EL2 ", xzr\n\t"
			 "isb"
			 : "=&r"(msr_pc)
			 : "r"(scr)
			 : "memory");
	psb_csync();
	len = read_sys(PMBPTR_EL1) - base;
	write_sys(PMBLIMITR_EL1, 0);
	program_sampler(0, 0, 0, 0);
	found = next_record(spe_buf, len, &pos, &r);
	result("disable-psb-record", found && r.pc == msr_pc, found ? r.pc : 0, msr_pc);
}

/*
 * The operation selected is an ERET from EL2, the owner, into EL1 where profiling is disabled
 * (PMSCR_EL1.E1SPE = 0): no sampled instruction follows it, so the exception return completes
 * it, a branch (Operation Type 0x4a, indirect) whose target (Address INDEX 1, D18.2.1) is the
 * first instruction of EL1, at EL1. Completed only at the next exception, the HVC, its target
 * would be the HVC's return address.
 */
void check_eret_completes_sample(void)
{
	uint64_t base = (uint64_t)spe_buf, len, pos = 0, target = 0;
	unsigned int target_el = 0;
	struct record r;
	int found;

	program_buffer(base, base + sizeof(spe_buf));
	program_sampler(256, 2, 0, 0); /* the ISB, then the ERET */
	write_sys(PMSCR_EL1, 0);
	call_el1_sampled(el1_nops_hvc, 1u << 1); /* E2SPE */
	write_sys(PMSCR_EL2, 0);
	psb_csync();
	len = read_sys(PMBPTR_EL1) - base;
	write_sys(PMBLIMITR_EL1, 0);
	program_sampler(0, 0, 0, 0);
	/* The first record's branch target packet */
	while (pos < len && spe_buf[pos] != 0x71 && spe_buf[pos] != 0x01 &&
	       packet_size(spe_buf[pos])) {
		if (spe_buf[pos] == 0xb1) {
			for (int i = 7; i >= 0; i--)
				target = (target << 8) | spe_buf[pos + 1 + i];
			target_el = (unsigned int)(target >> 61) & 3;
			target &= (1ull << 56) - 1;
		}
		pos += packet_size(spe_buf[pos]);
	}
	pos = 0;
	found = next_record(spe_buf, len, &pos, &r);
	result("eret-record", found && r.pc == (uint64_t)call_el1_sampled_eret, found ? r.pc : 0,
	       (uint64_t)call_el1_sampled_eret);
	expect("eret-target", target, (uint64_t)el1_nops_hvc);
	expect("eret-target-el1", target_el, 1);
}
