// SPDX-License-Identifier: MIT
/*
 * The model's own packet writer (Arm DDI 0487 K.a D18.2; SPE 5; the part of Arm's pseudocode
 * SPEConstructRecord that lays packets out), written from the packet
 * descriptions and not from vperf's codec (virt/spe), so that a misreading of the format does
 * not hide in both at once: test_sim_spe_enc compares the two byte for byte.
 *
 * Headers (byte 0; D18.2 header figures, SPE 5.2):
 *   Address   0b10 SZ=11 0 INDEX[2:0]      doubleword payload (D18.2.1)
 *   Counter   0b10 SZ=01 1 INDEX[2:0]      halfword payload (D18.2.3)
 *   Context   0b01 SZ=10 01 INDEX[1:0]     word payload (D18.2.2)
 *   Op Type   0b01 SZ=00 10 CLASS[1:0]     byte payload (D18.2.7)
 *   Events    0b01 SZ 0010                 1, 2, 4 or 8 bytes (D18.2.6)
 *   Data Src  0b01 SZ 0011                 1 or 2 bytes (D18.2.4)
 *   Timestamp 0b01 SZ=11 0001              doubleword (D18.2.9)
 *   End       0b00000001                   (D18.2.5)
 * Payloads are little-endian (SPE 5.1.3). Address payload byte 7 (D18.2.1): instruction addresses
 * NS [7], EL [6:5]; data VA the TAG; data PA NS [7]. Operation Type payloads (D18.2.7): other
 * 0b00000 ASE FP COND; load/store general-purpose 0b0000000 ST, SIMD&FP 0b0000010 ST, extended
 * 0b000 AR EXCL AT 1 ST; branch 0b000 CR=00 GCS=0 IND COND.
 */
#include "spe_internal.h"

#define HDR_ADDRESS   0xb0u
#define HDR_COUNTER   0x98u
#define HDR_CONTEXT   0x64u
#define HDR_OP_TYPE   0x48u
#define HDR_EVENTS    0x42u
#define HDR_DSRC      0x43u
#define HDR_TIMESTAMP 0x71u
#define HDR_END	      0x01u
#define ADDR_BITS     VPERF_GENMASK(55, 0)

struct out {
	uint8_t *buf;
	size_t cap, len;
	bool overflow;
};

static void put(struct out *o, uint8_t hdr, uint64_t payload, unsigned int bytes)
{
	if (o->len + 1 + bytes > o->cap) {
		o->overflow = true;
		return;
	}
	o->buf[o->len++] = hdr;
	for (unsigned int i = 0; i < bytes; i++)
		o->buf[o->len++] = (uint8_t)(payload >> (8 * i));
}

/* SZ: log2 of the payload size, in header bits [5:4]. */
static uint8_t sz(unsigned int bytes)
{
	return (uint8_t)((bytes == 8 ? 3 : bytes == 4 ? 2 : bytes == 2 ? 1 : 0) << 4);
}

static uint64_t insn_addr(const struct spe_maddr *a)
{
	return (a->addr & ADDR_BITS) | (uint64_t)(a->ns & 1) << 63 | (uint64_t)(a->el & 3) << 61;
}

static uint8_t op_payload(const struct spe_mrec *r)
{
	unsigned int f = r->opf, st = f & SPE_MOPF_ST ? 1 : 0;

	switch (r->op) {
	case SPE_MOP_LDST_GP:
		return (uint8_t)st;
	case SPE_MOP_LDST_SIMD_FP:
		return (uint8_t)(0x04 | st);
	case SPE_MOP_LDST_EXT:
		return (uint8_t)((f & SPE_MOPF_AR ? 0x10 : 0) | (f & SPE_MOPF_EXCL ? 0x08 : 0) |
				 (f & SPE_MOPF_AT ? 0x04 : 0) | 0x02 | st);
	case SPE_MOP_BRANCH:
		return (uint8_t)((f & SPE_MOPF_IND ? 0x02 : 0) | (f & SPE_MOPF_COND ? 0x01 : 0));
	case SPE_MOP_OTHER:
	default:
		return (uint8_t)((f & SPE_MOPF_ASE ? 0x04 : 0) | (f & SPE_MOPF_FP ? 0x02 : 0) |
				 (f & SPE_MOPF_COND ? 0x01 : 0));
	}
}

static uint8_t op_class(uint8_t op)
{
	return op == SPE_MOP_OTHER ? 0 : op == SPE_MOP_BRANCH ? 2 : 1;
}

size_t spe_mrec_encode(const struct spe_mrec *r, uint8_t *buf, size_t cap)
{
	struct out o = { .buf = buf, .cap = cap };

	for (unsigned int i = 0; i < 2; i++)
		if (r->have & (i ? SPE_MR_CTX2 : SPE_MR_CTX1))
			put(&o, (uint8_t)(HDR_CONTEXT | i), r->ctx[i], 4);
	put(&o, HDR_ADDRESS | 0, insn_addr(&r->pc), 8);
	put(&o, (uint8_t)(HDR_OP_TYPE | op_class(r->op)), op_payload(r), 1);
	put(&o, (uint8_t)(HDR_EVENTS | sz(r->events_size)), r->events, r->events_size);
	for (unsigned int i = 0; i < 3; i++)
		if (i < 2 || (r->have & SPE_MR_XLAT))
			put(&o, (uint8_t)(HDR_COUNTER | i), r->cnt[i], 2);
	if (r->have & SPE_MR_TGT)
		put(&o, HDR_ADDRESS | 1, insn_addr(&r->tgt), 8);
	if (r->have & SPE_MR_DATA_VA)
		put(&o, HDR_ADDRESS | 2,
		    (r->data_va.addr & ADDR_BITS) | (uint64_t)r->data_va.tag << 56, 8);
	if (r->have & SPE_MR_DATA_PA)
		put(&o, HDR_ADDRESS | 3,
		    (r->data_pa.addr & ADDR_BITS) | (uint64_t)(r->data_pa.ns & 1) << 63, 8);
	if (r->have & SPE_MR_DSRC)
		put(&o, (uint8_t)(HDR_DSRC | sz(r->dsrc_size)), r->dsrc, r->dsrc_size);
	if (r->have & SPE_MR_TS)
		put(&o, HDR_TIMESTAMP, r->ts, 8);
	else
		put(&o, HDR_END, 0, 0);
	return o.overflow ? 0 : o.len;
}
