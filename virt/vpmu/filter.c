// SPDX-License-Identifier: MIT
/*
 * The per-VM event filter and what the hardware is given for a guest's event types. A guest
 * reads back the PMEVTYPER it wrote; the hardware gets a sanitized copy that can only count the
 * guest's own EL1/EL0 execution of an allowed event.
 */
#include "vpmu.h"

#define SAMPLE_POP	 0x4000u
#define SAMPLE_COLLISION 0x4003u

static bool event_allowed(const struct vperf_vm *vm, uint32_t event)
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

/*
 * Exception-level filtering as the hardware needs it (PMEVTYPER<n>_EL0, Arm DDI 0487 K.a, I5.3.30).
 * A denied event is excluded everywhere the guest's P/U would count.
 *
 * Without EL3, P and U filter EL1 and EL0 directly and NSK, NSU and M are RES0: the hardware gets
 * the guest's P and U. With EL3, P and U filter Secure EL1/EL0 too, and Non-secure EL1 (EL0) is
 * counted when NSK (NSU) equals P (U): so the hardware gets P = U = 1, never the Secure world
 * (a TrustZone OS running while the guest's vCPU is loaded, counted where MDCR_EL3.SPME allows
 * Secure counting), NSK = !guest P and NSU = !guest U for the guest's own EL1/EL0, and M = 0,
 * which with P = 1 never counts EL3 (M equal to P would). NSH = 0: never EL2, except in
 * XENPMU_MODE_ALL, which profiles the hypervisor too: EL2 with EL1 (NSH = !guest P).
 */
static uint64_t hw_filter(uint64_t guest, bool allowed, bool all, bool el3)
{
	uint64_t pu = allowed ? guest & (PMEVTYPER_P | PMEVTYPER_U) : PMEVTYPER_P | PMEVTYPER_U;
	uint64_t hw = pu;

	if (all && !(pu & PMEVTYPER_P))
		hw |= PMEVTYPER_NSH;
	if (!el3)
		return hw;
	hw |= PMEVTYPER_P | PMEVTYPER_U;
	if (!(pu & PMEVTYPER_P))
		hw |= PMEVTYPER_NSK;
	if (!(pu & PMEVTYPER_U))
		hw |= PMEVTYPER_NSU;
	return hw;
}

static bool has_el3(const struct vperf_vcpu *vcpu)
{
	return vcpu->pcpu && vcpu->pcpu->caps.el3;
}

/* One filtered type, the VM-wide inputs (XENPMU_MODE_ALL, EL3) given. */
static inline uint64_t hw_type(const struct vperf_vm *vm, uint64_t guest, bool all, bool el3)
{
	/* The event the hardware will count: cut to the PMU's event-number width (caps.c), so a
	 * type kept from a wider PE is judged, and programmed, as the narrower one counts it. */
	uint32_t event = (uint32_t)(guest & PMEVTYPER_EVT & vperf_vpmu_type_trapped());
	bool allowed = event < 64 ? vpmu_common_event_allowed(vm, event) : event_allowed(vm, event);

	return hw_filter(guest, allowed, all, el3) | event;
}

uint64_t vperf_vpmu_hw_evtyper(const struct vperf_vcpu *vcpu, uint64_t guest)
{
	/* A direct-partition guest writes the hardware itself: it gets back what it wrote (unless
	 * its types trap through FEAT_FGT: then as in the trapped partition). */
	if (vpmu_types_direct(vcpu))
		return guest;
	return hw_type(vcpu->vm, guest, vpmu_all_vm(vcpu), has_el3(vcpu));
}

/* The same for guest counters [0, nr) at once (a restore): the VM-wide inputs read once. */
void vperf_vpmu_hw_evtypers(const struct vperf_vcpu *vcpu, unsigned int nr, const uint64_t *guest,
			    uint64_t *hw)
{
	bool keep = vpmu_types_direct(vcpu), all = vpmu_all_vm(vcpu), el3 = has_el3(vcpu);

	for (unsigned int n = 0; n < nr; n++)
		hw[n] = keep ? guest[n] : hw_type(vcpu->vm, guest[n], all, el3);
}

uint64_t vperf_vpmu_hw_ccfiltr(const struct vperf_vcpu *vcpu, uint64_t guest)
{
	return vpmu_types_direct(vcpu) ? guest
				       : hw_filter(guest, true, vpmu_all_vm(vcpu), has_el3(vcpu));
}

/* PMCEID0/1_EL0 (I5.3.6-7): bits [31:0] are common events 0x00-0x1F (0x20-0x3F for PMCEID1),
 * bits [63:32] events 0x4000-0x401F (0x4020-0x403F). The guest sees the hardware's events that
 * its filter allows. */
uint64_t vperf_vpmu_pmceid(const struct vperf_vcpu *vcpu, bool high, uint64_t hw)
{
	uint32_t base = high ? 32u : 0u;
	uint64_t allowed = 0;

	for (uint32_t i = 0; i < 32; i++) {
		if (event_allowed(vcpu->vm, base + i))
			allowed |= VPERF_BIT(i);
		if (event_allowed(vcpu->vm, 0x4000u + base + i))
			allowed |= VPERF_BIT(32 + i);
	}
	return hw & allowed;
}
