/* SPDX-License-Identifier: MIT */
/*
 * What the seeded isolation schedules share (test_vpmu_isolation, test_isolation_mixed): the
 * generator every program and schedule draws from, the event counter encodings, and the
 * environment knobs (HV_SCHEDULES, HV_SEED0).
 */
#ifndef VPERF_TEST_SCHED_UTIL_H
#define VPERF_TEST_SCHED_UTIL_H

#include <stdint.h>
#include <stdlib.h>

#include <vperf/sysreg.h>

/* xorshift64: cheap, and the same sequence on every host for a seed. */
static inline uint64_t sched_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static inline uint32_t sched_evcntr(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7);
}

static inline uint32_t sched_evtyper(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7);
}

static inline uint64_t sched_env_u64(const char *name, uint64_t dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : dflt;
}

#endif
