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
