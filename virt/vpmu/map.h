/* SPDX-License-Identifier: MIT */
/* Where a guest counter is in the hardware (map.c): itself outside the emulated partition, its
 * placement inside it. Inline: the trap and switch paths ask for every counter they touch. */
#ifndef VPERF_VIRT_VPMU_MAP_H
#define VPERF_VIRT_VPMU_MAP_H

#include "vpmu.h"

/* Guest counter n's physical counter while in hardware, -1 when it has none: itself outside
 * the emulated partition, else its placement (map.c). Inline: the trap and switch paths ask
 * for every counter they touch. */
static inline int vperf_vpmu_phys(const struct vperf_vcpu *vcpu, unsigned int n)
{
	uint8_t p;

	if (n == VPERF_CYCLE_IDX || !vpmu_emulated_vm(vcpu))
		return (int)n;
	p = vcpu->pmu.map[n];
	return p == VPERF_VPMU_NOT_LIVE ? -1 : p;
}

/* PMCNTEN/PMINTEN/PMOVS bits: guest to physical (live counters only) and back; the identity on
 * the guest's counters outside the emulated partition, a walk of the placement inside it
 * (map.c). */
uint64_t vperf_vpmu_emu_hw_bits(const struct vperf_vcpu *vcpu, uint64_t guest);
uint64_t vperf_vpmu_emu_guest_bits(const struct vperf_vcpu *vcpu, uint64_t hw);

static inline uint64_t vperf_vpmu_hw_bits(const struct vperf_vcpu *vcpu, uint64_t guest)
{
	return vpmu_emulated_vm(vcpu) ? vperf_vpmu_emu_hw_bits(vcpu, guest)
				      : guest & vpmu_mask(vcpu);
}

static inline uint64_t vperf_vpmu_guest_bits(const struct vperf_vcpu *vcpu, uint64_t hw)
{
	return vpmu_emulated_vm(vcpu) ? vperf_vpmu_emu_guest_bits(vcpu, hw) : hw & vpmu_mask(vcpu);
}

/* The physical interrupt enables of the vCPU's live counters: the guest's, and those of the
 * counters chained in software, whose overflows vperf must see (only the emulated partition
 * chains in software: inline, so that a restore outside it makes no call). */
static inline uint64_t vperf_vpmu_hw_inten(const struct vperf_vcpu *vcpu)
{
	if (!vpmu_emulated_vm(vcpu))
		return vcpu->pmu.inten & vpmu_mask(vcpu);
	return vperf_vpmu_emu_hw_bits(vcpu, vcpu->pmu.inten) | vperf_vpmu_soft_chain_hw(vcpu);
}

#endif /* VPERF_VIRT_VPMU_MAP_H */
