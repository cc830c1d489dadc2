// SPDX-License-Identifier: MIT
/*
 * The model's SPE sampling and records: the interval counter (SPE 3.1), the sample
 * population and the EL rules (SPE 3.2.1, 3.6), collisions (SPE 3.1.4), the SAMPLE_* PMU events
 * (SPE 2.6),
 * and records byte for byte (Arm DDI 0487 K.a D18.2, collection controls SPE 3.3). Expected bytes
 * are written out by hand from D18.2 in the comments next to them.
 */
#include <string.h>

#include "cmocka_wrap.h"
#include "sim_spe_util.h"

#define LIMIT (T_BUF_VA + T_BUF_SIZE)

static void start(uint64_t pmscr)
{
	t_guest_start(T_BUF_VA, LIMIT, pmscr, 0, T_INTERVAL_1);
}

static void assert_buf(const uint8_t *want, size_t n)
{
	uint8_t got[256];

	assert_true(n <= sizeof(got));
	t_buf_read(0, got, n + 1);
	assert_memory_equal(got, want, n);
	assert_int_equal(got[n], 0); /* nothing after the record */
}

/* ---- records ----------------------------------------------------------------------------- */

/* A load at EL1 with PMSCR_EL1 = E1SPE: the 35 bytes of t_load_rec (sim_spe_util.c). */
static void test_load_record(void **state)
{
	struct sim_uop ld = t_load(0x400000, 0x12345678, 20);

	(void)state;
	t_init(1, 1);
	start(T_PMSCR_E1SPE);
	t_run_sampling(&t_filler, 256, &ld);
	sim_guest_spe_disable_and_drain();
	assert_int_equal(guest_read(PMBPTR_EL1), T_BUF_VA + T_LOAD_REC_LEN);
	assert_buf(t_load_rec, T_LOAD_REC_LEN);
	assert_int_equal(sim_spe_stats(0)->written, 1);
	assert_int_equal(sim_error_count(), 0);
}

/* A store with every collection control on: CONTEXTIDR_EL1/EL2 (CX in PMSCR_EL1 and
 * PMSCR_EL2), physical address (PA in both, SPE 3.3), physical timestamp (TS in PMSCR_EL1, the
 * owner's, PCT in both), a tagged VA, refills, and a total latency above the 12-bit maximum. */
static void test_store_record_all_controls(void **state)
{
	const struct sim_uop st = {
		.pc = 0xffff800000123456ull,
		.vaddr = 0x5a00007fdeadbee8ull,
		.paddr = 0x8badf00d0ull,
		.latency = 0x1234,
		.issue_lat = 7,
		.xlat_lat = 40,
		.type = SIM_UOP_STORE,
		.size_log2 = 3,
		.flags = SIM_UOP_L1D_REFILL | SIM_UOP_TLB_REFILL,
	};
	static const uint8_t want[] = {
		0x64,
		0x44,
		0x33,
		0x22,
		0x11, /* Context INDEX 0: CONTEXTIDR_EL1 */
		0x65,
		0x88,
		0x77,
		0x66,
		0x55, /* Context INDEX 1: CONTEXTIDR_EL2 */
		0xb0,
		0x56,
		0x34,
		0x12,
		0x00,
		0x00,
		0x80,
		0xff,
		0xa0, /* PC, NS, EL1 */
		0x49,
		0x01, /* load/store, general-purpose store */
		0x52,
		0x3e,
		0x00, /* retired, L1D access+refill, TLB access+walk */
		0x98,
		0xff,
		0x0f, /* total latency saturated at 0xfff (D18.2.3) */
		0x99,
		0x07,
		0x00, /* issue latency 7 */
		0x9a,
		0x28,
		0x00, /* translation latency 40 */
		0xb2,
		0xe8,
		0xbe,
		0xad,
		0xde,
		0x7f,
		0x00,
		0x00,
		0x5a, /* data VA, TAG 0x5a */
		0xb3,
		0xd0,
		0x00,
		0xdf,
		0xba,
		0x08,
		0x00,
		0x00,
		0x80, /* data PA, NS */
		/* Timestamp: CNTPCT = 1000 + 256 fillers + 0x1234 = 5916 = 0x171c */
		0x71,
		0x1c,
		0x17,
		0x00,
		0x00,
		0x00,
		0x00,
		0x00,
		0x00,
	};

	(void)state;
	t_init(1, 1);
	sim_spe_set_contextidr(0, 0x11223344, 0x55667788);
	write_sysreg(T_PMSCR_CX | T_PMSCR_PA | T_PMSCR_PCT, PMSCR_EL2);
	start(T_PMSCR_E1SPE | T_PMSCR_CX | T_PMSCR_PA | T_PMSCR_TS | T_PMSCR_PCT);
	sim_spe_set_time(0, 1000, 300);
	t_run_sampling(&t_filler, 256, &st);
	sim_guest_spe_disable_and_drain();
	assert_int_equal(sizeof(want), 60);
	assert_buf(want, sizeof(want));
}

/* Collection controls combine (SPE 3.3.1): PA needs PMSCR_EL2.PA too when EL1 owns the buffer; PCT
 * needs both, else the virtual count (CNTPCT - CNTVOFF) is collected. */
static void test_collection_needs_el2(void **state)
{
	struct sim_uop ld = t_load(0x400000, 0x12345678, 20);
	uint8_t got[T_LOAD_REC_LEN + 8];

	(void)state;
	t_init(1, 1);
	write_sysreg(0, PMSCR_EL2);
	start(T_PMSCR_E1SPE | T_PMSCR_PA | T_PMSCR_TS | T_PMSCR_PCT);
	sim_spe_set_time(0, 1000, 300);
	t_run_sampling(&t_filler, 256, &ld);
	sim_guest_spe_disable_and_drain();
	/* The load record without PA, ended by a Timestamp instead of End: CNTVCT = 1000 + 256 +
	 * 20 - 300 = 976 = 0x3d0. */
	t_buf_read(0, got, sizeof(got));
	assert_memory_equal(got, t_load_rec, T_LOAD_REC_LEN - 1);
	assert_int_equal(got[34], 0x71);
	assert_int_equal(got[35], 0xd0);
	assert_int_equal(got[36], 0x03);
	assert_int_equal(guest_read(PMBPTR_EL1), T_BUF_VA + T_LOAD_REC_LEN - 1 + 9);
}

/* A conditional branch, taken and mispredicted, then one not taken (D18.2.6 E[6], E[7]). */
static void test_branch_records(void **state)
{
	const struct sim_uop br = { .pc = 0x400010,
				    .vaddr = 0x400000,
				    .latency = 2,
				    .issue_lat = 1,
				    .type = SIM_UOP_BRANCH,
				    .flags = SIM_UOP_COND | SIM_UOP_TAKEN | SIM_UOP_MISPRED };
	const struct sim_uop nt = { .pc = 0x400010,
				    .vaddr = 0x400000,
				    .latency = 2,
				    .issue_lat = 1,
				    .type = SIM_UOP_BRANCH,
				    .flags = SIM_UOP_COND };
	static const uint8_t want[] = {
		0xb0, 0x10, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0xa0, /* PC */
		0x4a, 0x01,					      /* CLASS 2 branch, COND */
		0x52, 0x82, 0x00,				      /* retired, mispredicted */
		0x98, 0x02, 0x00, 0x99, 0x01, 0x00,		      /* total 2, issue lat 1 */
		0xb1, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0xa0, /* target, NS, EL1 */
		0x01, 0xb0, 0x10, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00,
		0xa0, 0x4a, 0x01, 0x52, 0x42, 0x00, /* retired, not taken */
		0x98, 0x02, 0x00, 0x99, 0x01, 0x00, 0xb1, 0x00, 0x00,
		0x40, 0x00, 0x00, 0x00, 0x00, 0xa0, 0x01,
	};

	(void)state;
	t_init(1, 1);
	start(T_PMSCR_E1SPE);
	t_run_sampling(&t_filler, 256, &br);
	t_run_sampling(&t_filler, 256, &nt);
	sim_guest_spe_disable_and_drain();
	assert_buf(want, sizeof(want));
}

/* EL0 with PMSCR_EL1.E0SPE: the PC packet says EL0 (byte 7 = NS only). E1SPE alone does not
 * sample EL0 (SPE 3.2.1, Table 3). */
static void test_el0_sampling(void **state)
{
	struct sim_uop ld = t_load(0x400000, 0x12345678, 20);
	uint8_t got[T_LOAD_REC_LEN];

	(void)state;
	t_init(1, 1);
	start(T_PMSCR_E1SPE);
	sim_set_el(0);
	t_run_sampling(&t_filler, 256, &ld);
	assert_int_equal(sim_spe_stats(0)->pop, 0);
	sim_set_el(1);
	guest_write(PMSCR_EL1, T_PMSCR_E0SPE);
	isb();
	sim_set_el(0);
	t_run_sampling(&t_filler, 256, &ld);
	sim_set_el(1);
	sim_guest_spe_disable_and_drain();
	t_buf_read(0, got, sizeof(got));
	assert_int_equal(got[8], 0x80);
	got[8] = 0xa0;
	assert_memory_equal(got, t_load_rec, sizeof(got));
}

/* EL2 owns the buffer (E2PB = 0b00): the hypervisor profiles the guest from outside, through
 * the EL2 regime; EL2 itself is sampled with PMSCR_EL2.E2SPE (PC EL = 2). When EL1 owns the
 * buffer, EL2 is never sampled (SPE 3.6: higher than the owning EL), whatever PMSCR_EL2 says. */
static void test_el2_owner(void **state)
{
	struct sim_uop ld = t_load(0x400000, 0x12345678, 20);
	const uint64_t va = 0x8000000, pa = 0x50000000;
	uint8_t got[2 * T_LOAD_REC_LEN];

	(void)state;
	t_init(1, 1);
	assert_int_equal(sim_mem_map_s1(SIM_REGIME_EL2, 0, va, pa, 0x2000, SIM_PERM_RW), VPERF_OK);
	/* EL1 owner: EL2 ops are not in the population. */
	start(T_PMSCR_E1SPE);
	write_sysreg(T_PMSCR_E1SPE, PMSCR_EL2);
	isb();
	sim_set_el(2);
	t_run_sampling(&t_filler, 256, &ld);
	assert_int_equal(sim_spe_stats(0)->pop, 0);
	/* EL2 owner. */
	write_sysreg(MDCR_EL2_E2PB_EL2, MDCR_EL2);
	write_sysreg(va, PMBPTR_EL1);
	write_sysreg((va + 0x2000) | T_PMBLIMITR_E, PMBLIMITR_EL1);
	write_sysreg(0, PMSICR_EL1);
	isb();
	t_run_sampling(&t_filler, 256, &ld); /* at EL2 */
	sim_set_el(1);
	t_run_sampling(&t_filler, 256, &ld); /* at EL1, PMSCR_EL1.E1SPE */
	isb(); /* the operations before it are what PSB CSYNC synchronizes (SPE 3.6) */
	psb_csync();
	dsb_nsh();
	isb();
	assert_int_equal(read_sysreg(PMBPTR_EL1), va + 2 * T_LOAD_REC_LEN);
	sim_mem_read(pa, got, sizeof(got));
	assert_int_equal(got[8], 0xc0); /* NS | EL2 */
	assert_memory_equal(got + 9, t_load_rec + 9, T_LOAD_REC_LEN - 9);
	assert_memory_equal(got + T_LOAD_REC_LEN, t_load_rec, T_LOAD_REC_LEN);
	assert_int_equal(sim_error_count(), 0);
}

/* Table 3 with HCR_EL2.TGE = 1 and EL2 owning the buffer (a host): EL0 is sampled under
 * PMSCR_EL2.E0HSPE, not PMSCR_EL1.E0SPE, and CONTEXTIDR_EL1 is not collected (SPE 3.3.1). */
static void test_host_el0(void **state)
{
	struct sim_uop ld = t_load(0x400000, 0x12345678, 20);
	const uint64_t va = 0x8000000, pa = 0x50000000;
	uint8_t got[T_LOAD_REC_LEN];

	(void)state;
	t_init(1, 1);
	assert_int_equal(sim_mem_map_s1(SIM_REGIME_EL2, 0, va, pa, 0x2000, SIM_PERM_RW), VPERF_OK);
	write_sysreg(MDCR_EL2_E2PB_EL2, MDCR_EL2);
	write_sysreg(1ull << 27, HCR_EL2); /* TGE */
	write_sysreg(va, PMBPTR_EL1);
	write_sysreg((va + 0x2000) | T_PMBLIMITR_E, PMBLIMITR_EL1);
	write_sysreg(T_INTERVAL_1, PMSIRR_EL1);
	write_sysreg(T_PMSCR_E0SPE | T_PMSCR_CX, PMSCR_EL1);
	isb();
	sim_set_el(0);
	t_run_sampling(&t_filler, 256, &ld);
	assert_int_equal(sim_spe_stats(0)->pop, 0);
	write_sysreg(T_PMSCR_E0SPE, PMSCR_EL2); /* E0HSPE */
	isb();
	t_run_sampling(&t_filler, 256, &ld);
	isb();
	psb_csync();
	dsb_nsh();
	isb();
	assert_int_equal(read_sysreg(PMBPTR_EL1), va + T_LOAD_REC_LEN);
	sim_mem_read(pa, got, sizeof(got));
	assert_int_equal(got[8], 0x80); /* NS, EL0 */
	assert_memory_equal(got + 9, t_load_rec + 9, T_LOAD_REC_LEN - 9);
}

/* ---- the interval counter (SPE 3.1) ---------------------------------------------------------- */

static uint64_t pmsicr(void)
{
	return guest_read(PMSICR_EL1);
}

/* RND = 0: loaded with INTERVAL:0x00 when profiling becomes enabled with PMSICR_EL1 = 0; one
 * decrement per op; the op that finds it at zero is sampled and reloads it: one op in
 * INTERVAL * 256 + 1. While profiling is disabled the counter keeps its value (SPE 3.1.3); a
 * non-zero value is where sampling restarts (SPE 3.1.1). */
static void test_interval_counter(void **state)
{
	(void)state;
	t_init(1, 1);
	start(T_PMSCR_E1SPE);
	assert_int_equal(pmsicr(), 0);
	guest_run(&t_filler, 1);
	assert_int_equal(pmsicr(), 0xff);
	for (int i = 0; i < 255; i++)
		guest_run(&t_filler, 1);
	assert_int_equal(pmsicr(), 0);
	assert_int_equal(sim_spe_stats(0)->feed, 0);
	guest_run(&t_filler, 1); /* op 257 */
	assert_int_equal(sim_spe_stats(0)->feed, 1);
	assert_int_equal(pmsicr(), 0x100);
	/* Disabled (E1SPE = 0, seen after an ISB): nothing moves. */
	guest_write(PMSCR_EL1, 0);
	isb();
	for (int i = 0; i < 1000; i++)
		guest_run(&t_filler, 1);
	assert_int_equal(pmsicr(), 0x100);
	assert_int_equal(sim_spe_stats(0)->pop, 257);
	/* Restart from a non-zero value: 5 means the 6th op is sampled. */
	guest_write(PMSICR_EL1, 5);
	guest_write(PMSCR_EL1, T_PMSCR_E1SPE);
	isb();
	for (int i = 0; i < 5; i++)
		guest_run(&t_filler, 1);
	assert_int_equal(sim_spe_stats(0)->feed, 1);
	guest_run(&t_filler, 1);
	assert_int_equal(sim_spe_stats(0)->feed, 2);
	assert_int_equal(pmsicr(), 0x100);
}

/* Positions (1-based op numbers) of the first n samples. */
static void sample_positions(uint64_t *pos, unsigned int n, unsigned int max_ops)
{
	unsigned int got = 0;
	uint64_t before = sim_spe_stats(0)->feed;

	for (unsigned int i = 1; i <= max_ops && got < n; i++) {
		guest_run(&t_filler, 1);
		if (sim_spe_stats(0)->feed != before + got)
			pos[got++] = i;
	}
	assert_int_equal(got, n);
}

/* RND = 1, ERnd = 0: COUNT[7:0] random at each reload, so consecutive samples are
 * INTERVAL * 256 + 1 + r apart, r in 0..255, and not all equal. */
static void test_interval_random_low_byte(void **state)
{
	uint64_t pos[40];
	bool varied = false;

	(void)state;
	t_init(1, 7);
	t_guest_start(T_BUF_VA, LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1 | 1);
	sample_positions(pos, 40, 40 * 520);
	for (int i = 1; i < 40; i++) {
		uint64_t d = pos[i] - pos[i - 1];

		assert_in_range(d, 257, 257 + 255);
		varied |= d != pos[1] - pos[0];
	}
	assert_true(varied);
}

/* RND = 1, ERnd = 1: the primary counter has period INTERVAL * 256 + 1 (it is reloaded by the
 * op that finds it at zero) and each sample comes ECOUNT ops after a reload: sample k at op
 * 257 * k + r, r in 0..255 (0: the reloading op itself, test_sim_spe_rules). */
static void test_interval_ernd(void **state)
{
	struct sim_pe_config cfg;
	uint64_t pos[40];
	bool varied = false;

	(void)state;
	sim_spe_default_config(&cfg, 1);
	cfg.pmsidr |= 1ull << 5; /* ERnd */
	cfg.seed = 3;
	cfg.el2_trap_cycles = 0;
	t_init_cfg(&cfg);
	t_guest_start(T_BUF_VA, LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1 | 1);
	sample_positions(pos, 40, 42 * 257);
	for (unsigned int k = 0; k < 40; k++) {
		assert_in_range(pos[k] - 257 * (k + 1), 0, 255);
		varied |= pos[k] - 257 * (k + 1) != pos[0] - 257;
	}
	assert_true(varied);
}

/* ---- collisions and the SAMPLE_* events -------------------------------------------------- */

/* Ops of latency 300 with one sample per 257 ops: the sample at op 514 finds the one of op 257
 * still in flight (until op 557): SAMPLE_COLLISION, no SAMPLE_FEED, and PMBSR_EL1.COLL, which
 * is only guaranteed visible after a context synchronization event (SPE 3.1.4); the model makes it
 * visible exactly then. The sample at op 771 is taken. */
static void test_collision(void **state)
{
	const struct sim_uop slow = { .pc = 0x2000, .latency = 300, .type = SIM_UOP_OTHER };

	(void)state;
	t_init(1, 1);
	start(T_PMSCR_E1SPE);
	for (int i = 0; i < 771; i++)
		guest_run(&slow, 1);
	assert_int_equal(sim_spe_stats(0)->feed, 2);
	assert_int_equal(sim_spe_stats(0)->collision, 1);
	assert_int_equal(guest_read(PMBSR_EL1) & T_PMBSR_COLL, 0);
	isb();
	assert_int_equal(guest_read(PMBSR_EL1), T_PMBSR_COLL);
	assert_false(sim_line(0, SIM_LINE_PMBIRQ));
}

/* A PSB CSYNC after a context synchronization event synchronizes the operations before that
 * event (SPE 3.6), the sampled one in flight included: its profiling operation is complete, so
 * the next sample cannot collide with it (SPE 3.1.4). The same ops as test_collision, with an
 * ISB and PSB CSYNC after op 300 (the sample of op 257 in flight until op 557), up to op 600: the
 * sample at op 514 is taken. A PSB CSYNC with no context synchronization event after the sampled operation
 * synchronizes nothing of it, and the sample at op 514 still collides. This is what a
 * hypervisor's switch relies on: the outgoing owner's last sample never sets the next owner's
 * PMBSR_EL1.COLL. */
static void run_slow_with_barriers(bool cse)
{
	const struct sim_uop slow = { .pc = 0x2000, .latency = 300, .type = SIM_UOP_OTHER };

	t_init(1, 1);
	start(T_PMSCR_E1SPE);
	for (int i = 0; i < 600; i++) {
		if (i == 300 && cse)
			isb();
		if (i == 300)
			psb_csync();
		guest_run(&slow, 1);
	}
}

static void test_psb_after_cse_completes_sampled_op(void **state)
{
	(void)state;
	run_slow_with_barriers(true);
	assert_int_equal(sim_spe_stats(0)->collision, 0);
	assert_int_equal(sim_spe_stats(0)->feed, 2);
	isb();
	assert_int_equal(guest_read(PMBSR_EL1) & T_PMBSR_COLL, 0);

	run_slow_with_barriers(false);
	assert_int_equal(sim_spe_stats(0)->collision, 1);
	assert_int_equal(sim_spe_stats(0)->feed, 1);
}

/* The SAMPLE_* events reach the PMU (SPE 2.6, event numbers 0x4000-0x4003): counters 0-3 count
 * POP, FEED, FILTRATE, COLLISION at EL1. 771 slow ops, loads only kept by the filter (FT, LD):
 * POP 771, FEED 2, FILTRATE 0 (the samples are not loads), COLLISION 1. */
static void test_sample_events_counted(void **state)
{
	const struct sim_uop slow = { .pc = 0x2000, .latency = 300, .type = SIM_UOP_OTHER };

	(void)state;
	t_init(1, 1);
	write_sysreg(MDCR_EL2_E2PB_EL1 | 6, MDCR_EL2); /* HPMN = 6: the guest has the counters */
	guest_write(PMEVTYPER0_EL0, 0x4000);
	guest_write(PMEVTYPER1_EL0, 0x4001);
	guest_write(PMEVTYPER2_EL0, 0x4002);
	guest_write(PMEVTYPER3_EL0, 0x4003);
	guest_write(PMCNTENSET_EL0, 0xf);
	guest_write(PMCR_EL0, PMCR_E);
	t_guest_start(T_BUF_VA, LIMIT, T_PMSCR_E1SPE, (1ull << 17) | 2, T_INTERVAL_1);
	for (int i = 0; i < 771; i++)
		guest_run(&slow, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 771);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 2);
	assert_int_equal(guest_read(PMEVCNTR2_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR3_EL0), 1);
	assert_int_equal(sim_spe_stats(0)->filtrate, 0);
	assert_int_equal(sim_spe_pending(0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_record),
		cmocka_unit_test(test_store_record_all_controls),
		cmocka_unit_test(test_collection_needs_el2),
		cmocka_unit_test(test_branch_records),
		cmocka_unit_test(test_el0_sampling),
		cmocka_unit_test(test_el2_owner),
		cmocka_unit_test(test_host_el0),
		cmocka_unit_test(test_interval_counter),
		cmocka_unit_test(test_interval_random_low_byte),
		cmocka_unit_test(test_interval_ernd),
		cmocka_unit_test(test_collision),
		cmocka_unit_test(test_psb_after_cse_completes_sampled_op),
		cmocka_unit_test(test_sample_events_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
