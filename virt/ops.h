/* SPDX-License-Identifier: MIT */
/* The hypervisor's ops (include/vperf/hyp.h), the one way virt/ reaches the hypervisor. */
#ifndef VPERF_VIRT_OPS_H
#define VPERF_VIRT_OPS_H

#include <vperf/hyp.h>

/* The hypervisor's ops, given to vperf_init (platform.c). */
extern const struct vperf_hyp_ops *vperf_ops;

#endif /* VPERF_VIRT_OPS_H */
