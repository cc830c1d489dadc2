/* SPDX-License-Identifier: MIT */
/*
 * The guests' PMSCR_EL1 at EL2, by the name HCR_EL2.E2H gives it (vspe.h and bringup.h include
 * this).
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

#endif /* VPERF_VIRT_VSPE_PMSCR_H */
