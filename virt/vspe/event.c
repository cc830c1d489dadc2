// SPDX-License-Identifier: MIT
/*
 * What the guest sees of its buffer's events: its virtual PMBSR_EL1, the virtual PMBIRQ that is
 * a level on its S bit (SPE 3.5), and, for the statistics, how far the hardware's write pointer
 * moved.
 */
#include "../log.h"
#include "../ops.h"
#include "vspe.h"

#define PMBSR_EVENT_BITS (PMBSR_EC | PMBSR_MSS)

/* SPE 3.5: S = 1, EC and MSS as given, DL and EA set if given, every other field unchanged. */
void vperf_vspe_guest_event(struct vperf_vcpu *vcpu, uint64_t pmbsr)
{
	uint64_t *r = &vcpu->spe.reg[VPERF_VSPE_PMBSR];

	*r = (*r & ~PMBSR_EVENT_BITS) | (pmbsr & PMBSR_WRITABLE) | PMBSR_S;
	STAT_INC(&vcpu->vm->stats, spe_events);
	if (*r & PMBSR_DL)
		STAT_INC(&vcpu->vm->stats, spe_dl);
	vperf_vspe_update_irq(vcpu);
}

/* The guest's PMBIRQ: its virtual PMBSR_EL1.S (SPE 3.5), pushed only on change; a vCPU that is not
 * loaded gets it at its next load. */
void vperf_vspe_update_irq(struct vperf_vcpu *vcpu)
{
	bool level = (vcpu->spe.reg[VPERF_VSPE_PMBSR] & PMBSR_S) != 0;

	if (!vcpu->pcpu) {
		vcpu->spe.irq_dirty = level != vcpu->spe.irq_level;
		return;
	}
	vcpu->spe.irq_dirty = false;
	if (level == vcpu->spe.irq_level)
		return;
	vcpu->spe.irq_level = level;
	vperf_ops->set_irq_line(vcpu->hv_vcpu, vperf_vm_spe_virq(vcpu->vm), level);
}

/*
 * Bytes written (stats): the hardware moves PMBPTR_EL1 past each record it writes (SPE 3.4.1), so
 * the pointer's advance between two values vperf knows is what was written, with no decoding. vperf
 * knows the value it restores or the guest writes through a trap, and the value it reads after a
 * drain (put, PMBIRQ) or for a trapped read. A guest that moves its pointer unseen (untrapped, or a
 * trapped write with no read since the last record) makes the count approximate: docs/vspe.md.
 */
void vperf_vspe_saw_ptr(struct vperf_vcpu *vcpu, uint64_t ptr)
{
#ifdef CONFIG_VPERF_STATS
	if (ptr > vcpu->spe.ptr_seen)
		vcpu->vm->stats.spe_bytes += ptr - vcpu->spe.ptr_seen;
#endif
	vcpu->spe.ptr_seen = ptr;
}
