/* SPDX-License-Identifier: MIT */
/*
 * Fields of the ID registers vperf probes and shows to guests, from the ID_AA64PFR0_EL1 and
 * ID_AA64DFR0_EL1 descriptions of Arm DDI 0487 K.a.
 */
#ifndef VPERF_ID_REGS_H
#define VPERF_ID_REGS_H

#include <vperf/types.h>

/* ID_AA64PFR0_EL1: EL0 [3:0], EL1 [7:4], EL2 [11:8], EL3 [15:12]; 0 = not implemented */
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

#endif /* VPERF_ID_REGS_H */
