// SPDX-License-Identifier: MIT
/* SPE sample records to packets (the inverse of rec.c), and record comparison. */
#include <vperf/spe_rec.h>

#include "spe_internal.h"

struct writer {
	uint8_t *buf;
	size_t cap;
	size_t off;
	enum vperf_err err;
};

static void put(struct writer *w, uint8_t kind, uint8_t index, uint8_t size, uint64_t payload)
{
	struct vperf_spe_pkt pkt = {
		.kind = kind,
		.index = index,
		.size = size,
		.payload = payload,
	};
	size_t n = 0;

	if (w->err == VPERF_OK)
		w->err = vperf_spe_pkt_encode(&pkt, w->buf, w->cap, w->off, &n);
	w->off += n;
}

static void put_addr(struct writer *w, const struct vperf_spe_record *rec, unsigned int i)
{
	if (rec->have & VPERF_SPE_HAVE_ADDR(i))
		put(w, VPERF_SPE_PKT_ADDRESS, (uint8_t)i, 8, vperf_spe_addr_pack(&rec->addr[i]));
}

static void put_opaque(struct writer *w, const struct vperf_spe_pkt *pkt)
{
	size_t n = 0;

	if (w->err == VPERF_OK)
		w->err = vperf_spe_pkt_encode(pkt, w->buf, w->cap, w->off, &n);
	w->off += n;
}

static void put_body(struct writer *w, const struct vperf_spe_record *rec)
{
	uint32_t h = rec->have;

	for (unsigned int i = 0; i < 2; i++)
		if (h & VPERF_SPE_HAVE_CTX(i))
			put(w, VPERF_SPE_PKT_CONTEXT, (uint8_t)i, 4, rec->ctx[i]);
	put_addr(w, rec, VPERF_SPE_ADDR_PC);
	if (h & VPERF_SPE_HAVE_OP)
		put(w, VPERF_SPE_PKT_OP_TYPE, rec->op.cls, 1, vperf_spe_op_pack(&rec->op));
	if (h & VPERF_SPE_HAVE_EVENTS)
		put(w, VPERF_SPE_PKT_EVENTS, 0, rec->events_size, rec->events);
	for (unsigned int i = 0; i < VPERF_SPE_CNT_NDEF; i++)
		if (h & VPERF_SPE_HAVE_CNT(i))
			put(w, VPERF_SPE_PKT_COUNTER, (uint8_t)i, 2, rec->cnt[i]);
	put_addr(w, rec, VPERF_SPE_ADDR_BR_TGT);
	put_addr(w, rec, VPERF_SPE_ADDR_PREV_BR);
	put_addr(w, rec, VPERF_SPE_ADDR_DATA_VA);
	put_addr(w, rec, VPERF_SPE_ADDR_DATA_PA);
	if (h & VPERF_SPE_HAVE_DSRC)
		put(w, VPERF_SPE_PKT_DATA_SOURCE, 0, rec->dsrc_size, rec->dsrc);
	for (unsigned int i = 0; i < rec->nopaque && i < VPERF_SPE_REC_MAX_OPAQUE; i++)
		put_opaque(w, &rec->opaque[i]);
}

enum vperf_err vperf_spe_rec_encode(const struct vperf_spe_record *rec, uint8_t *buf, size_t cap,
				    size_t off, size_t *out_len)
{
	struct writer w = { .buf = buf, .cap = cap, .off = off, .err = VPERF_OK };

	if (!rec || !buf || !out_len)
		return VPERF_EINVAL;
	put_body(&w, rec);
	/* SPE 5.1.2: the record ends with a Timestamp packet or an End packet. */
	if (rec->have & VPERF_SPE_HAVE_TS)
		put(&w, VPERF_SPE_PKT_TIMESTAMP, 0, 8, rec->timestamp);
	else
		put(&w, VPERF_SPE_PKT_END, 0, 0, 0);
	*out_len = w.err == VPERF_OK ? w.off - off : 0;
	return w.err;
}

static bool addr_equal(const struct vperf_spe_addr *a, const struct vperf_spe_addr *b)
{
	return vperf_spe_addr_pack(a) == vperf_spe_addr_pack(b) && a->index == b->index;
}

static bool op_equal(const struct vperf_spe_op *a, const struct vperf_spe_op *b)
{
	return a->cls == b->cls && vperf_spe_op_pack(a) == vperf_spe_op_pack(b);
}

static bool pkt_equal(const struct vperf_spe_pkt *a, const struct vperf_spe_pkt *b)
{
	return a->kind == b->kind && a->index == b->index && a->size == b->size &&
	       a->hdr0 == b->hdr0 && a->hdr1 == b->hdr1 && a->flags == b->flags &&
	       a->payload == b->payload;
}

static bool scalars_equal(const struct vperf_spe_record *a, const struct vperf_spe_record *b)
{
	uint32_t h = a->have;

	if ((h & VPERF_SPE_HAVE_EVENTS) &&
	    (a->events != b->events || a->events_size != b->events_size))
		return false;
	if ((h & VPERF_SPE_HAVE_DSRC) && (a->dsrc != b->dsrc || a->dsrc_size != b->dsrc_size))
		return false;
	if ((h & VPERF_SPE_HAVE_TS) && a->timestamp != b->timestamp)
		return false;
	if ((h & VPERF_SPE_HAVE_OP) && !op_equal(&a->op, &b->op))
		return false;
	for (unsigned int i = 0; i < 2; i++)
		if ((h & VPERF_SPE_HAVE_CTX(i)) && a->ctx[i] != b->ctx[i])
			return false;
	for (unsigned int i = 0; i < VPERF_SPE_CNT_NDEF; i++)
		if ((h & VPERF_SPE_HAVE_CNT(i)) && a->cnt[i] != b->cnt[i])
			return false;
	return true;
}

bool vperf_spe_rec_equal(const struct vperf_spe_record *a, const struct vperf_spe_record *b)
{
	unsigned int kept;

	if (a->have != b->have || a->nopaque != b->nopaque || !scalars_equal(a, b))
		return false;
	for (unsigned int i = 0; i < VPERF_SPE_ADDR_NDEF; i++)
		if ((a->have & VPERF_SPE_HAVE_ADDR(i)) && !addr_equal(&a->addr[i], &b->addr[i]))
			return false;
	kept = a->nopaque < VPERF_SPE_REC_MAX_OPAQUE ? a->nopaque : VPERF_SPE_REC_MAX_OPAQUE;
	for (unsigned int i = 0; i < kept; i++)
		if (!pkt_equal(&a->opaque[i], &b->opaque[i]))
			return false;
	return true;
}
