/* SPDX-License-Identifier: MIT */
/* TLB maintenance of the seam, simulated: the model's TLB of SPE buffer translations acts on
 * it, in program order with the register accesses and barriers (SPE 3.4.4). */
#ifndef VPERF_ARCH_TLB_H
#define VPERF_ARCH_TLB_H

#include <sim/mem.h>

static inline void tlbi_vmalls12e1is(void)
{
	sim_tlbi(SIM_TLBI_VMALLS12E1IS, 0);
}

static inline void tlbi_vmalle1is(void)
{
	sim_tlbi(SIM_TLBI_VMALLE1IS, 0);
}

static inline void tlbi_ipas2e1is(uint64_t ipa)
{
	sim_tlbi(SIM_TLBI_IPAS2E1IS, ipa);
}

static inline void tlbi_alle2is(void)
{
	sim_tlbi(SIM_TLBI_ALLE2IS, 0);
}

#endif /* VPERF_ARCH_TLB_H */
