// SPDX-License-Identifier: MIT
/*
 * The vPMU's side of FEAT_FGT (../fgt.c decides HDFGRTR_EL2 / HDFGWTR_EL2): a direct-partition
 * vCPU whose types trap runs untrapped otherwise (MDCR_EL2.TPM = 0), so a type access reaches
 * the emulation (regs.c) while the hardware, not the shadow, holds what the guest wrote
 * untrapped since its last trap. Of that, the emulation of a type or PMCEID access reads only
 * the counter selection (PMXEVTYPER_EL0) and the EL0 rights (an EL0 access): both come back
 * here. The types themselves are the shadow's (switch.c leaves them there).
 */
#include <arch/sysreg.h>

#include "vpmu.h"

void vperf_vpmu_sync_selection(struct vperf_vcpu *vcpu)
{
	vcpu->pmu.selr = read_sysreg(PMSELR_EL0) & PMSELR_SEL;
	vpmu_set_userenr(&vcpu->pmu, vpmu_sync_userenr(vcpu));
}
