// SPDX-License-Identifier: MIT
/*
 * The physical PMBIRQ: a level driven by PMBSR_EL1.S (SPE 3.5), raised by a buffer management
 * event of the loaded guest's buffer (taken by vperf_vspe_take_event, switch.c) or of the host's
 * own buffer (the host's to serve).
 */
#include <arch/barrier.h>
#include <arch/sysreg.h>

#include "../log.h"
#include "vspe.h"

/* No guest's state in the hardware. The host's own buffer is the host's to serve, unless it is
 * saved around a loaded vCPU with vSPE (host.c): then the registers hold what the save left
 * under E2PB = 0b1x, and a host event the save put aside raises PMBIRQ again when the put
 * restores PMBSR_EL1 (SPE 3.5: the line follows PMBSR_EL1.S). A PMBIRQ now is one the GIC still
 * presented after the save lowered the line: nothing to serve, and nothing the host may touch. */
static enum vperf_spe_irq host_or_saved(struct vperf_pcpu *pcpu)
{
	if (!pcpu->spe.host_saved)
		return VPERF_SPE_IRQ_HOST;
	STAT_INC(&pcpu->stats, spe_stray);
	return VPERF_SPE_IRQ_GUEST_NONE;
}

enum vperf_spe_irq vperf_handle_spe_irq(struct vperf_pcpu *pcpu)
{
	struct vperf_vcpu *vcpu = pcpu->loaded;
	uint64_t pmbsr;

	if (!vcpu || !vcpu->vm->cfg.spe || !vcpu->spe.in_hw)
		return host_or_saved(pcpu);
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
