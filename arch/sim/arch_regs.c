// SPDX-License-Identifier: MIT
/*
 * The model's register table (sim/arch_regs.h), from the architecture text:
 *   encodings and directions: facts.md "Encodings" (checked with the assembler), the SPE
 *     supplement Table 7 (4.1) for the SPE registers, PMSNEVFR_EL1 / PMSDSFR_EL1 / PMZR_EL0 /
 *     PMMIR_EL1 from the Arm ARM System register index;
 *   traps: MDCR_EL2.TPM covers every PMU register, TPMCR PMCR_EL0 too (facts.md); TPMS the
 *     PMS* sampling registers and E2PB the PMB* buffer registers but PMBIDR_EL1 (SPE supplement
 *     3.4.2, 3.4.6, 4.3.1 "Traps and enables: None"); HCR_EL2.TID3 the ID registers;
 *   RES0: the field lists of I5.3 (PMCR_EL0 I5.3.21, PMCNTEN/PMINTEN/PMOVS I5.3.18-20,
 *     I5.3.36-38, I5.3.43-45, PMEVTYPER I5.3.30, PMCCFILTR I5.3.2, PMSWINC I5.3.55, PMZR
 *     I5.3.58) and facts.md (PMUSERENR_EL0, PMSELR_EL0). Fields that exist with a later feature
 *     (PMCR_EL0.FZS, the instruction counter bit 32, PMEVTYPER TC/TE/SYNC/VS/TLC/TH...) are not
 *     RES0 here; the families mask them by version. The SPE registers' bits are the SPE family's
 *     (spe_regs.c), the EL2 and GIC registers' the core's and the GIC family's: 0 here.
 */
#include <sim/arch_regs.h>
#include <vperf/sysreg.h>

#define ENC(op0, op1, crn, crm, op2) VPERF_SYSREG_ENC(op0, op1, crn, crm, op2)
#define REG(nm, enc, dir, trap, feat, res0)                                     \
	{                                                                       \
#nm, enc, SIM_DIR_##dir, SIM_TRAP_##trap, SIM_FEAT_##feat, res0 \
	}

#define BITS_63_33 0xfffffffe00000000ull /* counters 0-30, C; bit 32 is FEAT_PMUv3_ICNTR's */

static const struct sim_arch_reg singles[] = {
	REG(ID_AA64PFR0_EL1, ENC(3, 0, 0, 4, 0), RO, TID3, ALWAYS, 0),
	REG(ID_AA64DFR0_EL1, ENC(3, 0, 0, 5, 0), RO, TID3, ALWAYS, 0),
	REG(PMSCR_EL1, ENC(3, 0, 9, 9, 0), RW, TPMS, SPE, 0),
	REG(PMSNEVFR_EL1, ENC(3, 0, 9, 9, 1), RW, TPMS, SPEV1P2, 0),
	REG(PMSICR_EL1, ENC(3, 0, 9, 9, 2), RW, TPMS, SPE, 0),
	REG(PMSIRR_EL1, ENC(3, 0, 9, 9, 3), RW, TPMS, SPE, 0),
	REG(PMSFCR_EL1, ENC(3, 0, 9, 9, 4), RW, TPMS, SPE, 0),
	REG(PMSEVFR_EL1, ENC(3, 0, 9, 9, 5), RW, TPMS, SPE, 0),
	REG(PMSLATFR_EL1, ENC(3, 0, 9, 9, 6), RW, TPMS, SPE, 0),
	REG(PMSIDR_EL1, ENC(3, 0, 9, 9, 7), RO, TPMS, SPE, 0),
	REG(PMBLIMITR_EL1, ENC(3, 0, 9, 10, 0), RW, E2PB, SPE, 0),
	REG(PMBPTR_EL1, ENC(3, 0, 9, 10, 1), RW, E2PB, SPE, 0),
	REG(PMBSR_EL1, ENC(3, 0, 9, 10, 3), RW, E2PB, SPE, 0),
	REG(PMSDSFR_EL1, ENC(3, 0, 9, 10, 4), RW, TPMS, SPE_FDS, 0),
	REG(PMBIDR_EL1, ENC(3, 0, 9, 10, 7), RO, NONE, SPE, 0),
	REG(PMINTENSET_EL1, ENC(3, 0, 9, 14, 1), RW, TPM, PMUV3, BITS_63_33),
	REG(PMINTENCLR_EL1, ENC(3, 0, 9, 14, 2), RW, TPM, PMUV3, BITS_63_33),
	REG(PMMIR_EL1, ENC(3, 0, 9, 14, 6), RO, TPM, PMUV3P4, 0),
	/* PMCR_EL0: [63:33], bit 10 and bit 8 are RES0 in every version (I5.3.21). */
	REG(PMCR_EL0, ENC(3, 3, 9, 12, 0), RW, TPM_TPMCR, PMUV3,
	    BITS_63_33 | 1ull << 10 | 1ull << 8),
	REG(PMCNTENSET_EL0, ENC(3, 3, 9, 12, 1), RW, TPM, PMUV3, BITS_63_33),
	REG(PMCNTENCLR_EL0, ENC(3, 3, 9, 12, 2), RW, TPM, PMUV3, BITS_63_33),
	REG(PMOVSCLR_EL0, ENC(3, 3, 9, 12, 3), RW, TPM, PMUV3, BITS_63_33),
	REG(PMSWINC_EL0, ENC(3, 3, 9, 12, 4), WO, TPM, PMUV3, 0xffffffff80000000ull),
	REG(PMSELR_EL0, ENC(3, 3, 9, 12, 5), RW, TPM, PMUV3, ~0x1full),
	REG(PMCEID0_EL0, ENC(3, 3, 9, 12, 6), RO, TPM, PMUV3, 0),
	REG(PMCEID1_EL0, ENC(3, 3, 9, 12, 7), RO, TPM, PMUV3, 0),
	REG(PMCCNTR_EL0, ENC(3, 3, 9, 13, 0), RW, TPM, PMUV3, 0),
	REG(PMXEVTYPER_EL0, ENC(3, 3, 9, 13, 1), RW, TPM, PMUV3, 0),
	REG(PMXEVCNTR_EL0, ENC(3, 3, 9, 13, 2), RW, TPM, PMUV3, 0),
	REG(PMZR_EL0, ENC(3, 3, 9, 13, 4), WO, TPM, PMUV3P9, BITS_63_33),
	/* PMUSERENR_EL0: EN, SW, CR, ER [3:0], and UEN, IR, TID [6:4] of later features. */
	REG(PMUSERENR_EL0, ENC(3, 3, 9, 14, 0), RW, TPM, PMUV3, ~0x7full),
	REG(PMOVSSET_EL0, ENC(3, 3, 9, 14, 3), RW, TPM, PMUV3, BITS_63_33),
	/* PMCCFILTR_EL0 (I5.3.2): [63:58], [55:32], bit 25, bit 23 and [19:0] are RES0. */
	REG(PMCCFILTR_EL0, ENC(3, 3, 14, 15, 7), RW, TPM, PMUV3,
	    0xfc00000000000000ull | 0x00ffffff00000000ull | 1ull << 25 | 1ull << 23 | 0xfffffull),
	REG(HCR_EL2, ENC(3, 4, 1, 1, 0), RW, EL2_ONLY, ALWAYS, 0),
	REG(MDCR_EL2, ENC(3, 4, 1, 1, 1), RW, EL2_ONLY, ALWAYS, 0),
	REG(PMSCR_EL2, ENC(3, 4, 9, 9, 0), RW, EL2_ONLY, SPE, 0),
	/* CONTEXTIDR_EL2 (FEAT_VHE, which the model's PE has): PROCID [31:0], [63:32] RES0. */
	REG(CONTEXTIDR_EL2, ENC(3, 4, 13, 0, 1), RW, EL2_ONLY, ALWAYS, 0xffffffff00000000ull),
	REG(ICH_HCR_EL2, ENC(3, 4, 12, 11, 0), RW, EL2_ONLY, GICV3, 0),
	REG(ICH_VTR_EL2, ENC(3, 4, 12, 11, 1), RO, EL2_ONLY, GICV3, 0),
	REG(ICH_MISR_EL2, ENC(3, 4, 12, 11, 2), RO, EL2_ONLY, GICV3, 0),
	REG(ICH_EISR_EL2, ENC(3, 4, 12, 11, 3), RO, EL2_ONLY, GICV3, 0),
	REG(ICH_ELRSR_EL2, ENC(3, 4, 12, 11, 5), RO, EL2_ONLY, GICV3, 0),
	REG(ICH_VMCR_EL2, ENC(3, 4, 12, 11, 7), RW, EL2_ONLY, GICV3, 0),
};

/* PMEVTYPER<n>_EL0 (I5.3.30): bit 59, [53:44], bit 23 and [19:16] are RES0. */
#define EVTYPER_RES0 (1ull << 59 | 0x003ff00000000000ull | 1ull << 23 | 0xf0000ull)

/* The indexed families: PMEVCNTR<n>_EL0 (3,3,14,0b10:n[4:3],n[2:0]), PMEVTYPER<n>_EL0
 * (3,3,14,0b11:n[4:3],n[2:0]) for n = 0-30, ICH_LR<n>_EL2 (3,4,12,12+n[3],n[2:0]) for n = 0-15
 * (facts.md). */
static struct sim_arch_reg indexed[31 + 31 + 16];
static char names[31 + 31 + 16][20];

static void name_of(char *out, const char *prefix, unsigned int n, const char *suffix)
{
	unsigned int i = 0;

	while (*prefix)
		out[i++] = *prefix++;
	if (n >= 10)
		out[i++] = (char)('0' + n / 10);
	out[i++] = (char)('0' + n % 10);
	while (*suffix)
		out[i++] = *suffix++;
	out[i] = '\0';
}

static void build_indexed(void)
{
	for (unsigned int n = 0; n < 31; n++) {
		name_of(names[n], "PMEVCNTR", n, "_EL0");
		indexed[n] =
			(struct sim_arch_reg){ names[n],       ENC(3, 3, 14, 8 | n >> 3, n & 7),
					       SIM_DIR_RW,     SIM_TRAP_TPM,
					       SIM_FEAT_PMUV3, 0 };
		name_of(names[31 + n], "PMEVTYPER", n, "_EL0");
		indexed[31 + n] =
			(struct sim_arch_reg){ names[31 + n],  ENC(3, 3, 14, 12 | n >> 3, n & 7),
					       SIM_DIR_RW,     SIM_TRAP_TPM,
					       SIM_FEAT_PMUV3, EVTYPER_RES0 };
	}
	for (unsigned int n = 0; n < 16; n++) {
		name_of(names[62 + n], "ICH_LR", n, "_EL2");
		indexed[62 + n] =
			(struct sim_arch_reg){ names[62 + n],  ENC(3, 4, 12, 12 + (n >> 3), n & 7),
					       SIM_DIR_RW,     SIM_TRAP_EL2_ONLY,
					       SIM_FEAT_GICV3, 0 };
	}
}

const struct sim_arch_reg *sim_arch_reg_at(unsigned int i)
{
	if (!indexed[0].name)
		build_indexed();
	if (i < VPERF_ARRAY_SIZE(singles))
		return &singles[i];
	i -= (unsigned int)VPERF_ARRAY_SIZE(singles);
	return i < VPERF_ARRAY_SIZE(indexed) ? &indexed[i] : NULL;
}

/* Encodings are 16 bits (op0:op1:CRn:CRm:op2): one pointer per encoding, built once. */
static const struct sim_arch_reg *by_enc[1u << 16];

const struct sim_arch_reg *sim_arch_reg(uint32_t enc)
{
	static bool built;
	const struct sim_arch_reg *r;

	if (!built) {
		for (unsigned int i = 0; (r = sim_arch_reg_at(i)) != NULL; i++)
			by_enc[r->enc & 0xffffu] = r;
		built = true;
	}
	return enc <= 0xffffu ? by_enc[enc] : NULL;
}
