// SPDX-License-Identifier: MIT
/*
 * The model's start and its EL2 side: sim_model_init() resets the PEs and the families, and the
 * hooks under the accessor seam give vperf's own System register accesses and barriers at EL2
 * their architectural behaviour. The guest side (EL0/EL1 accesses and traps) is trap.c. See
 * sim/model.h.
 */
#include <sim/arch_regs.h>

#include "../core/pe.h"

static const struct sim_family *const families[SIM_NR_FAMILIES] = {
	[SIM_FAM_PMU] = &sim_pmu_family,
	[SIM_FAM_SPE] = &sim_spe_family,
	[SIM_FAM_GIC] = &sim_gic_family,
};

/* ---- EL2 accesses through the seam (vperf's own) --------------------------------------------- */

/* Each access or barrier is an instruction vperf executes: at EL2 the SPE may sample it. */
static void el2_instruction(unsigned int cpu)
{
	if (sim_pe(cpu)->el == 2 && sim_model_config()->pmsver)
		sim_spe_el2_instruction(cpu);
}

/*
 * FEAT_VHE's names at EL2 (the model's PE has FEAT_VHE): with HCR_EL2.E2H = 1 an EL2 access by
 * an EL1 register's own encoding reaches its EL2 counterpart and the _EL12 encoding reaches the
 * EL1 register; with E2H = 0 the _EL12 encoding is UNDEFINED. PMSCR: SPE 4.3.5 and 4.3.7 ("If
 * HCR_EL2.E2H==1, then ... PMSCR_EL1 at EL2 access PMSCR_EL2. Use PMSCR_EL12 to access
 * PMSCR_EL1"), 4.3.6 (PMSCR_EL12 UNDEFINED when HCR_EL2.E2H==0, at EL1 and EL0). The other EL1
 * registers vperf reaches at EL2 (the PMU's PMINTEN*_EL1, PMUACR_EL1, PMMIR_EL1, the sampling
 * and Profiling Buffer registers, ISR_EL1, MPIDR_EL1, the ID registers) have no EL2 counterpart
 * in the model and are not redirected (docs/integration/kvm.md, "VHE").
 */
static const struct {
	uint32_t el1, el2, el12;
} vhe_names[] = {
	{ SIM_ENC_PMSCR_EL1, SIM_ENC_PMSCR_EL2, SIM_ENC_PMSCR_EL12 },
};

/* The register an EL2 access by enc reaches: enc itself, or its E2H counterpart; 0 for an _EL12
 * name with E2H = 0 (UNDEFINED). */
static uint32_t el2_target(unsigned int cpu, uint32_t enc)
{
	bool e2h = (sim_reg(cpu, SIM_ENC_HCR_EL2) & SIM_HCR_EL2_E2H) != 0;

	for (size_t i = 0; i < VPERF_ARRAY_SIZE(vhe_names); i++) {
		if (enc == vhe_names[i].el1)
			return e2h ? vhe_names[i].el2 : enc;
		if (enc == vhe_names[i].el12)
			return e2h ? vhe_names[i].el1 : 0;
	}
	return enc;
}

/* A write by another register's name: the register reached takes it, as written by EL2. */
static void write_through(unsigned int cpu, uint32_t to, uint64_t val)
{
	const struct sim_arch_reg *r = sim_arch_reg(to);
	const struct sim_family *f = sim_family_of(r);
	uint64_t old = sim_reg(cpu, to);

	sim_set_reg(cpu, to, f && f->write ? f->write(cpu, 2, r, old, val) : val);
}

/* vperf at EL2 on a PE whose firmware keeps SPE's buffer (sim_spe_el3_trap): the firmware's
 * EL3 takes the access, which vperf must never make (it reads PMBIDR_EL1.P first). */
static bool el3_trap(unsigned int cpu, const struct sim_arch_reg *r)
{
	if (!sim_spe_el3_trap(cpu, r))
		return false;
	sim_report_error(cpu, "EL2 access of an SPE register while EL3 keeps the Profiling Buffer "
			      "(MDCR_EL3.NSPB, PMBIDR_EL1.P = 1): a trap to EL3 (SPE 4.3)");
	return true;
}

/* The register file calls the hooks only for encodings of the model's table (sim_arch_reg()
 * is never NULL here); any other encoding it counts as unknown, a vperf bug. */
static uint64_t hook_read(void *ctx, unsigned int cpu, uint32_t enc, uint64_t stored)
{
	const struct sim_arch_reg *r = sim_arch_reg(enc);
	const struct sim_family *f = sim_family_of(r);

	uint32_t to = el2_target(cpu, enc);

	(void)ctx;
	el2_instruction(cpu);
	if (r && !sim_implemented(enc)) {
		sim_report_error(cpu, "EL2 read of a register the PE does not implement (UNDEF)");
		return 0;
	}
	if (!to) {
		sim_report_error(cpu, "EL2 read of an _EL12 register with HCR_EL2.E2H = 0 "
				      "(UNDEFINED, SPE 4.3.6)");
		return 0;
	}
	if (el3_trap(cpu, r))
		return 0;
	if (to != enc) {
		r = sim_arch_reg(to);
		f = sim_family_of(r);
		stored = sim_reg(cpu, to);
	}
	return f && f->read ? f->read(cpu, 2, r, stored) : stored;
}

static uint64_t hook_write(void *ctx, unsigned int cpu, uint32_t enc, uint64_t old, uint64_t val)
{
	const struct sim_arch_reg *r = sim_arch_reg(enc);
	const struct sim_family *f = sim_family_of(r);

	uint32_t to = el2_target(cpu, enc);

	(void)ctx;
	el2_instruction(cpu);
	if (r && !sim_implemented(enc)) {
		sim_report_error(cpu, "EL2 write of a register the PE does not implement (UNDEF)");
		return old;
	}
	if (!to) {
		sim_report_error(cpu, "EL2 write of an _EL12 register with HCR_EL2.E2H = 0 "
				      "(UNDEFINED, SPE 4.3.6)");
		return old;
	}
	if (r && !sim_has_dir(enc, false)) {
		sim_report_error(cpu, "EL2 write of a read-only register (UNDEF)");
		return old;
	}
	if (el3_trap(cpu, r))
		return old;
	if (to != enc) {
		write_through(cpu, to, val);
		return old; /* the name's own slot is not a register */
	}
	return f && f->write ? f->write(cpu, 2, r, old, val) : val;
}

static void hook_barrier(void *ctx, unsigned int cpu, enum sim_event_kind kind)
{
	(void)ctx;
	el2_instruction(cpu);
	sim_families_barrier(cpu, kind);
}

/* ---- set-up ------------------------------------------------------------------------------------ */

/* ID_AA64PFR0_EL1: EL1 and EL2 in AArch64 (0b0001), EL0 in AArch64 only (0b0001) or also in
 * AArch32 (0b0010, aarch32_el0), EL3 when configured (Arm DDI 0487 K.a, ID_AA64PFR0_EL1 in
 * D24.2). */
static uint64_t initial_pfr0(const struct sim_pe_config *cfg)
{
	uint64_t sel2 = cfg->el3 && cfg->sel2 ? 1ull << SIM_ID_PFR0_SEL2_SHIFT : 0;

	return 0x110ull | (cfg->aarch32_el0 ? 0x2ull : 0x1ull) | (cfg->el3 ? 0x1000ull : 0) | sel2;
}

/* ID_AA64DFR0_EL1.MTPMU (signed): 0b1111 none, 0b0001 FEAT_MTPMU, 0b0000 IMPLEMENTATION
 * DEFINED (only before Armv8.6). */
static uint64_t initial_mtpmu(const struct sim_pe_config *cfg)
{
	static const uint64_t field[] = {
		[SIM_MTPMU_NONE] = 0xf, [SIM_MTPMU_FEAT] = 1, [SIM_MTPMU_IMPDEF] = 0
	};

	return field[cfg->mtpmu % 3] << SIM_ID_DFR0_MTPMU_SHIFT;
}

static uint64_t initial_dfr0(const struct sim_pe_config *cfg, unsigned int cpu)
{
	uint64_t dfr0 = (uint64_t)cfg->pmuver << SIM_ID_DFR0_PMUVER_SHIFT;

	dfr0 |= (uint64_t)cfg->pmsver << SIM_ID_DFR0_PMSVER_SHIFT;
	if (sim_pe_hpmn0(cpu))
		dfr0 |= 1ull << SIM_ID_DFR0_HPMN0_SHIFT;
	return dfr0 | initial_mtpmu(cfg);
}

/* ID_AA64DFR1_EL1: only PMICNTR [39:36] is described. */
static uint64_t initial_dfr1(const struct sim_pe_config *cfg)
{
	return cfg->icntr && cfg->pmuver >= 9 && cfg->pmuver != SIM_ID_DFR0_PMUVER_IMPDEF
		       ? 1ull << SIM_ID_DFR1_PMICNTR_SHIFT
		       : 0;
}

/* MPIDR_EL1: bit 31 RES1, MT, Aff0 = the CPU (thread) number. */
static uint64_t initial_mpidr(const struct sim_pe_config *cfg, unsigned int cpu)
{
	(void)cfg;
	return VPERF_BIT(31) | (sim_pe_mt(cpu) ? SIM_MPIDR_MT : 0) | cpu;
}

/* ID_AA64MMFR0_EL1: only FGT [59:56] (0b0001: FEAT_FGT) and ECV [63:60] are described; the
 * translation fields read 0, which nothing in the model consults. */
static uint64_t initial_mmfr0(const struct sim_pe_config *cfg, unsigned int cpu)
{
	return (uint64_t)(sim_pe_fgt2(cpu)  ? 2
			  : sim_pe_fgt(cpu) ? 1
					    : 0)
		       << SIM_ID_MMFR0_FGT_SHIFT |
	       (uint64_t)(cfg->ecv & 0xfu) << SIM_ID_MMFR0_ECV_SHIFT;
}

/* Each CPU is reset as the current one, so that the families' resets read its own
 * configuration (sim_model_config()). */
void sim_model_init_cpus(const struct sim_pe_config cfgs[SIM_MAX_CPUS])
{
	static const struct sim_hooks hooks = {
		.read = hook_read,
		.write = hook_write,
		.barrier = hook_barrier,
	};

	sim_reset();
	sim_pe_reset(cfgs, families);
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		const struct sim_pe_config *cfg = &cfgs[cpu];

		sim_set_cpu(cpu);
		sim_set_reg(cpu, SIM_ENC_ID_AA64DFR0_EL1, initial_dfr0(cfg, cpu));
		sim_set_reg(cpu, SIM_ENC_ID_AA64MMFR0_EL1, initial_mmfr0(cfg, cpu));
		sim_set_reg(cpu, SIM_ENC_ID_AA64PFR0_EL1, initial_pfr0(cfg));
		sim_set_reg(cpu, SIM_ENC_ID_AA64DFR1_EL1, initial_dfr1(cfg));
		sim_set_reg(cpu, SIM_ENC_MPIDR_EL1, initial_mpidr(cfg, cpu));
		for (size_t i = 0; i < SIM_NR_FAMILIES; i++)
			if (families[i] && families[i]->reset)
				families[i]->reset(cpu, cfg);
	}
	sim_set_cpu(0);
	sim_set_hooks(&hooks);
}

void sim_model_init(const struct sim_pe_config *cfg)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		cfgs[cpu] = *cfg;
	sim_model_init_cpus(cfgs);
}
