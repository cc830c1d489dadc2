// SPDX-License-Identifier: MIT
/*
 * The PMUv3 counting engine: which counters count an event at an Exception level, counter
 * widths and overflow, CHAIN, and the PMUIRQ level (Arm DDI 0487 K.a I5.3: PMCR_EL0 E/LP, MDCR_EL2
 * HPMN/HPME/HPMD/HCCD/HLP, PMCCR EPMN/EPME, PMEVTYPER<n> P/U/NSH, PMOVSSET, PMINTENSET).
 */
#include "pmu_internal.h"

#define PMCCR_RANGE3 3u

/* MDCR_EL2.HPMN as counting at el sees it (the synchronization window, pmu_sync.c). */
static unsigned int counting_hpmn(unsigned int cpu, unsigned int el)
{
	unsigned int hpmn = (unsigned int)(pmu_counting_reg(cpu, el, SIM_ENC_MDCR_EL2) &
					   SIM_MDCR_EL2_HPMN_MASK);

	return hpmn > pmu_epmn() ? pmu_epmn() : hpmn;
}

static bool counter_enabled_by_range(unsigned int cpu, unsigned int n, unsigned int el)
{
	uint64_t mdcr = pmu_counting_reg(cpu, el, SIM_ENC_MDCR_EL2);

	/* PMCR_EL0.E enables the first range, the cycle counter and the instruction counter,
	 * MDCR_EL2.HPME the second, PMCCR.EPME the third (I5.3.21, I5.3.47). */
	if (n == PMU_CYCLE_BIT || n == PMU_ICNTR_BIT || n < counting_hpmn(cpu, el))
		return pmu_counting_reg(cpu, el, SIM_ENC_PMCR_EL0) & PMCR_E;
	if (n < pmu_epmn())
		return mdcr & SIM_MDCR_EL2_HPME;
	return sim_model_config()->epme;
}

static bool bit(uint64_t v, uint64_t b)
{
	return (v & b) != 0;
}

/* Filtering by Exception level and Security state (PMEVTYPER<n>_EL0 / PMCCFILTR_EL0 /
 * PMICFILTR_EL0 field descriptions, I5.3.30 / I5.3.2 / I5.3.32): P excludes EL1 and U EL0; with
 * EL3, Non-secure EL1 (EL0) is counted when NSK (NSU) equals P (U), Secure EL1/EL0 by P/U alone,
 * EL3 when M equals P; NSH includes EL2; Secure EL2 (FEAT_SEL2) is not counted when SH equals
 * NSH, so NSH = 1 with SH = 0 counts it. */
static bool filter_allows(uint64_t t, unsigned int el)
{
	bool el3 = sim_model_config()->el3, secure = sim_secure();

	switch (el) {
	case 3:
		return el3 && bit(t, EVTYPER_M) == bit(t, EVTYPER_P);
	case 2:
		if (secure)
			return sim_model_config()->sel2 &&
			       bit(t, EVTYPER_NSH) != bit(t, EVTYPER_SH);
		return bit(t, EVTYPER_NSH);
	case 1:
		return el3 && !secure ? bit(t, EVTYPER_NSK) == bit(t, EVTYPER_P)
				      : !bit(t, EVTYPER_P);
	default:
		return el3 && !secure ? bit(t, EVTYPER_NSU) == bit(t, EVTYPER_U)
				      : !bit(t, EVTYPER_U);
	}
}

/* Event counting is prohibited at EL3 and in Secure state unless MDCR_EL3.SPME is 1; the cycle
 * counter only when PMCR_EL0.DP is 1 (I5.3.21 DP). */
static bool prohibited_secure(unsigned int cpu, unsigned int n)
{
	if (!(sim_secure() || sim_el() == 3) || sim_model_config()->mdcr_el3_spme)
		return false;
	return n != PMU_CYCLE_BIT || (sim_reg(cpu, SIM_ENC_PMCR_EL0) & PMCR_DP);
}

/* Counting prohibited at EL2: first-range event counters when MDCR_EL2.HPMD is 1 (PMUv3p1);
 * the cycle counter when MDCR_EL2.HCCD is 1 (PMUv3p5), or when PMCR_EL0.DP is 1 and event
 * counting is prohibited. */
static bool prohibited_at_el2(unsigned int cpu, unsigned int n)
{
	uint64_t mdcr = pmu_counting_reg(cpu, 2, SIM_ENC_MDCR_EL2);
	uint8_t ver = sim_pmu_version();
	bool hpmd = ver >= 4 && (mdcr & SIM_MDCR_EL2_HPMD);

	if (n == PMU_CYCLE_BIT)
		return (ver >= 6 && (mdcr & SIM_MDCR_EL2_HCCD)) ||
		       (hpmd && (pmu_counting_reg(cpu, 2, SIM_ENC_PMCR_EL0) & PMCR_DP));
	/* HPMD covers the instruction counter as a first-range counter (MDCR_EL2.HPMD). */
	return (n == PMU_ICNTR_BIT || n < counting_hpmn(cpu, 2)) && hpmd;
}

static bool implemented(unsigned int n)
{
	return n == PMU_CYCLE_BIT || n < pmu_num() || (n == PMU_ICNTR_BIT && sim_pe_icntr());
}

bool pmu_counts(unsigned int cpu, unsigned int n, unsigned int el)
{
	if (!implemented(n))
		return false;
	if (!(pmu_counting_reg(cpu, el, SIM_ENC_PMCNTENSET_EL0) & VPERF_BIT(n)))
		return false;
	if (!counter_enabled_by_range(cpu, n, el) ||
	    !filter_allows(pmu_counting_type(cpu, el, n), el))
		return false;
	if (prohibited_secure(cpu, n))
		return false;
	return el != 2 || !prohibited_at_el2(cpu, n);
}

/* PMCR_EL0.LC's effective value: RES1 without AArch32, else the register's (I5.3.21). */
static bool long_cycle_counter(unsigned int cpu)
{
	return !sim_model_config()->aarch32_el0 || (sim_reg(cpu, SIM_ENC_PMCR_EL0) & PMU_LC);
}

/* Overflow width: the cycle counter's by PMCR_EL0.LC (unsigned overflow of PMCCNTR_EL0[31:0]
 * with LC = 0, of [63:0] with LC = 1, I5.3.21 LC; the counter itself counts in 64 bits either
 * way), 64 bits for the third range; PMCR_EL0.LP for the first range and MDCR_EL2.HLP for the
 * second (PMUv3p5); 32 bits before PMUv3p5. */
static unsigned int overflow_width(unsigned int cpu, unsigned int n)
{
	if (n == PMU_ICNTR_BIT)
		return 64;
	if (n == PMU_CYCLE_BIT)
		return long_cycle_counter(cpu) ? 64 : 32;
	if (sim_pmu_version() < 6)
		return 32;
	if (n < pmu_hpmn(cpu))
		return sim_reg(cpu, SIM_ENC_PMCR_EL0) & PMCR_LP ? 64 : 32;
	if (n < pmu_epmn())
		return sim_reg(cpu, SIM_ENC_MDCR_EL2) & SIM_MDCR_EL2_HLP ? 64 : 32;
	return 64;
}

/* Counter n counts CHAIN, as counting at el sees its type (the synchronization window). */
static bool is_chain(unsigned int cpu, unsigned int n, unsigned int el)
{
	return n < pmu_num() && (pmu_counting_type(cpu, el, n) & 0xffff) == SIM_EV_CHAIN;
}

/* PMCR_EL0.D (AArch32 only, ignored when LC's effective value is 1): the cycle counter counts
 * once every 64 clock cycles (I5.3.21 D). The cycles short of the next 64 carry over. */
static uint64_t residue[SIM_MAX_CPUS];

void pmu_cycle_divider_reset(unsigned int cpu)
{
	residue[cpu % SIM_MAX_CPUS] = 0;
}

static uint64_t cycle_increments(unsigned int cpu, uint64_t cycles)
{
	uint64_t total;

	if (long_cycle_counter(cpu) || !(sim_reg(cpu, SIM_ENC_PMCR_EL0) & PMCR_D_BIT))
		return cycles;
	total = residue[cpu % SIM_MAX_CPUS] + cycles;
	residue[cpu % SIM_MAX_CPUS] = total % 64;
	return total / 64;
}

void pmu_add(unsigned int cpu, unsigned int n, uint64_t k)
{
	uint64_t old = pmu_counter(cpu, n), val;
	unsigned int width, el = sim_el();

	if (n == PMU_CYCLE_BIT)
		k = cycle_increments(cpu, k);
	if (!k)
		return;
	val = old + k;
	width = overflow_width(cpu, n);
	bool overflow = width == 64 ? val < old : (old & 0xffffffffull) + k > 0xffffffffull;

	pmu_set_counter(cpu, n, val);
	if (!overflow)
		return;
	sim_set_reg(cpu, SIM_ENC_PMOVSSET_EL0, sim_reg(cpu, SIM_ENC_PMOVSSET_EL0) | VPERF_BIT(n));
	/* CHAIN (0x1E) on the odd counter of a pair counts the even counter's overflows of bits
	 * [31:0] (not with LP = 1: width 64), whenever the odd counter is enabled, whatever its
	 * filters: a PE may ignore them (Arm DDI 0487, D14 event 0x1E), and the model does, so a
	 * hypervisor that relies on a filter to keep CHAIN from counting is caught. Its type and
	 * enables as counting sees them (pmu_sync.c), like the even counter's. Across a range
	 * boundary (n + 1 = HPMN or EPMN) whether it counts is CONSTRAINED UNPREDICTABLE
	 * (AArch64.IncrementEventCounter): the model counts, by the odd counter's range enable. */
	if (n != PMU_CYCLE_BIT && !(n & 1) && width == 32 && is_chain(cpu, n + 1, el) &&
	    (pmu_counting_reg(cpu, el, SIM_ENC_PMCNTENSET_EL0) & VPERF_BIT(n + 1)) &&
	    counter_enabled_by_range(cpu, n + 1, el))
		pmu_add(cpu, n + 1, 1);
}

void pmu_update_irq(unsigned int cpu)
{
	uint64_t pending =
		sim_reg(cpu, SIM_ENC_PMOVSSET_EL0) & sim_reg(cpu, SIM_ENC_PMINTENSET_EL1);
	bool level = false;

	for (unsigned int n = 0; n <= PMU_ICNTR_BIT && !level; n++)
		level = (pending & VPERF_BIT(n)) && implemented(n) &&
			counter_enabled_by_range(cpu, n, 0);
	sim_set_line(cpu, SIM_LINE_PMUIRQ, level);
}

static void count_event(unsigned int cpu, unsigned int el, uint32_t ev, uint64_t k)
{
	if (!k)
		return;
	for (unsigned int n = 0; n < pmu_num(); n++)
		if ((pmu_counting_type(cpu, el, n) & 0xffff) == ev && pmu_counts(cpu, n, el))
			pmu_add(cpu, n, k);
	if (ev == SIM_EV_CPU_CYCLES && pmu_counts(cpu, PMU_CYCLE_BIT, el))
		pmu_add(cpu, PMU_CYCLE_BIT, k);
}

void sim_pmu_event(enum sim_pmu_event ev, uint64_t n)
{
	unsigned int cpu = sim_current_cpu();

	count_event(cpu, sim_el(), (uint32_t)ev, n);
	pmu_update_irq(cpu);
}

/* How many of event ev one micro-op makes (D14.1: INST_RETIRED counts each architecturally
 * executed instruction; MEM_ACCESS and L1D_CACHE each data access; LD_SPEC/ST_SPEC the
 * speculatively executed loads/stores, which the model equates with executed ones). */
static uint64_t op_events(const struct sim_uop *op, uint32_t ev)
{
	bool load = op->type == SIM_UOP_LOAD, store = op->type == SIM_UOP_STORE;

	switch (ev) {
	case SIM_EV_INST_RETIRED:
		return 1;
	case SIM_EV_CPU_CYCLES:
		return op->latency ? op->latency : 1;
	case SIM_EV_MEM_ACCESS:
	case SIM_EV_L1D_CACHE:
		return load || store;
	case SIM_EV_L1D_CACHE_REFILL:
		return (load || store) && (op->flags & SIM_UOP_L1D_REFILL);
	case SIM_EV_BR_MIS_PRED:
		return op->type == SIM_UOP_BRANCH && (op->flags & SIM_UOP_MISPRED);
	case SIM_EV_LD_SPEC:
		return load;
	case SIM_EV_ST_SPEC:
		return store;
	default:
		return 0;
	}
}

/* Counts one micro-op's events. Only counters enabled in PMCNTENSET_EL0 (as counting at el sees
 * it) can count, so the others are not looked at: this runs for every simulated instruction. A
 * counter has one event type, so visiting counters in index order adds what visiting events in
 * turn would; CHAIN is no micro-op's event, so a chained odd counter moves only by pmu_add. */
void pmu_step(unsigned int cpu, const struct sim_uop *op)
{
	unsigned int el = sim_el();
	uint64_t enabled = pmu_counting_reg(cpu, el, SIM_ENC_PMCNTENSET_EL0);

	for (unsigned int n = 0; enabled >> n && n <= PMU_ICNTR_BIT; n++) {
		uint32_t ev = n == PMU_CYCLE_BIT
				      ? SIM_EV_CPU_CYCLES
				      : (uint32_t)(pmu_counting_type(cpu, el, n) & 0xffff);
		uint64_t k = (enabled & VPERF_BIT(n)) && implemented(n) ? op_events(op, ev) : 0;

		if (k && pmu_counts(cpu, n, el))
			pmu_add(cpu, n, k);
	}
	pmu_update_irq(cpu);
}

/* The other thread of this core executes op at Non-secure el: counters of this PE whose MT is
 * effective count its events as their own (I5.3.30 MT), under this PE's enables and filters
 * applied to the other thread's Exception level. */
static void sibling_step(unsigned int cpu, unsigned int el, const struct sim_uop *op)
{
	uint64_t enabled = sim_reg(cpu, SIM_ENC_PMCNTENSET_EL0);

	for (unsigned int n = 0; n < pmu_num(); n++) {
		uint64_t t = pmu_evtyper(cpu, n);
		uint64_t k = op_events(op, (uint32_t)(t & 0xffff));

		if (k && (enabled & VPERF_BIT(n)) && pmu_mt_effective(cpu, t) &&
		    counter_enabled_by_range(cpu, n, el) && filter_allows(t, el))
			pmu_add(cpu, n, k);
	}
}

void sim_run_sibling(unsigned int el, const struct sim_uop *ops, size_t n)
{
	unsigned int cpu = sim_current_cpu();

	if (!sim_pe_mt(cpu)) {
		sim_report_error(cpu, "sibling thread run on a PE without MPIDR_EL1.MT");
		return;
	}
	for (size_t i = 0; i < n; i++)
		sibling_step(cpu, el > 1 ? 1 : el, &ops[i]);
	pmu_update_irq(cpu);
}
