// SPDX-License-Identifier: MIT
/*
 * The rules where the architecture leaves the PE a choice, and the model's adversarial picks:
 *   - the write-pointer rules of SPE 3.4.1 (at most 2^MaxSize below the limit when
 *     profiling becomes enabled, PTR[63:56] == LIMIT[63:56], no restart from the pointer of a
 *     DL = 1 event) and their UNPREDICTABLE outcomes, also when a direct write of the limit is
 *     seen before the pointer's (SPE 3.6.1);
 *   - external aborts on a translation table walk (SPE 3.5.4) with the stage's EC and the level in
 *     FSC 0b0101LL, and external aborts on the write with either EC;
 *   - PMSICR_EL1.ECOUNT drawn in 0x00..0xFF, 0 included (SPE 3.1.2).
 * PMBSR_EL1 values are composed from SPE 4.3.4: EC [31:26], DL [19], EA [18], S [17], MSS [15:0].
 */
#include <string.h>

#include "cmocka_wrap.h"
#include "sim_spe_util.h"

#define LIMIT	 T_BUF_LIMIT
#define PAGE1_VA T_BUF_PAGE1_VA
#define EC(v)	 ((v) >> 26 & 0x3f)
#define FSC(v)	 ((v)&0x3f)
#define EC_S1_DA 0x24
#define EC_S2_DA 0x25
#define NSEEDS	 48

/* The buffer at offset holds t_load_rec. */
static bool record_at(uint64_t offset)
{
	return t_load_rec_at(T_BUF_PA + offset);
}

/* A fresh SPEv1 PE with the write-pointer outcome w; the guest profiles into [ptr, limit) and
 * one load record is collected and drained. */
static void one_record_with(enum sim_spe_wptr w, uint64_t ptr, uint64_t limit)
{
	t_init(1, 1);
	t_set_wptr(w);
	t_guest_start(ptr, limit, T_PMSCR_E1SPE, 0, T_INTERVAL_1);
	t_one_record();
	t_drain();
}

/* The boundary of the first rule: PTR = LIMIT - 64 (2^MaxSize) is allowed: the record is
 * written, then buffer full with DL 0 (SPE 3.5.2). PTR = LIMIT - 63 breaks it: with the buffer full
 * outcome nothing is written. */
static void test_pointer_boundary(void **state)
{
	(void)state;
	one_record_with(SIM_SPE_WPTR_FULL, LIMIT - 64, LIMIT);
	assert_true(record_at(T_BUF_SIZE - 64));
	assert_int_equal(guest_read(PMBSR_EL1), T_PMBSR_S | 1);

	one_record_with(SIM_SPE_WPTR_FULL, LIMIT - 63, LIMIT);
	assert_false(record_at(T_BUF_SIZE - 63));
	assert_int_equal(guest_read(PMBSR_EL1) & ~T_PMBSR_DL, T_PMBSR_S | 1);
	assert_int_equal(sim_spe_stats(0)->written, 0);
}

/* The write outcome: "write sample records to any writeable address". The model writes from
 * PMBPTR_EL1 on, past the limit, through the guest's own translation: here the limit is at
 * 4 KB and the record crosses it into memory the guest still maps. */
static void test_write_past_limit(void **state)
{
	(void)state;
	one_record_with(SIM_SPE_WPTR_WRITE, PAGE1_VA - 20, PAGE1_VA);
	assert_true(record_at(0x1000 - 20));
	assert_int_equal(guest_read(PMBPTR_EL1), PAGE1_VA - 20 + T_LOAD_REC_LEN);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_int_equal(sim_error_count(), 0);
}

struct outcomes {
	bool written, full, fault, dl[2];
	unsigned int levels; /* bit n: a Translation fault at level n */
};

static void classify(struct outcomes *o, uint64_t pmbsr)
{
	if (!(pmbsr & T_PMBSR_S)) {
		o->written = true;
		return;
	}
	o->dl[(pmbsr & T_PMBSR_DL) != 0] = true;
	if (EC(pmbsr) == 0 && FSC(pmbsr) == 1)
		o->full = true;
	if (EC(pmbsr) == EC_S1_DA && (FSC(pmbsr) & 0x3c) == 0x04) {
		o->fault = true;
		o->levels |= 1u << (FSC(pmbsr) & 3);
	}
}

/* Each broken rule, with the seed choosing: across seeds the hypervisor meets every outcome
 * (records written, buffer full, Translation fault at varying levels, with and without data
 * loss), so it cannot pass by luck. */
static void test_broken_rules_every_outcome(void **state)
{
	static const struct {
		uint64_t ptr, limit;
	} broken[] = {
		{ PAGE1_VA - 20, PAGE1_VA }, /* less than 2^MaxSize below (mapped after) */
		{ (T_BUF_VA & ~(0xffull << 56)) | 0xfe00000000000000ull, LIMIT }, /* PTR[63:56] */
	};

	(void)state;
	for (size_t r = 0; r < VPERF_ARRAY_SIZE(broken); r++) {
		struct outcomes o = { 0 };

		for (uint64_t seed = 1; seed <= NSEEDS; seed++) {
			t_init(1, seed);
			t_guest_start(broken[r].ptr, broken[r].limit, T_PMSCR_E1SPE, 0,
				      T_INTERVAL_1);
			t_one_record();
			t_drain();
			classify(&o, guest_read(PMBSR_EL1));
		}
		assert_true(o.full && o.fault && o.dl[0] && o.dl[1]);
		assert_true(o.levels & (o.levels - 1)); /* at least two levels */
		assert_true(o.written || r == 1); /* PTR[63:56] = 0xfe: no VA, a fault instead */
	}
}

/* Restarting after a management event: a stage 2 fault at the first byte of a record (DL 0)
 * may restart from the saved pointer once the page is mapped (SPE 3.4.1). After one in the middle
 * of a record (DL 1) it must not: with the model's Translation fault outcome the restarted buffer
 * faults at once; a fresh pointer works. */
static void restart(uint64_t ptr, bool fresh)
{
	t_init(1, 1);
	t_set_wptr(SIM_SPE_WPTR_FAULT);
	sim_mem_unmap_s2(T_VMID, T_BUF_IPA + 0x1000, 0x1000);
	t_guest_start(ptr, LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1);
	t_one_record();
	t_drain();
	assert_int_equal(EC(guest_read(PMBSR_EL1)), EC_S2_DA);
	assert_int_equal(guest_read(PMBPTR_EL1), PAGE1_VA);
	/* The hypervisor maps the page and restarts. */
	sim_mem_map_s2(T_VMID, T_BUF_IPA + 0x1000, T_BUF_PA + 0x1000, 0x1000, SIM_PERM_RW);
	if (fresh)
		guest_write(PMBPTR_EL1, T_BUF_VA);
	guest_write(PMBSR_EL1, 0);
	isb();
	t_one_record();
	t_drain();
}

static void test_restart_rules(void **state)
{
	(void)state;
	restart(PAGE1_VA, false); /* DL 0 */
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_true(record_at(0x1000));

	restart(PAGE1_VA - 10, false); /* DL 1, restored pointer */
	assert_int_equal(EC(guest_read(PMBSR_EL1)), EC_S1_DA);
	assert_int_equal(FSC(guest_read(PMBSR_EL1)) & 0x3c, 0x04);
	assert_false(record_at(0x1000));

	restart(PAGE1_VA - 10, true); /* DL 1, fresh pointer */
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_true(record_at(0));
}

/* The buffer is enabled by direct writes while PMBPTR_EL1 still holds a stale pointer (another
 * VM's, above this limit). Before the context synchronization event the profiling operation may
 * see the new PMBLIMITR_EL1.E already (SPE 3.6.1): writing the limit first enables profiling with
 * the stale pointer, a broken SPE 3.4.1 rule, for some seeds. Writing the pointer first never
 * does. */
static bool enable_breaks(bool limit_first, uint64_t seed)
{
	t_init(1, seed);
	t_set_wptr(SIM_SPE_WPTR_FULL);
	guest_write(PMBPTR_EL1, LIMIT + 0x10000);
	guest_write(PMSIRR_EL1, T_INTERVAL_1);
	guest_write(PMSICR_EL1, 0);
	if (limit_first)
		guest_write(PMBLIMITR_EL1, LIMIT | T_PMBLIMITR_E);
	guest_write(PMBPTR_EL1, T_BUF_VA);
	if (!limit_first)
		guest_write(PMBLIMITR_EL1, LIMIT | T_PMBLIMITR_E);
	isb();
	guest_write(PMSCR_EL1, T_PMSCR_E1SPE);
	isb();
	t_one_record();
	t_drain();
	if (guest_read(PMBSR_EL1) == 0) {
		assert_true(record_at(0));
		return false;
	}
	assert_int_equal(guest_read(PMBSR_EL1) & ~T_PMBSR_DL, T_PMBSR_S | 1);
	return true;
}

static void test_pointer_before_limit(void **state)
{
	unsigned int broken = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 16; seed++) {
		assert_false(enable_breaks(false, seed));
		broken += enable_breaks(true, seed);
	}
	assert_in_range(broken, 1, 15);
}

/* An external abort on the stage 2 walk of the buffer's second page: EA, the stage 2 EC,
 * FSC 0b0101LL with the level of the table that aborted, PMBPTR at the page, DL 0 at the start
 * of a record. On the stage 1 walk: the stage 1 EC. With the seed picking the level, it varies. */
static uint64_t walk_abort(unsigned int stage, int level, uint64_t seed)
{
	uint64_t in = stage == 2 ? T_BUF_IPA + 0x1000 : PAGE1_VA;

	t_init(1, seed);
	assert_int_equal(sim_mem_set_walk_abort(stage, SIM_REGIME_EL10, T_VMID, in, 0x1000, level),
			 VPERF_OK);
	t_guest_start(PAGE1_VA, LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1);
	t_one_record();
	t_drain();
	assert_int_equal(guest_read(PMBPTR_EL1), PAGE1_VA);
	return guest_read(PMBSR_EL1);
}

static void test_walk_external_abort(void **state)
{
	unsigned int levels = 0;

	(void)state;
	for (int level = 0; level < 4; level++) {
		assert_int_equal(walk_abort(2, level, 1),
				 T_PMBSR_EC(EC_S2_DA) | T_PMBSR_EA | T_PMBSR_S | (0x14u + level));
		assert_int_equal(walk_abort(1, level, 1),
				 T_PMBSR_EC(EC_S1_DA) | T_PMBSR_EA | T_PMBSR_S | (0x14u + level));
	}
	for (uint64_t seed = 1; seed <= 16; seed++)
		levels |= 1u << (FSC(walk_abort(2, SIM_WALK_LEVEL_SEED, seed)) - 0x14);
	assert_true(levels & (levels - 1));
}

/* An external abort on the write itself: EC "one of" stage 1 or stage 2 (SPE 3.5.4); the seed
 * gives both, so a hypervisor that restarts on every stage 2 EC without checking EA is caught. */
static void test_write_abort_either_ec(void **state)
{
	bool seen[2] = { false, false };

	(void)state;
	for (uint64_t seed = 1; seed <= 16; seed++) {
		uint64_t pmbsr;

		t_init(1, seed);
		sim_mem_set_abort(T_BUF_PA, 0x1000, true);
		t_guest_start(T_BUF_VA, LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1);
		t_one_record();
		t_drain();
		pmbsr = guest_read(PMBSR_EL1);
		assert_int_equal(pmbsr & ~T_PMBSR_EC(0x3f), T_PMBSR_EA | T_PMBSR_S | 0x10);
		seen[EC(pmbsr) == EC_S2_DA] = true;
	}
	assert_true(seen[0] && seen[1]);
}

/* SPE 3.1.2: ECOUNT is set to a value "in the range 0x00 to 0xFF". From a fresh counter (COUNT =
 * 256 after INTERVAL 1) the op that finds COUNT at zero is op 257: it reloads COUNT and draws
 * ECOUNT. When the draw is 0 that op itself is sampled and PMSICR_EL1 reads ECOUNT 0 with COUNT
 * reloaded; otherwise the sample comes exactly ECOUNT ops later. Some seed draws 0. */
static void test_ecount_zero(void **state)
{
	struct sim_pe_config cfg;
	bool zero = false, later = false;

	(void)state;
	sim_spe_default_config(&cfg, 1);
	cfg.pmsidr |= 1ull << 5; /* ERnd */
	cfg.el2_trap_cycles = 0;
	for (cfg.seed = 1; cfg.seed <= 2048 && !(zero && later); cfg.seed++) {
		uint64_t icr, ecount;

		t_init_cfg(&cfg);
		t_guest_start(T_BUF_VA, LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1 | 1);
		for (int i = 0; i < 257; i++)
			guest_run(&t_filler, 1);
		icr = guest_read(PMSICR_EL1);
		ecount = icr >> 56;
		assert_int_equal(icr & 0xffffffffull, 0x100);
		assert_int_equal(sim_spe_stats(0)->feed, ecount == 0);
		if (ecount == 0) {
			zero = true;
			continue;
		}
		for (uint64_t i = 0; i < ecount; i++) {
			assert_int_equal(sim_spe_stats(0)->feed, 0);
			guest_run(&t_filler, 1);
		}
		assert_int_equal(sim_spe_stats(0)->feed, 1);
		later = true;
	}
	assert_true(zero && later);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pointer_boundary),
		cmocka_unit_test(test_write_past_limit),
		cmocka_unit_test(test_broken_rules_every_outcome),
		cmocka_unit_test(test_restart_rules),
		cmocka_unit_test(test_pointer_before_limit),
		cmocka_unit_test(test_walk_external_abort),
		cmocka_unit_test(test_write_abort_either_ec),
		cmocka_unit_test(test_ecount_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
