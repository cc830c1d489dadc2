// SPDX-License-Identifier: MIT
/*
 * vperf-bench [callgrind]: the deterministic counts (traps per guest PMU operation, System
 * register accesses per switch), or with "callgrind" the loops bench.sh runs under callgrind.
 * Every mode of enum vperf_partition is tried with the SELF and HV policies; a mode
 * vperf_vm_init refuses is reported as such and left out of the tables.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

const struct bench_mode bench_modes[] = {
	{ VPERF_PART_TRAPPED, VPERF_PMU_SELF, "trapped/SELF", false },
	{ VPERF_PART_TRAPPED, VPERF_PMU_HV, "trapped/HV", false },
	{ VPERF_PART_DIRECT, VPERF_PMU_SELF, "direct/SELF", false },
	{ VPERF_PART_DIRECT, VPERF_PMU_HV, "direct/HV", false },
	{ VPERF_PART_EMULATED, VPERF_PMU_SELF, "emulated/SELF", false },
	{ VPERF_PART_EMULATED, VPERF_PMU_HV, "emulated/HV", false },
	/* Its own PE (bench.h): the host at EL1 keeps the first range. */
	{ VPERF_PART_SECOND, VPERF_PMU_SELF, "second/SELF", false },
	/* The same under a hypervisor that writes MDCR_EL2 itself (KVM, patch 21). */
	{ VPERF_PART_SECOND, VPERF_PMU_SELF, "second/SELF/hyp-MDCR", true },
};
const unsigned int bench_nr_modes = VPERF_ARRAY_SIZE(bench_modes);

void bench_cell(const char *table, const char *row, const char *col, const char *fmt, ...)
{
	va_list ap;

	printf("%s\t%s\t%s\t", table, row, col);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void modes(void)
{
	for (unsigned int i = 0; i < bench_nr_modes; i++) {
		int err = bench_op_setup(&bench_modes[i]);

		if (err == VPERF_OK)
			bench_cell("modes", bench_modes[i].name, "vperf_vm_init (N = 4)", "ok");
		else
			bench_cell("modes", bench_modes[i].name, "vperf_vm_init (N = 4)",
				   "not supported (%s)", bench_err_name(err));
	}
}

static void op_cells(const struct bench_mode *m, const char *col)
{
	struct bench_count c;

	for (unsigned int i = 0; i < bench_nr_ops; i++) {
		if (bench_op_measure(m, i, &c))
			return;
		bench_cell("traps", bench_ops[i].name, "guest accesses", "%u",
			   bench_op_accesses(i));
		bench_cell("traps", bench_ops[i].name, col, "%llu (%llu)",
			   (unsigned long long)c.traps, (unsigned long long)(c.reads + c.writes));
	}
}

static void switch_cells(const char *table, const struct bench_mode *m, const char *col)
{
	static const uint8_t counters[] = { 2, 4 };
	struct bench_count c;
	char row[96];

	for (unsigned int n = 0; n < VPERF_ARRAY_SIZE(counters); n++) {
		for (unsigned int k = 0; k < BENCH_NR_CASES; k++) {
			if (bench_switch_measure(m, counters[n], (enum bench_case)k, &c))
				return;
			snprintf(row, sizeof(row), "N = %u: %s", counters[n], bench_case_names[k]);
			bench_cell(table, row, col, "%llu (%llur + %lluw%s)",
				   (unsigned long long)(c.reads + c.writes),
				   (unsigned long long)c.reads, (unsigned long long)c.writes,
				   c.mdcr ? ", MDCR_EL2" : "");
		}
	}
}

/* The cores make bench measures besides the default PE (docs/cores.md): a PMUv3 core (Armv8.0),
 * a PMUv3p4 one (Armv8.4) and a PMUv3p5 one, each in the trapped partition (vperf refuses the
 * direct one on all three, docs/cores.md), SELF and HV. */
static const char *const bench_cores[] = { "cortex-a53", "neoverse-v1", "neoverse-n2" };

void bench_profiles(void (*fn)(const struct bench_mode *m, const char *col))
{
	char col[96];

	for (size_t k = 0; k < VPERF_ARRAY_SIZE(bench_cores); k++) {
		bench_profile = sim_core_profile(bench_cores[k]);
		for (unsigned int i = 0; i < 2; i++) { /* trapped/SELF, trapped/HV */
			snprintf(col, sizeof(col), "%s %s", bench_cores[k], bench_modes[i].name);
			fn(&bench_modes[i], col);
		}
	}
	bench_profile = NULL;
}

static void profile_counts(const struct bench_mode *m, const char *col)
{
	switch_cells("switch-cores", m, col);
}

static void counts(void)
{
	modes();
	for (unsigned int i = 0; i < bench_nr_modes; i++)
		op_cells(&bench_modes[i], bench_modes[i].name);
	op_cells(NULL, "always-trap emulation");
	for (unsigned int i = 0; i < bench_nr_modes; i++)
		switch_cells("switch", &bench_modes[i], bench_modes[i].name);
	switch_cells("switch", NULL, "naive full save");
	bench_spe_counts();
	bench_profiles(profile_counts);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "callgrind")) {
		bench_callgrind();
	} else if (argc > 1) {
		fprintf(stderr, "usage: vperf-bench [callgrind]\n");
		return 2;
	} else {
		counts();
	}
	return 0;
}
