// SPDX-License-Identifier: MIT
/* The worlds of test_isolation_worlds (see world.h): the hypervisor's own share of the pCPUs'
 * debug controls, and PMU hardware newer than what vperf shows a guest, drawn after the rest of
 * the world (world.c), each from a stream of its own, so that every other part of a world is
 * drawn as before they existed. */
#include <vperf/fgt.h>
#include <vperf/mdcr.h>

#include "world_priv.h"

/* SPE's fields of HDFGRTR_EL2 and HDFGWTR_EL2 (Arm DDI 0487 K.a, D24.2): PMBLIMITR_EL1 [23] to
 * PMSLATFR_EL1 [32] (PMSIDR_EL1 [30] reads only), nPMSNEVFR_EL1 [62], which traps at 0, and
 * PMBIDR_EL1 [63] (reads only). */
#define HDFG_SPE      VPERF_GENMASK(32, 23)
#define HDFG_NPMSNEVF VPERF_BIT(62)
#define HDFGRTR_SPE   (HDFG_SPE | HDFG_NPMSNEVF | VPERF_BIT(63))
#define HDFGWTR_SPE   ((HDFG_SPE & ~VPERF_BIT(30)) | HDFG_NPMSNEVF)

static uint64_t draw_bits(uint64_t *rng, uint64_t mask)
{
	uint64_t v = 0;

	for (unsigned int b = 0; b < 64; b++)
		if (mask & VPERF_BIT(b) && pick(rng, 2))
			v |= VPERF_BIT(b);
	return v;
}

/* The host's MDCR_EL2 bits (vperf_pcpu_config.host_mdcr): the debug traps every PE with EL2 has
 * (TDE, TDA, TDOSA, TDRA), HLP from PMUv3p5 and HPMFZO from PMUv3p7 (MDCR_EL2's fields; a bit
 * the PE lacks would fail vperf_pcpu_init), each one time in two. */
static uint64_t draw_host_mdcr(uint64_t *rng, const struct sim_pe_config *pe)
{
	uint64_t mask = MDCR_EL2_TDE | MDCR_EL2_TDA | MDCR_EL2_TDOSA | MDCR_EL2_TDRA;

	if (pe->pmuver >= 6)
		mask |= MDCR_EL2_HLP;
	if (pe->pmuver >= 7)
		mask |= MDCR_EL2_HPMFZO;
	return draw_bits(rng, mask);
}

/* The host's fine-grained traps with FEAT_FGT (host_hdfgrtr, host_hdfgwtr): SPE's fields, which
 * apply to the guests too (vperf writes them with its own PMU fields), and one time in four PMU
 * fields, which vperf's replace while a vCPU runs and put back at its put (fgt_host_pmu). With
 * FEAT_FGT2 its HDFGRTR2_EL2/HDFGWTR2_EL2, whose fields trap at 0. */
static void draw_host_fgt(uint64_t *rng, struct w_cpu *cpu)
{
	bool pmu = !pick(rng, 4);

	if (!cpu->pe.fgt)
		return;
	cpu->pc.host_hdfgrtr = draw_bits(rng, HDFGRTR_SPE | (pmu ? HDFGRTR_VPERF_MASK : 0));
	cpu->pc.host_hdfgwtr = draw_bits(rng, HDFGWTR_SPE | (pmu ? HDFGWTR_VPERF_MASK : 0));
	if (!cpu->pe.fgt2)
		return;
	cpu->pc.host_hdfgrtr2 = draw_bits(rng, HDFGRTR2_VPERF_MASK);
	cpu->pc.host_hdfgwtr2 = draw_bits(rng, HDFGWTR2_VPERF_MASK);
}

/* One world in three has a hypervisor that writes MDCR_EL2 itself after every load and put, on
 * every pCPU (hyp_writes_mdcr, tests/unit/hv_switch.c: KVM's shape, docs/integration/kvm.md);
 * one in three, drawn apart, one that gives vperf its own debug traps and fine-grained traps
 * (above), which vperf must keep while a vCPU runs and never let decide what a guest sees of
 * another (without hyp_writes_mdcr the load's short paths keep them too). The others keep 0. */
void draw_hyp(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0x9e6c63d0676a9a99ull ^ 0x510e527fade682d1ull;
	bool writes = !pick(&rng, 3), own = !pick(&rng, 3);

	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		struct w_cpu *cpu = &w->cpu[c];

		cpu->pc.hyp_writes_mdcr = writes;
		if (!own)
			continue;
		cpu->pc.host_mdcr = draw_host_mdcr(&rng, &cpu->pe);
		draw_host_fgt(&rng, cpu);
	}
}

/* One world in four has PMU hardware newer than what vperf shows a guest (docs/vpmu.md, "Newer
 * PMU hardware"): each pCPU of PMUv3p5 or later that is not a core profile becomes, one time in
 * two, PMUv3p9 (PMZR_EL0, PMUACR_EL1), with FEAT_PMUv3_ICNTR's instruction counter one time in
 * two and, where it has FEAT_FGT, FEAT_FGT2 one time in two (without which an instruction
 * counter refuses the direct partition). Drawn before draw_hyp, which reads FEAT_FGT2. */
void draw_newer_pmu(uint64_t seed, struct world *w)
{
	uint64_t rng = seed * 0x5851f42d4c957f2dull ^ 0x9b05688c2b3e6c1full;

	if (pick(&rng, 4))
		return;
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		struct sim_pe_config *pe = &w->cpu[c].pe;

		if (w->cpu[c].profile || pe->pmuver < 6 || pick(&rng, 2))
			continue;
		pe->pmuver = 9;
		pe->icntr = pick(&rng, 2);
		pe->fgt2 = pe->fgt && pick(&rng, 2);
	}
}
