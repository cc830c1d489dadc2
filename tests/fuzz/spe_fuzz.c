// SPDX-License-Identifier: MIT
/*
 * Fuzz target for the SPE decoder (lib/spe). Beyond "no crash, no out-of-bounds read" (ASan,
 * UBSan), every input is checked against the codec's contracts, and a violated contract aborts:
 *  - packet walk: a decoded packet lies inside the buffer and re-encodes to the same bytes; its
 *    typed view (Address, Operation Type) packs back to the same payload; an error names the
 *    offset it was asked about; resynchronization always moves forward;
 *  - record walk: each record lies inside the buffer, the iterator always moves forward, and the
 *    encoder's rendering of each record decodes back to one equal record.
 */
#include <vperf/spe_rec.h>

#include "spe_fuzz.h"

#define CHECK(cond)                       \
	do {                              \
		if (!(cond))              \
			__builtin_trap(); \
	} while (0)

static uint8_t scratch[4096];

static bool same_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* The typed views are lossless (spe_pkt.h). */
static void check_views(const struct vperf_spe_pkt *pkt)
{
	struct vperf_spe_addr a;
	struct vperf_spe_op op;

	if (pkt->kind == VPERF_SPE_PKT_ADDRESS) {
		vperf_spe_addr_unpack(pkt->index, pkt->payload, &a);
		CHECK(vperf_spe_addr_pack(&a) == pkt->payload);
	}
	if (pkt->kind == VPERF_SPE_PKT_OP_TYPE) {
		vperf_spe_op_unpack(pkt->index, (uint8_t)pkt->payload, &op);
		CHECK(vperf_spe_op_pack(&op) == pkt->payload);
		CHECK(vperf_spe_op_reserved(&op) == !!(pkt->flags & VPERF_SPE_PKTF_RESERVED));
	}
}

static void check_packet(const uint8_t *data, size_t size, size_t off,
			 const struct vperf_spe_pkt *pkt)
{
	size_t n = 0;

	check_views(pkt);
	CHECK(pkt->len > 0 && pkt->len <= size - off && pkt->offset == off);
	if (pkt->kind == VPERF_SPE_PKT_ALIGN)
		return; /* skipped bytes are UNKNOWN and may be clipped by the end of the buffer */
	CHECK(vperf_spe_pkt_encode(pkt, scratch, sizeof(scratch), 0, &n) == VPERF_OK);
	CHECK(n == pkt->len && same_bytes(scratch, data + off, n));
}

static void walk_packets(const uint8_t *data, size_t size)
{
	size_t off = 0;

	while (off < size) {
		struct vperf_spe_pkt pkt;
		struct vperf_spe_error err;
		enum vperf_spe_reason r = vperf_spe_pkt_decode(data, size, off, &pkt, &err);
		size_t next;

		if (r == VPERF_SPE_OK) {
			check_packet(data, size, off, &pkt);
			off += pkt.len;
			continue;
		}
		CHECK(r < VPERF_SPE_NREASONS && err.offset == off && err.reason == r);
		next = vperf_spe_resync(data, size, off);
		CHECK(next > off && next <= size);
		off = next;
	}
}

static void check_record(size_t size, struct vperf_spe_record *rec)
{
	struct vperf_spe_iter it;
	struct vperf_spe_record back;
	size_t n = 0;

	CHECK(rec->len > 0 && rec->offset < size && rec->len <= size - rec->offset);
	/* the struct holds the first VPERF_SPE_REC_MAX_OPAQUE opaque packets only */
	if (rec->nopaque > VPERF_SPE_REC_MAX_OPAQUE)
		rec->nopaque = VPERF_SPE_REC_MAX_OPAQUE;
	CHECK(vperf_spe_rec_encode(rec, scratch, sizeof(scratch), 0, &n) == VPERF_OK);
	vperf_spe_iter_init(&it, scratch, n);
	CHECK(vperf_spe_next_record(&it, &back, NULL) == VPERF_SPE_RECORD);
	CHECK(back.len == n && vperf_spe_rec_equal(rec, &back) && vperf_spe_rec_equal(&back, rec));
	CHECK(vperf_spe_next_record(&it, &back, NULL) == VPERF_SPE_DONE);
}

static void walk_records(const uint8_t *data, size_t size)
{
	struct vperf_spe_iter it;
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	enum vperf_spe_next got;
	size_t before = 0;

	vperf_spe_iter_init(&it, data, size);
	while ((got = vperf_spe_next_record(&it, &rec, &err)) != VPERF_SPE_DONE) {
		CHECK(it.off > before && it.off <= size);
		before = it.off;
		if (got == VPERF_SPE_RECORD) {
			check_record(size, &rec);
			continue;
		}
		CHECK(got == VPERF_SPE_MALFORMED && err.offset < size && err.resync == it.off);
		CHECK(err.reason > VPERF_SPE_OK && err.reason < VPERF_SPE_NREASONS);
	}
	CHECK(it.off == size || size == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	walk_packets(data, size);
	walk_records(data, size);
	return 0;
}
