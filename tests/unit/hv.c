// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include <sim/gic.h>
#include <sim/mem.h>
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
	sim_inject_undef();
}

static void advance_pc(void *hv_vcpu)
{
	(void)hv_vcpu;
	sim_advance_pc();
}

static unsigned int guest_el(void *hv_vcpu)
{
	(void)hv_vcpu;
	return sim_trap_el();
}

static void set_irq_line(void *hv_vcpu, uint32_t intid, bool level)
{
	struct hv_vcpu *vc = hv_vcpu;

	if (intid == vperf_vm_spe_virq(vc->v.vm)) {
		vc->spe_irq_level = level;
		vc->spe_irq_raises += level;
		return;
	}
	vc->irq_level = level;
	if (level)
		vc->irq_raises++;
}

static unsigned int vm_index(const struct hv_mem *mem)
{
	return (unsigned int)(mem - hv.mem);
}

/* Stage 2 of VM i: only its RAM. The model caches no stage 2 translation of an unmapped page,
 * so mapping one needs no TLB maintenance. */
static int stage2_map(void *hv_vm, uint64_t ipa, uint64_t size)
{
	struct hv_mem *mem = hv_vm;

	if (!mem || ipa < mem->ipa || ipa + size > mem->ipa + mem->size || ipa + size < ipa)
		return VPERF_EINVAL;
	mem->s2_maps++;
	return sim_mem_map_s2((uint16_t)(vm_index(mem) + 1), ipa, mem->pa + (ipa - mem->ipa), size,
			      SIM_PERM_RW);
}

/* AT S1E1W on the current pCPU: the loaded vCPU's stage 1. */
static int guest_va_to_ipa(void *hv_vcpu, uint64_t va, uint64_t *ipa)
{
	uint64_t par = sim_at_s1e1w(sim_current_cpu(), va);

	(void)hv_vcpu;
	if (par & SIM_PAR_F)
		return VPERF_EINVAL;
	*ipa = (par & SIM_PAR_PA_MASK) | (va & (SIM_PAGE_SIZE - 1));
	return VPERF_OK;
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
	.stage2_map = stage2_map,
	.guest_va_to_ipa = guest_va_to_ipa,
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
	static unsigned int burst;

	(void)ctx;
	if (intid == sim_line_intid(SIM_LINE_PMUIRQ)) {
		vperf_handle_pmu_irq(&hv.pcpu[cpu]);
		hv.pmu_irqs++;
	}
	if (intid == sim_line_intid(SIM_LINE_PMBIRQ)) {
		vperf_handle_spe_irq(&hv.pcpu[cpu]);
		hv.spe_irqs++;
	}
	sim_gic_eoi(cpu, intid);
	burst++;
	if (burst > hv.max_irq_burst)
		hv.max_irq_burst = burst;
	if (!sim_line(cpu, SIM_LINE_PMUIRQ) && !sim_line(cpu, SIM_LINE_PMBIRQ))
		burst = 0;
}

void hv_init(const struct sim_pe_config *cfg, unsigned int host_counters)
{
	hv_init_host_spe(cfg, host_counters, false);
}

void hv_init_host_spe(const struct sim_pe_config *cfg, unsigned int host_counters, bool host_spe)
{
	const struct sim_handlers handlers = { .sysreg_trap = sysreg_trap, .irq = irq };
	const struct vperf_pcpu_config pcfg = { .host_counters = (uint8_t)host_counters,
						.host_spe = host_spe };

	memset(&hv, 0, sizeof(hv));
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
		/* IMO: IRQs to EL2; VM: stage 2 on, for the SPE buffer's translations. */
		sim_poke(cpu, VPERF_ENC_HCR_EL2, VPERF_BIT(4) | VPERF_BIT(0));
		sim_gic_enable_ppi(cpu, sim_line_intid(SIM_LINE_PMUIRQ), true);
		sim_gic_enable_ppi(cpu, sim_line_intid(SIM_LINE_PMBIRQ), true);
	}
	sim_set_cpu(0);
}

int hv_vm(unsigned int i, const struct vperf_vm_config *cfg)
{
	if (i >= HV_MAX_VMS)
		abort();
	return vperf_vm_init(&hv.vm[i], cfg, &hv.mem[i]);
}

void hv_vm_ram(unsigned int i, uint64_t ipa, uint64_t pa, uint64_t size)
{
	if (i >= HV_MAX_VMS)
		abort();
	hv.mem[i] = (struct hv_mem){ .ipa = ipa, .pa = pa, .size = size };
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

static void put(unsigned int cpu)
{
	if (hv.running[cpu])
		vperf_vcpu_put(&hv.running[cpu]->v);
	hv.running[cpu] = NULL;
}

/* With SPE in the model, a switch runs in an exception to EL2 as a hypervisor's does: the entry
 * is the context synchronization event the drain at put relies on (SPE supplement 3.6), the
 * ERET the one after load. The PMU-only tests count EL2 cycles exactly without it. */
static bool switch_at_el2(void)
{
	return hv.model.pmsver != 0;
}

void hv_leave(unsigned int cpu)
{
	sim_set_cpu(cpu);
	if (!switch_at_el2()) {
		put(cpu);
		return;
	}
	sim_enter_el2(cpu);
	put(cpu);
	sim_exit_el2(cpu);
}

void hv_enter(struct hv_vcpu *vc, unsigned int cpu)
{
	if (hv.running[cpu] == vc) {
		sim_set_cpu(cpu);
		return;
	}
	sim_set_cpu(cpu);
	if (switch_at_el2())
		sim_enter_el2(cpu);
	put(cpu);
	/* Stage 2 and the VMID are switched between put and load (DESIGN.md section 5). */
	sim_mem_set_vmid(cpu, (uint16_t)(vc->v.vm - hv.vm + 1));
	vperf_vcpu_load(&vc->v, &hv.pcpu[cpu]);
	hv.running[cpu] = vc;
	vc->cpu = cpu;
	if (switch_at_el2())
		sim_exit_el2(cpu);
	sim_set_el(1);
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
