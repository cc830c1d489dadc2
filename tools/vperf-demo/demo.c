// SPDX-License-Identifier: MIT
/*
 * vperf-demo: vperf linked into a small hypervisor on the executable model (ARCH=sim). Two VMs
 * (tenants) share one pCPU: a SELF VM with the trapped partition and an HV VM with the direct
 * partition. Each guest measures its own workload with its vPMU (cycles, instructions, an
 * overflow interrupt) and samples it with its vSPE; the host keeps two counters. The demo prints
 * what each guest measured, checks it against the workload, decodes each tenant's SPE records
 * into a short profile (demo_spe.c), shows what the switches cost and gives the isolation
 * verdict: every count exact, every record in its own tenant's buffer, no model error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <sim/mem.h>
#include <sim/model.h>
#include <sim/spe.h>
#include <sim/workload.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>
#include <vperf/vperf.h>

#include "demo.h"

struct guest {
	const char *name;
	struct vperf_vcpu vcpu;
	struct sim_wl wl; /* its workload */
	unsigned int irqs;
	bool line;
	uint64_t ops, cycles;
};

static struct vperf_pcpu pcpu;
static struct guest guests[2];
static struct guest *running;

static void inject_undef(void *g)
{
	(void)g;
	sim_inject_undef();
}

static void advance_pc(void *g)
{
	(void)g;
	sim_advance_pc();
}

static unsigned int guest_el(void *g)
{
	(void)g;
	return sim_trap_el();
}

static void set_irq_line(void *hv_vcpu, uint32_t intid, bool level)
{
	struct guest *g = hv_vcpu;

	(void)intid;
	g->irqs += level && !g->line;
	g->line = level;
}

static void log_line(enum vperf_log_level level, const char *msg)
{
	printf("  log[%d]: %s\n", (int)level, msg);
}

static const struct vperf_hyp_ops ops = {
	.inject_undef = inject_undef,
	.advance_pc = advance_pc,
	.guest_el = guest_el,
	.set_irq_line = set_irq_line,
	.log = log_line,
};

static void trap(void *ctx, unsigned int cpu, uint64_t esr, uint64_t gprs[31])
{
	(void)ctx;
	(void)cpu;
	if (vperf_handle_sysreg(&running->vcpu, esr, gprs) == VPERF_TRAP_NOT_MINE)
		sim_inject_undef();
}

static void irq(void *ctx, unsigned int cpu, uint32_t intid)
{
	(void)ctx;
	if (intid == sim_line_intid(SIM_LINE_PMBIRQ))
		vperf_handle_spe_irq(&pcpu);
	else
		vperf_handle_pmu_irq(&pcpu);
	sim_gic_eoi(cpu, intid);
}

/* Each tenant's code lives at its own addresses. */
static uint64_t code_base(int i)
{
	return 0x400000ull + (uint64_t)(unsigned int)i * 0x100000ull;
}

static void setup(void)
{
	const struct sim_handlers h = { .sysreg_trap = trap, .irq = irq };
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	static struct vperf_vm vms[2];
	struct vperf_vm_config cfg[2] = {
		{ .pmu_mode = VPERF_PMU_SELF, .partition = VPERF_PART_TRAPPED, .nr_counters = 3 },
		{ .pmu_mode = VPERF_PMU_HV, .partition = VPERF_PART_DIRECT, .nr_counters = 2 },
	};
	const enum sim_wl_kind kind[2] = { SIM_WL_MIX, SIM_WL_CHASE };
	struct sim_pe_config model;

	sim_spe_default_config(&model, 3); /* PMUv3p5 and SPEv1p2 */
	sim_model_init(&model);
	sim_set_handlers(&h);
	/* IMO: physical IRQs to EL2; VM: stage 2 on, each tenant's buffer in its own memory. */
	sim_poke(0, VPERF_ENC_HCR_EL2, VPERF_BIT(4) | VPERF_BIT(0));
	sim_gic_enable_ppi(0, sim_line_intid(SIM_LINE_PMUIRQ), true);
	sim_gic_enable_ppi(0, sim_line_intid(SIM_LINE_PMBIRQ), true);
	vperf_init(&ops);
	vperf_pcpu_init(&pcpu, &pcfg);
	printf("pCPU: PMUv3p5, %u counters: guests [0,%u), host [%u,%u); SPEv1p2\n",
	       pcpu.caps.nr_counters, pcpu.hpmn, pcpu.hpmn, pcpu.epmn);
	guests[0].name = "guest A (SELF, trapped, N=3, vSPE; a mix of loads, branches, stores)";
	guests[1].name = "guest B (HV, direct, N=2, vSPE; a pointer chase)";
	for (int i = 0; i < 2; i++) {
		struct sim_wl_config wl;

		sim_wl_default_config(&wl, kind[i], (uint64_t)i + 1);
		wl.code_base = code_base(i);
		sim_wl_init(&guests[i].wl, &wl);
		demo_spe_map((unsigned int)i);
		cfg[i].spe = true;
		cfg[i].spe_buffer = VPERF_SPE_BUF_EL1_TRAPPED;
		vperf_pmu_filter_allow_all(&cfg[i].filter);
		if (vperf_vm_init(&vms[i], &cfg[i], NULL) != VPERF_OK)
			printf("VM %d refused\n", i);
		vperf_vcpu_init(&guests[i].vcpu, &vms[i], &guests[i]);
	}
	/* The host counts instructions at EL1/EL0 on its counter 4: guests of HV VMs only. It starts
	 * the counter as a host driver does: event, value 0, enable. A counter's reset value is
	 * UNKNOWN (Arm DDI 0487 K.a I5.3.28), and the model makes it so. */
	write_sysreg(0x08, PMEVTYPER4_EL0);
	write_sysreg(0, PMEVCNTR4_EL0);
	write_sysreg(VPERF_BIT(4), PMCNTENSET_EL0);
}

/* A switch runs in an exception to EL2: the entry is the context synchronization event the SPE
 * drain at put relies on (SPE 3.6: the SPE supplement, Arm DDI 0586A), the ERET the one
 * after load. */
static void enter(struct guest *g)
{
	sim_enter_el2(0);
	if (running)
		vperf_vcpu_put(&running->vcpu);
	running = g;
	/* Stage 2 and the VMID are the hypervisor's to switch, between put and load. */
	sim_mem_set_vmid(0, (uint16_t)(g - guests + 1));
	vperf_vcpu_load(&g->vcpu, &pcpu);
	sim_exit_el2(0);
	sim_set_el(1);
}

/* What a guest's perf would do: cycles on counter 0, instructions on 1, the cycle counter,
 * an overflow interrupt 1000 instructions from now. */
static void guest_program(struct guest *g)
{
	demo_spe_start();
	guest_write(PMEVTYPER0_EL0, 0x11);
	guest_write(PMEVTYPER1_EL0, 0x08);
	guest_write(PMEVCNTR1_EL0, 0xffffffffull - 999);
	guest_write(PMINTENSET_EL1, 2);
	guest_write(PMCNTENSET_EL0, 0x80000003ull);
	guest_write(PMCR_EL0, PMCR_E);
	(void)g;
}

static void guest_work(struct guest *g, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		struct sim_uop op;

		sim_wl_next(&g->wl, &op);
		guest_run(&op, 1);
		g->cycles += op.latency;
	}
	g->ops += n;
}

static bool report(struct guest *g)
{
	uint64_t cyc = guest_read(PMEVCNTR0_EL0), ins = guest_read(PMEVCNTR1_EL0) - 0xfffffc18ull;
	uint64_t ccnt = guest_read(PMCCNTR_EL0);
	bool ok = cyc == g->cycles && ins == g->ops && ccnt == g->cycles && g->irqs == 1;

	printf("%s\n  cycles %" PRIu64 " (ran %" PRIu64 "), instructions %" PRIu64 " (ran %" PRIu64
	       "), cycle counter %" PRIu64 ", overflow interrupts %u: %s\n",
	       g->name, cyc, g->cycles, ins, g->ops, ccnt, g->irqs, ok ? "exact" : "WRONG");
	return ok;
}

/* vperf-demo [DIR]: with DIR (an existing directory), each tenant's raw SPE buffer is left there. */
int main(int argc, char **argv)
{
	const struct sim_cpu *c = sim_cpu(0);
	uint64_t before;
	bool ok = true;

	demo_spe_dir = argc > 1 ? argv[1] : NULL;
	setup();
	for (int i = 0; i < 2; i++) {
		enter(&guests[i]);
		guest_program(&guests[i]);
	}
	for (int slice = 0; slice < 10; slice++) {
		enter(&guests[0]);
		guest_work(&guests[0], 3000);
		enter(&guests[1]);
		guest_work(&guests[1], 2000);
	}
	before = c->nr_reads + c->nr_writes;
	enter(&guests[0]);
	printf("one switch of an active vCPU: %" PRIu64 " System register accesses\n",
	       c->nr_reads + c->nr_writes - before);
	ok &= report(&guests[0]);
	ok &= demo_spe_report(0, "guest A", code_base(0));
	enter(&guests[1]);
	ok &= report(&guests[1]);
	ok &= demo_spe_report(1, "guest B", code_base(1));
	vperf_vcpu_put(&guests[1].vcpu);
	printf("host counter 4 (instructions of HV guests only): %" PRIu64 " (guest B ran %" PRIu64
	       "): %s\n",
	       sim_peek(0, VPERF_ENC_PMEVCNTR4_EL0), guests[1].ops,
	       sim_peek(0, VPERF_ENC_PMEVCNTR4_EL0) == guests[1].ops ? "exact" : "WRONG");
	ok &= sim_peek(0, VPERF_ENC_PMEVCNTR4_EL0) == guests[1].ops && !sim_error_count();
	ok &= demo_spe_nothing_lost();
	printf("\nisolation verdict: %s (every count exact, every SPE record in its own tenant's "
	       "buffer, model errors: %u)\n",
	       ok ? "PASS" : "FAIL", sim_error_count());
	return ok ? 0 : 1;
}
