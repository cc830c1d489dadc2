// SPDX-License-Identifier: MIT
/*
 * The deterministic costs `make bench` reports (docs/performance.md, "The contract"), asserted
 * with the benchmark's own measuring code (tools/bench/switch.c, ops.c), so that the document
 * and the test cannot disagree. Model default PE (N = 6), the host keeps 2 counters, perf-like
 * guests (N event counters and the cycle counter, interrupts enabled, PMUSERENR_EL0 = 0).
 */
#include <string.h>

#include "cmocka_wrap.h"

#include "bench.h"

static const struct bench_mode self = { VPERF_PART_TRAPPED, VPERF_PMU_SELF, "trapped/SELF", false };
static const struct bench_mode hv = { VPERF_PART_TRAPPED, VPERF_PMU_HV, "trapped/HV", false };
static const struct bench_mode direct = { VPERF_PART_DIRECT, VPERF_PMU_HV, "direct/HV", false };

/* Accesses per switch of the HV VM (SELF adds two MDCR_EL2 writes to every case). Every put is
 * lazy (tools/bench/harness.c): back on the same pCPU only the flags are read; another vCPU's
 * acquire, or the flush before a migration, reads the N counters and the cycle counter. */
struct expect {
	enum bench_case c;
	uint8_t n;
	uint64_t reads, writes;
};

static const struct expect contract[] = {
	{ BENCH_IDLE, 2, 0, 0 },
	{ BENCH_IDLE, 4, 0, 0 },
	{ BENCH_SAME, 2, 1, 2 }, /* 1 read + 2 writes */
	{ BENCH_SAME, 4, 1, 2 },
	{ BENCH_OTHER, 2, 4, 14 }, /* (N + 2) reads + (2N + 10) writes */
	{ BENCH_OTHER, 4, 6, 18 },
	{ BENCH_MIGRATE, 2, 4, 14 },
	{ BENCH_MIGRATE, 4, 6, 18 },
};

static void check_switch(const struct bench_mode *m, const struct expect *e, uint64_t mdcr)
{
	struct bench_count c;

	assert_int_equal(bench_switch_measure(m, e->n, e->c, &c), VPERF_OK);
	assert_int_equal(c.reads, e->reads);
	assert_int_equal(c.writes, e->writes + mdcr);
	assert_int_equal(c.mdcr, mdcr);
	assert_int_equal(sim_error_count(), 0);
}

/* The lazy switch: a vCPU that never touched the PMU costs no System register access at all;
 * in SELF only the host's counters are paused and resumed (MDCR_EL2.HPME). */
static void test_idle_switch(void **state)
{
	(void)state;
	check_switch(&hv, &contract[0], 0);
	check_switch(&hv, &contract[1], 0);
	check_switch(&self, &contract[0], 2);
	check_switch(&self, &contract[1], 2);
}

static void test_active_switch_hv(void **state)
{
	(void)state;
	for (size_t i = 2; i < VPERF_ARRAY_SIZE(contract); i++)
		check_switch(&hv, &contract[i], 0);
}

static void test_active_switch_self(void **state)
{
	(void)state;
	for (size_t i = 2; i < VPERF_ARRAY_SIZE(contract); i++)
		check_switch(&self, &contract[i], 2);
}

/* Trapped partition: every guest PMU register access is one trap, emulated (never UNDEF). */
static void test_one_trap_per_access(void **state)
{
	const struct bench_mode *modes[] = { &self, &hv };
	struct bench_count c;

	(void)state;
	for (size_t m = 0; m < VPERF_ARRAY_SIZE(modes); m++) {
		for (unsigned int i = 0; i < bench_nr_ops; i++) {
			assert_int_equal(bench_op_measure(modes[m], i, &c), VPERF_OK);
			assert_int_equal(c.traps, bench_op_accesses(i));
			assert_int_equal(c.undefs, 0);
		}
	}
}

/* The trap fast path (virt/vpmu/fast.h) in the steady state: a counter or flag read is
 * one MRS, a type write one MSR, a PMSWINC that increments nothing no access at all (no
 * PMOVSSET_EL0 read for an interrupt level that cannot have changed). */
static void test_fast_path_accesses(void **state)
{
	static const struct {
		const char *name;
		uint64_t reads, writes;
	} want[] = {
		{ "read PMEVCNTR1_EL0", 1, 0 },	  { "read PMCCNTR_EL0", 1, 0 },
		{ "write PMEVTYPER1_EL0", 0, 1 }, { "read PMOVSSET_EL0", 1, 0 },
		{ "write PMSWINC_EL0", 0, 0 },
	};
	struct bench_count c;
	unsigned int found = 0;

	(void)state;
	for (unsigned int i = 0; i < bench_nr_ops; i++)
		for (size_t w = 0; w < VPERF_ARRAY_SIZE(want); w++) {
			if (strcmp(bench_ops[i].name, want[w].name) != 0)
				continue;
			assert_int_equal(bench_op_measure(&hv, i, &c), VPERF_OK);
			assert_int_equal(c.reads, want[w].reads);
			assert_int_equal(c.writes, want[w].writes);
			found++;
		}
	assert_int_equal(found, VPERF_ARRAY_SIZE(want));
}

/* Direct partition (docs/vpmu.md): counter reads in the first range do not trap. */
static void test_direct_reads_untrapped(void **state)
{
	struct bench_count c;

	(void)state;
	if (bench_op_setup(&direct) != VPERF_OK)
		skip();
	for (unsigned int i = 0; i < 2; i++) {
		assert_int_equal(bench_op_measure(&direct, i, &c), VPERF_OK);
		assert_int_equal(c.traps, 0);
		assert_int_equal(c.undefs, 0);
	}
	assert_string_equal(bench_ops[0].name, "read PMEVCNTR1_EL0");
	assert_string_equal(bench_ops[1].name, "read PMCCNTR_EL0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_switch),
		cmocka_unit_test(test_active_switch_hv),
		cmocka_unit_test(test_active_switch_self),
		cmocka_unit_test(test_one_trap_per_access),
		cmocka_unit_test(test_fast_path_accesses),
		cmocka_unit_test(test_direct_reads_untrapped),
	};

	return cmocka_run_group_tests_name("bench_counts", tests, NULL, NULL);
}
