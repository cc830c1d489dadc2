/* SPDX-License-Identifier: MIT */
/*
 * SPE sequences of guest code running on the model, shared by the unit tests, the benchmark and
 * the demo (arch/sim/guest/spe.c; sim builds only).
 */
#ifndef VPERF_SIM_GUEST_SPE_H
#define VPERF_SIM_GUEST_SPE_H

/*
 * Stop profiling and drain on the current CPU, at the current EL, as Linux's arm_spe_pmu driver
 * does (arm_spe_pmu_disable_and_drain_local): PMSCR_EL1 = 0 and ISB stop sampling; PSB CSYNC
 * then DSB NSH complete the records already collected to memory (SPE 3.6, 3.6.1); then
 * PMBLIMITR_EL1 = 0 disables the buffer and an ISB synchronizes it. Afterwards PMBPTR_EL1 is
 * final and everything below it is in memory.
 */
void sim_guest_spe_disable_and_drain(void);

#endif /* VPERF_SIM_GUEST_SPE_H */
