/* SPDX-License-Identifier: MIT */
/*
 * TLB maintenance of the seam, inner shareable, for the current VMID (VTTBR_EL2) where the
 * operation is per VMID. A stage 2 change needs TLBI IPAS2E1IS, DSB, then TLBI VMALLE1IS and
 * DSB: invalidating by IPA need not remove combined stage 1 + stage 2 entries. The SPE's buffer
 * writes use the same cached translations (SPE supplement 3.4.4): the DSB after the TLBI waits
 * for records translated with the old ones.
 */
#ifndef VPERF_ARCH_TLB_H
#define VPERF_ARCH_TLB_H

#include <vperf/types.h>

static inline void tlbi_vmalls12e1is(void)
{
	__asm__ volatile("tlbi vmalls12e1is" ::: "memory");
}

static inline void tlbi_vmalle1is(void)
{
	__asm__ volatile("tlbi vmalle1is" ::: "memory");
}

/* Xt holds IPA[51:12] in bits [39:0]. */
static inline void tlbi_ipas2e1is(uint64_t ipa)
{
	__asm__ volatile("tlbi ipas2e1is, %0" ::"r"((ipa >> 12) & 0xffffffffffull) : "memory");
}

static inline void tlbi_alle2is(void)
{
	__asm__ volatile("tlbi alle2is" ::: "memory");
}

#endif /* VPERF_ARCH_TLB_H */
