// SPDX-License-Identifier: MIT
/*
 * The benchmark's hypervisor on the simulated PE, after tests/unit/hv.c: vperf linked the way an
 * EL2 hypervisor links it, one VM with up to BENCH_VCPUS vCPUs on BENCH_CPUS pCPUs. Guest
 * MSR/MRS that trap reach vperf_handle_sysreg, or the always-trap emulation in its place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <vperf/mdcr.h>

#include "bench.h"

static struct {
	struct vperf_pcpu pcpu[BENCH_CPUS];
	struct vperf_vm vm;
	struct bench_vcpu vcpu[BENCH_VCPUS];
	struct bench_vcpu *running[BENCH_CPUS];
	bool emulation;
	uint64_t traps0[BENCH_CPUS], undefs0[BENCH_CPUS];
} hv;

/* The ops: what a real hypervisor does in a few instructions. Named bench_op_* so that the
 * callgrind report can leave them out of vperf's cost. */
static void bench_op_inject_undef(void *hv_vcpu)
{
	(void)hv_vcpu;
	sim_inject_undef();
}

static void bench_op_advance_pc(void *hv_vcpu)
{
	(void)hv_vcpu;
	sim_advance_pc();
}

static unsigned int bench_op_guest_el(void *hv_vcpu)
{
	(void)hv_vcpu;
	return sim_trap_el();
}

static void bench_op_set_irq_line(void *hv_vcpu, uint32_t intid, bool level)
{
	(void)hv_vcpu;
	(void)intid;
	(void)level;
}

const struct vperf_hyp_ops bench_hyp_ops = {
	.inject_undef = bench_op_inject_undef,
	.advance_pc = bench_op_advance_pc,
	.guest_el = bench_op_guest_el,
	.set_irq_line = bench_op_set_irq_line,
};

static void fail(const char *what, int err)
{
	fprintf(stderr, "vperf-bench: %s failed (%s)\n", what, bench_err_name(err));
	exit(1);
}

static void sysreg_trap(void *ctx, unsigned int cpu, uint64_t esr, uint64_t gprs[31])
{
	struct bench_vcpu *vc = hv.running[cpu];

	(void)ctx;
	if (hv.emulation)
		naive_handle_sysreg(esr, gprs);
	else if (!vc || vperf_handle_sysreg(&vc->v, esr, gprs) == VPERF_TRAP_NOT_MINE)
		sim_inject_undef();
}

/* PMBIRQ (SPE scenarios): vperf's entry, then the priority drop and deactivation. */
static void irq(void *ctx, unsigned int cpu, uint32_t intid)
{
	(void)ctx;
	if (intid == sim_line_intid(SIM_LINE_PMBIRQ))
		vperf_handle_spe_irq(&hv.pcpu[cpu]);
	sim_gic_eoi(cpu, intid);
}

const struct sim_core_profile *bench_profile;

/* The model's default PE, or bench_profile's PMU (its SPE left out, as in the default PE, so
 * that only the PMU differs): PMUVer, AArch32 at EL0, FGT, HPMN0, MT. */
static void init_pcpus(const struct sim_pe_config *cfg, const struct vperf_pcpu_config *pcfg);

void bench_init(const struct bench_mode *m, uint8_t pe_counters, uint8_t host_counters)
{
	bool second = m && m->part == VPERF_PART_SECOND;
	const struct vperf_pcpu_config pcfg = {
		.host_counters = second ? BENCH_SECOND_HOST_COUNTERS : host_counters,
		.host_first_range = second,
		.host_el1 = second,
		.hyp_writes_mdcr = second && m->hyp_mdcr,
	};
	struct sim_pe_config cfg;

	if (bench_profile) {
		sim_profile_config(bench_profile, &cfg);
		cfg.pmsver = 0;
		cfg.pmsidr = cfg.pmbidr = 0;
	} else {
		sim_default_config(&cfg);
	}
	cfg.nr_counters = second ? BENCH_SECOND_PE_COUNTERS : pe_counters;
	init_pcpus(&cfg, &pcfg);
}

struct vperf_pcpu *bench_pcpu(unsigned int cpu)
{
	return &hv.pcpu[cpu % BENCH_CPUS];
}

void bench_init_cfg(const struct sim_pe_config *cfg, uint8_t host_counters)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = host_counters };

	init_pcpus(cfg, &pcfg);
}

static void init_pcpus(const struct sim_pe_config *cfg, const struct vperf_pcpu_config *pcfg)
{
	const struct sim_handlers handlers = { .sysreg_trap = sysreg_trap, .irq = irq };
	int err;

	memset(&hv, 0, sizeof(hv));
	sim_model_init(cfg);
	sim_set_handlers(&handlers);
	err = vperf_init(&bench_hyp_ops);
	if (err)
		fail("vperf_init", err);
	for (unsigned int cpu = 0; cpu < BENCH_CPUS; cpu++) {
		sim_set_cpu(cpu);
		err = vperf_pcpu_init(&hv.pcpu[cpu], pcfg);
		if (err)
			fail("vperf_pcpu_init", err);
	}
	sim_set_cpu(0);
}

int bench_vm(const struct bench_mode *m, uint8_t nr_counters)
{
	struct vperf_vm_config cfg = { .pmu_mode = m->pmu,
				       .partition = m->part,
				       .nr_counters = nr_counters };

	vperf_pmu_filter_allow_all(&cfg.filter);
	return bench_vm_cfg(&cfg);
}

int bench_vm_cfg(const struct vperf_vm_config *cfg)
{
	int err = vperf_vm_init(&hv.vm, cfg, NULL);

	for (unsigned int i = 0; i < BENCH_VCPUS && !err; i++)
		err = vperf_vcpu_init(&hv.vcpu[i].v, &hv.vm, &hv.vcpu[i]);
	return err;
}

struct bench_vcpu *bench_vcpu(unsigned int i)
{
	return &hv.vcpu[i % BENCH_VCPUS];
}

/* Every put is lazy, as in the reference hypervisor (tests/qemu/hyp/sched.c): a vCPU that moves
 * to another pCPU has the one it was parked on flushed first (docs/integration.md). */
void bench_leave(unsigned int cpu)
{
	sim_set_cpu(cpu);
	if (hv.running[cpu])
		vperf_vcpu_put_lazy(&hv.running[cpu]->v);
	hv.running[cpu] = NULL;
	/* The hypervisor's own write at its exit, outside vperf's counts. */
	if (hv.pcpu[cpu].cfg.hyp_writes_mdcr)
		sim_poke(cpu, VPERF_ENC_MDCR_EL2, hv.pcpu[cpu].host_mdcr);
}

void bench_enter(struct bench_vcpu *vc, unsigned int cpu)
{
	if (hv.running[cpu] != vc) {
		bench_leave(cpu);
		if (vperf_vcpu_parked(&vc->v) && vc->cpu != cpu) {
			sim_set_cpu(vc->cpu);
			vperf_pcpu_flush(&hv.pcpu[vc->cpu]);
			sim_set_cpu(cpu);
		}
		vperf_vcpu_load(&vc->v, &hv.pcpu[cpu]);
		/* The hypervisor's own write at its entry, outside vperf's counts. */
		if (hv.pcpu[cpu].cfg.hyp_writes_mdcr)
			sim_poke(cpu, VPERF_ENC_MDCR_EL2, vperf_pcpu_mdcr(&hv.pcpu[cpu]));
		hv.running[cpu] = vc;
		vc->cpu = cpu;
	}
	sim_set_cpu(cpu);
	sim_set_el(1);
}

/* No vperf: every PMU access of EL1/EL0 traps (TPM, TPMCR) and every counter is the guest's
 * (HPMN = N). */
void bench_use_emulation(void)
{
	uint64_t mdcr = MDCR_EL2_TPM | MDCR_EL2_TPMCR |
			(uint64_t)sim_model_config()->nr_counters << MDCR_EL2_HPMN_SHIFT;

	hv.emulation = true;
	naive_emul_reset();
	for (unsigned int cpu = 0; cpu < BENCH_CPUS; cpu++) {
		sim_set_cpu(cpu);
		write_sysreg(mdcr, MDCR_EL2);
	}
	sim_set_cpu(0);
	sim_set_el(1);
}

void bench_clear(void)
{
	for (unsigned int cpu = 0; cpu < BENCH_CPUS; cpu++) {
		sim_clear_counts(cpu);
		hv.traps0[cpu] = sim_guest_stats(cpu)->el2_traps;
		hv.undefs0[cpu] = sim_guest_stats(cpu)->undefs;
	}
}

static uint64_t mdcr_writes(unsigned int cpu)
{
	const struct sim_event *e;
	uint64_t n = 0;

	if (sim_cpu(cpu)->trace_len > SIM_TRACE_LEN)
		fail("counting MDCR_EL2 writes (trace overflow)", VPERF_ENOSPC);
	for (uint64_t i = 0; (e = sim_trace_at(cpu, i)) != NULL; i++)
		if (e->kind == SIM_WRITE && e->enc == VPERF_ENC_MDCR_EL2)
			n++;
	return n;
}

void bench_count(struct bench_count *c)
{
	memset(c, 0, sizeof(*c));
	for (unsigned int cpu = 0; cpu < BENCH_CPUS; cpu++) {
		const struct sim_cpu *s = sim_cpu(cpu);

		c->reads += s->nr_reads;
		c->writes += s->nr_writes;
		c->mdcr += mdcr_writes(cpu);
		c->traps += sim_guest_stats(cpu)->el2_traps - hv.traps0[cpu];
		c->undefs += sim_guest_stats(cpu)->undefs - hv.undefs0[cpu];
	}
	if (sim_error_count()) {
		fprintf(stderr, "vperf-bench: the model reports: %s\n", sim_error_at(0)->what);
		exit(1);
	}
}

uint64_t bench_traps(void)
{
	uint64_t n = 0;

	for (unsigned int cpu = 0; cpu < BENCH_CPUS; cpu++)
		n += sim_guest_stats(cpu)->el2_traps - hv.traps0[cpu];
	return n;
}

const char *bench_err_name(int err)
{
	switch (err) {
	case VPERF_OK:
		return "ok";
	case VPERF_EINVAL:
		return "VPERF_EINVAL";
	case VPERF_ENOSPC:
		return "VPERF_ENOSPC";
	case VPERF_ENODEV:
		return "VPERF_ENODEV";
	case VPERF_EBUSY:
		return "VPERF_EBUSY";
	case VPERF_ENOTSUP:
		return "VPERF_ENOTSUP";
	default:
		return "error";
	}
}
