// SPDX-License-Identifier: MIT
/* ESR_EL2 decode for EC=0x18, against syndromes worked out by hand from the ISS layout. */
#include "cmocka_wrap.h"

#include <vperf/esr.h>

struct golden {
	uint64_t esr;
	uint32_t op0, op1, crn, crm, op2;
	uint8_t rt;
	bool read;
};

/*
 * Each value: EC 0x18 << 26 | IL << 25 | Op0 << 20 | Op2 << 17 | Op1 << 14 | CRn << 10 |
 * Rt << 5 | CRm << 1 | Dir, summed by hand:
 *   mrs x3, PMCR_EL0 (3,3,9,12,0):       0x62000000+0x300000+0xc000+0x2400+0x60+0x18+1
 *   msr PMSCR_EL1, xzr (3,0,9,9,0):      0x62000000+0x300000+0x2400+0x3e0+0x12
 *   mrs x30, PMEVCNTR30_EL0 (3,3,14,11,6): 0x62000000+0x300000+0xc0000+0xc000+0x3800+0x3c0+0x16+1
 *   msr PMBLIMITR_EL1, x0 (3,0,9,10,0):  0x62000000+0x300000+0x2400+0x14
 */
static const struct golden golden[] = {
	{ 0x6230e479, 3, 3, 9, 12, 0, 3, true },
	{ 0x623027f2, 3, 0, 9, 9, 0, 31, false },
	{ 0x623cfbd7, 3, 3, 14, 11, 6, 30, true },
	{ 0x62302414, 3, 0, 9, 10, 0, 0, false },
};

static void test_golden_vectors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		const struct golden *g = &golden[i];
		struct vperf_esr_sysreg a;

		assert_true(vperf_esr_decode_sysreg(g->esr, &a));
		assert_int_equal(a.enc, VPERF_SYSREG_ENC(g->op0, g->op1, g->crn, g->crm, g->op2));
		assert_int_equal(a.rt, g->rt);
		assert_int_equal(a.read, g->read);
		assert_int_equal(vperf_esr_encode_sysreg(a.enc, a.rt, a.read), g->esr);
	}
}

static void test_database_names_match_golden(void **state)
{
	struct vperf_esr_sysreg a;

	(void)state;
	assert_true(vperf_esr_decode_sysreg(golden[0].esr, &a));
	assert_int_equal(a.enc, VPERF_ENC_PMCR_EL0);
	assert_true(vperf_esr_decode_sysreg(golden[2].esr, &a));
	assert_int_equal(a.enc, VPERF_ENC_PMEVCNTR30_EL0);
	assert_int_equal(vperf_pmev_index(a.enc), 30);
}

/* The fast path's counter index, read from the syndrome, is the database's CRm[1:0]:Op2 for every
 * PMEVCNTR<n>_EL0 and PMEVTYPER<n>_EL0, n = 0..30, whatever Rt and the direction. */
static void test_pmev_index_from_syndrome(void **state)
{
	(void)state;
	for (unsigned int n = 0; n < 31; n++) {
		uint32_t cnt = VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7);
		uint32_t typ = VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7);

		assert_int_equal(vperf_esr_pmev_index(vperf_esr_encode_sysreg(cnt, 31, true)), n);
		assert_int_equal(vperf_esr_pmev_index(vperf_esr_encode_sysreg(typ, 5, false)), n);
		assert_int_equal(vperf_pmev_index(cnt), n);
	}
}

static void test_other_classes_rejected(void **state)
{
	/* HVC64 (EC 0x16), data abort (0x24), unknown (0x00), and 0x18 with EC bits shifted. */
	static const uint64_t other[] = { 0x5a000000, 0x92000046, 0x02000000, 0x31180000 };
	struct vperf_esr_sysreg a;

	(void)state;
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		assert_false(vperf_esr_decode_sysreg(other[i], &a));
}

/* Every encoding, Rt and direction survives encode -> decode; bits outside the fields
 * (ISS[24:22], ESR[63:32]) do not change the decode. */
static void test_round_trip_exhaustive(void **state)
{
	(void)state;
	for (uint32_t enc = 0; enc < (1u << 16); enc += 7) {
		for (unsigned int rt = 0; rt < 32; rt += 5) {
			uint64_t esr = vperf_esr_encode_sysreg(enc, rt, enc & 1);
			struct vperf_esr_sysreg a;

			assert_true(
				vperf_esr_decode_sysreg(esr | 0x1c00000ull | (0xabull << 32), &a));
			assert_int_equal(a.enc, enc);
			assert_int_equal(a.rt, rt);
			assert_int_equal(a.read, enc & 1);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_vectors),
		cmocka_unit_test(test_database_names_match_golden),
		cmocka_unit_test(test_pmev_index_from_syndrome),
		cmocka_unit_test(test_other_classes_rejected),
		cmocka_unit_test(test_round_trip_exhaustive),
	};

	return cmocka_run_group_tests_name("esr", tests, NULL, NULL);
}
