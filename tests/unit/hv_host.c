// SPDX-License-Identifier: MIT
/*
 * The test hypervisor's host side (hv.h): the machine it runs on (the default model's
 * configuration from the environment: HV_PMUVER, HV_PROFILE, HV_FGT), what the host's boot code
 * does for the counters and the SPE controls it keeps, a pCPU's bring-up (HCR_EL2, vperf_pcpu_init,
 * the GIC) and its power-down (vperf_pcpu_down, then the PE's PMU and SPE state lost).
 */
#include <stdlib.h>

#include <arch/barrier.h>
#include <arch/sysreg.h>
#include <sim/gic.h>
#include <sim/model.h>
#include <sim/profiles.h>
#include <vperf/pmu_regs.h>
#include <vperf/vperf.h>

#include "hv.h"

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
/* SPE's controls reset UNKNOWN too (SPE 4.2): a host with an SPE driver (its own buffer at EL2,
 * host_spe, or a host at EL1: Linux's SPE driver at CPU start) turns its own sampling and the
 * Profiling Buffer off and clears the buffer's status, whose stray S would hold PMBIRQ high. A
 * host with neither (Xen) has no such driver and resets nothing: vperf_pcpu_init must. The
 * guests' PMSCR_EL1 keeps its garbage. */
static void host_spe_reset(unsigned int cpu)
{
	const struct vperf_pcpu *pcpu = &hv.pcpu[cpu];

	if (!pcpu->caps.pmsver || !(pcpu->cfg.host_spe || pcpu->cfg.host_el1))
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
