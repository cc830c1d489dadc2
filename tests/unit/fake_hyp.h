/* SPDX-License-Identifier: MIT */
/* A hypervisor stand-in for unit tests: records every call vperf makes through the ops. */
#ifndef VPERF_TEST_FAKE_HYP_H
#define VPERF_TEST_FAKE_HYP_H

#include <vperf/hyp.h>

struct fake_vcpu {
	unsigned int el;	  /* what guest_el() answers */
	unsigned int undefs;	  /* inject_undef calls */
	unsigned int pc_advances; /* advance_pc calls */
};

struct fake_hyp {
	char last_log[256];
	unsigned int logs;
	uint64_t host_ovs; /* OR of every host_pmu_overflow argument */
	unsigned int host_ovs_calls;
};

extern struct fake_hyp fake_hyp;
extern const struct vperf_hyp_ops fake_hyp_ops;

/* Reset the recorder and the simulated CPUs, and register fake_hyp_ops with vperf. */
void fake_hyp_reset(void);

#endif
