/* SPDX-License-Identifier: MIT */
/*
 * Field layouts of the SPE System registers vperf emulates or programs, from the SPE supplement
 * section 4.3 (register descriptions); the fields later versions added (PMSIDR_EL1.FnE [6],
 * PMSFCR_EL1.FnE [3] from SPEv1p2, PMSCR_EL1.PCT [7:6] with FEAT_ECV) from the SPE register
 * descriptions of Arm DDI 0487 K.a and as docs/model.md lists them. Encodings live in the
 * register database (sysregs.def), not here.
 */
#ifndef VPERF_SPE_REGS_H
#define VPERF_SPE_REGS_H

#include <vperf/types.h>

/* PMSCR_EL1 (SPE 4.3.5) and PMSCR_EL2 (SPE 4.3.7: E0HSPE at [0], E2SPE at [1]); [63:8] and [2]
 * RES0 (in Arm DDI 0487 K.a too). PCT[1] (bit [7]) is a field with FEAT_ECV, whatever the SPE
 * version, RES0 without it: ID_AA64MMFR0_EL1.ECV = 0b0001 "Extends the PMSCR_EL1.PCT,
 * PMSCR_EL2.PCT ... fields" (Arm DDI 0487 D24.2.88), CollectTimeStamp() (J1.1.1.55). PCT 0b00
 * virtual, 0b01 physical, 0b11 guest physical time (CNTPCT minus CNTPOFF_EL2), 0b10 reserved. */
#define PMSCR_E0SPE  VPERF_BIT(0)
#define PMSCR_E1SPE  VPERF_BIT(1)
#define PMSCR_CX     VPERF_BIT(3)
#define PMSCR_PA     VPERF_BIT(4)
#define PMSCR_TS     VPERF_BIT(5)
#define PMSCR_PCT    VPERF_BIT(6)
#define PMSCR_PCT1   VPERF_BIT(7) /* PCT[1]: with FEAT_ECV (vspe/regs.c) */
#define PMSCR_E0HSPE PMSCR_E0SPE  /* PMSCR_EL2 */
#define PMSCR_E2SPE  PMSCR_E1SPE  /* PMSCR_EL2 */

/* PMSICR_EL1 (SPE 4.3.10): COUNT [31:0], ECOUNT [63:56] when PMSIDR_EL1.ERnd */
#define PMSICR_COUNT  VPERF_GENMASK(31, 0)
#define PMSICR_ECOUNT VPERF_GENMASK(63, 56)

/* PMSIRR_EL1 (SPE 4.3.12) */
#define PMSIRR_RND	VPERF_BIT(0)
#define PMSIRR_INTERVAL VPERF_GENMASK(31, 8)

/* PMSFCR_EL1 (SPE 4.3.9: FE, FT, FL, B, LD, ST); the later fields from its description in Arm
 * DDI 0487 K.a (D24.5) and D17.5: FnE with FEAT_SPE_FnE (SPEv1p2), FDS with FEAT_SPE_FDS, FP,
 * SIMD and the masks Bm..SIMDm with FEAT_SPE_EFT. [63:53], [47:21] and [15:5] RES0. */
#define PMSFCR_FE    VPERF_BIT(0)
#define PMSFCR_FT    VPERF_BIT(1)
#define PMSFCR_FL    VPERF_BIT(2)
#define PMSFCR_FNE   VPERF_BIT(3)
#define PMSFCR_FDS   VPERF_BIT(4)
#define PMSFCR_B     VPERF_BIT(16)
#define PMSFCR_LD    VPERF_BIT(17)
#define PMSFCR_ST    VPERF_BIT(18)
#define PMSFCR_FP    VPERF_BIT(19)
#define PMSFCR_SIMD  VPERF_BIT(20)
#define PMSFCR_BM    VPERF_BIT(48)
#define PMSFCR_LDM   VPERF_BIT(49)
#define PMSFCR_STM   VPERF_BIT(50)
#define PMSFCR_FPM   VPERF_BIT(51)
#define PMSFCR_SIMDM VPERF_BIT(52)

/* PMSEVFR_EL1 / PMSNEVFR_EL1 (SPE 4.3.8): the events a filter can name on SPEv1, and the Events
 * packet bits each later version makes filterable (Arm DDI 0487 K.a D18.2.6): SPEv1p1 E[11]
 * (misalignment) and E[18:17] (empty and partial predicate), SPEv1p2 E[6] (not taken). The same
 * sets as Linux's arm_spe_pmu accepts per PMSVer; vperf shows no later version. */
#define PMSEVFR_EVENTS                                                                          \
	(VPERF_GENMASK(63, 48) | VPERF_GENMASK(31, 24) | VPERF_GENMASK(15, 12) | VPERF_BIT(7) | \
	 VPERF_BIT(5) | VPERF_BIT(3) | VPERF_BIT(1))
#define PMSEVFR_EVENTS_V1P1 (VPERF_BIT(11) | VPERF_BIT(17) | VPERF_BIT(18))
#define PMSEVFR_EVENTS_V1P2 VPERF_BIT(6)

/* PMSLATFR_EL1 (SPE 4.3.13): MINLAT [15:0] (bits [15:12] RES0 with 12-bit counters) */
#define PMSLATFR_MINLAT VPERF_GENMASK(15, 0)

/* PMSIDR_EL1 (SPE 4.3.11) */
#define PMSIDR_FE	     VPERF_BIT(0)
#define PMSIDR_FT	     VPERF_BIT(1)
#define PMSIDR_FL	     VPERF_BIT(2)
#define PMSIDR_ARCHINST	     VPERF_BIT(3)
#define PMSIDR_LDS	     VPERF_BIT(4)
#define PMSIDR_ERND	     VPERF_BIT(5)
#define PMSIDR_FNE	     VPERF_BIT(6)
#define PMSIDR_INTERVAL	     VPERF_GENMASK(11, 8)
#define PMSIDR_MAXSIZE_SHIFT 12
#define PMSIDR_MAXSIZE	     VPERF_GENMASK(15, 12)
#define PMSIDR_COUNTSIZE     VPERF_GENMASK(19, 16)
#define PMSIDR_COUNTSIZE_16  (3ull << 16) /* 16-bit saturating counters */
/* Format [23:20], the format of the sample records: RES0 in SPE 4.3.11, a field in Arm DDI 0487
 * K.a's PMSIDR_EL1. Never shown to a guest (vspe/regs.c); required equal on every pCPU with SPE
 * (virt/platform.c), as the records a guest parses come from all of them. */
#define PMSIDR_FORMAT VPERF_GENMASK(23, 20)

/* PMBIDR_EL1 (SPE 4.3.1) */
#define PMBIDR_ALIGN VPERF_GENMASK(3, 0)
#define PMBIDR_P     VPERF_BIT(4)
#define PMBIDR_F     VPERF_BIT(5)

/* PMBLIMITR_EL1 (SPE 4.3.2: LIMIT, FM, E, [11:3] RES0); PMFZ [5] from FEAT_SPEv1p2 (its
 * description in Arm DDI 0487 K.a, as FM = 0b10, discard mode, D17.5.5): [11:6] and [4:3] RES0 */
#define PMBLIMITR_E	VPERF_BIT(0)
#define PMBLIMITR_FM	VPERF_GENMASK(2, 1)
#define PMBLIMITR_PMFZ	VPERF_BIT(5)
#define PMBLIMITR_LIMIT VPERF_GENMASK(63, 12)

/* PMBPTR_EL1 (SPE 4.3.3): PTR [63:0] */
#define PMBPTR_PTR VPERF_GENMASK(63, 0)

/* PMBSR_EL1 (SPE 4.3.4) */
#define PMBSR_EC_SHIFT	26
#define PMBSR_EC	VPERF_GENMASK(31, 26)
#define PMBSR_DL	VPERF_BIT(19)
#define PMBSR_EA	VPERF_BIT(18)
#define PMBSR_S		VPERF_BIT(17)
#define PMBSR_COLL	VPERF_BIT(16)
#define PMBSR_MSS	VPERF_GENMASK(15, 0)
#define PMBSR_MSS2	VPERF_GENMASK(55, 32) /* later versions' second syndrome (sysregs.def) */
#define PMBSR_BSC_FSC	VPERF_GENMASK(5, 0)   /* BSC (EC = 0) or FSC (EC = 0b10010x) */
#define PMBSR_WRITABLE	(PMBSR_EC | PMBSR_DL | PMBSR_EA | PMBSR_S | PMBSR_COLL | PMBSR_MSS)
#define PMBSR_EC_OTHER	0x00u /* other buffer management event (BSC) */
#define PMBSR_EC_S1_DA	0x24u /* stage 1 Data Abort on write to the buffer (FSC) */
#define PMBSR_EC_S2_DA	0x25u /* stage 2 Data Abort on write to the buffer (FSC) */
#define PMBSR_BSC_FULL	0x01u
#define PMBSR_FSC_SEA	0x10u /* synchronous external abort on write */
#define PMBSR_FSC_ALIGN 0x21u /* Alignment fault */
/* Translation faults before level 0 (Arm DDI 0487, ESR_ELx.ISS DFSC): level -1 with FEAT_LPA2,
 * level -2 with FEAT_D128. */
#define PMBSR_FSC_TRANS_LM1 0x2bu
#define PMBSR_FSC_TRANS_LM2 0x2au
#define PMBSR_EC_VAL(ec)    ((uint64_t)(ec) << PMBSR_EC_SHIFT)

static inline unsigned int vperf_pmbsr_ec(uint64_t pmbsr)
{
	return (unsigned int)VPERF_FIELD_GET(pmbsr, 31, 26);
}

/*
 * One field list per register (F(mask) for each field; vperf/pmu_regs.h says how they are
 * checked against sysregs.def). Where the database has RES0 bits for the register the list is
 * every field of every version vperf knows; the ID registers and the event filters (no RES0 on
 * their lines) list the fields vperf reads or keeps, the event filters by SPE version.
 */
/* clang-format off */
/* PMSCR_PCT1: PCT[1], a field with FEAT_ECV (Arm DDI 0487 D24.2.88), RES0 without it. */
#define PMSCR_EL1_FIELDS(F) \
	F(PMSCR_E0SPE) F(PMSCR_E1SPE) F(PMSCR_CX) F(PMSCR_PA) F(PMSCR_TS) F(PMSCR_PCT) F(PMSCR_PCT1)
#define PMSCR_EL2_FIELDS(F) \
	F(PMSCR_E0HSPE) F(PMSCR_E2SPE) F(PMSCR_CX) F(PMSCR_PA) F(PMSCR_TS) F(PMSCR_PCT) \
	F(PMSCR_PCT1)
#define PMSICR_EL1_FIELDS(F) F(PMSICR_COUNT) F(PMSICR_ECOUNT)
#define PMSIRR_EL1_FIELDS(F) F(PMSIRR_RND) F(PMSIRR_INTERVAL)
#define PMSFCR_EL1_FIELDS(F) \
	F(PMSFCR_FE) F(PMSFCR_FT) F(PMSFCR_FL) F(PMSFCR_FNE) F(PMSFCR_FDS) F(PMSFCR_B) \
	F(PMSFCR_LD) F(PMSFCR_ST) F(PMSFCR_FP) F(PMSFCR_SIMD) F(PMSFCR_BM) F(PMSFCR_LDM) \
	F(PMSFCR_STM) F(PMSFCR_FPM) F(PMSFCR_SIMDM)
#define PMSEVFR_EL1_FIELDS(F) F(PMSEVFR_EVENTS) F(PMSEVFR_EVENTS_V1P1) F(PMSEVFR_EVENTS_V1P2)
#define PMSLATFR_EL1_FIELDS(F) F(PMSLATFR_MINLAT)
#define PMSIDR_EL1_FIELDS(F) \
	F(PMSIDR_FE) F(PMSIDR_FT) F(PMSIDR_FL) F(PMSIDR_ARCHINST) F(PMSIDR_LDS) F(PMSIDR_ERND) \
	F(PMSIDR_FNE) F(PMSIDR_INTERVAL) F(PMSIDR_MAXSIZE) F(PMSIDR_COUNTSIZE)
#define PMBIDR_EL1_FIELDS(F) F(PMBIDR_ALIGN) F(PMBIDR_P) F(PMBIDR_F)
#define PMBLIMITR_EL1_FIELDS(F) F(PMBLIMITR_E) F(PMBLIMITR_FM) F(PMBLIMITR_PMFZ) F(PMBLIMITR_LIMIT)
#define PMBPTR_EL1_FIELDS(F) F(PMBPTR_PTR)
#define PMBSR_EL1_FIELDS(F) \
	F(PMBSR_MSS2) F(PMBSR_EC) F(PMBSR_DL) F(PMBSR_EA) F(PMBSR_S) F(PMBSR_COLL) F(PMBSR_MSS)
/* clang-format on */

#endif /* VPERF_SPE_REGS_H */
