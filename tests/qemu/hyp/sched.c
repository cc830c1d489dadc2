// SPDX-License-Identifier: MIT
/*
 * Scheduling: one round-robin scheduler per physical CPU, driven by its EL2 physical timer
 * (CNTHP, INTID 26). Each vCPU has a home pCPU (dealt round the pCPUs at creation, pcpus=N) and
 * runs only there; with migrate_every=N a vCPU's home moves to the next pCPU after N slices, so
 * it is put on one pCPU and loaded on another (docs/vpmu.md: its PMU state travels in its
 * vperf_vcpu). A switch saves the outgoing vCPU (EL1 registers, FP/SIMD, timer, list registers)
 * and calls vperf_vcpu_put(); the incoming one gets stage 2, its registers, then
 * vperf_vcpu_load() with this pCPU's vperf_pcpu last, right before the ERET
 * (docs/integration.md). Everything here runs under hyp.lock; a pCPU with nothing to run spins
 * with the lock dropped until a vCPU becomes runnable on it or every guest is done.
 */
#include "hyp.h"

#define CNTHP_CTL_ENABLE BIT(0)
#define PSCI_CPU_ON_64	 0xc4000003u

/* Stacks of the secondary pCPUs (head.S takes pcpu_stacks[cpu + 1] as the top; [0] is unused
 * below pCPU 1's, the boot CPU has boot_stack). */
uint8_t pcpu_stacks[MAX_PCPUS][PCPU_STACK] __attribute__((aligned(16)));

static uint64_t migrations;

static void arm_tick(void)
{
	write_sysreg(hyp.slice_ticks, cnthp_tval_el2);
	write_sysreg(CNTHP_CTL_ENABLE, cnthp_ctl_el2);
}

/* Right before the ERET into a guest: a slice starts when a vCPU was loaded or the last one
 * ended, and is measured from here, so the EL2 work of the switch (some 1600 instructions, which
 * under -icount shift=8 outlast a 200 us slice) is never charged to the guest: arming the timer
 * at the tick left the next tick already pending at the ERET, and no guest ran. Writing TVAL
 * also withdraws the expired timer's interrupt (the CNTHP condition is a level). */
void sched_enter(void)
{
	struct pcpu *pc = this_pcpu();

	if (pc->new_slice) {
		pc->new_slice = false;
		arm_tick();
	}
}

unsigned int vm_index(const struct vm *vm)
{
	return vm->id;
}

/* Whether pc may run c now: runnable, not blocked in WFI (or woken), at home there, and not
 * loaded on another pCPU. */
static bool eligible(const struct vcpu *c, const struct pcpu *pc)
{
	return c->state == VCPU_RUNNABLE && c->home == pc->id &&
	       (c->on_pcpu < 0 || c->on_pcpu == (int)pc->id) && (!c->blocked || vcpu_wakeup(c));
}

/* The vCPU pc may run after cur in (VM, vCPU) order, cur itself if it is the only one, NULL if
 * none. */
static struct vcpu *pick_next(const struct pcpu *pc, const struct vcpu *cur)
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

		if (eligible(c, pc)) {
			c->blocked = false;
			return c;
		}
	}
	return NULL;
}

/* Whether some guest still has work: a runnable vCPU, or one still loaded on a pCPU. */
static bool any_work(void)
{
	for (unsigned int i = 0; i < hyp.nr_vms; i++)
		for (unsigned int j = 0; j < hyp.vms[i].nr_vcpus; j++)
			if (hyp.vms[i].vcpus[j].state == VCPU_RUNNABLE)
				return true;
	for (unsigned int c = 0; c < hyp.nr_pcpus; c++)
		if (hyp.pcpus[c].current)
			return true;
	return false;
}

static void put(struct vcpu *v)
{
	uint64_t t0;
	bool lazy, call;

	vcpu_ctx_save(v);
	vgic_save(v);
	/* A runnable vCPU whose home stays this pCPU is loaded here next, and nothing else reads
	 * its state meanwhile (PSCI CPU_ON resets only a vCPU that is off): its counters may stay
	 * parked in this pCPU's hardware. One that migrates or stops gets the full save
	 * (docs/integration.md, "Lazy put"). Decided before the measuring: it is the
	 * hypervisor's work, not vperf's. */
	lazy = v->state == VCPU_RUNNABLE && v->home == this_pcpu()->id;
	call = hyp.mutant != MUT_NO_PUT && hyp.mutant != MUT_PASSTHROUGH;
	pmu_host_bench_vm(v);
	t0 = pmu_host_el2_insns();
	if (call && lazy)
		vperf_vcpu_put_lazy(&v->vperf);
	else if (call)
		vperf_vcpu_put(&v->vperf);
	pmu_host_bench_vperf(false, t0);
	v->on_pcpu = -1;
}

static void load(struct vcpu *v)
{
	struct pcpu *pc = this_pcpu();
	struct vperf_pcpu *vp;
	uint64_t t0;
	bool passthrough;

	if (v->switches && v->last_pcpu != pc->id)
		migrations++;
	v->last_pcpu = pc->id;
	v->on_pcpu = (int)pc->id;
	vcpu_ctx_restore(v);
	vgic_restore(v);
	passthrough = hyp.mutant == MUT_PASSTHROUGH;
	vp = &pc->vperf;
	pmu_host_bench_vm(v);
	t0 = pmu_host_el2_insns();
	if (passthrough)
		write_sysreg(vp->caps.nr_counters, mdcr_el2); /* HPMN = N, no traps */
	else
		vperf_vcpu_load(&v->vperf, vp);
	pmu_host_bench_vperf(true, t0);
	pc->current = v;
	pc->new_slice = true;
	v->switches++;
}

static void __attribute__((noreturn)) all_done(void)
{
	hyp_log("all guests stopped after %lu ticks", hyp.ticks);
	if (hyp.nr_pcpus > 1) {
		for (unsigned int c = 0; c < hyp.nr_pcpus; c++)
			hyp_log("pCPU %u: %lu ticks", c, hyp.pcpus[c].ticks);
		/* The vCPUs were put on one pCPU and loaded on another (migrate_every=N). */
		printf("RESULT host smp-migrations %s %lu vCPU migrations over %u pCPUs\n",
		       !hyp.migrate_every || migrations ? "PASS" : "FAIL", migrations,
		       hyp.nr_pcpus);
	}
	pmu_host_report();
	hyp_log("done");
	hyp_shutdown();
}

/* With nothing to run here (pc->current is NULL): wait, the lock dropped, for a vCPU this
 * pCPU may run, and load it; the pCPU that finds every guest done reports and powers off. */
static struct vcpu *idle(struct pcpu *pc)
{
	for (;;) {
		struct vcpu *next = pick_next(pc, NULL);

		if (next) {
			load(next);
			return next;
		}
		if (!any_work())
			all_done();
		hyp_unlock();
		for (unsigned int i = 0; i < 64; i++)
			__asm__ volatile("yield" ::: "memory");
		hyp_lock();
	}
}

void sched_switch_to(struct vcpu *next)
{
	struct vcpu *cur = this_pcpu()->current;

	if (next == cur)
		return;
	if (cur)
		put(cur);
	/* Between put and load the host owns the PMU: its reserved counters see this. */
	pmu_host_tick(cur);
	load(next);
}

/* `make bench` (guest mark 3): the running vCPU put and loaded again on its pCPU, as when it
 * blocks and is the next to run. */
void sched_reswitch(struct vcpu *v)
{
	put(v);
	load(v);
}

static struct vcpu *switch_or_finish(struct vcpu *cur)
{
	struct pcpu *pc = this_pcpu();
	struct vcpu *next = pick_next(pc, cur);

	if (!next) {
		if (pc->current) {
			put(pc->current);
			pmu_host_tick(pc->current); /* the last slice counts too */
		}
		pc->current = NULL;
		pmu_host_idle();
		return idle(pc);
	}
	sched_switch_to(next);
	return next;
}

struct vcpu *sched_tick(struct vcpu *cur)
{
	uint64_t t0 = pmu_host_el2_insns();
	struct vcpu *next;

	hyp.ticks++;
	this_pcpu()->ticks++;
	this_pcpu()->new_slice = true;
	if (hyp.migrate_every && hyp.nr_pcpus > 1 && ++cur->slices >= hyp.migrate_every) {
		cur->slices = 0;
		cur->home = (this_pcpu()->id + 1) % hyp.nr_pcpus;
	}
	next = switch_or_finish(cur);
	if (next != cur)
		pmu_host_bench_switch(t0);
	return next;
}

struct vcpu *sched_yield(struct vcpu *cur)
{
	return switch_or_finish(cur);
}

/* WFI (and PSCI CPU_SUSPEND): the vCPU waits, off the pCPU, until an interrupt for it is
 * pending; with one pending already, the WFI completes at once. A pCPU with nothing else to run
 * polls the blocked vCPUs' wake-up conditions in idle(); a busy one at its next slice. */
struct vcpu *sched_wfi(struct vcpu *cur)
{
	if (vcpu_wakeup(cur))
		return cur;
	cur->blocked = true;
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

/* On every pCPU once it is set up: run the first vCPU it may run. */
void sched_start(void)
{
	struct vcpu *first;

	hyp_lock();
	first = idle(this_pcpu());
	timers_sync(first);
	vgic_flush(first);
	sched_enter();
	hyp_unlock();
	guest_enter(&first->regs);
}

/* The boot CPU starts the others (pcpus=N) with PSCI CPU_ON through SMC, which QEMU's virt
 * machine implements itself when it has no EL3 firmware: they enter secondary_entry (head.S)
 * at EL2 with the MMU off and x0 = the context ID, here the pCPU index = MPIDR_EL1.Aff0. One
 * at a time, each online (initialised for vperf, hyp_secondary_main) before the next and all
 * before it returns. */
void sched_smp_boot(void)
{
	extern char secondary_entry[];

	this_pcpu()->online = true;
	for (unsigned int c = 1; c < hyp.nr_pcpus; c++) {
		register uint64_t x0 __asm__("x0") = PSCI_CPU_ON_64;
		register uint64_t x1 __asm__("x1") = c;
		register uint64_t x2 __asm__("x2") = (uint64_t)(uintptr_t)secondary_entry;
		register uint64_t x3 __asm__("x3") = c;

		__asm__ volatile("smc #0"
				 : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
				 :
				 : "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13",
				   "x14", "x15", "x16", "x17", "memory");
		if (x0)
			hyp_panic("PSCI CPU_ON of pCPU %u: %ld (QEMU -smp too small?)", c,
				  (int64_t)x0);
		while (!__atomic_load_n(&hyp.pcpus[c].online, __ATOMIC_ACQUIRE))
			__asm__ volatile("yield");
	}
}
