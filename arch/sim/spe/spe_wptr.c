// SPDX-License-Identifier: MIT
/*
 * The software rules on the current write pointer (SPE 3.4.1), checked when
 * profiling becomes enabled, that is at the context synchronization event after which
 * ProfilingBufferEnabled() (SPE 3.4.6, Arm's pseudocode of the same name) reads TRUE:
 *   - PMBPTR_EL1.PTR <= PMBLIMITR_EL1.LIMIT:Zeros(12) - 2^PMSIDR_EL1.MaxSize;
 *   - PMBPTR_EL1.PTR[63:56] == PMBLIMITR_EL1.LIMIT[63:56];
 *   - not restarting from the pointer a management event with PMBSR_EL1.DL = 1 left ("The
 *     current write pointer must not be restored from the saved write pointer following a
 *     Profiling Buffer management event if PMBSR_EL1.DL was set to 1"). The model cannot tell a
 *     restored pointer from a rewritten one: the same value counts as restored.
 * When a rule is broken the behaviour is UNPREDICTABLE: the PE "might do any of the following at
 * any point after profiling is enabled": write records to any writeable address, signal buffer
 * full, or signal a Translation fault, each with or without data loss. The model acts at the
 * first record it processes, with the outcome of the option or of the seed, and for the write
 * outcome keeps writing from PMBPTR_EL1 past the limit, through the owning translation regime
 * (stage 2 still confines a guest's writes: that is what a hypervisor must rely on).
 * In discard mode the rules do not apply (Arm DDI 0487 K.a D17.5.5): nothing is written and no
 * buffer management event is generated. A buffer that leaves discard mode while enabled is
 * checked then, as if it became enabled (spe.c).
 */
#include "spe_internal.h"

static bool rules_hold(unsigned int cpu, uint64_t ptr, uint64_t limitr)
{
	const struct spe_cpu *st = spe_cpu(cpu);
	uint64_t limit = limitr & PMBLIMITR_LIMIT_MASK;
	uint64_t max = 1ull << spe_max_size(cpu);

	if (spe_discard_mode(limitr))
		return true;
	if (limit < max || ptr > limit - max)
		return false;
	if (ptr >> 56 != limit >> 56)
		return false;
	return !(st->dl_ptr_valid && ptr == st->dl_ptr);
}

static enum sim_spe_wptr pick(unsigned int cpu)
{
	if (spe_options.wptr != SIM_SPE_WPTR_SEED)
		return spe_options.wptr;
	return (enum sim_spe_wptr)(SIM_SPE_WPTR_WRITE + sim_random(cpu) % 3);
}

void spe_wptr_enabling(unsigned int cpu)
{
	struct spe_cpu *st = spe_cpu(cpu);

	if (st->wptr_early != SIM_SPE_WPTR_SEED)
		st->wptr = st->wptr_early; /* it became enabled earlier, with a bad pointer */
	else if (rules_hold(cpu, spe_view(cpu, VR_PMBPTR), spe_view(cpu, VR_PMBLIMITR)))
		st->wptr = SIM_SPE_WPTR_SEED;
	else
		st->wptr = pick(cpu);
	st->wptr_early = SIM_SPE_WPTR_SEED;
	st->dl_ptr_valid = false;
}

/* A direct write of PMBLIMITR_EL1 while the buffer is disabled. Before the next context
 * synchronization event an indirect read may return the old or the new value (SPE 3.6.1): the seed
 * may let the profiling operation see E = 1 at once, so profiling becomes enabled with PMBPTR_EL1
 * as it is now, and a pointer written after the limit does not mend a broken rule. That is why a
 * hypervisor restores PMBPTR_EL1 before PMBLIMITR_EL1. Clearing E forgets it. */
void spe_wptr_direct_limit(unsigned int cpu, uint64_t limitr)
{
	struct spe_cpu *st = spe_cpu(cpu);

	if (!(limitr & PMBLIMITR_E) || (sim_reg(cpu, SIM_ENC_PMBSR_EL1) & PMBSR_S)) {
		st->wptr_early = SIM_SPE_WPTR_SEED;
		return;
	}
	if (spe_buffer_enabled(cpu) || !((sim_random(cpu) >> 5) & 1))
		return;
	if (!rules_hold(cpu, sim_reg(cpu, SIM_ENC_PMBPTR_EL1), limitr))
		st->wptr_early = pick(cpu);
}

/* Called for each record processed: true when the broken rule's outcome took the record (a
 * management event); *past_limit when records go wherever the pointer points. */
bool spe_wptr_broken(unsigned int cpu, bool *past_limit)
{
	struct spe_cpu *st = spe_cpu(cpu);
	bool dl = (sim_random(cpu) >> 13) & 1;
	uint8_t level = (uint8_t)((sim_random(cpu) >> 7) % 4);

	switch (st->wptr) {
	case SIM_SPE_WPTR_WRITE:
		*past_limit = true;
		return false;
	case SIM_SPE_WPTR_FULL:
		st->wptr = SIM_SPE_WPTR_SEED;
		spe_event_full(cpu, dl);
		return true;
	case SIM_SPE_WPTR_FAULT:
		st->wptr = SIM_SPE_WPTR_SEED;
		spe_event_fault(cpu, 1, SIM_FSC_TRANSLATION(level), spe_view(cpu, VR_PMBPTR), dl);
		return true;
	case SIM_SPE_WPTR_SEED: /* the rules hold */
	default:
		return false;
	}
}
