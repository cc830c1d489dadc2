/* SPDX-License-Identifier: MIT */
/*
 * The hardware's copy of a guest's event type (filter.c): inline for the trap fast path's type
 * write (fast.h), which needs it without a call.
 */
#ifndef VPERF_VIRT_VPMU_FILTER_H
#define VPERF_VIRT_VPMU_FILTER_H

#include "vpmu.h"

/* May the VM count event (its filter, and the SPE events only with a vSPE of its own)? */
bool vperf_vpmu_event_allowed(const struct vperf_vm *vm, uint32_t event);

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
 * XENPMU_MODE_ALL, which profiles the hypervisor too: EL2 with EL1 (NSH = !guest P), given as
 * el2 (vpmu_el2_bits). The guest's other fields never reach the hardware: MT above all, which
 * on a multithreaded core would count the other threads' work (I5.3.30 MT).
 */
static inline uint64_t vpmu_hw_filter(uint64_t guest, bool allowed, uint64_t el2, bool el3)
{
	uint64_t pu = allowed ? guest & (PMEVTYPER_P | PMEVTYPER_U) : PMEVTYPER_P | PMEVTYPER_U;
	uint64_t hw = pu;

	if (el2 && !(pu & PMEVTYPER_P))
		hw |= el2;
	if (!el3)
		return hw;
	hw |= PMEVTYPER_P | PMEVTYPER_U;
	if (!(pu & PMEVTYPER_P))
		hw |= PMEVTYPER_NSK;
	if (!(pu & PMEVTYPER_U))
		hw |= PMEVTYPER_NSU;
	return hw;
}

/*
 * What counts EL2 in the hardware's filter: nothing outside XENPMU_MODE_ALL; NSH in it, which
 * profiles the hypervisor. With EL3 and FEAT_SEL2, NSH = 1 with SH = 0 counts Secure EL2 as well
 * (I5.3.30 SH: Secure EL2 is not counted when SH equals NSH), the Secure world's partition
 * manager wherever MDCR_EL3.SPME lets Secure state count: not the privileged VM's to see, so SH
 * = NSH. Without a loaded pCPU (a blob restore), NSH alone: the next load writes the types again.
 */
static inline uint64_t vpmu_el2_bits(const struct vperf_vcpu *vcpu)
{
	const struct vperf_pcpu *pcpu = vcpu->pcpu;

	if (!vpmu_all_vm(vcpu))
		return 0;
	if (pcpu && pcpu->caps.el3 && pcpu->caps.sel2)
		return PMEVTYPER_NSH | PMEVTYPER_SH;
	return PMEVTYPER_NSH;
}

/* One filtered type, the VM-wide inputs (what counts EL2, EL3) given. */
static inline uint64_t vpmu_hw_type(const struct vperf_vm *vm, uint64_t guest, uint64_t el2,
				    bool el3)
{
	/* The event the hardware will count: cut to the PMU's event-number width (caps.c). Types
	 * are cut at their write and a blob's at its check with the same mask, which cannot narrow
	 * under a VM (a narrower pCPU after it is refused): a second guard, that a type from a
	 * wider PE is judged, and programmed, as the narrower one counts it. */
	uint32_t event = (uint32_t)(guest & PMEVTYPER_EVT & vperf_vpmu_type_trapped());
	bool allowed = event < 64 ? vpmu_common_event_allowed(vm, event)
				  : vperf_vpmu_event_allowed(vm, event);

	/* A PE may ignore the filter settings of the CHAIN event and count it everywhere (Arm DDI
	 * 0487, D14 event 0x1E): denied, the hardware gets SW_INCR instead, which the filter below
	 * keeps from counting anywhere (no write of PMSWINC_EL0 counts at an excluded level). */
	if (!allowed && event == VPMU_EVENT_CHAIN)
		event = VPMU_EVENT_SW_INCR;
	return vpmu_hw_filter(guest, allowed, el2, el3) | event;
}

/* vperf_vpmu_hw_evtyper() in the trapped partition, loaded on a pCPU (whose EL3 it asks). */
static inline uint64_t vpmu_hw_type_trapped(const struct vperf_vcpu *vcpu, uint64_t guest)
{
	return vpmu_hw_type(vcpu->vm, guest, vpmu_el2_bits(vcpu), vcpu->pcpu->caps.el3);
}

#endif /* VPERF_VIRT_VPMU_FILTER_H */
