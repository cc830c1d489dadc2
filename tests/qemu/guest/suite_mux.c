// SPDX-License-Identifier: MIT
/*
 * Counter chaining and multiplexing, as a guest sees them.
 *
 * chain-swinc: an even counter counting SW_INCR that overflows at 32 bits (PMCR_EL0.LP = 0)
 * increments its odd neighbour when that one counts CHAIN (event 0x1E; Arm ARM D14, I5.3.21):
 * one 64-bit count in two counters. A hypervisor that emulates PMSWINC in software (vperf does:
 * written at EL2, SW_INCR would count at EL2) must chain in software too. QEMU 7.2 and 10.0
 * implement no CHAIN event (the project's QEMU does: pmu-chain-event.patch).
 *
 * chain-insns (under -icount, where QEMU counts INST_RETIRED): the same with an even counter
 * counting instructions 4096 short of its 32-bit wrap over a loop of some 100 000: its overflow,
 * which QEMU finds from a timer or at the next PMU access, counts once in the CHAIN counter.
 *
 * chain-cycles (with and without -icount): the same with an even counter counting CPU_CYCLES
 * 2^17 short of its wrap, run until its overflow flag shows (at most a second: some 10^9 cycles
 * of QEMU's 1 GHz clock, far from a second wrap), so the relation holds whatever the host's
 * speed: the CHAIN counter went from 5 to 6, the even counter wrapped, only its flag is set
 * (SKIP where the VM's filter denies CPU_CYCLES: PMCEID0_EL0 hides it).
 * In the emulated partition the pair must run on an even/odd physical pair, or be chained in
 * software on one slot (docs/vpmu.md).
 *
 * mux-rotation (bootargs mux=S): the hypervisor runs the guest's counters on only S physical
 * counters (vperf's emulated partition with emu_slots = S), rotating which are live at each
 * load, as perf rotates events. Every counter then counts part of the time: each counted
 * something but clearly less than the cycle counter, and together at most S times its count.
 */
#include "suite.h"

#define EVT_CHAIN 0x1eu

/* Counter 0 counting event from start, counter 1 counting CHAIN (0x1E) from 5, both enabled, with
 * PMCR_EL0.LP = 0: counter 0 overflows at 32 bits, and each overflow increments counter 1. */
static void chain_pair_start(uint32_t event, uint64_t start)
{
	pmu_quiesce();
	pmu_set_evtyper(0, event);
	pmu_set_evtyper(1, EVT_CHAIN);
	pmu_set_evcntr(0, start);
	pmu_set_evcntr(1, 5);
	write_sysreg(3, pmcntenset_el0);
	write_sysreg(PMCR_E, pmcr_el0);
}

static void chain_test(void)
{
	uint64_t lo, hi, ovs;

	if (pmu_n() < 2) {
		result("chain-swinc", SKIP, "needs two event counters, N = %u", pmu_n());
		return;
	}
	chain_pair_start(EVT_SW_INCR, 0xffffffffull);
	write_sysreg(1, pmswinc_el0);
	isb();
	lo = pmu_evcntr(0) & 0xffffffffull, hi = pmu_evcntr(1), ovs = read_sysreg(pmovsset_el0);
	CHECK("chain-swinc", lo == 0 && hi == 6 && (ovs & 3) == 1,
	      "counter 0 %lx, CHAIN counter 1 %lu (want 6), PMOVSSET %lx", lo, hi, ovs);
	pmu_quiesce();
}

static void chain_insns_test(void)
{
	uint64_t lo, hi, ovs;

	if (pmu_n() < 2 || !(read_sysreg(pmceid0_el0) & BIT(EVT_INST_RET))) {
		result("chain-insns", SKIP, "needs two event counters and INST_RETIRED (-icount)");
		return;
	}
	chain_pair_start(EVT_INST_RET, 0xfffff000ull);
	isb();
	workload(20000);
	write_sysreg(0, pmcr_el0);
	isb();
	lo = pmu_evcntr(0) & 0xffffffffull, hi = pmu_evcntr(1), ovs = read_sysreg(pmovsset_el0);
	CHECK("chain-insns", lo > 0 && lo < 0x80000000ull && hi == 6 && (ovs & 3) == 1,
	      "counter 0 %lx after its wrap, CHAIN counter 1 %lu (want 6), PMOVSSET %lx", lo, hi,
	      ovs);
	pmu_quiesce();
}

static void chain_cycles_test(void)
{
	uint64_t lo, hi, ovs = 0, t0, end;

	if (pmu_n() < 2 || !(read_sysreg(pmceid0_el0) & BIT(EVT_CYCLES))) {
		result("chain-cycles", SKIP,
		       "needs two event counters and CPU_CYCLES (not denied)");
		return;
	}
	chain_pair_start(EVT_CYCLES, 0xffffffffull - 0x20000);
	t0 = now(), end = t0 + ms_to_ticks(1000);
	while (now() < end && !(ovs & 1)) {
		workload(1000);
		ovs = read_sysreg(pmovsset_el0);
	}
	write_sysreg(0, pmcr_el0);
	isb();
	lo = pmu_evcntr(0) & 0xffffffffull, hi = pmu_evcntr(1), ovs = read_sysreg(pmovsset_el0);
	CHECK("chain-cycles", lo < 0x80000000ull && hi == 6 && (ovs & 3) == 1,
	      "counter 0 %lx after its wrap (%lu us), CHAIN counter 1 %lu (want 6), PMOVSSET %lx",
	      lo, (now() - t0) * 1000 / ms_to_ticks(1), hi, ovs);
	pmu_quiesce();
}

static void mux_test(unsigned int slots)
{
	unsigned int n = pmu_n();
	uint64_t c[31], cycles, sum = 0;
	bool each = true;

	pmu_quiesce();
	for (unsigned int i = 0; i < n; i++)
		pmu_set_evtyper(i, EVT_CYCLES); /* EL1 and EL0 */
	write_sysreg(CYCLE_BIT | (BIT(n) - 1), pmcntenset_el0);
	write_sysreg(PMCR_E | PMCR_LC | PMCR_LP, pmcr_el0);
	/* Each WFI takes the vCPU off the pCPU, so each wake-up is a load: a rotation. */
	for (unsigned int k = 0; k < 2 * n; k++) {
		workload(20000);
		wfi_sleep_ms(1);
	}
	write_sysreg(0, pmcr_el0);
	isb();
	cycles = read_sysreg(pmccntr_el0);
	for (unsigned int i = 0; i < n; i++) {
		c[i] = pmu_evcntr(i);
		sum += c[i];
		each &= c[i] > 0 && c[i] < cycles / 10 * 9;
	}
	CHECK("mux-rotation", n > slots && each && sum <= slots * cycles / 10 * 11,
	      "%u counters on %u: counter 0 %lu, counter %u %lu, together %lu, cycles %lu", n,
	      slots, c[0], n - 1, c[n - 1], sum, cycles);
	pmu_quiesce();
}

void mux_tests(void)
{
	chain_test();
	chain_insns_test();
	chain_cycles_test();
	if (arg_str("mux"))
		mux_test((unsigned int)arg_u64("mux", 0));
}
