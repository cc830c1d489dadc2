// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include <sim/gic.h>
#include <sim/model.h>
#include <vperf/vperf.h>

#include "hv.h"

struct hv hv;

static struct hv_vcpu *running(void)
{
	return hv.running[sim_current_cpu()];
}

static void inject_undef(void *hv_vcpu)
{
	(void)hv_vcpu;
	hv.undefs++;
	sim_inject_undef();
}

static void advance_pc(void *hv_vcpu)
{
	(void)hv_vcpu;
	hv.pc_advances++;
	sim_advance_pc();
}

static unsigned int guest_el(void *hv_vcpu)
{
	(void)hv_vcpu;
	return hv.raw_el >= 0 ? (unsigned int)hv.raw_el : sim_trap_el();
}

static void set_irq_line(void *hv_vcpu, uint32_t intid, bool level)
{
	struct hv_vcpu *vc = hv_vcpu;

	(void)intid;
	vc->irq_level = level;
	if (level)
		vc->irq_raises++;
}

static void host_overflow(uint64_t ovs)
{
	hv.host_ovs |= ovs;
}

static void log_line(enum vperf_log_level level, const char *msg)
{
	(void)level;
	strncpy(hv.last_log, msg, sizeof(hv.last_log) - 1);
}

static const struct vperf_hyp_ops ops = {
	.inject_undef = inject_undef,
	.advance_pc = advance_pc,
	.guest_el = guest_el,
	.set_irq_line = set_irq_line,
	.host_pmu_overflow = host_overflow,
	.log = log_line,
};

static void sysreg_trap(void *ctx, unsigned int cpu, uint64_t esr, uint64_t gprs[31])
{
	(void)ctx;
	(void)cpu;
	if (vperf_handle_sysreg(&running()->v, esr, gprs) == VPERF_TRAP_NOT_MINE) {
		hv.not_mine++;
		sim_inject_undef();
	}
}

/* The physical PMUIRQ, taken by the model's GIC at EL2 right after the instruction or micro-op
 * that raised it (HCR_EL2.IMO = 1). A handler that leaves the line high is entered again at the
 * next poll point: consecutive such entries are an interrupt storm. */
static void irq(void *ctx, unsigned int cpu, uint32_t intid)
{
	(void)ctx;
	if (intid == sim_line_intid(SIM_LINE_PMUIRQ))
		vperf_handle_pmu_irq(&hv.pcpu[cpu]);
	sim_gic_eoi(cpu, intid);
	hv.pmu_irqs++;
	hv.irq_burst++;
	if (hv.irq_burst > hv.max_irq_burst)
		hv.max_irq_burst = hv.irq_burst;
	if (!sim_line(cpu, SIM_LINE_PMUIRQ))
		hv.irq_burst = 0;
}

void hv_init(const struct sim_pe_config *cfg, unsigned int host_counters)
{
	const struct sim_handlers handlers = { .sysreg_trap = sysreg_trap, .irq = irq };
	const struct vperf_pcpu_config pcfg = { .host_counters = (uint8_t)host_counters };

	memset(&hv, 0, sizeof(hv));
	hv.raw_el = -1;
	if (cfg)
		hv.model = *cfg;
	else
		sim_default_config(&hv.model);
	sim_model_init(&hv.model);
	sim_set_handlers(&handlers);
	vperf_init(&ops);
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		sim_set_cpu(cpu);
		vperf_pcpu_init(&hv.pcpu[cpu], &pcfg);
		sim_poke(cpu, VPERF_ENC_HCR_EL2, VPERF_BIT(4)); /* IMO: IRQs to EL2 */
		sim_gic_enable_ppi(cpu, sim_line_intid(SIM_LINE_PMUIRQ), true);
	}
	sim_set_cpu(0);
}

int hv_vm(unsigned int i, const struct vperf_vm_config *cfg)
{
	if (i >= HV_MAX_VMS)
		abort();
	return vperf_vm_init(&hv.vm[i], cfg, NULL);
}

struct hv_vcpu *hv_vcpu(unsigned int i, unsigned int vm)
{
	struct hv_vcpu *vc;

	if (i >= HV_MAX_VCPUS || vm >= HV_MAX_VMS)
		abort();
	vc = &hv.vcpu[i];
	vperf_vcpu_init(&vc->v, &hv.vm[vm], vc);
	return vc;
}

void hv_leave(unsigned int cpu)
{
	sim_set_cpu(cpu);
	if (hv.running[cpu])
		vperf_vcpu_put(&hv.running[cpu]->v);
	hv.running[cpu] = NULL;
}

void hv_enter(struct hv_vcpu *vc, unsigned int cpu)
{
	if (hv.running[cpu] == vc) {
		sim_set_cpu(cpu);
		return;
	}
	hv_leave(cpu);
	vperf_vcpu_load(&vc->v, &hv.pcpu[cpu]);
	hv.running[cpu] = vc;
	vc->cpu = cpu;
	sim_set_el(1);
}

enum vperf_trap_result hv_raw_trap(uint64_t esr, uint64_t gprs[31], unsigned int el)
{
	unsigned int cpu = sim_current_cpu();
	enum vperf_trap_result r;

	hv.raw_el = (int)el;
	sim_enter_el2(cpu);
	r = vperf_handle_sysreg(&running()->v, esr, gprs);
	sim_exit_el2(cpu);
	hv.raw_el = -1;
	return r;
}

void hv_run(const struct sim_uop *ops_, size_t n)
{
	guest_run(ops_, n);
}

void hv_run_n(const struct sim_uop *op, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		hv_run(op, 1);
}
