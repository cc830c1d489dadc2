/* SPDX-License-Identifier: MIT */
/*
 * The EC 0x18 trap entry's two paths (trap.c). vperf_handle_sysreg() tries the inline fast path
 * (vpmu/fast.h) and leaves every access it does not answer to the full path below: the fast
 * path is a view of the full one, and must answer exactly as it would (the result, the guest's
 * registers, the hardware writes and the statistics: tests/unit/test_trap_fast_vs_full.c).
 */
#ifndef VPERF_VIRT_TRAP_H
#define VPERF_VIRT_TRAP_H

#include <vperf/vperf.h>

/* The full path alone: decode, look up, perform_access, the register's handler. */
enum vperf_trap_result vperf_handle_sysreg_full(struct vperf_vcpu *vcpu, uint64_t esr,
						uint64_t gprs[31]);

#endif /* VPERF_VIRT_TRAP_H */
