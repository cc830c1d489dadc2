/* SPDX-License-Identifier: MIT */
/* The second-range placement's switch and flag steps (second.c); where its counters are: map.h. */
#ifndef VPERF_VIRT_VPMU_SECOND_H
#define VPERF_VIRT_VPMU_SECOND_H

#include "vpmu.h"

/* Restore the vCPU's state into pcpu's second range (its hw_pcpu is pcpu already). */
void vperf_vpmu_second_restore(struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu);
/* A parked owner's state, flags included, to its shadow (an owner change on its pCPU). */
void vperf_vpmu_second_flush(struct vperf_vcpu *owner);
/* Its counters from the hardware into the shadow. */
void vperf_vpmu_second_save_counters(struct vperf_vcpu *vcpu);
/* Its cycle counter's type (PMCCFILTR_EL0's filter on CPU_CYCLES) into the hardware. */
void vperf_vpmu_second_write_ccfiltr(const struct vperf_vcpu *vcpu);
/* The hardware's flags hw_ovs less the cycle counter's 32-bit overflows (cleared there). */
uint64_t vperf_vpmu_second_ovs(const struct vperf_vcpu *vcpu, uint64_t hw_ovs);
/* The guest's flags in the hardware now, in its bits. */
uint64_t vperf_vpmu_second_hw_flags(const struct vperf_vcpu *vcpu);
/* At a lazy put: with ISR_EL1.I, the guest's flags into the shadow; true when one was taken. */
bool vperf_vpmu_second_park_flags(struct vperf_vcpu *vcpu);
/* At a put: its cached MDCR_EL2 marked stale when its HPME or HLP would differ now. */
void vperf_vpmu_second_put_mdcr(struct vperf_vcpu *vcpu);

#endif /* VPERF_VIRT_VPMU_SECOND_H */
