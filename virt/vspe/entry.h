/* SPDX-License-Identifier: MIT */
/*
 * The vSPE as virt/'s entry points see it (../vcpu.c, ../pcpu.c, ../policy.c, ../trap.c,
 * ../blob.c). With CONFIG_VPERF_VSPE the build compiles vspe/ and this is its header; without it
 * the build leaves vspe/ out and the stubs below stand for it, so that the callers call
 * unconditionally. No VM has SPE then (vperf_vm_init refuses it, and vspe_on() and
 * vspe_outside() are false at compile time, ../vm_config.h): a stub is only reached where no VM's
 * state is involved, and does what the absent vSPE would.
 */
#ifndef VPERF_VIRT_VSPE_ENTRY_H
#define VPERF_VIRT_VSPE_ENTRY_H

#ifdef CONFIG_VPERF_VSPE
#include "hwctl.h"
#include "vspe.h"

/* The register handler of the vSPE's database slots (../trap.c). */
#define VPERF_VSPE_ACCESS vperf_vspe_access
#else
#include <vperf/vperf.h>

/* No handler: the architectural outcome for SPE the VM does not have, UNDEF. */
#define VPERF_VSPE_ACCESS NULL

/* No SPE version is shown to any VM. */
static inline unsigned int vperf_vspe_pmsver(uint64_t hw_dfr0)
{
	(void)hw_dfr0;
	return 0;
}

static inline void vperf_vspe_reset(struct vperf_vcpu *vcpu)
{
	(void)vcpu;
}

static inline void vperf_vspe_before_mdcr(struct vperf_vcpu *vcpu)
{
	(void)vcpu;
}

static inline void vperf_vspe_load(struct vperf_vcpu *vcpu)
{
	(void)vcpu;
}

static inline void vperf_vspe_put(struct vperf_vcpu *vcpu)
{
	(void)vcpu;
}

static inline void vperf_vspe_outside_load(struct vperf_vcpu *vcpu)
{
	(void)vcpu;
}

static inline void vperf_vspe_outside_put(struct vperf_vcpu *vcpu)
{
	(void)vcpu;
}

/* No host buffer was set aside: nothing comes back. */
static inline void vperf_vspe_restore_host(struct vperf_pcpu *pcpu)
{
	(void)pcpu;
}

/* vperf records no SPE control. */
static inline void vperf_vspe_ctl_forget(struct vperf_pcpu *pcpu)
{
	(void)pcpu;
}

/* The blob's vSPE words (../blob.c): version 2 is never taken or accepted. */
static inline void vperf_vspe_blob_fill(const struct vperf_vcpu *vcpu, uint64_t *w)
{
	(void)vcpu;
	(void)w;
}

static inline bool vperf_vspe_blob_ok(const struct vperf_vcpu *vcpu, const uint64_t *w)
{
	(void)vcpu;
	(void)w;
	return false;
}

static inline void vperf_vspe_blob_apply(struct vperf_vcpu *vcpu, const uint64_t *w)
{
	(void)vcpu;
	(void)w;
}
#endif

#endif /* VPERF_VIRT_VSPE_ENTRY_H */
