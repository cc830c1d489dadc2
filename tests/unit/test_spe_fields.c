// SPDX-License-Identifier: MIT
/*
 * Typed views of SPE payloads: the Operation Type payload (Arm DDI 0487 K.a D18.2.7) over every
 * CLASS and byte, with golden values from its SUBCLASS tables, and the Address payload (D18.2.1)
 * over every INDEX and byte 7 value.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <vperf/spe_pkt.h>

static struct vperf_spe_op op_of(uint8_t cls, uint8_t b)
{
	struct vperf_spe_op op;

	vperf_spe_op_unpack(cls, b, &op);
	return op;
}

#define OPF(x) VPERF_SPE_OPF_##x

/* Golden payloads, each decoded by hand from the D18.2.7 tables. */
static void test_op_golden(void **state)
{
	static const struct {
		uint8_t cls, b, type, evl, ets, cr;
		uint16_t flags;
	} v[] = {
		/* CLASS 0b00 */
		{ 0, 0x00, VPERF_SPE_OP_OTHER, 0, 0, 0, 0 },
		{ 0, 0x01, VPERF_SPE_OP_OTHER, 0, 0, 0, OPF(COND) }, /* conditional select */
		{ 0, 0x06, VPERF_SPE_OP_OTHER, 0, 0, 0, OPF(ASE) | OPF(FP) }, /* 0b00000110 */
		/* 0b0 011 1 1 1 0: SVE, EVL 0b011 (256 bits), PRED, FP */
		{ 0, 0x3e, VPERF_SPE_OP_SVE, 3, 0, 0, OPF(PRED) | OPF(FP) },
		{ 0, 0x08, VPERF_SPE_OP_SVE, 0, 0, 0, 0 }, /* 0b00001000: EVL 32 */
		/* 0b1 100 1 0 1 0: SME, ETS = 100:0 = 0b1000 (32768 bits), FP */
		{ 0, 0xca, VPERF_SPE_OP_SME, 0, 8, 0, OPF(FP) },
		/* 0b1 111 1 1 0 0: SME, ETS = 111:1 = 0b1111 (whole ZA) */
		{ 0, 0xfc, VPERF_SPE_OP_SME, 0, 15, 0, 0 },
		{ 0, 0x09, VPERF_SPE_OP_RESERVED, 0, 0, 0, 0 }, /* 0b00001001: bit 0 set */
		{ 0, 0x10, VPERF_SPE_OP_RESERVED, 0, 0, 0, 0 }, /* 0b00010000 */
		/* CLASS 0b01 */
		{ 1, 0x00, VPERF_SPE_OP_LDST_GP, 0, 0, 0, 0 },		    /* LDR */
		{ 1, 0x01, VPERF_SPE_OP_LDST_GP, 0, 0, 0, OPF(ST) },	    /* STR */
		{ 1, 0x04, VPERF_SPE_OP_LDST_SIMD_FP, 0, 0, 0, 0 },	    /* 0b0000010x */
		{ 1, 0x11, VPERF_SPE_OP_LDST_UNSPEC, 0, 0, 0, OPF(ST) },    /* 0b0001000x */
		{ 1, 0x14, VPERF_SPE_OP_LDST_TAG, 0, 0, 0, 0 },		    /* 0b0001010x */
		{ 1, 0x31, VPERF_SPE_OP_LDST_NV_SYSREG, 0, 0, 0, OPF(ST) }, /* 0b0011000x */
		/* 0b000 1 1 1 1 1: AR, EXCL, AT, store */
		{ 1, 0x1f, VPERF_SPE_OP_LDST_EXT, 0, 0, 0,
		  OPF(AR) | OPF(EXCL) | OPF(AT) | OPF(ST) },
		{ 1, 0x06, VPERF_SPE_OP_LDST_EXT, 0, 0, 0, OPF(AT) }, /* atomic returning data */
		{ 1, 0x12, VPERF_SPE_OP_LDST_EXT, 0, 0, 0, OPF(AR) }, /* LDAR */
		{ 1, 0x0b, VPERF_SPE_OP_LDST_EXT, 0, 0, 0, OPF(EXCL) | OPF(ST) }, /* STXR */
		/* 0b1 011 1 1 0 0: SVE/SME, SG, EVL 0b011, PRED, load */
		{ 1, 0xbc, VPERF_SPE_OP_LDST_SVE, 3, 0, 0, OPF(SG) | OPF(PRED) },
		{ 1, 0x09, VPERF_SPE_OP_LDST_SVE, 0, 0, 0, OPF(ST) },	 /* 0b00001001 */
		{ 1, 0x20, VPERF_SPE_OP_LDST_MEMCPY, 0, 0, 0, 0 },	 /* source read */
		{ 1, 0x21, VPERF_SPE_OP_LDST_MEMCPY, 0, 0, 0, OPF(ST) }, /* destination write */
		{ 1, 0x25, VPERF_SPE_OP_LDST_MEMSET, 0, 0, 0, OPF(ST) }, /* 0b00100101 */
		{ 1, 0x24, VPERF_SPE_OP_RESERVED, 0, 0, 0, 0 },		 /* 0b00100100 */
		{ 1, 0x44, VPERF_SPE_OP_LDST_GCS, 0, 0, 0, OPF(COMM) },	 /* 0b01000100 */
		{ 1, 0x41, VPERF_SPE_OP_LDST_GCS, 0, 0, 0, OPF(ST) },	 /* BL's GCS push */
		{ 1, 0x80, VPERF_SPE_OP_RESERVED, 0, 0, 0, 0 },
		/* CLASS 0b10 */
		{ 2, 0x00, VPERF_SPE_OP_BRANCH, 0, 0, 0, 0 },			 /* B */
		{ 2, 0x03, VPERF_SPE_OP_BRANCH, 0, 0, 0, OPF(IND) | OPF(COND) }, /* 0b00011 */
		{ 2, 0x0a, VPERF_SPE_OP_BRANCH, 0, 0, 1, OPF(IND) },		 /* BLR: CR 0b01 */
		{ 2, 0x12, VPERF_SPE_OP_BRANCH, 0, 0, 2, OPF(IND) },		 /* RET: CR 0b10 */
		{ 2, 0x1c, VPERF_SPE_OP_BRANCH, 0, 0, 3, OPF(GCS) },		 /* CR 0b11, GCS */
		{ 2, 0x20, VPERF_SPE_OP_RESERVED, 0, 0, 0, 0 },
		/* CLASS 0b11: reserved */
		{ 3, 0x00, VPERF_SPE_OP_RESERVED, 0, 0, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct vperf_spe_op op = op_of(v[i].cls, v[i].b);

		assert_int_equal(op.type, v[i].type);
		assert_int_equal(op.evl, v[i].evl);
		assert_int_equal(op.ets, v[i].ets);
		assert_int_equal(op.cr, v[i].cr);
		assert_int_equal(op.flags, v[i].flags);
		assert_int_equal(vperf_spe_op_reserved(&op), v[i].type == VPERF_SPE_OP_RESERVED);
	}
	/* ETS 0b1100-0b1110 are reserved: 0b1 110 1 0 0 0 -> ETS 0b1100 */
	{
		struct vperf_spe_op op = op_of(0, 0xe8);

		assert_int_equal(op.type, VPERF_SPE_OP_SME);
		assert_int_equal(op.ets, 12);
		assert_true(vperf_spe_op_reserved(&op));
	}
}

/* Counts of payload bytes per type, from the SUBCLASS patterns (x = free bit). */
static void test_op_space(void **state)
{
	unsigned int n[4][VPERF_SPE_OP_NTYPES] = { { 0 } };

	(void)state;
	for (unsigned int cls = 0; cls < 4; cls++) {
		for (unsigned int b = 0; b < 256; b++) {
			struct vperf_spe_op op = op_of((uint8_t)cls, (uint8_t)b);

			n[cls][op.type]++;
			/* lossless: pack gives the byte back, whatever it was */
			assert_int_equal(vperf_spe_op_pack(&op), b);
			/* flags only ever hold the type's fields */
			assert_int_equal(op.flags & ~vperf_spe_op_flags_for(op.type), 0);
		}
	}
	assert_int_equal(n[0][VPERF_SPE_OP_OTHER], 8); /* 0b00000xxx */
	assert_int_equal(n[0][VPERF_SPE_OP_SVE], 32);  /* 0b0xxx1xx0 */
	assert_int_equal(n[0][VPERF_SPE_OP_SME], 32);  /* 0b1xxx1xx0 */
	assert_int_equal(n[0][VPERF_SPE_OP_RESERVED], 256 - 72);
	assert_int_equal(n[1][VPERF_SPE_OP_LDST_GP], 2);	/* 0b0000000x */
	assert_int_equal(n[1][VPERF_SPE_OP_LDST_SIMD_FP], 2);	/* 0b0000010x */
	assert_int_equal(n[1][VPERF_SPE_OP_LDST_UNSPEC], 2);	/* 0b0001000x */
	assert_int_equal(n[1][VPERF_SPE_OP_LDST_TAG], 2);	/* 0b0001010x */
	assert_int_equal(n[1][VPERF_SPE_OP_LDST_NV_SYSREG], 2); /* 0b0011000x */
	assert_int_equal(n[1][VPERF_SPE_OP_LDST_EXT], 16);	/* 0b000xxx1x */
	assert_int_equal(n[1][VPERF_SPE_OP_LDST_SVE], 64);	/* 0bxxxx1x0x */
	assert_int_equal(n[1][VPERF_SPE_OP_LDST_MEMCPY], 2);	/* 0b0010000x */
	assert_int_equal(n[1][VPERF_SPE_OP_LDST_MEMSET], 1);	/* 0b00100101 */
	assert_int_equal(n[1][VPERF_SPE_OP_LDST_GCS], 4);	/* 0b01000x0x */
	assert_int_equal(n[1][VPERF_SPE_OP_RESERVED], 256 - 97);
	assert_int_equal(n[2][VPERF_SPE_OP_BRANCH], 32); /* 0b000xxxxx */
	assert_int_equal(n[2][VPERF_SPE_OP_RESERVED], 224);
	assert_int_equal(n[3][VPERF_SPE_OP_RESERVED], 256);
}

/* Every combination of every field of every type survives pack then unpack. */
static void test_op_fields_roundtrip(void **state)
{
	static const uint8_t cls_of[VPERF_SPE_OP_NTYPES] = {
		[VPERF_SPE_OP_OTHER] = 0,
		[VPERF_SPE_OP_SVE] = 0,
		[VPERF_SPE_OP_SME] = 0,
		[VPERF_SPE_OP_BRANCH] = 2,
	};
	unsigned int checked = 0;

	(void)state;
	for (uint8_t t = VPERF_SPE_OP_OTHER; t < VPERF_SPE_OP_NTYPES; t++) {
		uint16_t all = vperf_spe_op_flags_for(t);
		uint8_t cls = t >= VPERF_SPE_OP_LDST_GP && t < VPERF_SPE_OP_BRANCH ? 1 : cls_of[t];
		unsigned int nevl = (t == VPERF_SPE_OP_SVE || t == VPERF_SPE_OP_LDST_SVE) ? 8 : 1;
		unsigned int nets = t == VPERF_SPE_OP_SME ? 16 : 1;
		unsigned int ncr = t == VPERF_SPE_OP_BRANCH ? 4 : 1;

		/* every subset of the type's flags */
		for (uint16_t f = all;; f = (uint16_t)((f - 1) & all)) {
			for (unsigned int evl = 0; evl < nevl; evl++)
				for (unsigned int ets = 0; ets < nets; ets++)
					for (unsigned int cr = 0; cr < ncr; cr++) {
						struct vperf_spe_op op = {
							.cls = cls,
							.type = t,
							.flags = f,
							.evl = (uint8_t)evl,
							.ets = (uint8_t)ets,
							.cr = (uint8_t)cr,
						};
						struct vperf_spe_op back;

						if (t == VPERF_SPE_OP_LDST_MEMSET && !f)
							continue; /* always a store */
						back = op_of(cls, vperf_spe_op_pack(&op));
						assert_int_equal(back.type, t);
						assert_int_equal(back.flags, f);
						assert_int_equal(back.evl, evl);
						assert_int_equal(back.ets, ets);
						assert_int_equal(back.cr, cr);
						checked++;
					}
			if (!f)
				break;
		}
	}
	/* OTHER 8, SVE 4*8, SME 2*16, GP..NV 5*2, EXT 16, LDST_SVE 8*8, MEMCPY 2, MEMSET 1,
	 * GCS 4, BRANCH 8*4 */
	assert_int_equal(checked, 8 + 32 + 32 + 10 + 16 + 64 + 2 + 1 + 4 + 32);
}

/* Address payloads: lossless over every INDEX and byte 7; fields where D18.2.1 puts them. */
static void test_addr_space(void **state)
{
	(void)state;
	for (uint8_t idx = 0; idx < 32; idx++) {
		for (unsigned int b7 = 0; b7 < 256; b7++) {
			uint64_t p = ((uint64_t)b7 << 56) | 0x00a5a5a5a5a5a5a5ull;
			struct vperf_spe_addr a;

			vperf_spe_addr_unpack(idx, p, &a);
			assert_true(vperf_spe_addr_pack(&a) == p);
			assert_true(a.addr == 0x00a5a5a5a5a5a5a5ull);
			if (idx == VPERF_SPE_ADDR_PC || idx == VPERF_SPE_ADDR_BR_TGT ||
			    idx == VPERF_SPE_ADDR_PREV_BR) {
				assert_int_equal(a.ns, b7 >> 7);
				assert_int_equal(a.el, (b7 >> 5) & 3);
				assert_int_equal(a.nse, (b7 >> 4) & 1);
				assert_int_equal(a.rsvd, b7 & 0x0f);
			} else if (idx == VPERF_SPE_ADDR_DATA_VA) {
				assert_int_equal(a.tag, b7);
			} else if (idx == VPERF_SPE_ADDR_DATA_PA) {
				assert_int_equal(a.ns, b7 >> 7);
				assert_int_equal(a.ch, (b7 >> 6) & 1);
				assert_int_equal(a.rsvd, b7 & 0x20);
				assert_int_equal(a.nse, (b7 >> 4) & 1);
				assert_int_equal(a.pat, b7 & 0x0f);
			} else {
				assert_int_equal(a.rsvd, b7);
				assert_true(vperf_spe_addr_value(&a) == p);
			}
		}
	}
}

static void test_addr_index_classes(void **state)
{
	unsigned int impdef = 0, defined = 0;

	(void)state;
	for (uint32_t i = 0; i < 32; i++) {
		impdef += vperf_spe_addr_index_impdef(i);
		defined += vperf_spe_addr_index_defined(i);
		assert_false(vperf_spe_addr_index_impdef(i) && vperf_spe_addr_index_defined(i));
	}
	assert_int_equal(impdef, 2 + 16); /* 0b0011x, 0b1xxxx */
	assert_int_equal(defined, 5);
	assert_string_equal(vperf_spe_addr_index_name(4), "prev-br");
	assert_string_equal(vperf_spe_addr_index_name(5), "reserved");
	assert_string_equal(vperf_spe_addr_index_name(7), "impdef");
	assert_string_equal(vperf_spe_cnt_index_name(4), "alt-issue");
	assert_string_equal(vperf_spe_cnt_index_name(3), "reserved");
	assert_string_equal(vperf_spe_cnt_index_name(20), "impdef");
	assert_true(vperf_spe_cnt_index_defined(4));
	assert_false(vperf_spe_cnt_index_defined(3));
	for (uint32_t k = 0; k < VPERF_SPE_PKT_NKINDS; k++)
		assert_string_not_equal(vperf_spe_kind_name(k), "?");
	for (uint32_t t = 0; t < VPERF_SPE_OP_NTYPES; t++)
		assert_string_not_equal(vperf_spe_op_type_name(t), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_op_golden),	    cmocka_unit_test(test_op_space),
		cmocka_unit_test(test_op_fields_roundtrip), cmocka_unit_test(test_addr_space),
		cmocka_unit_test(test_addr_index_classes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
