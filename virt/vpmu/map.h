/* SPDX-License-Identifier: MIT */
/* Where a guest counter is in the hardware (map.c): itself outside the emulated partition, its
 * placement inside it. Inline: the trap and switch paths ask for every counter they touch. */
#ifndef VPERF_VIRT_VPMU_MAP_H
#define VPERF_VIRT_VPMU_MAP_H

#include "vpmu.h"

/*
 * The second-range placement (VPERF_PART_SECOND) on the pCPU whose hardware holds the state
 * (pmu.hw_pcpu): the guest's N event counters and its cycle counter take [HPMN, HPMN + N + 1)
 * of the second range [HPMN, EPMN). Guest counter n is physical counter base + n with an even
 * base, so that a guest CHAIN pair (2k, 2k + 1) is a physical one (Arm DDI 0487, D14 event
 * 0x1E: an odd counter counts the overflows of the even one below it); the cycle counter is the
 * one left, HPMN when it is odd, else HPMN + N: an event counter counting CPU_CYCLES.
 */
static inline unsigned int vpmu_second_base(const struct vperf_vcpu *vcpu)
{
	return (vcpu->pmu.hw_pcpu->hpmn + 1u) & ~1u;
}

static inline unsigned int vpmu_second_cycle(const struct vperf_vcpu *vcpu)
{
	unsigned int hpmn = vcpu->pmu.hw_pcpu->hpmn;

	return (hpmn & 1) ? hpmn : hpmn + vcpu->vm->cfg.nr_counters;
}

/* Guest counter n's physical counter while in hardware, -1 when it has none: itself in the
 * trapped and direct partitions, its placement in the emulated one (map.c) and in the second
 * range (above). Inline: the trap and switch paths ask for every counter they touch. */
static inline int vperf_vpmu_phys(const struct vperf_vcpu *vcpu, unsigned int n)
{
	uint8_t p;

	if (vpmu_second_vm(vcpu))
		return (int)(n == VPERF_CYCLE_IDX ? vpmu_second_cycle(vcpu)
						  : vpmu_second_base(vcpu) + n);
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

/* The second range's bits (vpmu_second_base, vpmu_second_cycle): a shift of the event
 * counters' and the cycle counter's bit moved to its event counter. */
static inline uint64_t vpmu_second_hw_bits(const struct vperf_vcpu *vcpu, uint64_t guest)
{
	uint64_t events = guest & (VPERF_BIT(vcpu->vm->cfg.nr_counters) - 1);

	return events << vpmu_second_base(vcpu) |
	       ((guest & VPMU_CYCLE_BIT) ? VPERF_BIT(vpmu_second_cycle(vcpu)) : 0);
}

static inline uint64_t vpmu_second_guest_bits(const struct vperf_vcpu *vcpu, uint64_t hw)
{
	uint64_t events =
		(hw >> vpmu_second_base(vcpu)) & (VPERF_BIT(vcpu->vm->cfg.nr_counters) - 1);

	return events | ((hw & VPERF_BIT(vpmu_second_cycle(vcpu))) ? VPMU_CYCLE_BIT : 0);
}

static inline uint64_t vperf_vpmu_hw_bits(const struct vperf_vcpu *vcpu, uint64_t guest)
{
	if (vpmu_second_vm(vcpu))
		return vpmu_second_hw_bits(vcpu, guest);
	return vpmu_emulated_vm(vcpu) ? vperf_vpmu_emu_hw_bits(vcpu, guest)
				      : guest & vpmu_mask(vcpu);
}

static inline uint64_t vperf_vpmu_guest_bits(const struct vperf_vcpu *vcpu, uint64_t hw)
{
	if (vpmu_second_vm(vcpu))
		return vpmu_second_guest_bits(vcpu, hw);
	return vpmu_emulated_vm(vcpu) ? vperf_vpmu_emu_guest_bits(vcpu, hw) : hw & vpmu_mask(vcpu);
}

/* The physical interrupt enables of the vCPU's live counters: the guest's, and those of the
 * counters chained in software, whose overflows vperf must see (only the emulated partition
 * chains in software: inline, so that a restore outside it makes no call). */
static inline uint64_t vperf_vpmu_hw_inten(const struct vperf_vcpu *vcpu)
{
	/* The second range's cycle counter's interrupt is always enabled: vperf takes its 32-bit
	 * overflows (PMCR_EL0.LP = 0) at once and keeps only the 64-bit ones (second.c). */
	if (vpmu_second_vm(vcpu))
		return vpmu_second_hw_bits(vcpu, vcpu->pmu.inten | VPMU_CYCLE_BIT);
	if (!vpmu_emulated_vm(vcpu))
		return vcpu->pmu.inten & vpmu_mask(vcpu);
	return vperf_vpmu_emu_hw_bits(vcpu, vcpu->pmu.inten) | vperf_vpmu_soft_chain_hw(vcpu);
}

#endif /* VPERF_VIRT_VPMU_MAP_H */
