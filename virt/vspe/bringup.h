/* SPDX-License-Identifier: MIT */
/*
 * SPE at vperf_pcpu_init, with or without the vSPE built in (../pcpu.c includes this directly):
 * the sampling and buffer registers reset to IMPLEMENTATION DEFINED values, which may be UNKNOWN
 * (SPE 4.2: only PMBLIMITR_EL1.E resets to 0), and vperf writes what a reset value would let
 * reach a guest or leave without an owner.
 */
#ifndef VPERF_VIRT_VSPE_BRINGUP_H
#define VPERF_VIRT_VSPE_BRINGUP_H

#include <arch/barrier.h>
#include <arch/sysreg.h>
#include <vperf/vperf.h>

#include "pmscr.h"

/*
 * While EL2 owns the buffer with HCR_EL2.TGE = 0, the guests' PMSCR_EL1.E1SPE and E0SPE select
 * which guest operations the host's buffer samples (SPE 3.2.3, StatisticalProfilingEnabled).
 * Under a host that profiles (host_spe) a guest without a vSPE would be sampled into it by the
 * reset value: 0 from bring-up on, as every put of a vCPU that set it leaves it. A host at EL1
 * (host_spe clear) keeps PMSCR_EL1 for itself.
 */
static inline void vspe_clear_guest_pmscr(const struct vperf_pcpu *pcpu)
{
	if (pcpu->cfg.host_spe && pcpu->caps.pmsver)
		vspe_write_guest_pmscr(pcpu, 0);
}

/*
 * A host with no buffer at EL2 (host_spe clear) that runs nothing at EL1 between vCPUs
 * (host_el1 clear: Xen, the reference hypervisor) has no SPE driver to reset SPE: vperf is its
 * only user, and resets it as an owner does before taking PMBIRQ. A PMBSR_EL1.S left set holds
 * PMBIRQ asserted (SPE 3.5) with nobody to clear it: a storm from the first time the hypervisor
 * unmasks the PPI (a Xen with guests' SPE hung at boot so). Each barrier's reason, in order: the
 * ISB after PMSCR_EL2 = 0 makes the profiling operation see EL2 unsampled (SPE 3.6); PSB CSYNC
 * then DSB synchronize and complete the records of anything sampled before, in case an earlier
 * boot stage left a buffer running (SPE 3.6); the ISB after PMBLIMITR_EL1 = 0 has the buffer off
 * before its status is cleared, so an event its last writes raise (SPE 3.5.2) cannot set
 * PMBSR_EL1.S again after the clear; the last ISB has PMBIRQ low (SPE 3.5) and the guests'
 * PMSCR_EL1 written before vperf_pcpu_init returns and the hypervisor unmasks the PPI. The record
 * of PMSCR_EL2 (hwctl.h) stays unknown: the next load writes it.
 */
static inline void vspe_reset_unowned(const struct vperf_pcpu *pcpu)
{
	if (pcpu->cfg.host_spe || pcpu->cfg.host_el1 || !pcpu->caps.pmsver)
		return;
	write_sysreg(0, PMSCR_EL2);
	isb();
	psb_csync();
	dsb_nsh();
	write_sysreg(0, PMBLIMITR_EL1);
	isb();
	write_sysreg(0, PMBSR_EL1);
	vspe_write_guest_pmscr(pcpu, 0);
	isb();
}

static inline void vperf_vspe_pcpu_init(const struct vperf_pcpu *pcpu)
{
	vspe_clear_guest_pmscr(pcpu);
	vspe_reset_unowned(pcpu);
}

#endif /* VPERF_VIRT_VSPE_BRINGUP_H */
