// SPDX-License-Identifier: MIT
/*
 * The core profiles (sim/profiles.h). The values and their sources, core by core, are in
 * docs/cores.md: each core's Technical Reference Manual where a public copy was found, the
 * model's choice (marked there) where it was not.
 */
#include <string.h>

#include <sim/profiles.h>
#include <sim/spe.h>

/* name, MIDR_EL1, PMUVer, N, AArch32 EL0, PMSVer, FGT, HPMN0, MT, MTPMU. Armv8.0 cores: PMUv3,
 * AArch32 at every Exception level, no SPE, MPIDR_EL1.MT 0. The Armv8.2 and later cores:
 * MPIDR_EL1.MT 1 although single-threaded, MTPMU 0b0000 (the ID_AA64DFR0_EL1 field is RES0
 * before Armv8.6). Neoverse V2: only its part number was found; the rest is the model's choice,
 * an Armv9.0 core with FEAT_FGT and no AArch32 (docs/cores.md). */
const struct sim_core_profile sim_core_profiles[SIM_NR_CORE_PROFILES] = {
	{ "cortex-a53", 0x410fd034, 1, 6, true, 0, false, false, false, SIM_MTPMU_IMPDEF },
	{ "cortex-a57", 0x411fd070, 1, 6, true, 0, false, false, false, SIM_MTPMU_IMPDEF },
	{ "cortex-a72", 0x410fd083, 1, 6, true, 0, false, false, false, SIM_MTPMU_IMPDEF },
	{ "cortex-a76", 0x414fd0b1, 4, 6, true, 0, false, false, true, SIM_MTPMU_IMPDEF },
	{ "neoverse-n1", 0x414fd0c1, 4, 6, true, 1, false, false, true, SIM_MTPMU_IMPDEF },
	{ "neoverse-v1", 0x411fd402, 5, 6, true, 2, false, false, true, SIM_MTPMU_IMPDEF },
	{ "neoverse-n2", 0x410fd493, 6, 6, true, 2, false, false, true, SIM_MTPMU_IMPDEF },
	{ "neoverse-v2", 0x410fd4f0, 6, 6, false, 2, true, false, true, SIM_MTPMU_IMPDEF },
};

const struct sim_core_profile *sim_core_profile(const char *name)
{
	for (size_t i = 0; i < SIM_NR_CORE_PROFILES; i++)
		if (name && !strcmp(sim_core_profiles[i].name, name))
			return &sim_core_profiles[i];
	return NULL;
}

void sim_profile_config(const struct sim_core_profile *p, struct sim_pe_config *cfg)
{
	sim_spe_default_config(cfg, p->pmsver);
	if (!p->pmsver)
		cfg->pmsidr = cfg->pmbidr = 0;
	cfg->pmuver = p->pmuver;
	cfg->nr_counters = p->nr_counters;
	cfg->aarch32_el0 = p->aarch32_el0;
	cfg->fgt = p->fgt;
	cfg->hpmn0 = p->hpmn0;
	cfg->mt = p->mt;
	cfg->mtpmu = p->mtpmu;
}
