// SPDX-License-Identifier: MIT
/*
 * FEAT_FGT for the PMU registers: the fine-grained traps of HDFGRTR_EL2 (MRS) and HDFGWTR_EL2
 * (MSR), from their descriptions in Arm DDI 0487 K.a (D24.2, "HDFGRTR_EL2" and "HDFGWTR_EL2";
 * bit positions as in Linux's arch/arm64/tools/sysreg). A set bit traps the EL1 and EL0 accesses
 * it names to EL2 (EC 0x18) when EL2 is enabled and HCR_EL2.{E2H, TGE} is not {1, 1}, unless a
 * higher priority exception comes first: UNDEFINED for a counter at or above the accessible
 * ones or a PMSELR_EL0.SEL beyond the self-hosted counters (PMXEV*), and at EL0 the
 * PMUSERENR_EL0 trap to EL1 (pmu.c applies those before this rule). The
 * model has EL3 with SCR_EL3.FGTEn = 1 whenever the PE has FEAT_FGT.
 *
 * Two rules the descriptions spell out and the model keeps: PMEVTYPERn_EL0 covers PMXEVTYPER_EL0
 * whatever PMSELR_EL0.SEL says (SEL = 31 included), and PMCCFILTR_EL0 has no effect on
 * PMXEVTYPER_EL0; PMEVCNTRn_EL0 covers PMXEVCNTR_EL0. PMZR_EL0 is FEAT_FGT2's (HDFGWTR2_EL2),
 * not modelled: no bit here traps it.
 */
#include "pmu_internal.h"

/* The register's field in HDFGRTR_EL2 / HDFGWTR_EL2 (fgt_reg 1) or in FEAT_FGT2's HDFGRTR2_EL2 /
 * HDFGWTR2_EL2 (fgt_reg 2), SIM_FGT_NO_BIT for none: the model's table (sim/arch_regs.h). */
static unsigned int fgt_field(const struct sim_arch_reg *reg, unsigned int which, bool read)
{
	if (reg->fgt_reg != which)
		return SIM_FGT_NO_BIT;
	return read ? reg->fgt_rbit : reg->fgt_wbit;
}

static bool host_regime(unsigned int cpu)
{
	uint64_t hcr = sim_reg(cpu, SIM_ENC_HCR_EL2);

	return (hcr & SIM_HCR_EL2_E2H) && (hcr & SIM_HCR_EL2_TGE);
}

/* A FEAT_FGT2 "n" trap: the field at 0 traps. */
static bool fgt2_traps(unsigned int cpu, const struct sim_arch_reg *reg, bool read)
{
	unsigned int bit = fgt_field(reg, 2, read);

	if (!sim_pe_fgt2(cpu) || bit == SIM_FGT_NO_BIT)
		return false;
	return !((sim_reg(cpu, read ? SIM_ENC_HDFGRTR2_EL2 : SIM_ENC_HDFGWTR2_EL2) >> bit) & 1);
}

bool pmu_fgt2_hides_f0(unsigned int cpu)
{
	return sim_pe_fgt2(cpu) && !host_regime(cpu) &&
	       !((sim_reg(cpu, SIM_ENC_HDFGRTR2_EL2) >> SIM_FGT_R_NPMICFILTR) & 1);
}

bool pmu_fgt_traps(unsigned int cpu, const struct sim_arch_reg *reg, bool read)
{
	unsigned int bit = fgt_field(reg, 1, read);

	if (!sim_pe_fgt(cpu) || host_regime(cpu))
		return false;
	if (fgt2_traps(cpu, reg, read))
		return true;
	if (bit == SIM_FGT_NO_BIT)
		return false;
	return (sim_reg(cpu, read ? SIM_ENC_HDFGRTR_EL2 : SIM_ENC_HDFGWTR_EL2) >> bit) & 1;
}

/* The trap bits reset to UNKNOWN where EL3 is the highest Exception level, to 0 where EL2 is:
 * the model's PE has EL3 then, and seeded PMU trap bits stand for what firmware left (the
 * other fields stay 0: the model has none of their features). */
void pmu_fgt_reset(unsigned int cpu, const struct sim_pe_config *cfg)
{
	uint64_t pmu = VPERF_GENMASK(22, 12) | VPERF_BIT(57) | VPERF_BIT(58);

	uint64_t fgt2 = VPERF_GENMASK(4, 2) | VPERF_BIT(21);

	if (!sim_pe_fgt(cpu) || !cfg->el3 || cfg->reset_zero)
		return;
	/* FEAT_FGT2's n-fields reset to UNKNOWN as well: some of them 0, trapping. */
	if (sim_pe_fgt2(cpu)) {
		sim_set_reg(cpu, SIM_ENC_HDFGRTR2_EL2, sim_random(cpu) & fgt2 & ~VPERF_BIT(21));
		sim_set_reg(cpu, SIM_ENC_HDFGWTR2_EL2, sim_random(cpu) & fgt2);
	}
	sim_set_reg(cpu, SIM_ENC_HDFGRTR_EL2, sim_random(cpu) & pmu & ~VPERF_GENMASK(21, 20));
	sim_set_reg(cpu, SIM_ENC_HDFGWTR_EL2,
		    sim_random(cpu) & pmu & ~VPERF_BIT(22) & ~VPERF_BIT(58));
}
