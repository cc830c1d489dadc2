// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include <arch/barrier.h>
#include <arch/sysreg.h>
#include <sim/gic.h>
#include <sim/mem.h>
#include <sim/model.h>
#include <sim/profiles.h>
#include <sim/spe.h>
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

/* HV_PMUVER=n in the environment: the default model's ID_AA64DFR0_EL1.PMUVer (1 = PMUv3,
 * 4 = v3p1, 5 = v3p4, 6 = v3p5, ...), so that `make test` runs the vPMU tests on every PMU
 * version vperf supports (tests/unit/build.mk). */
uint8_t hv_default_pmuver(void)
{
	const char *v = getenv("HV_PMUVER");

	return v && *v ? (uint8_t)strtoul(v, NULL, 0) : 6;
}

/* HV_PROFILE=name: the default model has that core's PMU (sim/profiles.h, docs/cores.md), so
 * that `make test` runs the vPMU tests on every core profile; HV_PMUVER and HV_FGT do not apply.
 * Its SPE is left out, as in the default model these tests reason from: the drawn worlds and
 * test_core_profiles take the profiles with their SPE. */
const struct sim_core_profile *hv_profile(void)
{
	const char *name = getenv("HV_PROFILE");

	return name && *name ? sim_core_profile(name) : NULL;
}

/* Does vperf offer the direct partition on hv.model (policy.c, direct_possible; vpmu/vpmu.h)?
 * It needs PMUv3p5, and where PMEVTYPER<n>_EL0.MT may count the core's other threads (MPIDR_EL1.MT
 * with an MTPMU that EL2 cannot turn off: every Armv8.2+ core profile, docs/cores.md) FEAT_FGT
 * to trap the types. */
bool hv_direct_offered(void)
{
	const struct sim_pe_config *m = &hv.model;
	bool mtpme_el2 = m->mtpmu == SIM_MTPMU_FEAT && !m->el3;
	bool mt_counts = m->mt && m->mtpmu != SIM_MTPMU_NONE && !mtpme_el2;

	return m->pmuver >= 6 && (!mt_counts || m->fgt);
}

void hv_default_config(struct sim_pe_config *cfg)
{
	const char *fgt = getenv("HV_FGT");
	const struct sim_core_profile *p = hv_profile();

	if (p) {
		sim_profile_config(p, cfg);
		cfg->pmsver = 0;
		cfg->pmsidr = cfg->pmbidr = 0;
		return;
	}
	sim_default_config(cfg);
	cfg->pmuver = hv_default_pmuver();
	cfg->fgt = fgt && *fgt == '1';
}

/* What the host's boot code does for the counters it keeps, [HPMN, N) (with host_first_range, a
 * host running at EL1: [0, HPMN) and the cycle counter, and its MDCR_EL2 and fine-grained
 * traps): they reset to UNKNOWN values (the
 * model gives them garbage), and they are the host's, not vperf's, to clear. The guests' range
 * keeps its garbage: vperf must cope with it. The external agent's range that FEAT_PMUv3_EXTPMN
 * hides from EL2 ([EPMN, N): PMCR_EL0.N reads EPMN there) is the firmware's to reset, and is
 * (vperf cannot reach it). */
/* SPE's controls reset UNKNOWN too (SPE 4.2): the host's driver (Linux's SPE driver at CPU
 * start) or its boot code turns its own sampling and the Profiling Buffer off and clears the
 * buffer's status, whose stray S would hold PMBIRQ high. The guests' PMSCR_EL1 keeps its garbage. */
static void host_spe_reset(unsigned int cpu)
{
	if (!hv.pcpu[cpu].caps.pmsver)
		return;
	sim_set_cpu(cpu);
	write_sysreg(0, PMSCR_EL2);
	write_sysreg(0, PMBLIMITR_EL1);
	isb();
	write_sysreg(0, PMBSR_EL1);
	isb();
}

void hv_host_boot(unsigned int cpu)
{
	const struct vperf_pcpu *pcpu = &hv.pcpu[cpu];
	bool first = pcpu->cfg.host_first_range;
	uint64_t hidden = VPERF_GENMASK(30, 0) & ~(VPERF_BIT(pcpu->caps.nr_counters) - 1);
	uint64_t host = first ? (VPERF_BIT(pcpu->hpmn) - 1) | VPERF_BIT(31) | hidden
			      : VPERF_GENMASK(30, 0) & ~(VPERF_BIT(pcpu->hpmn) - 1);

	sim_poke(cpu, VPERF_ENC_PMCNTENSET_EL0, sim_peek(cpu, VPERF_ENC_PMCNTENSET_EL0) & ~host);
	sim_poke(cpu, VPERF_ENC_PMINTENSET_EL1, sim_peek(cpu, VPERF_ENC_PMINTENSET_EL1) & ~host);
	sim_poke(cpu, VPERF_ENC_PMOVSSET_EL0, sim_peek(cpu, VPERF_ENC_PMOVSSET_EL0) & ~host);
	for (unsigned int n = 0; n < 31; n++) {
		if (!(host & VPERF_BIT(n)))
			continue;
		sim_poke(cpu, VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7), 0);
		sim_poke(cpu, VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7), 0);
	}
	if (first) {
		sim_poke(cpu, VPERF_ENC_PMCCNTR_EL0, 0);
		sim_poke(cpu, VPERF_ENC_PMCCFILTR_EL0, 0);
		sim_poke(cpu, VPERF_ENC_PMCR_EL0, sim_peek(cpu, VPERF_ENC_PMCR_EL0) & ~PMCR_E);
		sim_poke(cpu, VPERF_ENC_MDCR_EL2, pcpu->host_mdcr);
		if (pcpu->caps.fgt) {
			sim_poke(cpu, VPERF_ENC_HDFGRTR_EL2, pcpu->cfg.host_hdfgrtr);
			sim_poke(cpu, VPERF_ENC_HDFGWTR_EL2, pcpu->cfg.host_hdfgwtr);
		}
	}
	host_spe_reset(cpu);
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

int hv_pcpu_up(unsigned int cpu, const struct vperf_pcpu_config *pcfg)
{
	int rc;

	uint64_t e2h = hv.e2h ? VPERF_BIT(34) : 0; /* HCR_EL2.E2H: a VHE host */

	sim_set_cpu(cpu);
	sim_poke(cpu, VPERF_ENC_HCR_EL2, e2h);
	rc = vperf_pcpu_init(&hv.pcpu[cpu], pcfg);
	hv_host_boot(cpu);
	/* IMO: IRQs to EL2; VM: stage 2 on, for the SPE buffer's translations. */
	sim_poke(cpu, VPERF_ENC_HCR_EL2, VPERF_BIT(4) | VPERF_BIT(0) | e2h);
	sim_gic_enable_ppi(cpu, sim_line_intid(SIM_LINE_PMUIRQ), true);
	sim_gic_enable_ppi(cpu, sim_line_intid(SIM_LINE_PMBIRQ), true);
	sim_gic_enable_ppi(cpu, SIM_GIC_MAINT_INTID, true);
	sim_poke(cpu, VPERF_ENC_ICH_HCR_EL2, SIM_ICH_HCR_EN);
	return rc;
}

void hv_power_down(unsigned int cpu)
{
	sim_set_cpu(cpu);
	sim_enter_el2(cpu);
	vperf_pcpu_down(&hv.pcpu[cpu]);
	sim_exit_el2(cpu);
	sim_power_cycle(cpu);
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

/* This put lazy? The vCPU's own policy, else the environment's (HV_LAZY_PUT). */
static bool put_lazily(const struct hv_vcpu *vc)
{
	enum hv_put p = vc->put;

	if (p == HV_PUT_ENV)
		p = !hv.lazy_put ? HV_PUT_EAGER : hv.mixed_put ? HV_PUT_MIXED : HV_PUT_LAZY;
	return p == HV_PUT_LAZY || (p == HV_PUT_MIXED && (sched_next(&hv.put_draws) >> 32 & 1));
}

/* How EL2 names the guest's CONTEXTIDR_EL1: CONTEXTIDR_EL12 on a VHE host, where the name
 * CONTEXTIDR_EL1 is the host's CONTEXTIDR_EL2 (the model reports the wrong one with E2H = 0). */
static enum sim_ctx1_name ctx1_name(void)
{
	return hv.e2h ? SIM_CTX1_BY_EL12 : SIM_CTX1_BY_EL1;
}

/* Put: vperf first (it may still change the line), then the list register is saved. */
static void put(unsigned int cpu)
{
	struct hv_vcpu *vc = hv.running[cpu];

	sim_set_cpu(cpu);
	if (!vc)
		return;
	/* Mixed: as a hypervisor that puts lazily while a vCPU stays and eagerly when it moves
	 * (tests/qemu/hyp/sched.c), without knowing here which it will do. */
	vc->put_lazily = put_lazily(vc);
	if (vc->put_lazily)
		vperf_vcpu_put_lazy(&vc->v);
	else
		vperf_vcpu_put(&vc->v);
	sim_set_cpu(cpu);
	if (hv.pcpu[cpu].cfg.hyp_writes_mdcr)
		write_sysreg(hv.pcpu[cpu].host_mdcr | hv.hyp_host_bits, MDCR_EL2);
	/* A host that writes PMCR_EL0 between put and load (host_writes_pmcr): nVHE KVM puts its
	 * own back after the put and its EL1 perf sets E for its events; the worst case for the
	 * put vCPU, E = 1, whatever the guest's was. */
	if (hv.pcpu[cpu].cfg.host_writes_pmcr)
		write_sysreg(read_sysreg(PMCR_EL0) | PMCR_E, PMCR_EL0);
	vc->contextidr = sim_spe_el2_read_contextidr1(cpu, ctx1_name());
	vc->cntvoff = sim_spe_cntvoff(cpu);
	vc->lr = sim_gic_lr(cpu, 0);
	sim_poke(cpu, VPERF_ENC_ICH_LR0_EL2, 0);
	hv.running[cpu] = NULL;
}

/* With SPE in the model, a switch runs in an exception to EL2 as a hypervisor's does: the entry
 * is the context synchronization event the drain at put relies on (SPE 3.6), the
 * ERET the one after load. The PMU-only tests count EL2 cycles exactly without it. */
static bool switch_at_el2(unsigned int cpu)
{
	return sim_cpu_config(cpu)->pmsver != 0;
}

void hv_leave(unsigned int cpu)
{
	sim_set_cpu(cpu);
	if (!switch_at_el2(cpu)) {
		put(cpu);
		return;
	}
	sim_enter_el2(cpu);
	put(cpu);
	sim_exit_el2(cpu);
}

/* The guest's own context registers the records read (SPE 3.6): the hypervisor's to switch. */
static void switch_context(const struct hv_vcpu *vc, unsigned int cpu)
{
	sim_spe_el2_write_contextidr1(cpu, ctx1_name(), vc->contextidr);
	sim_spe_write_cntvoff(cpu, vc->cntvoff);
}

void hv_load_raw(struct hv_vcpu *vc, unsigned int cpu)
{
	sim_set_cpu(cpu);
	sim_enter_el2(cpu);
	vperf_vcpu_load(&vc->v, &hv.pcpu[cpu]);
	sim_exit_el2(cpu);
	sim_set_cpu(0);
}

void hv_enter(struct hv_vcpu *vc, unsigned int cpu)
{
	if (hv.running[cpu] == vc) {
		sim_set_cpu(cpu);
		return;
	}
	sim_set_cpu(cpu);
	if (switch_at_el2(cpu))
		sim_enter_el2(cpu);
	if (hv.late_put && switch_at_el2(cpu))
		switch_context(vc, cpu);
	put(cpu);
	/* The lazy put's promise (docs/integration.md): a vCPU that moves after one has the pCPU
	 * it was parked on give its state up first, on that pCPU. After an eager put nothing is
	 * owed: vperf must have left nothing parked. */
	if (vc->put_lazily && vperf_vcpu_parked(&vc->v) && vc->cpu != cpu) {
		sim_set_cpu(vc->cpu);
		vperf_pcpu_flush(&hv.pcpu[vc->cpu]);
		sim_set_cpu(cpu);
	}
	/* Stage 2, the VMID and the guest's context are switched between put and load
	 * (include/vperf/hyp.h; docs/vspe.md, "Switching"). */
	sim_mem_set_vmid(cpu, (uint16_t)(vc->v.vm - hv.vm + 1));
	if (!hv.late_put && switch_at_el2(cpu))
		switch_context(vc, cpu);
	vc->cpu = cpu;
	vperf_vcpu_load(&vc->v, &hv.pcpu[cpu]);
	sim_set_cpu(cpu);
	hv.mdcr_after_load[cpu] = sim_peek(cpu, VPERF_ENC_MDCR_EL2);
	if (hv.pcpu[cpu].cfg.hyp_writes_mdcr)
		write_sysreg(vperf_pcpu_mdcr(&hv.pcpu[cpu]), MDCR_EL2);
	hv.running[cpu] = vc;
	sim_poke(cpu, VPERF_ENC_ICH_LR0_EL2, vc->lr);
	if (switch_at_el2(cpu))
		sim_exit_el2(cpu);
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
