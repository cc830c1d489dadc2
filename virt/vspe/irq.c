// SPDX-License-Identifier: MIT
/*
 * The physical PMBIRQ: a level driven by PMBSR_EL1.S (SPE 3.5), raised by a buffer management
 * event of the loaded guest's buffer (taken by vperf_vspe_take_event, switch.c) or of the host's
 * own buffer (the host's to serve).
 */
#include <arch/barrier.h>
#include <arch/sysreg.h>

#include "vspe.h"

enum vperf_spe_irq vperf_handle_spe_irq(struct vperf_pcpu *pcpu)
{
	struct vperf_vcpu *vcpu = pcpu->loaded;
	uint64_t pmbsr;

	if (!vcpu || !vcpu->vm->cfg.spe || !vcpu->spe.in_hw)
		return VPERF_SPE_IRQ_HOST; /* the host's own buffer, for the host to serve */
	/* The exception entry was a context synchronization event: PSB CSYNC now synchronizes
	 * the guest's profiling operations, the DSB completes their writes, the ISB makes their
	 * indirect writes to PMBSR_EL1 / PMBPTR_EL1 visible to the reads below (SPE 3.6). */
	psb_csync();
	dsb_nsh();
	isb();
	pmbsr = read_sysreg(PMBSR_EL1);
	/* No event, but the registers are the guest's: "not mine" would send the host's handler
	 * to them. */
	if (!(pmbsr & PMBSR_S)) {
		STAT_INC(&pcpu->stats, spe_stray);
		return VPERF_SPE_IRQ_GUEST_NONE;
	}
	vperf_vspe_take_event(vcpu, pmbsr);
	return VPERF_SPE_IRQ_GUEST;
}
