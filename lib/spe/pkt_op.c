// SPDX-License-Identifier: MIT
/*
 * Operation Type packet payloads (Arm DDI 0487 K.a, D18.2.7; SPE 5.3.8 for the original subset).
 * Each payload type is one row: the CLASS, the SUBCLASS bits that identify it (mask, match) and the
 * one-bit fields it defines. EVL, ETS and CR, the multi-bit fields, are handled by type.
 */
#include "spe_internal.h"

#define MAX_BITS 4

struct op_bit {
	uint16_t flag; /* VPERF_SPE_OPF_* */
	uint8_t bit;   /* payload bit */
};

struct op_row {
	uint8_t type, cls, mask, match;
	struct op_bit bits[MAX_BITS];
};

/* clang-format off */
#define B(f, n) { VPERF_SPE_OPF_##f, n }
/* clang-format on */

static const struct op_row rows[] = {
	/* CLASS 0b00: Other 0b00000xxx (ASE, FP, COND; ASE/FP need FEAT_SPE_FPF) */
	{ VPERF_SPE_OP_OTHER, 0, 0xf8, 0x00, { B(ASE, 2), B(FP, 1), B(COND, 0) } },
	/* SVE vector 0b0xxx1xx0: EVL [6:4], PRED [2], FP [1] (FEAT_SPEv1p1 + FEAT_SVE) */
	{ VPERF_SPE_OP_SVE, 0, 0x89, 0x08, { B(PRED, 2), B(FP, 1) } },
	/* SME array 0b1xxx1xx0: ETS [6:4,2], FP [1] (FEAT_SPE_SME) */
	{ VPERF_SPE_OP_SME, 0, 0x89, 0x88, { B(FP, 1) } },
	/* CLASS 0b01, load/store general: GP 0b0000000x, SIMD&FP 0b0000010x, unspecified
	 * 0b0001000x (FEAT_SPEv1p1), Allocation Tag 0b0001010x, NV2 sysreg 0b0011000x */
	{ VPERF_SPE_OP_LDST_GP, 1, 0xfe, 0x00, { B(ST, 0) } },
	{ VPERF_SPE_OP_LDST_SIMD_FP, 1, 0xfe, 0x04, { B(ST, 0) } },
	{ VPERF_SPE_OP_LDST_UNSPEC, 1, 0xfe, 0x10, { B(ST, 0) } },
	{ VPERF_SPE_OP_LDST_TAG, 1, 0xfe, 0x14, { B(ST, 0) } },
	{ VPERF_SPE_OP_LDST_NV_SYSREG, 1, 0xfe, 0x30, { B(ST, 0) } },
	/* extended 0b000xxx1x: AR [4], EXCL [3], AT [2], LDST [0] */
	{ VPERF_SPE_OP_LDST_EXT, 1, 0xe2, 0x02, { B(AR, 4), B(EXCL, 3), B(AT, 2), B(ST, 0) } },
	/* SVE or SME 0bxxxx1x0x: SG [7], EVL [6:4], PRED [2], LDST [0] */
	{ VPERF_SPE_OP_LDST_SVE, 1, 0x0a, 0x08, { B(SG, 7), B(PRED, 2), B(ST, 0) } },
	/* Memory Copy 0b0010000x, Memory Set 0b00100101 (FEAT_SPEv1p3 + FEAT_MOPS) */
	{ VPERF_SPE_OP_LDST_MEMCPY, 1, 0xfe, 0x20, { B(ST, 0) } },
	{ VPERF_SPE_OP_LDST_MEMSET, 1, 0xff, 0x25, { B(ST, 0) } },
	/* GCS 0b01000x0x: COMM [2], LDST [0] (FEAT_GCS + FEAT_SPEv1p4) */
	{ VPERF_SPE_OP_LDST_GCS, 1, 0xfa, 0x40, { B(COMM, 2), B(ST, 0) } },
	/* CLASS 0b10: branch 0b000xxxxx: CR [4:3], GCS [2], IND [1], COND [0] */
	{ VPERF_SPE_OP_BRANCH, 2, 0xe0, 0x00, { B(GCS, 2), B(IND, 1), B(COND, 0) } },
};

static const struct op_row *row_of_type(uint8_t type)
{
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(rows); i++)
		if (rows[i].type == type)
			return &rows[i];
	return NULL;
}

static const struct op_row *row_of_payload(uint8_t cls, uint8_t b)
{
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(rows); i++)
		if (rows[i].cls == cls && (b & rows[i].mask) == rows[i].match)
			return &rows[i];
	return NULL;
}

static bool has_evl(uint8_t type)
{
	return type == VPERF_SPE_OP_SVE || type == VPERF_SPE_OP_LDST_SVE;
}

void vperf_spe_op_unpack(uint8_t cls, uint8_t payload, struct vperf_spe_op *op)
{
	const struct op_row *row = row_of_payload(cls, payload);

	op->cls = cls;
	op->raw = payload;
	op->type = row ? row->type : VPERF_SPE_OP_RESERVED;
	op->evl = has_evl(op->type) ? (uint8_t)((payload >> 4) & 7u) : 0;
	op->ets = 0;
	op->cr = op->type == VPERF_SPE_OP_BRANCH ? (uint8_t)((payload >> 3) & 3u) : 0;
	op->flags = 0;
	if (op->type == VPERF_SPE_OP_SME) /* ETS[3:1] = bits [6:4], ETS[0] = bit [2] */
		op->ets = (uint8_t)(((payload >> 3) & 0x0eu) | ((payload >> 2) & 1u));
	for (unsigned int i = 0; row && i < MAX_BITS && row->bits[i].flag; i++)
		if (payload & (1u << row->bits[i].bit))
			op->flags |= row->bits[i].flag;
}

uint8_t vperf_spe_op_pack(const struct vperf_spe_op *op)
{
	const struct op_row *row = row_of_type(op->type);
	unsigned int b;

	if (!row || row->cls != op->cls)
		return op->raw;
	b = row->match;
	if (has_evl(op->type))
		b |= (op->evl & 7u) << 4;
	if (op->type == VPERF_SPE_OP_SME)
		b |= ((op->ets & 0x0eu) << 3) | ((op->ets & 1u) << 2);
	if (op->type == VPERF_SPE_OP_BRANCH)
		b |= (op->cr & 3u) << 3;
	for (unsigned int i = 0; i < MAX_BITS && row->bits[i].flag; i++)
		if (op->flags & row->bits[i].flag)
			b |= 1u << row->bits[i].bit;
	return (uint8_t)b;
}

uint16_t vperf_spe_op_flags_for(uint8_t type)
{
	const struct op_row *row = row_of_type(type);
	uint16_t f = 0;

	for (unsigned int i = 0; row && i < MAX_BITS && row->bits[i].flag; i++)
		f |= row->bits[i].flag;
	return f;
}

/* D18.2.7: CLASS 0b11 and unlisted SUBCLASS values are reserved; so are ETS 0b1100-0b1110. */
bool vperf_spe_op_reserved(const struct vperf_spe_op *op)
{
	if (op->type == VPERF_SPE_OP_RESERVED)
		return true;
	return op->type == VPERF_SPE_OP_SME && op->ets >= 0x0c && op->ets <= 0x0e;
}
