// SPDX-License-Identifier: MIT
/*
 * Physical PMUIRQ entry. PMUIRQ is level-sensitive and stays asserted while any enabled
 * overflow flag is set (Arm ARM D13 "Performance Monitors overflow interrupt"), so every flag
 * this entry claims is cleared before it returns. With no VM given a PMU, every counter that can
 * overflow belongs to the host: its second range [HPMN, EPMN) and the cycle counter.
 */
#include <arch/sysreg.h>

#include "internal.h"

#define PMOVS_C VPERF_BIT(31)

static uint64_t host_ovs_mask(const struct vperf_pcpu *pcpu)
{
	uint64_t range = VPERF_GENMASK(30, 0);

	if (pcpu->epmn < 31)
		range &= VPERF_BIT(pcpu->epmn) - 1;
	range &= ~(VPERF_BIT(pcpu->hpmn) - 1);
	return range | PMOVS_C;
}

bool vperf_handle_pmu_irq(struct vperf_pcpu *pcpu)
{
	uint64_t ovs = read_sysreg(PMOVSSET_EL0) & host_ovs_mask(pcpu);

	if (!ovs)
		return false;
	/* Clear before the callback: a counter that overflows again meanwhile re-raises. */
	write_sysreg(ovs, PMOVSCLR_EL0);
	STAT_INC(&pcpu->stats, host_overflows);
	if (vperf_ops && vperf_ops->host_pmu_overflow)
		vperf_ops->host_pmu_overflow(ovs);
	return true;
}
