// SPDX-License-Identifier: MIT
/* The worlds of test_isolation_worlds (see world.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <sim/profiles.h>
#include <sim/spe.h>

#include "sched_util.h"
#include "world.h"

/* The events a filter may deny: those the programs count, CPU_CYCLES (0x11) among them. */
static const uint16_t filter_events[] = { 0x00, 0x03, 0x04, 0x08, 0x10, 0x11, 0x13, 0x1e };
#define NR_FILTER_EVENTS (sizeof(filter_events) / sizeof(filter_events[0]))

static unsigned int pick(uint64_t *rng, unsigned int n)
{
	return (unsigned int)(sched_next(rng) >> 16) % n;
}

/* One pCPU: PMUVer v3 .. v3p8, N 0..31 (mostly 2..8), SPE of every version the model has,
 * FEAT_FGT, FEAT_HPMN0, FEAT_PMUv3_EXTPMN (the hardware hides [EPMN, N), and PMCR_EL0.N reads
 * EPMN at EL2) with as many counters again kept below it as the software agent range
 * (agent_counters, docs/vpmu.md); the host's counters and profiling. Each field is the world's base value (base) or, one time in three, a value of its
 * own: mostly alike pCPUs, so that more policies fit all of them, and some that differ. */
static void draw_cpu(uint64_t *rng, uint64_t seed, unsigned int c, const struct w_cpu *base,
		     struct w_cpu *cpu)
{
	static const uint8_t pmuvers[] = { 1, 4, 5, 6, 6, 7, 7, 8 };
	static const uint8_t pmsvers[] = { 0, 1, 1, 2, 3, 5 };
	struct sim_pe_config *pe = &cpu->pe;
	bool own = !base || !pick(rng, 3);
	uint8_t pmsver = own ? pmsvers[pick(rng, sizeof(pmsvers))] : base->pe.pmsver;
	uint8_t n = pick(rng, 8) ? (uint8_t)(2 + pick(rng, 7)) : (uint8_t)pick(rng, 32);

	sim_spe_default_config(pe, pmsver);
	pe->seed = seed * 31 + c;
	pe->el2_trap_cycles = pmsver ? 0 : 20;
	if (base && pick(rng, 3))
		n = base->pe.nr_counters;
	pe->nr_counters = n;
	pe->pmuver = base && pick(rng, 3) ? base->pe.pmuver : pmuvers[pick(rng, sizeof(pmuvers))];
	pe->fgt = base && pick(rng, 3) ? base->pe.fgt : pick(rng, 2);
	pe->hpmn0 = base && pick(rng, 3) ? base->pe.hpmn0 : pick(rng, 2);
	pe->aarch32_el0 = base && pick(rng, 3) ? base->pe.aarch32_el0 : !pick(rng, 4);
	cpu->pc.host_counters =
		base && pick(rng, 3) ? base->pc.host_counters : (uint8_t)pick(rng, 4);
	if (!pick(rng, 6)) {
		pe->extpmn = true;
		cpu->pc.agent_counters = (uint8_t)pick(rng, 3);
		pe->epmn = (uint8_t)(n > cpu->pc.agent_counters ? n - cpu->pc.agent_counters : 0);
		pe->epme = pick(rng, 2);
	}
	cpu->pc.hpmn_unenforced = !pick(rng, 12);
	cpu->pc.host_spe = pmsver && (base && pick(rng, 3) ? base->pc.host_spe : pick(rng, 2));
	cpu->present = true;
}

/* pCPU cpu becomes the core p (docs/cores.md): its PMU and SPE, no external agent (no core
 * here has FEAT_PMUv3_EXTPMN); its seed, host counters and host profiling stay as drawn. */
static void profile_cpu(const struct sim_core_profile *p, struct w_cpu *cpu)
{
	uint64_t seed = cpu->pe.seed;

	sim_profile_config(p, &cpu->pe);
	cpu->pe.seed = seed;
	cpu->pe.el2_trap_cycles = p->pmsver ? 0 : 20;
	cpu->pc.agent_counters = 0;
	cpu->pc.host_spe = cpu->pc.host_spe && p->pmsver;
	cpu->profile = p->name;
}

/* One world in four is a system of real cores: pCPU 0 a core profile, each other pCPU the same
 * core or, one time in three, another (a big.LITTLE or mixed system). Drawn from a stream of
 * its own, so that every other world is drawn as before this choice existed (and world 606265
 * of docs/model.md stays what it was). */
static void draw_profiles(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0xd1342543de82ef95ull ^ 0x2c1b3c6dbd6b1c36ull;
	unsigned int first;

	if (pick(&rng, 4))
		return;
	first = pick(&rng, SIM_NR_CORE_PROFILES);
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		unsigned int k = c && !pick(&rng, 3) ? pick(&rng, SIM_NR_CORE_PROFILES) : first;

		profile_cpu(&sim_core_profiles[k], &w->cpu[c]);
	}
}

/* One world in six has firmware that keeps SPE's Profiling Buffer for the Secure side
 * (MDCR_EL3.NSPB = 0b00, sim_pe_config.mdcr_el3_nspb_secure) on each pCPU with SPE one time in
 * two: vperf finds no SPE it can use there (PMBIDR_EL1.P = 1), the host none either (no
 * host_spe). Its own stream, as draw_profiles: every other world is drawn as before. */
static void draw_spe_el3(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0xaf251af3b0f025b5ull ^ 0x6a09e667f3bcc909ull;

	if (pick(&rng, 6))
		return;
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		struct w_cpu *cpu = &w->cpu[c];

		if (!cpu->pe.pmsver || pick(&rng, 2))
			continue;
		cpu->pe.mdcr_el3_nspb_secure = true;
		cpu->pc.host_spe = false;
	}
}

static void draw_filter(uint64_t *rng, struct vperf_pmu_filter *f)
{
	vperf_pmu_filter_allow_all(f);
	if (pick(rng, 2))
		return;
	for (unsigned int k = 0; k < NR_FILTER_EVENTS; k++)
		if (!pick(rng, 3))
			vperf_pmu_filter_set(f, filter_events[k], false);
}

/* A virtual PPI (0: the configured default), another than avoid's. */
static uint32_t draw_ppi(uint64_t *rng, uint32_t avoid)
{
	uint32_t ppi;

	if (pick(rng, 2))
		return 0;
	do
		ppi = 16 + pick(rng, 16);
	while (ppi == avoid);
	return ppi;
}

/* One VM: XENPMU mode, partition, N (mostly what fits, sometimes not), emu_slots, filter,
 * vSPE policy, virtual PPIs, put. */
static void draw_vm(uint64_t *rng, struct w_vm *vm)
{
	static const enum vperf_pmu_mode modes[] = { VPERF_PMU_OFF,  VPERF_PMU_SELF, VPERF_PMU_SELF,
						     VPERF_PMU_SELF, VPERF_PMU_HV,   VPERF_PMU_HV,
						     VPERF_PMU_HV,   VPERF_PMU_ALL };
	static const enum vperf_partition parts[] = { VPERF_PART_TRAPPED, VPERF_PART_TRAPPED,
						      VPERF_PART_TRAPPED, VPERF_PART_DIRECT,
						      VPERF_PART_DIRECT,  VPERF_PART_EMULATED };
	struct vperf_vm_config *cfg = &vm->cfg;
	unsigned int spe = pick(rng, 8);

	memset(vm, 0, sizeof(*vm));
	cfg->pmu_mode = modes[pick(rng, 8)];
	cfg->partition = parts[pick(rng, 6)];
	cfg->nr_counters = pick(rng, 10) ? (uint8_t)pick(rng, 5) : (uint8_t)pick(rng, 32);
	if (cfg->partition == VPERF_PART_EMULATED)
		cfg->emu_slots = (uint8_t)pick(rng, cfg->nr_counters + 1u);
	draw_filter(rng, &cfg->filter);
	/* vSPE: none (half the VMs), a guest-owned buffer trapped or untrapped, or the host's. */
	cfg->spe = spe >= 4;
	cfg->spe_buffer = spe == 4 || spe == 5 ? VPERF_SPE_BUF_EL1_TRAPPED
			  : spe == 6	       ? VPERF_SPE_BUF_EL1
			  : spe == 7	       ? VPERF_SPE_BUF_EL2
					       : VPERF_SPE_BUF_DEFAULT;
	cfg->pmu_virq = draw_ppi(rng, CONFIG_VPERF_VSPE_PPI);
	cfg->spe_virq = draw_ppi(rng, cfg->pmu_virq ? cfg->pmu_virq : CONFIG_VPERF_VPMU_PPI);
	if (cfg->spe_virq == 0 && cfg->pmu_virq == CONFIG_VPERF_VSPE_PPI)
		cfg->pmu_virq = 0;
	vm->put = (enum hv_put)(HV_PUT_EAGER + pick(rng, 3));
	vm->present = true;
}

/* FEAT_ECV on each pCPU (ID_AA64MMFR0_EL1.ECV: none, FEAT_ECV or FEAT_ECV_POFF), which gives
 * PMSCR_EL1.PCT its bit [7] (vspe/regs.c): the world's value, or one time in four a value of its
 * own. Drawn from a stream of its own, after the profiles (which do not say), so that every other
 * choice of a world stays what it was. */
static void draw_ecv(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0xbf58476d1ce4e5b9ull ^ 0x94d049bb133111ebull;
	uint8_t base = (uint8_t)pick(&rng, 3);

	for (unsigned int c = 0; c < w->nr_cpus; c++)
		w->cpu[c].pe.ecv = c && !pick(&rng, 4) ? (uint8_t)pick(&rng, 3) : base;
}

/* One world in three has pCPUs whose SPE ID registers differ (docs/cores.md, "SPE ID registers
 * that differ between pCPUs"): each pCPU with SPE after the first, one time in two, draws its
 * own PMSIDR_EL1 ArchInst [3], LDS [4], ERnd [5], Interval [11:8] and CountSize [19:16] (SPE
 * 4.3.11), and one time in eight each another MaxSize [15:12] (128 bytes), PMBIDR_EL1.F [5] or
 * Align [3:0] (64 bytes) (SPE 4.3.1), which vperf cannot show a VM with a vSPE as one value
 * (virt/platform.c). FE, FT and FL stay one (SPE 4.3.11: they read as one); a core profile
 * keeps its own values. Its own stream, as draw_profiles: every other part of a world is drawn
 * as before. */
static void draw_spe_ids(uint64_t seed, struct world *w)
{
	static const uint8_t intervals[] = { 0x0, 0x2, 0x4, 0x8 }; /* 256, 512, 1024, 4096 */
	uint64_t rng = seed * 0x94d049bb133111ebull ^ 0x243f6a8885a308d3ull;

	if (pick(&rng, 3))
		return;
	for (unsigned int c = 1; c < w->nr_cpus; c++) {
		struct sim_pe_config *pe = &w->cpu[c].pe;
		uint64_t idr = pe->pmsidr & ~(0x38ull | 0xf0f00ull);

		if (!pe->pmsver || w->cpu[c].profile || pick(&rng, 2))
			continue;
		idr |= (uint64_t)pick(&rng, 8) << 3;
		idr |= (uint64_t)intervals[pick(&rng, 4)] << 8;
		idr |= (uint64_t)(2 + pick(&rng, 2)) << 16; /* 12- or 16-bit saturating */
		if (!pick(&rng, 8))
			idr = (idr & ~0xf000ull) | 0x7000ull;
		pe->pmsidr = idr;
		pe->pmbidr ^= pick(&rng, 8) ? 0u : 0x20u;
		pe->pmbidr |= pick(&rng, 8) ? 0u : 6u;
	}
}

/* The core profile the placement fits (PMUv3p5, AArch64-only: docs/cores.md), or the last. */
static const struct sim_core_profile *second_profile(void)
{
	for (unsigned int k = 0; k < SIM_NR_CORE_PROFILES; k++)
		if (sim_core_profiles[k].pmuver >= 6 && !sim_core_profiles[k].aarch32_el0)
			return &sim_core_profiles[k];
	return &sim_core_profiles[SIM_NR_CORE_PROFILES - 1];
}

/* One pCPU of a second-range world keeps the first range for its host (host_first_range): most
 * often on a PE the placement fits (PMUv3p5 or later, AArch64-only, room in [HPMN, EPMN) for a
 * VM's counters and its cycle counter), one time in six each as drawn (below PMUv3p5, AArch32
 * at EL0, too few counters: the refusals). A core profile becomes, two times in three, the one
 * core the placement fits (second_profile), else stays as drawn. The host keeps the
 * world's host counters (host), or one time in four as many of its own; it runs EL1 code between
 * vCPUs (host_el1) three times in four. */
static void second_cpu(uint64_t *rng, unsigned int host, struct w_cpu *cpu)
{
	static const uint8_t pmuvers[] = { 6, 7, 8 };
	struct sim_pe_config *pe = &cpu->pe;
	unsigned int agent = cpu->pc.agent_counters;

	cpu->pc.host_first_range = true;
	cpu->pc.host_el1 = pick(rng, 4) != 0;
	cpu->pc.host_counters = (uint8_t)(pick(rng, 4) ? host : pick(rng, 5));
	if (cpu->profile) {
		if (pick(rng, 3))
			profile_cpu(second_profile(), cpu);
		return;
	}
	if (pick(rng, 6))
		pe->pmuver = pmuvers[pick(rng, sizeof(pmuvers))];
	if (pick(rng, 6))
		pe->aarch32_el0 = false;
	if (pick(rng, 6)) {
		/* With FEAT_PMUv3_EXTPMN the agent's range is kept twice (draw_cpu). */
		unsigned int n =
			cpu->pc.host_counters + (pe->extpmn ? 2 : 1) * agent + 2 + pick(rng, 6);

		pe->nr_counters = (uint8_t)(n > 31 ? 31 : n);
		if (pe->extpmn)
			pe->epmn = (uint8_t)(pe->nr_counters - agent);
	}
}

/* The most counters a second-range VM can have on pCPU cpu: N <= HPMN, N + 1 <= EPMN - HPMN
 * (the PE's N as read at EL2 is EPMN with FEAT_PMUv3_EXTPMN, below which the world keeps the
 * agent's range too). */
static unsigned int second_fit(const struct w_cpu *cpu)
{
	unsigned int hpmn = cpu->pc.host_counters, agent = cpu->pc.agent_counters;
	unsigned int n = cpu->pe.extpmn ? cpu->pe.epmn : cpu->pe.nr_counters;
	unsigned int room = n > hpmn + agent ? n - hpmn - agent : 0;

	return hpmn < room ? hpmn : room ? room - 1 : 0;
}

/* One VM of a second-range world in the second range (VPERF_PART_SECOND), two times in three:
 * N mostly what fits every pCPU whose host keeps the first range (fit), sometimes any up to 5;
 * its mode, filter, vSPE, PPIs and put as drawn (XENPMU_MODE_ALL: refused). */
static void second_vm(uint64_t *rng, unsigned int fit, struct w_vm *vm)
{
	if (!pick(rng, 3))
		return;
	vm->cfg.partition = VPERF_PART_SECOND;
	vm->cfg.emu_slots = 0;
	vm->cfg.nr_counters = (uint8_t)(pick(rng, 6) ? pick(rng, fit + 1) : pick(rng, 6));
}

/* One world in five is a second-range world (docs/vpmu.md, "The second range"): every pCPU's
 * host keeps the first range, except one time in eight each (a mix: the VMs of one placement
 * are refused, or the pCPUs brought up after them), and most VMs are second-range ones. Drawn
 * from a stream of its own, after every other choice, so that the other worlds are drawn as
 * before it existed. */
static void draw_second(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0x2545f4914f6cdd1dull ^ 0x3c6ef372fe94f82bull;
	unsigned int host, fit = 31;

	if (pick(&rng, 5))
		return;
	host = pick(&rng, 8) ? 1 + pick(&rng, 4) : 0;
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		if (!pick(&rng, 8))
			continue;
		second_cpu(&rng, host, &w->cpu[c]);
		if (second_fit(&w->cpu[c]) < fit)
			fit = second_fit(&w->cpu[c]);
	}
	for (unsigned int v = 0; v < w->nr_vms; v++)
		second_vm(&rng, fit == 31 ? 0 : fit, &w->vm[v]);
}

/* The bring-up order: a random interleaving of pCPUs and VMs, most often a pCPU first (a VM
 * before any pCPU is refused: no PMU to give it). */
static void draw_order(uint64_t *rng, struct world *w)
{
	unsigned int n = 0;

	for (unsigned int c = 0; c < w->nr_cpus; c++)
		w->order[n++] = (uint8_t)c;
	for (unsigned int v = 0; v < w->nr_vms; v++)
		w->order[n++] = (uint8_t)(W_ORDER_VM | v);
	for (unsigned int k = n - 1; k > 0; k--) {
		unsigned int j = pick(rng, k + 1);
		uint8_t t = w->order[k];

		w->order[k] = w->order[j];
		w->order[j] = t;
	}
	if (w->order[0] & W_ORDER_VM && pick(rng, 8)) {
		for (unsigned int k = 1; k < n; k++)
			if (!(w->order[k] & W_ORDER_VM)) {
				uint8_t t = w->order[0];

				w->order[0] = w->order[k];
				w->order[k] = t;
				break;
			}
	}
	w->nr_order = n;
}

/* The schedule: slots of 1-3 steps of a vCPU on a pCPU (a vCPU already running elsewhere
 * migrates), each put after with probability 1/2. */
static void draw_schedule(uint64_t *rng, struct world *w)
{
	w->nr_slots = 16 + pick(rng, W_MAX_SLOTS - 15);
	for (unsigned int k = 0; k < w->nr_slots; k++) {
		w->slot[k] = (struct w_slot){ .vcpu = (uint8_t)pick(rng, w->nr_vcpus),
					      .cpu = (uint8_t)pick(rng, w->nr_cpus),
					      .burst = (uint8_t)(1 + pick(rng, 3)),
					      .leave = pick(rng, 2) };
		w->slot_present[k] = true;
	}
}

/* One put in six is followed by a power-down of its pCPU (a PSCI power-down state, or offline
 * and back): what a guest observes must not show it. Its own stream, drawn last. */
static void draw_downs(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0xa0761d6478bd642full ^ 0xe7037ed1a0b428dbull;

	for (unsigned int k = 0; k < w->nr_slots; k++)
		w->slot[k].down = w->slot[k].leave && !pick(&rng, 6);
}

/* One world in four with more than one pCPU brings one of them up late (not the first pCPU of
 * its bring-up order): before a slot of the schedule, when vCPUs may have run and VMs exist, as a
 * CPU that comes online. vperf_pcpu_init must then give every VM up its policy or refuse the
 * pCPU (vperf.h). Its own stream, drawn last. */
static void draw_late(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0x9fb21c651e98df25ull ^ 0xd6e8feb86659fd93ull;
	unsigned int skip;

	if (w->nr_cpus < 2 || pick(&rng, 4))
		return;
	skip = 1 + pick(&rng, w->nr_cpus - 1); /* the pCPUs of the bring-up order to pass */
	for (unsigned int k = 0; k < w->nr_order; k++)
		if (!(w->order[k] & W_ORDER_VM) && skip-- == 0) {
			w->late = (uint8_t)(1 + w->order[k]);
			break;
		}
	w->late_at = (uint8_t)pick(&rng, w->nr_slots);
}

/* One pCPU in four whose host keeps the second range is an nVHE KVM host: it runs EL1 code
 * between vCPUs (host_el1) and writes PMCR_EL0 between a put and the next load
 * (host_writes_pmcr: hv_switch.c sets E = 1 after every put, as its EL1 perf enabling its events),
 * so that a put vCPU's counters that PMCR_EL0.E alone stopped would count the host's EL1 code.
 * Its own stream, drawn before the E2H one (which such a host excludes). */
static void draw_host_pmcr(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0xd1b54a32d192ed03ull ^ 0x2545f4914f6cdd1dull;

	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		struct w_cpu *cpu = &w->cpu[c];

		if (!cpu->pc.host_first_range && !pick(&rng, 4))
			cpu->pc.host_el1 = cpu->pc.host_writes_pmcr = true;
	}
}

/* A VHE host (HCR_EL2.E2H = 1 on every pCPU, brought up so: vperf reads it at vperf_pcpu_init)
 * one world in two, unless a pCPU's host runs at EL1 (host_el1, host_first_range: nVHE). Its own
 * stream, drawn last: every other part of a world is drawn as before. */
static void draw_e2h(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0xe7037ed1a0b428dbull ^ 0x8ebc6af09c88c6e3ull;

	w->e2h = pick(&rng, 2) != 0;
	for (unsigned int c = 0; c < w->nr_cpus; c++)
		w->e2h &= !w->cpu[c].pc.host_el1 && !w->cpu[c].pc.host_first_range;
}

void world_draw(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0x9e3779b97f4a7c15ull ^ 0x5851f42d4c957f2dull;

	memset(w, 0, sizeof(*w));
	w->seed = seed;
	w->nr_cpus = pick(&rng, 8) ? 1 + pick(&rng, 4) : 1 + pick(&rng, W_MAX_CPUS);
	for (unsigned int c = 0; c < w->nr_cpus; c++)
		draw_cpu(&rng, seed, c, c ? &w->cpu[0] : NULL, &w->cpu[c]);
	draw_profiles(seed, w);
	draw_spe_el3(seed, w);
	draw_ecv(seed, w);
	draw_spe_ids(seed, w);
	w->nr_vms = 1 + pick(&rng, W_MAX_VMS);
	for (unsigned int v = 0; v < w->nr_vms; v++)
		draw_vm(&rng, &w->vm[v]);
	/* One or two vCPUs a VM, eight at most; a VM whose guest owns its Profiling Buffer has
	 * one (its vCPUs would share one buffer). */
	for (unsigned int v = 0; v < w->nr_vms && w->nr_vcpus < W_MAX_VCPUS; v++) {
		bool own_buffer = w->vm[v].cfg.spe && w->vm[v].cfg.spe_buffer != VPERF_SPE_BUF_EL2;
		unsigned int n = own_buffer ? 1 : 1 + pick(&rng, 2);

		for (unsigned int k = 0; k < n && w->nr_vcpus < W_MAX_VCPUS; k++) {
			w->vcpu_vm[w->nr_vcpus] = (uint8_t)v;
			w->vcpu_present[w->nr_vcpus++] = true;
		}
	}
	draw_order(&rng, w);
	draw_schedule(&rng, w);
	w->steps = 4 + pick(&rng, W_STEPS - 3);
	draw_second(seed, w);
	draw_host_pmcr(seed, w);
	draw_e2h(seed, w);
	draw_downs(seed, w);
	draw_late(seed, w);
}

static void simplify_vm(struct w_vm *vm, unsigned int bits)
{
	if (bits & W_SIMPLE_NO_SPE)
		vm->cfg.spe = false;
	if (bits & W_SIMPLE_EAGER)
		vm->put = HV_PUT_EAGER;
	if (bits & W_SIMPLE_ALLOW) {
		vperf_pmu_filter_allow_all(&vm->cfg.filter);
		vm->cfg.pmu_virq = vm->cfg.spe_virq = 0;
	}
	if (bits & W_SIMPLE_TRAPPED) {
		vm->cfg.partition = VPERF_PART_TRAPPED;
		vm->cfg.emu_slots = 0;
	}
}

static void simplify_cpu(struct w_cpu *cpu, unsigned int bits)
{
	if (bits & W_CPU_SIMPLE_NO_HOST_SPE)
		cpu->pc.host_spe = false;
	if (bits & W_CPU_SIMPLE_NO_AGENT) {
		cpu->pe.extpmn = false;
		cpu->pc.agent_counters = 0;
	}
	if (bits & W_CPU_SIMPLE_ENFORCED)
		cpu->pc.hpmn_unenforced = false;
	if (bits & W_CPU_SIMPLE_FEATURES)
		cpu->pe.fgt = cpu->pe.hpmn0 = true;
}

void world_apply(struct world *w, const struct w_shrink *s)
{
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		w->cpu[c].present = !(s->cpus >> c & 1);
		simplify_cpu(&w->cpu[c], s->cpu_simple >> (4 * c) & 15);
	}
	for (unsigned int v = 0; v < w->nr_vms; v++) {
		w->vm[v].present = !(s->vms >> v & 1);
		simplify_vm(&w->vm[v], s->vm_simple >> (4 * v) & 15);
	}
	for (unsigned int i = 0; i < w->nr_vcpus; i++)
		w->vcpu_present[i] = !(s->vcpus >> i & 1) && w->vm[w->vcpu_vm[i]].present;
	for (unsigned int k = 0; k < w->nr_slots; k++) {
		w->slot_present[k] = !(s->slots[k / 64] >> (k % 64) & 1) &&
				     w->vcpu_present[w->slot[k].vcpu] &&
				     w->cpu[w->slot[k].cpu].present;
		w->slot[k].down &= !(s->ups[k / 64] >> (k % 64) & 1);
	}
	if (s->steps && s->steps < w->steps)
		w->steps = s->steps;
}

bool world_parse(const char *text, uint64_t *seed, struct w_shrink *s)
{
	unsigned long long slots0 = 0, slots1 = 0, ups0 = 0, ups1 = 0;
	unsigned int cpus = 0, vms = 0, vcpus = 0, steps = 0, vs = 0, cs = 0;
	int n, m = 0;

	memset(s, 0, sizeof(*s));
	if (sscanf(text, "%" SCNu64 "%n", seed, &n) != 1)
		return false;
	text += n;
	if (!*text)
		return true;
	if (sscanf(text, ":cpus=%x,vms=%x,vcpus=%x,slots=%llx:%llx,steps=%u,vs=%x,cs=%x%n", &cpus,
		   &vms, &vcpus, &slots0, &slots1, &steps, &vs, &cs, &m) != 8)
		return false;
	text += m;
	if (*text && (sscanf(text, ",ups=%llx:%llx%n", &ups0, &ups1, &m) != 2 || text[m]))
		return false;
	*s = (struct w_shrink){ .cpus = cpus,
				.vms = vms,
				.vcpus = vcpus,
				.slots = { slots0, slots1 },
				.steps = steps,
				.vm_simple = vs,
				.cpu_simple = cs,
				.ups = { ups0, ups1 } };
	return true;
}

void world_format(char *buf, size_t len, uint64_t seed, const struct w_shrink *s)
{
	snprintf(buf, len,
		 "%" PRIu64 ":cpus=%x,vms=%x,vcpus=%x,slots=%llx:%llx,steps=%u,vs=%x,cs=%x,"
		 "ups=%llx:%llx",
		 seed, s->cpus, s->vms, s->vcpus, (unsigned long long)s->slots[0],
		 (unsigned long long)s->slots[1], s->steps, s->vm_simple, s->cpu_simple,
		 (unsigned long long)s->ups[0], (unsigned long long)s->ups[1]);
}

static const char *mode_name(enum vperf_pmu_mode m)
{
	return m == VPERF_PMU_OFF    ? "OFF"
	       : m == VPERF_PMU_SELF ? "SELF"
	       : m == VPERF_PMU_HV   ? "HV"
				     : "ALL";
}

static const char *part_name(enum vperf_partition p)
{
	return p == VPERF_PART_TRAPPED	? "trapped"
	       : p == VPERF_PART_DIRECT ? "direct"
	       : p == VPERF_PART_SECOND ? "second"
					: "emulated";
}

static const char *spe_name(const struct vperf_vm_config *cfg)
{
	if (!cfg->spe)
		return "none";
	return cfg->spe_buffer == VPERF_SPE_BUF_EL1_TRAPPED ? "EL1 trapped"
	       : cfg->spe_buffer == VPERF_SPE_BUF_EL1	    ? "EL1 untrapped"
							    : "EL2 (outside)";
}

static const char *put_name(enum hv_put p)
{
	return p == HV_PUT_EAGER ? "eager" : p == HV_PUT_LAZY ? "lazy" : "mixed";
}

static void describe_filter(const struct vperf_pmu_filter *f, char *buf, size_t len)
{
	/* denied: denying it again changes nothing */
	buf[0] = 0;
	for (unsigned int k = 0; k < NR_FILTER_EVENTS; k++) {
		struct vperf_pmu_filter g = *f;

		vperf_pmu_filter_set(&g, filter_events[k], false);
		if (!memcmp(&g, f, sizeof(g))) {
			size_t l = strlen(buf);

			snprintf(buf + l, len - l, "%s0x%02x", l ? "," : "deny ", filter_events[k]);
		}
	}
	if (!buf[0])
		snprintf(buf, len, "allow all");
}

void world_describe(const struct world *w)
{
	char filter[64];

	printf("world %" PRIu64 ": %u pCPUs, %u VMs, %u vCPUs, %u steps each at most, E2H %u\n",
	       w->seed, w->nr_cpus, w->nr_vms, w->nr_vcpus, w->steps, w->e2h);
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		const struct w_cpu *p = &w->cpu[c];

		if (!p->present)
			continue;
		if (p->profile)
			printf("  pCPU %u: %s, MT %u\n", c, p->profile, p->pe.mt);
		printf("  pCPU %u: PMUVer %u N %u PMSVer %u%s PMSIDR %#" PRIx64 " PMBIDR %#" PRIx64
		       " ECV %u FGT %u HPMN0 %u AArch32 EL0 %u EXTPMN %u "
		       "(agent %u) host_counters %u hpmn_unenforced %u host_spe %u%s\n",
		       c, p->pe.pmuver, p->pe.nr_counters, p->pe.pmsver,
		       p->pe.mdcr_el3_nspb_secure ? " (buffer EL3's)" : "", p->pe.pmsidr,
		       p->pe.pmbidr, p->pe.ecv, p->pe.fgt, p->pe.hpmn0, p->pe.aarch32_el0,
		       p->pe.extpmn, p->pc.agent_counters, p->pc.host_counters,
		       p->pc.hpmn_unenforced, p->pc.host_spe,
		       p->pc.host_writes_pmcr	 ? " host_el1 host_writes_pmcr"
		       : !p->pc.host_first_range ? ""
		       : p->pc.host_el1		 ? " host_first_range host_el1"
						 : " host_first_range");
	}
	for (unsigned int v = 0; v < w->nr_vms; v++) {
		const struct w_vm *m = &w->vm[v];

		if (!m->present)
			continue;
		describe_filter(&m->cfg.filter, filter, sizeof(filter));
		printf("  VM %u: %s %s N %u emu_slots %u, %s, vSPE %s, PPIs %u/%u, %s put\n", v,
		       mode_name(m->cfg.pmu_mode), part_name(m->cfg.partition), m->cfg.nr_counters,
		       m->cfg.emu_slots, filter, spe_name(&m->cfg), m->cfg.pmu_virq,
		       m->cfg.spe_virq, put_name(m->put));
	}
	printf("  vCPUs:");
	for (unsigned int i = 0; i < w->nr_vcpus; i++)
		if (w->vcpu_present[i])
			printf(" %u (VM %u)", i, w->vcpu_vm[i]);
	printf("\n  bring-up:");
	for (unsigned int k = 0; k < w->nr_order; k++) {
		unsigned int x = w->order[k] & ~W_ORDER_VM;
		bool vm = w->order[k] & W_ORDER_VM;

		if ((vm ? w->vm[x].present : w->cpu[x].present) && (vm || w->late != x + 1))
			printf(" %s %u", vm ? "VM" : "pCPU", x);
	}
	if (w->late && w->cpu[w->late - 1].present)
		printf("; pCPU %u late, before slot %u", w->late - 1, w->late_at);
	printf("\n  schedule (vCPU@pCPU xsteps, / = put, /v = put and the pCPU down and back):");
	for (unsigned int k = 0; k < w->nr_slots; k++) {
		if (w->late && k == w->late_at && w->cpu[w->late - 1].present)
			printf(" +pCPU %u", w->late - 1);
		if (w->slot_present[k])
			printf(" %u@%u x%u%s", w->slot[k].vcpu, w->slot[k].cpu, w->slot[k].burst,
			       w->slot[k].down	  ? " /v"
			       : w->slot[k].leave ? " /"
						  : "");
	}
	printf("\n");
}
