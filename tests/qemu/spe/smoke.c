// SPDX-License-Identifier: MIT
/*
 * FEAT_SPE smoke test of the project's QEMU (platform/qemu patches, -cpu max,spe=on), run at
 * EL2 on the virt board with the MMU off. Checks, each as a "RESULT spe-<name> PASS|FAIL" line:
 * the ID and reset values and RES0 masks of the SPE registers (SPE supplement, Arm DDI 0586A,
 * 4.3), MDCR_EL2.TPMS and E2PB traps from EL1 (SPE 3.2.3, 3.4.6), the fine-grained traps of
 * HDFGRTR_EL2/HDFGWTR_EL2, PMBIDR_EL1.P (smoke_regs.c); sampling a loop into the Profiling
 * Buffer (whose bytes go to the console as "SPE-BUF" lines for tools/vperf-spe:
 * tests/qemu/spe/smoke.sh), records held back until PSB CSYNC (SPE 3.6), the FT, FL and FE
 * (PMSEVFR_EL1) filters, the sampling interval with PMSIRR_EL1.RND 0 and 1 and PMSICR_EL1
 * resuming (SPE 3.1.1, 3.1.2) (smoke_sampling.c); the held records landing in the next buffer
 * when software switches without PSB CSYNC, the buffer-full event raising PMBIRQ on PPI INTID 21
 * (SPE 3.5.2), stage 1 and stage 2 fault events with DL (SPE 3.5.3) (smoke_buffer.c). This file:
 * what they share (buffer programming) and the order they run in; smoke_records.c parses records.
 * Packets and filters: Arm DDI 0487 K.a D18.2, D17.5. Ends with "SUITE DONE", then PSCI SYSTEM_OFF.
 */
#include "smoke.h"

/* QEMU virt, GICv3: the redistributor's SGI frame of CPU 0; ISPENDR0 shows a PPI's level. */
#define GICR_ISPENDR0 0x080b0200ul
#define PMBIRQ_INTID  21

uint64_t trap_esr, trap_count;

uint8_t spe_buf[32768] __attribute__((aligned(4096)));
static volatile uint64_t sink[64];

/* head.S */
void smoke_unexpected(uint64_t esr, uint64_t elr);
void smoke_main(void);

void smoke_unexpected(uint64_t esr, uint64_t elr)
{
	printf("RESULT spe-unexpected FAIL esr=0x%lx elr=0x%lx\n", (unsigned long)esr,
	       (unsigned long)elr);
	printf("SUITE DONE\n");
}

uint32_t pmbirq_level(void)
{
	return (*(volatile uint32_t *)GICR_ISPENDR0 >> PMBIRQ_INTID) & 1u;
}

/* A loop of loads, stores and branches for the sampler. */
void __attribute__((noinline)) workload(unsigned int iters)
{
	for (unsigned int i = 0; i < iters; i++)
		sink[i & 63] = sink[(i * 7) & 63] + i;
}

void program_buffer(uint64_t base, uint64_t limit)
{
	write_sys(PMBSR_EL1, 0);
	write_sys(PMBPTR_EL1, base);
	write_sys(PMBLIMITR_EL1, limit | 1); /* E */
}

void program_sampler(uint64_t irr, uint64_t icr, uint64_t fcr, uint64_t evfr)
{
	write_sys(PMSIRR_EL1, irr);
	write_sys(PMSICR_EL1, icr);
	write_sys(PMSEVFR_EL1, evfr);
	write_sys(PMSFCR_EL1, fcr);
}

void start_sampling(uint64_t base, uint64_t limit, uint64_t scr)
{
	program_buffer(base, limit);
	program_sampler(256, 0, 0, 0); /* interval 256 operations */
	write_sys(PMSCR_EL2, scr);
}

void stop_sampling(void)
{
	write_sys(PMSCR_EL2, 0);
	psb_csync();
	write_sys(PMBLIMITR_EL1, 0);
}

void dump_buffer(const uint8_t *p, uint64_t len)
{
	for (uint64_t off = 0; off < len; off += 32) {
		printf("SPE-BUF ");
		for (uint64_t i = off; i < len && i < off + 32; i++)
			printf("%02x", p[i]);
		printf("\n");
	}
}

/* Sample workload(iters) at EL2 with Timestamps; the bytes of records written. */
uint64_t sample_run(uint64_t irr, uint64_t fcr, uint64_t evfr, unsigned int iters)
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

void smoke_main(void)
{
	printf("spe-smoke: EL2, FEAT_SPE\n");
	check_ids_and_reset();
	check_traps();
	check_fgt();
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
	check_exception_completes_sample();
	check_disable_completes_sample();
	check_eret_completes_sample();
	check_completion();
	bench();
	printf("spe-smoke: %u failures\n", smoke_failures);
	printf("SUITE DONE\n");
}
