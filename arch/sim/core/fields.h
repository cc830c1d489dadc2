/* SPDX-License-Identifier: MIT */
/*
 * The fields of the EL2 and ID registers the model reads, from Arm DDI 0487 K.a (HCR_EL2,
 * MDCR_EL2 and ID_AA64DFR0_EL1 in D24.2) and the SPE supplement (MDCR_EL2.E2PB, TPMS: SPE
 * SPE 3.4.6, 3.2.3). Written here and not taken from vperf's include/vperf/mdcr.h: the model is the
 * oracle, and a wrong bit position in vperf must not be repeated in the model that judges it.
 * The SIM_ prefix keeps them apart from vperf's names in the tests that include both.
 */
#ifndef VPERF_SIM_CORE_FIELDS_H
#define VPERF_SIM_CORE_FIELDS_H

#include <vperf/types.h>

#define SIM_HCR_EL2_VM	 VPERF_BIT(0)
#define SIM_HCR_EL2_IMO	 VPERF_BIT(4)
#define SIM_HCR_EL2_TID3 VPERF_BIT(18)
#define SIM_HCR_EL2_TGE	 VPERF_BIT(27)
#define SIM_HCR_EL2_E2H	 VPERF_BIT(34)

/* ISR_EL1.I: an IRQ pending (ISR_EL1 in D24.2). */
#define SIM_ISR_EL1_I VPERF_BIT(7)

#define SIM_MDCR_EL2_HPMN_MASK	VPERF_GENMASK(4, 0)
#define SIM_MDCR_EL2_TPMCR	VPERF_BIT(5)
#define SIM_MDCR_EL2_TPM	VPERF_BIT(6)
#define SIM_MDCR_EL2_HPME	VPERF_BIT(7)
#define SIM_MDCR_EL2_TDE	VPERF_BIT(8)
#define SIM_MDCR_EL2_TDA	VPERF_BIT(9)
#define SIM_MDCR_EL2_TDOSA	VPERF_BIT(10)
#define SIM_MDCR_EL2_TDRA	VPERF_BIT(11)
#define SIM_MDCR_EL2_E2PB_SHIFT 12
#define SIM_MDCR_EL2_E2PB_MASK	VPERF_GENMASK(13, 12)
#define SIM_MDCR_EL2_TPMS	VPERF_BIT(14)
#define SIM_MDCR_EL2_HPMD	VPERF_BIT(17)
#define SIM_MDCR_EL2_TTRF	VPERF_BIT(19) /* FEAT_TRF: not modelled (RES0 on the model's PE) */
#define SIM_MDCR_EL2_HCCD	VPERF_BIT(23)
#define SIM_MDCR_EL2_E2TB_MASK	VPERF_GENMASK(25, 24) /* FEAT_TRBE: not modelled */
#define SIM_MDCR_EL2_HLP	VPERF_BIT(26)
#define SIM_MDCR_EL2_TDCC	VPERF_BIT(27)
#define SIM_MDCR_EL2_MTPME	VPERF_BIT(28)
#define SIM_MDCR_EL2_HPMFZO	VPERF_BIT(29)
#define SIM_MDCR_EL2_HPMFZS	VPERF_BIT(36)
/* The MDCR_EL2 fields the model names, as a field list (F(mask) each; tests/unit/test_sim_regs.c
 * compares it with vperf's). */
/* clang-format off */
#define SIM_MDCR_EL2_FIELDS(F) \
	F(SIM_MDCR_EL2_HPMN_MASK) F(SIM_MDCR_EL2_TPMCR) F(SIM_MDCR_EL2_TPM) F(SIM_MDCR_EL2_HPME) \
	F(SIM_MDCR_EL2_TDE) F(SIM_MDCR_EL2_TDA) F(SIM_MDCR_EL2_TDOSA) F(SIM_MDCR_EL2_TDRA) \
	F(SIM_MDCR_EL2_E2PB_MASK) F(SIM_MDCR_EL2_TPMS) F(SIM_MDCR_EL2_HPMD) F(SIM_MDCR_EL2_TTRF) \
	F(SIM_MDCR_EL2_HCCD) F(SIM_MDCR_EL2_E2TB_MASK) F(SIM_MDCR_EL2_HLP) F(SIM_MDCR_EL2_TDCC) \
	F(SIM_MDCR_EL2_MTPME) F(SIM_MDCR_EL2_HPMFZO) F(SIM_MDCR_EL2_HPMFZS)
/* clang-format on */

#define SIM_ID_DFR0_PMUVER_SHIFT  8
#define SIM_ID_DFR0_PMSVER_SHIFT  32
#define SIM_ID_DFR0_HPMN0_SHIFT	  60
#define SIM_ID_DFR0_PMUVER_IMPDEF 0xfu
/* ID_AA64DFR0_EL1.MTPMU [51:48] (signed: 1 FEAT_MTPMU, 0 an IMPLEMENTATION DEFINED extension
 * may exist, 0xF none). */
#define SIM_ID_DFR0_MTPMU_SHIFT 48
/* ID_AA64MMFR0_EL1.FGT [59:56] (its description in D24.2): 0b0001 FEAT_FGT, 0b0010 FEAT_FGT2. */
#define SIM_ID_MMFR0_FGT_SHIFT 56
/* ID_AA64MMFR0_EL1.ECV [63:60] (D24.2.88): 0b0001 FEAT_ECV, which "extends the PMSCR_EL1.PCT,
 * PMSCR_EL2.PCT ... fields"; 0b0010 FEAT_ECV_POFF, which adds CNTPOFF_EL2. */
#define SIM_ID_MMFR0_ECV_SHIFT 60
/* ID_AA64DFR1_EL1.PMICNTR [39:36]: 0b0001 FEAT_PMUv3_ICNTR. */
#define SIM_ID_DFR1_PMICNTR_SHIFT 36
/* ID_AA64PFR0_EL1.SEL2 [39:36]: 0b0001 FEAT_SEL2. */
#define SIM_ID_PFR0_SEL2_SHIFT 36
/* MPIDR_EL1.MT [24]: the lowest affinity level's PEs are threads of one core. */
#define SIM_MPIDR_MT VPERF_BIT(24)

#endif /* VPERF_SIM_CORE_FIELDS_H */
