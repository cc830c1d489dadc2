/* SPDX-License-Identifier: MIT */
/*
 * The fields of the PMU registers the model implements, and one field list per register, written
 * from the architecture text: PMCR_EL0 (Arm DDI 0487 K.a I5.3.21), PMCNTENSET/CLR_EL0,
 * PMINTENSET/CLR_EL1, PMOVSSET/CLR_EL0, PMZR_EL0 and PMUACR_EL1 (I5.3.18-20, I5.3.36-38,
 * I5.3.43-45, I5.3.58, PMUACR_EL1 in D24.5), PMSWINC_EL0 (I5.3.55), PMSELR_EL0 and
 * PMUSERENR_EL0 (D24.5), PMEVTYPER<n>_EL0 (I5.3.30), PMCCFILTR_EL0 (I5.3.2) and PMICFILTR_EL0
 * (I5.3.32).
 *
 * Deliberately independent of vperf (not include/vperf/pmu_regs.h): the model is the oracle, and
 * tests/unit/test_sim_regs.c compares these lists with vperf's field by field. Each list names
 * every field of every version the model knows, so that with the RES0 bits of the register's line
 * in core/arch_regs.c it covers the 64 bits (checked by the same test).
 */
#ifndef VPERF_SIM_PMU_FIELDS_H
#define VPERF_SIM_PMU_FIELDS_H

#include <vperf/types.h>

#define PMU_CYCLE_BIT 31u
/* FEAT_PMUv3_ICNTR's instruction counter: bit F0 [32] of PMCNTEN, PMINTEN, PMOVS, PMZR and
 * PMUACR_EL1 (I5.3.18 F0 and the others), index 32 here. */
#define PMU_ICNTR_BIT 32u

/* PMCR_EL0 (I5.3.21). [63:33], bit 10 and bit 8 RES0. */
#define PMCR_E	     VPERF_BIT(0)
#define PMCR_P	     VPERF_BIT(1)
#define PMCR_C	     VPERF_BIT(2)
#define PMCR_D_BIT   VPERF_BIT(3) /* with AArch32 at EL0 */
#define PMCR_X	     VPERF_BIT(4) /* with an event export bus */
#define PMCR_DP	     VPERF_BIT(5)
#define PMU_LC	     VPERF_BIT(6)
#define PMCR_LP	     VPERF_BIT(7) /* FEAT_PMUv3p5 */
#define PMCR_FZO     VPERF_BIT(9) /* FEAT_PMUv3p7 */
#define PMCR_N_SHIFT 11
#define PMCR_N_FIELD VPERF_GENMASK(15, 11)
#define PMCR_IDCODE  VPERF_GENMASK(23, 16)
#define PMCR_IMP     VPERF_GENMASK(31, 24)
#define PMCR_FZS     VPERF_BIT(32) /* FEAT_SPEv1p2 and FEAT_PMUv3p7 */

/* PMCNTEN, PMINTEN, PMOVS, PMZR_EL0, PMUACR_EL1: P<n> [30:0], C [31], F0 [32]; PMSWINC_EL0: P<n>
 * alone. */
#define PMU_BITS_P  VPERF_GENMASK(30, 0)
#define PMU_BITS_C  VPERF_BIT(PMU_CYCLE_BIT)
#define PMU_BITS_F0 VPERF_BIT(PMU_ICNTR_BIT)

/* PMSELR_EL0: SEL [4:0] */
#define PMSELR_SEL_FIELD VPERF_GENMASK(4, 0)

/* PMUSERENR_EL0 (D24.5): EN, SW, CR, ER; UEN and TID with FEAT_PMUv3p9, IR with
 * FEAT_PMUv3_ICNTR. [63:7] RES0. */
#define PMUSERENR_EN  VPERF_BIT(0)
#define PMUSERENR_SW  VPERF_BIT(1)
#define PMUSERENR_CR  VPERF_BIT(2)
#define PMUSERENR_ER  VPERF_BIT(3)
#define PMUSERENR_UEN VPERF_BIT(4) /* FEAT_PMUv3p9 */
#define PMUSERENR_IR  VPERF_BIT(5) /* FEAT_PMUv3_ICNTR: EL0 reads of PMICNTR_EL0 */
#define PMUSERENR_TID VPERF_BIT(6) /* FEAT_PMUv3p9 */

/* PMEVTYPER<n>_EL0 (I5.3.30); PMCCFILTR_EL0 and PMICFILTR_EL0 share the filter bits. */
#define EVTYPER_TC	   VPERF_GENMASK(63, 61) /* FEAT_PMUv3_TH */
#define EVTYPER_TE	   VPERF_BIT(60)	 /* FEAT_PMUv3_EDGE */
#define EVTYPER_SYNC	   VPERF_BIT(58)	 /* FEAT_SEBEP */
#define EVTYPER_VS	   VPERF_GENMASK(57, 56) /* FEAT_PMUv3_SME */
#define EVTYPER_TLC	   VPERF_GENMASK(55, 54) /* FEAT_PMUv3_TH2 */
#define EVTYPER_TH	   VPERF_GENMASK(43, 32) /* FEAT_PMUv3_TH */
#define EVTYPER_P	   VPERF_BIT(31)
#define EVTYPER_U	   VPERF_BIT(30)
#define EVTYPER_NSK	   VPERF_BIT(29)
#define EVTYPER_NSU	   VPERF_BIT(28)
#define EVTYPER_NSH	   VPERF_BIT(27)
#define EVTYPER_M	   VPERF_BIT(26)
#define EVTYPER_MT	   VPERF_BIT(25) /* FEAT_MTPMU (I5.3.30 MT) */
#define EVTYPER_SH	   VPERF_BIT(24) /* FEAT_SEL2 with EL3 (I5.3.30 SH) */
#define EVTYPER_RLK	   VPERF_BIT(22) /* FEAT_RME */
#define EVTYPER_RLU	   VPERF_BIT(21)
#define EVTYPER_RLH	   VPERF_BIT(20)
#define PMEVTYPER_EVT_MASK VPERF_GENMASK(15, 0)	 /* evtCount */
#define EVTYPER_EVT_LOW	   VPERF_GENMASK(9, 0)	 /* evtCount[9:0] */
#define EVTYPER_EVT_HI	   VPERF_GENMASK(15, 10) /* evtCount[15:10], FEAT_PMUv3p1 */

/* The lists: SIM_<register>_FIELDS(F), F(mask) for each field (one line per group of fields, as
 * written: clang-format reflows X-macro bodies unstably). */
/* clang-format off */
#define SIM_PMCR_EL0_FIELDS(F) \
	F(PMCR_E) F(PMCR_P) F(PMCR_C) F(PMCR_D_BIT) F(PMCR_X) F(PMCR_DP) F(PMU_LC) F(PMCR_LP) \
	F(PMCR_FZO) F(PMCR_N_FIELD) F(PMCR_IDCODE) F(PMCR_IMP) F(PMCR_FZS)
#define SIM_PMU_BITS_FIELDS(F) F(PMU_BITS_P) F(PMU_BITS_C) F(PMU_BITS_F0)
#define SIM_PMSWINC_EL0_FIELDS(F) F(PMU_BITS_P)
#define SIM_PMSELR_EL0_FIELDS(F) F(PMSELR_SEL_FIELD)
#define SIM_PMUSERENR_EL0_FIELDS(F) \
	F(PMUSERENR_EN) F(PMUSERENR_SW) F(PMUSERENR_CR) F(PMUSERENR_ER) F(PMUSERENR_UEN) \
	F(PMUSERENR_IR) F(PMUSERENR_TID)
#define SIM_FILTER_FIELDS(F) \
	F(EVTYPER_P) F(EVTYPER_U) F(EVTYPER_NSK) F(EVTYPER_NSU) F(EVTYPER_NSH) F(EVTYPER_M) \
	F(EVTYPER_SH) F(EVTYPER_RLK) F(EVTYPER_RLU) F(EVTYPER_RLH) F(EVTYPER_VS)
#define SIM_PMEVTYPER_EL0_FIELDS(F) \
	SIM_FILTER_FIELDS(F) F(EVTYPER_TC) F(EVTYPER_TE) F(EVTYPER_SYNC) F(EVTYPER_TLC) \
	F(EVTYPER_TH) F(EVTYPER_MT) F(PMEVTYPER_EVT_MASK)
#define SIM_PMCCFILTR_EL0_FIELDS(F) SIM_FILTER_FIELDS(F)
#define SIM_PMICFILTR_EL0_FIELDS(F) SIM_FILTER_FIELDS(F) F(EVTYPER_SYNC) F(PMEVTYPER_EVT_MASK)
/* clang-format on */

#endif /* VPERF_SIM_PMU_FIELDS_H */
