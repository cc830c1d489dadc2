// SPDX-License-Identifier: MIT
/*
 * The loops callgrind measures (`vperf-bench callgrind`, run by bench.sh): for every supported
 * mode, ITERATIONS trapped accesses of one register and ITERATIONS switches of each case, then
 * the same for the baselines. Callgrind collects only inside vperf_handle_sysreg,
 * vperf_vcpu_load / vperf_vcpu_put / vperf_vcpu_put_lazy and the baselines' equivalents
 * (--toggle-collect), zeroes its counts on entry to bench_cg_measure and dumps them on exit,
 * one file per loop, in the order of the "cg" lines this prints: index, table, row, column, loop iterations, handler calls
 * (trapped accesses, or switches).
 */
#include <stdio.h>
#include <stdlib.h>

#include <arch/sysreg.h>
#include <sim/model.h>

#include "bench.h"

#define ITERATIONS 200

static unsigned int dumps;

__attribute__((noinline, noclone)) void bench_cg_measure(void (*fn)(unsigned int), unsigned int arg,
							 unsigned int iterations)
{
	for (unsigned int i = 0; i < iterations; i++)
		fn(arg);
}

void bench_cg_manifest(const char *table, const char *row, const char *col, uint64_t calls)
{
	printf("cg\t%u\t%s\t%s\t%s\t%u\t%llu\n", ++dumps, table, row, col, ITERATIONS,
	       (unsigned long long)calls);
}

static void access_loop_in(const char *table, const struct bench_mode *m, const char *col)
{
	for (unsigned int i = 0; i < bench_nr_ops; i++) {
		if (bench_ops[i].accesses != 1 || bench_op_setup(m))
			continue;
		bench_ops[i].run(BENCH_GUEST_COUNTERS);
		bench_clear();
		bench_cg_measure(bench_ops[i].run, BENCH_GUEST_COUNTERS, ITERATIONS);
		bench_cg_manifest(table, bench_ops[i].name, col, bench_traps());
	}
}

static void access_loop(const struct bench_mode *m, const char *col)
{
	access_loop_in("cg-access", m, col);
}

static void profile_access_loop(const struct bench_mode *m, const char *col)
{
	access_loop_in("cg-access-cores", m, col);
}

static void step(unsigned int arg)
{
	(void)arg;
	bench_switch_step();
}

static void switch_loop(const struct bench_mode *m, const char *col)
{
	for (unsigned int c = 0; c < BENCH_NR_CASES; c++) {
		if (bench_switch_setup(m, BENCH_GUEST_COUNTERS, (enum bench_case)c))
			continue;
		step(0);
		step(0);
		bench_cg_measure(step, 0, ITERATIONS);
		bench_cg_manifest("cg-switch", bench_case_names[c], col, ITERATIONS);
	}
}

/* The physical counter of the loaded vCPU's counter 0: itself, or where the host keeps the first
 * range (VPERF_PART_SECOND) the first even counter at or above HPMN (virt/vpmu/map.h,
 * vpmu_second_base), whose flag vperf takes; the first range's are the host driver's then. */
static unsigned int guest_counter0(const struct vperf_pcpu *p)
{
	return p->cfg.host_first_range ? (p->hpmn + 1u) & ~1u : 0;
}

/* One overflow of the loaded vCPU's counter 0 taken at EL2 (PMUIRQ): its flag raised in the
 * hardware with its interrupt enabled, the guest's shadow flag and virtual line reset first
 * (outside what callgrind collects), so that every call moves the flag and pushes the line. */
static void pmu_irq_once(unsigned int arg)
{
	struct vperf_vcpu *v = &bench_vcpu(0)->v;

	(void)arg;
	v->pmu.ovs = 0;
	v->pmu.irq_level = false;
	sim_enter_el2(0);
	write_sysreg(VPERF_BIT(guest_counter0(bench_pcpu(0))), PMOVSSET_EL0);
	if (!vperf_handle_pmu_irq(bench_pcpu(0))) {
		fprintf(stderr, "vperf-bench: PMUIRQ not taken\n");
		exit(1);
	}
	sim_exit_el2(0);
	sim_set_el(1);
}

static void pmu_irq_loop(const struct bench_mode *m)
{
	if (bench_op_setup(m))
		return;
	pmu_irq_once(0);
	bench_cg_measure(pmu_irq_once, 0, ITERATIONS);
	bench_cg_manifest("cg-pmu-irq", "counter 0 overflow, interrupt enabled", m->name,
			  ITERATIONS);
}

void bench_callgrind(void)
{
	for (unsigned int i = 0; i < bench_nr_modes; i++) {
		access_loop(&bench_modes[i], bench_modes[i].name);
		switch_loop(&bench_modes[i], bench_modes[i].name);
	}
	for (unsigned int i = 0; i < bench_nr_modes; i++)
		pmu_irq_loop(&bench_modes[i]);
	access_loop(NULL, "always-trap emulation");
	switch_loop(NULL, "naive full save");
	bench_spe_callgrind();
	bench_profiles(profile_access_loop);
}
