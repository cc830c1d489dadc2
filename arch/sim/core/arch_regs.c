// SPDX-License-Identifier: MIT
/*
 * The model's register table (sim/arch_regs.h), written from the architecture text: Arm DDI
 * 0487 K.a and the SPE supplement (Arm DDI 0586A).
 *
 * Deliberately independent of vperf: the model is the oracle that judges vperf's register
 * handling, so nothing here comes from include/vperf/sysregs.def or lib/regdb.c. The model
 * looks up, checks, masks and dispatches every access with this table alone;
 * tests/unit/test_sim_regs.c holds it against vperf's database, line by line.
 *
 *   encodings and directions: the System register index (the assembler checks vperf's
 *     database, tests/unit/test_sim_regs.c this table against it), SPE 4.1 (Table 7) for the
 *     SPE registers;
 *   traps: MDCR_EL2.TPM covers every PMU register, TPMCR PMCR_EL0 too (D13.1, MDCR_EL2 in
 *     D24.2); TPMS the PMS* sampling registers and E2PB the PMB* buffer registers but
 *     PMBIDR_EL1 (SPE 3.4.2, 3.4.6, 4.3.1 "Traps and enables: None"); HCR_EL2.TID3 the ID
 *     registers;
 *   RES0: the field lists of I5.3 (PMCR_EL0 I5.3.21, PMCNTEN/PMINTEN/PMOVS I5.3.18-20,
 *     I5.3.36-38, I5.3.43-45, PMEVTYPER I5.3.30, PMCCFILTR I5.3.2, PMSWINC I5.3.55, PMZR
 *     I5.3.58, PMUSERENR_EL0 and PMSELR_EL0 in D24.5). Fields that exist with a later feature
 *     (PMCR_EL0.FZS, the instruction counter bit 32, PMEVTYPER TC/TE/SYNC/VS/TLC/TH...) are not
 *     RES0 here; the families mask them by version. The SPE registers' bits are the SPE
 *     family's (spe/spe_regs.c), the EL2 and GIC registers' the core's and the GIC family's: 0
 *     here;
 *   EL0: PMUSERENR_EL0's description in D24.5 (EN, SW, CR, ER, IR) and each register's
 *     accessibility pseudocode: EL1 and EL2 registers and every SPE register are UNDEFINED at
 *     EL0 (enum sim_el0_rule; the PMU family applies it, pmu/pmu.c);
 *   FGT: the HDFGRTR_EL2 / HDFGWTR_EL2 (and FEAT_FGT2's) field that traps it (SIM_FGT_LIST in
 *     sim/arch_regs.h; pmu/pmu_fgt.c and spe/spe_fgt.c apply them).
 */
#include <sim/arch_regs.h>

#define REG(nm, dir, trap, feat, fam, kind, res0, el0, fgt)                                        \
	{                                                                                          \
#nm, SIM_ENC_##nm, SIM_DIR_##dir, SIM_TRAP_##trap, SIM_FEAT_##feat, SIM_FAM_##fam, \
			SIM_KIND_##kind, SIM_EL0_##el0, SIM_FGT_REG_##fgt, SIM_FGT_R_##fgt,        \
			SIM_FGT_W_##fgt, res0                                                      \
	}

#define BITS_63_33 0xfffffffe00000000ull /* counters 0-30, C; bit 32 is FEAT_PMUv3_ICNTR's */
#define ICFILTR_RES0 \
	(0xf800000000000000ull | 0x00ffffff00000000ull | 1ull << 25 | 1ull << 23 | 0xf0000ull)

static const struct sim_arch_reg singles[] = {
	/* MPIDR_EL1: an EL1 read returns VMPIDR_EL2, no EL2 trap (its description in D24.2). */
	REG(MPIDR_EL1, RO, NONE, ALWAYS, CORE, OTHER, 0, NONE, NONE),
	REG(ID_AA64PFR0_EL1, RO, TID3, ALWAYS, CORE, OTHER, 0, NONE, NONE),
	REG(ID_AA64DFR0_EL1, RO, TID3, ALWAYS, CORE, OTHER, 0, NONE, NONE),
	REG(ID_AA64DFR1_EL1, RO, TID3, ALWAYS, CORE, OTHER, 0, NONE, NONE),
	REG(ID_AA64MMFR0_EL1, RO, TID3, ALWAYS, CORE, OTHER, 0, NONE, NONE),
	REG(PMSCR_EL1, RW, TPMS, SPE, SPE, OTHER, 0, NONE, PMSCR),
	REG(PMSNEVFR_EL1, RW, TPMS, SPEV1P2, SPE, OTHER, 0, NONE, NPMSNEVFR),
	REG(PMSICR_EL1, RW, TPMS, SPE, SPE, OTHER, 0, NONE, PMSICR),
	REG(PMSIRR_EL1, RW, TPMS, SPE, SPE, OTHER, 0, NONE, PMSIRR),
	REG(PMSFCR_EL1, RW, TPMS, SPE, SPE, OTHER, 0, NONE, PMSFCR),
	REG(PMSEVFR_EL1, RW, TPMS, SPE, SPE, OTHER, 0, NONE, PMSEVFR),
	REG(PMSLATFR_EL1, RW, TPMS, SPE, SPE, OTHER, 0, NONE, PMSLATFR),
	REG(PMSIDR_EL1, RO, TPMS, SPE, SPE, OTHER, 0, NONE, PMSIDR),
	REG(PMBLIMITR_EL1, RW, E2PB, SPE, SPE, OTHER, 0, NONE, PMBLIMITR),
	REG(PMBPTR_EL1, RW, E2PB, SPE, SPE, OTHER, 0, NONE, PMBPTR),
	REG(PMBSR_EL1, RW, E2PB, SPE, SPE, OTHER, 0, NONE, PMBSR),
	REG(PMSDSFR_EL1, RW, TPMS, SPE_FDS, SPE, OTHER, 0, NONE, NONE),
	REG(PMBIDR_EL1, RO, NONE, SPE, SPE, OTHER, 0, NONE, PMBIDR),
	REG(PMINTENSET_EL1, RW, TPM, PMUV3, PMU, PMINTEN, BITS_63_33, NONE, PMINTEN),
	REG(PMINTENCLR_EL1, RW, TPM, PMUV3, PMU, PMINTEN, BITS_63_33, NONE, PMINTEN),
	/* PMUACR_EL1 (FEAT_PMUv3p9): P<n> [30:0], C [31], F0 [32]; [63:33] RES0. */
	REG(PMUACR_EL1, RW, TPM, PMUV3P9, PMU, PMUACR, BITS_63_33, NONE, NPMUACR),
	REG(PMMIR_EL1, RO, TPM, PMUV3P4, PMU, PMMIR, 0, NONE, PMMIR),
	/* ISR_EL1 (D24.2): I [7] an IRQ pending, physical at EL2, virtual at EL1 with
	 * HCR_EL2.IMO; no EL2 trap; the GIC family computes it (gic/gic.c). */
	REG(ISR_EL1, RO, NONE, ALWAYS, GIC, OTHER, 0, NONE, NONE),
	/* FEAT_PMUv3_ICNTR: PMICNTR_EL0 (I5.3.33, 64 bits) and PMICFILTR_EL0 (I5.3.32: [63:59],
	 * [55:32], bit 25, bit 23 and [19:16] RES0; evtCount [15:0] reads 0x0008). MDCR_EL2.TPM
	 * traps both, as every PMU register. */
	REG(PMICNTR_EL0, RW, TPM, PMUV3_ICNTR, PMU, PMICNTR, 0, IR, NPMICNTR),
	REG(PMICFILTR_EL0, RW, TPM, PMUV3_ICNTR, PMU, PMICFILTR, ICFILTR_RES0, EN, NPMICFILTR),
	/* PMCR_EL0: [63:33], bit 10 and bit 8 are RES0 in every version (I5.3.21). */
	REG(PMCR_EL0, RW, TPM_TPMCR, PMUV3, PMU, PMCR, BITS_63_33 | 1ull << 10 | 1ull << 8, EN,
	    PMCR),
	REG(PMCNTENSET_EL0, RW, TPM, PMUV3, PMU, PMCNTEN, BITS_63_33, EN, PMCNTEN),
	REG(PMCNTENCLR_EL0, RW, TPM, PMUV3, PMU, PMCNTEN, BITS_63_33, EN, PMCNTEN),
	REG(PMOVSCLR_EL0, RW, TPM, PMUV3, PMU, PMOVS, BITS_63_33, EN, PMOVS),
	REG(PMSWINC_EL0, WO, TPM, PMUV3, PMU, PMSWINC, 0xffffffff80000000ull, SW, PMSWINC),
	REG(PMSELR_EL0, RW, TPM, PMUV3, PMU, PMSELR, ~0x1full, ER_RW, PMSELR),
	REG(PMCEID0_EL0, RO, TPM, PMUV3, PMU, PMCEID, 0, EN, PMCEIDN),
	REG(PMCEID1_EL0, RO, TPM, PMUV3, PMU, PMCEID, 0, EN, PMCEIDN),
	REG(PMCCNTR_EL0, RW, TPM, PMUV3, PMU, PMCCNTR, 0, CR, PMCCNTR),
	REG(PMXEVTYPER_EL0, RW, TPM, PMUV3, PMU, PMXEVTYPER, 0, EN, PMEVTYPERN),
	REG(PMXEVCNTR_EL0, RW, TPM, PMUV3, PMU, PMXEVCNTR, 0, ER, PMEVCNTRN),
	REG(PMZR_EL0, WO, TPM, PMUV3P9, PMU, PMZR, BITS_63_33, EN, NPMZR),
	/* PMUSERENR_EL0: EN, SW, CR, ER [3:0], and UEN, IR, TID [6:4] of later features. */
	REG(PMUSERENR_EL0, RW, TPM, PMUV3, PMU, PMUSERENR, ~0x7full, RO, PMUSERENR),
	REG(PMOVSSET_EL0, RW, TPM, PMUV3, PMU, PMOVS, BITS_63_33, EN, PMOVS),
	/* PMCCFILTR_EL0 (I5.3.2): [63:58], [55:32], bit 25, bit 23 and [19:0] are RES0. */
	REG(PMCCFILTR_EL0, RW, TPM, PMUV3, PMU, PMCCFILTR,
	    0xfc00000000000000ull | 0x00ffffff00000000ull | 1ull << 25 | 1ull << 23 | 0xfffffull,
	    EN, PMCCFILTR),
	REG(HCR_EL2, RW, EL2_ONLY, ALWAYS, CORE, OTHER, 0, NONE, NONE),
	REG(MDCR_EL2, RW, EL2_ONLY, ALWAYS, PMU, OTHER, 0, NONE, NONE),
	/* The fine-grained trap registers (FEAT_FGT): plain storage, read by the PMU family's
	 * trap rules (pmu/pmu_fgt.c). */
	REG(HDFGRTR_EL2, RW, EL2_ONLY, FGT, CORE, OTHER, 0, NONE, NONE),
	REG(HDFGWTR_EL2, RW, EL2_ONLY, FGT, CORE, OTHER, 0, NONE, NONE),
	/* FEAT_FGT2's (D24.2.68 HDFGRTR2_EL2 and HDFGWTR2_EL2): read by pmu/pmu_fgt.c too. */
	REG(HDFGRTR2_EL2, RW, EL2_ONLY, FGT2, CORE, OTHER, 0, NONE, NONE),
	REG(HDFGWTR2_EL2, RW, EL2_ONLY, FGT2, CORE, OTHER, 0, NONE, NONE),
	REG(PMSCR_EL2, RW, EL2_ONLY, SPE, SPE, OTHER, 0, NONE, NONE),
	/* CONTEXTIDR_EL2 (FEAT_VHE, which the model's PE has): PROCID [31:0], [63:32] RES0. */
	REG(CONTEXTIDR_EL2, RW, EL2_ONLY, ALWAYS, SPE, OTHER, 0xffffffff00000000ull, NONE, NONE),
	/* PMSCR_EL12 (SPE 4.3.6): present with FEAT_VHE, EL2 and SPE; UNDEFINED at EL1 and EL0
	 * and at EL2 with HCR_EL2.E2H = 0 (access/model.c applies the last rule). */
	REG(PMSCR_EL12, RW, EL2_ONLY, SPE, SPE, OTHER, 0, NONE, NONE),
	REG(ICH_HCR_EL2, RW, EL2_ONLY, GICV3, GIC, OTHER, 0, NONE, NONE),
	REG(ICH_VTR_EL2, RO, EL2_ONLY, GICV3, GIC, OTHER, 0, NONE, NONE),
	REG(ICH_MISR_EL2, RO, EL2_ONLY, GICV3, GIC, OTHER, 0, NONE, NONE),
	REG(ICH_EISR_EL2, RO, EL2_ONLY, GICV3, GIC, OTHER, 0, NONE, NONE),
	REG(ICH_ELRSR_EL2, RO, EL2_ONLY, GICV3, GIC, OTHER, 0, NONE, NONE),
	REG(ICH_VMCR_EL2, RW, EL2_ONLY, GICV3, GIC, OTHER, 0, NONE, NONE),
};

/* PMEVTYPER<n>_EL0 (I5.3.30): bit 59, [53:44], bit 23 and [19:16] are RES0. */
#define EVTYPER_RES0 (1ull << 59 | 0x003ff00000000000ull | 1ull << 23 | 0xf0000ull)

/* The indexed families: PMEVCNTR<n>_EL0, PMEVTYPER<n>_EL0 for n = 0-30, ICH_LR<n>_EL2 for
 * n = 0-15 (encodings: sim_enc_pmevcntr() and friends in sim/arch_regs.h). */
#define NR_SINGLES VPERF_ARRAY_SIZE(singles)
static struct sim_arch_reg indexed[31 + 31 + 16];
static char names[31 + 31 + 16][20];

_Static_assert(VPERF_ARRAY_SIZE(singles) + VPERF_ARRAY_SIZE(indexed) == SIM_NR_REGS,
	       "SIM_NR_REGS counts the table");

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

static struct sim_arch_reg indexed_reg(const char *name, uint32_t enc, uint8_t trap, uint8_t feat,
				       uint8_t family, uint8_t kind, uint64_t res0)
{
	bool cnt = kind == SIM_KIND_PMEVCNTR, type = kind == SIM_KIND_PMEVTYPER;
	uint8_t el0 = cnt ? SIM_EL0_ER : type ? SIM_EL0_EN : SIM_EL0_NONE;
	uint8_t fgt = cnt ? SIM_FGT_R_PMEVCNTRN : type ? SIM_FGT_R_PMEVTYPERN : SIM_FGT_NO_BIT;

	return (struct sim_arch_reg){ .name = name,
				      .enc = enc,
				      .dir = SIM_DIR_RW,
				      .trap = trap,
				      .feat = feat,
				      .family = family,
				      .kind = kind,
				      .el0 = el0,
				      .fgt_reg = cnt || type ? 1 : 0,
				      .fgt_rbit = fgt,
				      .fgt_wbit = fgt,
				      .res0 = res0 };
}

static void build_indexed(void)
{
	for (unsigned int n = 0; n < 31; n++) {
		name_of(names[n], "PMEVCNTR", n, "_EL0");
		indexed[n] = indexed_reg(names[n], sim_enc_pmevcntr(n), SIM_TRAP_TPM,
					 SIM_FEAT_PMUV3, SIM_FAM_PMU, SIM_KIND_PMEVCNTR, 0);
		name_of(names[31 + n], "PMEVTYPER", n, "_EL0");
		indexed[31 + n] =
			indexed_reg(names[31 + n], sim_enc_pmevtyper(n), SIM_TRAP_TPM,
				    SIM_FEAT_PMUV3, SIM_FAM_PMU, SIM_KIND_PMEVTYPER, EVTYPER_RES0);
	}
	for (unsigned int n = 0; n < 16; n++) {
		name_of(names[62 + n], "ICH_LR", n, "_EL2");
		indexed[62 + n] = indexed_reg(names[62 + n], sim_enc_ich_lr(n), SIM_TRAP_EL2_ONLY,
					      SIM_FEAT_GICV3, SIM_FAM_GIC, SIM_KIND_OTHER, 0);
	}
}

const struct sim_arch_reg *sim_arch_reg_at(unsigned int i)
{
	if (!indexed[0].name)
		build_indexed();
	if (i < NR_SINGLES)
		return &singles[i];
	i -= (unsigned int)NR_SINGLES;
	return i < VPERF_ARRAY_SIZE(indexed) ? &indexed[i] : NULL;
}

/* Encodings are 16 bits (op0:op1:CRn:CRm:op2): the register-file slot + 1 of each encoding, 0
 * where the model has no register, built once. */
static uint8_t slot_of[1u << 16];

_Static_assert(SIM_NR_REGS < 255, "slot_of holds a slot + 1 in a byte");

static bool slots_built;

/* Apart from the lookup, so that the lookup, run for every register the model touches, stays a
 * leaf function with no frame to set up. */
__attribute__((noinline)) static void build_slots(void)
{
	for (unsigned int i = 0; i < SIM_NR_REGS; i++)
		slot_of[sim_arch_reg_at(i)->enc & 0xffffu] = (uint8_t)(i + 1);
	slots_built = true;
}

int sim_arch_reg_slot(uint32_t enc)
{
	if (!slots_built)
		build_slots();
	return enc <= 0xffffu ? (int)slot_of[enc] - 1 : -1;
}

const struct sim_arch_reg *sim_arch_reg(uint32_t enc)
{
	int slot = sim_arch_reg_slot(enc);

	return slot < 0 ? NULL : sim_arch_reg_at((unsigned int)slot);
}
