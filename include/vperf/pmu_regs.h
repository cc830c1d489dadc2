/* SPDX-License-Identifier: MIT */
/*
 * Fields of the PMUv3 registers vperf emulates, programs or reads (Arm DDI 0487 K.a, I5.3: the
 * System register views have the same fields): PMCR_EL0 (I5.3.21), PMEVTYPER<n>_EL0 and
 * PMCCFILTR_EL0 (I5.3.30, I5.3.2), and PMUSERENR_EL0, which has no external view (its System
 * register description). One spelling for each field, used by the
 * library and its tests alike.
 */
#ifndef VPERF_PMU_REGS_H
#define VPERF_PMU_REGS_H

#include <vperf/types.h>

/* PMCR_EL0 */
#define PMCR_E	     VPERF_BIT(0)
#define PMCR_P	     VPERF_BIT(1)
#define PMCR_C	     VPERF_BIT(2)
#define PMCR_D	     VPERF_BIT(3) /* RES0 without AArch32 at EL0 */
#define PMCR_X	     VPERF_BIT(4) /* RAZ/WI without an event export bus */
#define PMCR_DP	     VPERF_BIT(5)
#define PMCR_LC	     VPERF_BIT(6)
#define PMCR_LP	     VPERF_BIT(7)
#define PMCR_FZO     VPERF_BIT(9) /* PMUv3p7 */
#define PMCR_N_SHIFT 11
#define PMCR_N_MASK  VPERF_GENMASK(15, 11)
#define PMCR_IDCODE  VPERF_GENMASK(23, 16)
#define PMCR_IMP     VPERF_GENMASK(31, 24)
#define PMCR_FZS     VPERF_BIT(32) /* FEAT_SPEv1p2 with PMUv3p7 */

/* PMCNTENSET/CLR_EL0, PMINTENSET/CLR_EL1, PMOVSSET/CLR_EL0 (I5.3.20, I5.3.36 ...): a bit per
 * event counter, the cycle counter's C, and F0, the instruction counter's (FEAT_PMUv3_ICNTR);
 * PMSWINC_EL0 has the event counters' bits alone (I5.3.55). */
#define PMU_CNT_P  VPERF_GENMASK(30, 0)
#define PMU_CNT_C  VPERF_BIT(31)
#define PMU_CNT_F0 VPERF_BIT(32)

/* PMSELR_EL0 */
#define PMSELR_SEL VPERF_GENMASK(4, 0) /* 31: the cycle counter (PMXEVTYPER: PMCCFILTR_EL0) */

/* PMUSERENR_EL0 */
#define PMUSERENR_EN  VPERF_BIT(0)
#define PMUSERENR_SW  VPERF_BIT(1)
#define PMUSERENR_CR  VPERF_BIT(2)
#define PMUSERENR_ER  VPERF_BIT(3)
#define PMUSERENR_UEN VPERF_BIT(4) /* FEAT_PMUv3p9 */
#define PMUSERENR_IR  VPERF_BIT(5) /* FEAT_PMUv3_ICNTR */
#define PMUSERENR_TID VPERF_BIT(6) /* FEAT_PMUv3p9 */

/* PMEVTYPER<n>_EL0; PMCCFILTR_EL0 has the same filter bits and no event number. */
#define PMEVTYPER_P   VPERF_BIT(31)
#define PMEVTYPER_U   VPERF_BIT(30)
#define PMEVTYPER_NSK VPERF_BIT(29)
#define PMEVTYPER_NSU VPERF_BIT(28)
#define PMEVTYPER_NSH VPERF_BIT(27)
#define PMEVTYPER_M   VPERF_BIT(26)
#define PMEVTYPER_MT  VPERF_BIT(25) /* FEAT_MTPMU: count the core's other threads too */
#define PMEVTYPER_SH  VPERF_BIT(24) /* EL3 and FEAT_SEL2: Secure EL2 (off when SH = NSH) */
#define PMEVTYPER_EVT VPERF_GENMASK(15, 0)
/* The fields of newer PMUs no guest is shown (I5.3.30): the threshold (TC, TH: FEAT_PMUv3_TH;
 * TE: FEAT_PMUv3_EDGE; TLC: FEAT_PMUv3_TH2), SYNC (FEAT_SEBEP), VS (FEAT_PMUv3_SME) and the
 * Realm filters RLK, RLU, RLH (FEAT_RME). */
#define PMEVTYPER_TC   VPERF_GENMASK(63, 61)
#define PMEVTYPER_TE   VPERF_BIT(60)
#define PMEVTYPER_SYNC VPERF_BIT(58)
#define PMEVTYPER_VS   VPERF_GENMASK(57, 56)
#define PMEVTYPER_TLC  VPERF_GENMASK(55, 54)
#define PMEVTYPER_TH   VPERF_GENMASK(43, 32)
#define PMEVTYPER_RLK  VPERF_BIT(22)
#define PMEVTYPER_RLU  VPERF_BIT(21)
#define PMEVTYPER_RLH  VPERF_BIT(20)

/*
 * One field list per register, F(mask) for every field (an X-macro): with VPERF_FIELDS_UNION
 * and VPERF_FIELDS_DISJOINT (vperf/sysreg.h) lib/regdb.c checks at compile time that each bit
 * of the register is exactly one named field or RES0 in its sysregs.def line.
 */
/* One line per group of fields, as written (clang-format reflows X-macro bodies unstably). */
/* clang-format off */
#define PMCR_EL0_FIELDS(F) \
	F(PMCR_E) F(PMCR_P) F(PMCR_C) F(PMCR_D) F(PMCR_X) F(PMCR_DP) F(PMCR_LC) F(PMCR_LP) \
	F(PMCR_FZO) F(PMCR_N_MASK) F(PMCR_IDCODE) F(PMCR_IMP) F(PMCR_FZS)
#define PMU_CNT_FIELDS(F) F(PMU_CNT_P) F(PMU_CNT_C) F(PMU_CNT_F0)
#define PMSWINC_EL0_FIELDS(F) F(PMU_CNT_P)
#define PMSELR_EL0_FIELDS(F) F(PMSELR_SEL)
#define PMUSERENR_EL0_FIELDS(F) \
	F(PMUSERENR_EN) F(PMUSERENR_SW) F(PMUSERENR_CR) F(PMUSERENR_ER) \
	F(PMUSERENR_UEN) F(PMUSERENR_IR) F(PMUSERENR_TID)
#define PMEVTYPER_EL0_FIELDS(F) \
	F(PMEVTYPER_TC) F(PMEVTYPER_TE) F(PMEVTYPER_SYNC) F(PMEVTYPER_VS) F(PMEVTYPER_TLC) \
	F(PMEVTYPER_TH) F(PMEVTYPER_P) F(PMEVTYPER_U) F(PMEVTYPER_NSK) F(PMEVTYPER_NSU) \
	F(PMEVTYPER_NSH) F(PMEVTYPER_M) F(PMEVTYPER_MT) F(PMEVTYPER_SH) F(PMEVTYPER_RLK) \
	F(PMEVTYPER_RLU) F(PMEVTYPER_RLH) F(PMEVTYPER_EVT)
/* PMCCFILTR_EL0 (I5.3.2): the type's filters without MT, the event and the threshold. */
#define PMCCFILTR_EL0_FIELDS(F) \
	F(PMEVTYPER_VS) F(PMEVTYPER_P) F(PMEVTYPER_U) F(PMEVTYPER_NSK) F(PMEVTYPER_NSU) \
	F(PMEVTYPER_NSH) F(PMEVTYPER_M) F(PMEVTYPER_SH) F(PMEVTYPER_RLK) F(PMEVTYPER_RLU) \
	F(PMEVTYPER_RLH)
/* PMICFILTR_EL0 (I5.3.32, FEAT_PMUv3_ICNTR): the type's filters without MT and the threshold,
 * with SYNC and evtCount (reads 0x0008). */
#define PMICFILTR_EL0_FIELDS(F) \
	F(PMEVTYPER_SYNC) F(PMEVTYPER_VS) F(PMEVTYPER_P) F(PMEVTYPER_U) F(PMEVTYPER_NSK) \
	F(PMEVTYPER_NSU) F(PMEVTYPER_NSH) F(PMEVTYPER_M) F(PMEVTYPER_SH) F(PMEVTYPER_RLK) \
	F(PMEVTYPER_RLU) F(PMEVTYPER_RLH) F(PMEVTYPER_EVT)
/* clang-format on */

/* ISR_EL1.I [7] (Arm DDI 0487 K.a, ISR_EL1): read at EL2, a physical IRQ is pending. The lazy
 * put of a second-range guest asks it before it reads any PMU register (vpmu/second.c). */
#define ISR_EL1_I VPERF_BIT(7)

#endif /* VPERF_PMU_REGS_H */
