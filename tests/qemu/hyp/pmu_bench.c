// SPDX-License-Identifier: MIT
/*
 * `make bench` on the hypervisor's side (tests/qemu/bench.sh): EL2 instructions counted by the
 * host's INST_RETIRED counter at EL2 (pmu_host.c, role 2), meaningful with -icount shift=0 and
 * pmu=hv guests, whose runs keep MDCR_EL2.HPME = 1 so that the counter counts through their
 * traps: vperf's put and load, its trap handling, its share of a PMUIRQ, and the guest's marked
 * regions of identical accesses.
 */
#include "hyp.h"

struct bench_acc {
	uint64_t sum, count;
};

static struct {
	uint64_t t_start, t_irq, t_pmuirq, calib, pmuirqs;
	uint64_t t_traps, t_loads; /* the marking vCPU's traps and loads at the region's start */
	bool calibrated, irq_inner;
	struct bench_acc sw, put, load, irq, irq_vperf, sysreg, probe, put_same, load_same;
	bool reswitch; /* inside a mark-3 put + load of the calling vCPU */
	/* The same per VM (VMs 0 and 1): two VMs with different vSPE policies in one run (the SPE
	 * switch benchmark) each get their own put and load figures. */
	struct bench_acc vm_put[2], vm_load[2], vm_put_same[2], vm_load_same[2];
	unsigned int vm;
} bench;

static void acc(struct bench_acc *a, uint64_t v)
{
	a->sum += v;
	a->count++;
}

/* The end of every measurement of vperf and of its calibration (pmu_host_bench_probe): one
 * function, so that all count the same instructions around the counter read whatever the
 * compiler makes of their callers. */
static uint64_t __attribute__((noinline)) bench_since(uint64_t t0)
{
	return pmu_host_el2_insns() - t0;
}

void pmu_host_bench_switch(uint64_t t0)
{
	acc(&bench.sw, bench_since(t0));
}

void pmu_host_bench_sysreg(uint64_t t0)
{
	acc(&bench.sysreg, bench_since(t0));
}

/* Which VM the next pmu_host_bench_vperf() is of (sched.c, outside the measured window). */
void pmu_host_bench_vm(const struct vcpu *v)
{
	bench.vm = v->vm->id;
}

static void __attribute__((noinline)) bench_vperf_acc(bool load, uint64_t n)
{
	unsigned int vm = bench.vm;

	if (bench.reswitch)
		acc(load ? &bench.load_same : &bench.put_same, n);
	else
		acc(load ? &bench.load : &bench.put, n);
	if (vm >= 2)
		return;
	if (bench.reswitch)
		acc(load ? &bench.vm_load_same[vm] : &bench.vm_put_same[vm], n);
	else
		acc(load ? &bench.vm_load[vm] : &bench.vm_put[vm], n);
}

/* The counter read first, the rest in a call of its own: the instructions before the read are
 * those of the other measurings (the probe's). */
void pmu_host_bench_vperf(bool load, uint64_t t0)
{
	bench_vperf_acc(load, bench_since(t0));
}

/* vperf's share of a PMUIRQ (make bench): from vperf_handle_pmu_irq()'s call (main.c) to the
 * set_irq_line op it makes, where the hypervisor's vGIC work starts. Every other PMUIRQ only:
 * the rest measure the whole path (entry to the list register) without this measuring in it. */
void pmu_host_bench_pmuirq(void)
{
	bench.irq_inner = ++bench.pmuirqs & 1;
	if (bench.irq_inner)
		bench.t_pmuirq = pmu_host_el2_insns();
}

void pmu_host_bench_irq_line(void)
{
	if (bench.t_pmuirq)
		acc(&bench.irq_vperf, bench_since(bench.t_pmuirq));
	bench.t_pmuirq = 0;
}

/* The measuring itself: what a "t0 = pmu_host_el2_insns(); ...; pmu_host_bench_*(t0)" pair
 * counts with nothing in between (trap.c calls it as sysreg() does around vperf). */
void pmu_host_bench_probe(uint64_t t0)
{
	acc(&bench.probe, bench_since(t0));
}

static void print_avg(const char *name, const struct bench_acc *a)
{
	if (!a->count)
		return;
	printf("BENCH %s %lu.%02lu insns (n=%lu)\n", name, a->sum / a->count,
	       (a->sum % a->count) * 100 / a->count, a->count);
}

/* Guest marks (HVC 0xc6000001, x1 = what, x2 = iterations, x3 = label): 1 starts a region, 2
 * ends it; label 0 with 0 iterations calibrates the hypercall pair itself; 3 puts and loads the
 * calling vCPU on its pCPU (the "active vCPU back on the same pCPU" switch). Internal marks:
 * 0x100 physical interrupt entry, 0x101 INTID 23 written to a list register, 0x102 other exit. */
void pmu_host_bench_mark(struct vcpu *v, uint64_t what)
{
	uint64_t now = pmu_host_el2_insns();
	uint64_t iters = v->regs.x[2], label = v->regs.x[3];

	switch (what) {
	case 1:
		bench.t_start = now;
		bench.t_traps = v->sysreg_traps;
		bench.t_loads = v->switches;
		bench.sysreg.sum = bench.sysreg.count = 0;
		break;
	case 2:
		if (!iters) {
			bench.calib = now - bench.t_start;
			bench.calibrated = true;
		} else if (hyp.bench) {
			uint64_t net = now - bench.t_start - (bench.calibrated ? bench.calib : 0);

			uint64_t in =
				bench.sysreg.count ? bench.sysreg.sum / bench.sysreg.count : 0;

			printf("BENCH region %lu: %lu.%02lu EL2 insns per op, %lu in "
			       "vperf_handle_sysreg (%lu ops); %lu EL2 insns, %lu traps, %lu "
			       "loads\n",
			       label, net / iters, (net % iters) * 100 / iters, in, iters, net,
			       v->sysreg_traps - bench.t_traps, v->switches - bench.t_loads);
		}
		break;
	case 3:
		bench.reswitch = true;
		sched_reswitch(v);
		bench.reswitch = false;
		break;
	case 0x100:
		bench.t_irq = now;
		break;
	case 0x101:
		if (bench.t_irq && !bench.irq_inner)
			acc(&bench.irq, now - bench.t_irq);
		bench.t_irq = 0;
		bench.irq_inner = false;
		break;
	default: /* the end of an interrupt's exit: a PMUIRQ that pushed no line measures nothing */
		bench.t_irq = bench.t_pmuirq = 0;
		bench.irq_inner = false;
		break;
	}
}

void pmu_host_bench_report(void)
{
	trap_bench_calibrate();
	print_avg("probe", &bench.probe);
	print_avg("vperf-put-same", &bench.put_same);
	print_avg("vperf-load-same", &bench.load_same);
	print_avg("vperf-handle-sysreg", &bench.sysreg);
	print_avg("vcpu-switch", &bench.sw);
	print_avg("vperf-put", &bench.put);
	print_avg("vperf-load", &bench.load);
	print_avg("pmuirq-to-lr", &bench.irq);
	print_avg("pmuirq-vperf", &bench.irq_vperf);
	for (unsigned int i = 0; i < 2 && hyp.nr_vms > 1; i++) {
		char name[32];

		snprintf(name, sizeof(name), "vperf-put-same-vm%u", i);
		print_avg(name, &bench.vm_put_same[i]);
		snprintf(name, sizeof(name), "vperf-load-same-vm%u", i);
		print_avg(name, &bench.vm_load_same[i]);
		snprintf(name, sizeof(name), "vperf-put-vm%u", i);
		print_avg(name, &bench.vm_put[i]);
		snprintf(name, sizeof(name), "vperf-load-vm%u", i);
		print_avg(name, &bench.vm_load[i]);
	}
}
