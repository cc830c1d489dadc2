// SPDX-License-Identifier: MIT
/*
 * SPE packet encoder: the inverse of pkt_decode.c. Header bytes follow SPE 5.2.1 and SPE 5.2.2 and
 * the per-packet header figures of Arm DDI 0487 K.a, D18.2; payloads are little-endian (SPE 5.1.3).
 */
#include "spe_internal.h"

/* Payload sizes each kind may carry (bit n set: size 1 << n allowed). */
static uint8_t sizes_allowed(uint8_t kind)
{
	switch (kind) {
	case VPERF_SPE_PKT_TIMESTAMP: /* D18.2.9: doubleword */
	case VPERF_SPE_PKT_ADDRESS:   /* D18.2.1: doubleword */
		return 1u << 3;
	case VPERF_SPE_PKT_COUNTER: /* D18.2.3: halfword */
		return 1u << 1;
	case VPERF_SPE_PKT_CONTEXT: /* D18.2.2: word */
		return 1u << 2;
	case VPERF_SPE_PKT_OP_TYPE: /* D18.2.7: byte */
		return 1u << 0;
	case VPERF_SPE_PKT_EVENTS:	/* D18.2.6: byte to doubleword */
	case VPERF_SPE_PKT_DATA_SOURCE: /* D18.2.4: byte, halfword (word, doubleword reserved) */
		return 0x0f;
	default:
		return 0;
	}
}

/* Header byte(s) of a packet with a payload; returns the header length or 0 if invalid. */
static unsigned int sized_header(const struct vperf_spe_pkt *pkt, uint8_t hdr[2])
{
	uint8_t sz = spe_size_to_sz(pkt->size);
	bool ext = pkt->flags & VPERF_SPE_PKTF_EXT;
	uint8_t base;

	if (sz > 3 || !(sizes_allowed(pkt->kind) & (1u << sz)))
		return 0;
	switch (pkt->kind) {
	case VPERF_SPE_PKT_TIMESTAMP:
		hdr[0] = SPE_HDR_TIMESTAMP;
		return ext ? 0 : 1;
	case VPERF_SPE_PKT_EVENTS:
	case VPERF_SPE_PKT_DATA_SOURCE:
		base = pkt->kind == VPERF_SPE_PKT_EVENTS ? SPE_HDR_EVENTS : SPE_HDR_DATA_SOURCE;
		hdr[0] = (uint8_t)(base | (sz << 4));
		return ext ? 0 : 1;
	case VPERF_SPE_PKT_CONTEXT:
	case VPERF_SPE_PKT_OP_TYPE:
		if (pkt->index > 3 || ext)
			return 0;
		base = pkt->kind == VPERF_SPE_PKT_CONTEXT ? SPE_HDR_CONTEXT : SPE_HDR_OP_TYPE;
		hdr[0] = (uint8_t)(base | pkt->index);
		return 1;
	default: /* ADDRESS, COUNTER */
		break;
	}
	base = pkt->kind == VPERF_SPE_PKT_ADDRESS ? SPE_HDR_ADDRESS : SPE_HDR_COUNTER;
	if (pkt->index > 31 || (!ext && pkt->index > 7))
		return 0;
	if (!ext) {
		hdr[0] = (uint8_t)(base | pkt->index);
		return 1;
	}
	/* D18.2.1/D18.2.3 Extended format: byte 0 = 0b001000:INDEX[4:3], byte 1 = INDEX[2:0] */
	hdr[0] = (uint8_t)(SPE_HDR_PREFIX | (pkt->index >> 3));
	hdr[1] = (uint8_t)(base | (pkt->index & 7u));
	return 2;
}

/* An UNKNOWN packet's header bytes must be ones the decoder calls unknown, with this size. */
static unsigned int unknown_header(const struct vperf_spe_pkt *pkt, uint8_t hdr[2])
{
	uint8_t probe_buf[10] = { pkt->hdr0, pkt->hdr1, 0, 0, 0, 0, 0, 0, 0, 0 };
	unsigned int n = (pkt->flags & VPERF_SPE_PKTF_EXT) ? 2 : 1;
	struct vperf_spe_pkt probe;

	if (pkt->size > 8 || (n == 1 && pkt->hdr1))
		return 0;
	if (vperf_spe_pkt_decode(probe_buf, n + pkt->size, 0, &probe, NULL) != VPERF_SPE_OK)
		return 0;
	if (probe.kind != VPERF_SPE_PKT_UNKNOWN || probe.len != n + pkt->size)
		return 0;
	hdr[0] = pkt->hdr0;
	hdr[1] = pkt->hdr1;
	return n;
}

static enum vperf_err put_bytes(uint8_t *buf, size_t cap, size_t off, const uint8_t *src, size_t n,
				size_t *out_len)
{
	if (off > cap || cap - off < n)
		return VPERF_ENOSPC;
	for (size_t i = 0; i < n; i++)
		buf[off + i] = src[i];
	*out_len = n;
	return VPERF_OK;
}

static enum vperf_err encode_align(const struct vperf_spe_pkt *pkt, uint8_t *buf, size_t cap,
				   size_t off, size_t *out_len)
{
	size_t n = spe_align_len(off, pkt->index);

	if (pkt->index > 15 || pkt->size || !(pkt->flags & VPERF_SPE_PKTF_EXT))
		return VPERF_EINVAL;
	if (off > cap || cap - off < n)
		return VPERF_ENOSPC;
	buf[off] = (uint8_t)(SPE_HDR_ALIGN | pkt->index);
	for (size_t i = 1; i < n; i++)
		buf[off + i] = 0; /* byte 1 reads as 0; the skipped bytes are UNKNOWN */
	*out_len = n;
	return VPERF_OK;
}

static bool payload_fits(const struct vperf_spe_pkt *pkt)
{
	return pkt->size >= 8 || !(pkt->payload >> (pkt->size * 8u));
}

enum vperf_err vperf_spe_pkt_encode(const struct vperf_spe_pkt *pkt, uint8_t *buf, size_t cap,
				    size_t off, size_t *out_len)
{
	uint8_t b[10];
	unsigned int h;

	if (!pkt || !buf || !out_len || pkt->kind >= VPERF_SPE_PKT_NKINDS)
		return VPERF_EINVAL;
	if (pkt->kind == VPERF_SPE_PKT_PAD || pkt->kind == VPERF_SPE_PKT_END) {
		if (pkt->size || (pkt->flags & VPERF_SPE_PKTF_EXT))
			return VPERF_EINVAL;
		b[0] = (uint8_t)(pkt->kind == VPERF_SPE_PKT_PAD ? SPE_HDR_PAD : SPE_HDR_END);
		return put_bytes(buf, cap, off, b, 1, out_len);
	}
	if (pkt->kind == VPERF_SPE_PKT_ALIGN)
		return encode_align(pkt, buf, cap, off, out_len);
	if (pkt->kind == VPERF_SPE_PKT_UNKNOWN)
		h = unknown_header(pkt, b);
	else
		h = sized_header(pkt, b);
	if (!h || !payload_fits(pkt))
		return VPERF_EINVAL;
	spe_le_put(b + h, pkt->payload, pkt->size);
	return put_bytes(buf, cap, off, b, h + pkt->size, out_len);
}
