/* SPDX-License-Identifier: MIT */
/*
 * How the model core (arch/sim/model.c) talks to its families: the PMU (pmu*.c), SPE (spe*.c)
 * and GIC virtual CPU interface (gic*.c). Each family gives behaviour to the database registers
 * it owns; the register file (regfile.c) stores their values; the core routes accesses, applies
 * the rules common to all registers (existence, EL2 registers, ID registers), takes traps and
 * drives the micro-op loop.
 */
#ifndef VPERF_SIM_MODEL_FAMILY_H
#define VPERF_SIM_MODEL_FAMILY_H

#include <sim/model.h>

struct sim_family {
	const char *name;
	/* Does this family give the register its behaviour? */
	bool (*owns)(const struct vperf_sysreg_desc *d);
	/* Architectural reset of the family's state on one CPU (registers are 0 before). */
	void (*reset)(unsigned int cpu, const struct sim_pe_config *cfg);
	/* An EL0/EL1 access to an implemented register: the trap and UNDEF rules. */
	enum sim_access (*check)(unsigned int cpu, unsigned int el,
				 const struct vperf_sysreg_desc *d, bool read);
	/* A performed access at el (0, 1 or 2): the value a read returns ... */
	uint64_t (*read)(unsigned int cpu, unsigned int el, const struct vperf_sysreg_desc *d,
			 uint64_t stored);
	/* ... and the value a write leaves in the register file (side effects happen here). */
	uint64_t (*write)(unsigned int cpu, unsigned int el, const struct vperf_sysreg_desc *d,
			  uint64_t old, uint64_t val);
	/* ISB, DSB NSH, PSB CSYNC executed at EL2, and SIM_ISB for exception entry and return. */
	void (*barrier)(unsigned int cpu, enum sim_event_kind kind);
	/* One micro-op executed at sim_el() (EL2 too: the hypervisor's own cycles). */
	void (*step)(unsigned int cpu, const struct sim_uop *op);
	/* Between ops and after guest accesses: take interrupts (GIC only). */
	void (*poll)(unsigned int cpu);
};

/* One instruction of the hypervisor's own code at EL2 (each of its System register accesses and
 * barriers through the seam): the SPE may sample it when EL2 owns the buffer and profiles
 * itself (PMSCR_EL2.E2SPE), as hardware samples any instruction (spe.c). */
void sim_spe_el2_instruction(unsigned int cpu);

extern const struct sim_family sim_pmu_family;
extern const struct sim_family sim_spe_family;
extern const struct sim_family sim_gic_family;

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
