/* SPDX-License-Identifier: MIT */
/*
 * The state of each simulated PE that the core keeps (core/pe.c) and the access and trap code
 * (access/) drives: the current Exception level, the PC decision of a trap being handled,
 * interrupt lines, statistics. The families read it through sim/model.h (sim_el, sim_line...).
 */
#ifndef VPERF_SIM_CORE_PE_H
#define VPERF_SIM_CORE_PE_H

#include "family.h"

enum sim_pe_decision { SIM_PE_UNDECIDED, SIM_PE_ADVANCED, SIM_PE_UNDEFINED_BY_EL2 };

struct sim_pe {
	unsigned int el;
	unsigned int trap_el;  /* the EL the trap being handled came from */
	unsigned int saved_el; /* the EL an exception to EL2 returns to */
	enum sim_pe_decision decision;
	unsigned int decisions;
	bool lines[SIM_NR_LINES];
	bool secure;
	uint64_t rng;
	struct sim_guest_stats stats;
};

struct sim_pe *sim_pe(unsigned int cpu);

/* Reset every PE to EL1 with the configuration, forget errors and handlers, and take the
 * families (by enum sim_family_id; NULL where a family has none) that events go to. */
void sim_pe_reset(const struct sim_pe_config cfgs[SIM_MAX_CPUS],
		  const struct sim_family *const families[SIM_NR_FAMILIES]);

/* Does the configured PE implement the register at enc, and can it be read (read) or written? */
bool sim_implemented(uint32_t enc);
bool sim_has_dir(uint32_t enc, bool read);
/* Does an access to r from Non-secure EL1 or EL2 on cpu that no EL2 trap took first trap to
 * EL3 (MDCR_EL3.NSPB, sim_pe_spe_secure)? */
bool sim_spe_el3_trap(unsigned int cpu, const struct sim_arch_reg *r);

#endif /* VPERF_SIM_CORE_PE_H */
