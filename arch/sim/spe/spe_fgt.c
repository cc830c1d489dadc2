// SPDX-License-Identifier: MIT
/*
 * FEAT_FGT for the SPE registers: the fine-grained traps of HDFGRTR_EL2 (MRS) and HDFGWTR_EL2
 * (MSR), from their descriptions in Arm DDI 0487 K.a (D24.2, "HDFGRTR_EL2" and "HDFGWTR_EL2";
 * bit positions as in Linux's arch/arm64/tools/sysreg). When FEAT_SPE is implemented, a set bit
 * traps the EL1 access it names to EL2 (EC 0x18) when EL2 is enabled and SCR_EL3.FGTEn is 1 (the
 * model has EL3 with FGTEn = 1 whenever the PE has FEAT_FGT), unless a higher priority exception
 * comes first: UNDEFINED at EL0 and for an MSR to a read-only register (spe.c applies those
 * before this rule). Unlike the PMU's bits, the descriptions name no HCR_EL2.{E2H, TGE} condition.
 *
 * nPMSNEVFR_EL1 (bit 62 of each, with FEAT_SPE_FnE) has the opposite sense: 0 traps. Reads only:
 * PMBIDR_EL1 [63], PMSIDR_EL1 [30]; HDFGWTR_EL2 bit 30 is RES0. PMSDSFR_EL1 (FEAT_SPE_FDS) is
 * trapped by FEAT_FGT2's registers, not modelled: no bit here traps it.
 */
#include "spe_internal.h"

/* The SPE fields spe_fgt_reset seeds (the same bits as the table's SIM_FGT_LIST). */
enum {
	FGT_PMSIDR = SIM_FGT_R_PMSIDR, /* HDFGRTR_EL2 only */
	FGT_NPMSNEVFR = SIM_FGT_R_NPMSNEVFR,
	FGT_PMBIDR = SIM_FGT_R_PMBIDR, /* HDFGRTR_EL2 only */
};

/* The register's field in HDFGRTR_EL2 or HDFGWTR_EL2 (the model's table, sim/arch_regs.h). */
static unsigned int fgt_bit(const struct sim_arch_reg *reg, bool read)
{
	if (reg->fgt_reg != 1)
		return SIM_FGT_NO_BIT;
	return read ? reg->fgt_rbit : reg->fgt_wbit;
}

bool spe_fgt_traps(unsigned int cpu, const struct sim_arch_reg *reg, bool read)
{
	unsigned int bit = fgt_bit(reg, read);
	uint64_t set;

	if (!sim_pe_fgt(cpu) || bit == SIM_FGT_NO_BIT)
		return false;
	set = (sim_reg(cpu, read ? SIM_ENC_HDFGRTR_EL2 : SIM_ENC_HDFGWTR_EL2) >> bit) & 1;
	return bit == FGT_NPMSNEVFR ? !set : set != 0;
}

/* The SPE fields of both registers: they reset to UNKNOWN where EL3 is the highest Exception
 * level (seeded garbage, as pmu_fgt_reset does for the PMU's, which it wrote first), to 0 where
 * EL2 is. With SPE only; nPMSNEVFR_EL1 with FEAT_SPE_FnE. */
void spe_fgt_reset(unsigned int cpu, const struct sim_pe_config *cfg)
{
	uint64_t rtr = VPERF_GENMASK(32, 23) | VPERF_BIT(FGT_PMBIDR);
	uint64_t wtr = VPERF_GENMASK(32, 23) & ~VPERF_BIT(FGT_PMSIDR);

	if (!sim_pe_fgt(cpu) || !cfg->el3 || cfg->reset_zero)
		return;
	if (spe_idr(cpu) & PMSIDR_FNE) {
		rtr |= VPERF_BIT(FGT_NPMSNEVFR);
		wtr |= VPERF_BIT(FGT_NPMSNEVFR);
	}
	sim_set_reg(cpu, SIM_ENC_HDFGRTR_EL2,
		    sim_reg(cpu, SIM_ENC_HDFGRTR_EL2) | (sim_random(cpu) & rtr));
	sim_set_reg(cpu, SIM_ENC_HDFGWTR_EL2,
		    sim_reg(cpu, SIM_ENC_HDFGWTR_EL2) | (sim_random(cpu) & wtr));
}
