/* SPDX-License-Identifier: MIT */
/*
 * Field layouts vperf programs or reads: MDCR_EL2, ID_AA64DFR0_EL1, PMUSERENR_EL0. Positions
 * from the Arm ARM (D19 register descriptions), listed in ../shared/spec/facts.md and checked by
 * tests/unit/test_regdb.c against the values the database and the model use.
 */
#ifndef VPERF_MDCR_H
#define VPERF_MDCR_H

#include <vperf/types.h>

/* MDCR_EL2 */
#define MDCR_EL2_HPMN_SHIFT    0
#define MDCR_EL2_HPMN_MASK     VPERF_GENMASK(4, 0)
#define MDCR_EL2_TPMCR	       VPERF_BIT(5)
#define MDCR_EL2_TPM	       VPERF_BIT(6)
#define MDCR_EL2_HPME	       VPERF_BIT(7)
#define MDCR_EL2_TDE	       VPERF_BIT(8)
#define MDCR_EL2_TDA	       VPERF_BIT(9)
#define MDCR_EL2_TDOSA	       VPERF_BIT(10)
#define MDCR_EL2_TDRA	       VPERF_BIT(11)
#define MDCR_EL2_E2PB_SHIFT    12
#define MDCR_EL2_E2PB_MASK     VPERF_GENMASK(13, 12)
#define MDCR_EL2_E2PB_EL2      (0ull << 12) /* EL2 owns the buffer, EL1 PMB* trap */
#define MDCR_EL2_E2PB_EL1_TRAP (2ull << 12) /* EL1 owns it, EL1 PMB* trap */
#define MDCR_EL2_E2PB_EL1      (3ull << 12) /* EL1 owns it, no trap */
#define MDCR_EL2_TPMS	       VPERF_BIT(14)
#define MDCR_EL2_HPMD	       VPERF_BIT(17)
#define MDCR_EL2_TTRF	       VPERF_BIT(19)
#define MDCR_EL2_HCCD	       VPERF_BIT(23)
#define MDCR_EL2_E2TB_MASK     VPERF_GENMASK(25, 24)
#define MDCR_EL2_HLP	       VPERF_BIT(26)
#define MDCR_EL2_TDCC	       VPERF_BIT(27)
#define MDCR_EL2_MTPME	       VPERF_BIT(28)
#define MDCR_EL2_HPMFZO	       VPERF_BIT(29)

/* The MDCR_EL2 fields vperf owns. The hypervisor owns the rest: debug and trace traps, and
 * HLP / HPMFZO, which govern only its own second counter range. */
#define MDCR_EL2_VPERF_MASK                                                                        \
	(MDCR_EL2_HPMN_MASK | MDCR_EL2_TPMCR | MDCR_EL2_TPM | MDCR_EL2_HPME | MDCR_EL2_E2PB_MASK | \
	 MDCR_EL2_TPMS | MDCR_EL2_HPMD | MDCR_EL2_HCCD | MDCR_EL2_MTPME)

/* ID_AA64PFR0_EL1 (Arm ARM D19: EL0 [3:0], EL1 [7:4], EL2 [11:8], EL3 [15:12]; 0 = not
 * implemented) */
#define ID_PFR0_EL3_MASK    VPERF_GENMASK(15, 12)
#define ID_PFR0_EL0_SHIFT   0
#define ID_PFR0_EL0_AARCH32 2u /* EL0 in AArch64 and AArch32 */

/* ID_AA64DFR0_EL1 */
#define ID_DFR0_PMUVER_SHIFT  8
#define ID_DFR0_PMUVER_MASK   VPERF_GENMASK(11, 8)
#define ID_DFR0_PMSVER_SHIFT  32
#define ID_DFR0_PMSVER_MASK   VPERF_GENMASK(35, 32)
#define ID_DFR0_HPMN0_SHIFT   60
#define ID_DFR0_HPMN0_MASK    VPERF_GENMASK(63, 60)
#define ID_DFR0_PMUVER_IMPDEF 0xfu

/* PMCR_EL0 */
#define PMCR_E	     VPERF_BIT(0)
#define PMCR_P	     VPERF_BIT(1)
#define PMCR_C	     VPERF_BIT(2)
#define PMCR_LC	     VPERF_BIT(6)
#define PMCR_LP	     VPERF_BIT(7)
#define PMCR_N_SHIFT 11
#define PMCR_N_MASK  VPERF_GENMASK(15, 11)

/* PMUSERENR_EL0 */
#define PMUSERENR_EN VPERF_BIT(0)
#define PMUSERENR_SW VPERF_BIT(1)
#define PMUSERENR_CR VPERF_BIT(2)
#define PMUSERENR_ER VPERF_BIT(3)

#endif /* VPERF_MDCR_H */
