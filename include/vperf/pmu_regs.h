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

/* PMSELR_EL0 */
#define PMSELR_SEL VPERF_GENMASK(4, 0) /* 31: the cycle counter (PMXEVTYPER: PMCCFILTR_EL0) */

/* PMUSERENR_EL0 */
#define PMUSERENR_EN VPERF_BIT(0)
#define PMUSERENR_SW VPERF_BIT(1)
#define PMUSERENR_CR VPERF_BIT(2)
#define PMUSERENR_ER VPERF_BIT(3)

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

#endif /* VPERF_PMU_REGS_H */
