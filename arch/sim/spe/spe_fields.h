/* SPDX-License-Identifier: MIT */
/*
 * The SPE fields the model uses: the System register fields of the Statistical Profiling
 * Extension and the model's own sample record with its packet fields.
 *
 * Deliberately independent of vperf: the model is the oracle that judges vperf's vSPE and SPE
 * codec, so nothing here comes from vperf's headers or its codec (virt/spe); a misreading of
 * the supplement in vperf is then not repeated by the model. tests/unit/test_sim_spe_enc.c
 * decodes the model's records with vperf's codec and compares.
 *
 * Sources: SPE 4.3 for the registers it describes, as
 * "SPE 4.3.n"; the fields added by later versions (PMSFCR_EL1.{FnE, FDS, FP, SIMD, Bm, LDm, STm,
 * FPm, SIMDm}, PMSIDR_EL1.{FnE, FDS, EFT, FPF}, PMSLATFR_EL1.MINLAT[15:0] with 16-bit counters,
 * PMBLIMITR_EL1.FM = 0b10 discard mode) from the register descriptions of Arm DDI 0487 K.a (Arm
 * DDI 0487 K.a D24.5); PMSCR_EL1.PCT[7] with FEAT_ECV from ID_AA64MMFR0_EL1.ECV (D24.2.88) and
 * CollectTimeStamp() (J1.1.1.55); the packet formats from D18.2.
 */
#ifndef VPERF_SIM_SPE_FIELDS_H
#define VPERF_SIM_SPE_FIELDS_H

#include <vperf/types.h>

/* PMSCR_EL1 / PMSCR_EL2 (SPE 4.3.5, 4.3.7) */
#define PMSCR_E0SPE VPERF_BIT(0) /* PMSCR_EL2: E0HSPE */
#define PMSCR_E1SPE VPERF_BIT(1) /* PMSCR_EL2: E2SPE */
#define PMSCR_CX    VPERF_BIT(3)
#define PMSCR_PA    VPERF_BIT(4)
#define PMSCR_TS    VPERF_BIT(5)
#define PMSCR_PCT   VPERF_BIT(6)
#define PMSCR_PCT1  VPERF_BIT(7) /* PCT[1]: with FEAT_ECV (spe_regs.c, spe_ctl.c) */

/* PMSICR_EL1 (SPE 4.3.10) */
#define PMSICR_COUNT_MASK   VPERF_GENMASK(31, 0)
#define PMSICR_ECOUNT_SHIFT 56
#define PMSICR_ECOUNT_MASK  VPERF_GENMASK(63, 56)

/* PMSIRR_EL1 (SPE 4.3.12) */
#define PMSIRR_RND	     VPERF_BIT(0)
#define PMSIRR_INTERVAL_MASK VPERF_GENMASK(31, 8)

/* PMSFCR_EL1 (SPE 4.3.9; D17.5) */
#define PMSFCR_FE	  VPERF_BIT(0)
#define PMSFCR_FT	  VPERF_BIT(1)
#define PMSFCR_FL	  VPERF_BIT(2)
#define PMSFCR_FNE	  VPERF_BIT(3)
#define PMSFCR_FDS	  VPERF_BIT(4)
#define PMSFCR_B	  VPERF_BIT(16)
#define PMSFCR_LD	  VPERF_BIT(17)
#define PMSFCR_ST	  VPERF_BIT(18)
#define PMSFCR_FP	  VPERF_BIT(19)
#define PMSFCR_SIMD	  VPERF_BIT(20)
#define PMSFCR_CTRL_SHIFT 16 /* {SIMD, FP, ST, LD, B} at [20:16] */
#define PMSFCR_MASK_SHIFT 48 /* {SIMDm, FPm, STm, LDm, Bm} at [52:48] */
#define PMSFCR_BM	  VPERF_BIT(PMSFCR_MASK_SHIFT)
#define PMSFCR_LDM	  VPERF_BIT(PMSFCR_MASK_SHIFT + 1)
#define PMSFCR_STM	  VPERF_BIT(PMSFCR_MASK_SHIFT + 2)
#define PMSFCR_FPM	  VPERF_BIT(PMSFCR_MASK_SHIFT + 3)
#define PMSFCR_SIMDM	  VPERF_BIT(PMSFCR_MASK_SHIFT + 4)

/* PMSLATFR_EL1 (SPE 4.3.13): MINLAT [15:0] */
#define PMSLATFR_MINLAT_MASK VPERF_GENMASK(15, 0)

/* PMSEVFR_EL1 / PMSNEVFR_EL1: the events a filter can select. SPEv1 (SPE 3.2.3 CollectRecord:
 * events<63:48,31:24,15:12,7,5,3,1>); each later version makes filterable the Events packet bits
 * it defines (Arm DDI 0487 K.a D18.2.6): SPEv1p1 E[11] (misalignment) and E[17], E[18] (partial
 * and empty predicate), SPEv1p2 E[6] (not taken), SPEv1p4 E[2], E[4] (L1D and TLB access),
 * E[10:8] (last level cache, remote) and E[23:19] (level 2 cache, modified, recently fetched,
 * snooped), where E[31:26] become RES0. spe_regs.c picks the set of the model's version. */
#define SPE_FILTER_EVENTS                                                                       \
	(VPERF_GENMASK(63, 48) | VPERF_GENMASK(31, 24) | VPERF_GENMASK(15, 12) | VPERF_BIT(7) | \
	 VPERF_BIT(5) | VPERF_BIT(3) | VPERF_BIT(1))
#define SPE_FILTER_EVENTS_V1P1 (VPERF_BIT(11) | VPERF_BIT(17) | VPERF_BIT(18))
#define SPE_FILTER_EVENTS_V1P2 VPERF_BIT(6)
#define SPE_FILTER_EVENTS_V1P4 \
	(VPERF_BIT(2) | VPERF_BIT(4) | VPERF_GENMASK(10, 8) | VPERF_GENMASK(23, 19))
#define SPE_FILTER_RES0_V1P4 VPERF_GENMASK(31, 26)

/* PMSIDR_EL1 (SPE 4.3.11) */
#define PMSIDR_FE		VPERF_BIT(0)
#define PMSIDR_FT		VPERF_BIT(1)
#define PMSIDR_FL		VPERF_BIT(2)
#define PMSIDR_ARCHINST		VPERF_BIT(3)
#define PMSIDR_LDS		VPERF_BIT(4)
#define PMSIDR_ERND		VPERF_BIT(5)
#define PMSIDR_FNE		VPERF_BIT(6)
#define PMSIDR_FDS		VPERF_BIT(7)
#define PMSIDR_INTERVAL_SHIFT	8
#define PMSIDR_INTERVAL_MASK	VPERF_GENMASK(11, 8)
#define PMSIDR_MAXSIZE_SHIFT	12
#define PMSIDR_MAXSIZE_MASK	VPERF_GENMASK(15, 12)
#define PMSIDR_COUNTSIZE_SHIFT	16
#define PMSIDR_COUNTSIZE_MASK	VPERF_GENMASK(19, 16)
#define PMSIDR_EFT		VPERF_BIT(26)
#define PMSIDR_FPF		VPERF_BIT(27)
#define PMSIDR_COUNTSIZE_12_SAT 2u
#define PMSIDR_COUNTSIZE_16_SAT 3u

/* PMBIDR_EL1 (SPE 4.3.1) */
#define PMBIDR_ALIGN_MASK VPERF_GENMASK(3, 0)
#define PMBIDR_P	  VPERF_BIT(4)
#define PMBIDR_F	  VPERF_BIT(5)

/* PMBLIMITR_EL1 (SPE 4.3.2; PMFZ [5] from FEAT_SPEv1p2, not modelled: held) */
#define PMBLIMITR_E	     VPERF_BIT(0)
#define PMBLIMITR_PMFZ	     VPERF_BIT(5)
#define PMBLIMITR_FM_SHIFT   1
#define PMBLIMITR_FM_MASK    VPERF_GENMASK(2, 1)
#define PMBLIMITR_FM_DISCARD 2u /* D17.5.5, FEAT_SPEv1p2 */
#define PMBLIMITR_LIMIT_MASK VPERF_GENMASK(63, 12)

/* PMBPTR_EL1 (SPE 4.3.3): PTR [63:0] */
#define PMBPTR_PTR_MASK VPERF_GENMASK(63, 0)

/* PMBSR_EL1 (SPE 4.3.4) */
#define PMBSR_EC_SHIFT 26
#define PMBSR_EC_MASK  VPERF_GENMASK(31, 26)
#define PMBSR_DL       VPERF_BIT(19)
#define PMBSR_EA       VPERF_BIT(18)
#define PMBSR_S	       VPERF_BIT(17)
#define PMBSR_COLL     VPERF_BIT(16)
#define PMBSR_MSS_MASK VPERF_GENMASK(15, 0)
/* MSS2 [55:32], the second syndrome of later versions (PMBSR_EL1 in Arm DDI 0487 K.a; RES0 in
 * SPE 4.3.4): never set by the model */
#define PMBSR_MSS2_MASK VPERF_GENMASK(55, 32)
#define PMBSR_EC_OTHER	0x00u
#define PMBSR_EC_S1_DA	0x24u
#define PMBSR_EC_S2_DA	0x25u
#define PMBSR_BSC_FULL	0x01u
#define PMBSR_WRITABLE	(PMBSR_EC_MASK | PMBSR_DL | PMBSR_EA | PMBSR_S | PMBSR_COLL | PMBSR_MSS_MASK)

/*
 * One field list per register, SIM_<register>_FIELDS(F) with F(mask) for each field, the shape of
 * vperf's lists but from the text above (tests/unit/test_sim_regs.c compares them field by field).
 * The event filters list their events by the SPE version that makes them filterable.
 */
/* clang-format off */
#define SIM_PMSCR_FIELDS(F) \
	F(PMSCR_E0SPE) F(PMSCR_E1SPE) F(PMSCR_CX) F(PMSCR_PA) F(PMSCR_TS) F(PMSCR_PCT) F(PMSCR_PCT1)
#define SIM_PMSICR_EL1_FIELDS(F) F(PMSICR_COUNT_MASK) F(PMSICR_ECOUNT_MASK)
#define SIM_PMSIRR_EL1_FIELDS(F) F(PMSIRR_RND) F(PMSIRR_INTERVAL_MASK)
#define SIM_PMSFCR_EL1_FIELDS(F) \
	F(PMSFCR_FE) F(PMSFCR_FT) F(PMSFCR_FL) F(PMSFCR_FNE) F(PMSFCR_FDS) F(PMSFCR_B) F(PMSFCR_LD) \
	F(PMSFCR_ST) F(PMSFCR_FP) F(PMSFCR_SIMD) F(PMSFCR_BM) F(PMSFCR_LDM) F(PMSFCR_STM) \
	F(PMSFCR_FPM) F(PMSFCR_SIMDM)
#define SIM_PMSEVFR_FIELDS(F) \
	F(SPE_FILTER_EVENTS) F(SPE_FILTER_EVENTS_V1P1) F(SPE_FILTER_EVENTS_V1P2) \
	F(SPE_FILTER_EVENTS_V1P4)
#define SIM_PMSLATFR_EL1_FIELDS(F) F(PMSLATFR_MINLAT_MASK)
#define SIM_PMSIDR_EL1_FIELDS(F) \
	F(PMSIDR_FE) F(PMSIDR_FT) F(PMSIDR_FL) F(PMSIDR_ARCHINST) F(PMSIDR_LDS) F(PMSIDR_ERND) \
	F(PMSIDR_FNE) F(PMSIDR_FDS) F(PMSIDR_INTERVAL_MASK) F(PMSIDR_MAXSIZE_MASK) \
	F(PMSIDR_COUNTSIZE_MASK) F(PMSIDR_EFT) F(PMSIDR_FPF)
#define SIM_PMBIDR_EL1_FIELDS(F) F(PMBIDR_ALIGN_MASK) F(PMBIDR_P) F(PMBIDR_F)
#define SIM_PMBLIMITR_EL1_FIELDS(F) \
	F(PMBLIMITR_E) F(PMBLIMITR_FM_MASK) F(PMBLIMITR_PMFZ) F(PMBLIMITR_LIMIT_MASK)
#define SIM_PMBPTR_EL1_FIELDS(F) F(PMBPTR_PTR_MASK)
#define SIM_PMBSR_EL1_FIELDS(F) \
	F(PMBSR_MSS2_MASK) F(PMBSR_EC_MASK) F(PMBSR_DL) F(PMBSR_EA) F(PMBSR_S) F(PMBSR_COLL) \
	F(PMBSR_MSS_MASK)
/* clang-format on */

/*
 * The model's sample record, in the terms of D18.2 and independent of vperf's codec
 * (virt/spe): which packets it has and their fields. spe_record.c fills it from a micro-op,
 * spe_packet.c writes it as bytes.
 */
#define SPE_MR_CTX1    VPERF_BIT(0) /* Context packet, INDEX 0: CONTEXTIDR_EL1 */
#define SPE_MR_CTX2    VPERF_BIT(1) /* Context packet, INDEX 1: CONTEXTIDR_EL2 */
#define SPE_MR_TGT     VPERF_BIT(2) /* Address, INDEX 1: branch target */
#define SPE_MR_DATA_VA VPERF_BIT(3) /* Address, INDEX 2 */
#define SPE_MR_DATA_PA VPERF_BIT(4) /* Address, INDEX 3 */
#define SPE_MR_XLAT    VPERF_BIT(5) /* Counter, INDEX 2: translation latency */
#define SPE_MR_DSRC    VPERF_BIT(6) /* Data Source packet */
#define SPE_MR_TS      VPERF_BIT(7) /* ends with a Timestamp packet, else with End */

/* D18.2.7 payload types the model produces, and their one-bit fields. */
enum spe_mop {
	SPE_MOP_OTHER,
	SPE_MOP_LDST_GP,
	SPE_MOP_LDST_SIMD_FP,
	SPE_MOP_LDST_EXT,
	SPE_MOP_BRANCH
};
#define SPE_MOPF_ST   VPERF_BIT(0) /* load/store: a store */
#define SPE_MOPF_COND VPERF_BIT(1) /* other, branch: conditional */
#define SPE_MOPF_FP   VPERF_BIT(2) /* other: floating-point (FEAT_SPE_FPF) */
#define SPE_MOPF_ASE  VPERF_BIT(3) /* other: Advanced SIMD (FEAT_SPE_FPF) */
#define SPE_MOPF_AR   VPERF_BIT(4) /* load/store extended: acquire/release */
#define SPE_MOPF_EXCL VPERF_BIT(5) /* ... exclusive */
#define SPE_MOPF_AT   VPERF_BIT(6) /* ... atomic */
#define SPE_MOPF_IND  VPERF_BIT(7) /* branch: indirect */

/* D18.2.6 event bits the model sets. */
#define SPE_EV_RETIRED	  1
#define SPE_EV_L1D_ACCESS 2
#define SPE_EV_L1D_REFILL 3
#define SPE_EV_TLB_ACCESS 4
#define SPE_EV_TLB_WALK	  5
#define SPE_EV_NOT_TAKEN  6
#define SPE_EV_MISPRED	  7
#define SPE_EV_ALIGNMENT  11

struct spe_maddr {
	uint64_t addr; /* bits [55:0] */
	uint8_t el;    /* instruction addresses: the EL */
	uint8_t ns;    /* instruction addresses and the data PA: NS */
	uint8_t tag;   /* data VA: bits [63:56] */
};

struct spe_mrec {
	uint32_t have; /* SPE_MR_*; the PC, Operation Type, Events and the total and issue
			* latency Counters are in every record */
	uint32_t ctx[2];
	struct spe_maddr pc, tgt, data_va, data_pa;
	uint8_t op;	     /* enum spe_mop */
	uint8_t opf;	     /* SPE_MOPF_* */
	uint8_t events_size; /* Events payload bytes: 1, 2, 4 or 8 */
	uint8_t dsrc_size;   /* Data Source payload bytes: 1 or 2 */
	uint64_t events;
	uint16_t cnt[3]; /* total, issue, translation latency */
	uint16_t dsrc;
	uint64_t ts;
};

#endif /* VPERF_SIM_SPE_FIELDS_H */
