/* SPDX-License-Identifier: MIT */
/*
 * test_isolation_worlds in parts, one job a file: vperf_pcpu_init's and vperf_vm_init's results
 * against the API (iso_worlds_oracle.c); the hosts' own share of the pCPUs, saved and restored
 * around a power-down and checked after the world (iso_worlds_host.c); a world run shared, each
 * vCPU run alone, and the two compared (iso_worlds_run.c); a failing world shrunk and reported
 * with the string that reproduces it (iso_worlds_shrink.c). The worlds are world.h's; the cmocka
 * entry points and the summary are test_isolation_worlds.c's.
 */
#ifndef VPERF_TEST_ISO_WORLDS_H
#define VPERF_TEST_ISO_WORLDS_H

#include <stdbool.h>
#include <stdint.h>

#include "iso_prog.h"
#include "world.h"

/* Why a world failed, for the shrink to keep to the same kind of failure. */
enum w_fail {
	WF_NONE,
	WF_OBS,	    /* a vCPU observed something else than alone */
	WF_BUFFER,  /* a guest's SPE buffer differs, or holds another's record */
	WF_HOST,    /* a host's counter or buffer saw what it may not */
	WF_MODEL,   /* the model caught a hypervisor error, or an interrupt storm */
	WF_REFUSAL, /* a refusal the API does not document, or an acceptance it forbids */
	WF_CRASH,   /* the run stopped (an assertion of the harness, a signal) */
};

struct w_result {
	enum w_fail fail;
	char msg[320];
	/* For the summary. */
	unsigned int cpus_up, cpus_refused, vms_up, vms_refused, vcpus, migrations, steps, downs;
	unsigned int lates; /* late pCPUs brought up (draw_late) */
	uint64_t records, host_records;
	/* The second range: pCPUs whose host keeps the first range up and refused, VMs in it. */
	unsigned int first_up, first_refused, second_up, second_refused, second_vcpus;
};

struct w_run {
	struct iso_prog prog[W_MAX_VCPUS];
	bool cpu_up[W_MAX_CPUS], vm_up[W_MAX_VMS];
	uint64_t host_uops[W_MAX_CPUS]; /* instructions of vCPUs whose host may count them */
	/* The late pCPU came up (accepted or not) before each vCPU's step late_step[i]. */
	bool late_seen;
	unsigned int late_step[W_MAX_VCPUS];
};

/* The shared run and the last run alone, and their guests' SPE drivers (iso_worlds_run.c). */
extern struct lx_spe lx_shared[W_MAX_VCPUS], lx_alone;
extern struct w_run shared_run, alone_run;

/* The world fails as f says, unless it failed already: the first failure is the one kept. */
bool failed(struct w_result *res, enum w_fail f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* iso_worlds_oracle.c: what vperf must accept and refuse. */
bool guest_buffer(const struct vperf_vm_config *cfg);
bool spe_ids_vary(const struct w_run *run, const struct world *w, uint64_t idr_bits,
		  uint64_t bidr_bits);
void check_pcpu_rc(const struct w_cpu *c, int rc, const struct w_run *run, const struct world *w,
		   unsigned int cpu, struct w_result *res);
void check_vm_rc(const struct w_vm *m, int rc, const struct w_run *run, const struct world *w,
		 unsigned int v, struct w_result *res);

/* iso_worlds_host.c: the hosts' own counters and buffers. */
void host_start(const struct world *w, unsigned int c);
void power_down(const struct world *w, unsigned int c, struct w_result *res);
void check_hosts(const struct world *w, struct w_result *res);

/* iso_worlds_run.c: the whole property on one world. */
void check_world(const struct world *w, struct w_result *res);

/* iso_worlds_shrink.c: a failing world shrunk, described and failed with its string. */
void report_failure(uint64_t seed, const struct w_shrink *s0, const struct w_result *res);

#endif
