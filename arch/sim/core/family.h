/* SPDX-License-Identifier: MIT */
/*
 * How the model talks to its families: the PMU (pmu/), SPE (spe/) and GIC virtual CPU interface
 * (gic/). Each family gives behaviour to the registers the model's table (sim/arch_regs.h)
 * assigns to it (sim_arch_reg.family); the register file (core/regfile.c) stores their values;
 * the core (core/pe.c) keeps the PE state and hands events to the families; access/ routes
 * accesses, applies the rules common to all registers (existence, EL2 registers, ID registers),
 * takes traps and drives the micro-op loop.
 */
#ifndef VPERF_SIM_MODEL_FAMILY_H
#define VPERF_SIM_MODEL_FAMILY_H

#include <sim/arch_regs.h>
#include <sim/model.h>

#include "fields.h"

struct sim_family {
	const char *name;
	/* Architectural reset of the family's state on one CPU (registers are 0 before). */
	void (*reset)(unsigned int cpu, const struct sim_pe_config *cfg);
	/* An EL0/EL1 access to an implemented register: the trap and UNDEF rules. */
	enum sim_access (*check)(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
				 bool read);
	/* A performed access at el (0, 1 or 2): the value a read returns ... */
	uint64_t (*read)(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
			 uint64_t stored);
	/* ... and the value a write leaves in the register file (side effects happen here). */
	uint64_t (*write)(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
			  uint64_t old, uint64_t val);
	/* ISB, DSB NSH, PSB CSYNC executed at EL2, and SIM_ISB for exception entry and return. */
	void (*barrier)(unsigned int cpu, enum sim_event_kind kind);
	/* One micro-op executed at sim_el() (EL2 too: the hypervisor's own cycles). */
	void (*step)(unsigned int cpu, const struct sim_uop *op);
	/* Between ops and after guest accesses: take interrupts (GIC only). */
	void (*poll)(unsigned int cpu);
	/* The CPU powered down and came back (sim_power_cycle): the family's state on it as a
	 * Warm reset leaves it; the model's memory and other CPUs untouched. */
	void (*power_cycle)(unsigned int cpu);
};

/* One instruction of the hypervisor's own code at EL2 (each of its System register accesses and
 * barriers through the seam): the SPE may sample it when EL2 owns the buffer and profiles
 * itself (PMSCR_EL2.E2SPE), as hardware samples any instruction (spe/spe.c). */
void sim_spe_el2_instruction(unsigned int cpu);

extern const struct sim_family sim_pmu_family;
extern const struct sim_family sim_spe_family;
extern const struct sim_family sim_gic_family;

/* The family that gives reg its behaviour (NULL: the core's plain storage), from the table's
 * family field and the families access/model.c registered at sim_model_init(). */
const struct sim_family *sim_family_of(const struct sim_arch_reg *reg);
/* Hand an event to every family that takes it. */
void sim_families_barrier(unsigned int cpu, enum sim_event_kind kind);
void sim_families_step(unsigned int cpu, const struct sim_uop *op);
void sim_families_poll(unsigned int cpu);

/* Register value of the current model state, without counting or tracing (families use these
 * for the registers they read or keep). */
static inline uint64_t sim_reg(unsigned int cpu, uint32_t enc)
{
	return sim_peek(cpu, enc);
}

static inline void sim_set_reg(unsigned int cpu, uint32_t enc, uint64_t val)
{
	sim_poke(cpu, enc, val);
}

/* Take the handlers registered by the test hypervisor (for the GIC family). */
const struct sim_handlers *sim_model_handlers(void);

#endif /* VPERF_SIM_MODEL_FAMILY_H */
