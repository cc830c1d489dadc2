/* SPDX-License-Identifier: MIT */
/* Synchronization primitives of the seam (SPE supplement 3.6 for PSB CSYNC). */
#ifndef VPERF_ARCH_BARRIER_H
#define VPERF_ARCH_BARRIER_H

/* Context synchronization: later instructions see earlier System register writes. */
static inline void isb(void)
{
	__asm__ volatile("isb" ::: "memory");
}

/* Completes earlier memory accesses (incl. the Profiling Buffer's writes once PSB CSYNC has
 * made them visible) before later ones, non-shareable domain: enough for this PE's own
 * writes, as the SPE supplement 3.6 sequences require. */
static inline void dsb_nsh(void)
{
	__asm__ volatile("dsb nsh" ::: "memory");
}

/* Profiling Synchronization Barrier (HINT #17): orders outstanding SPE records against later
 * instructions, so a following DSB covers their memory writes (SPE supplement 3.6). */
static inline void psb_csync(void)
{
	__asm__ volatile("hint #17" ::: "memory");
}

#endif /* VPERF_ARCH_BARRIER_H */
