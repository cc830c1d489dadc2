// SPDX-License-Identifier: MIT
/*
 * The model core: configuration, the routing of register accesses to the families, the rules
 * common to every register, traps to EL2 with the syndrome hardware builds, and the micro-op
 * loop. See sim/model.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include <arch/sysreg.h>
#include <sim/arch_regs.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>

#include "model_family.h"

#define HCR_EL2_TID3	  VPERF_BIT(18)
#define MAX_ERRORS	  64
#define DEFAULT_PMU_INTID 23
#define DEFAULT_SPE_INTID 21

enum decision { UNDECIDED, ADVANCED, UNDEFINED_BY_EL2 };

struct pe {
	unsigned int el;
	unsigned int trap_el;  /* the EL the trap being handled came from */
	unsigned int saved_el; /* the EL an exception to EL2 returns to */
	enum decision decision;
	unsigned int decisions;
	bool lines[SIM_NR_LINES];
	bool secure;
	uint64_t rng;
	struct sim_guest_stats stats;
};

static const struct sim_family *const families[] = { &sim_pmu_family, &sim_spe_family,
						     &sim_gic_family };
static struct sim_pe_config config;
static struct pe pes[SIM_MAX_CPUS];
static struct sim_handlers handlers;
static struct sim_error errors[MAX_ERRORS];
static unsigned int nr_errors;

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
	return &config;
}

/* ---- errors and randomness ---------------------------------------------------------------- */

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

/* ---- which registers exist ------------------------------------------------------------------ */

/* Does the PE implement the register? From the model's own table (sim/arch_regs.h), not
 * from vperf's database: an encoding the model does not know is not implemented. */
static bool implemented(uint32_t enc)
{
	const struct sim_arch_reg *r = sim_arch_reg(enc);
	bool pmu = config.pmuver != 0 && config.pmuver != ID_DFR0_PMUVER_IMPDEF;

	if (!r)
		return false;
	switch (r->feat) {
	case SIM_FEAT_PMUV3:
		return pmu;
	case SIM_FEAT_PMUV3P4:
		return pmu && config.pmuver >= 5;
	case SIM_FEAT_PMUV3P9:
		return pmu && config.pmuver >= 9;
	case SIM_FEAT_SPE:
		return config.pmsver >= 1;
	case SIM_FEAT_SPEV1P2:
		return config.pmsver >= 3;
	case SIM_FEAT_SPE_FDS:
		return config.pmsver >= 5;
	default:
		return true;
	}
}

static bool has_dir(uint32_t enc, bool read)
{
	const struct sim_arch_reg *r = sim_arch_reg(enc);

	return r && (r->dir & (read ? SIM_DIR_RO : SIM_DIR_WO));
}

static const struct sim_family *owner(const struct vperf_sysreg_desc *d)
{
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(families); i++)
		if (families[i]->owns && families[i]->owns(d))
			return families[i];
	return NULL;
}

/* ---- EL2 accesses through the seam (vperf's own) ------------------------------------------- */

/* Each access or barrier is an instruction vperf executes: at EL2 the SPE may sample it. */
static void el2_instruction(unsigned int cpu)
{
	if (pes[cpu].el == 2 && config.pmsver)
		sim_spe_el2_instruction(cpu);
}

static uint64_t hook_read(void *ctx, unsigned int cpu, uint32_t enc, uint64_t stored)
{
	const struct vperf_sysreg_desc *d = vperf_sysreg_lookup(enc);
	const struct sim_family *f = d ? owner(d) : NULL;

	(void)ctx;
	el2_instruction(cpu);
	if (d && !implemented(enc)) {
		sim_report_error(cpu, "EL2 read of a register the PE does not implement (UNDEF)");
		return 0;
	}
	return f && f->read ? f->read(cpu, 2, d, stored) : stored;
}

static uint64_t hook_write(void *ctx, unsigned int cpu, uint32_t enc, uint64_t old, uint64_t val)
{
	const struct vperf_sysreg_desc *d = vperf_sysreg_lookup(enc);
	const struct sim_family *f = d ? owner(d) : NULL;

	(void)ctx;
	el2_instruction(cpu);
	if (d && !implemented(enc)) {
		sim_report_error(cpu, "EL2 write of a register the PE does not implement (UNDEF)");
		return old;
	}
	if (d && !has_dir(enc, false)) {
		sim_report_error(cpu, "EL2 write of a read-only register (UNDEF)");
		return old;
	}
	return f && f->write ? f->write(cpu, 2, d, old, val) : val;
}

static void notify_barrier(unsigned int cpu, enum sim_event_kind kind)
{
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(families); i++)
		if (families[i]->barrier)
			families[i]->barrier(cpu, kind);
}

static void hook_barrier(void *ctx, unsigned int cpu, enum sim_event_kind kind)
{
	(void)ctx;
	el2_instruction(cpu);
	notify_barrier(cpu, kind);
}

/* ---- set-up ------------------------------------------------------------------------------------ */

/* ID_AA64PFR0_EL1: EL0, EL1 and EL2 in AArch64 (1), EL3 when configured (Arm ARM D19). */
static uint64_t initial_pfr0(void)
{
	return 0x111ull | (config.el3 ? 0x1000ull : 0);
}

static uint64_t initial_dfr0(void)
{
	uint64_t dfr0 = (uint64_t)config.pmuver << ID_DFR0_PMUVER_SHIFT;

	dfr0 |= (uint64_t)config.pmsver << ID_DFR0_PMSVER_SHIFT;
	if (config.hpmn0)
		dfr0 |= 1ull << ID_DFR0_HPMN0_SHIFT;
	return dfr0;
}

void sim_model_init(const struct sim_pe_config *cfg)
{
	static const struct sim_hooks hooks = {
		.read = hook_read,
		.write = hook_write,
		.barrier = hook_barrier,
	};
	static const struct sim_handlers none;
	static const struct pe zero;

	sim_reset();
	config = *cfg;
	handlers = none;
	nr_errors = 0;
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		pes[cpu] = zero;
		pes[cpu].el = 1;
		pes[cpu].rng = (cfg->seed ^ 0x9e3779b97f4a7c15ull) * (cpu + 1) | 1;
		sim_set_reg(cpu, VPERF_ENC_ID_AA64DFR0_EL1, initial_dfr0());
		sim_set_reg(cpu, VPERF_ENC_ID_AA64PFR0_EL1, initial_pfr0());
		for (size_t i = 0; i < VPERF_ARRAY_SIZE(families); i++)
			if (families[i]->reset)
				families[i]->reset(cpu, cfg);
	}
	sim_set_hooks(&hooks);
}

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

const struct sim_guest_stats *sim_guest_stats(unsigned int cpu)
{
	return &pes[cpu % SIM_MAX_CPUS].stats;
}

/* ---- interrupt lines ------------------------------------------------------------------------------ */

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

static void poll(unsigned int cpu)
{
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(families); i++)
		if (families[i]->poll)
			families[i]->poll(cpu);
}

/* ---- execution ------------------------------------------------------------------------------------ */

static void step(unsigned int cpu, const struct sim_uop *op)
{
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(families); i++)
		if (families[i]->step)
			families[i]->step(cpu, op);
}

/* Exception entry to EL2: a context synchronization event, then the hypervisor's own cycles,
 * which counters and SPE see as EL2 execution. */
void sim_enter_el2(unsigned int cpu)
{
	const struct sim_uop el2_code = {
		.pc = 0xffff800000000000ull,
		.latency = config.el2_trap_cycles ? config.el2_trap_cycles : 1,
		.type = SIM_UOP_OTHER,
	};

	pes[cpu].saved_el = pes[cpu].el;
	pes[cpu].el = 2;
	notify_barrier(cpu, SIM_ISB);
	if (config.el2_trap_cycles)
		step(cpu, &el2_code);
}

/* ERET back to where the exception came from: a context synchronization event. The handler's
 * last EL2 cycles (el2_exit_cycles) run before it, inside any window its writes opened. */
void sim_exit_el2(unsigned int cpu)
{
	const struct sim_uop el2_tail = {
		.pc = 0xffff800000000100ull,
		.latency = config.el2_exit_cycles,
		.type = SIM_UOP_OTHER,
	};

	if (config.el2_exit_cycles)
		step(cpu, &el2_tail);
	notify_barrier(cpu, SIM_ISB);
	pes[cpu].el = pes[cpu].saved_el;
}

void sim_advance_pc(void)
{
	struct pe *pe = &pes[sim_current_cpu()];

	pe->decision = ADVANCED;
	pe->decisions++;
}

void sim_inject_undef(void)
{
	struct pe *pe = &pes[sim_current_cpu()];

	pe->decision = UNDEFINED_BY_EL2;
	pe->decisions++;
}

/* ESR_EL2 for a trapped MSR/MRS, built here and not with vperf's encoder, so that a wrong
 * decoder cannot agree with a wrong encoder (Arm ARM D24.2.40, ISS for EC 0x18). */
static uint64_t build_esr(uint32_t enc, unsigned int rt, bool read)
{
	uint64_t iss = (uint64_t)VPERF_ENC_OP0(enc) << 20 | (uint64_t)VPERF_ENC_OP2(enc) << 17 |
		       (uint64_t)VPERF_ENC_OP1(enc) << 14 | (uint64_t)VPERF_ENC_CRN(enc) << 10 |
		       (uint64_t)rt << 5 | (uint64_t)VPERF_ENC_CRM(enc) << 1 | (read ? 1u : 0u);

	return 0x18ull << 26 | 1ull << 25 | iss;
}

static bool gprs_kept(const uint64_t *before, const uint64_t *after, unsigned int rt, bool read)
{
	for (unsigned int i = 0; i < 31; i++)
		if (before[i] != after[i] && !(read && i == rt))
			return false;
	return true;
}

/* Rt of a trapped access: 31 (XZR) for the XZR forms; for a write of zero, XZR half the time
 * (what a compiler emits for `msr reg, xzr`); otherwise a random GPR. */
static unsigned int pick_rt(unsigned int cpu, bool xzr, bool read, uint64_t val)
{
	if (xzr || (!read && val == 0 && (sim_random(cpu) & 1)))
		return 31;
	return (unsigned int)(sim_random(cpu) % 31);
}

static enum sim_access trap_to_el2(unsigned int cpu, const struct vperf_sysreg_desc *d, bool read,
				   uint64_t *val, bool xzr)
{
	struct pe *pe = &pes[cpu];
	unsigned int rt = pick_rt(cpu, xzr, read, *val);
	uint64_t gprs[31], before[31];
	unsigned int guest_el = pe->el;

	for (unsigned int i = 0; i < 31; i++)
		gprs[i] = before[i] = sim_random(cpu);
	if (!read && rt != 31)
		gprs[rt] = before[rt] = *val;
	pe->stats.last_esr = build_esr(d->enc, rt, read);
	pe->trap_el = guest_el;
	pe->decision = UNDECIDED;
	pe->decisions = 0;
	sim_enter_el2(cpu);
	if (handlers.sysreg_trap)
		handlers.sysreg_trap(handlers.ctx, cpu, pe->stats.last_esr, gprs);
	sim_exit_el2(cpu);
	if (pe->decisions != 1)
		sim_report_error(cpu, "trap handled with no or several PC decisions");
	if (!gprs_kept(before, gprs, rt, read))
		sim_report_error(cpu, "trap handler changed a GPR other than the MRS target");
	if (pe->decision != ADVANCED)
		return SIM_ACC_UNDEF;
	pe->stats.el2_traps++;
	if (read)
		*val = rt == 31 ? 0 : gprs[rt]; /* MRS to XZR: the value is discarded */
	return SIM_ACC_TRAP_EL2;
}

/* Rules common to all registers, before the family's own: an unallocated or unimplemented
 * encoding, an EL2 register at EL0/EL1 and an ID register at EL0 are UNDEFINED; HCR_EL2.TID3
 * traps ID register reads from EL1. */
static enum sim_access common_check(unsigned int cpu, unsigned int el,
				    const struct vperf_sysreg_desc *d)
{
	const struct sim_arch_reg *r = d ? sim_arch_reg(d->enc) : NULL;

	if (!r || !implemented(d->enc) || r->trap == SIM_TRAP_EL2_ONLY)
		return SIM_ACC_UNDEF;
	if (r->trap == SIM_TRAP_TID3) {
		if (el == 0)
			return SIM_ACC_UNDEF;
		return sim_reg(cpu, VPERF_ENC_HCR_EL2) & HCR_EL2_TID3 ? SIM_ACC_TRAP_EL2
								      : SIM_ACC_OK;
	}
	return SIM_ACC_OK;
}

/* xzr: the instruction names XZR as Rt (MSR writes zero, MRS discards the value). */
static enum sim_access guest_access(uint32_t enc, bool read, uint64_t *val, bool xzr)
{
	unsigned int cpu = sim_current_cpu(), el = pes[cpu].el;
	const struct vperf_sysreg_desc *d = vperf_sysreg_lookup(enc);
	const struct sim_family *f = d ? owner(d) : NULL;
	enum sim_access acc = common_check(cpu, el, d);

	/* MRS of a write-only or MSR of a read-only register is not an instruction at all: it is
	 * UNDEFINED before any trap is considered. */
	if (acc == SIM_ACC_OK && !has_dir(enc, read))
		acc = SIM_ACC_UNDEF;
	if (acc == SIM_ACC_OK && f && f->check)
		acc = f->check(cpu, el, d, read);
	if (acc == SIM_ACC_TRAP_EL2)
		acc = trap_to_el2(cpu, d, read, val, xzr);
	else if (acc == SIM_ACC_OK && read)
		*val = f && f->read ? f->read(cpu, el, d, sim_reg(cpu, enc)) : sim_reg(cpu, enc);
	else if (acc == SIM_ACC_OK)
		sim_set_reg(cpu, enc,
			    f && f->write ? f->write(cpu, el, d, sim_reg(cpu, enc), *val) : *val);
	if (acc == SIM_ACC_UNDEF)
		pes[cpu].stats.undefs++;
	if (acc == SIM_ACC_TRAP_EL1)
		pes[cpu].stats.el1_traps++;
	pes[cpu].stats.last = acc;
	poll(cpu);
	return acc;
}

uint64_t guest_mrs(uint32_t enc)
{
	uint64_t val = 0; /* stays 0 when the read is UNDEF or trapped to EL1 */

	guest_access(enc, true, &val, false);
	return val;
}

void guest_msr(uint32_t enc, uint64_t val)
{
	guest_access(enc, false, &val, false);
}

void guest_mrs_xzr(uint32_t enc)
{
	uint64_t val = 0;

	guest_access(enc, true, &val, true);
}

void guest_msr_xzr(uint32_t enc)
{
	uint64_t val = 0;

	guest_access(enc, false, &val, true);
}

bool sim_secure(void)
{
	return pes[sim_current_cpu()].secure;
}

void sim_run_secure(unsigned int el, const struct sim_uop *ops, size_t n)
{
	unsigned int cpu = sim_current_cpu(), saved = pes[cpu].el;

	if (!config.el3) {
		sim_report_error(cpu, "Secure state run on a PE without EL3");
		return;
	}
	pes[cpu].el = el;
	pes[cpu].secure = true;
	for (size_t i = 0; i < n; i++)
		sim_pmu_family.step(cpu, &ops[i]);
	pes[cpu].secure = false;
	pes[cpu].el = saved;
}

void guest_run(const struct sim_uop *ops, size_t n)
{
	unsigned int cpu = sim_current_cpu();

	for (size_t i = 0; i < n; i++) {
		step(cpu, &ops[i]);
		poll(cpu);
	}
}
