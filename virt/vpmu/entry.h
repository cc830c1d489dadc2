/* SPDX-License-Identifier: MIT */
/*
 * The vPMU as virt/'s entry points see it (../vcpu.c, ../pcpu.c, ../trap.c, ../blob.c). With
 * CONFIG_VPERF_VPMU the build compiles vpmu/ and this is its header; without it the build leaves
 * vpmu/ out and the stubs below stand for it, so that the callers call unconditionally. No VM has
 * a vPMU then (vperf_vm_init refuses one, and vpmu_on() is false at compile time, ../vm_config.h):
 * a stub is only reached where no VM's state is involved, and does what the absent vPMU would.
 */
#ifndef VPERF_VIRT_VPMU_ENTRY_H
#define VPERF_VIRT_VPMU_ENTRY_H

#ifdef CONFIG_VPERF_VPMU
#include "fast.h"
#include "switch.h"
#include "vpmu.h"

/* The register handler of the vPMU's database slots (../trap.c). */
#define VPERF_VPMU_ACCESS vperf_vpmu_access
#else
#include <vperf/vperf.h>

/* No handler: the architectural outcome for a PMU the VM does not have, UNDEF. */
#define VPERF_VPMU_ACCESS NULL

static inline bool vperf_vpmu_fast_access(struct vperf_vcpu *vcpu, uint64_t esr, uint64_t gprs[31])
{
	(void)vcpu;
	(void)esr;
	(void)gprs;
	return false;
}

static inline void vperf_vpmu_derive_masks(void)
{
}

/* The PMU registers the switch relies on: none. */
static inline void vperf_vpmu_pcpu_init(struct vperf_pcpu *pcpu)
{
	(void)pcpu;
}

/* PMCR_EL0.X is never the guest's: nothing to probe. */
static inline bool vperf_vpmu_probe_export_bus(uint64_t pmcr)
{
	(void)pmcr;
	return false;
}

static inline void vperf_vpmu_reset(struct vperf_vcpu *vcpu)
{
	(void)vcpu;
}

/* No counter waits for a slot. */
static inline bool vperf_vpmu_multiplexed(const struct vperf_vcpu *vcpu)
{
	(void)vcpu;
	return false;
}

static inline void vperf_vpmu_before_mdcr(struct vperf_vcpu *vcpu)
{
	(void)vcpu;
}

static inline void vperf_vpmu_load(struct vperf_vcpu *vcpu)
{
	(void)vcpu;
}

static inline bool vperf_vpmu_second_put_quick(struct vperf_vcpu *vcpu, struct vperf_pcpu *pcpu)
{
	(void)vcpu;
	(void)pcpu;
	return false;
}

static inline bool vperf_vpmu_second_load_quick(struct vperf_vcpu *vcpu, struct vperf_pcpu *pcpu)
{
	(void)vcpu;
	(void)pcpu;
	return false;
}

static inline void vperf_vpmu_put(struct vperf_vcpu *vcpu, bool lazy)
{
	(void)vcpu;
	(void)lazy;
}

/* Nothing parks: the put does the rest. */
static inline bool vperf_vpmu_park(struct vperf_vcpu *vcpu, bool *push)
{
	(void)vcpu;
	*push = false;
	return false;
}

static inline bool vperf_vpmu_park_trapped(struct vperf_vcpu *vcpu, bool *push)
{
	return vperf_vpmu_park(vcpu, push);
}

static inline bool vperf_vpmu_park_lazy(struct vperf_vcpu *vcpu, bool *push)
{
	return vperf_vpmu_park(vcpu, push);
}

static inline void vperf_vpmu_update_irq(struct vperf_vcpu *vcpu)
{
	(void)vcpu;
}

static inline void vperf_vpmu_flush(struct vperf_pcpu *pcpu)
{
	(void)pcpu;
}

static inline void vperf_vpmu_down(struct vperf_pcpu *pcpu)
{
	(void)pcpu;
}

/* The blob's vPMU words (../blob.c): no VM has vPMU state to save, and none is accepted. */
static inline void vperf_vpmu_blob_fill(const struct vperf_vcpu *vcpu, uint64_t *w)
{
	(void)vcpu;
	(void)w;
}

static inline bool vperf_vpmu_blob_ok(const struct vperf_vcpu *vcpu, const uint64_t *w)
{
	(void)vcpu;
	(void)w;
	return false;
}

static inline void vperf_vpmu_blob_apply(struct vperf_vcpu *vcpu, const uint64_t *w)
{
	(void)vcpu;
	(void)w;
}
#endif

#endif /* VPERF_VIRT_VPMU_ENTRY_H */
