/* SPDX-License-Identifier: MIT */
/* What the host is told of a guest's mistake or the hypervisor's misuse: a counted event
 * (STAT_INC, vperf/stats.h) and a log line (log.c, through ops->log). */
#ifndef VPERF_VIRT_LOG_H
#define VPERF_VIRT_LOG_H

#include <vperf/esr.h>
#include <vperf/vperf.h>

/* Count one event in a vperf_stats (nothing without CONFIG_VPERF_STATS). */
#ifdef CONFIG_VPERF_STATS
#define STAT_INC(stats, field) ((stats)->field++)
#else
#define STAT_INC(stats, field) ((void)(stats))
#endif

void vperf_log(enum vperf_log_level level, const char *msg);
/* A guest mistake with its architectural outcome: counted by the caller, logged rate-limited. */
void vperf_log_notice(struct vperf_vm *vm, const char *msg);
void vperf_log_unknown_sysreg(struct vperf_vm *vm, const struct vperf_esr_sysreg *a);
/* A guest wrote RES0 bits: it gets them ignored, the host a line saying which. */
/* The same for bits the VM's features make RES0 (bad: the bits that were ignored). */
void vperf_log_bad_bits(struct vperf_vm *vm, const struct vperf_sysreg_desc *desc, uint64_t val,
			uint64_t bad);

#endif /* VPERF_VIRT_LOG_H */
