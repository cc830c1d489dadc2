/* SPDX-License-Identifier: MIT */
/*
 * The seeded guest programs of the isolation property tests (test_isolation_mixed,
 * test_isolation_worlds) and their comparison: each vCPU runs its own program, whose random
 * choices come from its own generator only, so that it is the same program whatever the
 * schedule; everything it observes (the values it reads, its virtual PMU line once settled, the
 * UNDEFs it took, its SPE buffer's bytes) must equal what the same program observes alone.
 */
#ifndef VPERF_TEST_ISO_PROG_H
#define VPERF_TEST_ISO_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vspe_util.h"

#define ISO_MAX_STEPS 40
#define ISO_MAX_OBS   1024

struct iso_prog {
	/* What the program is: set before its first step. */
	uint64_t rng;
	unsigned int vm;	  /* its VM: its code's PCs (0x100000 + vm * 0x10000) */
	unsigned int nr_counters; /* the event counters its VM shows */
	struct lx_spe *lx;	  /* its guest SPE driver's state, for a VM with a vSPE */
	bool wide;	      /* the wider instruction set (test_isolation_worlds): PMSELR_EL0 and
				   * PMXEV*, PMCR_EL0 and PMCEID0_EL0 read, UNDEFs observed, counters
				   * chained, overflow interrupts with SPE */
	bool quiet;	      /* it only runs its code: a guest that never touches its PMU,
				   * whose vPMU stays idle (a load that costs nothing) */
	bool profiles;	      /* the wider program starts as a profiler, every counter on */
	unsigned int spe_ops; /* loads of an SPE step: 50 + up to 255 (0), or up to this many */
	/* What it did and saw. */
	unsigned int next_step;
	uint64_t obs[ISO_MAX_OBS];
	unsigned int nr_obs;
	uint64_t uops_run; /* guest instructions it ran (micro-ops and loads) */
	/* Its first PMCEID0/1_EL0 reads, and the first that differed from them (the same VM must
	 * read the same events on every pCPU: iso_pmceid_view). */
	uint64_t pmceid[2], pmceid_other[2];
	bool pmceid_seen, pmceid_changed;
	bool spe_on;  /* an SPE session is running */
	bool started; /* it ran its first step */
	/* Where it ran: its run ended (vcpu_put) before step s, and step s ran on pCPU cpu_at[s]
	 * (step nr_steps is the finish). */
	bool put_before[ISO_MAX_STEPS + 2];
	uint8_t cpu_at[ISO_MAX_STEPS + 2];
};

/* Print every observation as it is made (HV_TRACE=1 in test_isolation_worlds). */
extern bool iso_trace;

/* One step of the program in vCPU vc (loaded on the current pCPU). */
void iso_step(struct iso_prog *p, struct hv_vcpu *vc);
/* The end of the program: a running SPE session is stopped, so its buffer is complete. */
void iso_finish(struct iso_prog *p);

/* The comparisons: NULL when shared and alone agree, else what differs (a static buffer). */
const char *iso_diff_obs(const struct iso_prog *shared, const struct iso_prog *alone);
const char *iso_diff_buffer(const struct lx_spe *shared, const struct lx_spe *alone);
/* One view of the common events: a and b (vCPUs of one VM, or a == b) read the same PMCEID0/1_EL0
 * at every read, whatever pCPU ran them. NULL, or what differs. */
const char *iso_pmceid_view(const struct iso_prog *a, const struct iso_prog *b);
/* Every record in the buffer is the VM's own, decodable, its PC in the VM's code: NULL and
 * *n records, or what is wrong. */
const char *iso_own_records(const struct lx_spe *lx, unsigned int *n);

#endif
