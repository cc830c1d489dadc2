/* SPDX-License-Identifier: MIT */
/* PMUv3 from the guest's side (Arm DDI 0487 K.a D19 and the
 * PMU register descriptions of I5.3, which give the field positions). */
#ifndef GUEST_PMU_H
#define GUEST_PMU_H

#include "guest.h"

#define PMCR_E	     BIT(0)
#define PMCR_P	     BIT(1)
#define PMCR_C	     BIT(2)
#define PMCR_LC	     BIT(6)
#define PMCR_LP	     BIT(7)
#define CYCLE_BIT    BIT(31)
#define EVT_SW_INCR  0x00u
#define EVT_INST_RET 0x08u
#define EVT_CYCLES   0x11u
#define EVT_P	     BIT(31) /* do not count at EL1 */
#define EVT_U	     BIT(30) /* do not count at EL0 */
#define EVT_NSH	     BIT(27) /* count at EL2 too (where EL2 is implemented) */

#define PMUSERENR_EN BIT(0)
#define PMUSERENR_SW BIT(1)
#define PMUSERENR_CR BIT(2)
#define PMUSERENR_ER BIT(3)

/* PMEVCNTR<n>_EL0 / PMEVTYPER<n>_EL0 by number, n < 31 (an UNDEF is the caller's business). */
uint64_t pmu_evcntr(unsigned int n);
void pmu_set_evcntr(unsigned int n, uint64_t v);
uint64_t pmu_evtyper(unsigned int n);
void pmu_set_evtyper(unsigned int n, uint64_t v);

/* PMCR_EL0.N as the guest sees it. */
unsigned int pmu_n(void);
/* Bits of PMCNTEN/PMINTEN/PMOVS the guest's PMU implements: [0, N) and the cycle counter. */
uint64_t pmu_mask(void);
/* Stop everything, clear enables, flags and counters: a known state between tests. */
void pmu_quiesce(void);
/* The VM's event filter denies CPU_CYCLES (bootargs deny=0x11, the hypervisor's vmI.deny):
 * vperf filters the cycle counter as that event (include/vperf/vpmu.h), so it counts nothing,
 * never overflows and raises no interrupt, whatever the guest programs. */
bool pmu_cycles_denied(void);
/* ID_AA64DFR0_EL1.PMUVer */
unsigned int pmu_ver(void);
/* PMUVer names a PMUv3 (not 0, none, nor 0xf, an IMPLEMENTATION DEFINED PMU). */
bool pmu_is_v3(void);

#endif /* GUEST_PMU_H */
