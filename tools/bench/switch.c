// SPDX-License-Identifier: MIT
/*
 * System register accesses per vCPU switch: one vperf_vcpu_put of the vCPU leaving a pCPU and
 * one vperf_vcpu_load of the vCPU entering one, in the steady state of four cases (enum
 * bench_case). Each case alternates between two vCPUs (or two pCPUs) so that every switch is
 * like the one before. "Active" vCPUs program their PMU the way Linux perf does and keep it
 * counting; idle ones never touch it.
 */
#include "bench.h"

const char *const bench_case_names[BENCH_NR_CASES] = {
	[BENCH_IDLE] = "idle vCPU (never touched the PMU)",
	[BENCH_SAME] = "active vCPU, back on the same pCPU",
	[BENCH_OTHER] = "active vCPU after another active vCPU",
	[BENCH_MIGRATE] = "active vCPU migrated to another pCPU",
};

static struct {
	enum bench_case c;
	bool naive;
	unsigned int cur; /* the naive switch: which state is loaded, on which pCPU */
	struct naive_pmu state[2];
} sw;

int bench_switch_setup(const struct bench_mode *m, uint8_t n, enum bench_case c)
{
	int err;

	sw.c = c;
	sw.naive = !m;
	sw.cur = 0;
	if (!m) {
		bench_init(NULL, BENCH_NAIVE_COUNTERS, 0);
		return VPERF_OK;
	}
	bench_init(m, BENCH_PE_COUNTERS, BENCH_HOST_COUNTERS);
	err = bench_vm(m, n);
	if (err)
		return err;
	bench_enter(bench_vcpu(0), 0);
	if (c != BENCH_IDLE)
		bench_guest_program(n);
	if (c == BENCH_IDLE || c == BENCH_OTHER)
		bench_enter(bench_vcpu(1), 0);
	if (c == BENCH_OTHER)
		bench_guest_program(n);
	sw.cur = c == BENCH_IDLE || c == BENCH_OTHER ? 1u : 0u; /* the vCPU running on pCPU 0 */
	return VPERF_OK;
}

/* Put the one state, load the other; the migration case changes pCPU at each switch. */
static void naive_step(void)
{
	unsigned int cpu = sim_current_cpu();

	naive_vcpu_put(&sw.state[sw.cur]);
	sw.cur ^= 1;
	if (sw.c == BENCH_MIGRATE)
		sim_set_cpu(cpu ^ 1);
	naive_vcpu_load(&sw.state[sw.cur]);
}

void bench_switch_step(void)
{
	struct bench_vcpu *a = bench_vcpu(0);

	if (sw.naive) {
		naive_step();
		return;
	}
	switch (sw.c) {
	case BENCH_SAME:
		bench_leave(0);
		bench_enter(a, 0);
		break;
	case BENCH_MIGRATE:
		bench_leave(a->cpu);
		bench_enter(a, a->cpu ^ 1);
		break;
	case BENCH_IDLE:
	case BENCH_OTHER:
	case BENCH_NR_CASES:
	default:
		sw.cur ^= 1;
		bench_enter(bench_vcpu(sw.cur), 0);
		break;
	}
}

int bench_switch_measure(const struct bench_mode *m, uint8_t n, enum bench_case c,
			 struct bench_count *out)
{
	int err = bench_switch_setup(m, n, c);

	if (err)
		return err;
	bench_switch_step();
	bench_switch_step();
	bench_clear();
	bench_switch_step();
	bench_count(out);
	return VPERF_OK;
}
