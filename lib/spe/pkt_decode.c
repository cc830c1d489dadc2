// SPDX-License-Identifier: MIT
/*
 * SPE packet decoder: header classification (SPE 5.2), payload extraction (SPE 5.1.3) and the
 * reserved/IMPLEMENTATION DEFINED marking of Arm DDI 0487 K.a, D18.2. Never reads outside
 * buf[off..len).
 */
#include "spe_internal.h"

static enum vperf_spe_reason fail(struct vperf_spe_error *err, size_t off,
				  enum vperf_spe_reason why)
{
	if (err) {
		err->offset = off;
		err->resync = off;
		err->reason = why;
	}
	return why;
}

static void pkt_clear(struct vperf_spe_pkt *pkt, size_t off)
{
	pkt->kind = VPERF_SPE_PKT_UNKNOWN;
	pkt->index = 0;
	pkt->size = 0;
	pkt->hdr0 = 0;
	pkt->hdr1 = 0;
	pkt->flags = 0;
	pkt->len = 0;
	pkt->offset = off;
	pkt->payload = 0;
}

/* D18.2.1: INDEX 0b0011x and 0b1xxxx are IMPDEF, 0-4 defined, the rest reserved. */
static uint8_t addr_flags(uint8_t index, uint64_t payload)
{
	struct vperf_spe_addr a;

	if (vperf_spe_addr_index_impdef(index))
		return VPERF_SPE_PKTF_IMPDEF;
	if (!vperf_spe_addr_index_defined(index))
		return VPERF_SPE_PKTF_RESERVED;
	vperf_spe_addr_unpack(index, payload, &a);
	return vperf_spe_addr_reserved(&a) ? VPERF_SPE_PKTF_RESERVED : 0;
}

/* D18.2.3: same INDEX layout; 3, 5 and 8-15 reserved. */
static uint8_t cnt_flags(uint8_t index)
{
	if (vperf_spe_cnt_index_impdef(index))
		return VPERF_SPE_PKTF_IMPDEF;
	return vperf_spe_cnt_index_defined(index) ? 0 : VPERF_SPE_PKTF_RESERVED;
}

static uint8_t op_flags(uint8_t cls, uint64_t payload)
{
	struct vperf_spe_op op;

	vperf_spe_op_unpack(cls, (uint8_t)payload, &op);
	return vperf_spe_op_reserved(&op) ? VPERF_SPE_PKTF_RESERVED : 0;
}

/* The flags a packet's field values call for (everything but EXT). */
static uint8_t field_flags(const struct vperf_spe_pkt *pkt)
{
	switch (pkt->kind) {
	case VPERF_SPE_PKT_ADDRESS:
		return addr_flags(pkt->index, pkt->payload);
	case VPERF_SPE_PKT_COUNTER:
		return cnt_flags(pkt->index);
	case VPERF_SPE_PKT_CONTEXT: /* D18.2.2: INDEX 2, 3 reserved */
		return pkt->index > VPERF_SPE_CTX_EL2 ? VPERF_SPE_PKTF_RESERVED : 0;
	case VPERF_SPE_PKT_OP_TYPE:
		return op_flags(pkt->index, pkt->payload);
	case VPERF_SPE_PKT_DATA_SOURCE: /* D18.2.4: SZ 0b00 and 0b01 only */
		return pkt->size > 2 ? VPERF_SPE_PKTF_RESERVED : 0;
	case VPERF_SPE_PKT_ALIGN: /* SPE 5.3.2: SIZE 0b0000 is not listed */
		return pkt->index == 0 ? VPERF_SPE_PKTF_RESERVED : 0;
	default:
		return 0;
	}
}

/* An 8-bit header of a sized form (SPE 5.2.1, Figure 5). */
static void classify_short(struct vperf_spe_pkt *pkt, uint8_t h)
{
	pkt->size = spe_hdr_size(h);
	if (h == SPE_HDR_TIMESTAMP) {
		pkt->kind = VPERF_SPE_PKT_TIMESTAMP;
	} else if ((h & SPE_MASK_SZ_LOW4) == SPE_HDR_EVENTS) {
		pkt->kind = VPERF_SPE_PKT_EVENTS;
	} else if ((h & SPE_MASK_SZ_LOW4) == SPE_HDR_DATA_SOURCE) {
		pkt->kind = VPERF_SPE_PKT_DATA_SOURCE;
	} else if ((h & SPE_MASK_LOW2) == SPE_HDR_CONTEXT) {
		pkt->kind = VPERF_SPE_PKT_CONTEXT;
		pkt->index = h & 3u;
	} else if ((h & SPE_MASK_LOW2) == SPE_HDR_OP_TYPE) {
		pkt->kind = VPERF_SPE_PKT_OP_TYPE;
		pkt->index = h & 3u;
	} else if ((h & SPE_MASK_LOW3) == SPE_HDR_ADDRESS) {
		pkt->kind = VPERF_SPE_PKT_ADDRESS;
		pkt->index = h & 7u;
	} else if ((h & SPE_MASK_LOW3) == SPE_HDR_COUNTER) {
		pkt->kind = VPERF_SPE_PKT_COUNTER;
		pkt->index = h & 7u;
	} else {
		pkt->kind = VPERF_SPE_PKT_UNKNOWN;
	}
}

/*
 * Byte 1 of a 16-bit header with a sized form (SPE 5.2.2, Figure 6; D18.2.1 and D18.2.3: byte 0 is
 * 0b001000 INDEX[4:3], byte 1 is the short header with INDEX[2:0]).
 */
static void classify_ext(struct vperf_spe_pkt *pkt, uint8_t h0, uint8_t h1)
{
	uint8_t hi = (uint8_t)((h0 & SPE_PREFIX_INDEX_MASK) << 3);
	bool plain = (h0 & (uint8_t)~SPE_PREFIX_INDEX_MASK) == SPE_HDR_PREFIX;

	pkt->size = spe_hdr_size(h1);
	pkt->flags = VPERF_SPE_PKTF_EXT;
	if (plain && (h1 & SPE_MASK_LOW3) == SPE_HDR_ADDRESS) {
		pkt->kind = VPERF_SPE_PKT_ADDRESS;
		pkt->index = (uint8_t)(hi | (h1 & 7u));
	} else if (plain && (h1 & SPE_MASK_LOW3) == SPE_HDR_COUNTER) {
		pkt->kind = VPERF_SPE_PKT_COUNTER;
		pkt->index = (uint8_t)(hi | (h1 & 7u));
	} else {
		pkt->kind = VPERF_SPE_PKT_UNKNOWN;
	}
}

/* The header at buf[off]; pkt->len is set to the header's length. */
static enum vperf_spe_reason decode_header(const uint8_t *buf, size_t len, size_t off,
					   struct vperf_spe_pkt *pkt, struct vperf_spe_error *err)
{
	uint8_t h0 = buf[off];

	pkt->hdr0 = h0;
	pkt->len = 1;
	if (h0 == SPE_HDR_PAD || h0 == SPE_HDR_END) {
		pkt->kind = h0 == SPE_HDR_PAD ? VPERF_SPE_PKT_PAD : VPERF_SPE_PKT_END;
		return VPERF_SPE_OK;
	}
	if (spe_hdr_sized(h0)) {
		classify_short(pkt, h0);
		return VPERF_SPE_OK;
	}
	if ((h0 & SPE_MASK_PREFIX) != SPE_HDR_PREFIX)
		return fail(err, off, VPERF_SPE_E_BAD_HDR);
	if (len - off < 2)
		return fail(err, off, VPERF_SPE_E_TRUNC_HDR);
	pkt->hdr1 = buf[off + 1];
	pkt->len = 2;
	if (pkt->hdr1 == 0 && (h0 & SPE_MASK_ALIGN) == SPE_HDR_ALIGN) {
		pkt->kind = VPERF_SPE_PKT_ALIGN; /* SPE 5.3.2 */
		pkt->index = h0 & 0x0fu;
		pkt->flags = VPERF_SPE_PKTF_EXT;
		return VPERF_SPE_OK;
	}
	if (!spe_hdr_sized(pkt->hdr1))
		return fail(err, off, VPERF_SPE_E_BAD_EXT_HDR);
	classify_ext(pkt, h0, pkt->hdr1);
	return VPERF_SPE_OK;
}

enum vperf_spe_reason vperf_spe_pkt_decode(const uint8_t *buf, size_t len, size_t off,
					   struct vperf_spe_pkt *pkt, struct vperf_spe_error *err)
{
	enum vperf_spe_reason r;

	if (!buf || !pkt || off >= len)
		return fail(err, off, VPERF_SPE_E_ARG);
	pkt_clear(pkt, off);
	r = decode_header(buf, len, off, pkt, err);
	if (r != VPERF_SPE_OK)
		return r;
	if (pkt->kind == VPERF_SPE_PKT_ALIGN) {
		size_t want = spe_align_len(off, pkt->index);

		pkt->len = (uint32_t)(want < len - off ? want : len - off);
	} else if (pkt->size) {
		if (len - off - pkt->len < pkt->size)
			return fail(err, off, VPERF_SPE_E_TRUNC_PAYLOAD);
		pkt->payload = spe_le_get(buf + off + pkt->len, pkt->size);
		pkt->len += pkt->size;
	}
	pkt->flags |= field_flags(pkt);
	return VPERF_SPE_OK;
}

size_t vperf_spe_resync(const uint8_t *buf, size_t len, size_t bad)
{
	if (!buf)
		return len;
	for (size_t p = bad + 1; p < len; p++) {
		if (buf[p] == SPE_HDR_END)
			return p + 1;
		if (buf[p] == SPE_HDR_TIMESTAMP && len - p > 8)
			return p + 9;
	}
	return len;
}
