// SPDX-License-Identifier: MIT
/*
 * The adversary (SPE 3.6, 3.6.1): each test runs a wrong hypervisor or guest sequence
 * and shows what goes wrong, then the right sequence and shows that it works.
 *   - reading PMBPTR_EL1 without PSB CSYNC + DSB gives a stale pointer;
 *   - PSB CSYNC only synchronizes operations before a context synchronization event;
 *   - records reach memory only at the DSB after PSB CSYNC: a switch-out without it fails;
 *   - disabling the buffer before draining it loses records (each UNPREDICTABLE outcome);
 *   - switching stage 2 (VMID) or the owning EL before the DSB puts records in the wrong place,
 *     and the model reports it;
 *   - direct writes of PMSCR_EL1 and PMBSR_EL1 reach the profiling operation only after a
 *     context synchronization event.
 */
#include <string.h>

#include "cmocka_wrap.h"
#include "sim_spe_util.h"

#define LIMIT	 T_BUF_LIMIT
#define VM2	 2
#define VM2_PA	 0x48000000ull
#define TWO_RECS (2 * T_LOAD_REC_LEN)

static void records(unsigned int n)
{
	struct sim_uop ld = t_load(0x400000, 0x12345678, 20);

	for (unsigned int i = 0; i < n; i++)
		t_run_sampling(&t_filler, 256, &ld);
}

static void start(void)
{
	t_guest_start(T_BUF_VA, LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1);
}

/* A fresh SPEv1 PE, the guest profiling into its buffer, n records collected (still in the
 * SPU: nothing synchronized them). */
static void start_with_records(unsigned int n)
{
	t_init(1, 1);
	start();
	records(n);
}

/* Bytes [0, n) of the buffer hold n / 35 load records and the byte after is zero. */
static bool buffer_holds(uint64_t pa, unsigned int nrec)
{
	uint8_t got[4 * T_LOAD_REC_LEN + 1];

	sim_mem_read(pa, got, nrec * T_LOAD_REC_LEN + 1);
	for (unsigned int i = 0; i < nrec; i++)
		if (memcmp(got + i * T_LOAD_REC_LEN, t_load_rec, T_LOAD_REC_LEN))
			return false;
	return got[nrec * T_LOAD_REC_LEN] == 0;
}

/* Bad: the hypervisor enters (a context synchronization event) and reads PMBPTR_EL1 directly:
 * the three records are still in the SPU, the pointer is where it started and memory is empty.
 * Good: PSB CSYNC then DSB, then the read. */
static void test_stale_pmbptr(void **state)
{
	(void)state;
	start_with_records(3);
	isb(); /* exception entry */
	assert_int_equal(read_sysreg(PMBPTR_EL1), T_BUF_VA);
	assert_true(buffer_holds(T_BUF_PA, 0));
	assert_int_equal(sim_spe_pending(0), 3);
	psb_csync();
	dsb_nsh();
	isb();
	assert_int_equal(read_sysreg(PMBPTR_EL1), T_BUF_VA + 3 * T_LOAD_REC_LEN);
	assert_true(buffer_holds(T_BUF_PA, 3));
	assert_int_equal(sim_error_count(), 0);
}

/* PSB CSYNC, DSB, read: the records are processed and in memory, but the direct read needs
 * the context synchronization event after the PSB CSYNC to see the pointer move (SPE 3.6). */
static void test_read_needs_isb_after_psb(void **state)
{
	(void)state;
	start_with_records(3);
	isb(); /* exception entry */
	psb_csync();
	dsb_nsh();
	assert_true(buffer_holds(T_BUF_PA, 3));
	assert_int_equal(read_sysreg(PMBPTR_EL1), T_BUF_VA);
	isb();
	assert_int_equal(read_sysreg(PMBPTR_EL1), T_BUF_VA + 3 * T_LOAD_REC_LEN);
	assert_int_equal(sim_error_count(), 0);
}

/* PSB CSYNC synchronizes only the operations before the last context synchronization event:
 * without the ISB (or exception entry) before it, the DSB waits for nothing. PSB CSYNC and a
 * context synchronization event are enough for the direct read of PMBPTR_EL1 (SPE 3.4.1), but not
 * for the bytes below it: only the DSB completes the writes (SPE 3.6). */
static void test_psb_needs_prior_context_sync(void **state)
{
	(void)state;
	start_with_records(2);
	psb_csync();
	dsb_nsh();
	isb();
	assert_int_equal(read_sysreg(PMBPTR_EL1), T_BUF_VA);
	isb();
	psb_csync();
	isb();
	assert_int_equal(read_sysreg(PMBPTR_EL1), T_BUF_VA + TWO_RECS);
	assert_true(buffer_holds(T_BUF_PA, 0));
	assert_int_equal(sim_spe_in_flight(0), 2);
	dsb_nsh();
	assert_true(buffer_holds(T_BUF_PA, 2));
	assert_int_equal(sim_spe_in_flight(0), 0);
}

/* VM 1's vCPU is switched out (vperf's sequence, docs/vspe.md) and VM 2's stage 2 comes
 * in; dsb says whether the DSB NSH after PSB CSYNC is there. */
static void switch_out(bool dsb)
{
	isb(); /* exception entry */
	psb_csync();
	if (dsb)
		dsb_nsh();
	isb();
	assert_int_equal(read_sysreg(PMBPTR_EL1), T_BUF_VA + TWO_RECS);
	write_sysreg(0, PMBLIMITR_EL1);
	isb();
	sim_mem_set_vmid(0, VM2);
}

/* Bad: no DSB NSH at switch-out. The saved pointer is right, but VM 1's two records are still
 * in flight when VM 2's stage 2 is switched in: the model reports it, and VM 1's memory does
 * not hold what its saved PMBPTR_EL1 claims. Good: PSB CSYNC -> DSB NSH -> ISB -> read. */
static void test_switch_out_needs_dsb(void **state)
{
	(void)state;
	start_with_records(2);
	switch_out(false);
	assert_int_equal(sim_error_count(), 1);
	assert_non_null(strstr(sim_error_at(0)->what, "VMID"));
	assert_true(buffer_holds(T_BUF_PA, 0));

	start_with_records(2);
	switch_out(true);
	assert_int_equal(sim_error_count(), 0);
	assert_true(buffer_holds(T_BUF_PA, 2));
}

/* With the seed picking when each record lands (at once, or at the DSB), the switch-out without
 * the DSB finds VM 1's memory complete for some seeds and not for others: it cannot pass by
 * luck, and the model reports every seed where a record was still in flight. The right sequence
 * passes for every seed. */
static void test_land_seed(void **state)
{
	struct sim_spe_options o;
	unsigned int complete = 0, missing = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 16; seed++) {
		for (int dsb = 0; dsb < 2; dsb++) {
			t_init(1, seed);
			sim_spe_default_options(&o);
			o.land = SIM_SPE_LAND_SEED;
			sim_spe_set_options(&o);
			start();
			records(2);
			switch_out(dsb);
			if (dsb) {
				assert_int_equal(sim_error_count(), 0);
				assert_true(buffer_holds(T_BUF_PA, 2));
				continue;
			}
			complete += buffer_holds(T_BUF_PA, 2);
			missing += sim_error_count() == 1;
			assert_int_equal(sim_error_count(), buffer_holds(T_BUF_PA, 2) ? 0 : 1);
		}
	}
	assert_true(complete > 0 && missing > 0);
}

/* Bad: PMBLIMITR_EL1 = 0 and ISB before draining. ProfilingBufferEnabled() turns FALSE with
 * two records unwritten; each outcome of SPE 3.6.1 in turn. */
static void test_disable_before_drain(void **state)
{
	(void)state;
	/* Silently discarded: nothing in memory, the pointer unmoved, no event. */
	t_init(1, 1);
	t_set_unpred(SIM_SPE_UNPRED_DISCARD);
	start();
	records(2);
	isb();
	write_sysreg(0, PMBLIMITR_EL1);
	isb();
	psb_csync();
	dsb_nsh();
	assert_true(buffer_holds(T_BUF_PA, 0));
	assert_int_equal(read_sysreg(PMBPTR_EL1), T_BUF_VA);
	assert_int_equal(read_sysreg(PMBSR_EL1), 0);
	assert_int_equal(sim_spe_stats(0)->discarded, 2);
	/* Discarded with a management event: S, DL, EC 0, BSC 0, and PMBIRQ. */
	t_init(1, 1);
	t_set_unpred(SIM_SPE_UNPRED_DL);
	start();
	records(2);
	isb();
	write_sysreg(0, PMBLIMITR_EL1);
	isb();
	assert_int_equal(read_sysreg(PMBSR_EL1), 0xa0000);
	assert_true(sim_line(0, SIM_LINE_PMBIRQ));
	assert_true(buffer_holds(T_BUF_PA, 0));
	/* Written: the lucky outcome. */
	t_init(1, 1);
	t_set_unpred(SIM_SPE_UNPRED_WRITE);
	start();
	records(2);
	isb();
	write_sysreg(0, PMBLIMITR_EL1);
	isb();
	assert_true(buffer_holds(T_BUF_PA, 2));
}

/* Good: PSB CSYNC and DSB before PMBLIMITR_EL1 = 0: both records land whatever the outcome the
 * model would pick, and nothing is signalled. */
static void test_drain_then_disable(void **state)
{
	static const enum sim_spe_unpred all[] = { SIM_SPE_UNPRED_DISCARD, SIM_SPE_UNPRED_DL,
						   SIM_SPE_UNPRED_WRITE, SIM_SPE_UNPRED_SEED };

	(void)state;
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(all); i++) {
		t_init(1, 1);
		t_set_unpred(all[i]);
		start();
		records(2);
		isb();
		psb_csync();
		dsb_nsh();
		write_sysreg(0, PMBLIMITR_EL1);
		isb();
		assert_true(buffer_holds(T_BUF_PA, 2));
		assert_int_equal(read_sysreg(PMBSR_EL1), 0);
		assert_false(sim_line(0, SIM_LINE_PMBIRQ));
	}
}

/* With the seed choosing, a hypervisor that disables before draining sees all three outcomes
 * across seeds: it cannot pass by luck. */
static void test_seed_picks_every_outcome(void **state)
{
	bool lost = false, signalled = false, written = false;

	(void)state;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		t_init(1, seed);
		start();
		records(1);
		isb();
		write_sysreg(0, PMBLIMITR_EL1);
		isb();
		if (read_sysreg(PMBSR_EL1) == 0xa0000)
			signalled = true;
		else if (buffer_holds(T_BUF_PA, 1))
			written = true;
		else if (buffer_holds(T_BUF_PA, 0))
			lost = true;
	}
	assert_true(lost && signalled && written);
}

/* VM 2 maps the same buffer VA to its own memory. */
static void map_vm2(void)
{
	assert_int_equal(
		sim_mem_map_s1(SIM_REGIME_EL10, VM2, T_BUF_VA, T_BUF_IPA, T_BUF_SIZE, SIM_PERM_RW),
		VPERF_OK);
	assert_int_equal(sim_mem_map_s2(VM2, T_BUF_IPA, VM2_PA, T_BUF_SIZE, SIM_PERM_RW), VPERF_OK);
}

/* A fresh PE with VM 2 mapped too; VM 1's guest collected two records, synchronized by ISB and
 * PSB CSYNC but not yet written (no DSB). */
static void vm2_mapped_two_records_synced(void)
{
	t_init(1, 1);
	map_vm2();
	start();
	records(2);
	isb();
	psb_csync();
}

/* Bad: PSB CSYNC, then the stage 2 switch (VMID 2), then the DSB: the model reports the switch
 * with records not written, and processes them with the new VMID (the outcome that shows the
 * missing drain most clearly): they land in VM 2's memory. Good: the DSB first. */
static void test_stage2_switch_before_dsb(void **state)
{
	(void)state;
	vm2_mapped_two_records_synced();
	sim_mem_set_vmid(0, VM2);
	dsb_nsh();
	assert_true(buffer_holds(VM2_PA, 2));
	assert_true(buffer_holds(T_BUF_PA, 0));
	assert_int_equal(sim_error_count(), 1);
	assert_non_null(strstr(sim_error_at(0)->what, "another VM"));

	vm2_mapped_two_records_synced();
	dsb_nsh();
	sim_mem_set_vmid(0, VM2);
	assert_true(buffer_holds(T_BUF_PA, 2));
	assert_true(buffer_holds(VM2_PA, 0));
	assert_int_equal(sim_error_count(), 0);
}

/* Bad: MDCR_EL2.E2PB switched to EL2 ownership before the drain: the guest's record goes
 * through the EL2 regime (where nothing is mapped: a fault), and the model reports it. */
static void test_owner_switch_before_drain(void **state)
{
	(void)state;
	start_with_records(1);
	isb();
	write_sysreg(MDCR_EL2_E2PB_EL2, MDCR_EL2);
	isb();
	psb_csync();
	dsb_nsh();
	assert_int_equal(sim_error_count(), 1);
	assert_non_null(strstr(sim_error_at(0)->what, "owning Exception level"));
	assert_true(buffer_holds(T_BUF_PA, 0));

	start_with_records(1);
	isb();
	psb_csync();
	dsb_nsh();
	write_sysreg(MDCR_EL2_E2PB_EL2, MDCR_EL2);
	isb();
	assert_int_equal(sim_error_count(), 0);
	assert_true(buffer_holds(T_BUF_PA, 1));
}

/* A direct write of PMSCR_EL1 reaches the profiling operation's indirect reads only after a
 * context synchronization event (SPE 3.6): enabling without it samples nothing, disabling without
 * it keeps sampling. */
static void test_pmscr_needs_context_sync(void **state)
{
	(void)state;
	t_init(1, 1);
	guest_write(PMBPTR_EL1, T_BUF_VA);
	guest_write(PMBLIMITR_EL1, LIMIT | T_PMBLIMITR_E);
	guest_write(PMSIRR_EL1, T_INTERVAL_1);
	isb();
	guest_write(PMSCR_EL1, T_PMSCR_E1SPE);
	records(1);
	assert_int_equal(sim_spe_stats(0)->pop, 0);
	isb();
	records(1);
	assert_int_equal(sim_spe_stats(0)->pop, 257);
	guest_write(PMSCR_EL1, 0);
	records(1);
	assert_int_equal(sim_spe_stats(0)->pop, 2 * 257);
	assert_int_equal(sim_spe_stats(0)->feed, 2);
	isb();
	records(1);
	assert_int_equal(sim_spe_stats(0)->pop, 2 * 257);
}

/* After a buffer management event, the guest clears PMBSR_EL1.S: PMBIRQ drops at once, but
 * profiling restarts only after a context synchronization event. */
static void test_pmbsr_clear_needs_context_sync(void **state)
{
	(void)state;
	t_init(1, 1);
	t_guest_start(LIMIT - 98, LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1);
	records(1);
	isb();
	psb_csync();
	dsb_nsh();
	assert_true(sim_line(0, SIM_LINE_PMBIRQ));
	guest_write(PMBPTR_EL1, T_BUF_VA);
	guest_write(PMBSR_EL1, 0);
	assert_false(sim_line(0, SIM_LINE_PMBIRQ));
	records(1);
	assert_int_equal(sim_spe_stats(0)->pop, 257);
	isb();
	records(1);
	assert_int_equal(sim_spe_stats(0)->pop, 2 * 257);
	isb();
	psb_csync();
	dsb_nsh();
	isb();
	assert_int_equal(guest_read(PMBPTR_EL1), T_BUF_VA + T_LOAD_REC_LEN);
}

/* The SPU holds at most "hold" records: with hold = 1 every new record pushes the previous
 * one out of the queue, with no barrier at all: PMBPTR_EL1 moves, the bytes stay in flight
 * until the DSB. */
static void test_hold_limit(void **state)
{
	struct sim_spe_options o;

	(void)state;
	t_init(1, 1);
	sim_spe_default_options(&o);
	o.hold = 1;
	sim_spe_set_options(&o);
	start();
	records(3);
	assert_int_equal(sim_spe_pending(0), 1);
	assert_int_equal(sim_spe_stats(0)->written, 2);
	assert_int_equal(sim_spe_in_flight(0), 2);
	assert_true(buffer_holds(T_BUF_PA, 0));
	isb();
	psb_csync();
	dsb_nsh();
	assert_true(buffer_holds(T_BUF_PA, 3));
	assert_int_equal(sim_spe_stats(0)->landed, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stale_pmbptr),
		cmocka_unit_test(test_read_needs_isb_after_psb),
		cmocka_unit_test(test_psb_needs_prior_context_sync),
		cmocka_unit_test(test_switch_out_needs_dsb),
		cmocka_unit_test(test_land_seed),
		cmocka_unit_test(test_disable_before_drain),
		cmocka_unit_test(test_drain_then_disable),
		cmocka_unit_test(test_seed_picks_every_outcome),
		cmocka_unit_test(test_stage2_switch_before_dsb),
		cmocka_unit_test(test_owner_switch_before_drain),
		cmocka_unit_test(test_pmscr_needs_context_sync),
		cmocka_unit_test(test_pmbsr_clear_needs_context_sync),
		cmocka_unit_test(test_hold_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
