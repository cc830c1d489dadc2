// SPDX-License-Identifier: MIT
/*
 * The decisions on a hardware Profiling Buffer management event (virt/vspe/action.c), asked
 * without the sequences that perform them: whose event it is, when a stage 2 fault restarts
 * invisibly, and what the guest sees otherwise. Syndromes from PMBSR_EL1's layout (SPE 4.3.4)
 * and the DFSC encodings of ESR_ELx (Arm DDI 0487 K.a). The sequences (register writes, their
 * order against the model) are tested by test_vspe_s2own and test_vspe_s2_levels.
 */
#include "cmocka_wrap.h"

#include <vperf/spe_regs.h>

#include "vspe/action.h"

#define S2(fsc)	      (PMBSR_S | PMBSR_EC_VAL(PMBSR_EC_S2_DA) | (fsc))
#define FSC_TRANS_L3  0x07u /* Translation fault, level 3 */
#define FSC_ACCESS_L2 0x0au /* Access flag fault, level 2 */
#define FSC_PERM_L3   0x0fu /* Permission fault, level 3 */
#define FSC_ADDR_L0   0x00u /* Address size fault, level 0: mapping cannot cure it */
#define FSC_TLB_CONF  0x30u /* TLB conflict abort */

static struct vperf_vspe trapped(uint64_t guest_pmbsr)
{
	struct vperf_vspe spe = { 0 };

	spe.reg[VPERF_VSPE_PMBSR] = guest_pmbsr;
	return spe;
}

static void assert_show(struct vperf_vspe_act a, uint64_t event)
{
	assert_int_equal(a.kind, VSPE_ACT_SHOW);
	assert_int_equal(a.pmbsr, event);
}

/* Buffer full, a stage 1 fault, an external abort: the guest's own, shown as raised, whatever
 * the stage 2 state says (no mapping is asked for). */
static void test_guest_events_shown_as_raised(void **state)
{
	const uint64_t events[] = {
		PMBSR_S | PMBSR_BSC_FULL,
		PMBSR_S | PMBSR_BSC_FULL | PMBSR_DL,
		PMBSR_S | PMBSR_EC_VAL(PMBSR_EC_S1_DA) | FSC_TRANS_L3,
		PMBSR_S | PMBSR_EC_VAL(PMBSR_EC_S1_DA) | PMBSR_FSC_ALIGN | PMBSR_COLL,
		S2(FSC_TRANS_L3) | PMBSR_EA, /* stage 2 with EA: an external abort (SPE 3.5.3) */
	};
	struct vperf_vspe spe = trapped(0);

	(void)state;
	for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(events); i++) {
		assert_show(vperf_vspe_event_action(&spe, events[i], VSPE_S2_UNTRIED), events[i]);
		assert_show(vperf_vspe_event_action(&spe, events[i], VSPE_S2_MAPPED), events[i]);
	}
}

/* Translation, Access flag and Permission faults at any level, and Translation at levels -1
 * and -2, are vperf's: map first. */
static void test_mappable_stage2_asks_for_a_mapping(void **state)
{
	const uint32_t fscs[] = { 0x04,
				  FSC_TRANS_L3,
				  0x08,
				  FSC_ACCESS_L2,
				  0x0c,
				  FSC_PERM_L3,
				  PMBSR_FSC_TRANS_LM1,
				  PMBSR_FSC_TRANS_LM2 };
	struct vperf_vspe spe = trapped(0);

	(void)state;
	for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(fscs); i++)
		assert_int_equal(vperf_vspe_event_action(&spe, S2(fscs[i]), VSPE_S2_UNTRIED).kind,
				 VSPE_ACT_MAP);
}

/* A stage 2 syndrome mapping cannot cure goes to the guest as it is, never restarted. */
static void test_unmappable_stage2_shown_as_raised(void **state)
{
	const uint32_t fscs[] = { FSC_ADDR_L0, 0x03, PMBSR_FSC_SEA, FSC_TLB_CONF, 0x29 };
	struct vperf_vspe spe = trapped(0);

	(void)state;
	for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(fscs); i++)
		assert_show(vperf_vspe_event_action(&spe, S2(fscs[i]), VSPE_S2_UNTRIED),
			    S2(fscs[i]));
}

/* Mapped, nothing lost, trapped: the hardware's PMBSR_EL1 cleared, the guest's as before with
 * the hardware's COLL added (SPE 3.1.4); its EC and MSS are not the fault's. */
static void test_trapped_restart_keeps_guest_syndrome(void **state)
{
	uint64_t guest = PMBSR_EC_VAL(PMBSR_EC_S1_DA) | 0x1234u;
	struct vperf_vspe spe = trapped(guest);
	struct vperf_vspe_act a;

	(void)state;
	a = vperf_vspe_event_action(&spe, S2(FSC_TRANS_L3) | PMBSR_COLL, VSPE_S2_MAPPED);
	assert_int_equal(a.kind, VSPE_ACT_RESTART);
	assert_int_equal(a.pmbsr, 0);
	assert_int_equal(a.guest_pmbsr, guest | PMBSR_COLL);
}

/* Mapped, nothing lost, untrapped: the guest reads the hardware's PMBSR_EL1, so it is written
 * with the guest's EC and MSS (which the fault replaced) and the hardware's COLL and EA, S = 0. */
static void test_direct_restart_writes_guest_view(void **state)
{
	uint64_t guest = PMBSR_EC_VAL(PMBSR_EC_S1_DA) | 0x21u;
	struct vperf_vspe spe = trapped(guest);
	struct vperf_vspe_act a;

	(void)state;
	spe.direct = true;
	a = vperf_vspe_event_action(&spe, S2(FSC_PERM_L3) | PMBSR_COLL, VSPE_S2_MAPPED);
	assert_int_equal(a.kind, VSPE_ACT_RESTART);
	assert_int_equal(a.pmbsr, guest | PMBSR_COLL);
	assert_int_equal(a.guest_pmbsr, guest);
}

/* Mapped with data lost (DL = 1): a truncation, a buffer full event with DL and COLL kept. */
static void test_mapped_with_data_lost_is_truncation(void **state)
{
	struct vperf_vspe spe = trapped(0);

	(void)state;
	assert_show(vperf_vspe_event_action(&spe, S2(FSC_TRANS_L3) | PMBSR_DL | PMBSR_COLL,
					    VSPE_S2_MAPPED),
		    PMBSR_BSC_FULL | PMBSR_DL | PMBSR_COLL);
}

/* Not the VM's memory: an external abort on the write, as for a bad address of its own
 * (SPE 3.5.4), DL and COLL kept. */
static void test_unmappable_address_is_external_abort(void **state)
{
	struct vperf_vspe spe = trapped(0);

	(void)state;
	assert_show(vperf_vspe_event_action(&spe, S2(FSC_TRANS_L3) | PMBSR_DL, VSPE_S2_UNMAPPABLE),
		    PMBSR_DL | PMBSR_EA | PMBSR_EC_VAL(PMBSR_EC_S1_DA) | PMBSR_FSC_SEA);
	assert_show(
		vperf_vspe_event_action(&spe, S2(FSC_TRANS_L3) | PMBSR_COLL, VSPE_S2_UNMAPPABLE),
		PMBSR_COLL | PMBSR_EA | PMBSR_EC_VAL(PMBSR_EC_S1_DA) | PMBSR_FSC_SEA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guest_events_shown_as_raised),
		cmocka_unit_test(test_mappable_stage2_asks_for_a_mapping),
		cmocka_unit_test(test_unmappable_stage2_shown_as_raised),
		cmocka_unit_test(test_trapped_restart_keeps_guest_syndrome),
		cmocka_unit_test(test_direct_restart_writes_guest_view),
		cmocka_unit_test(test_mapped_with_data_lost_is_truncation),
		cmocka_unit_test(test_unmappable_address_is_external_abort),
	};

	return cmocka_run_group_tests_name("vspe_event_action", tests, NULL, NULL);
}
