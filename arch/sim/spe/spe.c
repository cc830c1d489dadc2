// SPDX-License-Identifier: MIT
/*
 * The SPE family of the model (see sim/spe.h): the registers it owns, their trap rules, their
 * direct accesses, and the events that reach the profiling operation (barriers, micro-ops).
 * The rest lives in spe_ctl.c (view, enables), spe_sample.c (interval counter), spe_filter.c
 * (SPECollectRecord), spe_record.c (records) and spe_buffer.c (queue, buffer, events).
 */
#include "../mem/mem_internal.h"
#include "spe_internal.h"

struct spe_cpu spe_cpus[SIM_MAX_CPUS];
struct sim_spe_options spe_options;

void sim_spe_default_options(struct sim_spe_options *o)
{
	static const struct sim_spe_options defaults = {
		.hold = 16,
		.unpred = SIM_SPE_UNPRED_SEED,
		.land = SIM_SPE_LAND_LATE,
		.wptr = SIM_SPE_WPTR_SEED,
		.async_ext_abort = false,
	};

	*o = defaults;
}

void sim_spe_set_options(const struct sim_spe_options *o)
{
	spe_options = *o;
	if (spe_options.hold > SPE_QUEUE_MAX)
		spe_options.hold = SPE_QUEUE_MAX;
}

void sim_spe_set_contextidr(unsigned int cpu, uint32_t el1, uint32_t el2)
{
	spe_cpu(cpu)->contextidr[0] = el1;
	sim_set_reg(cpu, SIM_ENC_CONTEXTIDR_EL2, el2);
}

void sim_spe_set_time(unsigned int cpu, uint64_t cntpct, uint64_t cntvoff)
{
	spe_cpu(cpu)->cntpct = cntpct;
	spe_cpu(cpu)->cntvoff = cntvoff;
}

void sim_spe_set_poff(unsigned int cpu, uint64_t cntpoff, bool cnthctl_ecv, bool scr_ecven)
{
	struct spe_cpu *st = spe_cpu(cpu);

	st->cntpoff = cntpoff;
	st->cnthctl_ecv = cnthctl_ecv;
	st->scr_ecven = scr_ecven;
}

/* The physical offset of offset physical time (Arm DDI 0487 D3.3, the same rule as trace's): 
 * CNTPOFF_EL2 with FEAT_ECV_POFF, CNTHCTL_EL2.ECV = 1 and, with EL3, SCR_EL3.ECVEn = 1; else 0. */
uint64_t spe_physical_offset(unsigned int cpu)
{
	const struct sim_pe_config *cfg = sim_cpu_config(cpu);
	const struct spe_cpu *st = spe_cpu(cpu);

	if (cfg->ecv < 2 || !st->cnthctl_ecv || (cfg->el3 && !st->scr_ecven))
		return 0;
	return st->cntpoff;
}

const struct sim_spe_stats *sim_spe_stats(unsigned int cpu)
{
	return &spe_cpu(cpu)->stats;
}

unsigned int sim_spe_pending(unsigned int cpu)
{
	return spe_cpu(cpu)->qlen;
}

/* VTTBR_EL2.VMID changes (sim_mem_set_vmid): the stage 2 context of EL1-owned records. */
static void spe_vmid_switch(unsigned int cpu, uint16_t old)
{
	if (!sim_model_config()->pmsver)
		return;
	spe_context_change(
		cpu, 1, old,
		"SPE records not in memory at a stage 2 (VMID) switch: PSB CSYNC + DSB NSH "
		"missing before it (SPE 3.6, 3.6.1); they may reach another VM's memory");
}

/* ---- the family ------------------------------------------------------------------------- */

/* SPE 4.2: PMBLIMITR_EL1.E resets to 0, the rest to IMPLEMENTATION DEFINED values that may be
 * UNKNOWN (spe_reset_unknown: seeded garbage). A zero PMSIDR_EL1 in the configuration means the
 * default one. The CPU's state starts as init. */
static void reset_cpu(unsigned int cpu, const struct sim_pe_config *cfg, const struct spe_cpu *init)
{
	spe_cpus[cpu] = *init;
	if (!cfg->pmsver)
		return;
	sim_set_reg(cpu, SIM_ENC_PMSIDR_EL1,
		    cfg->pmsidr ? cfg->pmsidr : sim_spe_default_pmsidr(cfg->pmsver));
	sim_set_reg(cpu, SIM_ENC_PMBIDR_EL1, cfg->pmbidr & ~PMBIDR_P);
	spe_reset_unknown(cpu);
	spe_fgt_reset(cpu, cfg);
	spe_sync_view(cpu);
	sim_set_line(cpu, SIM_LINE_PMBIRQ, (sim_reg(cpu, SIM_ENC_PMBSR_EL1) & PMBSR_S) != 0);
}

static void reset(unsigned int cpu, const struct sim_pe_config *cfg)
{
	static const struct spe_cpu zero;

	if (cpu == 0) {
		sim_mem_reset();
		sim_mem_set_vmid_listener(spe_vmid_switch);
		sim_spe_default_options(&spe_options);
	}
	reset_cpu(cpu, cfg, &zero);
}

/* A power-down: the profiling operation's state and its registers are lost; the physical count
 * (the system counter is always on) and the counts stay. So do the timer offsets and controls
 * and CONTEXTIDR_EL1 the tests set (sim_spe_set_time, _set_poff, _set_contextidr): UNKNOWN after a
 * power-down on hardware, but the hypervisor's to restore before a guest runs, not vperf's. A
 * record not yet in memory is lost with it: the software must have drained the buffer first
 * (PSB CSYNC, then DSB: SPE 3.6). */
static void power_cycle(unsigned int cpu)
{
	const struct spe_cpu *st = spe_cpu(cpu);
	const struct spe_cpu keep = { .cntpct = st->cntpct,
				      .cntvoff = st->cntvoff,
				      .cntpoff = st->cntpoff,
				      .cnthctl_ecv = st->cnthctl_ecv,
				      .scr_ecven = st->scr_ecven,
				      .contextidr = { st->contextidr[0], st->contextidr[1] },
				      .stats = st->stats };

	if (st->qlen || st->flen)
		sim_report_error(cpu, "SPE records not in memory at a power-down: lost (PSB CSYNC "
				      "and DSB missing before it, SPE 3.6)");
	reset_cpu(cpu, sim_model_config(), &keep);
}

/*
 * EL0/EL1 accesses (the core has already made unimplemented registers and PMSCR_EL2 UNDEFINED):
 * - every SPE register is UNDEFINED at EL0 (3: no direct EL0 access; the first step of
 *   CheckStatisticalProfilingAccess and CheckProfilingBufferAccess; SPE 4.3.1 for PMBIDR_EL1);
 * - PMS* at EL1 trap to EL2 when MDCR_EL2.TPMS is 1 (CheckStatisticalProfilingAccess, SPE 3.2.3);
 * - PMBLIMITR/PMBPTR/PMBSR at EL1 trap to EL2 when MDCR_EL2.E2PB<0> is 0
 *   (CheckProfilingBufferAccess, SPE 3.4.6);
 * - PMBIDR_EL1 is never trapped (SPE 4.3.1 "Traps and enables: None");
 * - with FEAT_FGT, HDFGRTR_EL2 / HDFGWTR_EL2 trap the accesses they name (spe_fgt.c). They and
 *   MDCR_EL2 trap to EL2 with the same EC 0x18: their order does not show.
 */
static enum sim_access check(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
			     bool read)
{
	uint64_t mdcr = sim_reg(cpu, SIM_ENC_MDCR_EL2);

	if (el == 0)
		return SIM_ACC_UNDEF;
	if (!read && reg->dir == SIM_DIR_RO) /* MSR to PMSIDR/PMBIDR: UNDEFINED, before traps */
		return SIM_ACC_UNDEF;
	if (spe_fgt_traps(cpu, reg, read))
		return SIM_ACC_TRAP_EL2;
	if (reg->trap == SIM_TRAP_TPMS && (mdcr & SIM_MDCR_EL2_TPMS))
		return SIM_ACC_TRAP_EL2;
	if (reg->trap == SIM_TRAP_E2PB && !(mdcr & (1ull << SIM_MDCR_EL2_E2PB_SHIFT)))
		return SIM_ACC_TRAP_EL2;
	return SIM_ACC_OK;
}

static uint64_t fam_read(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
			 uint64_t stored)
{
	return spe_read_value(cpu, el, reg, stored);
}

/* A direct write keeps the bits the PE implements. The profiling operation sees it after the
 * next context synchronization event (SPE 3.6), except PMBIRQ, which follows PMBSR_EL1.S at once
 * (SPE 3.5: "A direct write that sets PMBSR_EL1.S to 1 causes the interrupt to be asserted"). */
static uint64_t fam_write(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
			  uint64_t old, uint64_t val)
{
	struct spe_cpu *st = spe_cpu(cpu);
	uint64_t v = val & spe_write_mask(cpu, reg);

	(void)el;
	(void)old;
	if (reg->enc == SIM_ENC_CONTEXTIDR_EL2) {
		spe_contextidr2_written(cpu, (uint32_t)val);
		return val;
	}
	if (reg->enc == SIM_ENC_PMBSR_EL1) {
		st->dirty[VR_PMBSR] = true;
		sim_set_line(cpu, SIM_LINE_PMBIRQ, (v & PMBSR_S) != 0);
	}
	if (reg->enc == SIM_ENC_PMBPTR_EL1)
		st->dirty[VR_PMBPTR] = true;
	if (reg->enc == SIM_ENC_PMBLIMITR_EL1)
		spe_wptr_direct_limit(cpu, v);
	return v;
}

/* ProfilingBufferEnabled() from the registers as they will be after synchronization. */
static bool enabled_after_sync(unsigned int cpu)
{
	return (sim_reg(cpu, SIM_ENC_PMBLIMITR_EL1) & PMBLIMITR_E) &&
	       !(sim_reg(cpu, SIM_ENC_PMBSR_EL1) & PMBSR_S);
}

/* A context synchronization event (ISB, exception entry or return). */
static void context_sync(unsigned int cpu)
{
	struct spe_cpu *st = spe_cpu(cpu);
	unsigned int owner = spe_owner(cpu);
	bool was_enabled = spe_buffer_enabled(cpu);
	bool was_discard = spe_discard_mode(spe_view(cpu, VR_PMBLIMITR));

	if (was_enabled && !enabled_after_sync(cpu))
		spe_buffer_disabling(cpu); /* SPE 3.6.1, with the old view */
	spe_sync_view(cpu);
	if ((!was_enabled || was_discard) && spe_buffer_enabled(cpu) &&
	    !spe_discard_mode(spe_view(cpu, VR_PMBLIMITR)))
		spe_wptr_enabling(cpu); /* SPE 3.4.1, not in discard mode (D17.5.5) */
	if (spe_owner(cpu) != owner)
		spe_context_change(
			cpu, owner, sim_mem_vmid(cpu),
			"SPE records not in memory when the owning Exception level changed "
			"(MDCR_EL2.E2PB): PSB CSYNC + DSB NSH missing before it (SPE 3.6, "
			"3.6.1)");
	if (!spe_profiling_enabled(cpu, sim_el()))
		st->was_enabled = false; /* for SPE 3.1.1 at the next enabled operation */
	st->epoch++;
	st->psb_await_cse = false;
	if (st->psb_seen)
		st->psb_visible = true;
	if (st->coll_pending) { /* SPE 3.1.4: COLL visible after a context synchronization event */
		st->coll_pending = false;
		spe_set_pmbsr(cpu, spe_view(cpu, VR_PMBSR) | PMBSR_COLL);
	}
}

static void barrier(unsigned int cpu, enum sim_event_kind kind)
{
	if (!sim_model_config()->pmsver)
		return;
	switch (kind) {
	case SIM_ISB:
		context_sync(cpu);
		break;
	case SIM_PSB_CSYNC:
		spe_psb_csync(cpu);
		break;
	case SIM_DSB_NSH:
		spe_dsb(cpu);
		break;
	case SIM_TLBI:
		spe_cpu(cpu)->tlbi_pending = true;
		break;
	case SIM_READ:
	case SIM_WRITE:
	default:
		break;
	}
}

/* The instruction is sampled like any other only while profiling at EL2 is enabled (SPE 3.2.3): an
 * EL2 buffer with E2SPE. Otherwise the model leaves its time and interval counter alone, so
 * that guests' records do not depend on how many accesses the hypervisor makes. */
void sim_spe_el2_instruction(unsigned int cpu)
{
	static const struct sim_uop insn = { .pc = 0xffff800000002000ull,
					     .latency = 1,
					     .type = SIM_UOP_OTHER };

	if (spe_profiling_enabled(cpu, 2))
		spe_step(cpu, &insn);
}

static void step(unsigned int cpu, const struct sim_uop *op)
{
	if (sim_model_config()->pmsver)
		spe_step(cpu, op);
}

const struct sim_family sim_spe_family = {
	.name = "spe",
	.reset = reset,
	.power_cycle = power_cycle,
	.check = check,
	.read = fam_read,
	.write = fam_write,
	.barrier = barrier,
	.step = step,
};
