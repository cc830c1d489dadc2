// SPDX-License-Identifier: MIT
/*
 * vperf-demo: vperf linked into a small hypervisor on the executable model (ARCH=sim). Two VMs
 * share one pCPU: a SELF VM with the trapped partition and an HV VM with the direct partition.
 * Each guest measures its own workload with its vPMU (cycles, instructions, SW_INCR, an overflow
 * interrupt); the host keeps two counters. The demo prints what each guest measured, checks it
 * against the workload, and shows what the switches cost.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <sim/model.h>
#include <vperf/mdcr.h>
#include <vperf/vperf.h>

struct guest {
	const char *name;
	struct vperf_vcpu vcpu;
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
	vperf_handle_pmu_irq(&pcpu);
	sim_gic_eoi(cpu, intid);
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
	struct sim_pe_config model;

	sim_default_config(&model);
	sim_model_init(&model);
	sim_set_handlers(&h);
	sim_poke(0, VPERF_ENC_HCR_EL2, VPERF_BIT(4)); /* IMO: physical IRQs to EL2 */
	sim_gic_enable_ppi(0, sim_line_intid(SIM_LINE_PMUIRQ), true);
	vperf_init(&ops);
	vperf_pcpu_init(&pcpu, &pcfg);
	printf("pCPU: PMUv3p5, %u counters: guests [0,%u), host [%u,%u)\n", pcpu.caps.nr_counters,
	       pcpu.hpmn, pcpu.hpmn, pcpu.epmn);
	guests[0].name = "guest A (SELF, trapped, N=3)";
	guests[1].name = "guest B (HV, direct, N=2)";
	for (int i = 0; i < 2; i++) {
		vperf_pmu_filter_allow_all(&cfg[i].filter);
		vperf_vm_init(&vms[i], &cfg[i], NULL);
		vperf_vcpu_init(&guests[i].vcpu, &vms[i], &guests[i]);
	}
	/* The host counts instructions at EL1/EL0 on its counter 4: guests of HV VMs only. */
	write_sysreg(0x08, PMEVTYPER4_EL0);
	write_sysreg(VPERF_BIT(4), PMCNTENSET_EL0);
}

static void enter(struct guest *g)
{
	if (running)
		vperf_vcpu_put(&running->vcpu);
	running = g;
	vperf_vcpu_load(&g->vcpu, &pcpu);
	sim_set_el(1);
}

/* What a guest's perf would do: cycles on counter 0, instructions on 1, the cycle counter,
 * an overflow interrupt 1000 instructions from now. */
static void guest_program(struct guest *g)
{
	guest_write(PMEVTYPER0_EL0, 0x11);
	guest_write(PMEVTYPER1_EL0, 0x08);
	guest_write(PMEVCNTR1_EL0, 0xffffffffull - 999);
	guest_write(PMINTENSET_EL1, 2);
	guest_write(PMCNTENSET_EL0, 0x80000003ull);
	guest_write(PMCR_EL0, PMCR_E);
	(void)g;
}

static void guest_work(struct guest *g, unsigned int n, uint32_t latency)
{
	const struct sim_uop op = { .pc = 0x8000, .latency = latency, .type = SIM_UOP_OTHER };

	for (unsigned int i = 0; i < n; i++)
		guest_run(&op, 1);
	g->ops += n;
	g->cycles += (uint64_t)n * latency;
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

int main(void)
{
	const struct sim_cpu *c = sim_cpu(0);
	uint64_t before;
	bool ok = true;

	setup();
	for (int i = 0; i < 2; i++) {
		enter(&guests[i]);
		guest_program(&guests[i]);
	}
	for (int slice = 0; slice < 10; slice++) {
		enter(&guests[0]);
		guest_work(&guests[0], 150, 2);
		enter(&guests[1]);
		guest_work(&guests[1], 100, 3);
	}
	before = c->nr_reads + c->nr_writes;
	enter(&guests[0]);
	printf("one switch of an active vCPU: %" PRIu64 " System register accesses\n",
	       c->nr_reads + c->nr_writes - before);
	ok &= report(&guests[0]);
	enter(&guests[1]);
	ok &= report(&guests[1]);
	vperf_vcpu_put(&guests[1].vcpu);
	printf("host counter 4 (instructions of HV guests only): %" PRIu64 " (guest B ran %" PRIu64
	       "): %s\n",
	       sim_peek(0, VPERF_ENC_PMEVCNTR4_EL0), guests[1].ops,
	       sim_peek(0, VPERF_ENC_PMEVCNTR4_EL0) == guests[1].ops ? "exact" : "WRONG");
	ok &= sim_peek(0, VPERF_ENC_PMEVCNTR4_EL0) == guests[1].ops && !sim_error_count();
	printf("isolation check: %s (model errors: %u)\n", ok ? "PASS" : "FAIL", sim_error_count());
	return ok ? 0 : 1;
}
