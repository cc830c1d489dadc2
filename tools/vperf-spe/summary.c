// SPDX-License-Identifier: MIT
/*
 * vperf-spe --summary: a profile of the buffer: the top PCs by samples, a total-latency histogram
 * with per-counter means and maxima, operation types, event counts, top data addresses, then the
 * decoder's diagnostics (how records ended, malformed spots, opaque and duplicate packets).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vperf-spe.h"

/* Open-addressing counter table keyed by a 64-bit address. */
struct slot {
	uint64_t key;
	uint64_t count;
	int used;
};

struct table {
	struct slot *slots;
	size_t cap, used;
	int oom;
};

static size_t slot_of(const struct table *t, uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> 20) & (t->cap - 1);

	while (t->slots[i].used && t->slots[i].key != key)
		i = (i + 1) & (t->cap - 1);
	return i;
}

static int table_grow(struct table *t)
{
	struct table bigger = { .cap = t->cap ? 2 * t->cap : 1024 };

	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].used) {
			size_t j = slot_of(&bigger, t->slots[i].key);

			bigger.slots[j] = t->slots[i];
			bigger.used++;
		}
	free(t->slots);
	*t = bigger;
	return 0;
}

static void table_add(struct table *t, uint64_t key)
{
	size_t i;

	if (t->oom)
		return;
	if (2 * (t->used + 1) > t->cap && table_grow(t)) {
		t->oom = 1;
		return;
	}
	i = slot_of(t, key);
	if (!t->slots[i].used) {
		t->slots[i].used = 1;
		t->slots[i].key = key;
		t->used++;
	}
	t->slots[i].count++;
}

static int by_count(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

#define NBUCKETS 17 /* log2 buckets of a 16-bit count: 0, 1, 2-3, ..., 32768-65535 */

struct profile {
	unsigned long records, by_ts, by_end, errors, opaque, dups;
	unsigned long op[VPERF_SPE_OP_NTYPES];
	unsigned long events[64], with_events;
	unsigned long hist[NBUCKETS], with_total;
	uint64_t cnt_sum[VPERF_SPE_CNT_NDEF], cnt_n[VPERF_SPE_CNT_NDEF];
	uint16_t cnt_max[VPERF_SPE_CNT_NDEF];
	struct table pcs, data;
};

static unsigned int bucket(uint16_t v)
{
	unsigned int b = 0;

	while (v) {
		b++;
		v >>= 1;
	}
	return b;
}

static void add_record(struct profile *p, const struct vperf_spe_record *r)
{
	p->records++;
	if (r->have & VPERF_SPE_HAVE_TS)
		p->by_ts++;
	else
		p->by_end++;
	p->opaque += r->nopaque;
	p->dups += r->ndup;
	if (r->have & VPERF_SPE_HAVE_OP)
		p->op[r->op.type]++;
	if (r->have & VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_PC))
		table_add(&p->pcs, vperf_spe_addr_value(&r->addr[VPERF_SPE_ADDR_PC]));
	if (r->have & VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_DATA_VA))
		table_add(&p->data, vperf_spe_addr_value(&r->addr[VPERF_SPE_ADDR_DATA_VA]));
	if (r->have & VPERF_SPE_HAVE_EVENTS) {
		p->with_events++;
		for (unsigned int b = 0; b < 64; b++)
			p->events[b] += (r->events >> b) & 1;
	}
	for (unsigned int i = 0; i < VPERF_SPE_CNT_NDEF; i++) {
		if (!(r->have & VPERF_SPE_HAVE_CNT(i)))
			continue;
		p->cnt_sum[i] += r->cnt[i];
		p->cnt_n[i]++;
		if (r->cnt[i] > p->cnt_max[i])
			p->cnt_max[i] = r->cnt[i];
	}
	if (r->have & VPERF_SPE_HAVE_CNT(VPERF_SPE_CNT_TOTAL)) {
		p->hist[bucket(r->cnt[VPERF_SPE_CNT_TOTAL])]++;
		p->with_total++;
	}
}

static double pct(unsigned long n, unsigned long of)
{
	return of ? 100.0 * (double)n / (double)of : 0.0;
}

static void print_top(FILE *out, const char *what, struct table *t, unsigned int top,
		      unsigned long of)
{
	struct slot *rows = malloc((t->used ? t->used : 1) * sizeof(*rows));
	size_t n = 0;

	fprintf(out, "\ntop %u %s (%zu distinct%s): samples, share, address\n", top, what, t->used,
		t->oom ? ", out of memory: partial" : "");
	if (!rows)
		return;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].used)
			rows[n++] = t->slots[i];
	qsort(rows, n, sizeof(*rows), by_count);
	for (size_t i = 0; i < n && i < top; i++)
		fprintf(out, "  %10" PRIu64 " %6.2f%%  0x%016" PRIx64 "\n", rows[i].count,
			pct((unsigned long)rows[i].count, of), rows[i].key);
	free(rows);
}

static void print_hist(FILE *out, const struct profile *p)
{
	unsigned long most = 0;

	fprintf(out, "\nlatency (cycles):\n");
	for (unsigned int i = 0; i < VPERF_SPE_CNT_NDEF; i++)
		if (p->cnt_n[i])
			fprintf(out, "  %-9s mean %.1f max %u (%" PRIu64 " records)\n",
				vperf_spe_cnt_index_name(i),
				(double)p->cnt_sum[i] / (double)p->cnt_n[i], p->cnt_max[i],
				p->cnt_n[i]);
	fprintf(out, "total latency histogram (%lu records):\n", p->with_total);
	for (unsigned int b = 0; b < NBUCKETS; b++)
		if (p->hist[b] > most)
			most = p->hist[b];
	for (unsigned int b = 0; b < NBUCKETS; b++) {
		unsigned long lo = b ? 1ul << (b - 1) : 0, hi = b ? (1ul << b) - 1 : 0;
		unsigned long bar = most ? (p->hist[b] * 40 + most - 1) / most : 0;

		if (!p->hist[b])
			continue;
		fprintf(out, "  %5lu-%-5lu %10lu %6.2f%%  ", lo, hi, p->hist[b],
			pct(p->hist[b], p->with_total));
		while (bar--)
			fputc('#', out);
		fputc('\n', out);
	}
}

static void print_counts(FILE *out, const struct profile *p)
{
	fprintf(out, "\noperation types:\n");
	for (unsigned int t = 0; t < VPERF_SPE_OP_NTYPES; t++)
		if (p->op[t])
			fprintf(out, "  %-16s %10lu %6.2f%%\n", vperf_spe_op_type_name(t), p->op[t],
				pct(p->op[t], p->records));
	fprintf(out, "\nevents (%lu records with an Events packet):\n", p->with_events);
	for (unsigned int b = 0; b < 64; b++) {
		const char *name = vperf_spe_event_name(b);
		char other[16];

		if (!p->events[b])
			continue;
		if (!name) {
			snprintf(other, sizeof(other), "bit%u", b);
			name = other;
		}
		fprintf(out, "  %-16s %10lu %6.2f%%\n", name, p->events[b],
			pct(p->events[b], p->with_events));
	}
}

unsigned long spe_summary(const struct input *in, const struct tool_opts *o, FILE *out)
{
	struct profile *p = calloc(1, sizeof(*p));
	struct vperf_spe_iter it;
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	enum vperf_spe_next got;
	unsigned long errors;

	if (!p)
		return 1;
	vperf_spe_iter_init(&it, in->buf, in->len);
	while ((got = vperf_spe_next_record(&it, &rec, &err)) != VPERF_SPE_DONE) {
		if (got == VPERF_SPE_RECORD)
			add_record(p, &rec);
		else
			report_malformed(in, o, &err);
	}
	/* What a person reads first: where the samples fall and what they cost; the decoder's own
	 * diagnostics last. */
	fprintf(out, "%s: %zu bytes, %lu records\n", in->name, in->len, p->records);
	print_top(out, "PCs", &p->pcs, o->top, p->records);
	print_hist(out, p);
	print_counts(out, p);
	print_top(out, "data virtual addresses", &p->data, o->top, p->records);
	fprintf(out, "\ndecoder:\n");
	fprintf(out, "  records     %lu (ended by Timestamp %lu, by End %lu)\n", p->records,
		p->by_ts, p->by_end);
	fprintf(out, "  malformed   %u spots, %zu bytes skipped\n", it.nerrors, it.nskipped);
	fprintf(out, "  opaque      %lu packets (IMPDEF, reserved or unknown: ignored)\n",
		p->opaque);
	fprintf(out, "  duplicates  %lu packets (a field set twice in one record)\n", p->dups);
	errors = it.nerrors;
	free(p->pcs.slots);
	free(p->data.slots);
	free(p);
	return errors;
}
