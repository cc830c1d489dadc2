// SPDX-License-Identifier: MIT
/* The worlds of test_isolation_worlds (see world.h): drawing a world from its seed, the pCPUs
 * (world_second.c: those of a second-range world; world_hyp.c: newer PMUs and the hypervisor's
 * own debug controls), the VMs, the bring-up order and the schedule. */
#include <string.h>

#include <sim/profiles.h>
#include <sim/spe.h>

#include "sched_util.h"
#include "world_priv.h"

/* The events a filter may deny: those the programs count, CPU_CYCLES (0x11) among them. */
const uint16_t filter_events[] = { 0x00, 0x03, 0x04, 0x08, 0x10, 0x11, 0x13, 0x1e };

unsigned int pick(uint64_t *rng, unsigned int n)
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
void profile_cpu(const struct sim_core_profile *p, struct w_cpu *cpu)
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

/* One world in two is a big.LITTLE system by its common events: each pCPU of PMUv3p1 or later
 * implements the stall events (stall_events, PMCEID1_EL0) pCPU 0 does or, one time in two, its
 * own choice of them, so that the pCPUs may differ there and a VM must read what they all count
 * wherever it runs (iso_pmceid_view). Real cores' profiles keep theirs. Its own stream, drawn
 * last. */
static void draw_stalls(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0x94d049bb133111ebull ^ 0xbf58476d1ce4e5b9ull;
	uint8_t base = (uint8_t)pick(&rng, 4);

	if (pick(&rng, 2))
		return;
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		struct sim_pe_config *pe = &w->cpu[c].pe;
		uint8_t own = (uint8_t)pick(&rng, 4);

		if (pe->pmuver >= 4 && !w->cpu[c].profile)
			pe->stall_events = c && pick(&rng, 2) ? own : base;
	}
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
	draw_stalls(seed, w);
	draw_newer_pmu(seed, w);
	draw_hyp(seed, w);
}
