// SPDX-License-Identifier: MIT
/*
 * Translation caching for the Profiling Buffer (SPE 3.4.4): the buffer's writes use
 * cached translations until a TLB maintenance instruction that covers them is completed by a
 * DSB. Each test runs a wrong hypervisor sequence (a stage 2 remap with missing or insufficient
 * TLB maintenance) and shows the record going to the old page with the model's report, then the
 * right sequence.
 */
#include <string.h>

#include <arch/tlb.h>

#include "cmocka_wrap.h"
#include "sim_spe_util.h"

#define LIMIT  T_BUF_LIMIT
#define NEW_PA 0x50000000ull /* where the hypervisor moves the buffer's first page */

/* The guest writes one record (the translation of page 0 is now cached) and the hypervisor
 * moves page 0 of the buffer's IPA range to NEW_PA. */
static void record_then_remap(void)
{
	t_init(1, 1);
	t_guest_start(T_BUF_VA, LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1);
	t_one_record();
	t_drain();
	assert_true(t_load_rec_at(T_BUF_PA));
	assert_int_equal(sim_mem_tlb_entries(0), 1);
	assert_int_equal(sim_mem_map_s2(T_VMID, T_BUF_IPA, NEW_PA, 0x1000, SIM_PERM_RW), VPERF_OK);
}

static void assert_stale_write(void)
{
	t_one_record();
	t_drain();
	assert_true(t_load_rec_at(T_BUF_PA + T_LOAD_REC_LEN));
	assert_false(t_load_rec_at(NEW_PA + T_LOAD_REC_LEN));
	assert_int_equal(sim_error_count(), 1);
	assert_non_null(strstr(sim_error_at(0)->what, "stale cached translation"));
}

static void assert_new_page(void)
{
	t_one_record();
	t_drain();
	assert_true(t_load_rec_at(NEW_PA + T_LOAD_REC_LEN));
	assert_false(t_load_rec_at(T_BUF_PA + T_LOAD_REC_LEN));
	assert_int_equal(sim_error_count(), 0);
}

/* Bad: remap with no TLB maintenance. Good: TLBI VMALLS12E1IS + DSB. */
static void test_remap_needs_tlbi(void **state)
{
	(void)state;
	record_then_remap();
	assert_stale_write();

	record_then_remap();
	tlbi_vmalls12e1is();
	dsb_nsh();
	assert_new_page();
}

/* Bad: the TLBI without the DSB that completes it: the invalidated entry is still used. */
static void test_tlbi_needs_dsb(void **state)
{
	(void)state;
	record_then_remap();
	tlbi_vmalls12e1is();
	assert_stale_write();
}

/* Bad: TLBI IPAS2E1IS alone: the combined stage 1 + stage 2 entry survives it. Good: followed
 * by DSB, TLBI VMALLE1IS, DSB (as KVM's __kvm_tlb_flush_vmid_ipa). */
static void test_ipa_invalidation_needs_stage1_too(void **state)
{
	(void)state;
	record_then_remap();
	tlbi_ipas2e1is(T_BUF_IPA);
	dsb_nsh();
	assert_stale_write();

	record_then_remap();
	tlbi_ipas2e1is(T_BUF_IPA);
	dsb_nsh();
	tlbi_vmalle1is();
	dsb_nsh();
	assert_new_page();
}

/* A stage 2 unmap (the hypervisor takes the page back to fault it in lazily): without TLB
 * maintenance the record still goes to the old page; with it, a stage 2 Translation fault (EC
 * 0b100101, FSC level 3) at the first byte of the record, DL 0. */
static void test_unmap_needs_tlbi(void **state)
{
	(void)state;
	record_then_remap();
	sim_mem_unmap_s2(T_VMID, T_BUF_IPA, 0x1000);
	t_one_record();
	t_drain();
	assert_true(t_load_rec_at(T_BUF_PA + T_LOAD_REC_LEN));
	assert_int_equal(sim_error_count(), 1);

	record_then_remap();
	sim_mem_unmap_s2(T_VMID, T_BUF_IPA, 0x1000);
	tlbi_vmalls12e1is();
	dsb_nsh();
	t_one_record();
	t_drain();
	assert_int_equal(guest_read(PMBSR_EL1), T_PMBSR_EC(0x25) | T_PMBSR_S | 0x7);
	assert_int_equal(guest_read(PMBPTR_EL1), T_BUF_VA + T_LOAD_REC_LEN);
	assert_int_equal(sim_error_count(), 0);
}

/* SPE 3.4.4: TLBI + DSB does not complete before the records translated with the invalidated
 * translation are written, PSB CSYNC or not. A plain DSB leaves an unsynchronized record in
 * flight. */
static void test_tlbi_dsb_completes_records(void **state)
{
	struct sim_spe_options o;

	(void)state;
	for (int tlbi = 0; tlbi < 2; tlbi++) {
		t_init(1, 1);
		sim_spe_default_options(&o);
		o.hold = 1;
		sim_spe_set_options(&o);
		t_guest_start(T_BUF_VA, LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1);
		t_one_record();
		t_one_record(); /* pushes the first one out of the queue: translated, in flight */
		assert_int_equal(sim_spe_in_flight(0), 1);
		if (tlbi)
			tlbi_vmalls12e1is();
		dsb_nsh();
		assert_int_equal(sim_spe_in_flight(0), tlbi ? 0 : 1);
		assert_int_equal(t_load_rec_at(T_BUF_PA), tlbi);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remap_needs_tlbi),
		cmocka_unit_test(test_tlbi_needs_dsb),
		cmocka_unit_test(test_ipa_invalidation_needs_stage1_too),
		cmocka_unit_test(test_unmap_needs_tlbi),
		cmocka_unit_test(test_tlbi_dsb_completes_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
