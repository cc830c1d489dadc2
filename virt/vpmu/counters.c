// SPDX-License-Identifier: MIT
/*
 * A guest counter's value and flags wherever they are: in its physical counter while its state
 * is in the hardware (vpmu_in_hw), in its shadow otherwise (switch.c moves them). The trapped
 * accesses (regs.c), the software increment (swinc.c) and the interrupt line (irq.c) read and
 * write them through these.
 */
#include <arch/sysreg.h>

#include "map.h"
#include "second.h"
#include "vpmu.h"

/* Counter n's physical counter now, or -1 when its value is in the shadow. */
static int phys_now(const struct vperf_vcpu *vcpu, unsigned int n)
{
	return vpmu_in_hw(vcpu) ? vperf_vpmu_phys(vcpu, n) : -1;
}

uint64_t vperf_vpmu_counter(const struct vperf_vcpu *vcpu, unsigned int n)
{
	int p = phys_now(vcpu, n);

	if (p < 0)
		return n == VPERF_CYCLE_IDX ? vcpu->pmu.ccntr : vcpu->pmu.evcntr[n];
	/* The second range: 64-bit event counters (PMUv3p5), the cycle counter one of them. */
	if (vpmu_second_vm(vcpu))
		return read_pmevcntr((unsigned int)p);
	return n == VPERF_CYCLE_IDX ? read_sysreg(PMCCNTR_EL0)
				    : vpmu_counter_bits(read_pmevcntr((unsigned int)p));
}

void vperf_vpmu_set_counter(struct vperf_vcpu *vcpu, unsigned int n, uint64_t val)
{
	int p = phys_now(vcpu, n);

	/* Before PMUv3p5 event counters are 32 bits wide (Arm DDI 0487 K.a, I5.3, PMEVCNTR<n>): a
	 * shadow keeps no more than the hardware would, so the guest never reads [63:32] back. */
	if (n != VPERF_CYCLE_IDX && !vperf_vpmu_wide_counters())
		val &= 0xffffffffull;

	if (p < 0 && n == VPERF_CYCLE_IDX)
		vcpu->pmu.ccntr = val;
	else if (p < 0)
		vcpu->pmu.evcntr[n] = val;
	else if (n == VPERF_CYCLE_IDX && !vpmu_second_vm(vcpu))
		write_sysreg(val, PMCCNTR_EL0);
	else
		write_pmevcntr((unsigned int)p, val);
}

uint64_t vperf_vpmu_ovs(const struct vperf_vcpu *vcpu)
{
	uint64_t hw = 0;

	if (vpmu_in_hw(vcpu))
		hw = vpmu_second_vm(vcpu) ? vperf_vpmu_second_hw_flags(vcpu)
					  : vperf_vpmu_guest_bits(vcpu, read_sysreg(PMOVSSET_EL0));
	return vcpu->pmu.ovs | hw;
}
