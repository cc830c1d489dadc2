// SPDX-License-Identifier: MIT
/*
 * Traps per guest PMU operation: typical accesses of a guest kernel's PMU driver, each measured
 * once in the steady state (the vCPU loaded, its PMU programmed and counting, the operation done
 * once before), in every vPMU mode and in the always-trap emulation.
 */
#include "bench.h"

static void read_evcntr(unsigned int n)
{
	(void)n;
	guest_read(PMEVCNTR1_EL0);
}

static void read_ccntr(unsigned int n)
{
	(void)n;
	guest_read(PMCCNTR_EL0);
}

static void write_evtyper(unsigned int n)
{
	(void)n;
	guest_write(PMEVTYPER1_EL0, 0x08);
}

static void write_cntenset(unsigned int n)
{
	(void)n;
	guest_write(PMCNTENSET_EL0, 0x2);
}

static void read_ovsset(unsigned int n)
{
	(void)n;
	guest_read(PMOVSSET_EL0);
}

static void write_swinc(unsigned int n)
{
	(void)n;
	guest_write(PMSWINC_EL0, 0x1);
}

static void write_pmcr(unsigned int n)
{
	(void)n;
	guest_write(PMCR_EL0, 0x81); /* E, LP: what perf's armv8pmu_start writes */
}

/* perf's read of every enabled counter (armv8pmu_read_counter per event). */
static void read_all(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		guest_mrs(bench_evcntr_enc(i));
	guest_read(PMCCNTR_EL0);
}

/* perf's armv8pmu_enable_event: type, counter, interrupt, enable. */
static void enable_event(unsigned int n)
{
	(void)n;
	guest_write(PMEVTYPER1_EL0, 0x08);
	guest_write(PMEVCNTR1_EL0, 0);
	guest_write(PMINTENSET_EL1, 0x2);
	guest_write(PMCNTENSET_EL0, 0x2);
}

/* Linux before 6.x: select, then read through PMXEVCNTR_EL0. */
static void read_selected(unsigned int n)
{
	(void)n;
	guest_write(PMSELR_EL0, 1);
	guest_read(PMXEVCNTR_EL0);
}

const struct bench_op bench_ops[] = {
	{ "read PMEVCNTR1_EL0", read_evcntr, 1 },
	{ "read PMCCNTR_EL0", read_ccntr, 1 },
	{ "write PMEVTYPER1_EL0", write_evtyper, 1 },
	{ "write PMCNTENSET_EL0", write_cntenset, 1 },
	{ "read PMOVSSET_EL0", read_ovsset, 1 },
	{ "write PMSWINC_EL0", write_swinc, 1 },
	{ "write PMCR_EL0", write_pmcr, 1 },
	{ "read all enabled counters (N + cycle)", read_all, 0 },
	{ "enable one event (type, counter, PMINTENSET, PMCNTENSET)", enable_event, 4 },
	{ "read via PMSELR_EL0 + PMXEVCNTR_EL0", read_selected, 2 },
};
const unsigned int bench_nr_ops = VPERF_ARRAY_SIZE(bench_ops);

unsigned int bench_op_accesses(unsigned int i)
{
	return bench_ops[i].accesses ? bench_ops[i].accesses : BENCH_GUEST_COUNTERS + 1;
}

int bench_op_setup(const struct bench_mode *m)
{
	int err;

	bench_init(m, BENCH_PE_COUNTERS, m ? BENCH_HOST_COUNTERS : 0);
	if (!m) {
		bench_use_emulation();
	} else {
		err = bench_vm(m, BENCH_GUEST_COUNTERS);
		if (err)
			return err;
		bench_enter(bench_vcpu(0), 0);
	}
	bench_guest_program(BENCH_GUEST_COUNTERS);
	return VPERF_OK;
}

int bench_op_measure(const struct bench_mode *m, unsigned int i, struct bench_count *c)
{
	int err = bench_op_setup(m);

	if (err)
		return err;
	bench_ops[i].run(BENCH_GUEST_COUNTERS);
	bench_clear();
	bench_ops[i].run(BENCH_GUEST_COUNTERS);
	bench_count(c);
	return VPERF_OK;
}
