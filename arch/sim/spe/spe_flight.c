// SPDX-License-Identifier: MIT
/*
 * Processed sample records on their way to memory (SPE 3.6, 3.4.4).
 *
 * Processing a record (spe_buffer.c) is the profiling operation's indirect work: the record is
 * translated, PMBPTR_EL1 moves past it, a management event is raised if one is due. Its writes
 * to memory are a separate step the architecture only bounds from above: "A DSB instruction in
 * program order following a PSB CSYNC instruction does not complete before the writes to the
 * Profiling Buffer of sample records for profiling operations synchronized by the PSB CSYNC
 * instruction have completed" (SPE 3.6), and a TLB maintenance operation followed by a DSB "does
 * not complete until all sample records previously translated using an invalidated translation have
 * been written" (SPE 3.4.4). Nothing else forces them out: in particular a direct read of
 * PMBPTR_EL1 after PSB CSYNC and a context synchronization event sees the new pointer (SPE 3.4.1)
 * while the bytes below it are still in flight.
 *
 * The model writes them as late as that allows (SIM_SPE_LAND_LATE, the default): at such a DSB,
 * or when its store of records in flight is full. With SIM_SPE_LAND_SEED the seed lands each
 * record either at once or late, so a hypervisor cannot rely on either.
 *
 * An external abort on the write itself (SPE 3.5.4) is therefore found when the write is made, at
 * that DSB, not when the record was processed: "For the indirect write to PMBSR_EL1 that is made
 * as a result of an external abort on a write of a sample record to memory, the synchronization
 * rules apply only after the write has completed" (SPE 3.6). Software that reads PMBSR_EL1 after
 * PSB CSYNC but before the DSB sees no abort, and a pointer past records that never reached
 * memory. The SPE then "stops writing sample records" (SPE 3.5.4): the records behind the aborted
 * one in the same context are dropped.
 */
#include "spe_internal.h"

static struct spe_flight *flight_at(struct spe_cpu *st, unsigned int i)
{
	return &st->flight[(st->fhead + i) % SPE_QUEUE_MAX];
}

/* SPE 3.5.4: the SPE stops writing records after an external abort on a write; drop those of the
 * aborted record's context still in flight (the pointer or DL tells software they are lost). */
static void kill_behind(unsigned int cpu, const struct spe_flight *aborted)
{
	struct spe_cpu *st = spe_cpu(cpu);

	for (unsigned int i = 0; i < st->flen; i++) {
		struct spe_flight *f = flight_at(st, i);

		if (f != aborted && f->owner == aborted->owner && f->vmid == aborted->vmid)
			f->dead = true;
	}
}

static void land_one(unsigned int cpu, struct spe_flight *f)
{
	struct spe_cpu *st = spe_cpu(cpu);

	if (f->dead) {
		st->stats.dropped++;
		return;
	}
	for (unsigned int i = 0; i < 2; i++) {
		if (f->len[i] && sim_mem_aborts(f->pa[i])) {
			st->stats.dropped++;
			kill_behind(cpu, f);
			spe_event_ext_abort(cpu, 0, SIM_FSC_SYNC_EXT_ABORT,
					    f->va + (i ? f->len[0] : 0), i != 0);
			return;
		}
		if (f->len[i])
			sim_mem_write(f->pa[i], f->bytes + (i ? f->len[0] : 0), f->len[i]);
	}
	st->stats.landed++;
}

static void land_oldest(unsigned int cpu)
{
	struct spe_cpu *st = spe_cpu(cpu);

	land_one(cpu, flight_at(st, 0));
	st->fhead = (st->fhead + 1) % SPE_QUEUE_MAX;
	st->flen--;
}

/* Land the n oldest records. */
static void land_first(unsigned int cpu, unsigned int n)
{
	while (n--)
		land_oldest(cpu);
}

static bool land_now(unsigned int cpu)
{
	return spe_options.land == SIM_SPE_LAND_SEED && (sim_random(cpu) >> 21) & 1;
}

void spe_flight_push(unsigned int cpu, const struct spe_qrec *q, uint64_t va, const uint64_t pa[2],
		     const uint16_t len[2])
{
	struct spe_cpu *st = spe_cpu(cpu);
	struct spe_flight *f;

	if (st->flen == SPE_QUEUE_MAX)
		land_oldest(cpu); /* the SPU's store is finite */
	f = flight_at(st, st->flen);
	f->va = va;
	f->dead = false;
	for (unsigned int i = 0; i < 2; i++) {
		f->pa[i] = pa[i];
		f->len[i] = len[i];
	}
	for (size_t i = 0; i < (size_t)len[0] + len[1]; i++)
		f->bytes[i] = q->bytes[i];
	f->vmid = q->vmid;
	f->owner = q->owner;
	f->synced = q->synced;
	f->flagged = q->flagged;
	f->epoch = q->epoch;
	st->flen++;
	if (land_now(cpu))
		land_first(cpu, st->flen);
}

/* SPE 3.6: PSB CSYNC synchronizes the profiling operations of instructions before the last context
 * synchronization event, processed or not. */
void spe_flight_sync(unsigned int cpu)
{
	struct spe_cpu *st = spe_cpu(cpu);

	for (unsigned int i = 0; i < st->flen; i++)
		if (flight_at(st, i)->epoch < st->epoch)
			flight_at(st, i)->synced = true;
}

/* A DSB: the synchronized records complete (SPE 3.6), or every record when a TLB maintenance
 * operation preceded it (SPE 3.4.4: the model does not track which translation each record used,
 * and writing more records than required is always allowed). Records are written in order. */
void spe_flight_land(unsigned int cpu, bool all)
{
	struct spe_cpu *st = spe_cpu(cpu);
	unsigned int n = 0;

	for (unsigned int i = 0; i < st->flen; i++)
		if (all || flight_at(st, i)->synced)
			n = i + 1;
	land_first(cpu, n);
}

/* Mark the records of a context (owning EL, and VMID when EL1 owns) still in flight; true if
 * there was one not marked before. */
bool spe_flight_flag(unsigned int cpu, unsigned int owner, uint16_t vmid)
{
	struct spe_cpu *st = spe_cpu(cpu);
	bool found = false;

	for (unsigned int i = 0; i < st->flen; i++) {
		struct spe_flight *f = flight_at(st, i);

		if (f->owner != owner || (owner == 1 && f->vmid != vmid) || f->flagged)
			continue;
		f->flagged = true;
		found = true;
	}
	return found;
}

unsigned int sim_spe_in_flight(unsigned int cpu)
{
	return spe_cpu(cpu)->flen;
}
