// SPDX-License-Identifier: MIT
/*
 * Profiling Buffer management events (SPE supplement 3.5) and the guests' virtual PMBIRQ.
 *
 * PMBIRQ is a level driven by PMBSR_EL1.S (3.5). A guest's own event (buffer full, a stage 1
 * fault, an external abort) moves into its virtual PMBSR_EL1; the hardware buffer is disabled
 * and its PMBSR_EL1 cleared, so the physical line drops at once, and the virtual line stays high
 * until the guest clears its PMBSR_EL1.S. A stage 2 fault is the hypervisor's: the page is mapped
 * through the ops contract and, with no data lost, profiling resumes from the write pointer with
 * no trace in the guest (3.4.1 allows the restart); with data lost the guest sees a buffer full
 * event with DL = 1, which Linux's arm_spe_pmu driver handles as a truncated buffer (a fault
 * would end its session).
 */
#include <arch/barrier.h>
#include <arch/sysreg.h>

#include "vspe.h"

#define PMBSR_EVENT_BITS (PMBSR_EC | PMBSR_MSS)

/* 3.5: S = 1, EC and MSS as given, DL and EA set if given, every other field unchanged. */
void vperf_vspe_guest_event(struct vperf_vcpu *vcpu, uint64_t pmbsr)
{
	uint64_t *r = &vcpu->spe.reg[VPERF_VSPE_PMBSR];

	*r = (*r & ~PMBSR_EVENT_BITS) | (pmbsr & PMBSR_WRITABLE) | PMBSR_S;
	STAT_INC(&vcpu->vm->stats, spe_events);
	if (*r & PMBSR_DL)
		STAT_INC(&vcpu->vm->stats, spe_dl);
	vperf_vspe_update_irq(vcpu);
}

/* What the guest sees of a stage 2 fault: nothing (DL = 0, restarted), a truncation (DL = 1),
 * or, when the address is not the VM's memory, an external abort on the write (3.5.4), which
 * it cannot tell from a bad address of its own. Returns 0 when nothing is to be shown. */
static uint64_t stage2_event(struct vperf_vcpu *vcpu, uint64_t pmbsr)
{
	uint64_t keep = pmbsr & (PMBSR_COLL | PMBSR_DL);

	if (!vperf_vspe_fix_stage2(vcpu))
		return keep | PMBSR_EA | PMBSR_EC_VAL(PMBSR_EC_S1_DA) | PMBSR_FSC_SEA;
	STAT_INC(&vcpu->vm->stats, spe_s2_fixed);
	if (!(pmbsr & PMBSR_DL))
		return 0;
	return keep | PMBSR_BSC_FULL;
}

void vperf_vspe_take_event(struct vperf_vcpu *vcpu, uint64_t pmbsr)
{
	bool stage2 = vperf_pmbsr_ec(pmbsr) == PMBSR_EC_S2_DA && !(pmbsr & PMBSR_EA);

	if (stage2) {
		pmbsr = stage2_event(vcpu, pmbsr);
		if (!pmbsr) {
			/* Restart from the write pointer, the first byte after the last complete
			 * record (DL = 0, 3.5.3): clearing S re-enables the buffer at the next
			 * context synchronization event, the ERET into the guest. */
			write_sysreg(0, PMBSR_EL1);
			return;
		}
	}
	vperf_vspe_leave_direct(vcpu);
	/* The hardware buffer stays off until the guest has served its event ... */
	write_sysreg(0, PMBLIMITR_EL1);
	/* ... and PMBIRQ, a level on PMBSR_EL1.S (3.5), drops now. */
	write_sysreg(0, PMBSR_EL1);
	vperf_vspe_guest_event(vcpu, pmbsr);
}

bool vperf_handle_spe_irq(struct vperf_pcpu *pcpu)
{
	struct vperf_vcpu *vcpu = pcpu->loaded;
	uint64_t pmbsr;

	if (!vcpu || !vcpu->vm->cfg.spe || !vcpu->spe.in_hw)
		return false; /* not a guest's buffer: the host's own, for the host to serve */
	/* The exception entry was a context synchronization event: PSB CSYNC now synchronizes
	 * the guest's profiling operations, the DSB completes their writes, the ISB makes their
	 * indirect writes to PMBSR_EL1 / PMBPTR_EL1 visible to the reads below (3.6). */
	psb_csync();
	dsb_nsh();
	isb();
	pmbsr = read_sysreg(PMBSR_EL1);
	if (!(pmbsr & PMBSR_S)) {
		STAT_INC(&pcpu->stats, spe_stray);
		return false;
	}
	vperf_vspe_take_event(vcpu, pmbsr);
	return true;
}

/* The guest's PMBIRQ: its virtual PMBSR_EL1.S (3.5), pushed only on change; a vCPU that is not
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
