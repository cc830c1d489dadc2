/* SPDX-License-Identifier: MIT */
/*
 * Core profiles: the PMU and SPE parameters an EL2 layer sees on real Arm cores (Cortex-A53,
 * A57, A72, A76, Neoverse N1, V1, N2, V2), as a model configuration. Every value and where it
 * comes from (each core's Technical Reference Manual, or "not found" and the model's choice) is
 * in docs/cores.md; the table is arch/sim/core/profiles.c.
 */
#ifndef VPERF_SIM_PROFILES_H
#define VPERF_SIM_PROFILES_H

#include <sim/model.h>

/* The SPE ID register fields a public source gave for the core (docs/cores.md): the bits set in
 * pmsidr_found (pmbidr_found) take their value from pmsidr (pmbidr); every other field is the
 * model's default for the core's PMSVer (sim_spe_default_pmsidr(), sim_spe_default_pmbidr()). */
struct sim_spe_found {
	uint64_t pmsidr_found, pmsidr;
	uint64_t pmbidr_found, pmbidr;
};

struct sim_core_profile {
	const char *name;    /* QEMU's -cpu name where QEMU has the core ("cortex-a53") */
	uint32_t midr;	     /* MIDR_EL1 of the revision the values are from */
	uint8_t pmuver;	     /* ID_AA64DFR0_EL1.PMUVer */
	uint8_t nr_counters; /* PMCR_EL0.N */
	bool aarch32_el0;    /* ID_AA64PFR0_EL1.EL0 = 0b0010 */
	uint8_t pmsver;	     /* ID_AA64DFR0_EL1.PMSVer, 0: no SPE */
	bool fgt;	     /* ID_AA64MMFR0_EL1.FGT != 0 */
	bool hpmn0;	     /* ID_AA64DFR0_EL1.HPMN0 */
	bool mt;	     /* MPIDR_EL1.MT */
	uint8_t mtpmu;	     /* enum sim_mtpmu, from ID_AA64DFR0_EL1.MTPMU */
	const struct sim_spe_found *spe; /* SPE ID register fields found; NULL: none (or no SPE) */
};

/* MIDR_EL1 fields (Arm DDI 0487, MIDR_EL1 in D24.2): Implementer [31:24], PartNum [15:4]. */
#define SIM_MIDR_IMPLEMENTER(midr) ((uint8_t)((midr) >> 24))
#define SIM_MIDR_PARTNUM(midr)	   ((uint16_t)(((midr) >> 4) & 0xfff))

#define SIM_NR_CORE_PROFILES 8
extern const struct sim_core_profile sim_core_profiles[SIM_NR_CORE_PROFILES];

/* The profile named name, NULL if none. */
const struct sim_core_profile *sim_core_profile(const char *name);
/* sim_default_config() as the core: its PMU and SPE parameters (SPE's ID registers the model's
 * defaults for its PMSVer, sim_spe_default_pmsidr(), with the fields found replaced: p->spe). */
void sim_profile_config(const struct sim_core_profile *p, struct sim_pe_config *cfg);

#endif /* VPERF_SIM_PROFILES_H */
