/* SPDX-License-Identifier: MIT */
/*
 * What world.c, world_second.c, world_hyp.c and world_string.c share, the worlds of
 * test_isolation_worlds split by job; the tests use world.h only.
 */
#ifndef VPERF_TEST_WORLD_PRIV_H
#define VPERF_TEST_WORLD_PRIV_H

#include <stdint.h>

#include "world.h"

struct sim_core_profile;

/* The events a filter may deny (world.c: draw_filter; world_string.c: describe_filter). */
#define NR_FILTER_EVENTS 8 /* the entries of filter_events */
extern const uint16_t filter_events[NR_FILTER_EVENTS];

/* A number in [0, n) from the stream rng (world.c). */
unsigned int pick(uint64_t *rng, unsigned int n);
/* pCPU cpu becomes the core p (world.c). */
void profile_cpu(const struct sim_core_profile *p, struct w_cpu *cpu);
/* One world in five is a second-range world (world_second.c). */
void draw_second(uint64_t seed, struct world *w);
/* PMU hardware newer than what vperf shows a guest; the hypervisor's own MDCR_EL2 and
 * fine-grained traps (world_hyp.c). */
void draw_newer_pmu(uint64_t seed, struct world *w);
void draw_hyp(uint64_t seed, struct world *w);

#endif
