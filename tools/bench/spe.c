// SPDX-License-Identifier: MIT
/*
 * What the vSPE costs (docs/performance.md): System register accesses, barriers and (under
 * callgrind) instructions per switch of two vCPUs with vSPE on one pCPU, trapped and untrapped
 * PMB*, idle (never enabled their buffer) and active (buffer live); instructions from the
 * PMBIRQ entry to the virtual interrupt (the ops call that writes the list register); and the
 * records lost over 10^6 switches of two sampling guests, which must be 0.
 *
 * The VM has SPE and no vPMU (PMU OFF), so the counts are the vSPE's and MDCR_EL2's. A switch
 * runs in an exception to EL2, as a hypervisor's does: the entry is the context
 * synchronization event the drain at put relies on (SPE 3.6: the SPE supplement, Arm DDI 0586A).
 */
#include <stdio.h>
#include <stdlib.h>

#include <arch/barrier.h>
#include <arch/sysreg.h>
#include <sim/gic.h>
#include <sim/guest_spe.h>
#include <sim/mem.h>
#include <sim/spe.h>
#include <vperf/spe_rec.h>

#include "bench.h"

#define SPE_ITERATIONS 200 /* as cg.c's loops */
#define LOST_SWITCHES  1000000u
#define LOST_OPS \
	7u		  /* guest operations between two switches (prime to the interval:
			     * the interval counter does not always expire at a switch) */
#define LOST_CONSUME 128u /* a guest reads its buffer every so many of its time slices */

#define BUF_VA(i) (0xffff800010000000ull + (uint64_t)(i)*0x100000ull)
#define BUF_PA(i) (0x40000000ull + (uint64_t)(i)*0x100000ull)
#define BUF_SIZE  0x10000ull

/* Fields written out from SPE 4.3. */
#define PMBLIMITR_E 0x1ull
#define PMSCR_E1SPE 0x2ull
#define INTERVAL_1  0x100ull /* one operation in 257 */
#define PMBSR_S	    (1ull << 17)
#define BSC_FULL    0x1ull

static const enum vperf_spe_buffer policies[] = { VPERF_SPE_BUF_EL1_TRAPPED, VPERF_SPE_BUF_EL1 };
static const char *const policy_names[] = { "trapped PMB* (E2PB 0b10)",
					    "untrapped PMB* (E2PB 0b11)" };
static const char *const state_names[] = { "idle (buffer never enabled)", "active (buffer live)" };

static unsigned int cur; /* the vCPU loaded on pCPU 0 */

static void fail(const char *what)
{
	fprintf(stderr, "vperf-bench: SPE: %s\n", what);
	exit(1);
}

/* The model with SPEv1p2, vperf, one VM with SPE of the policy, two vCPUs' buffers mapped. */
static void setup(enum vperf_spe_buffer buf)
{
	const struct vperf_vm_config vm = { .pmu_mode = VPERF_PMU_OFF,
					    .spe = true,
					    .spe_buffer = buf };
	struct sim_pe_config cfg;

	sim_spe_default_config(&cfg, 3);
	cfg.el2_trap_cycles = 0;
	bench_init_cfg(&cfg, BENCH_HOST_COUNTERS);
	sim_poke(0, VPERF_ENC_HCR_EL2, VPERF_BIT(4)); /* IMO: PMBIRQ to EL2 */
	sim_gic_enable_ppi(0, sim_line_intid(SIM_LINE_PMBIRQ), true);
	for (unsigned int i = 0; i < 2; i++)
		if (sim_mem_map_s1(SIM_REGIME_EL10, 0, BUF_VA(i), BUF_PA(i), BUF_SIZE, SIM_PERM_RW))
			fail("mapping a buffer");
	if (bench_vm_cfg(&vm))
		fail("vperf_vm_init");
	cur = 1;
}

/* Put the running vCPU, load the other one, in an exception to EL2. */
static void switch_once(void)
{
	cur ^= 1;
	sim_set_cpu(0);
	sim_enter_el2(0);
	bench_enter(bench_vcpu(cur), 0);
	sim_exit_el2(0);
	sim_set_el(1);
}

/* arm_spe_pmu_start in the loaded vCPU. */
static void guest_start(void)
{
	guest_write(PMBPTR_EL1, BUF_VA(cur));
	guest_write(PMBLIMITR_EL1, (BUF_VA(cur) + BUF_SIZE) | PMBLIMITR_E);
	guest_write(PMSFCR_EL1, 0);
	guest_write(PMSIRR_EL1, INTERVAL_1);
	isb();
	guest_write(PMSICR_EL1, 0);
	isb();
	guest_write(PMSCR_EL1, PMSCR_E1SPE);
	isb();
}

/* arm_spe_pmu_stop in the loaded vCPU, then its records decoded; returns how many. */
static unsigned int guest_consume(void)
{
	static uint8_t buf[BUF_SIZE];
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	unsigned int n = 0;
	uint64_t len;

	sim_guest_spe_disable_and_drain();
	len = guest_read(PMBPTR_EL1) - BUF_VA(cur);
	if (len > BUF_SIZE)
		fail("a write pointer outside the buffer");
	sim_mem_read(BUF_PA(cur), buf, len);
	vperf_spe_iter_init(&it, buf, len);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD)
		n++;
	if (it.nerrors)
		fail("an undecodable record");
	return n;
}

static void run_ops(unsigned int n)
{
	const struct sim_uop op = { .pc = 0x400000, .latency = 2, .type = SIM_UOP_OTHER };

	for (unsigned int i = 0; i < n; i++)
		guest_run(&op, 1);
}

/* Both vCPUs loaded once; with `active`, each starts sampling into its buffer. */
static void warm(bool active)
{
	for (unsigned int i = 0; i < 4; i++) {
		switch_once();
		if (active && i < 2)
			guest_start();
		run_ops(4);
	}
}

static void switch_cells(unsigned int p, unsigned int s)
{
	const struct sim_cpu *c = sim_cpu(0);

	setup(policies[p]);
	warm(s == 1);
	bench_clear();
	switch_once();
	bench_cell("spe-switch", state_names[s], policy_names[p],
		   "%llu (%llur + %lluw), %llu barriers",
		   (unsigned long long)(c->nr_reads + c->nr_writes),
		   (unsigned long long)c->nr_reads, (unsigned long long)c->nr_writes,
		   (unsigned long long)c->nr_barriers);
}

/* Two sampling guests switched LOST_SWITCHES times, each reading its buffer now and then as a
 * perf session would: every record the model sampled must be decoded by its guest. */
static void lost_cells(unsigned int p)
{
	const struct sim_spe_stats *st = sim_spe_stats(0);
	uint64_t decoded = 0;

	setup(policies[p]);
	warm(true);
	for (unsigned int i = 0; i < LOST_SWITCHES; i++) {
		switch_once();
		run_ops(LOST_OPS);
		if (i % (2 * LOST_CONSUME) < 2) {
			decoded += guest_consume();
			guest_start();
		}
	}
	for (unsigned int i = 0; i < 2; i++) {
		switch_once();
		decoded += guest_consume();
	}
	if (sim_error_count())
		fail(sim_error_at(0)->what);
	bench_cell("spe-lost", policy_names[p], "switches", "%u", LOST_SWITCHES);
	bench_cell("spe-lost", policy_names[p], "records sampled", "%llu",
		   (unsigned long long)st->filtrate);
	bench_cell("spe-lost", policy_names[p], "decoded by their guest", "%llu",
		   (unsigned long long)decoded);
	bench_cell("spe-lost", policy_names[p], "lost", "%llu",
		   (unsigned long long)(st->filtrate - decoded));
}

void bench_spe_counts(void)
{
	for (unsigned int p = 0; p < 2; p++)
		for (unsigned int s = 0; s < 2; s++)
			switch_cells(p, s);
	for (unsigned int p = 0; p < 2; p++)
		lost_cells(p);
}

static void step(unsigned int arg)
{
	(void)arg;
	switch_once();
}

/* One buffer full event of the loaded vCPU's hardware buffer, taken at EL2: the state of the
 * guest's virtual PMBSR and line reset first (outside what callgrind collects). */
static void irq_once(unsigned int arg)
{
	struct vperf_vcpu *v = &bench_vcpu(cur)->v;

	(void)arg;
	v->spe.reg[VPERF_VSPE_PMBSR] = 0;
	v->spe.irq_level = false;
	write_sysreg(PMBSR_S | BSC_FULL, PMBSR_EL1);
	sim_enter_el2(0);
	if (!vperf_handle_spe_irq(bench_pcpu(0)))
		fail("PMBIRQ not taken");
	sim_exit_el2(0);
	sim_set_el(1);
}

void bench_spe_callgrind(void)
{
	for (unsigned int p = 0; p < 2; p++) {
		for (unsigned int s = 0; s < 2; s++) {
			setup(policies[p]);
			warm(s == 1);
			bench_cg_measure(step, 0, SPE_ITERATIONS);
			bench_cg_manifest("cg-spe-switch", state_names[s], policy_names[p],
					  SPE_ITERATIONS);
		}
	}
	setup(VPERF_SPE_BUF_EL1_TRAPPED);
	warm(true);
	irq_once(0);
	bench_cg_measure(irq_once, 0, SPE_ITERATIONS);
	bench_cg_manifest("cg-spe-irq", "buffer full event, trapped PMB*", "vperf_handle_spe_irq",
			  SPE_ITERATIONS);
}
