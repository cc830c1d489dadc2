// SPDX-License-Identifier: MIT
/*
 * A host that profiles with its own Profiling Buffer (owned by EL2: MDCR_EL2.E2PB = 0b00 while no
 * vCPU runs, vperf_pcpu_config.host_spe) shares every SPE register but PMSCR_EL2 with the guests:
 * there is one PMBPTR_EL1, one PMSICR_EL1... So around a vCPU with vSPE its buffer is saved
 * (docs/vspe.md, "A host-owned buffer around guests": PMSCR = 0, ISB, PSB CSYNC, DSB NSH,
 * PMBLIMITR = 0, ISB) before
 * MDCR_EL2.E2PB gives the buffer to EL1, and restored in reverse once E2PB is the host's again.
 * Its records are all in its own buffer before the owner changes: none goes through a guest's
 * translation regime.
 */
#include <arch/barrier.h>
#include <arch/sysreg.h>
#include <vperf/id_regs.h>

#include "hwctl.h"

/* The sampling enable first (saved and cleared first, restored last), then the order of a
 * restore: controls, interval counter, the pointer before the limit. */
static const uint16_t host_regs[VPERF_VSPE_HOST_REGS] = {
	VPERF_ENC_PMSCR_EL2,	 VPERF_ENC_PMSIRR_EL1,	 VPERF_ENC_PMSFCR_EL1,
	VPERF_ENC_PMSEVFR_EL1,	 VPERF_ENC_PMSLATFR_EL1, VPERF_ENC_PMSNEVFR_EL1,
	VPERF_ENC_PMSICR_EL1,	 VPERF_ENC_PMBPTR_EL1,	 VPERF_ENC_PMBSR_EL1,
	VPERF_ENC_PMBLIMITR_EL1,
};

/* PMSNEVFR_EL1 exists from SPEv1p2 on: an access on an older PE is UNDEFINED even at EL2. */
static bool present(const struct vperf_pcpu *pcpu, uint32_t enc)
{
	return enc != VPERF_ENC_PMSNEVFR_EL1 || pcpu->caps.pmsver >= ID_DFR0_PMSVER_V1P2;
}

void vperf_vspe_save_host(struct vperf_pcpu *pcpu)
{
	uint64_t *h = pcpu->spe.host;

	if (!pcpu->cfg.host_spe || pcpu->spe.host_saved)
		return;
	h[0] = read_sysreg(PMSCR_EL2);
	/* Stop sampling EL2 ... */
	write_sysreg(0, PMSCR_EL2);
	vperf_vspe_ctl_set(pcpu, VSPE_CTL_PMSCR_EL2, 0);
	/* ... as seen by the profiling operation (SPE 3.6); */
	isb();
	/* synchronize the host's profiling operations, complete their writes to its buffer, and
	 * make their indirect writes to PMBPTR_EL1 / PMBSR_EL1 visible to the reads below. */
	psb_csync();
	dsb_nsh();
	isb();
	for (unsigned int i = 1; i < VPERF_VSPE_HOST_REGS; i++)
		if (present(pcpu, host_regs[i]))
			h[i] = read_sysreg_enc(host_regs[i]);
	/* The buffer off before E2PB gives it to EL1, and a pending event of the host's put
	 * aside (its PMBIRQ comes back when PMBSR_EL1 is restored, SPE 3.5). */
	write_sysreg(0, PMBLIMITR_EL1);
	write_sysreg(0, PMBSR_EL1);
	isb();
	pcpu->spe.host_saved = true;
}

/* After vperf_vcpu_put has written the host's MDCR_EL2 (E2PB = 0b00) back. */
void vperf_vspe_restore_host(struct vperf_pcpu *pcpu)
{
	const uint64_t *h = pcpu->spe.host;

	if (!pcpu->spe.host_saved)
		return;
	/* The controls and the buffer, PMBLIMITR_EL1 after PMBPTR_EL1, the enable last. */
	for (unsigned int i = 1; i < VPERF_VSPE_HOST_REGS; i++)
		if (present(pcpu, host_regs[i]))
			write_sysreg_enc(host_regs[i], h[i]);
	write_sysreg(h[0], PMSCR_EL2);
	/* The host samples again from here: make it all visible to the profiling operation. */
	isb();
	pcpu->spe.host_saved = false;
	/* Its controls are its own until the next save, which finds them as it left them or not:
	 * the next load writes every one (hwctl.h). */
	vperf_vspe_ctl_forget(pcpu);
}
