// SPDX-License-Identifier: MIT
/*
 * Profiling Buffer management events (SPE 3.5): buffer full (SPE 3.5.2), faults
 * (SPE 3.5.3), external aborts (SPE 3.5.4), and what they leave for the write-pointer rules of SPE
 * 3.4.1.
 */
#include "spe_internal.h"

static uint64_t pmbsr_kept(unsigned int cpu)
{
	return spe_view(cpu, VR_PMBSR) & ~(PMBSR_EC_MASK | PMBSR_MSS_MASK);
}

/* The DL = 1 pointer SPE 3.4.1 forbids restarting from. */
static void note_dl(unsigned int cpu)
{
	spe_cpu(cpu)->dl_ptr_valid = true;
	spe_cpu(cpu)->dl_ptr = spe_view(cpu, VR_PMBPTR);
}

/* SPE 3.5: S = 1, the other fields as given; PMBIRQ follows S; queued records are discarded. With
 * DL = 1 the pointer it leaves must not be restored to restart (SPE 3.4.1): remember it. */
void spe_event(unsigned int cpu, uint64_t pmbsr)
{
	struct spe_cpu *st = spe_cpu(cpu);

	spe_set_pmbsr(cpu, pmbsr | PMBSR_S);
	st->stats.events++;
	st->was_enabled = false; /* profiling is disabled (SPE 3.5) */
	spe_discard_queue(cpu);
	if (pmbsr & PMBSR_DL)
		note_dl(cpu);
}

/* SPE 3.5.2: EC = 0 (other), BSC = 1 (buffer filled), DL as given, PMBPTR at the first byte after
 * the last complete record (already there). */
void spe_event_full(unsigned int cpu, bool dl)
{
	spe_event(cpu, pmbsr_kept(cpu) | PMBSR_BSC_FULL | (dl ? PMBSR_DL : 0));
}

/* SPE 3.5.3 (Arm's pseudocode: DebugWriteFault): EC stage 1 or 2 Data Abort, FSC, PMBPTR = the
 * faulting address, DL = 1 when that is not the first byte after the last complete record (dl: a
 * record was partly written). */
void spe_event_fault(unsigned int cpu, unsigned int stage, uint8_t fsc, uint64_t addr, bool dl)
{
	uint64_t ec = stage == 2 ? PMBSR_EC_S2_DA : PMBSR_EC_S1_DA;

	spe_indirect_write(cpu, VR_PMBPTR, SIM_ENC_PMBPTR_EL1, addr);
	spe_event(cpu, pmbsr_kept(cpu) | ec << PMBSR_EC_SHIFT | fsc | (dl ? PMBSR_DL : 0));
}

/*
 * SPE 3.5.4, reported to the SPE (Arm's pseudocode: DebugWriteExternalAbort, which SPEWriteToBuffer
 * also calls for a walk fault reported as an external abort): EA = 1, EC "one of" stage 1 or
 * stage 2 Data Abort, FSC the kind of abort. An abort on the walk of a stage (stage 1 or 2, fsc
 * 0b0101LL with the level) reports that stage. An abort on the write itself (stage 0) leaves the
 * choice to the architecture: the seed picks, so that a hypervisor which takes every stage 2 EC
 * for its own fault and restarts without looking at EA is caught. Synchronous: PMBPTR = the
 * aborted address, DL = 1 unless it is the first byte of the record. Asynchronous (the option,
 * writes only): PMBPTR is not updated (it stays past the records processed) and DL = 1.
 * A write abort arrives when the write completes (spe_flight.c), possibly after an event has
 * already set S: then EA (and DL) are set and nothing else changes, as no new event is
 * generated when S is 1 (SPE 3.5.4; 3.5 "might not be received until after a first Profiling
 * Buffer management event has set PMBSR_EL1.S to 1").
 */
void spe_event_ext_abort(unsigned int cpu, unsigned int stage, uint8_t fsc, uint64_t addr,
			 bool partial)
{
	bool s2 = stage ? stage == 2 : ((sim_random(cpu) >> 9) & 1) != 0;
	uint64_t ec = (uint64_t)(s2 ? PMBSR_EC_S2_DA : PMBSR_EC_S1_DA) << PMBSR_EC_SHIFT;
	bool async = !stage && spe_options.async_ext_abort;
	uint64_t dl = async || partial ? PMBSR_DL : 0;
	uint64_t now = spe_view(cpu, VR_PMBSR);

	if (!async)
		spe_indirect_write(cpu, VR_PMBPTR, SIM_ENC_PMBPTR_EL1, addr);
	if (now & PMBSR_S) {
		spe_set_pmbsr(cpu, now | PMBSR_EA | dl);
		if (dl)
			note_dl(cpu);
		return;
	}
	spe_event(cpu,
		  pmbsr_kept(cpu) | ec | PMBSR_EA | dl | (async ? SIM_FSC_ASYNC_EXT_ABORT : fsc));
}
