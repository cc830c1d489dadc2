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

enum {
	FGT_PMBLIMITR = 23,
	FGT_PMBPTR = 24,
	FGT_PMBSR = 25,
	FGT_PMSCR = 26,
	FGT_PMSEVFR = 27,
	FGT_PMSFCR = 28,
	FGT_PMSICR = 29,
	FGT_PMSIDR = 30, /* HDFGRTR_EL2 only */
	FGT_PMSIRR = 31,
	FGT_PMSLATFR = 32,
	FGT_NPMSNEVFR = 62, /* 0 traps */
	FGT_PMBIDR = 63,    /* HDFGRTR_EL2 only */
	FGT_NONE = 64,
};

static unsigned int fgt_bit(uint32_t enc, bool read)
{
	switch (enc) {
	case SIM_ENC_PMBLIMITR_EL1:
		return FGT_PMBLIMITR;
	case SIM_ENC_PMBPTR_EL1:
		return FGT_PMBPTR;
	case SIM_ENC_PMBSR_EL1:
		return FGT_PMBSR;
	case SIM_ENC_PMSCR_EL1:
		return FGT_PMSCR;
	case SIM_ENC_PMSEVFR_EL1:
		return FGT_PMSEVFR;
	case SIM_ENC_PMSFCR_EL1:
		return FGT_PMSFCR;
	case SIM_ENC_PMSICR_EL1:
		return FGT_PMSICR;
	case SIM_ENC_PMSIDR_EL1:
		return read ? FGT_PMSIDR : FGT_NONE;
	case SIM_ENC_PMSIRR_EL1:
		return FGT_PMSIRR;
	case SIM_ENC_PMSLATFR_EL1:
		return FGT_PMSLATFR;
	case SIM_ENC_PMSNEVFR_EL1:
		return FGT_NPMSNEVFR;
	case SIM_ENC_PMBIDR_EL1:
		return read ? FGT_PMBIDR : FGT_NONE;
	default:
		return FGT_NONE;
	}
}

bool spe_fgt_traps(unsigned int cpu, const struct sim_arch_reg *reg, bool read)
{
	unsigned int bit = fgt_bit(reg->enc, read);
	uint64_t set;

	if (!sim_pe_fgt(cpu) || bit == FGT_NONE)
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
