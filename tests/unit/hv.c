// SPDX-License-Identifier: MIT
/*
 * The test hypervisor (hv.h): vperf's ops and the model's handlers (the trap handler, the
 * physical PMUIRQ and PMBIRQ, the vGIC's list register and maintenance interrupt, the guest's
 * IRQ handler), the model and vperf set up, VMs and vCPUs, raw traps and guest code run. The
 * host's side (the model's configuration, the host's boot code, a pCPU's bring-up and
 * power-down) is hv_host.c; the switch between vCPUs (put and load) is hv_switch.c.
 */
#include <stdlib.h>
#include <string.h>

#include <sim/gic.h>
#include <sim/mem.h>
#include <sim/model.h>
#include <vperf/pmu_regs.h>
#include <vperf/vperf.h>

#include "hv.h"
#include "sched_util.h"

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

#define VIRQ_PRIO 0xa0

static bool loaded(const struct hv_vcpu *vc)
{
	return hv.running[vc->cpu] == vc;
}

/* List register 0 of the vCPU: in the GIC while it is loaded, in its save area otherwise. The
 * test hypervisor's own vGIC accesses go through the backdoor, so that the access counts the
 * tests assert stay vperf's alone. */
static uint64_t get_lr(const struct hv_vcpu *vc)
{
	return loaded(vc) ? sim_gic_lr(vc->cpu, 0) : vc->lr;
}

static void put_lr(struct hv_vcpu *vc, uint64_t lr)
{
	if (!loaded(vc)) {
		vc->lr = lr;
		return;
	}
	sim_poke(vc->cpu, VPERF_ENC_ICH_LR0_EL2, lr);
}

/* The level-sensitive virtual PPI follows the line (GICv3: a level interrupt is pending while
 * its line is high). Pending goes in with LR.EOI, so that the guest's deactivation raises the
 * maintenance interrupt and a line still high is sampled again there. */
static void vgic_update(struct hv_vcpu *vc)
{
	uint64_t lr = get_lr(vc);
	enum sim_lr_state st = sim_lr_state(lr);

	if (vc->irq_level && st == SIM_LR_INVALID)
		put_lr(vc, sim_lr_make(vperf_vm_pmu_virq(vc->v.vm), VIRQ_PRIO, SIM_LR_PENDING) |
				   SIM_LR_EOI);
	else if (!vc->irq_level && st == SIM_LR_PENDING)
		put_lr(vc, 0); /* withdrawn before the guest took it */
}

static void set_irq_line(void *hv_vcpu, uint32_t intid, bool level)
{
	struct hv_vcpu *vc = hv_vcpu;
	unsigned int cpu = sim_current_cpu();

	if (intid == vperf_vm_spe_virq(vc->v.vm)) {
		vc->spe_irq_level = level;
		vc->spe_irq_raises += level;
		return;
	}
	vc->irq_level = level;
	if (level)
		vc->irq_raises++;
	vgic_update(vc);
	sim_set_cpu(cpu);
}

/* The guest's IRQ handler for its PMU interrupt: like Linux's, it may clear the overflow
 * flags it reads (through vperf), then ends the interrupt, or leaves it active for later. */
static void guest_irq(void *ctx, unsigned int cpu, uint32_t vintid)
{
	struct hv_vcpu *vc = hv.running[cpu];

	(void)ctx;
	if (!vc)
		return;
	vc->virqs++;
	if (vc->clear_in_handler)
		guest_write(PMOVSCLR_EL0, guest_read(PMOVSSET_EL0));
	if (vc->defer_eoi)
		vc->in_handler = true;
	else
		sim_guest_eoi(cpu, vintid);
}

void hv_guest_eoi(struct hv_vcpu *vc)
{
	sim_set_cpu(vc->cpu);
	vc->in_handler = false;
	sim_guest_eoi(vc->cpu, vperf_vm_pmu_virq(vc->v.vm));
}

/* The maintenance interrupt: the guest deactivated its virtual PPI (LR.EOI); pend it again if
 * the line is still high, else free the list register. */
static void maintenance(unsigned int cpu)
{
	struct hv_vcpu *vc = hv.running[cpu];

	if (vc && sim_lr_state(sim_gic_lr(cpu, 0)) == SIM_LR_INVALID) {
		sim_poke(cpu, VPERF_ENC_ICH_LR0_EL2, 0);
		vgic_update(vc);
	} else if (!vc) {
		sim_poke(cpu, VPERF_ENC_ICH_LR0_EL2, 0);
	}
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
	strncpy(hv.last_log, msg, sizeof(hv.last_log) - 1);
	hv.last_log_level = level;
	hv.nr_logs++;
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
	(void)ctx;
	if (intid == SIM_GIC_MAINT_INTID) {
		maintenance(cpu);
		sim_gic_eoi(cpu, intid);
		return;
	}
	if (intid == sim_line_intid(SIM_LINE_PMUIRQ)) {
		vperf_handle_pmu_irq(&hv.pcpu[cpu]);
		hv.pmu_irqs++;
	}
	if (intid == sim_line_intid(SIM_LINE_PMBIRQ)) {
		vperf_handle_spe_irq(&hv.pcpu[cpu]);
		hv.spe_irqs++;
	}
	sim_gic_eoi(cpu, intid);
	hv.irq_burst++;
	if (hv.irq_burst > hv.max_irq_burst)
		hv.max_irq_burst = hv.irq_burst;
	if (!sim_line(cpu, SIM_LINE_PMUIRQ) && !sim_line(cpu, SIM_LINE_PMBIRQ))
		hv.irq_burst = 0;
}

void hv_init(const struct sim_pe_config *cfg, unsigned int host_counters)
{
	hv_init_host_spe(cfg, host_counters, false);
}

static int e2h_forced = -1;

void hv_set_e2h(int e2h)
{
	e2h_forced = e2h;
}

/* The model (one configuration for every CPU, or cfgs per CPU) and vperf_init; no pCPU up. */
static void model_init(const struct sim_pe_config *cfg, const struct sim_pe_config *cfgs)
{
	const struct sim_handlers handlers = { .sysreg_trap = sysreg_trap,
					       .irq = irq,
					       .guest_irq = guest_irq };

	memset(&hv, 0, sizeof(hv));
	hv.raw_el = -1;
	hv.lazy_put = sched_env_u64("HV_LAZY_PUT", 0) != 0;
	hv.mixed_put = sched_env_u64("HV_LAZY_PUT", 0) == 2;
	hv.model = *cfg;
	hv.put_draws = 0x2545f4914f6cdd1dull ^ hv.model.seed; /* xorshift stays at 0 */
	hv.e2h = e2h_forced >= 0 ? e2h_forced != 0 : sched_env_u64("HV_E2H", 0) != 0;
	if (cfgs)
		sim_model_init_cpus(cfgs);
	else
		sim_model_init(&hv.model);
	sim_set_handlers(&handlers);
	vperf_init(&ops);
}

static void all_up(unsigned int host_counters, bool host_spe)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = (uint8_t)host_counters,
						.host_spe = host_spe };

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		hv_pcpu_up(cpu, &pcfg);
	sim_set_cpu(0);
}

void hv_init_host_spe(const struct sim_pe_config *cfg, unsigned int host_counters, bool host_spe)
{
	struct sim_pe_config dflt;

	if (!cfg) {
		hv_default_config(&dflt);
		cfg = &dflt;
	}
	model_init(cfg, NULL);
	all_up(host_counters, host_spe);
}

void hv_init_cpus(const struct sim_pe_config cfgs[SIM_MAX_CPUS], unsigned int host_counters)
{
	model_init(&cfgs[0], cfgs);
	all_up(host_counters, false);
}

void hv_init_model(const struct sim_pe_config cfgs[SIM_MAX_CPUS])
{
	model_init(&cfgs[0], cfgs);
}

void hv_restart_vperf(unsigned int host_counters)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = (uint8_t)host_counters };

	vperf_init(&ops);
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		sim_set_cpu(cpu);
		vperf_pcpu_init(&hv.pcpu[cpu], &pcfg);
		hv_host_boot(cpu);
	}
	sim_set_cpu(0);
}

const struct vperf_hyp_ops *hv_ops(void)
{
	return &ops;
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

void hv_settle(void)
{
	unsigned int cpu = sim_current_cpu();

	for (unsigned int i = 0; i < 512 && sim_gic_pmuirq_delayed(cpu); i++)
		sim_gic_poll(cpu);
}

void hv_run_n(const struct sim_uop *op, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		hv_run(op, 1);
}
