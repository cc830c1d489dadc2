// SPDX-License-Identifier: MIT
/*
 * The PMU family: which PMUv3 System register accesses are UNDEFINED, trap to EL1 or trap to
 * EL2, and the counter ranges. Register semantics are in pmu_regs.c, counting in pmu_count.c.
 *
 * Priority of the rules (Arm ARM D19 PMU register accessibility pseudocode; I5.3 for the
 * ranges): an event counter at or above the counters accessible at the current EL is UNDEFINED
 * first, and so is PMXEVCNTR/PMXEVTYPER whose PMSELR_EL0.SEL selects no counter self-hosted
 * software has (selection_unimplemented); then, at EL0, PMUSERENR_EL0 traps to EL1; then
 * MDCR_EL2.TPM (and TPMCR for PMCR_EL0) traps to EL2, as do HDFGRTR_EL2 / HDFGWTR_EL2 (FEAT_FGT,
 * pmu_fgt.c); then PMXEVCNTR/PMXEVTYPER whose SEL is at or above HPMN trap to EL2 with FEAT_FGT,
 * are UNDEFINED without (selection_beyond_hpmn).
 */
#include "pmu_internal.h"

unsigned int pmu_num(void)
{
	return sim_model_config()->nr_counters;
}

/* PMCCR.EPMN (I5.3.47): NUM_PMU_COUNTERS without FEAT_PMUv3_EXTPMN; values above it are
 * reserved, and the model takes the largest legal effective value. */
unsigned int pmu_epmn(void)
{
	const struct sim_pe_config *cfg = sim_model_config();

	return cfg->extpmn && cfg->epmn < pmu_num() ? cfg->epmn : pmu_num();
}

/* MDCR_EL2.HPMN; a value above EPMN is CONSTRAINED UNPREDICTABLE: the model treats it as EPMN
 * (no second range), the choice that gives a mistaken hypervisor no host counters. */
unsigned int pmu_hpmn(unsigned int cpu)
{
	unsigned int hpmn = (unsigned int)(sim_reg(cpu, SIM_ENC_MDCR_EL2) & SIM_MDCR_EL2_HPMN_MASK);

	return hpmn > pmu_epmn() ? pmu_epmn() : hpmn;
}

unsigned int pmu_accessible(unsigned int cpu, unsigned int el)
{
	return el < 2 ? pmu_hpmn(cpu) : pmu_epmn();
}

/* F0, the instruction counter's bit (FEAT_PMUv3_ICNTR), at every EL unless FEAT_FGT2's
 * HDFGRTR2_EL2.nPMICFILTR_EL0 = 0 hides it from EL1 and EL0 (pmu_fgt.c). It is in no counter
 * range: PMCR_EL0.E enables it, as the cycle counter (PMCNTENSET_EL0.F0, I5.3.18). */
uint64_t pmu_visible_mask(unsigned int cpu, unsigned int el)
{
	uint64_t f0 = sim_pe_icntr() && (el == 2 || !pmu_fgt2_hides_f0(cpu))
			      ? VPERF_BIT(PMU_ICNTR_BIT)
			      : 0;

	return (VPERF_BIT(pmu_accessible(cpu, el)) - 1) | VPERF_BIT(PMU_CYCLE_BIT) | f0;
}

static bool is_event_counter_reg(const struct sim_arch_reg *reg)
{
	return reg->kind == SIM_KIND_PMEVCNTR || reg->kind == SIM_KIND_PMEVTYPER;
}

/* EL0 access with PMUSERENR_EL0 (its description in Arm DDI 0487 K.a D24.5), by the register's
 * el0 rule in the model's table: EN enables everything at EL0, SW PMSWINC, CR reads of PMCCNTR,
 * ER reads of event counters and PMSELR, IR (FEAT_PMUv3_ICNTR) reads of PMICNTR_EL0; PMUSERENR_EL0
 * itself is readable and never writable; EL1-only registers are UNDEFINED. FEAT_PMUv3p9's UEN
 * (PMUACR_EL1's per-counter EL0 grants) is stored but not applied: nothing the model runs sets
 * it, and vperf never lets a guest hold it (docs/model.md). */
static bool el0_granted(uint8_t rule, uint64_t u, bool read)
{
	bool en = u & PMUSERENR_EN;

	switch (rule) {
	case SIM_EL0_EN:
		return en;
	case SIM_EL0_SW:
		return en || (u & PMUSERENR_SW);
	case SIM_EL0_CR:
		return en || (read && (u & PMUSERENR_CR));
	case SIM_EL0_ER:
		return en || (read && (u & PMUSERENR_ER));
	case SIM_EL0_ER_RW:
		return en || (u & PMUSERENR_ER);
	case SIM_EL0_IR:
		return en || (read && (u & PMUSERENR_IR));
	default:
		return false;
	}
}

static enum sim_access el0_rule(unsigned int cpu, const struct sim_arch_reg *reg, bool read)
{
	if (reg->el0 == SIM_EL0_NONE)
		return SIM_ACC_UNDEF;
	if (reg->el0 == SIM_EL0_RO)
		return read ? SIM_ACC_OK : SIM_ACC_UNDEF;
	if (el0_granted(reg->el0, sim_reg(cpu, SIM_ENC_PMUSERENR_EL0), read))
		return SIM_ACC_OK;
	/* With HCR_EL2.TGE the EL1 trap goes to EL2 instead (a host process at EL0). */
	return sim_reg(cpu, SIM_ENC_HCR_EL2) & SIM_HCR_EL2_TGE ? SIM_ACC_TRAP_EL2
							       : SIM_ACC_TRAP_EL1;
}

static bool is_selected_reg(const struct sim_arch_reg *reg)
{
	return reg->kind == SIM_KIND_PMXEVCNTR || reg->kind == SIM_KIND_PMXEVTYPER;
}

static unsigned int selection(unsigned int cpu)
{
	return (unsigned int)(sim_reg(cpu, SIM_ENC_PMSELR_EL0) & 0x1f);
}

/*
 * The first check of the PMXEVCNTR_EL0 and PMXEVTYPER_EL0 access pseudocode (Arm DDI 0487 K.a,
 * D24.5, PMXEVCNTR_EL0 and PMXEVTYPER_EL0, "Accessing ..." and their MRS/MSR pseudocode:
 * "UInt(PMSELR_EL0.SEL) >= GetNumEventCountersSelfHosted()"), made before PMUSERENR_EL0, the
 * fine-grained traps and MDCR_EL2.TPM: a SEL at or above the counters self-hosted software has
 * (PMCCR.EPMN's effective value, N without FEAT_PMUv3_EXTPMN) is UNDEFINED with FEAT_FGT and
 * CONSTRAINED UNPREDICTABLE without (Unpredictable_PMUEVENTCOUNTER), where the model takes
 * UNDEFINED: the choice that shows a hypervisor which leaves such a SEL under a trapped guest.
 * SEL = 31 is PMCCFILTR_EL0 for PMXEVTYPER_EL0, and no counter for PMXEVCNTR_EL0.
 */
static bool selection_unimplemented(unsigned int cpu, const struct sim_arch_reg *reg)
{
	unsigned int sel = selection(cpu);

	if (!is_selected_reg(reg))
		return false;
	if (sel == PMU_CYCLE_BIT)
		return reg->kind == SIM_KIND_PMXEVCNTR;
	return sel >= pmu_epmn();
}

/* The second check, after the traps ("UInt(PMSELR_EL0.SEL) >= GetNumEventCountersAccessible()"
 * with EL2 enabled): a SEL in [HPMN, EPMN) traps to EL2 with FEAT_FGT; without it the access is
 * CONSTRAINED UNPREDICTABLE, and the model takes UNDEFINED (a hypervisor that counted on a trap
 * there would be wrong). */
static bool selection_beyond_hpmn(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg)
{
	unsigned int sel = selection(cpu);

	return is_selected_reg(reg) && sel != PMU_CYCLE_BIT && sel >= pmu_accessible(cpu, el);
}

static enum sim_access check(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
			     bool read)
{
	uint64_t mdcr = sim_reg(cpu, SIM_ENC_MDCR_EL2);

	if (is_event_counter_reg(reg) && sim_pmev_index(reg->enc) >= pmu_accessible(cpu, el))
		return SIM_ACC_UNDEF;
	if (selection_unimplemented(cpu, reg))
		return SIM_ACC_UNDEF;
	if (el == 0) {
		enum sim_access acc = el0_rule(cpu, reg, read);

		if (acc != SIM_ACC_OK)
			return acc;
	}
	/* FEAT_FGT's traps and MDCR_EL2.TPM both trap to EL2 with EC 0x18: their order does
	 * not show. */
	if (pmu_fgt_traps(cpu, reg, read))
		return SIM_ACC_TRAP_EL2;
	if (mdcr & SIM_MDCR_EL2_TPM)
		return SIM_ACC_TRAP_EL2;
	if (reg->trap == SIM_TRAP_TPM_TPMCR && (mdcr & SIM_MDCR_EL2_TPMCR))
		return SIM_ACC_TRAP_EL2;
	if (selection_beyond_hpmn(cpu, el, reg))
		return sim_pe_fgt(cpu) ? SIM_ACC_TRAP_EL2 : SIM_ACC_UNDEF;
	return SIM_ACC_OK;
}

/* PMCEID0_EL0 (I5.3.6): bit e for common event e < 32, bit 32 + i for event 0x4000 + i. */
static uint64_t pmceid0(const struct sim_pe_config *cfg)
{
	static const unsigned int events[] = { SIM_EV_SW_INCR,	   SIM_EV_L1D_CACHE_REFILL,
					       SIM_EV_L1D_CACHE,   SIM_EV_INST_RETIRED,
					       SIM_EV_BR_MIS_PRED, SIM_EV_CPU_CYCLES,
					       SIM_EV_MEM_ACCESS,  SIM_EV_CHAIN };
	uint64_t v = 0;

	for (size_t i = 0; i < VPERF_ARRAY_SIZE(events); i++)
		v |= VPERF_BIT(events[i]);
	if (cfg->pmsver)
		v |= VPERF_GENMASK(35, 32); /* SAMPLE_POP, _FEED, _FILTRATE, _COLLISION */
	return v;
}

/* PMCEID1_EL0 (I5.3.7): bit e - 0x20 for common event e in 0x20-0x3F. */
static uint64_t pmceid1(const struct sim_pe_config *cfg)
{
	return (cfg->stall_events & 1u ? VPERF_BIT(SIM_EV_STALL_FRONTEND - 0x20) : 0) |
	       (cfg->stall_events & 2u ? VPERF_BIT(SIM_EV_STALL_BACKEND - 0x20) : 0);
}

/* Reset: UNKNOWN registers get seeded garbage, the rest 0 (PMCR_EL0.N is supplied by the read
 * hook); PMCEID from the events the model counts (and the stall events it advertises). */
static void reset(unsigned int cpu, const struct sim_pe_config *cfg)
{
	pmu_reset_unknown(cpu);
	pmu_fgt_reset(cpu, cfg);
	pmu_sync_reset(cpu);
	pmu_cycle_divider_reset(cpu);
	sim_set_reg(cpu, SIM_ENC_PMCEID0_EL0, pmceid0(cfg));
	sim_set_reg(cpu, SIM_ENC_PMCEID1_EL0, pmceid1(cfg));
	pmu_update_irq(cpu);
}

/* sim_power_cycle, on the current CPU: as the model's reset. */
static void power_cycle(unsigned int cpu)
{
	reset(cpu, sim_model_config());
}

const struct sim_family sim_pmu_family = {
	.name = "pmu",
	.reset = reset,
	.check = check,
	.read = pmu_read,
	.write = pmu_write,
	.barrier = pmu_sync_barrier,
	.step = pmu_step,
	.power_cycle = power_cycle,
};
