// SPDX-License-Identifier: MIT
/*
 * SPECollectRecord truth tables: by type (SPE supplement Table 4, Arm DDI 0487 K.a D17.5.1 with and
 * without FEAT_SPE_EFT), by events (FE with PMSEVFR_EL1, FnE with PMSNEVFR_EL1, D17.5.2), by
 * latency (FL, D17.5.3), by data source (FDS, D17.5.4), the CONSTRAINED UNPREDICTABLE cases, and
 * the worked example D17-1 both on the filter and end to end through the buffer.
 */
#include <string.h>

#include "cmocka_wrap.h"
#include "sim_spe_util.h"
#include "spe_internal.h"

/* PMSFCR_EL1 and PMSIDR_EL1 bits, by hand (SPE 4.3.9, 4.3.11, spe_internal.h's sources). */
#define FE	0x1ull
#define FT	0x2ull
#define FL	0x4ull
#define FNE	0x8ull
#define FDS	0x10ull
#define B	(1ull << 16)
#define LD	(1ull << 17)
#define ST	(1ull << 18)
#define FP	(1ull << 19)
#define SIMD	(1ull << 20)
#define M(x)	((x) << 32) /* Bm..SIMDm sit 32 bits above B..SIMD */
#define IDR_FNE (1ull << 6)
#define IDR_FDS (1ull << 7)
#define IDR_EFT (1ull << 26)

/* Events packet bits (D18.2.6). */
#define E_RETIRED (1ull << 1)
#define E_L1D_REF (1ull << 3)
#define E_TLBWALK (1ull << 5)
#define E_MISPRED (1ull << 7)

enum optype { LOAD, STORE, BRANCH, OTHER };

static const uint8_t type_flags[] = {
	[LOAD] = SPE_OPF_LD, [STORE] = SPE_OPF_ST, [BRANCH] = SPE_OPF_B, [OTHER] = 0
};

static bool collect(uint64_t pmsfcr, uint64_t idr, uint8_t flags, uint64_t events, uint32_t latency)
{
	struct spe_filter_in in = {
		.pmsfcr = pmsfcr,
		.pmsidr = idr,
		.events = events,
		.latency = latency,
		.flags = flags,
	};

	return spe_collect_record(0, &in);
}

static int setup(void **state)
{
	(void)state;
	t_init(1, 1);
	return 0;
}

/* Table 4, row by row: FT LD ST B -> Load Store Branch Other (1 = collected). The all-zero
 * row is CONSTRAINED UNPREDICTABLE (SPE 4.3.9) and tested below. */
static void test_type_table4(void **state)
{
	static const struct {
		uint64_t fcr;
		bool c[4];
	} rows[] = {
		{ 0, { 1, 1, 1, 1 } },
		{ LD | ST | B, { 1, 1, 1, 1 } },
		{ FT | B, { 0, 0, 1, 0 } },
		{ FT | ST, { 0, 1, 0, 0 } },
		{ FT | ST | B, { 0, 1, 1, 0 } },
		{ FT | LD, { 1, 0, 0, 0 } },
		{ FT | LD | B, { 1, 0, 1, 0 } },
		{ FT | LD | ST, { 1, 1, 0, 0 } },
		{ FT | LD | ST | B, { 1, 1, 1, 0 } },
	};

	(void)state;
	for (size_t r = 0; r < VPERF_ARRAY_SIZE(rows); r++)
		for (int t = LOAD; t <= OTHER; t++)
			if (collect(rows[r].fcr, 0, type_flags[t], E_RETIRED, 10) != rows[r].c[t])
				fail_msg("row %zu type %d", r, t);
	/* An atomic that returns a value is a load and a store (D17.5.1): the store filter
	 * alone keeps it. */
	assert_true(collect(FT | ST, 0, SPE_OPF_LD | SPE_OPF_ST, E_RETIRED, 10));
	assert_false(collect(FT | B, 0, SPE_OPF_LD | SPE_OPF_ST, E_RETIRED, 10));
}

/* The all-zero selections are CONSTRAINED UNPREDICTABLE (SPE 4.3.9 FT/FE/FL): discarded or
 * collected as if the filter were off. The model lets the seed choose, so both outcomes show. */
static void test_constrained_unpredictable(void **state)
{
	static const uint64_t fcrs[] = { FT, FE, FL };

	(void)state;
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(fcrs); i++) {
		unsigned int kept = 0;

		for (int n = 0; n < 64; n++)
			kept += collect(fcrs[i], 0, SPE_OPF_LD, E_RETIRED | E_L1D_REF, 10);
		if (kept == 0 || kept == 64)
			fail_msg("PMSFCR %#llx: always %s", (unsigned long long)fcrs[i],
				 kept ? "kept" : "discarded");
	}
}

/* FE: every selected event must be 1 (D17.5.2, SPE 4.3.8). Only the filterable events count:
 * E[2] (L1D access) is not one, so a PMSEVFR_EL1 bit there selects nothing. */
static void test_event_filter(void **state)
{
	struct spe_filter_in in = { .pmsfcr = FE,
				    .events = E_RETIRED | E_L1D_REF,
				    .flags = SPE_OPF_LD };

	(void)state;
	in.pmsevfr = E_L1D_REF;
	assert_true(spe_collect_record(0, &in));
	in.pmsevfr = E_L1D_REF | E_TLBWALK;
	assert_false(spe_collect_record(0, &in));
	in.pmsevfr = E_MISPRED;
	assert_false(spe_collect_record(0, &in));
	in.pmsevfr = E_RETIRED | E_L1D_REF;
	assert_true(spe_collect_record(0, &in));
	in.pmsevfr = 1ull << 2;
	assert_true(spe_collect_record(0, &in));
	in.pmsevfr = 1ull << 12; /* IMPLEMENTATION DEFINED event 12, not set */
	assert_false(spe_collect_record(0, &in));
	in.events |= 1ull << 12;
	assert_true(spe_collect_record(0, &in));
	in.pmsfcr = 0; /* FE off: PMSEVFR_EL1 ignored */
	in.pmsevfr = E_MISPRED;
	assert_true(spe_collect_record(0, &in));
}

/* FnE (FEAT_SPE_FnE): every selected event must be 0; ignored without PMSIDR_EL1.FnE. FE and
 * FnE on the same event discard everything. */
static void test_inverse_event_filter(void **state)
{
	struct spe_filter_in in = { .pmsfcr = FNE,
				    .pmsidr = IDR_FNE,
				    .pmsnevfr = E_L1D_REF,
				    .events = E_RETIRED | E_L1D_REF,
				    .flags = SPE_OPF_LD };

	(void)state;
	assert_false(spe_collect_record(0, &in));
	in.events = E_RETIRED;
	assert_true(spe_collect_record(0, &in));
	in.pmsidr = 0;
	in.events = E_RETIRED | E_L1D_REF;
	assert_true(spe_collect_record(0, &in));
	in.pmsidr = IDR_FNE;
	in.pmsfcr = FE | FNE;
	in.pmsevfr = E_TLBWALK;
	in.pmsnevfr = E_TLBWALK;
	in.events = E_RETIRED | E_TLBWALK;
	assert_false(spe_collect_record(0, &in));
	in.events = E_RETIRED;
	assert_false(spe_collect_record(0, &in));
}

/* FL: total latency >= MINLAT (D17.5.3). */
static void test_latency_filter(void **state)
{
	struct spe_filter_in in = { .pmsfcr = FL, .pmslatfr = 100, .flags = SPE_OPF_LD };

	(void)state;
	in.latency = 99;
	assert_false(spe_collect_record(0, &in));
	in.latency = 100;
	assert_true(spe_collect_record(0, &in));
	in.latency = 4000;
	assert_true(spe_collect_record(0, &in));
}

/* FDS (FEAT_SPE_FDS): a load with a Data Source packet DS is kept when PMSDSFR_EL1[DS[5:0]]
 * is 1; other operations are not affected; nothing happens without PMSIDR_EL1.FDS. */
static void test_data_source_filter(void **state)
{
	struct spe_filter_in in = { .pmsfcr = FDS,
				    .pmsidr = IDR_FDS,
				    .flags = SPE_OPF_LD,
				    .has_ds = true,
				    .ds = 0x45 /* DS[5:0] = 5 */ };

	(void)state;
	in.pmsdsfr = 1ull << 5;
	assert_true(spe_collect_record(0, &in));
	in.pmsdsfr = ~(1ull << 5);
	assert_false(spe_collect_record(0, &in));
	in.has_ds = false;
	in.flags = SPE_OPF_ST;
	assert_true(spe_collect_record(0, &in));
	in.has_ds = true;
	in.flags = SPE_OPF_LD;
	in.pmsidr = 0;
	assert_true(spe_collect_record(0, &in));
}

/* FEAT_SPE_EFT (D17.5.1): an OR filter over the controls whose mask bit is 0, an exact match
 * over those whose mask bit is 1. */
static void test_extended_type_filter(void **state)
{
	const uint8_t gp_load = SPE_OPF_LD, gp_store = SPE_OPF_ST;
	const uint8_t simd_store = SPE_OPF_ST | SPE_OPF_SIMD, simd_load = SPE_OPF_LD | SPE_OPF_SIMD;
	const uint8_t fp_load = SPE_OPF_LD | SPE_OPF_FP, simd_alu = SPE_OPF_SIMD;

	(void)state;
	/* Masks 0: the plain OR filter. */
	assert_true(collect(FT | LD, IDR_EFT, gp_load, E_RETIRED, 1));
	assert_false(collect(FT | LD, IDR_EFT, gp_store, E_RETIRED, 1));
	/* "Store AND SIMD": ST in the OR part, SIMD = 1 exactly. */
	assert_true(collect(FT | ST | SIMD | M(SIMD), IDR_EFT, simd_store, E_RETIRED, 1));
	assert_false(collect(FT | ST | SIMD | M(SIMD), IDR_EFT, gp_store, E_RETIRED, 1));
	assert_false(collect(FT | ST | SIMD | M(SIMD), IDR_EFT, simd_load, E_RETIRED, 1));
	/* SIMD = 0 exactly, nothing in the OR part: everything but SIMD operations. */
	assert_true(collect(FT | M(SIMD), IDR_EFT, gp_load, E_RETIRED, 1));
	assert_true(collect(FT | M(SIMD), IDR_EFT, 0, E_RETIRED, 1));
	assert_false(collect(FT | M(SIMD), IDR_EFT, simd_alu, E_RETIRED, 1));
	/* Every mask bit 1, ctrl = B: exactly a plain branch. */
	assert_true(collect(FT | B | M(B | LD | ST | FP | SIMD), IDR_EFT, SPE_OPF_B, E_RETIRED, 1));
	assert_false(collect(FT | B | M(B | LD | ST | FP | SIMD), IDR_EFT, gp_load, E_RETIRED, 1));
	/* FP: a scalar FP load is LD and FP (D17.5.1 example). */
	assert_true(collect(FT | FP, IDR_EFT, fp_load, E_RETIRED, 1));
	assert_true(collect(FT | LD | FP | M(LD | FP), IDR_EFT, fp_load, E_RETIRED, 1));
	assert_false(collect(FT | LD | FP | M(LD | FP), IDR_EFT, gp_load, E_RETIRED, 1));
	/* With EFT, FT with no control and no mask selects everything (nothing to discard). */
	for (int n = 0; n < 16; n++)
		assert_true(collect(FT, IDR_EFT, 0, E_RETIRED, 1));
	/* Without EFT the FP/SIMD/mask bits do not take part. */
	assert_true(collect(FT | LD | M(SIMD), 0, simd_load, E_RETIRED, 1));
}

/* Example D17-1: FE = 1, FnE = 0, FT = 1, FL = 1 keep only operations of a selected type, with
 * all the selected events, and at least MINLAT total latency. */
static void test_worked_example(void **state)
{
	struct spe_filter_in in = { .pmsfcr = FE | FT | FL | LD,
				    .pmsevfr = E_L1D_REF,
				    .pmslatfr = 100 };
	static const struct {
		uint8_t flags;
		uint64_t events;
		uint32_t latency;
		bool kept;
	} rows[] = {
		{ SPE_OPF_LD, E_RETIRED | E_L1D_REF, 100, true },
		{ SPE_OPF_LD, E_RETIRED | E_L1D_REF, 99, false },
		{ SPE_OPF_LD, E_RETIRED, 200, false },
		{ SPE_OPF_ST, E_RETIRED | E_L1D_REF, 200, false },
		{ SPE_OPF_LD, E_RETIRED | E_L1D_REF | E_TLBWALK, 500, true },
	};

	(void)state;
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(rows); i++) {
		in.flags = rows[i].flags;
		in.events = rows[i].events;
		in.latency = rows[i].latency;
		if (spe_collect_record(0, &in) != rows[i].kept)
			fail_msg("row %zu", i);
	}
}

/* The same example end to end: the guest programs PMSFCR/PMSEVFR/PMSLATFR, four sampled ops
 * (rows 0-3 above as micro-ops), and only the first reaches the buffer; SAMPLE_FEED counts all
 * four, SAMPLE_FILTRATE one (SPE 2.6). */
static void test_worked_example_end_to_end(void **state)
{
	struct sim_uop ops[4];
	uint8_t got[T_LOAD_REC_LEN + 1];

	(void)state;
	ops[0] = t_load(0x400000, 0x12345678, 100);
	ops[0].flags = SIM_UOP_L1D_REFILL;
	ops[1] = ops[0];
	ops[1].latency = 99;
	ops[2] = t_load(0x400000, 0x12345678, 200);
	ops[3] = ops[0];
	ops[3].type = SIM_UOP_STORE;
	guest_write(PMBPTR_EL1, T_BUF_VA);
	guest_write(PMBLIMITR_EL1, (T_BUF_VA + T_BUF_SIZE) | T_PMBLIMITR_E);
	guest_write(PMSFCR_EL1, FE | FT | FL | LD);
	guest_write(PMSEVFR_EL1, E_L1D_REF);
	guest_write(PMSLATFR_EL1, 100);
	guest_write(PMSIRR_EL1, T_INTERVAL_1);
	isb();
	guest_write(PMSCR_EL1, T_PMSCR_E1SPE);
	isb();
	for (int i = 0; i < 4; i++)
		t_run_sampling(&t_filler, 256, &ops[i]);
	sim_guest_spe_disable_and_drain();
	assert_int_equal(sim_spe_stats(0)->feed, 4);
	assert_int_equal(sim_spe_stats(0)->filtrate, 1);
	assert_int_equal(guest_read(PMBPTR_EL1), T_BUF_VA + T_LOAD_REC_LEN);
	t_buf_read(0, got, sizeof(got));
	assert_int_equal(got[12], 0x1e); /* events: retired, L1D access + refill, TLB access */
	assert_int_equal(got[15], 100);	 /* total latency */
	assert_int_equal(got[T_LOAD_REC_LEN], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_type_table4, setup),
		cmocka_unit_test_setup(test_constrained_unpredictable, setup),
		cmocka_unit_test_setup(test_event_filter, setup),
		cmocka_unit_test_setup(test_inverse_event_filter, setup),
		cmocka_unit_test_setup(test_latency_filter, setup),
		cmocka_unit_test_setup(test_data_source_filter, setup),
		cmocka_unit_test_setup(test_extended_type_filter, setup),
		cmocka_unit_test_setup(test_worked_example, setup),
		cmocka_unit_test_setup(test_worked_example_end_to_end, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
