/* SPDX-License-Identifier: MIT */
/*
 * System register identities, expanded from the one register database (sysregs.def): numeric
 * encodings, dense ids, descriptors, and the field layouts vperf relies on.
 */
#ifndef VPERF_SYSREG_H
#define VPERF_SYSREG_H

#include <vperf/fgt.h>
#include <vperf/types.h>

/*
 * A System register encoding packed into 16 bits, ordered like the tuple (op0, op1, CRn, CRm,
 * op2), so numeric order is database order.
 */
#define VPERF_SYSREG_ENC(op0, op1, crn, crm, op2)                                                \
	((uint32_t)(((uint32_t)(op0) << 14) | ((uint32_t)(op1) << 11) | ((uint32_t)(crn) << 7) | \
		    ((uint32_t)(crm) << 3) | (uint32_t)(op2)))
#define VPERF_ENC_OP0(enc) (((enc) >> 14) & 0x3u)
#define VPERF_ENC_OP1(enc) (((enc) >> 11) & 0x7u)
#define VPERF_ENC_CRN(enc) (((enc) >> 7) & 0xfu)
#define VPERF_ENC_CRM(enc) (((enc) >> 3) & 0xfu)
#define VPERF_ENC_OP2(enc) ((enc)&0x7u)

/* Dense ids, in database (= encoding) order: VPERF_SR_PMCR_EL0, ... */
enum vperf_sysreg_id {
#define SYSREG(name, ...) VPERF_SR_##name,
#include <vperf/sysregs.def>
#undef SYSREG
	VPERF_SR_COUNT
};

/* Encodings: VPERF_ENC_PMCR_EL0, ... */
enum vperf_sysreg_enc {
#define SYSREG(name, op0, op1, crn, crm, op2, ...) \
	VPERF_ENC_##name = VPERF_SYSREG_ENC(op0, op1, crn, crm, op2),
#include <vperf/sysregs.def>
#undef SYSREG
};

enum vperf_sysreg_access {
	VPERF_ACC_RW = 3,
	VPERF_ACC_RO = 1, /* MSR is UNDEFINED */
	VPERF_ACC_WO = 2, /* MRS is UNDEFINED */
};

/* What makes a lower-EL access trap to EL2. MDCR_EL2 field positions: see vperf/mdcr.h. */
enum vperf_trap_ctl {
	VPERF_TRAP_NONE = 0,
	VPERF_TRAP_TPM = 1u << 0,
	VPERF_TRAP_TPMCR = 1u << 1,
	VPERF_TRAP_TPM_TPMCR = VPERF_TRAP_TPM | VPERF_TRAP_TPMCR,
	VPERF_TRAP_TPMS = 1u << 2,
	VPERF_TRAP_E2PB = 1u << 3,
	VPERF_TRAP_TID3 = 1u << 4,
	VPERF_TRAP_EL2 = 1u << 5,
};

enum vperf_sysreg_feat {
	VPERF_FEAT_ID,	    /* ID register, always present */
	VPERF_FEAT_PMUV3,   /* ID_AA64DFR0_EL1.PMUVer >= 1 */
	VPERF_FEAT_PMUV3P4, /* PMUVer >= 5: PMMIR_EL1 */
	VPERF_FEAT_PMUV3P9, /* PMUVer >= 9: PMZR_EL0 */
	VPERF_FEAT_SPE,	    /* ID_AA64DFR0_EL1.PMSVer >= 1 */
	VPERF_FEAT_SPEV1P2, /* PMSVer >= 3: PMSNEVFR_EL1 */
	VPERF_FEAT_SPE_FDS, /* FEAT_SPE_FDS: PMSDSFR_EL1 */
	VPERF_FEAT_GICV3,
	VPERF_FEAT_EL2,
	VPERF_FEAT_FGT,		/* ID_AA64MMFR0_EL1.FGT >= 1: HDFGRTR_EL2, HDFGWTR_EL2 */
	VPERF_FEAT_PMUV3_ICNTR, /* ID_AA64DFR1_EL1.PMICNTR >= 1: PMICNTR_EL0, PMICFILTR_EL0 */
	VPERF_FEAT_FGT2,	/* ID_AA64MMFR0_EL1.FGT >= 2: HDFGRTR2_EL2, HDFGWTR2_EL2 */
};

/*
 * What lets EL0 reach a register (the database's el0 column): the PMUSERENR_EL0 bits that grant
 * a read and a write (Arm DDI 0487 K.a, PMUSERENR_EL0, and each register's accessibility
 * pseudocode in D24.5). VPERF_EL0_ALWAYS stands for "whatever PMUSERENR_EL0 holds".
 */
enum vperf_el0_rule {
	VPERF_EL0_NONE,	 /* UNDEFINED at EL0 */
	VPERF_EL0_EN,	 /* EN */
	VPERF_EL0_SW,	 /* EN or SW */
	VPERF_EL0_CR,	 /* EN; reads also CR */
	VPERF_EL0_ER,	 /* EN; reads also ER */
	VPERF_EL0_ER_RW, /* EN or ER */
	VPERF_EL0_RO,	 /* read always, written never */
	VPERF_EL0_IR,	 /* EN; reads also IR (FEAT_PMUv3_ICNTR: PMICNTR_EL0) */
	VPERF_EL0_RULES
};

/* PMUSERENR_EL0 EN [0], SW [1], CR [2], ER [3] and IR [5], as the grants below use them. */
#define VPERF_EL0_GRANT_EN     0x1u
#define VPERF_EL0_GRANT_SW     0x2u
#define VPERF_EL0_GRANT_CR     0x4u
#define VPERF_EL0_GRANT_ER     0x8u
#define VPERF_EL0_GRANT_IR     0x20u
#define VPERF_EL0_GRANT_ALWAYS 0x80u /* no PMUSERENR_EL0 field: RES0 in every version here */

/* May EL0 make this access, given the guest's PMUSERENR_EL0? One table: [rule][write]. */
static inline bool vperf_el0_allows(uint8_t rule, uint64_t userenr, bool read)
{
	static const uint8_t grants[VPERF_EL0_RULES][2] = {
		[VPERF_EL0_EN] = { VPERF_EL0_GRANT_EN, VPERF_EL0_GRANT_EN },
		[VPERF_EL0_SW] = { VPERF_EL0_GRANT_EN | VPERF_EL0_GRANT_SW,
				   VPERF_EL0_GRANT_EN | VPERF_EL0_GRANT_SW },
		[VPERF_EL0_CR] = { VPERF_EL0_GRANT_EN | VPERF_EL0_GRANT_CR, VPERF_EL0_GRANT_EN },
		[VPERF_EL0_ER] = { VPERF_EL0_GRANT_EN | VPERF_EL0_GRANT_ER, VPERF_EL0_GRANT_EN },
		[VPERF_EL0_ER_RW] = { VPERF_EL0_GRANT_EN | VPERF_EL0_GRANT_ER,
				      VPERF_EL0_GRANT_EN | VPERF_EL0_GRANT_ER },
		[VPERF_EL0_RO] = { VPERF_EL0_GRANT_ALWAYS, 0 },
		[VPERF_EL0_IR] = { VPERF_EL0_GRANT_EN | VPERF_EL0_GRANT_IR, VPERF_EL0_GRANT_EN },
	};
	uint64_t fields = VPERF_EL0_GRANT_EN | VPERF_EL0_GRANT_SW | VPERF_EL0_GRANT_CR |
			  VPERF_EL0_GRANT_ER | VPERF_EL0_GRANT_IR;

	return rule < VPERF_EL0_RULES &&
	       ((userenr & fields) | VPERF_EL0_GRANT_ALWAYS) & grants[rule][read ? 0 : 1];
}

/* The database's pair column. */
enum vperf_pair {
	VPERF_PAIR_NONE,
	VPERF_PAIR_SET, /* writing 1 sets the bit (PMCNTENSET_EL0 ...) */
	VPERF_PAIR_CLR, /* writing 1 clears it */
};

/* Handler families. The trap entry dispatches on these; a slot with no handler is UNDEF. */
enum vperf_slot {
	VPERF_SLOT_NONE,
	VPERF_SLOT_ID_DFR0,
	VPERF_SLOT_PMCR,
	VPERF_SLOT_PMCNTEN,
	VPERF_SLOT_PMINTEN,
	VPERF_SLOT_PMOVS,
	VPERF_SLOT_PMSWINC,
	VPERF_SLOT_PMSELR,
	VPERF_SLOT_PMCEID,
	VPERF_SLOT_PMCCNTR,
	VPERF_SLOT_PMXEVTYPER,
	VPERF_SLOT_PMXEVCNTR,
	VPERF_SLOT_PMZR,
	VPERF_SLOT_PMUSERENR,
	VPERF_SLOT_PMMIR,
	VPERF_SLOT_PMEVCNTR,
	VPERF_SLOT_PMEVTYPER,
	VPERF_SLOT_PMCCFILTR,
	/* Registers of PMU features vperf never shows a guest: no handler, UNDEF. */
	VPERF_SLOT_PMICNTR,
	VPERF_SLOT_PMICFILTR,
	VPERF_SLOT_PMUACR,
	VPERF_SLOT_SPE_PMSCR,
	VPERF_SLOT_SPE_SAMPLING,
	VPERF_SLOT_SPE_ID,
	VPERF_SLOT_SPE_BUFFER,
	VPERF_SLOT_COUNT
};

struct vperf_sysreg_desc {
	const char *name;
	uint64_t res0;
	uint64_t reset;
	uint16_t enc;
	uint8_t access; /* enum vperf_sysreg_access */
	uint8_t trap;	/* enum vperf_trap_ctl */
	uint8_t feat;	/* enum vperf_sysreg_feat */
	uint8_t slot;	/* enum vperf_slot */
	uint8_t el0;	/* enum vperf_el0_rule */
	uint8_t pair;	/* enum vperf_pair */
	uint8_t fgt;	/* enum vperf_fgt_field */
};

extern const struct vperf_sysreg_desc vperf_sysregs[VPERF_SR_COUNT];

/* The descriptor of an encoding, or NULL when the database does not hold it. O(log n). */
const struct vperf_sysreg_desc *vperf_sysreg_lookup(uint32_t enc);

/* PMEVCNTR<n>_EL0 / PMEVTYPER<n>_EL0 (n < 31) by index: CRm = 0b10:n[4:3] (0b11 for the
 * types), op2 = n[2:0] (Arm DDI 0487 K.a, D24.5). */
static inline uint32_t vperf_pmevcntr_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7);
}

static inline uint32_t vperf_pmevtyper_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7);
}

/* Index n of PMEVCNTR<n>_EL0 / PMEVTYPER<n>_EL0 from the encoding: CRm[1:0]:op2. */
static inline unsigned int vperf_pmev_index(uint32_t enc)
{
	return (unsigned int)(((VPERF_ENC_CRM(enc) & 3u) << 3) | VPERF_ENC_OP2(enc));
}

/*
 * True when the encoding lies in the space vperf answers for: exactly the groups that hold PMU
 * and SPE System registers, all op0=3:
 *   op1=0, CRn=9, CRm 9, 10   SPE sampling controls and Profiling Buffer (SPE supplement 4.1);
 *   op1=0, CRn=9, CRm 13, 14  PMU EL1 registers (PMSSCR_EL1; PMINTENSET/CLR_EL1, PMMIR_EL1...);
 *   op1=3, CRn=9, CRm 12-14   PMU EL0 registers (checked with aarch64-linux-gnu-as);
 *   op1=3, CRn=9, CRm 4, 6    PMICNTR_EL0, PMICFILTR_EL0 (FEAT_PMUv3_ICNTR);
 *   op1=3, CRn=14, CRm 8-15   PMEVCNTR<n>, PMEVTYPER<n>, PMCCFILTR_EL0.
 * Not op1=0 CRm 11: the trace buffer (FEAT_TRBE, TRBLIMITR_EL1 = S3_0_C9_C11_0 ...), which a
 * hypervisor may handle itself. An access in the space that the database does not know is UNDEF;
 * an access elsewhere belongs to the hypervisor.
 */
static inline bool vperf_sysreg_in_space(uint32_t enc)
{
	uint32_t op1 = VPERF_ENC_OP1(enc), crn = VPERF_ENC_CRN(enc), crm = VPERF_ENC_CRM(enc);

	if (VPERF_ENC_OP0(enc) != 3)
		return false;
	if (crn == 9 && op1 == 0)
		return crm == 9 || crm == 10 || crm == 13 || crm == 14;
	if (crn == 9 && op1 == 3)
		return (crm >= 12 && crm <= 14) || crm == 4 || crm == 6;
	return crn == 14 && op1 == 3 && crm >= 8;
}

/* The PMU/SPE space as a dense index 0..VPERF_SPACE_SIZE-1: CRn 9 op1 0 (CRm 9, 10, 13, 14: 32
 * encodings), CRn 9 op1 3 (CRm 12-14: 24), CRn 14 (CRm 8-15: 64), CRn 9 op1 3 CRm 4 and 6 (16).
 * Only for vperf_sysreg_in_space(). */
#define VPERF_SPACE_SIZE 136u
static inline unsigned int vperf_space_index(uint32_t enc)
{
	uint32_t op2 = VPERF_ENC_OP2(enc), crm = VPERF_ENC_CRM(enc);

	if (VPERF_ENC_CRN(enc) == 14)
		return 56u + (crm - 8) * 8 + op2;
	if (VPERF_ENC_OP1(enc) == 3 && crm < 12)
		return 120u + (crm == 6 ? 8u : 0u) + op2;
	if (VPERF_ENC_OP1(enc) == 3)
		return 32u + (crm - 12) * 8 + op2;
	return (crm < 13 ? crm - 9 : crm - 11) * 8 + op2;
}

/* O(1) lookup of an encoding known to be in the PMU/SPE space (the trap path). Valid after
 * vperf_sysreg_space_init(); vperf_init() calls it. */
const struct vperf_sysreg_desc *vperf_sysreg_lookup_space(uint32_t enc);
void vperf_sysreg_space_init(void);

#endif /* VPERF_SYSREG_H */
