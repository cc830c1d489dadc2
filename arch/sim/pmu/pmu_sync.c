// SPDX-License-Identifier: MIT
/*
 * The synchronization window of the PMU controls. A direct write to a System register is only
 * guaranteed to be seen by indirect reads (here: the counting logic) after a context
 * synchronization event, an ISB or an exception entry or return (Arm DDI 0487 K.a, "Synchronization
 * requirements for System registers"). Counting reads MDCR_EL2 (HPMN, HPME, HPMD, HCCD),
 * PMCR_EL0 (E, DP) and PMCNTENSET_EL0 indirectly; after an EL2 write of one of them and until
 * the next context synchronization event, EL2 execution is counted with the old values or the
 * new ones, one choice per window drawn from the seed. Guest code runs only after the ERET that
 * ends the trap, so it always sees the new values. The filters and events counting reads,
 * PMEVTYPER<n>_EL0 and PMCCFILTR_EL0, are in the same window: a hypervisor that restores a
 * counter's value while the previous owner's type (NSH = 1, counting EL2) may still apply
 * gives the next owner EL2 events.
 */
#include "pmu_internal.h"

struct window {
	bool open, old;
	uint64_t mdcr, pmcr, cnten;
	uint64_t type[PMU_CYCLE_BIT + 1]; /* PMEVTYPER<n>_EL0, PMCCFILTR_EL0 at [31] */
};

static struct window win[SIM_MAX_CPUS];

static bool windowed(uint32_t enc)
{
	return enc == SIM_ENC_MDCR_EL2 || enc == SIM_ENC_PMCR_EL0 ||
	       enc == SIM_ENC_PMCNTENSET_EL0 || enc == SIM_ENC_PMCNTENCLR_EL0 ||
	       enc == SIM_ENC_PMCCFILTR_EL0 || enc == SIM_ENC_PMXEVTYPER_EL0 ||
	       (SIM_ENC_OP0(enc) == 3 && SIM_ENC_OP1(enc) == 3 && SIM_ENC_CRN(enc) == 14 &&
		SIM_ENC_CRM(enc) >= 12);
}

void pmu_sync_before_write(unsigned int cpu, unsigned int el, uint32_t enc)
{
	struct window *w = &win[cpu % SIM_MAX_CPUS];

	if (el != 2 || w->open || !windowed(enc))
		return;
	w->open = true;
	w->old = sim_random(cpu) & 1;
	w->mdcr = sim_reg(cpu, SIM_ENC_MDCR_EL2);
	w->pmcr = sim_reg(cpu, SIM_ENC_PMCR_EL0);
	w->cnten = sim_reg(cpu, SIM_ENC_PMCNTENSET_EL0);
	for (unsigned int n = 0; n <= PMU_CYCLE_BIT; n++)
		w->type[n] = n == PMU_CYCLE_BIT || n < pmu_num() ? pmu_evtyper(cpu, n) : 0;
}

void pmu_sync_barrier(unsigned int cpu, enum sim_event_kind kind)
{
	if (kind == SIM_ISB)
		win[cpu % SIM_MAX_CPUS].open = false;
}

void pmu_sync_reset(unsigned int cpu)
{
	static const struct window closed;

	win[cpu % SIM_MAX_CPUS] = closed;
}

uint64_t pmu_counting_reg(unsigned int cpu, unsigned int el, uint32_t enc)
{
	const struct window *w = &win[cpu % SIM_MAX_CPUS];

	if (el != 2 || !w->open || !w->old)
		return sim_reg(cpu, enc);
	if (enc == SIM_ENC_MDCR_EL2)
		return w->mdcr;
	return enc == SIM_ENC_PMCR_EL0 ? w->pmcr : w->cnten;
}

bool sim_pmu_window_open(unsigned int cpu)
{
	return win[cpu % SIM_MAX_CPUS].open;
}

/* PMEVTYPER<n>_EL0 (PMCCFILTR_EL0 for n = 31) as counting at el reads it. */
uint64_t pmu_counting_type(unsigned int cpu, unsigned int el, unsigned int n)
{
	const struct window *w = &win[cpu % SIM_MAX_CPUS];

	if (el != 2 || !w->open || !w->old || n > PMU_CYCLE_BIT)
		return pmu_evtyper(cpu, n);
	return w->type[n];
}
