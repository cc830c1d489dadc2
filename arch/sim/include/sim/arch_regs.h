/* SPDX-License-Identifier: MIT */
/*
 * The model's own description of every System register it implements: encoding, direction,
 * what traps it to EL2, which feature makes it present, its RES0 bits, which family of the model
 * gives it behaviour and, for the PMU, which kind of register it is. Written from the
 * architecture text (arch/sim/core/arch_regs.c cites where).
 *
 * This independence is deliberate: the model is the oracle that judges vperf, so it must not
 * read vperf's register database (include/vperf/sysregs.def, lib/regdb.c). Every lookup,
 * access rule, RES0 mask and family dispatch of the model comes from this table; a misreading
 * in vperf's database is then not repeated by the model that tests it.
 * tests/unit/test_sim_regs.c compares the two line by line.
 *
 * Only the packing of an encoding into 16 bits (op0:op1:CRn:CRm:op2, SIM_ENC below) is shared
 * with vperf: it is the format of the accessor seam (arch/sim/include/arch/sysreg.h) through
 * which vperf's accesses reach the model.
 */
#ifndef VPERF_SIM_ARCH_REGS_H
#define VPERF_SIM_ARCH_REGS_H

#include <vperf/types.h>

#define SIM_ENC(op0, op1, crn, crm, op2)                                                         \
	((uint32_t)(((uint32_t)(op0) << 14) | ((uint32_t)(op1) << 11) | ((uint32_t)(crn) << 7) | \
		    ((uint32_t)(crm) << 3) | (uint32_t)(op2)))
#define SIM_ENC_OP0(enc) (((enc) >> 14) & 0x3u)
#define SIM_ENC_OP1(enc) (((enc) >> 11) & 0x7u)
#define SIM_ENC_CRN(enc) (((enc) >> 7) & 0xfu)
#define SIM_ENC_CRM(enc) (((enc) >> 3) & 0xfu)
#define SIM_ENC_OP2(enc) ((enc)&0x7u)

/* The registers the model names in its own code (the indexed families are below). Encodings
 * from the Arm DDI 0487 K.a System register index and the SPE supplement's Table 7 (SPE 4.1). */
enum sim_enc {
	SIM_ENC_MPIDR_EL1 = SIM_ENC(3, 0, 0, 0, 5),
	SIM_ENC_ID_AA64PFR0_EL1 = SIM_ENC(3, 0, 0, 4, 0),
	SIM_ENC_ID_AA64DFR0_EL1 = SIM_ENC(3, 0, 0, 5, 0),
	SIM_ENC_ID_AA64DFR1_EL1 = SIM_ENC(3, 0, 0, 5, 1),
	SIM_ENC_ID_AA64MMFR0_EL1 = SIM_ENC(3, 0, 0, 7, 0),
	SIM_ENC_PMSCR_EL1 = SIM_ENC(3, 0, 9, 9, 0),
	SIM_ENC_PMSNEVFR_EL1 = SIM_ENC(3, 0, 9, 9, 1),
	SIM_ENC_PMSICR_EL1 = SIM_ENC(3, 0, 9, 9, 2),
	SIM_ENC_PMSIRR_EL1 = SIM_ENC(3, 0, 9, 9, 3),
	SIM_ENC_PMSFCR_EL1 = SIM_ENC(3, 0, 9, 9, 4),
	SIM_ENC_PMSEVFR_EL1 = SIM_ENC(3, 0, 9, 9, 5),
	SIM_ENC_PMSLATFR_EL1 = SIM_ENC(3, 0, 9, 9, 6),
	SIM_ENC_PMSIDR_EL1 = SIM_ENC(3, 0, 9, 9, 7),
	SIM_ENC_PMBLIMITR_EL1 = SIM_ENC(3, 0, 9, 10, 0),
	SIM_ENC_PMBPTR_EL1 = SIM_ENC(3, 0, 9, 10, 1),
	SIM_ENC_PMBSR_EL1 = SIM_ENC(3, 0, 9, 10, 3),
	SIM_ENC_PMSDSFR_EL1 = SIM_ENC(3, 0, 9, 10, 4),
	SIM_ENC_PMBIDR_EL1 = SIM_ENC(3, 0, 9, 10, 7),
	SIM_ENC_PMINTENSET_EL1 = SIM_ENC(3, 0, 9, 14, 1),
	SIM_ENC_PMINTENCLR_EL1 = SIM_ENC(3, 0, 9, 14, 2),
	SIM_ENC_PMUACR_EL1 = SIM_ENC(3, 0, 9, 14, 4),
	SIM_ENC_PMMIR_EL1 = SIM_ENC(3, 0, 9, 14, 6),
	SIM_ENC_ISR_EL1 = SIM_ENC(3, 0, 12, 1, 0),
	SIM_ENC_PMICNTR_EL0 = SIM_ENC(3, 3, 9, 4, 0),
	SIM_ENC_PMICFILTR_EL0 = SIM_ENC(3, 3, 9, 6, 0),
	SIM_ENC_PMCR_EL0 = SIM_ENC(3, 3, 9, 12, 0),
	SIM_ENC_PMCNTENSET_EL0 = SIM_ENC(3, 3, 9, 12, 1),
	SIM_ENC_PMCNTENCLR_EL0 = SIM_ENC(3, 3, 9, 12, 2),
	SIM_ENC_PMOVSCLR_EL0 = SIM_ENC(3, 3, 9, 12, 3),
	SIM_ENC_PMSWINC_EL0 = SIM_ENC(3, 3, 9, 12, 4),
	SIM_ENC_PMSELR_EL0 = SIM_ENC(3, 3, 9, 12, 5),
	SIM_ENC_PMCEID0_EL0 = SIM_ENC(3, 3, 9, 12, 6),
	SIM_ENC_PMCEID1_EL0 = SIM_ENC(3, 3, 9, 12, 7),
	SIM_ENC_PMCCNTR_EL0 = SIM_ENC(3, 3, 9, 13, 0),
	SIM_ENC_PMXEVTYPER_EL0 = SIM_ENC(3, 3, 9, 13, 1),
	SIM_ENC_PMXEVCNTR_EL0 = SIM_ENC(3, 3, 9, 13, 2),
	SIM_ENC_PMZR_EL0 = SIM_ENC(3, 3, 9, 13, 4),
	SIM_ENC_PMUSERENR_EL0 = SIM_ENC(3, 3, 9, 14, 0),
	SIM_ENC_PMOVSSET_EL0 = SIM_ENC(3, 3, 9, 14, 3),
	SIM_ENC_PMCCFILTR_EL0 = SIM_ENC(3, 3, 14, 15, 7),
	SIM_ENC_HCR_EL2 = SIM_ENC(3, 4, 1, 1, 0),
	SIM_ENC_MDCR_EL2 = SIM_ENC(3, 4, 1, 1, 1),
	SIM_ENC_HDFGRTR2_EL2 = SIM_ENC(3, 4, 3, 1, 0),
	SIM_ENC_HDFGWTR2_EL2 = SIM_ENC(3, 4, 3, 1, 1),
	SIM_ENC_HDFGRTR_EL2 = SIM_ENC(3, 4, 3, 1, 4),
	SIM_ENC_HDFGWTR_EL2 = SIM_ENC(3, 4, 3, 1, 5),
	SIM_ENC_PMSCR_EL2 = SIM_ENC(3, 4, 9, 9, 0),
	SIM_ENC_CONTEXTIDR_EL2 = SIM_ENC(3, 4, 13, 0, 1),
	/* PMSCR_EL12 (SPE 4.3.6): EL2's name for PMSCR_EL1 when HCR_EL2.E2H = 1. */
	SIM_ENC_PMSCR_EL12 = SIM_ENC(3, 5, 9, 9, 0),
	SIM_ENC_ICH_HCR_EL2 = SIM_ENC(3, 4, 12, 11, 0),
	SIM_ENC_ICH_VTR_EL2 = SIM_ENC(3, 4, 12, 11, 1),
	SIM_ENC_ICH_MISR_EL2 = SIM_ENC(3, 4, 12, 11, 2),
	SIM_ENC_ICH_EISR_EL2 = SIM_ENC(3, 4, 12, 11, 3),
	SIM_ENC_ICH_ELRSR_EL2 = SIM_ENC(3, 4, 12, 11, 5),
	SIM_ENC_ICH_VMCR_EL2 = SIM_ENC(3, 4, 12, 11, 7),
};

/* PMEVCNTR<n>_EL0 (3,3,14,0b10:n[4:3],n[2:0]) and PMEVTYPER<n>_EL0 (3,3,14,0b11:n[4:3],n[2:0])
 * for n < 31, ICH_LR<n>_EL2 (3,4,12,12+n[3],n[2:0]) for n < 16 (Arm ARM System register
 * index), and n back from the encoding. */
static inline uint32_t sim_enc_pmevcntr(unsigned int n)
{
	return SIM_ENC(3, 3, 14, 8 | (n >> 3), n & 7);
}

static inline uint32_t sim_enc_pmevtyper(unsigned int n)
{
	return SIM_ENC(3, 3, 14, 12 | (n >> 3), n & 7);
}

static inline uint32_t sim_enc_ich_lr(unsigned int n)
{
	return SIM_ENC(3, 4, 12, 12 + (n >> 3), n & 7);
}

static inline unsigned int sim_pmev_index(uint32_t enc)
{
	return (unsigned int)((SIM_ENC_CRM(enc) & 3u) << 3 | SIM_ENC_OP2(enc));
}

static inline unsigned int sim_lr_index(uint32_t enc)
{
	return (unsigned int)((SIM_ENC_CRM(enc) & 1u) << 3 | SIM_ENC_OP2(enc));
}

enum sim_dir { SIM_DIR_RO = 1, SIM_DIR_WO = 2, SIM_DIR_RW = 3 };

/* What makes an EL0/EL1 access trap to EL2. */
enum sim_trap_class {
	SIM_TRAP_NONE,	    /* no EL2 trap */
	SIM_TRAP_TPM,	    /* MDCR_EL2.TPM */
	SIM_TRAP_TPM_TPMCR, /* MDCR_EL2.TPM or TPMCR (PMCR_EL0) */
	SIM_TRAP_TPMS,	    /* MDCR_EL2.TPMS (SPE sampling controls) */
	SIM_TRAP_E2PB,	    /* MDCR_EL2.E2PB != 0b11 (Profiling Buffer) */
	SIM_TRAP_TID3,	    /* HCR_EL2.TID3 (ID registers) */
	SIM_TRAP_EL2_ONLY,  /* an EL2 register: UNDEFINED at EL0/EL1 */
};

enum sim_feature {
	SIM_FEAT_ALWAYS,
	SIM_FEAT_PMUV3,	  /* PMUVer >= 1 */
	SIM_FEAT_PMUV3P4, /* PMUVer >= 5 */
	SIM_FEAT_PMUV3P9, /* PMUVer >= 9 */
	SIM_FEAT_SPE,	  /* PMSVer >= 1 */
	SIM_FEAT_SPEV1P2, /* PMSVer >= 3 */
	SIM_FEAT_SPE_FDS, /* PMSVer >= 5 in the model (FEAT_SPE_FDS) */
	SIM_FEAT_GICV3,
	SIM_FEAT_FGT, /* ID_AA64MMFR0_EL1.FGT >= 1, on the accessing CPU */
	/* FEAT_PMUv3_ICNTR (ID_AA64DFR1_EL1.PMICNTR = 1): PMICNTR_EL0, PMICFILTR_EL0 */
	SIM_FEAT_PMUV3_ICNTR,
	SIM_FEAT_FGT2, /* ID_AA64MMFR0_EL1.FGT >= 2: HDFGRTR2_EL2 / HDFGWTR2_EL2 */
};

/* The family of the model that gives a register its behaviour (the core alone stores the ID
 * registers and HCR_EL2). MDCR_EL2 is the PMU's: HPMN, HPME, HPMD, HCCD, HLP govern counting;
 * its TPM/TPMS/E2PB trap fields are read by the rules of each family. */
enum sim_family_id { SIM_FAM_CORE, SIM_FAM_PMU, SIM_FAM_SPE, SIM_FAM_GIC, SIM_NR_FAMILIES };

/* The PMU registers by role (one kind per SET/CLR pair): the PMU family dispatches on it. */
enum sim_reg_kind {
	SIM_KIND_OTHER,
	SIM_KIND_PMCR,
	SIM_KIND_PMCNTEN,
	SIM_KIND_PMINTEN,
	SIM_KIND_PMOVS,
	SIM_KIND_PMSWINC,
	SIM_KIND_PMSELR,
	SIM_KIND_PMCEID,
	SIM_KIND_PMCCNTR,
	SIM_KIND_PMXEVTYPER,
	SIM_KIND_PMXEVCNTR,
	SIM_KIND_PMZR,
	SIM_KIND_PMUSERENR,
	SIM_KIND_PMMIR,
	SIM_KIND_PMEVCNTR,
	SIM_KIND_PMEVTYPER,
	SIM_KIND_PMCCFILTR,
	SIM_KIND_PMICNTR,   /* FEAT_PMUv3_ICNTR's instruction counter */
	SIM_KIND_PMICFILTR, /* and its filter */
	SIM_KIND_PMUACR,    /* FEAT_PMUv3p9's EL0 access control */
};

/* What lets EL0 reach a PMU register, from PMUSERENR_EL0's description (D24.5) and each
 * register's accessibility pseudocode: the PMU family's EL0 rule applies it (pmu/pmu.c). */
enum sim_el0_rule {
	SIM_EL0_NONE,  /* UNDEFINED at EL0 (an EL1 or EL2 register, every SPE register) */
	SIM_EL0_EN,    /* PMUSERENR_EL0.EN */
	SIM_EL0_SW,    /* EN or SW (PMSWINC_EL0) */
	SIM_EL0_CR,    /* EN, or CR for reads (PMCCNTR_EL0) */
	SIM_EL0_ER,    /* EN, or ER for reads (the event counters) */
	SIM_EL0_ER_RW, /* EN or ER (PMSELR_EL0) */
	SIM_EL0_RO,    /* readable whatever EN says, never written (PMUSERENR_EL0) */
	SIM_EL0_IR,    /* EN, or IR for reads (PMICNTR_EL0, FEAT_PMUv3_ICNTR) */
};

/*
 * The FEAT_FGT / FEAT_FGT2 field that traps a register, from the descriptions of HDFGRTR_EL2,
 * HDFGWTR_EL2 (D24.2) and HDFGRTR2_EL2, HDFGWTR2_EL2 (D24.2.68; bit positions as in Linux's
 * arch/arm64/tools/sysreg): SIM_FGTF(name, register: 1 HDFGxTR_EL2, 2 HDFGxTR2_EL2, read bit,
 * write bit), SIM_FGT_NO_BIT where that direction has no field. A name starting with N traps at
 * 0. The PMU family applies the PMU fields (pmu/pmu_fgt.c), the SPE family the SPE fields
 * (spe/spe_fgt.c); PMSDSFR_EL1's (FEAT_SPE_FDS) is not modelled.
 */
#define SIM_FGT_NO_BIT 64u
#define SIM_FGT_LIST(F)          \
	F(NONE, 0, 64, 64)       \
	F(PMEVCNTRN, 1, 12, 12)  \
	F(PMEVTYPERN, 1, 13, 13) \
	F(PMCCFILTR, 1, 14, 14)  \
	F(PMCCNTR, 1, 15, 15)    \
	F(PMCNTEN, 1, 16, 16)    \
	F(PMINTEN, 1, 17, 17)    \
	F(PMOVS, 1, 18, 18)      \
	F(PMSELR, 1, 19, 19)     \
	F(PMSWINC, 1, 64, 20)    \
	F(PMCR, 1, 64, 21)       \
	F(PMMIR, 1, 22, 64)      \
	F(PMBLIMITR, 1, 23, 23)  \
	F(PMBPTR, 1, 24, 24)     \
	F(PMBSR, 1, 25, 25)      \
	F(PMSCR, 1, 26, 26)      \
	F(PMSEVFR, 1, 27, 27)    \
	F(PMSFCR, 1, 28, 28)     \
	F(PMSICR, 1, 29, 29)     \
	F(PMSIDR, 1, 30, 64)     \
	F(PMSIRR, 1, 31, 31)     \
	F(PMSLATFR, 1, 32, 32)   \
	F(PMUSERENR, 1, 57, 57)  \
	F(PMCEIDN, 1, 58, 64)    \
	F(NPMSNEVFR, 1, 62, 62)  \
	F(PMBIDR, 1, 63, 64)     \
	F(NPMICNTR, 2, 2, 2)     \
	F(NPMICFILTR, 2, 3, 3)   \
	F(NPMUACR, 2, 4, 4)      \
	F(NPMZR, 2, 64, 21)

enum {
#define SIM_FGT_CONSTS(name, reg, rbit, wbit) \
	SIM_FGT_REG_##name = (reg), SIM_FGT_R_##name = (rbit), SIM_FGT_W_##name = (wbit),
	SIM_FGT_LIST(SIM_FGT_CONSTS)
#undef SIM_FGT_CONSTS
};

struct sim_arch_reg {
	const char *name;
	uint32_t enc;	  /* SIM_ENC(op0, op1, CRn, CRm, op2) */
	uint8_t dir;	  /* enum sim_dir */
	uint8_t trap;	  /* enum sim_trap_class */
	uint8_t feat;	  /* enum sim_feature */
	uint8_t family;	  /* enum sim_family_id */
	uint8_t kind;	  /* enum sim_reg_kind */
	uint8_t el0;	  /* enum sim_el0_rule */
	uint8_t fgt_reg;  /* its fine-grained trap field (SIM_FGT_LIST): 0 none, 1 FGT, 2 FGT2 */
	uint8_t fgt_rbit; /* ... its bit for reads and for writes, SIM_FGT_NO_BIT for none */
	uint8_t fgt_wbit;
	uint64_t res0; /* RES0 in every version (not the feature-dependent fields) */
};

/* How many registers the table holds: the register file has one slot each. */
#define SIM_NR_REGS 133u

/* The register at enc, or NULL when the model has no such register. */
const struct sim_arch_reg *sim_arch_reg(uint32_t enc);
/* Every register: i = 0 .. SIM_NR_REGS - 1, then NULL. Its register-file slot is i. */
const struct sim_arch_reg *sim_arch_reg_at(unsigned int i);
/* The register-file slot of enc, or -1 when the model has no such register. */
int sim_arch_reg_slot(uint32_t enc);

/* One field of a register as the model's field lists have it (core/reg_fields.c): the name of
 * the model's mask and the mask. */
struct sim_reg_field {
	const char *name;
	uint64_t mask;
};

/* The model's field list of reg (*n fields), NULL when it keeps none for it (counters, ID
 * registers but PMSIDR_EL1 and PMBIDR_EL1, GIC registers). */
const struct sim_reg_field *sim_reg_fields(const struct sim_arch_reg *reg, unsigned int *n);

#endif /* VPERF_SIM_ARCH_REGS_H */
