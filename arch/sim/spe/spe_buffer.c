// SPDX-License-Identifier: MIT
/*
 * The Profiling Buffer (SPE 3.4, 3.5) behind an adversarial queue (SPE 3.6); discard mode from
 * Arm DDI 0487 K.a D17.5.5.
 *
 * A filtered record enters the SPU's queue. The model processes it (translates it and moves
 * PMBPTR_EL1 past it) as late as the architecture allows: when the queue holds more records than
 * the "hold" option (the SPU has finite storage), when a direct read of PMBPTR_EL1/PMBSR_EL1
 * follows the PSB CSYNC that synchronized it and a context synchronization event (SPE 3.4.1, 3.6),
 * or at a DSB after that PSB CSYNC. Its bytes then wait in flight (spe_flight.c) until a DSB
 * must complete them. If the buffer becomes disabled with records not synchronized, the seed (or
 * the option) picks one of the three outcomes of SPE 3.6.1.
 *
 * Processing a record: the write pointer must be aligned to 2^PMBIDR_EL1.Align (else an
 * Alignment fault, Table 6), the record must fit below the limit (SPE 3.4.1; else, UNPREDICTABLE, a
 * buffer full event with DL=1), each page is translated in the owning regime (stage 1, and stage
 * 2 for EL1&0 with HCR_EL2.VM); a fault (SPE 3.5.3) or an external abort on a walk (SPE 3.5.4)
 * stops it (an abort on the write itself comes when the bytes land, spe_flight.c); after the
 * record, fewer than 2^MaxSize bytes left is a buffer full event (SPE 3.5.2). A management event
 * sets PMBSR_EL1.S and discards everything queued (SPE 3.5).
 */
#include "spe_internal.h"

static struct spe_qrec *front(struct spe_cpu *st)
{
	return &st->queue[st->qhead];
}

static void pop(struct spe_cpu *st)
{
	st->qhead = (st->qhead + 1) % SPE_QUEUE_MAX;
	st->qlen--;
}

void spe_discard_queue(unsigned int cpu)
{
	struct spe_cpu *st = spe_cpu(cpu);

	st->stats.discarded += st->qlen;
	st->qlen = 0;
	st->psb_seen = st->psb_visible = false;
}

static uint64_t pmbsr_now(unsigned int cpu)
{
	return spe_view(cpu, VR_PMBSR);
}

/* The model's hypervisor-bug detector: a record must be processed in the translation regime of
 * the VM and the owning Exception level it was sampled under. */
static void check_context(unsigned int cpu, const struct spe_qrec *q, unsigned int owner)
{
	if (q->flagged)
		return; /* reported at the context change */
	if (q->owner != owner)
		sim_report_error(cpu, "SPE record written through another owning Exception level's "
				      "regime (MDCR_EL2.E2PB changed before PSB CSYNC + DSB)");
	else if (owner == 1 && q->vmid != sim_mem_vmid(cpu))
		sim_report_error(cpu, "SPE record written into another VM's memory (stage 2 / VMID "
				      "switched before PSB CSYNC + DSB drained the buffer)");
}

/* Translate [ptr, ptr + len) page by page into pa/len; false when a fault or an external abort
 * stopped it (the pages before it are still written: DL tells software). */
static bool translate_pages(unsigned int cpu, const struct spe_qrec *q, uint64_t ptr,
			    enum sim_regime regime, uint64_t pa[2], uint16_t len[2])
{
	unsigned int n = 0;

	for (size_t off = 0; off < q->len; n++) {
		uint64_t va = ptr + off;
		size_t room = (size_t)(SIM_PAGE_SIZE - (va & (SIM_PAGE_SIZE - 1)));
		size_t chunk = q->len - off < room ? q->len - off : room;
		struct sim_xlat x = sim_mem_translate_cached(cpu, regime, va);

		if (x.fault && SIM_FSC_IS_WALK_EXT_ABORT(x.fsc)) {
			spe_event_ext_abort(cpu, x.fault, x.fsc, va, off != 0);
			return false;
		}
		if (x.fault) {
			spe_event_fault(cpu, x.fault, x.fsc, va, off != 0);
			return false;
		}
		/* An external abort on the write itself comes when the write is made
		 * (spe_flight.c), not here. */
		pa[n] = x.pa;
		len[n] = (uint16_t)chunk;
		off += chunk;
	}
	return true;
}

/* The profiling operation's work on one record (Arm's pseudocode: SPEWriteToBuffer): translate
 * it, move PMBPTR_EL1 past it, raise the buffer full event when due; its bytes go in flight
 * (spe_flight.c). */
static void process_record(unsigned int cpu, const struct spe_qrec *q, uint64_t limitr)
{
	struct spe_cpu *st = spe_cpu(cpu);
	uint64_t ptr = spe_view(cpu, VR_PMBPTR), limit = limitr & PMBLIMITR_LIMIT_MASK;
	uint64_t max = 1ull << spe_max_size(cpu), align = 1ull << spe_align(cpu);
	unsigned int owner = spe_owner(cpu);
	uint64_t pa[2] = { 0, 0 };
	uint16_t len[2] = { 0, 0 };
	bool ok, past_limit = false;

	if (spe_discard_mode(limitr)) { /* synchronized in discard mode: no write, no event */
		st->stats.discarded++;
		return;
	}
	if (ptr & (align - 1)) {
		spe_event_fault(cpu, 1, SIM_FSC_ALIGNMENT, ptr, false); /* Table 6, Alignment */
		return;
	}
	if (spe_wptr_broken(cpu, &past_limit))
		return;
	if (!past_limit && (ptr + q->len > limit || ptr + q->len < ptr)) {
		/* Never beyond the limit (SPE 3.5); only a pointer that broke SPE 3.4.1 gets
		 * here. */
		spe_event_full(cpu, true);
		return;
	}
	check_context(cpu, q, owner);
	ok = translate_pages(cpu, q, ptr, owner == 2 ? SIM_REGIME_EL2 : SIM_REGIME_EL10, pa, len);
	if (!ok) {
		if (len[0])
			spe_flight_push(cpu, q, ptr, pa, len); /* what was written before a fault */
		return;
	}
	spe_indirect_write(cpu, VR_PMBPTR, SIM_ENC_PMBPTR_EL1, ptr + q->len);
	st->stats.written++;
	/* Landing at once (SIM_SPE_LAND_SEED) may raise an external abort (SPE 3.5.4) first. */
	spe_flight_push(cpu, q, ptr, pa, len);
	ptr += q->len;
	if (!past_limit && limit - ptr < max && !(pmbsr_now(cpu) & PMBSR_S))
		spe_event_full(cpu, false); /* SPE 3.5.2: DL unchanged */
}

/* Process the oldest record (unsynchronized: it reads PMBLIMITR_EL1 now). */
static void process_oldest(unsigned int cpu)
{
	struct spe_cpu *st = spe_cpu(cpu);
	struct spe_qrec q = *front(st);

	pop(st);
	process_record(cpu, &q, q.synced ? q.limit : spe_view(cpu, VR_PMBLIMITR));
}

void spe_enqueue(unsigned int cpu, const uint8_t *bytes, size_t len)
{
	struct spe_cpu *st = spe_cpu(cpu);
	unsigned int hold = spe_options.hold ? spe_options.hold : 1;
	struct spe_qrec *q;

	if (spe_discard_mode(spe_view(cpu, VR_PMBLIMITR))) { /* D17.5.5: after filtering */
		st->stats.discarded++;
		return;
	}
	while (st->qlen && (st->qlen >= hold || st->qlen >= SPE_QUEUE_MAX))
		process_oldest(cpu);
	if (pmbsr_now(cpu) & PMBSR_S) { /* the write raised an event: profiling stopped */
		st->stats.discarded++;
		return;
	}
	q = &st->queue[(st->qhead + st->qlen) % SPE_QUEUE_MAX];
	for (size_t i = 0; i < len; i++)
		q->bytes[i] = bytes[i];
	q->len = (uint16_t)len;
	q->vmid = sim_mem_vmid(cpu);
	q->owner = (uint8_t)spe_owner(cpu);
	q->synced = false;
	q->epoch = st->epoch;
	q->limit = 0;
	q->flagged = false;
	st->qlen++;
}

/* SPE 3.6: PSB CSYNC synchronizes the profiling operations of the instructions before the last
 * context synchronization event; those of later ones may stay unsynchronized. */
void spe_psb_csync(unsigned int cpu)
{
	struct spe_cpu *st = spe_cpu(cpu);

	if (!st->psb_await_cse) {
		st->psb_await_cse = true;
		st->psb_snap[0] = sim_reg(cpu, SIM_ENC_PMBPTR_EL1);
		st->psb_snap[1] = sim_reg(cpu, SIM_ENC_PMBSR_EL1);
	}

	for (unsigned int i = 0; i < st->qlen; i++) {
		struct spe_qrec *q = &st->queue[(st->qhead + i) % SPE_QUEUE_MAX];

		if (!q->synced && q->epoch < st->epoch) {
			q->synced = true;
			q->limit = spe_view(cpu, VR_PMBLIMITR);
			st->psb_seen = true;
		}
	}
	spe_flight_sync(cpu);
	/* The sampled operation is synchronized too when it came before a context synchronization
	 * event (SPE 3.6): its profiling operation is complete, so a later sample cannot collide
	 * with it (SPE 3.1.4), whoever owns the buffer next. Without this, an operation sampled
	 * in one owner's last cycles could collide with the next owner's first sample across a
	 * switch whose PSB CSYNC had synchronized it, and set the next owner's PMBSR_EL1.COLL. */
	if (st->busy_epoch < st->epoch)
		st->busy_until = 0;
}

/* Process every synchronized record, oldest first, until a management event stops the buffer:
 * what a direct read of PMBPTR_EL1 or PMBSR_EL1 after PSB CSYNC and a context synchronization
 * event observes (SPE 3.4.1, 3.6). Their bytes stay in flight. */
void spe_process_synced(unsigned int cpu)
{
	struct spe_cpu *st = spe_cpu(cpu);

	while (st->qlen && front(st)->synced && !(pmbsr_now(cpu) & PMBSR_S))
		process_oldest(cpu);
	if (!st->qlen || !front(st)->synced)
		st->psb_seen = st->psb_visible = false;
}

/* A DSB: it completes the writes of the records a PSB CSYNC synchronized (SPE 3.6), and after a
 * TLB maintenance operation those of every record already translated (SPE 3.4.4: the model does
 * not track which translation each used, and writing records early is always allowed) before
 * the invalidated translations go. */
void spe_dsb(unsigned int cpu)
{
	struct spe_cpu *st = spe_cpu(cpu);

	spe_process_synced(cpu);
	spe_flight_land(cpu, false);
	if (!st->tlbi_pending)
		return;
	/* SPE 3.4.4, including operations broadcast to other PEs: their records too. */
	st->tlbi_pending = false;
	for (unsigned int c = 0; c < SIM_MAX_CPUS; c++)
		spe_flight_land(c, true);
	sim_mem_tlb_complete();
}

/* The hypervisor switches the context records are written in (stage 2 / VMID, or the owning
 * Exception level): every record sampled in the old context must be in memory by then ("software
 * must execute a PSB CSYNC instruction to force any sample records to be written to the
 * Profiling Buffer before changing context", SPE 3.6.1, with the DSB that completes them, SPE 3.6).
 * Records still queued or in flight are reported once; the queued ones are then processed in the
 * new context, the outcome that shows a missing drain most clearly. */
void spe_context_change(unsigned int cpu, unsigned int owner, uint16_t vmid, const char *what)
{
	struct spe_cpu *st = spe_cpu(cpu);
	bool found = spe_flight_flag(cpu, owner, vmid);

	for (unsigned int i = 0; i < st->qlen; i++) {
		struct spe_qrec *q = &st->queue[(st->qhead + i) % SPE_QUEUE_MAX];

		if (q->owner != owner || (owner == 1 && q->vmid != vmid) || q->flagged)
			continue;
		q->flagged = true;
		found = true;
	}
	if (found)
		sim_report_error(cpu, what);
}

static enum sim_spe_unpred pick(unsigned int cpu)
{
	if (spe_options.unpred != SIM_SPE_UNPRED_SEED)
		return spe_options.unpred;
	return (enum sim_spe_unpred)(SIM_SPE_UNPRED_WRITE + sim_random(cpu) % 3);
}

/* SPE 3.6.1: ProfilingBufferEnabled() is about to read FALSE (the caller still holds the old view)
 * with records that no PSB CSYNC synchronized: write them, drop them, or drop them with a
 * management event (DL = 1, EC = 0, BSC = 0); in discard mode only the drop (no event, D17.5.5). */
void spe_buffer_disabling(unsigned int cpu)
{
	struct spe_cpu *st = spe_cpu(cpu);
	unsigned int synced = 0;

	while (synced < st->qlen && st->queue[(st->qhead + synced) % SPE_QUEUE_MAX].synced)
		synced++;
	if (synced == st->qlen)
		return;
	switch (spe_discard_mode(spe_view(cpu, VR_PMBLIMITR)) ? SIM_SPE_UNPRED_DISCARD
							      : pick(cpu)) {
	case SIM_SPE_UNPRED_WRITE:
		while (st->qlen && !(pmbsr_now(cpu) & PMBSR_S))
			process_oldest(cpu);
		spe_flight_land(cpu, true);
		break;
	case SIM_SPE_UNPRED_DL:
		st->stats.dropped += st->qlen;
		spe_event(cpu, (pmbsr_now(cpu) & ~(PMBSR_EC_MASK | PMBSR_MSS_MASK)) | PMBSR_DL);
		break;
	case SIM_SPE_UNPRED_DISCARD:
	case SIM_SPE_UNPRED_SEED:
	default:
		st->stats.discarded += st->qlen - synced;
		st->stats.dropped += st->qlen - synced;
		st->qlen = synced;
		break;
	}
}
