// SPDX-License-Identifier: MIT
/* The vSPE's words of a vCPU's blob (version 2, at word 74; the layout: ../blob.c), given here
 * from their first word. Without CONFIG_VPERF_VSPE no VM has SPE: no version 2 blob is ever taken
 * or accepted (entry.h). */
#include "../vm_config.h"
#include "vspe.h"

/*
 * The vSPE words (version 2) at w. Restore trusts nothing: the policy must be the destination
 * VM's; every register holds only bits the trapped writes keep (vspe/regs.c, checked against
 * vperf_vspe_ref_caps()); and a buffer the guest would find enabled (PMBLIMITR_EL1.E = 1,
 * PMBSR_EL1.S = 0) must satisfy the rules the trapped enable checks (SPE 3.4.1: alignment,
 * pointer within the limit and the same tag, room for a record), since a guest could only have
 * left it enabled by passing them. That the buffer lies in the VM's own memory is, as for a
 * trapped write, the stage 2 translation's to enforce: vperf maps only the VM's memory when the
 * restored buffer faults (vspe/buffer.c).
 */
bool vperf_vspe_blob_ok(const struct vperf_vcpu *vcpu, const uint64_t *w)
{
	const struct vperf_pcpu_caps *caps = vperf_vspe_ref_caps();
	const uint64_t *r = w + 1;

	if (w[0] != (uint64_t)vperf_vspe_buffer(vcpu->vm))
		return false;
	for (unsigned int i = 0; i < VPERF_VSPE_NR_REGS; i++) {
		uint64_t keep = vspe_on(vcpu) ? vperf_vspe_keep(caps, (enum vperf_vspe_reg)i) : 0;

		if (r[i] & ~keep)
			return false;
	}
	if (!(r[VPERF_VSPE_PMBLIMITR] & PMBLIMITR_E) || (r[VPERF_VSPE_PMBSR] & PMBSR_S))
		return true;
	return vperf_vspe_buffer_fault(caps, r[VPERF_VSPE_PMBPTR], r[VPERF_VSPE_PMBLIMITR]) == 0;
}

void vperf_vspe_blob_fill(const struct vperf_vcpu *vcpu, uint64_t *w)
{
	w[0] = (uint64_t)vperf_vspe_buffer(vcpu->vm);
	for (unsigned int i = 0; i < VPERF_VSPE_NR_REGS; i++)
		w[1 + i] = vcpu->spe.reg[i];
}

void vperf_vspe_blob_apply(struct vperf_vcpu *vcpu, const uint64_t *w)
{
	bool level;

	vperf_vspe_reset(vcpu);
	for (unsigned int i = 0; i < VPERF_VSPE_NR_REGS; i++)
		vcpu->spe.reg[i] = w[1 + i];
	/* An enabled buffer goes into the hardware at the next load, as after a put. */
	vcpu->spe.active = vspe_buffer_on(vcpu);
	/* The destination usually maps guest memory lazily (a migration): the restored buffer is
	 * mapped at the load, as a trapped enable would have it, instead of at its first fault. */
	vcpu->spe.prefault = vcpu->spe.active;
	/* The virtual PMBIRQ is the virtual PMBSR_EL1.S (SPE 3.5): pushed at the next load
	 * whatever the destination's vGIC holds, by recording the opposite level as the last
	 * pushed. */
	level = (vcpu->spe.reg[VPERF_VSPE_PMBSR] & PMBSR_S) != 0;
	vcpu->spe.irq_level = !level;
	vcpu->spe.irq_dirty = true;
}
