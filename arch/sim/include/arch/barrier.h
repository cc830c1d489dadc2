/* SPDX-License-Identifier: MIT */
/* Synchronization primitives of the seam, simulated: each is an event the model sees, in
 * program order with the register accesses (SPE 3.6). */
#ifndef VPERF_ARCH_BARRIER_H
#define VPERF_ARCH_BARRIER_H

#include <sim/cpu.h>

static inline void isb(void)
{
	sim_barrier(SIM_ISB);
}

static inline void dsb_nsh(void)
{
	sim_barrier(SIM_DSB_NSH);
}

static inline void psb_csync(void)
{
	sim_barrier(SIM_PSB_CSYNC);
}

#endif /* VPERF_ARCH_BARRIER_H */
