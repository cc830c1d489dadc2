/* SPDX-License-Identifier: MIT */
/*
 * vperf's migration and snapshot API: a vCPU's vPMU and vSPE state as a flat, versioned blob
 * (vperf_vcpu_save, vperf_vcpu_restore). Part of vperf.h, which includes it; apart so that each
 * public header stays one subject.
 */
#ifndef VPERF_BLOB_H
#define VPERF_BLOB_H

#include <vperf/config.h>
#include <vperf/types.h>

struct vperf_vcpu;

/* The blob of a vCPU of a VM without SPE (version 1), and of one with SPE (version 2, vSPE
 * state included): a buffer of VPERF_VSPE_BLOB_SIZE bytes fits either. */
#define VPERF_VPMU_BLOB_SIZE 600
#define VPERF_VSPE_BLOB_SIZE 688

#if defined(CONFIG_VPERF_VPMU) || defined(CONFIG_VPERF_VSPE)
/* Serialise a vCPU's vPMU and vSPE state (migration, snapshot) into buf: a flat, versioned,
 * byte-order-independent blob (layout in virt/blob.c). The vCPU must not be loaded (its
 * put drained its SPE records into its memory). Returns the size written (VPERF_VPMU_BLOB_SIZE,
 * or VPERF_VSPE_BLOB_SIZE for a VM with SPE), VPERF_ENOSPC for a short buffer, VPERF_EBUSY
 * while loaded or parked by a lazy put (vperf_vcpu_put_lazy), VPERF_ENODEV for a VM with
 * neither a vPMU nor a vSPE (no state). A VM with SPE and its PMU OFF saves version 2 with the
 * vPMU part zero. */
int vperf_vcpu_save(const struct vperf_vcpu *vcpu, void *buf, size_t len);

/* Replace a vCPU's vPMU (and vSPE) state with a saved blob, for a vCPU of a VM with the same
 * counter count and SPE policy; len must be the size save gives that VM (a VM without SPE takes
 * version 1, one with SPE version 2). Everything is validated first; on VPERF_EINVAL nothing
 * was changed. The vCPU must not be loaded; its virtual interrupt lines are pushed at its next
 * load. VPERF_ENODEV for a VM with neither a vPMU nor a vSPE. */
int vperf_vcpu_restore(struct vperf_vcpu *vcpu, const void *buf, size_t len);
#else
static inline int vperf_vcpu_save(const struct vperf_vcpu *vcpu, void *buf, size_t len)
{
	(void)vcpu;
	(void)buf;
	(void)len;
	return VPERF_ENOTSUP;
}

static inline int vperf_vcpu_restore(struct vperf_vcpu *vcpu, const void *buf, size_t len)
{
	(void)vcpu;
	(void)buf;
	(void)len;
	return VPERF_ENOTSUP;
}
#endif

#endif /* VPERF_BLOB_H */
