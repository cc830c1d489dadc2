/* SPDX-License-Identifier: MIT */
/*
 * The guests' PMSCR_EL1 at EL2, with or without the vSPE built in (../pcpu.c includes this
 * directly): a host that profiles with an EL2-owned buffer samples whatever it enables.
 */
#ifndef VPERF_VIRT_VSPE_PMSCR_H
#define VPERF_VIRT_VSPE_PMSCR_H

#include <arch/sysreg.h>
#include <vperf/vperf.h>

/*
 * The guest's PMSCR_EL1, written at EL2 by the name the pCPU's HCR_EL2.E2H gives it: its own
 * encoding with E2H = 0; PMSCR_EL12 (S3_5_C9_C9_0) with E2H = 1, where PMSCR_EL1's encoding at
 * EL2 reaches the host's PMSCR_EL2 instead (SPE 4.3.5, 4.3.6: PMSCR_EL12 is UNDEFINED with
 * E2H = 0). vperf never reads it back: the vCPU's shadow holds it. The host's PMSCR_EL2 is
 * always named PMSCR_EL2, whatever E2H (SPE 4.3.7).
 */
static inline void vspe_write_guest_pmscr(const struct vperf_pcpu *pcpu, uint64_t val)
{
	if (pcpu->caps.e2h)
		write_sysreg(val, PMSCR_EL12);
	else
		write_sysreg(val, PMSCR_EL1);
}

/*
 * vperf_pcpu_init: the guests' PMSCR_EL1 resets to an UNKNOWN value (SPE 4.2), and while EL2
 * owns the buffer with HCR_EL2.TGE = 0 its E1SPE and E0SPE select which guest operations the
 * host's buffer samples (SPE 3.2.3, StatisticalProfilingEnabled). Under a host that profiles
 * (host_spe) a guest without a vSPE would be sampled into it: 0 from bring-up on, as every put of
 * a vCPU that set it leaves it. A host at EL1 (host_spe clear) keeps PMSCR_EL1 for itself.
 */
static inline void vperf_vspe_pcpu_init(const struct vperf_pcpu *pcpu)
{
	if (pcpu->cfg.host_spe && pcpu->caps.pmsver)
		vspe_write_guest_pmscr(pcpu, 0);
}

#endif /* VPERF_VIRT_VSPE_PMSCR_H */
