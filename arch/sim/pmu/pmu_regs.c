// SPDX-License-Identifier: MIT
/*
 * PMUv3 register semantics (Arm DDI 0487 K.a I5.3, the System register views of the same fields):
 * the SET/CLR pairs share one stored value (kept in the SET register's slot), PMCR_EL0.P/C reset
 * counters, PMSWINC increments, PMXEV* reach the counter PMSELR_EL0 selects, counters are 64 bits
 * from PMUv3p5 and 32 bits before.
 */
#include "pmu_internal.h"

static uint32_t counter_enc(unsigned int n)
{
	return SIM_ENC(3, 3, 14, 8 | (n >> 3), n & 7);
}

static uint32_t evtyper_enc(unsigned int n)
{
	return n == PMU_CYCLE_BIT ? SIM_ENC_PMCCFILTR_EL0 : SIM_ENC(3, 3, 14, 12 | (n >> 3), n & 7);
}

static uint64_t width_mask(void)
{
	return sim_pmu_version() >= 6 ? ~0ull : 0xffffffffull;
}

uint64_t pmu_counter(unsigned int cpu, unsigned int n)
{
	if (n == PMU_ICNTR_BIT)
		return sim_reg(cpu, SIM_ENC_PMICNTR_EL0);
	if (n == PMU_CYCLE_BIT)
		return sim_reg(cpu, SIM_ENC_PMCCNTR_EL0);
	return sim_reg(cpu, counter_enc(n));
}

void pmu_set_counter(unsigned int cpu, unsigned int n, uint64_t val)
{
	if (n == PMU_ICNTR_BIT)
		sim_set_reg(cpu, SIM_ENC_PMICNTR_EL0, val);
	else if (n == PMU_CYCLE_BIT)
		sim_set_reg(cpu, SIM_ENC_PMCCNTR_EL0, val);
	else
		sim_set_reg(cpu, counter_enc(n), val & width_mask());
}

/* n = 32: PMICFILTR_EL0, whose evtCount reads INST_RETIRED (I5.3.32). */
uint64_t pmu_evtyper(unsigned int cpu, unsigned int n)
{
	if (n == PMU_ICNTR_BIT)
		return sim_reg(cpu, SIM_ENC_PMICFILTR_EL0) | SIM_EV_INST_RETIRED;
	return sim_reg(cpu, evtyper_enc(n));
}

void pmu_set_evtyper(unsigned int cpu, unsigned int n, uint64_t val)
{
	sim_set_reg(cpu, evtyper_enc(n), val & pmu_evtyper_writable(n == PMU_CYCLE_BIT));
}

/* The SET register that stores a SET/CLR pair. */
static uint32_t pair_storage(const struct sim_arch_reg *reg)
{
	switch (reg->kind) {
	case SIM_KIND_PMCNTEN:
		return SIM_ENC_PMCNTENSET_EL0;
	case SIM_KIND_PMINTEN:
		return SIM_ENC_PMINTENSET_EL1;
	default:
		return SIM_ENC_PMOVSSET_EL0;
	}
}

static bool is_clear(const struct sim_arch_reg *reg)
{
	return reg->enc == SIM_ENC_PMCNTENCLR_EL0 || reg->enc == SIM_ENC_PMINTENCLR_EL1 ||
	       reg->enc == SIM_ENC_PMOVSCLR_EL0;
}

/* Accesses at EL2 to counters outside [0, EPMN) are UNDEFINED: a hypervisor bug. */
static bool el2_counter_ok(unsigned int cpu, unsigned int el, unsigned int n)
{
	if (el < 2 || n < pmu_epmn())
		return true;
	sim_report_error(cpu, "EL2 access to an event counter that is not implemented or is in "
			      "the third range (UNDEF)");
	return false;
}

static unsigned int selected(unsigned int cpu)
{
	return (unsigned int)(sim_reg(cpu, SIM_ENC_PMSELR_EL0) & 0x1f);
}

static uint64_t read_pmcr(unsigned int cpu, unsigned int el, uint64_t stored)
{
	/* N reads HPMN at EL0/EL1 and EPMN at EL2; LC is RES1 without AArch32 (I5.3.21), R/W
	 * with it (pmu_pmcr_writable). */
	uint64_t n = pmu_accessible(cpu, el);
	uint64_t lc = sim_model_config()->aarch32_el0 ? 0 : PMU_LC;

	return (stored & pmu_pmcr_writable()) | lc | n << PMCR_N_SHIFT;
}

uint64_t pmu_read(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
		  uint64_t stored)
{
	unsigned int n;

	switch (reg->kind) {
	case SIM_KIND_PMCR:
		return read_pmcr(cpu, el, stored);
	case SIM_KIND_PMCNTEN:
	case SIM_KIND_PMINTEN:
	case SIM_KIND_PMOVS:
		return sim_reg(cpu, pair_storage(reg)) & pmu_visible_mask(cpu, el);
	case SIM_KIND_PMEVCNTR:
	case SIM_KIND_PMEVTYPER:
		n = sim_pmev_index(reg->enc);
		return el2_counter_ok(cpu, el, n) ? stored : 0;
	case SIM_KIND_PMXEVCNTR:
		n = selected(cpu);
		return el2_counter_ok(cpu, el, n) ? pmu_counter(cpu, n) : 0;
	case SIM_KIND_PMXEVTYPER:
		n = selected(cpu);
		return n == PMU_CYCLE_BIT || el2_counter_ok(cpu, el, n) ? pmu_evtyper(cpu, n) : 0;
	case SIM_KIND_PMICFILTR:
		return stored | SIM_EV_INST_RETIRED;
	default:
		return stored;
	}
}

/* PMCR_EL0.P resets the event counters reachable at el ([0, HPMN) at EL0/EL1, every one at
 * EL2 that is not in the third range); C resets the cycle counter. Neither touches overflow
 * flags, and both read as zero (I5.3.21). */
static uint64_t write_pmcr(unsigned int cpu, unsigned int el, uint64_t val)
{
	if (val & PMCR_P)
		for (unsigned int n = 0; n < pmu_accessible(cpu, el); n++)
			pmu_set_counter(cpu, n, 0);
	if (val & PMCR_C)
		pmu_set_counter(cpu, PMU_CYCLE_BIT, 0);
	return pmu_write_pmcr_bits(cpu, el, val);
}

static void write_pair(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
		       uint64_t val)
{
	uint32_t store = pair_storage(reg);
	uint64_t bits = val & pmu_visible_mask(cpu, el);
	uint64_t cur = sim_reg(cpu, store);

	sim_set_reg(cpu, store, is_clear(reg) ? cur & ~bits : cur | bits);
}

/* SW_INCR counts PMSWINC writes by counters whose event is SW_INCR and that count at el. */
static void write_swinc(unsigned int cpu, unsigned int el, uint64_t val)
{
	uint64_t bits = val & pmu_visible_mask(cpu, el) & ~VPERF_BIT(PMU_CYCLE_BIT);

	for (unsigned int n = 0; n < pmu_num(); n++)
		if ((bits & VPERF_BIT(n)) &&
		    (pmu_evtyper(cpu, n) & PMEVTYPER_EVT_MASK) == SIM_EV_SW_INCR &&
		    pmu_counts(cpu, n, el))
			pmu_add(cpu, n, 1);
}

/* PMZR_EL0 (I5.3.58): zero the selected counters the access can reach. */
static void write_pmzr(unsigned int cpu, unsigned int el, uint64_t val)
{
	uint64_t bits = val & pmu_visible_mask(cpu, el);

	for (unsigned int n = 0; n <= PMU_ICNTR_BIT; n++)
		if (bits & VPERF_BIT(n))
			pmu_set_counter(cpu, n, 0);
}

static uint64_t write_selected(unsigned int cpu, unsigned int el, bool counter, uint64_t val)
{
	unsigned int n = selected(cpu);

	if (counter && el2_counter_ok(cpu, el, n))
		pmu_set_counter(cpu, n, val);
	else if (!counter && (n == PMU_CYCLE_BIT || el2_counter_ok(cpu, el, n)))
		pmu_set_evtyper(cpu, n, val);
	return 0;
}

static uint64_t write_reg(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
			  uint64_t old, uint64_t val)
{
	switch (reg->kind) {
	case SIM_KIND_PMCR:
		return write_pmcr(cpu, el, val);
	case SIM_KIND_PMCNTEN:
	case SIM_KIND_PMINTEN:
	case SIM_KIND_PMOVS:
		write_pair(cpu, el, reg, val);
		return is_clear(reg) ? 0 : sim_reg(cpu, reg->enc);
	case SIM_KIND_PMSWINC:
		write_swinc(cpu, el, val);
		return 0;
	case SIM_KIND_PMZR:
		write_pmzr(cpu, el, val);
		return 0;
	case SIM_KIND_PMXEVCNTR:
	case SIM_KIND_PMXEVTYPER:
		return write_selected(cpu, el, reg->kind == SIM_KIND_PMXEVCNTR, val);
	case SIM_KIND_PMEVCNTR:
		return el2_counter_ok(cpu, el, sim_pmev_index(reg->enc)) ? val & width_mask() : old;
	case SIM_KIND_PMEVTYPER:
		return el2_counter_ok(cpu, el, sim_pmev_index(reg->enc))
			       ? val & pmu_evtyper_writable(false)
			       : old;
	case SIM_KIND_PMCCFILTR:
		return val & pmu_evtyper_writable(true);
	case SIM_KIND_PMUSERENR:
		return val & pmu_userenr_writable();
	case SIM_KIND_PMICFILTR:
		return val & pmu_icfiltr_writable();
	case SIM_KIND_PMUACR:
		return val & pmu_uacr_writable();
	case SIM_KIND_PMCEID:
	case SIM_KIND_PMMIR:
		return old;
	case SIM_KIND_OTHER: /* MDCR_EL2, written at EL2 only */
		return pmu_write_mdcr(cpu, val);
	default:
		return val;
	}
}

uint64_t pmu_write(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg, uint64_t old,
		   uint64_t val)
{
	uint64_t stored;

	pmu_sync_before_write(cpu, el, reg->enc);
	stored = write_reg(cpu, el, reg, old, val & ~reg->res0);

	/* The core stores the returned value after this returns; the level must already see it
	 * (PMCR_EL0.E), and side effects (a PMSWINC overflow, a cleared flag) change it too. */
	sim_set_reg(cpu, reg->enc, stored);
	pmu_update_irq(cpu);
	return stored;
}
