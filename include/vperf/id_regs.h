/* SPDX-License-Identifier: MIT */
/*
 * Fields of the ID registers vperf probes and shows to guests, from the ID_AA64PFR0_EL1,
 * ID_AA64DFR0_EL1, ID_AA64DFR1_EL1, ID_AA64MMFR0_EL1 and MPIDR_EL1 descriptions of Arm DDI 0487
 * (D24.2).
 */
#ifndef VPERF_ID_REGS_H
#define VPERF_ID_REGS_H

#include <vperf/types.h>

/* ID_AA64PFR0_EL1: EL0 [3:0], EL1 [7:4], EL2 [11:8], EL3 [15:12]; 0 = not implemented */
#define ID_PFR0_EL3_MASK    VPERF_GENMASK(15, 12)
#define ID_PFR0_EL0_SHIFT   0
#define ID_PFR0_EL0_AARCH32 2u			  /* EL0 in AArch64 and AArch32 */
#define ID_PFR0_SEL2_MASK   VPERF_GENMASK(39, 36) /* FEAT_SEL2: Secure EL2 */

/* ID_AA64MMFR0_EL1.ECV [63:60] (D24.2.88): 0b0001 FEAT_ECV, which "extends the PMSCR_EL1.PCT,
 * PMSCR_EL2.PCT ... fields" to [7:6]; 0b0010 FEAT_ECV_POFF (CNTPOFF_EL2) as well. */
#define ID_MMFR0_ECV_MASK VPERF_GENMASK(63, 60)

/* ID_AA64DFR0_EL1 */
#define ID_DFR0_PMUVER_SHIFT 8
#define ID_DFR0_PMUVER_MASK  VPERF_GENMASK(11, 8)
#define ID_DFR0_PMSVER_SHIFT 32
#define ID_DFR0_PMSVER_MASK  VPERF_GENMASK(35, 32)
#define ID_DFR0_HPMN0_SHIFT  60
#define ID_DFR0_HPMN0_MASK   VPERF_GENMASK(63, 60)
/* PMUVer [11:8] values, each the version that brings what vperf uses of it (ID_AA64DFR0_EL1 in
 * D24.2; the features in D14): every comparison with a PMU version names one of these. */
#define ID_DFR0_PMUVER_NONE 0x0u /* no PMUv3 */
#define ID_DFR0_PMUVER_V3   0x1u /* FEAT_PMUv3 */
#define ID_DFR0_PMUVER_V3P1 0x4u /* FEAT_PMUv3p1: evtCount[15:10], MDCR_EL2.HPMD */
#define ID_DFR0_PMUVER_V3P4 0x5u /* FEAT_PMUv3p4: PMMIR_EL1 */
#define ID_DFR0_PMUVER_V3P5 \
	0x6u /* FEAT_PMUv3p5: 64-bit counters, PMCR_EL0.LP, MDCR_EL2.HLP, HCCD */
#define ID_DFR0_PMUVER_V3P7   0x7u /* FEAT_PMUv3p7: PMCR_EL0.FZO, MDCR_EL2.HPMFZO */
#define ID_DFR0_PMUVER_V3P8   0x8u /* FEAT_PMUv3p8 */
#define ID_DFR0_PMUVER_V3P9   0x9u /* FEAT_PMUv3p9: PMZR_EL0, PMUACR_EL1, PMUSERENR_EL0.UEN */
#define ID_DFR0_PMUVER_IMPDEF 0xfu /* an IMPLEMENTATION DEFINED PMU, no PMUv3 */
/* PMSVer [35:32] values (ID_AA64DFR0_EL1 in D24.2; D17 for the features). */
#define ID_DFR0_PMSVER_NONE 0x0u /* no SPE */
#define ID_DFR0_PMSVER_SPE  0x1u /* FEAT_SPE */
#define ID_DFR0_PMSVER_V1P1 0x2u /* FEAT_SPEv1p1 */
#define ID_DFR0_PMSVER_V1P2 0x3u /* FEAT_SPEv1p2: PMSNEVFR_EL1, MDCR_EL2.HPMFZS */
#define ID_DFR0_PMSVER_V1P3 0x4u /* FEAT_SPEv1p3 */
/* MTPMU [51:48], signed: 0b0001 FEAT_MTPMU (PMEVTYPER<n>.MT enabled by MDCR_EL3.MTPME, or
 * MDCR_EL2.MTPME without EL3); 0b0000 FEAT_MTPMU not implemented, an IMPLEMENTATION DEFINED
 * multi-threaded extension may be (before Armv8.6); 0b1111 neither (MT RES0). */
#define ID_DFR0_MTPMU_SHIFT 48
#define ID_DFR0_MTPMU_MASK  VPERF_GENMASK(51, 48)
#define ID_DFR0_MTPMU_FEAT  1u
#define ID_DFR0_MTPMU_NONE  0xfu

/* ID_AA64DFR1_EL1.PMICNTR [39:36]: 0b0001 FEAT_PMUv3_ICNTR (PMICNTR_EL0, PMICFILTR_EL0). */
#define ID_DFR1_PMICNTR_MASK VPERF_GENMASK(39, 36)

/* MPIDR_EL1.MT [24]: the PEs at affinity level 0 are threads of one core. */
#define MPIDR_MT VPERF_BIT(24)

#endif /* VPERF_ID_REGS_H */
