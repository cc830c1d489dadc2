// SPDX-License-Identifier: MIT
/*
 * The physical PMBIRQ: a level driven by PMBSR_EL1.S (SPE 3.5), raised by a buffer management
 * event of the loaded guest's buffer (taken by vperf_vspe_take_event, switch.c) or of the host's
 * own buffer (the host's to serve).
 */
#include <arch/barrier.h>
#include <arch/sysreg.h>

#include "vspe.h"

bool vperf_handle_spe_irq(struct vperf_pcpu *pcpu)
{
	struct vperf_vcpu *vcpu = pcpu->loaded;
	uint64_t pmbsr;

	if (!vcpu || !vcpu->vm->cfg.spe || !vcpu->spe.in_hw)
		return false; /* not a guest's buffer: the host's own, for the host to serve */
	/* The exception entry was a context synchronization event: PSB CSYNC now synchronizes
	 * the guest's profiling operations, the DSB completes their writes, the ISB makes their
	 * indirect writes to PMBSR_EL1 / PMBPTR_EL1 visible to the reads below (SPE 3.6). */
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
