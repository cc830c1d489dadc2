// SPDX-License-Identifier: MIT
/* The worlds of test_isolation_worlds (see world.h): the pCPUs and VMs of a second-range world
 * (docs/vpmu.md, "The second range"), drawn after the rest of the world (world.c). */
#include <sim/profiles.h>

#include "world_priv.h"

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
void draw_second(uint64_t seed, struct world *w)
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
