// SPDX-License-Identifier: MIT
/*
 * The core profiles (sim/profiles.h). The values and their sources, core by core, are in
 * docs/cores.md: each core's Technical Reference Manual, or a register or Linux probe line read
 * on the core, where a public copy was found; the model's choice (marked there) where it was not.
 */
#include <string.h>

#include <sim/profiles.h>
#include <sim/spe.h>

#include "../spe/spe_fields.h"

/* Neoverse N1 (TRM 100616, "SPE functional description"): the recommended minimum sampling
 * interval is 1024 micro-operations, given in PMSIDR_EL1.Interval (0b0100), and the core samples
 * micro-operations, not instructions (ArchInst 0). */
#define N1_PMSIDR_FOUND (PMSIDR_INTERVAL_MASK | PMSIDR_ARCHINST)
#define N1_PMSIDR	(4ull << PMSIDR_INTERVAL_SHIFT)

/* Neoverse V1, from Linux's arm_spe_pmu probe line on a Graviton3 (docs/cores.md: max_record_sz 64,
 * align 64, features 0x17): FE, FT, FL and LDS, no ArchInst, no ERnd; MaxSize 0b0110 (64 bytes);
 * PMBIDR_EL1.Align 0b0110 (64 bytes). */
#define V1_FILTERS (PMSIDR_FE | PMSIDR_FT | PMSIDR_FL)
#define V1_PMSIDR_FOUND \
	(V1_FILTERS | PMSIDR_ARCHINST | PMSIDR_LDS | PMSIDR_ERND | PMSIDR_MAXSIZE_MASK)
#define V1_PMSIDR (V1_FILTERS | PMSIDR_LDS | 6ull << PMSIDR_MAXSIZE_SHIFT)
#define V1_PMBIDR 6ull

/* name, MIDR_EL1, PMUVer, N, AArch32 EL0, PMSVer, FGT, HPMN0, MT, MTPMU, SPE ID fields found.
 * Armv8.0 cores: PMUv3, AArch32 at every Exception level, no SPE, MPIDR_EL1.MT 0. The Armv8.2 and
 * later cores: MPIDR_EL1.MT 1 although single-threaded (N2 and V2: the model's choice), MTPMU
 * 0b0000 (the ID_AA64DFR0_EL1 field is RES0 before Armv8.6). Neoverse V2: AArch64 only at EL0 and
 * no FEAT_FGT as read on Graviton4; its PMUVer (at least 6), N, PMSVer, HPMN0 and MT are the
 * model's choice (docs/cores.md). */
static const struct sim_spe_found n1_spe = { N1_PMSIDR_FOUND, N1_PMSIDR, 0, 0 };
static const struct sim_spe_found v1_spe = { V1_PMSIDR_FOUND, V1_PMSIDR, PMBIDR_ALIGN_MASK,
					     V1_PMBIDR };

const struct sim_core_profile sim_core_profiles[SIM_NR_CORE_PROFILES] = {
	{ "cortex-a53", 0x410fd034, 1, 6, true, 0, false, false, false, SIM_MTPMU_IMPDEF, NULL },
	{ "cortex-a57", 0x411fd070, 1, 6, true, 0, false, false, false, SIM_MTPMU_IMPDEF, NULL },
	{ "cortex-a72", 0x410fd083, 1, 6, true, 0, false, false, false, SIM_MTPMU_IMPDEF, NULL },
	{ "cortex-a76", 0x414fd0b1, 4, 6, true, 0, false, false, true, SIM_MTPMU_IMPDEF, NULL },
	{ "neoverse-n1", 0x414fd0c1, 4, 6, true, 1, false, false, true, SIM_MTPMU_IMPDEF, &n1_spe },
	{ "neoverse-v1", 0x411fd402, 5, 6, true, 2, false, false, true, SIM_MTPMU_IMPDEF, &v1_spe },
	{ "neoverse-n2", 0x410fd493, 6, 6, true, 2, false, false, true, SIM_MTPMU_IMPDEF, NULL },
	{ "neoverse-v2", 0x410fd4f0, 6, 6, false, 2, false, false, true, SIM_MTPMU_IMPDEF, NULL },
};

static uint64_t with_found(uint64_t dflt, uint64_t found, uint64_t val)
{
	return (dflt & ~found) | (val & found);
}

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
	if (!p->pmsver) {
		cfg->pmsidr = cfg->pmbidr = 0;
	} else if (p->spe) {
		cfg->pmsidr = with_found(cfg->pmsidr, p->spe->pmsidr_found, p->spe->pmsidr);
		cfg->pmbidr = with_found(cfg->pmbidr, p->spe->pmbidr_found, p->spe->pmbidr);
	}
	cfg->pmuver = p->pmuver;
	cfg->nr_counters = p->nr_counters;
	cfg->aarch32_el0 = p->aarch32_el0;
	cfg->fgt = p->fgt;
	cfg->hpmn0 = p->hpmn0;
	cfg->mt = p->mt;
	cfg->mtpmu = p->mtpmu;
}
