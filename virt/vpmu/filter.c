// SPDX-License-Identifier: MIT
/*
 * The per-VM event filter and what the hardware is given for a guest's event types. A guest
 * reads back the PMEVTYPER it wrote; the hardware gets a sanitized copy that can only count the
 * guest's own EL1/EL0 execution of an allowed event.
 */
#include "filter.h"

#define SAMPLE_POP	 0x4000u
#define SAMPLE_COLLISION 0x4003u

bool vperf_vpmu_event_allowed(const struct vperf_vm *vm, uint32_t event)
{
	const struct vperf_pmu_filter *f = &vm->cfg.filter;

	if (event < 64)
		return vpmu_common_event_allowed(vm, event);
	/* The SPE events count this PE's sampling: a VM without a vSPE of its own would watch the
	 * host's, whether the host samples other VMs or this one from outside (VPERF_SPE_BUF_EL2):
	 * the events are hidden from it as unimplemented (PMCEID0 clear, counting nothing). */
	if (!(vm->cfg.spe && vm->cfg.spe_buffer != VPERF_SPE_BUF_EL2) && event >= SAMPLE_POP &&
	    event <= SAMPLE_COLLISION)
		return false;
	if (event >= 0x4000 && event < 0x4040)
		return f->allow[1] & VPERF_BIT(event - 0x4000);
	return f->allow_other;
}

static bool has_el3(const struct vperf_vcpu *vcpu)
{
	return vcpu->pcpu && vcpu->pcpu->caps.el3;
}

uint64_t vperf_vpmu_hw_evtyper(const struct vperf_vcpu *vcpu, uint64_t guest)
{
	/* A direct-partition guest writes the hardware itself: it gets back what it wrote (unless
	 * its types trap through FEAT_FGT: then as in the trapped partition). */
	if (vpmu_types_direct(vcpu))
		return guest;
	return vpmu_hw_type(vcpu->vm, guest, vpmu_el2_bits(vcpu), has_el3(vcpu));
}

/* The same for guest counters [0, nr) at once (a restore): the VM-wide inputs read once. */
void vperf_vpmu_hw_evtypers(const struct vperf_vcpu *vcpu, unsigned int nr,
			    const uint64_t *restrict guest, uint64_t *restrict hw)
{
	const struct vperf_vm *vm = vcpu->vm;
	bool keep = vpmu_types_direct(vcpu), el3 = has_el3(vcpu);
	uint64_t el2 = vpmu_el2_bits(vcpu);

	if (keep) {
		for (unsigned int n = 0; n < nr; n++)
			hw[n] = guest[n];
		return;
	}
	/* restrict: hw[] is no VM's filter nor a mask, which the loop may then read once. */
	for (unsigned int n = 0; n < nr; n++)
		hw[n] = vpmu_hw_type(vm, guest[n], el2, el3);
}

/* The cycle counter counts CPU_CYCLES (event 0x11; D14, "Cycle event counting"): it is filtered
 * as that event, as KVM does. A VM whose filter denies CPU_CYCLES, which PMCEID0_EL0 then hides
 * from it, has a cycle counter that counts nothing (P = U = 1 and nothing else in the hardware)
 * while it reads back the PMCCFILTR_EL0 it wrote. A direct-partition VM with such a filter has
 * its PMCCFILTR_EL0 (and PMXEVTYPER_EL0) trapped by FEAT_FGT and comes here too. */
uint64_t vperf_vpmu_hw_ccfiltr(const struct vperf_vcpu *vcpu, uint64_t guest)
{
	bool allowed = vpmu_common_event_allowed(vcpu->vm, VPMU_EVENT_CPU_CYCLES);

	return vpmu_types_direct(vcpu)
		       ? guest
		       : vpmu_hw_filter(guest, allowed, vpmu_el2_bits(vcpu), has_el3(vcpu));
}

/* PMCEID0/1_EL0 (I5.3.6-7): bits [31:0] are common events 0x00-0x1F (0x20-0x3F for PMCEID1),
 * bits [63:32] events 0x4000-0x401F (0x4020-0x403F). The guest sees the hardware's events that
 * its filter allows. */
uint64_t vperf_vpmu_pmceid(const struct vperf_vm *vm, bool high, uint64_t hw)
{
	uint32_t base = high ? 32u : 0u;
	uint64_t allowed = 0;

	for (uint32_t i = 0; i < 32; i++) {
		if (vperf_vpmu_event_allowed(vm, base + i))
			allowed |= VPERF_BIT(i);
		if (vperf_vpmu_event_allowed(vm, 0x4000u + base + i))
			allowed |= VPERF_BIT(32 + i);
	}
	return hw & allowed;
}
