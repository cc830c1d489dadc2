// SPDX-License-Identifier: MIT
/*
 * The micro-op workload generators: determinism per seed, the counts documented in
 * sim/workload.h (derived here by hand from the cache and TLB geometry), address and PC
 * ranges, latencies, and that the generator's own counts equal a tally of its ops.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <sim/workload.h>

#define N_OPS 30000
#define VA    0x10000000ull
#define PA    0x80000000ull
#define CODE  0x400000ull
#define KIB   1024ull

static struct sim_uop ops[N_OPS], ops2[N_OPS];

static void make(struct sim_wl *wl, enum sim_wl_kind kind, uint64_t seed, uint64_t size)
{
	struct sim_wl_config cfg;

	sim_wl_default_config(&cfg, kind, seed);
	cfg.va_size = size;
	assert_true(sim_wl_init(wl, &cfg));
}

static void generate(enum sim_wl_kind kind, uint64_t seed, uint64_t size, struct sim_uop *out,
		     size_t n, struct sim_wl_counts *counts)
{
	struct sim_wl wl;

	make(&wl, kind, seed, size);
	sim_wl_fill(&wl, out, n);
	*counts = *sim_wl_counts(&wl);
}

static void assert_counts_equal(const struct sim_wl_counts *a, const struct sim_wl_counts *b)
{
	assert_memory_equal(a, b, sizeof(*a));
}

static void test_deterministic_per_seed(void **state)
{
	struct sim_wl_counts c1, c2;

	(void)state;
	for (unsigned int kind = SIM_WL_CHASE; kind <= SIM_WL_MIX; kind++) {
		generate(kind, 7, 64 * KIB, ops, N_OPS, &c1);
		generate(kind, 7, 64 * KIB, ops2, N_OPS, &c2);
		assert_memory_equal(ops, ops2, sizeof(ops));
		generate(kind, 8, 64 * KIB, ops2, N_OPS, &c2);
		assert_true(memcmp(ops, ops2, sizeof(ops)) != 0);
	}
}

/* The generator's counts are exactly a tally of its ops, however the stream is cut. */
static void test_counts_match_tally_and_chunking(void **state)
{
	struct sim_wl_counts gen, tally;
	struct sim_wl wl;

	(void)state;
	for (unsigned int kind = SIM_WL_CHASE; kind <= SIM_WL_MIX; kind++) {
		generate(kind, 3, 64 * KIB, ops, N_OPS, &gen);
		sim_wl_tally(ops, N_OPS, &tally);
		assert_counts_equal(&gen, &tally);
		assert_int_equal(gen.ops, N_OPS);
		make(&wl, kind, 3, 64 * KIB);
		for (size_t i = 0; i < N_OPS; i += 7)
			sim_wl_fill(&wl, ops2 + i, i + 7 <= N_OPS ? 7 : N_OPS - i);
		assert_memory_equal(ops, ops2, sizeof(ops));
	}
}

/* 16 KiB: 256 lines fit the 32 KiB L1D and 4 pages the 32-entry TLB, so only the first pass
 * misses. Each pass visits every line once. */
static void test_chase_fits(void **state)
{
	struct sim_wl_counts c;
	uint8_t seen[256] = { 0 };

	(void)state;
	generate(SIM_WL_CHASE, 11, 16 * KIB, ops, 3000, &c);
	assert_int_equal(c.loads, 1000);
	assert_int_equal(c.others, 1000);
	assert_int_equal(c.branches, 1000);
	assert_int_equal(c.taken, 1000);
	assert_int_equal(c.mispredicts, 0);
	assert_int_equal(c.l1d_refills, 256);
	assert_int_equal(c.tlb_refills, 4);
	for (size_t i = 0; i < 3 * 256; i += 3) {
		uint64_t va = ops[i].vaddr;

		assert_int_equal(ops[i].type, SIM_UOP_LOAD);
		assert_true(va >= VA && va < VA + 16 * KIB && va % 64 == 0);
		assert_int_equal(ops[i].paddr, PA + (va - VA));
		seen[(va - VA) / 64]++;
	}
	for (size_t i = 0; i < 256; i++)
		assert_int_equal(seen[i], 1);
}

/* At capacity: 32 KiB is 4 lines per 4-way set, 128 KiB is 32 pages for 32 TLB entries; both
 * fit exactly (one way fewer would thrash). Every seed gives a full-period permutation. */
static void test_chase_at_capacity(void **state)
{
	struct sim_wl_counts c;

	(void)state;
	generate(SIM_WL_CHASE, 14, 32 * KIB, ops, N_OPS, &c);
	assert_int_equal(c.l1d_refills, 512);
	assert_int_equal(c.tlb_refills, 8);
	generate(SIM_WL_CHASE, 15, 128 * KIB, ops, N_OPS, &c);
	assert_int_equal(c.l1d_refills, c.loads);
	assert_int_equal(c.tlb_refills, 32);
	for (uint64_t seed = 1; seed <= 16; seed++) {
		generate(SIM_WL_CHASE, seed, 4 * KIB, ops, 3 * 64, &c);
		assert_int_equal(c.l1d_refills, 64); /* 64 distinct lines in 64 loads */
	}
}

/* The TLB is LRU: replay the loads through an independent timestamp LRU and compare. */
static void test_tlb_is_lru(void **state)
{
	uint64_t page[SIM_WL_TLB_ENTRIES] = { 0 }, used[SIM_WL_TLB_ENTRIES] = { 0 };
	struct sim_wl_counts c;

	(void)state;
	generate(SIM_WL_CHASE, 16, 256 * KIB, ops, N_OPS, &c);
	for (size_t i = 0, t = 1; i < N_OPS; i++, t++) {
		uint64_t p = ops[i].vaddr / 4096 + 1;
		size_t victim = 0, hit = SIM_WL_TLB_ENTRIES;

		if (ops[i].type != SIM_UOP_LOAD)
			continue;
		for (size_t e = 0; e < SIM_WL_TLB_ENTRIES; e++) {
			if (page[e] == p)
				hit = e;
			if (used[e] < used[victim])
				victim = e;
		}
		assert_int_equal(!!(ops[i].flags & SIM_UOP_TLB_REFILL), hit == SIM_WL_TLB_ENTRIES);
		if (hit == SIM_WL_TLB_ENTRIES)
			page[hit = victim] = p;
		used[hit] = t;
	}
}

/* 64 KiB: 8 lines per 4-way set in one cyclic order: every load misses L1D (LRU); the 16
 * pages fit the TLB. */
static void test_chase_thrashes_l1d(void **state)
{
	struct sim_wl_counts c;

	(void)state;
	generate(SIM_WL_CHASE, 12, 64 * KIB, ops, N_OPS, &c);
	assert_int_equal(c.loads, N_OPS / 3);
	assert_int_equal(c.l1d_refills, N_OPS / 3);
	assert_int_equal(c.tlb_refills, 16);
}

/* Latency = issue + translation + access, translation = 1 (+30 walk), access = 4 (+120). */
static void test_load_latencies(void **state)
{
	struct sim_wl_counts c;

	(void)state;
	generate(SIM_WL_CHASE, 13, 256 * KIB, ops, N_OPS, &c);
	for (size_t i = 0; i < N_OPS; i++) {
		const struct sim_uop *op = &ops[i];
		bool tlb = op->flags & SIM_UOP_TLB_REFILL, l1 = op->flags & SIM_UOP_L1D_REFILL;

		if (op->type != SIM_UOP_LOAD)
			continue;
		assert_int_equal(op->xlat_lat, tlb ? 31 : 1);
		assert_int_equal(op->latency, op->issue_lat + op->xlat_lat + (l1 ? 124 : 4));
		assert_int_equal(op->data_source, l1 ? SIM_WL_DS_DRAM : SIM_WL_DS_L1D);
		assert_true(op->issue_lat < 4);
	}
	assert_true(c.tlb_refills > 64); /* 64 pages, a random order, 32 entries */
}

/* n stores of 8 bytes: ceil(n/8) new lines and ceil(n/512) new pages, capped at the region
 * when it fits the L1D (32 KiB) or the TLB reach (128 KiB). 10000 stores cover 80000 bytes:
 * 1250 lines, 20 pages. */
static void test_store_stream(void **state)
{
	static const struct {
		uint64_t size, l1d, tlb;
	} cases[] = {
		{ 16 * KIB, 256, 4 },	  /* fits both: only the first pass misses */
		{ 64 * KIB, 1250, 16 },	  /* > L1D: lines miss again after the wrap; 16 pages fit */
		{ 1024 * KIB, 1250, 20 }, /* no wrap */
	};
	struct sim_wl_counts c;

	(void)state;
	for (size_t k = 0; k < VPERF_ARRAY_SIZE(cases); k++) {
		generate(SIM_WL_STORES, 5, cases[k].size, ops, N_OPS, &c);
		assert_int_equal(c.stores, 10000);
		assert_int_equal(c.l1d_refills, cases[k].l1d);
		assert_int_equal(c.tlb_refills, cases[k].tlb);
		for (size_t i = 0; i < N_OPS; i += 3)
			assert_int_equal(ops[i].vaddr, VA + (i / 3 * 8) % cases[k].size);
	}
}

/* Always taken: a block is cmp + b.cond (the add is skipped), 4 blocks + the loop branch = 9
 * ops; never taken: 13 ops. Always mispredicted: every b.cond but not the loop branch. */
static void test_branchy_extremes(void **state)
{
	struct sim_wl_config cfg;
	struct sim_wl wl;
	const struct sim_wl_counts *c;

	(void)state;
	sim_wl_default_config(&cfg, SIM_WL_BRANCHY, 9);
	cfg.taken_permille = 1000;
	cfg.mispred_permille = 1000;
	assert_true(sim_wl_init(&wl, &cfg));
	sim_wl_fill(&wl, ops, 900);
	c = sim_wl_counts(&wl);
	assert_int_equal(c->branches, 500);
	assert_int_equal(c->taken, 500);
	assert_int_equal(c->mispredicts, 400);
	assert_int_equal(c->others, 400);
	assert_int_equal(c->cycles, 900 + 400 * SIM_WL_LAT_MISPRED);
	assert_int_equal(ops[1].vaddr, CODE + 12); /* b.cond of block 0 skips to block 1 */
	assert_int_equal(ops[8].pc, CODE + 48);
	assert_int_equal(ops[8].vaddr, CODE);
	cfg.taken_permille = 0;
	cfg.mispred_permille = 0;
	assert_true(sim_wl_init(&wl, &cfg));
	sim_wl_fill(&wl, ops, 1300);
	c = sim_wl_counts(&wl);
	assert_int_equal(c->branches, 500);
	assert_int_equal(c->taken, 100);
	assert_int_equal(c->mispredicts, 0);
	assert_int_equal(c->others, 800);
}

/* 5 % misprediction, 50 % taken: the exact numbers are the generator's, the rates near them. */
static void test_branchy_rates(void **state)
{
	struct sim_wl_counts c;
	uint64_t blocks;

	(void)state;
	generate(SIM_WL_BRANCHY, 21, 64 * KIB, ops, N_OPS, &c);
	blocks = c.cond_branches - c.cond_branches / 5; /* 4 of every 5 branches */
	assert_true(c.mispredicts * 1000 > blocks * 30 && c.mispredicts * 1000 < blocks * 70);
	for (size_t i = 0; i < N_OPS; i++)
		assert_true(ops[i].pc >= CODE && ops[i].pc <= CODE + 48 && ops[i].pc % 4 == 0);
	assert_int_equal(c.loads + c.stores, 0);
}

/* MIX: loads in the low half, stores in the high half, each kind at its own PCs. */
static void test_mix_ranges(void **state)
{
	struct sim_wl_counts c;

	(void)state;
	generate(SIM_WL_MIX, 4, 64 * KIB, ops, N_OPS, &c);
	assert_true(c.loads > 0 && c.stores > 0 && c.mispredicts > 0);
	for (size_t i = 0; i < N_OPS; i++) {
		const struct sim_uop *op = &ops[i];

		if (op->type == SIM_UOP_LOAD)
			assert_true(op->vaddr >= VA && op->vaddr < VA + 32 * KIB && op->pc == CODE);
		if (op->type == SIM_UOP_STORE)
			assert_true(op->vaddr >= VA + 32 * KIB && op->vaddr < VA + 64 * KIB &&
				    op->pc == CODE + 0x200);
		assert_true(op->pc >= CODE && op->pc < CODE + 0x400);
	}
}

static void test_invalid_configs(void **state)
{
	struct sim_wl_config cfg;
	struct sim_wl wl;

	(void)state;
	sim_wl_default_config(&cfg, SIM_WL_CHASE, 1);
	cfg.va_size = 48 * KIB;
	assert_false(sim_wl_init(&wl, &cfg));
	sim_wl_default_config(&cfg, SIM_WL_CHASE, 1);
	cfg.va_base += 64;
	assert_false(sim_wl_init(&wl, &cfg));
	sim_wl_default_config(&cfg, SIM_WL_BRANCHY, 1);
	cfg.mispred_permille = 1001;
	assert_false(sim_wl_init(&wl, &cfg));
	sim_wl_default_config(&cfg, SIM_WL_MIX, 1);
	cfg.va_size = 4 * KIB;
	assert_false(sim_wl_init(&wl, &cfg));
	cfg.kind = SIM_WL_STORES;
	assert_true(sim_wl_init(&wl, &cfg));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deterministic_per_seed),
		cmocka_unit_test(test_counts_match_tally_and_chunking),
		cmocka_unit_test(test_chase_fits),
		cmocka_unit_test(test_chase_thrashes_l1d),
		cmocka_unit_test(test_chase_at_capacity),
		cmocka_unit_test(test_tlb_is_lru),
		cmocka_unit_test(test_load_latencies),
		cmocka_unit_test(test_store_stream),
		cmocka_unit_test(test_branchy_extremes),
		cmocka_unit_test(test_branchy_rates),
		cmocka_unit_test(test_mix_ranges),
		cmocka_unit_test(test_invalid_configs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
