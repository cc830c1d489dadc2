// SPDX-License-Identifier: MIT
/*
 * Round-robin scheduling of every vCPU on the one physical CPU, driven by the EL2 physical
 * timer (CNTHP, INTID 26). A switch saves the outgoing vCPU (EL1 registers, FP/SIMD, timer, list
 * registers) and calls vperf_vcpu_put(); the incoming one gets stage 2, its registers, then
 * vperf_vcpu_load() last, right before the ERET (docs/integration.md).
 */
#include "hyp.h"

#define CNTHP_CTL_ENABLE BIT(0)

static void arm_tick(void)
{
	write_sysreg(hyp.slice_ticks, cnthp_tval_el2);
	write_sysreg(CNTHP_CTL_ENABLE, cnthp_ctl_el2);
}

unsigned int vm_index(const struct vm *vm)
{
	return vm->id;
}

/* The runnable vCPU after cur in (VM, vCPU) order, cur itself if it is the only one, NULL if
 * none is left. */
static struct vcpu *pick_next(const struct vcpu *cur)
{
	unsigned int total = 0, start = 0;
	struct vcpu *all[MAX_VMS * MAX_VCPUS_PER_VM];

	for (unsigned int i = 0; i < hyp.nr_vms; i++)
		for (unsigned int j = 0; j < hyp.vms[i].nr_vcpus; j++) {
			if (&hyp.vms[i].vcpus[j] == cur)
				start = total + 1;
			all[total++] = &hyp.vms[i].vcpus[j];
		}
	for (unsigned int k = 0; k < total; k++) {
		struct vcpu *c = all[(start + k) % total];

		if (c->state == VCPU_RUNNABLE)
			return c;
	}
	return NULL;
}

static void put(struct vcpu *v)
{
	uint64_t t0;

	vcpu_ctx_save(v);
	vgic_save(v);
	t0 = pmu_host_el2_insns();
	if (hyp.mutant != MUT_NO_PUT && hyp.mutant != MUT_PASSTHROUGH)
		vperf_vcpu_put(&v->vperf);
	pmu_host_bench_vperf(false, t0);
}

static void load(struct vcpu *v)
{
	uint64_t t0;

	vcpu_ctx_restore(v);
	vgic_restore(v);
	t0 = pmu_host_el2_insns();
	if (hyp.mutant == MUT_PASSTHROUGH)
		write_sysreg(hyp.pcpu.caps.nr_counters, mdcr_el2); /* HPMN = N, no traps */
	else
		vperf_vcpu_load(&v->vperf, &hyp.pcpu);
	pmu_host_bench_vperf(true, t0);
	hyp.current = v;
	v->switches++;
}

static void __attribute__((noreturn)) all_done(void)
{
	hyp_log("all guests stopped after %lu ticks", hyp.ticks);
	pmu_host_report();
	hyp_log("done");
	hyp_shutdown();
}

void sched_switch_to(struct vcpu *next)
{
	struct vcpu *cur = hyp.current;

	if (next == cur)
		return;
	if (cur)
		put(cur);
	/* Between put and load the host owns the PMU: its reserved counters see this. */
	pmu_host_tick(cur);
	load(next);
}

static struct vcpu *switch_or_finish(struct vcpu *cur)
{
	struct vcpu *next = pick_next(cur);

	if (!next) {
		if (hyp.current) {
			put(hyp.current);
			pmu_host_tick(hyp.current); /* the last slice counts too */
		}
		hyp.current = NULL;
		all_done();
	}
	sched_switch_to(next);
	return next;
}

struct vcpu *sched_tick(struct vcpu *cur)
{
	uint64_t t0 = pmu_host_el2_insns();
	struct vcpu *next;

	hyp.ticks++;
	arm_tick();
	next = switch_or_finish(cur);
	if (next != cur)
		pmu_host_bench_switch(t0);
	return next;
}

struct vcpu *sched_yield(struct vcpu *cur)
{
	return switch_or_finish(cur);
}

struct vcpu *sched_stop_vm(struct vcpu *cur, const char *why)
{
	struct vm *vm = cur->vm;

	vuart_flush(vm);
	hyp_log("vm%u stopped: %s (exits %lu, switches %lu, irqs injected %lu)", vm->id, why,
		cur->exits, cur->switches, cur->gic.injected);
	for (unsigned int i = 0; i < vm->nr_vcpus; i++)
		vm->vcpus[i].state = VCPU_STOPPED;
	vm->running = false;
	return switch_or_finish(cur);
}

void sched_start(void)
{
	struct vcpu *first = pick_next(NULL);

	if (!first)
		all_done(); /* every VM was refused: report and power off */
	arm_tick();
	load(first);
	vgic_flush(first);
	guest_enter(&first->regs);
}
