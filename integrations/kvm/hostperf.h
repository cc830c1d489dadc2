/* SPDX-License-Identifier: MIT */
/* What the modes of hostperf (hostperf.c, hostperf_spe.c) share. */
#ifndef VPERF_KVM_HOSTPERF_H
#define VPERF_KVM_HOSTPERF_H

#include <linux/perf_event.h>
#include <signal.h>
#include <sys/types.h>

#define RING_PAGES 16 /* data pages of each event's ring buffer */
#define MAX_CPUS   8

/* Set by SIGTERM: the guests are done. */
extern volatile sig_atomic_t stop;

int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu);
/* hostperf spe (toggle 0) and spe-toggle (toggle 1) */
int spe_mode(int toggle);
/* hostperf spe-task */
int spe_task_mode(void);

#endif /* VPERF_KVM_HOSTPERF_H */
