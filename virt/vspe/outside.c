// SPDX-License-Identifier: MIT
/*
 * The hypervisor profiling a VM from outside (VPERF_SPE_BUF_EL2, for XENPMU_MODE_HV/ALL): the
 * host's own EL2-owned Profiling Buffer (vperf_pcpu_config.host_spe) stays live while the VM
 * runs and samples the guest's EL1 and EL0 code, each record tagged with the VM's id.
 *
 * The VM runs with the MDCR_EL2 of a VM without SPE (../mdcr.c): E2PB = 0b00, so EL2 owns the
 * buffer and every PMB* access of the guest traps, TPMS = 1, so every PMS* access traps; vperf
 * answers them UNDEF and shows PMSVer 0 (the guest has no SPE, SPE 3.2.3, SPE 3.4.6;
 * PMBIDR_EL1, never trapped, reads P = 1: the buffer is not EL1's, SPE 4.3.1).
 *
 * Attribution: records of the guest's operations carry a Context packet with CONTEXTIDR_EL2
 * (SPE 3.3.1 CollectContextIDR2: PMSCR_EL2.CX), which holds the VM's spe_context while it runs;
 * their PC packet says EL0 or EL1 (Arm DDI 0487 K.a, D18.2.1). A record whose PC is at EL2 is the
 * host's own, whatever its Context says: the host's sampling of itself is not synchronized around
 * the switch of CONTEXTIDR_EL2.
 */
#include <arch/barrier.h>
#include <arch/sysreg.h>

#include "hwctl.h"

/* After MDCR_EL2 (E2PB = 0b00) is the VM's, still at EL2 where nothing of the guest runs. The
 * ERET into the guest is the context synchronization event after which the profiling operation
 * sees all of it (SPE 3.6). */
void vperf_vspe_outside_load(struct vperf_vcpu *vcpu)
{
	struct vperf_pcpu_vspe *p = &vcpu->pcpu->spe;

	p->out_pmscr2 = read_sysreg(PMSCR_EL2);
	p->out_ctx2 = read_sysreg(CONTEXTIDR_EL2);
	/* CX: every record carries CONTEXTIDR_EL2 in a Context packet (SPE 3.3.1); the rest (PA,
	 * TS, PCT, the host's own E2SPE) is the host's choice for its buffer. */
	write_sysreg(p->out_pmscr2 | PMSCR_CX, PMSCR_EL2);
	/* The host programs its own sampling controls (docs/integration.md): none is known but
	 * this one, until the host has it back at put (hwctl.h). */
	vperf_vspe_ctl_forget(vcpu->pcpu);
	vperf_vspe_ctl_set(vcpu->pcpu, VSPE_CTL_PMSCR_EL2, p->out_pmscr2 | PMSCR_CX);
	write_sysreg(vcpu->vm->cfg.spe_context, CONTEXTIDR_EL2);
	/* With EL2 owning the buffer and HCR_EL2.TGE = 0, PMSCR_EL1.E1SPE and E0SPE select the
	 * guest's EL1 and EL0 operations (SPE 3.2.3 StatisticalProfilingEnabled). The guest cannot
	 * touch them: its PMSCR_EL1 accesses trap (TPMS) and are UNDEF. */
	vspe_write_guest_pmscr(vcpu->pcpu, PMSCR_E1SPE | PMSCR_E0SPE);
}

/* Sampling of the guest stopped at the exception to EL2, a context synchronization event. */
void vperf_vspe_outside_put(struct vperf_vcpu *vcpu)
{
	const struct vperf_pcpu_vspe *p = &vcpu->pcpu->spe;

	/* PSB CSYNC synchronizes the profiling operations of every guest instruction: their
	 * indirect reads of CONTEXTIDR_EL2 are done with this VM's id, and the write below may
	 * not affect them (SPE 3.6). Without it the next VM's id may end up in this VM's records.
	 * No DSB: the records go to the host's buffer through the EL2 regime, which the stage 2
	 * switch does not change; the host completes them when it reads its buffer. */
	psb_csync();
	/* Nothing of the next vCPU is sampled unless its own load asks for it. */
	vspe_write_guest_pmscr(vcpu->pcpu, 0);
	write_sysreg(p->out_ctx2, CONTEXTIDR_EL2);
	write_sysreg(p->out_pmscr2, PMSCR_EL2);
	/* The host's again, its to change (hwctl.h). */
	vperf_vspe_ctl_forget(vcpu->pcpu);
}
