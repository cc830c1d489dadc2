// SPDX-License-Identifier: MIT
/*
 * Choosing the sampled operations (SPE 2.2, 3.1): every micro-op is a member of the
 * sample population while profiling is enabled at its EL; the interval counter PMSICR_EL1
 * selects one; a selection while the previous sampled operation is still in flight collides
 * (SPE 2.2.4, 3.1.4). The model dispatches one micro-op per cycle and a sampled micro-op is in
 * flight for its total latency, so a collision happens when two selections are closer than
 * the first one's latency. Then the record is built, filtered and handed to the buffer.
 */
#include "spe_internal.h"

static uint64_t random_byte(unsigned int cpu)
{
	return (sim_random(cpu) >> 24) & 0xffu;
}

/* SPE 3.1.1 and 3.1.2: the reload value, COUNT[31:8] = INTERVAL; COUNT[7:0] random when RND is 1
 * and ERnd is 0, else zero. */
static uint64_t reload(unsigned int cpu)
{
	uint64_t irr = spe_view(cpu, VR_PMSIRR);
	bool rnd = (irr & PMSIRR_RND) && !(spe_idr(cpu) & PMSIDR_ERND);

	return (irr & PMSIRR_INTERVAL_MASK) | (rnd ? random_byte(cpu) : 0);
}

/* SPE 3.1.1: entering a state where profiling is enabled with PMSICR_EL1 zero loads the counter;
 * a non-zero PMSICR_EL1 restarts from its value. */
static void start_interval(unsigned int cpu)
{
	if (sim_reg(cpu, SIM_ENC_PMSICR_EL1) == 0)
		sim_set_reg(cpu, SIM_ENC_PMSICR_EL1, reload(cpu));
}

/* SPE 3.1.2 with RND == 1 and ERnd == 1: the primary counter runs on; the operation that finds it
 * at zero reloads it and sets ECOUNT to a random value "in the range 0x00 to 0xFF"; the operation
 * at which ECOUNT reaches zero is sampled, and one that sets it to zero has reached zero at once:
 * it is sampled itself. So ECOUNT can read 0 at any time and nothing outside PMSICR_EL1 says
 * whether a sample is pending (a hypervisor must save and restore all 64 bits). The mean
 * interval is INTERVAL * 256 + 1 (the note of SPE 3.1.2). */
static bool tick_ernd(unsigned int cpu, uint64_t icr)
{
	uint64_t count = icr & PMSICR_COUNT_MASK;
	uint64_t ecount = (icr & PMSICR_ECOUNT_MASK) >> PMSICR_ECOUNT_SHIFT;
	bool selected = false;

	if (ecount) {
		ecount--;
		selected = ecount == 0;
	}
	if (count == 0) {
		count = reload(cpu);
		ecount = random_byte(cpu);
		selected = selected || ecount == 0;
	} else {
		count--;
	}
	sim_set_reg(cpu, SIM_ENC_PMSICR_EL1, ecount << PMSICR_ECOUNT_SHIFT | count);
	return selected;
}

/* SPE 3.1.2 otherwise: the counter decrements while non-zero; the operation that finds it at zero
 * is selected and the counter is reloaded, so that with RND == 0 one operation in
 * INTERVAL * 256 + 1 is sampled (the note of SPE 3.1.2). SPE 3.1 lets the selected operation be
 * the one that brought the counter to zero or the next one; the model takes the next one (the
 * project's QEMU the other), so a COUNT of c samples the (c+1)-th member. */
static bool tick(unsigned int cpu)
{
	uint64_t icr = sim_reg(cpu, SIM_ENC_PMSICR_EL1);
	uint64_t count = icr & PMSICR_COUNT_MASK;

	if ((spe_view(cpu, VR_PMSIRR) & PMSIRR_RND) && (spe_idr(cpu) & PMSIDR_ERND))
		return tick_ernd(cpu, icr);
	if (count == 0) {
		sim_set_reg(cpu, SIM_ENC_PMSICR_EL1, (icr & ~PMSICR_COUNT_MASK) | reload(cpu));
		return true;
	}
	sim_set_reg(cpu, SIM_ENC_PMSICR_EL1, icr - 1);
	return false;
}

static void count(unsigned int cpu, uint64_t *stat, enum sim_pmu_event ev)
{
	(void)cpu;
	(*stat)++;
	sim_pmu_event(ev, 1);
}

static void filter_input(unsigned int cpu, const struct sim_uop *op, const struct spe_mrec *rec,
			 struct spe_filter_in *in)
{
	in->pmsfcr = spe_view(cpu, VR_PMSFCR);
	in->pmsevfr = spe_view(cpu, VR_PMSEVFR);
	in->pmsnevfr = spe_view(cpu, VR_PMSNEVFR);
	in->pmslatfr = spe_view(cpu, VR_PMSLATFR);
	in->pmsdsfr = spe_view(cpu, VR_PMSDSFR);
	in->pmsidr = spe_idr(cpu);
	in->events = rec->events;
	in->latency = op->latency;
	in->flags = spe_op_flags(op);
	in->has_ds = (rec->have & SPE_MR_DSRC) != 0;
	in->ds = (uint8_t)rec->dsrc;
}

/* The record in bytes, padded with Padding packets (0x00, Arm DDI 0487 K.a D18.2.8) to a multiple
 * of 2^PMBIDR_EL1.Align (SPE 4.3.1: the PE pads every record up to that size). */
static size_t encode(unsigned int cpu, const struct spe_mrec *rec, uint8_t *buf)
{
	size_t len = spe_mrec_encode(rec, buf, SPE_REC_MAX), align = (size_t)1 << spe_align(cpu);

	if (!len)
		return 0;
	while (len % align && len < SPE_REC_MAX)
		buf[len++] = 0;
	return len;
}

static void sample(unsigned int cpu, unsigned int el, const struct sim_uop *op)
{
	struct spe_cpu *st = spe_cpu(cpu);
	struct spe_mrec rec;
	struct spe_filter_in in;
	uint8_t buf[SPE_REC_MAX];
	size_t len;

	spe_build_record(cpu, el, op, &rec);
	filter_input(cpu, op, &rec, &in);
	if (!spe_collect_record(cpu, &in))
		return;
	count(cpu, &st->stats.filtrate, SIM_EV_SAMPLE_FILTRATE);
	len = encode(cpu, &rec, buf);
	if (!len || len > (1ull << spe_max_size(cpu))) {
		sim_report_error(cpu, "model: SPE record larger than PMSIDR_EL1.MaxSize");
		return;
	}
	spe_enqueue(cpu, buf, len);
}

void spe_step(unsigned int cpu, const struct sim_uop *op)
{
	struct spe_cpu *st = spe_cpu(cpu);
	unsigned int el = sim_el();
	uint64_t slot = st->slot++;

	st->cntpct += op->latency ? op->latency : 1;
	if (!spe_profiling_enabled(cpu, el)) {
		st->was_enabled = false; /* SPE 3.1.3: the counter keeps its value */
		return;
	}
	if (!st->was_enabled)
		start_interval(cpu);
	st->was_enabled = true;
	count(cpu, &st->stats.pop, SIM_EV_SAMPLE_POP);
	if (!tick(cpu))
		return;
	if (slot < st->busy_until) {
		/* SPE 3.1.4: SAMPLE_COLLISION, and PMBSR_EL1.COLL, visible after the next context
		 * synchronization event; the new sample is not taken. */
		count(cpu, &st->stats.collision, SIM_EV_SAMPLE_COLLISION);
		st->coll_pending = true;
		return;
	}
	st->busy_until = slot + (op->latency ? op->latency : 1);
	st->busy_epoch = st->epoch;
	count(cpu, &st->stats.feed, SIM_EV_SAMPLE_FEED);
	sample(cpu, el, op);
}
