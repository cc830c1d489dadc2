// SPDX-License-Identifier: MIT
/*
 * A host that writes PMCR_EL0 between a put and the next load (host_writes_pmcr, vperf/vperf.h:
 * nVHE KVM, whose EL1 perf sets PMCR_EL0.E for its own events). PMCR_EL0.E enables every
 * counter of the first range (Arm DDI 0487 K.a, I5.3.21 PMCR_EL0.E; MDCR_EL2.HPMN), so it cannot
 * stop a put vCPU's counters there: its own count enables do (I5.3.19 PMCNTENCLR_EL0), and its
 * interrupt enables go with them (I5.3.36 PMINTENCLR_EL1), so that a flag it left raises no
 * PMUIRQ at the host. The lazy put's part is inline (switch.h, vpmu_park_stop_enables).
 */
#include <arch/barrier.h>
#include <arch/sysreg.h>

#include "map.h"
#include "switch.h"
#include "vpmu.h"

/*
 * The eager put's stop with host_writes_pmcr: the hardware copy stays the cache a later resume
 * takes (hw_copy_valid), so the host's PMCR_EL0.E must not make it count either (the lazy put's
 * reason, switch.h vpmu_park_stop_enables). Every first-range counter the vCPU may have enabled
 * (vpmu_owner_reach: its N, or its emulated slots) and the cycle counter, never the host's counters
 * at or above HPMN; the ISB before the counters and flags are read, as there.
 */
void vperf_vpmu_stop_enables(const struct vperf_vcpu *vcpu)
{
	uint64_t reach = (VPERF_BIT(vpmu_owner_reach(vcpu, vcpu->pcpu)) - 1) | VPMU_CYCLE_BIT;

	write_sysreg(reach, PMCNTENCLR_EL0);
	write_sysreg(reach, PMINTENCLR_EL1);
	isb();
}

void vperf_vpmu_resume_enables(struct vperf_vcpu *vcpu)
{
	uint64_t cnten, inten;

	/* PMCR_EL0 first (the host's may have E = 1 with the guest's 0, or other LC, LP, DP): the
	 * guest's counters are all disabled until the enables below, so no counter counts under a
	 * half-restored control. XENPMU_MODE_ALL never had its enables cleared (it goes on
	 * counting across its put). */
	write_sysreg(vpmu_hw_pmcr(vcpu->pmu.pmcr), PMCR_EL0);
	if (vpmu_all_vm(vcpu))
		return;
	cnten = vperf_vpmu_hw_bits(vcpu, vcpu->pmu.cnten);
	inten = vperf_vpmu_hw_inten(vcpu);
	if (cnten)
		write_sysreg(cnten, PMCNTENSET_EL0);
	if (inten)
		write_sysreg(inten, PMINTENSET_EL1);
}
