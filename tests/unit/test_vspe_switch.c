// SPDX-License-Identifier: MIT
/*
 * vcpu_put / vcpu_load with SPE (docs/vspe.md) on the model, whose Profiling Buffer keeps
 * records until a DSB follows the PSB CSYNC that synchronized them and writes them through the
 * VMID current at that time: guests driving SPE as Linux's arm_spe_pmu driver does, switched
 * against each other, a PMU-only guest and an idle one, on one and two pCPUs, under seeded
 * schedules. Every record the model wrote must be in the right VM's buffer and consumed by its
 * driver; none may be lost outside an architected buffer management event.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/esr.h>

#include "vspe_util.h"

#define PAGE  0x1000ull
#define VMID0 1

static struct lx_spe lx[2];

/* SPE register accesses and PSB CSYNCs by vperf on cpu since its trace held `since` events. */
static unsigned int spe_accesses(unsigned int cpu, uint64_t since)
{
	uint64_t first, end;
	unsigned int n = 0;

	assert_true(sim_trace_since(cpu, since, &first, &end));
	for (uint64_t i = first; i < end; i++) {
		const struct sim_event *e = sim_trace_at(cpu, i);
		const struct vperf_sysreg_desc *d = vperf_sysreg_lookup(e->enc);

		if (e->kind == SIM_PSB_CSYNC)
			n++;
		else if ((e->kind == SIM_READ || e->kind == SIM_WRITE) && d &&
			 (d->feat == VPERF_FEAT_SPE || d->feat == VPERF_FEAT_SPEV1P2))
			n++;
	}
	return n;
}

/* Run vc on cpu, first putting it where it ran if that is another pCPU (a migration). */
static void schedule(struct hv_vcpu *vc, unsigned int cpu)
{
	for (unsigned int other = 0; other < SIM_MAX_CPUS; other++)
		if (other != cpu && hv.running[other] == vc)
			hv_leave(other);
	hv_enter(vc, cpu);
}

/* A vCPU whose buffer is off costs no SPE register access at switch: never enabled, or
 * disabled before its last put (one put drains it, then nothing). */
static void test_lazy(void **state)
{
	struct hv_vcpu *a, *b;
	uint64_t before;

	(void)state;
	vs_init(1, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 0);
	hv_enter(a, 0);
	hv_enter(b, 0);
	before = sim_cpu(0)->trace_len;
	for (unsigned int i = 0; i < 10; i++)
		hv_enter(i % 2 ? b : a, 0);
	assert_int_equal(spe_accesses(0, before), 0);
	lx[0] = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	hv_enter(a, 0);
	lx_start(&lx[0]);
	lx_run(&lx[0], a, 600);
	lx_stop(&lx[0]);
	hv_enter(b, 0); /* a's put drains once */
	hv_enter(a, 0);
	before = sim_cpu(0)->trace_len;
	for (unsigned int i = 0; i < 10; i++)
		hv_enter(i % 2 ? b : a, 0);
	assert_int_equal(spe_accesses(0, before), 0);
	assert_int_equal(lx_records(&lx[0]), sim_spe_stats(0)->written);
	assert_true(lx_records(&lx[0]) >= 2);
	assert_int_equal(sim_error_count(), 0);
}

/* After put nothing of the guest is left live: buffer, sampling and events off. */
static void test_put_leaves_nothing(void **state)
{
	struct vperf_vm_config plain = { .pmu_mode = VPERF_PMU_OFF };
	const struct sim_uop op = {
		.pc = 0x1000, .vaddr = 0x2000, .latency = 4, .type = SIM_UOP_LOAD, .size_log2 = 3
	};
	struct hv_vcpu *a, *c;
	uint64_t written;

	(void)state;
	vs_init(1, 0, 3);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(hv_vm(1, &plain), VPERF_OK);
	a = hv_vcpu(0, 0);
	c = hv_vcpu(1, 1);
	lx[0] = (struct lx_spe){ .vm = 0,
				 .size = V_BUF_SIZE,
				 .pmscr = V_PMSCR_E1SPE | V_PMSCR_E0SPE };
	hv_enter(a, 0);
	lx_start(&lx[0]);
	lx_run(&lx[0], a, 1000);
	hv_enter(c, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1), 0);
	assert_int_equal(sim_spe_pending(0), 0);
	written = sim_spe_stats(0)->written;
	for (unsigned int i = 0; i < 2000; i++)
		guest_run(&op, 1);
	sim_set_el(0);
	for (unsigned int i = 0; i < 2000; i++)
		guest_run(&op, 1);
	assert_int_equal(sim_spe_stats(0)->written, written);
	hv_enter(a, 0);
	lx_stop(&lx[0]);
	assert_int_equal(lx_records(&lx[0]), written);
	assert_int_equal(sim_error_count(), 0);
}

/* A hardware PMBSR_EL1.S left by someone else (the host, a previous owner) does not keep the
 * guest's buffer off: load clears it (SPE 3.5: S = 1 disables the buffer). */
static void test_stale_pmbsr(void **state)
{
	struct hv_vcpu *a, *b;
	uint64_t written;

	(void)state;
	vs_init(1, 0, 5);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 0);
	lx[0] = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	hv_enter(a, 0);
	lx_start(&lx[0]);
	lx_run(&lx[0], a, 600);
	hv_enter(b, 0);
	written = sim_spe_stats(0)->written;
	sim_poke(0, VPERF_ENC_PMBSR_EL1, V_PMBSR_S | 1);
	hv_enter(a, 0);
	lx_run(&lx[0], a, 3000);
	lx_stop(&lx[0]);
	assert_true(sim_spe_stats(0)->written >= written + 10);
	assert_int_equal(lx[0].irqs, 0);
	assert_int_equal(lx_records(&lx[0]), sim_spe_stats(0)->written);
	assert_int_equal(sim_error_count(), 0);
}

/* What a switch with a live buffer costs (docs/vspe.md, "Switching"), two VMs of the same
 * sampling controls and policy: put = PSB CSYNC, DSB, ISB, PMBSR/PMBPTR/PMSICR read, PMBLIMITR
 * and PMSCR_EL1 written, ISB, DSB; load = PMSICR, PMBPTR, PMBSR, PMBLIMITR, PMSCR_EL1, the
 * sampling controls and PMSCR_EL2 being what the pCPU holds already (virt/vspe/hwctl.h). The
 * untrapped policy reads PMBLIMITR once more at put and loads with E2PB = 0b11 in its one
 * MDCR_EL2 write. The MDCR_EL2 write at each put is the vPMU's (a SELF VM pauses the host's
 * counters). The same on SPEv1, v1p1 and v1p2 (PMSNEVFR_EL1), within the budget of 12 SPE
 * register accesses and one PSB CSYNC per switch. */
static void switch_costs(uint8_t pmsver)
{
	struct hv_vcpu *vc[2];
	uint64_t t, t0;

	vs_init(pmsver, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	for (unsigned int i = 0; i < 2; i++) {
		vc[i] = hv_vcpu(i, i);
		lx[i] = (struct lx_spe){ .vm = i, .size = V_BUF_SIZE };
		hv_enter(vc[i], 0);
		lx_start(&lx[i]);
		lx_run(&lx[i], vc[i], 300);
	}
	t0 = t = sim_cpu(0)->trace_len;
	vperf_vcpu_put(&vc[1]->v); /* untrapped */
	vs_expect_cost(vs_cost_since(0, t), 4, 2, 5, 1);
	t = sim_cpu(0)->trace_len;
	vperf_vcpu_load(&vc[0]->v, &hv.pcpu[0]); /* trapped */
	vs_expect_cost(vs_cost_since(0, t), 0, 5, 0, 1);
	assert_true(spe_accesses(0, t0) <= 12 + 1);
	t0 = t = sim_cpu(0)->trace_len;
	vperf_vcpu_put(&vc[0]->v);
	vs_expect_cost(vs_cost_since(0, t), 3, 2, 5, 1);
	t = sim_cpu(0)->trace_len;
	vperf_vcpu_load(&vc[1]->v, &hv.pcpu[0]);
	vs_expect_cost(vs_cost_since(0, t), 0, 5, 0, 1);
	assert_true(spe_accesses(0, t0) <= 12 + 1);
	hv.running[0] = vc[1];
}

static void test_switch_costs(void **state)
{
	(void)state;
	for (uint8_t pmsver = 1; pmsver <= 3; pmsver++)
		switch_costs(pmsver);
}

struct sched_cfg {
	unsigned int cpus;   /* pCPUs the vCPUs run on */
	uint64_t size;	     /* each SPE guest's buffer */
	unsigned int seeds;  /* schedules */
	unsigned int slices; /* per schedule */
	bool host;	     /* each pCPU's host samples itself into its own buffer between them */
};

/* Guests 0 (trapped buffer) and 1 (untrapped) sample; guest 2 only counts with its vPMU. */
static void run_schedule(const struct sched_cfg *cfg, uint64_t seed)
{
	struct vperf_vm_config pmu_only = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 2 };
	const struct sim_uop other = { .pc = 0x9000, .latency = 2, .type = SIM_UOP_OTHER };
	struct hv_vcpu *vc[3];
	uint64_t written = 0, discarded = 0, host = 0;

	if (cfg->host)
		vs_init_host(3, seed);
	else
		vs_init(3, 0, seed);
	vperf_pmu_filter_allow_all(&pmu_only.filter);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	assert_int_equal(hv_vm(2, &pmu_only), VPERF_OK);
	for (unsigned int i = 0; i < 3; i++)
		vc[i] = hv_vcpu(i, i);
	srand((unsigned int)seed);
	for (unsigned int i = 0; i < 2; i++) {
		lx[i] = (struct lx_spe){ .vm = i, .size = cfg->size };
		schedule(vc[i], i % cfg->cpus);
		lx_probe();
		lx_start(&lx[i]);
	}
	for (unsigned int s = 0; s < cfg->slices; s++) {
		unsigned int v = (unsigned int)rand() % (cfg->host ? 4 : 3);
		unsigned int n = 50 + (unsigned int)rand() % 700;
		unsigned int cpu = (unsigned int)rand() % cfg->cpus;

		if (v == 3) { /* the host alone on the pCPU */
			hv_leave(cpu);
			vs_host_run(n);
			continue;
		}
		schedule(vc[v], cpu);
		if (v == 2) {
			guest_write(PMCNTENSET_EL0, 1);
			guest_write(PMCR_EL0, 1);
			for (unsigned int j = 0; j < n; j++)
				guest_run(&other, 1);
		} else {
			lx_run(&lx[v], vc[v], n);
		}
	}
	for (unsigned int i = 0; i < 2; i++) {
		schedule(vc[i], 0);
		lx_stop(&lx[i]);
		assert_int_equal(lx[i].fatal + lx[i].truncated + lx[i].spurious, 0);
	}
	for (unsigned int cpu = 0; cpu < (cfg->host ? SIM_MAX_CPUS : cfg->cpus); cpu++) {
		hv_leave(cpu);
		host += cfg->host ? vs_host_records(cpu) : 0;
		written += sim_spe_stats(cpu)->written;
		discarded += sim_spe_stats(cpu)->discarded;
	}
	assert_int_equal(lx_records(&lx[0]) + lx_records(&lx[1]) + host, written);
	if (cfg->host)
		assert_true(host > 0);
	/* The stats count every byte of them (the write pointer's advance), trapped or not: the
	 * Linux-like driver reads PMBPTR_EL1 before it moves it. */
	assert_int_equal(hv.vm[0].stats.spe_bytes, lx[0].len);
	assert_int_equal(hv.vm[1].stats.spe_bytes, lx[1].len);
	/* Each event reached its guest once, and no PMBIRQ was taken twice in a row (a storm). */
	assert_int_equal(lx[0].irqs, hv.vm[0].stats.spe_events);
	assert_int_equal(lx[1].irqs, hv.vm[1].stats.spe_events);
	assert_int_equal(hv.vm[0].stats.spe_dl + hv.vm[1].stats.spe_dl, 0);
	assert_true(hv.vm[0].stats.spe_live_puts + hv.vm[1].stats.spe_live_puts >= 2);
	assert_true(hv.max_irq_burst <= 1);
	/* Records are dropped only by a buffer management event (SPE 3.5), here only buffer
	 * full. */
	if (!lx[0].irqs && !lx[1].irqs)
		assert_int_equal(discarded, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* VSPE_SCHEDULES=n in the environment runs n seeds instead of 100 (long runs: docs/vspe.md). */
static unsigned int seeds(void)
{
	const char *env = getenv("VSPE_SCHEDULES");

	return env && *env ? (unsigned int)strtoul(env, NULL, 0) : 100;
}

static void test_schedules_one_pcpu(void **state)
{
	const struct sched_cfg cfg = {
		.cpus = 1, .size = V_BUF_SIZE, .seeds = seeds(), .slices = 80
	};

	(void)state;
	for (uint64_t seed = 1; seed <= cfg.seeds; seed++)
		run_schedule(&cfg, seed);
}

static void test_schedules_two_pcpus(void **state)
{
	const struct sched_cfg cfg = {
		.cpus = 2, .size = V_BUF_SIZE, .seeds = seeds(), .slices = 80
	};

	(void)state;
	for (uint64_t seed = 1; seed <= cfg.seeds; seed++)
		run_schedule(&cfg, seed);
}

/* The same with each pCPU's host profiling itself into its own buffer, parked around the vSPE
 * guests and running between them: every record in its owner's buffer. */
static void test_schedules_host_buffer(void **state)
{
	for (unsigned int cpus = 1; cpus <= 2; cpus++) {
		const struct sched_cfg cfg = { .cpus = cpus,
					       .size = V_BUF_SIZE,
					       .seeds = seeds() / 2,
					       .slices = 80,
					       .host = true };

		(void)state;
		for (uint64_t seed = 1; seed <= cfg.seeds; seed++)
			run_schedule(&cfg, seed);
	}
}

/* A 4 KB buffer: each guest fills it many times and re-arms from its interrupt handler. */
static void test_schedules_buffer_full(void **state)
{
	const struct sched_cfg cfg = { .cpus = 2, .size = 0x1000, .seeds = 16, .slices = 300 };
	unsigned int irqs = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= cfg.seeds; seed++) {
		run_schedule(&cfg, seed);
		irqs += lx[0].irqs + lx[1].irqs;
	}
	assert_true(irqs >= 2 * cfg.seeds);
}

/*
 * A vCPU whose guest samples into a live buffer is put and loaded again on the same pCPU, with
 * no host buffer of its own there (so MDCR_EL2 may well be unchanged between the two) and no SPE
 * register access in between: the load must give the buffer back to the hardware, or profiling
 * stops with the buffer still enabled in the guest's view (SPE 3.6: nothing is sampled while
 * PMBLIMITR_EL1.E = 0). Each buffer policy, with and without a vPMU, eager and lazy puts.
 */
static void resume_samples(enum vperf_spe_buffer buf, enum vperf_pmu_mode mode, bool lazy)
{
	const struct vperf_vm_config spe = { .spe = true, .spe_buffer = buf };
	struct hv_vcpu *vc;
	uint64_t before;

	vs_init(1, 0, 7);
	hv.lazy_put = lazy;
	assert_int_equal(vs_vm_mode(0, &spe, true, mode), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx[0] = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_probe();
	lx_start(&lx[0]);
	lx_run(&lx[0], vc, 257 * 8);
	hv_leave(0);
	hv_enter(vc, 0);
	before = sim_spe_stats(0)->written;
	lx_run(&lx[0], vc, 257 * 8);
	lx_stop(&lx[0]); /* its drain: every record sampled since the load in memory */
	assert_true(sim_spe_stats(0)->written >= before + 6);
	assert_int_equal(lx_records(&lx[0]), sim_spe_stats(0)->written);
	assert_int_equal(sim_error_count(), 0);
}

static void test_resume_keeps_sampling(void **state)
{
	static const enum vperf_spe_buffer bufs[] = { VPERF_SPE_BUF_EL1_TRAPPED,
						      VPERF_SPE_BUF_EL1 };

	(void)state;
	for (unsigned int b = 0; b < 2; b++)
		for (unsigned int lazy = 0; lazy < 2; lazy++) {
			resume_samples(bufs[b], VPERF_PMU_HV, lazy);
			resume_samples(bufs[b], VPERF_PMU_OFF, lazy);
		}
}

static struct lx_spe drv;

/*
 * An untrapped guest (E2PB = 0b11) whose buffer's next page the hypervisor took back at stage 2:
 * the record in flight at put faults on its first byte (DL = 0, SPE 3.5.3), vperf maps the page
 * and restarts the buffer itself. Nothing of it reaches the guest: no interrupt, PMBSR_EL1 reads
 * 0 and the buffer goes on, untrapped again, with every record in the guest's buffer.
 */
static void test_untrapped_put_with_stage2_fault(void **state)
{
	struct hv_vcpu *vc;
	uint64_t ptr;

	(void)state;
	vs_init(1, 0, 11);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, false), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	drv = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_probe();
	lx_start(&drv);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	lx_run(&drv, vc, 2000);
	ptr = sim_peek(0, VPERF_ENC_PMBPTR_EL1);
	sim_mem_unmap_s2(VMID0, V_BUF_IPA + ((ptr - V_BUF_VA) & ~(PAGE - 1)), V_BUF_SIZE);
	for (unsigned int i = 0; i < 40 && !hv.vm[0].stats.spe_s2_fixed; i++) {
		lx_run(&drv, vc, 300);
		hv_leave(0);
		hv_enter(vc, 0);
	}
	assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 1);
	assert_int_equal(hv.spe_irqs, 0); /* taken at put, not at a PMBIRQ */
	assert_false(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	lx_run(&drv, vc, 3000);
	lx_stop(&drv);
	assert_int_equal(drv.irqs, 0);
	assert_int_equal(hv.vm[0].stats.spe_events, 0);
	assert_int_equal(lx_records(&drv), sim_spe_stats(0)->written);
	assert_int_equal(sim_error_count(), 0);
}

/* PMBLIMITR_EL1.FM (here the reserved 0b11; 0b10 is discard mode from SPEv1p2, SPE 4.3.2) written
 * by an untrapped guest is part of its state: it reads it back after a put and a load. */
static void test_untrapped_fm_survives_put(void **state)
{
	const uint64_t limitr = (V_BUF_VA + V_BUF_SIZE) | (3ull << 1) | V_PMBLIMITR_E;
	struct hv_vcpu *vc;

	(void)state;
	vs_init(3, 0, 2);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	guest_write(PMBPTR_EL1, V_BUF_VA);
	guest_write(PMBLIMITR_EL1, limitr);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	hv_enter(hv_vcpu(1, 1), 0);
	hv_enter(vc, 0);
	assert_int_equal(guest_read(PMBLIMITR_EL1), limitr);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lazy),
		cmocka_unit_test(test_resume_keeps_sampling),
		cmocka_unit_test(test_put_leaves_nothing),
		cmocka_unit_test(test_stale_pmbsr),
		cmocka_unit_test(test_switch_costs),
		cmocka_unit_test(test_schedules_one_pcpu),
		cmocka_unit_test(test_schedules_two_pcpus),
		cmocka_unit_test(test_schedules_host_buffer),
		cmocka_unit_test(test_schedules_buffer_full),
		cmocka_unit_test(test_untrapped_put_with_stage2_fault),
		cmocka_unit_test(test_untrapped_fm_survives_put),
	};

	/* VSPE_TEST_FILTER=name runs only the matching tests (long runs, docs/vspe.md). */
	if (getenv("VSPE_TEST_FILTER"))
		cmocka_set_test_filter(getenv("VSPE_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
