// SPDX-License-Identifier: MIT
/*
 * The core of the model: the configuration, the state of each PE (Exception level, interrupt
 * lines, statistics), errors, the adversary's randomness, which registers the configured PE
 * implements, exception entry to and return from EL2, and the hand-off of events to the
 * families. It sits below the families: they call it by name, it reaches them only through the
 * table access/model.c gives it at reset. See sim/model.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pe.h"

#define MAX_ERRORS	  64
#define DEFAULT_PMU_INTID 23
#define DEFAULT_SPE_INTID 21

/* Each simulated CPU's own configuration: a heterogeneous system is one whose entries differ. */
static struct sim_pe_config configs[SIM_MAX_CPUS];
static struct sim_pe pes[SIM_MAX_CPUS];
static struct sim_handlers handlers;
static struct sim_error errors[MAX_ERRORS];
static unsigned int nr_errors;
static const struct sim_family *families[SIM_NR_FAMILIES];

void sim_default_config(struct sim_pe_config *cfg)
{
	static const struct sim_pe_config defaults = {
		.pmuver = 6,
		.nr_counters = 6,
		.el2_trap_cycles = 20,
		.el3 = true,
		.nr_lrs = 4,
		.seed = 1,
	};

	*cfg = defaults;
}

const struct sim_pe_config *sim_model_config(void)
{
	return sim_cpu_config(sim_current_cpu());
}

const struct sim_pe_config *sim_cpu_config(unsigned int cpu)
{
	return &configs[cpu % SIM_MAX_CPUS];
}

struct sim_pe *sim_pe(unsigned int cpu)
{
	return &pes[cpu % SIM_MAX_CPUS];
}

void sim_pe_reset(const struct sim_pe_config cfgs[SIM_MAX_CPUS],
		  const struct sim_family *const fams[SIM_NR_FAMILIES])
{
	static const struct sim_handlers none;
	static const struct sim_pe zero;

	handlers = none;
	nr_errors = 0;
	for (unsigned int i = 0; i < SIM_NR_FAMILIES; i++)
		families[i] = fams[i];
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		configs[cpu] = cfgs[cpu];
		pes[cpu] = zero;
		pes[cpu].el = 1;
		pes[cpu].rng = (cfgs[cpu].seed ^ 0x9e3779b97f4a7c15ull) * (cpu + 1) | 1;
	}
}

/* ---- errors and randomness ------------------------------------------------------------------- */

/* SIM_VERBOSE=1 in the environment prints each error as it is reported (debugging a test). */
void sim_report_error(unsigned int cpu, const char *what)
{
	if (getenv("SIM_VERBOSE"))
		fprintf(stderr, "sim: cpu%u: %s\n", cpu, what);
	if (nr_errors < MAX_ERRORS) {
		errors[nr_errors].cpu = cpu;
		errors[nr_errors].what = what;
	}
	nr_errors++;
}

unsigned int sim_error_count(void)
{
	return nr_errors;
}

const struct sim_error *sim_error_at(unsigned int i)
{
	return i < nr_errors && i < MAX_ERRORS ? &errors[i] : NULL;
}

/* xorshift64* (Vigna): small, deterministic, good enough to pick adversarial choices. */
uint64_t sim_random(unsigned int cpu)
{
	uint64_t x = pes[cpu % SIM_MAX_CPUS].rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	pes[cpu % SIM_MAX_CPUS].rng = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* ---- which registers exist ------------------------------------------------------------------- */

uint8_t sim_pmu_version(void)
{
	uint8_t v = sim_model_config()->pmuver;

	return v == SIM_ID_DFR0_PMUVER_IMPDEF ? 0 : v;
}

bool sim_pe_fgt(unsigned int cpu)
{
	const struct sim_pe_config *c = sim_cpu_config(cpu);

	return c->fgt && !(c->cpus_without_fgt & VPERF_BIT(cpu));
}

bool sim_pe_hpmn0(unsigned int cpu)
{
	const struct sim_pe_config *c = sim_cpu_config(cpu);

	return c->hpmn0 && !(c->cpus_without_hpmn0 & VPERF_BIT(cpu));
}

bool sim_pe_fgt2(unsigned int cpu)
{
	return sim_pe_fgt(cpu) && sim_cpu_config(cpu)->fgt2;
}

bool sim_pe_mt(unsigned int cpu)
{
	const struct sim_pe_config *c = sim_cpu_config(cpu);

	return c->mt && !(c->cpus_without_mt & VPERF_BIT(cpu));
}

bool sim_pe_spe_secure(unsigned int cpu)
{
	const struct sim_pe_config *c = sim_cpu_config(cpu);

	return c->mdcr_el3_nspb_secure && c->el3 && c->pmsver;
}

/* The "Traps and enables" of every SPE register in SPE 4.3 but PMBIDR_EL1 ("None", 4.3.1):
 * "If MDCR_EL3.NSPB != 0b11, then direct reads and writes ... at EL2 and Non-secure EL1
 * generate a Trap exception to EL3"; at EL1 after MDCR_EL2.TPMS / E2PB (the order of
 * CheckStatisticalProfilingAccess and CheckProfilingBufferAccess, SPE 3.2.3, 3.4.6). With
 * NSPB = 0b00 that is PMSCR_EL2 and PMSCR_EL12 too (4.3.6, 4.3.7), and the later versions'
 * PMSNEVFR_EL1 and PMSDSFR_EL1 (Arm DDI 0487 K.a, their accessibility pseudocode). */
bool sim_spe_el3_trap(unsigned int cpu, const struct sim_arch_reg *r)
{
	return r && r->family == SIM_FAM_SPE && r->feat != SIM_FEAT_ALWAYS &&
	       r->enc != SIM_ENC_PMBIDR_EL1 && sim_pe_spe_secure(cpu);
}

/* FEAT_PMUv3_ICNTR is a PMUv3p9 feature (ID_AA64DFR1_EL1.PMICNTR description). */
bool sim_pe_icntr(void)
{
	return sim_model_config()->icntr && sim_pmu_version() >= 9;
}

/* From the model's own table (sim/arch_regs.h), not from vperf's database: an encoding the
 * model does not know is not implemented. */
bool sim_implemented(uint32_t enc)
{
	const struct sim_arch_reg *r = sim_arch_reg(enc);
	bool pmu = sim_pmu_version() != 0;
	uint8_t pmsver = sim_model_config()->pmsver;

	if (!r)
		return false;
	switch (r->feat) {
	case SIM_FEAT_PMUV3:
		return pmu;
	case SIM_FEAT_PMUV3P4:
		return sim_pmu_version() >= 5;
	case SIM_FEAT_PMUV3P9:
		return sim_pmu_version() >= 9;
	case SIM_FEAT_SPE:
		return pmsver >= 1;
	case SIM_FEAT_SPEV1P2:
		return pmsver >= 3;
	case SIM_FEAT_SPE_FDS:
		return pmsver >= 5;
	case SIM_FEAT_FGT:
		return sim_pe_fgt(sim_current_cpu());
	case SIM_FEAT_FGT2:
		return sim_pe_fgt2(sim_current_cpu());
	case SIM_FEAT_PMUV3_ICNTR:
		return sim_pe_icntr();
	default:
		return true;
	}
}

bool sim_has_dir(uint32_t enc, bool read)
{
	const struct sim_arch_reg *r = sim_arch_reg(enc);

	return r && (r->dir & (read ? SIM_DIR_RO : SIM_DIR_WO));
}

/* ---- the families ---------------------------------------------------------------------------- */

const struct sim_family *sim_family_of(const struct sim_arch_reg *reg)
{
	return reg && reg->family < SIM_NR_FAMILIES ? families[reg->family] : NULL;
}

void sim_families_barrier(unsigned int cpu, enum sim_event_kind kind)
{
	for (size_t i = 0; i < SIM_NR_FAMILIES; i++)
		if (families[i] && families[i]->barrier)
			families[i]->barrier(cpu, kind);
}

void sim_families_step(unsigned int cpu, const struct sim_uop *op)
{
	for (size_t i = 0; i < SIM_NR_FAMILIES; i++)
		if (families[i] && families[i]->step)
			families[i]->step(cpu, op);
}

void sim_families_poll(unsigned int cpu)
{
	for (size_t i = 0; i < SIM_NR_FAMILIES; i++)
		if (families[i] && families[i]->poll)
			families[i]->poll(cpu);
}

/* The families in their order (the PMU's first: its reset writes MDCR_EL2), on cpu as the
 * current CPU (they read its configuration). */
void sim_power_cycle(unsigned int cpu)
{
	unsigned int cur = sim_current_cpu();

	sim_set_cpu(cpu);
	for (size_t i = 0; i < SIM_NR_FAMILIES; i++)
		if (families[i] && families[i]->power_cycle)
			families[i]->power_cycle(cpu);
	sim_set_cpu(cur);
}

/* ---- the PE's state -------------------------------------------------------------------------- */

void sim_set_handlers(const struct sim_handlers *h)
{
	static const struct sim_handlers none;

	handlers = h ? *h : none;
}

const struct sim_handlers *sim_model_handlers(void)
{
	return &handlers;
}

void sim_set_el(unsigned int el)
{
	pes[sim_current_cpu()].el = el > 2 ? 2 : el;
}

unsigned int sim_el(void)
{
	return pes[sim_current_cpu()].el;
}

unsigned int sim_trap_el(void)
{
	return pes[sim_current_cpu()].trap_el;
}

bool sim_secure(void)
{
	return pes[sim_current_cpu()].secure;
}

const struct sim_guest_stats *sim_guest_stats(unsigned int cpu)
{
	return &pes[cpu % SIM_MAX_CPUS].stats;
}

void sim_set_line(unsigned int cpu, enum sim_line line, bool level)
{
	pes[cpu % SIM_MAX_CPUS].lines[line] = level;
}

bool sim_line(unsigned int cpu, enum sim_line line)
{
	return pes[cpu % SIM_MAX_CPUS].lines[line];
}

uint32_t sim_line_intid(enum sim_line line)
{
	return line == SIM_LINE_PMUIRQ ? DEFAULT_PMU_INTID : DEFAULT_SPE_INTID;
}

/* ---- exceptions to EL2 ----------------------------------------------------------------------- */

/* Exception entry to EL2: a context synchronization event, then the hypervisor's own cycles,
 * which counters and SPE see as EL2 execution. */
void sim_enter_el2(unsigned int cpu)
{
	const struct sim_pe_config *config = sim_cpu_config(cpu);
	const struct sim_uop el2_code = {
		.pc = 0xffff800000000000ull,
		.latency = config->el2_trap_cycles ? config->el2_trap_cycles : 1,
		.type = SIM_UOP_OTHER,
	};

	pes[cpu].saved_el = pes[cpu].el;
	pes[cpu].el = 2;
	sim_families_barrier(cpu, SIM_ISB);
	if (config->el2_trap_cycles)
		sim_families_step(cpu, &el2_code);
}

/* ERET back to where the exception came from: a context synchronization event. The handler's
 * last EL2 cycles (el2_exit_cycles) run before it, inside any window its writes opened. */
void sim_exit_el2(unsigned int cpu)
{
	const struct sim_pe_config *config = sim_cpu_config(cpu);
	const struct sim_uop el2_tail = {
		.pc = 0xffff800000000100ull,
		.latency = config->el2_exit_cycles,
		.type = SIM_UOP_OTHER,
	};

	if (config->el2_exit_cycles)
		sim_families_step(cpu, &el2_tail);
	sim_families_barrier(cpu, SIM_ISB);
	pes[cpu].el = pes[cpu].saved_el;
}

void sim_advance_pc(void)
{
	struct sim_pe *pe = &pes[sim_current_cpu()];

	pe->decision = SIM_PE_ADVANCED;
	pe->decisions++;
}

void sim_inject_undef(void)
{
	struct sim_pe *pe = &pes[sim_current_cpu()];

	pe->decision = SIM_PE_UNDEFINED_BY_EL2;
	pe->decisions++;
}
