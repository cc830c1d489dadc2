// SPDX-License-Identifier: MIT
/*
 * SPE sample records: group packets into records (SPE 5.1.2: a record ends with an
 * End packet or a Timestamp packet) and report malformed input with resynchronization.
 */
#include <vperf/spe_rec.h>

#include "spe_internal.h"

static void addr_clear(struct vperf_spe_addr *a)
{
	vperf_spe_addr_unpack(0, 0, a);
}

void vperf_spe_rec_clear(struct vperf_spe_record *rec)
{
	rec->offset = 0;
	rec->len = 0;
	rec->have = 0;
	rec->npkts = 0;
	rec->ndup = 0;
	rec->nopaque = 0;
	rec->events_size = 0;
	rec->dsrc_size = 0;
	rec->events = 0;
	rec->timestamp = 0;
	rec->ctx[0] = 0;
	rec->ctx[1] = 0;
	for (unsigned int i = 0; i < VPERF_SPE_CNT_NDEF; i++)
		rec->cnt[i] = 0;
	rec->dsrc = 0;
	vperf_spe_op_unpack(0, 0, &rec->op);
	for (unsigned int i = 0; i < VPERF_SPE_ADDR_NDEF; i++)
		addr_clear(&rec->addr[i]);
}

/* Mark a field present; count it as a duplicate if it already was. */
static void have(struct vperf_spe_record *rec, uint32_t bit)
{
	if (rec->have & bit)
		rec->ndup++;
	rec->have |= bit;
}

static void add_opaque(struct vperf_spe_record *rec, const struct vperf_spe_pkt *pkt)
{
	struct vperf_spe_pkt *o;

	if (rec->nopaque < VPERF_SPE_REC_MAX_OPAQUE) {
		o = &rec->opaque[rec->nopaque];
		o->kind = pkt->kind;
		o->index = pkt->index;
		o->size = pkt->size;
		o->hdr0 = pkt->hdr0;
		o->hdr1 = pkt->hdr1;
		o->flags = pkt->flags;
		o->len = pkt->len;
		o->offset = pkt->offset;
		o->payload = pkt->payload;
	}
	if (rec->nopaque < UINT16_MAX)
		rec->nopaque++;
}

void vperf_spe_rec_add(struct vperf_spe_record *rec, const struct vperf_spe_pkt *pkt)
{
	bool opaque = pkt->flags & (VPERF_SPE_PKTF_IMPDEF | VPERF_SPE_PKTF_RESERVED);

	if (opaque || pkt->kind == VPERF_SPE_PKT_UNKNOWN) {
		add_opaque(rec, pkt);
		return;
	}
	switch (pkt->kind) {
	case VPERF_SPE_PKT_ADDRESS:
		have(rec, (uint32_t)VPERF_SPE_HAVE_ADDR(pkt->index));
		vperf_spe_addr_unpack(pkt->index, pkt->payload, &rec->addr[pkt->index]);
		break;
	case VPERF_SPE_PKT_COUNTER:
		have(rec, (uint32_t)VPERF_SPE_HAVE_CNT(pkt->index));
		rec->cnt[pkt->index] = (uint16_t)pkt->payload;
		break;
	case VPERF_SPE_PKT_CONTEXT:
		have(rec, (uint32_t)VPERF_SPE_HAVE_CTX(pkt->index));
		rec->ctx[pkt->index] = (uint32_t)pkt->payload;
		break;
	case VPERF_SPE_PKT_OP_TYPE:
		have(rec, (uint32_t)VPERF_SPE_HAVE_OP);
		vperf_spe_op_unpack(pkt->index, (uint8_t)pkt->payload, &rec->op);
		break;
	case VPERF_SPE_PKT_EVENTS:
		have(rec, (uint32_t)VPERF_SPE_HAVE_EVENTS);
		rec->events = pkt->payload;
		rec->events_size = pkt->size;
		break;
	case VPERF_SPE_PKT_DATA_SOURCE:
		have(rec, (uint32_t)VPERF_SPE_HAVE_DSRC);
		rec->dsrc = (uint16_t)pkt->payload;
		rec->dsrc_size = pkt->size;
		break;
	default: /* framing packets are the iterator's business */
		break;
	}
}

void vperf_spe_iter_init(struct vperf_spe_iter *it, const uint8_t *buf, size_t len)
{
	it->buf = buf;
	it->len = buf ? len : 0;
	it->off = 0;
	it->nrecords = 0;
	it->nerrors = 0;
	it->nskipped = 0;
}

size_t vperf_spe_resume(const uint8_t *buf, size_t len, const struct vperf_spe_error *err)
{
	switch (err->reason) {
	case VPERF_SPE_E_TRUNC_HDR:
	case VPERF_SPE_E_TRUNC_PAYLOAD:
	case VPERF_SPE_E_TRUNC_RECORD:
		return len;
	default:
		return vperf_spe_resync(buf, len, err->offset);
	}
}

/* Report a malformed spot and move past it (see spe_rec.h for the rule). */
static enum vperf_spe_next malformed(struct vperf_spe_iter *it, struct vperf_spe_error *err)
{
	size_t next = vperf_spe_resume(it->buf, it->len, err);

	err->resync = next;
	if (next > it->off)
		it->nskipped += next - it->off;
	it->off = next;
	it->nerrors++;
	return VPERF_SPE_MALFORMED;
}

static enum vperf_spe_next finish(struct vperf_spe_iter *it, struct vperf_spe_record *rec,
				  const struct vperf_spe_pkt *pkt)
{
	if (pkt->kind == VPERF_SPE_PKT_TIMESTAMP) {
		rec->have |= (uint32_t)VPERF_SPE_HAVE_TS;
		rec->timestamp = pkt->payload;
	}
	rec->len = it->off - rec->offset;
	it->nrecords++;
	return VPERF_SPE_RECORD;
}

enum vperf_spe_next vperf_spe_next_record(struct vperf_spe_iter *it, struct vperf_spe_record *rec,
					  struct vperf_spe_error *err)
{
	struct vperf_spe_error local;
	struct vperf_spe_pkt pkt;
	bool started = false;

	if (!it || !rec)
		return VPERF_SPE_DONE;
	if (!err)
		err = &local;
	vperf_spe_rec_clear(rec);
	while (it->off < it->len) {
		if (vperf_spe_pkt_decode(it->buf, it->len, it->off, &pkt, err) != VPERF_SPE_OK)
			return malformed(it, err);
		it->off += pkt.len;
		if (pkt.kind == VPERF_SPE_PKT_PAD || pkt.kind == VPERF_SPE_PKT_ALIGN)
			continue;
		if (!started)
			rec->offset = pkt.offset;
		started = true;
		if (rec->npkts < UINT16_MAX)
			rec->npkts++;
		if (pkt.kind == VPERF_SPE_PKT_END || pkt.kind == VPERF_SPE_PKT_TIMESTAMP)
			return finish(it, rec, &pkt);
		vperf_spe_rec_add(rec, &pkt);
	}
	if (!started)
		return VPERF_SPE_DONE;
	err->offset = rec->offset;
	err->reason = VPERF_SPE_E_TRUNC_RECORD;
	return malformed(it, err);
}
