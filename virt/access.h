/* SPDX-License-Identifier: MIT */
/* One trapped System register access as its handler sees it (trap.c). */
#ifndef VPERF_VIRT_ACCESS_H
#define VPERF_VIRT_ACCESS_H

#include <vperf/esr.h>
#include <vperf/vperf.h>

/* One access being emulated: what a register handler sees. Handlers never touch guest GPRs:
 * perform_access() loads val for MSR and stores it for MRS. */
struct vperf_access {
	const struct vperf_sysreg_desc *desc;
	uint32_t enc;
	bool read;
	uint64_t val;
};

/* A handler returns true when the access was emulated, false for UNDEF. */
typedef bool (*vperf_access_fn)(struct vperf_vcpu *vcpu, struct vperf_access *acc);

/* Emulate one decoded access with fn (NULL: UNDEF): load the MSR value from gprs (XZR reads
 * as 0), call fn, store the MRS value (XZR discards it), advance the PC; UNDEF when fn refuses
 * or the register has no such direction. */
enum vperf_trap_result vperf_perform_access(struct vperf_vcpu *vcpu,
					    const struct vperf_sysreg_desc *desc,
					    const struct vperf_esr_sysreg *a, uint64_t gprs[31],
					    vperf_access_fn fn);

#endif /* VPERF_VIRT_ACCESS_H */
