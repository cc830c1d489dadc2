// SPDX-License-Identifier: MIT
/*
 * PMSWINC_EL0, rule by rule (Arm DDI 0487 K.a: I5.3.55 the register, D14.5 overflow, D14.8
 * CHAIN), on both of vperf's increments: the trapped partition with the state in the hardware,
 * whose counters the trap fast path reaches by index (virt/vpmu/swinc.c), and the emulated
 * partition, whose counters are reached through their placement. Each test runs its rule on
 * VM 0 (trapped) and VM 1 (emulated, two slots for four counters).
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

static int setup_swinc(void **state)
{
	struct vperf_vm_config trapped = policy(VPERF_PMU_HV, 4),
			       emulated = policy(VPERF_PMU_HV, 4);

	(void)state;
	emulated.partition = VPERF_PART_EMULATED;
	emulated.emu_slots = 2;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &trapped), VPERF_OK);
	assert_int_equal(hv_vm(1, &emulated), VPERF_OK);
	return 0;
}

/* VM vm's vCPU (vCPU slot 0, initialised again: nothing may be loaded) loaded at EL1, counters [0, 4) enabled with the given types, interrupts
 * enabled, PMCR_EL0 = pmcr. */
static struct hv_vcpu *start(unsigned int vm, const uint64_t types[4], uint64_t pmcr)
{
	struct hv_vcpu *v = hv_vcpu(0, vm);

	hv_enter(v, 0);
	guest_write(PMEVTYPER0_EL0, types[0]);
	guest_write(PMEVTYPER1_EL0, types[1]);
	guest_write(PMEVTYPER2_EL0, types[2]);
	guest_write(PMEVTYPER3_EL0, types[3]);
	guest_write(PMCNTENSET_EL0, 0xf);
	guest_write(PMINTENSET_EL1, 0xf);
	guest_write(PMCR_EL0, pmcr);
	return v;
}

static const uint64_t all_swincr[4] = { EV_SW_INCR, EV_SW_INCR, EV_SW_INCR, EV_SW_INCR };

/* The 32-bit overflow point (PMCR_EL0.LP = 0): from 0xffffffff the counter sets its flag and
 * the interrupt rises; a 64-bit counter carries into bit 32, a 32-bit one wraps to 0. Bits
 * above 31 do not hide the overflow of [31:0]. */
static void test_overflow_32(void **state)
{
	(void)state;
	for (unsigned int vm = 0; vm < 2; vm++) {
		struct hv_vcpu *v = start(vm, all_swincr, PMCR_E);

		guest_write(PMEVCNTR0_EL0, 0xfffffffeull);
		guest_write(PMSWINC_EL0, 1);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), 0xffffffffull);
		assert_int_equal(guest_read(PMOVSSET_EL0), 0);
		assert_false(v->irq_level);
		guest_write(PMSWINC_EL0, 1);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), wide() ? 0x100000000ull : 0);
		assert_int_equal(guest_read(PMOVSSET_EL0), 1);
		assert_true(v->irq_level);
		if (wide()) {
			guest_write(PMOVSCLR_EL0, 1);
			guest_write(PMEVCNTR2_EL0, 0x1ffffffffull);
			guest_write(PMSWINC_EL0, 4);
			assert_int_equal(guest_read(PMEVCNTR2_EL0), 0x200000000ull);
			assert_int_equal(guest_read(PMOVSSET_EL0), 4);
		}
		hv_leave(0);
	}
}

/* PMCR_EL0.LP = 1 (PMUv3p5): the overflow is at bit 63, not at bit 31. */
static void test_overflow_64(void **state)
{
	(void)state;
	if (!wide())
		skip();
	for (unsigned int vm = 0; vm < 2; vm++) {
		struct hv_vcpu *v = start(vm, all_swincr, PMCR_E | PMCR_LP);

		guest_write(PMEVCNTR1_EL0, 0xffffffffull);
		guest_write(PMSWINC_EL0, 2);
		assert_int_equal(guest_read(PMEVCNTR1_EL0), 0x100000000ull);
		assert_int_equal(guest_read(PMOVSSET_EL0), 0);
		assert_false(v->irq_level);
		guest_write(PMEVCNTR1_EL0, ~0ull);
		guest_write(PMSWINC_EL0, 2);
		assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
		assert_int_equal(guest_read(PMOVSSET_EL0), 2);
		assert_true(v->irq_level);
		hv_leave(0);
	}
}

/* CHAIN (D14.8): the odd counter of a pair counts its even neighbour's 32-bit overflow, only
 * while it is enabled, never for an even CHAIN counter, and not with LP = 1 (the even counter
 * is 64 bits then). */
static void test_chain(void **state)
{
	static const uint64_t types[4] = { EV_SW_INCR, EV_CHAIN, EV_SW_INCR, EV_CHAIN };
	static const uint64_t odd[4] = { EV_SW_INCR, EV_SW_INCR, EV_CHAIN, EV_SW_INCR };

	(void)state;
	for (unsigned int vm = 0; vm < 2; vm++) {
		start(vm, types, PMCR_E);
		guest_write(PMEVCNTR0_EL0, 0xffffffffull);
		guest_write(PMEVCNTR1_EL0, 7);
		guest_write(PMSWINC_EL0, 1);
		assert_int_equal(guest_read(PMEVCNTR1_EL0), 8);
		assert_int_equal(guest_read(PMOVSSET_EL0), 1);
		/* The odd counter disabled: it does not count the next overflow. */
		guest_write(PMCNTENCLR_EL0, 2);
		guest_write(PMEVCNTR0_EL0, 0xffffffffull);
		guest_write(PMSWINC_EL0, 1);
		assert_int_equal(guest_read(PMEVCNTR1_EL0), 8);
		/* The odd counter's own overflow chains nothing into counter 2. */
		hv_leave(0);
		start(vm, odd, PMCR_E);
		guest_write(PMEVCNTR1_EL0, 0xffffffffull);
		guest_write(PMEVCNTR2_EL0, 5);
		guest_write(PMSWINC_EL0, 2);
		assert_int_equal(guest_read(PMEVCNTR2_EL0), 5);
		assert_int_equal(guest_read(PMOVSSET_EL0), 2);
		hv_leave(0);
		if (!wide())
			continue;
		start(vm, types, PMCR_E | PMCR_LP);
		guest_write(PMOVSCLR_EL0, 0xf);
		guest_write(PMEVCNTR2_EL0, 0xffffffffull);
		guest_write(PMEVCNTR3_EL0, 9);
		guest_write(PMSWINC_EL0, 4);
		assert_int_equal(guest_read(PMEVCNTR2_EL0), 0x100000000ull);
		assert_int_equal(guest_read(PMEVCNTR3_EL0), 9);
		assert_int_equal(guest_read(PMOVSSET_EL0), 0);
		/* Its 64-bit overflow sets its flag and chains nothing either. */
		guest_write(PMEVCNTR2_EL0, ~0ull);
		guest_write(PMSWINC_EL0, 4);
		assert_int_equal(guest_read(PMEVCNTR2_EL0), 0);
		assert_int_equal(guest_read(PMEVCNTR3_EL0), 9);
		assert_int_equal(guest_read(PMOVSSET_EL0), 4);
		hv_leave(0);
	}
}

/* The interrupt follows PMINTENSET: an overflow whose interrupt is disabled sets the flag and
 * leaves the line low; enabling the interrupt then raises it. */
static void test_flag_without_interrupt(void **state)
{
	(void)state;
	for (unsigned int vm = 0; vm < 2; vm++) {
		struct hv_vcpu *v = start(vm, all_swincr, PMCR_E);

		guest_write(PMINTENCLR_EL1, 8);
		guest_write(PMEVCNTR3_EL0, 0xffffffffull);
		guest_write(PMSWINC_EL0, 8);
		assert_int_equal(guest_read(PMOVSSET_EL0), 8);
		assert_false(v->irq_level);
		guest_write(PMINTENSET_EL1, 8);
		assert_true(v->irq_level);
		hv_leave(0);
	}
}

/* What counts: only SW_INCR counters, enabled, with PMCR_EL0.E, whose P (EL1) or U (EL0) filter
 * admits the writer; the VM's event filter denying SW_INCR stops every increment. */
static void test_what_counts(void **state)
{
	/* Counter 2: BR_MIS_PRED, which nothing here causes. */
	static const uint64_t types[4] = { EV_SW_INCR, EV_SW_INCR | P_BIT, 0x10,
					   EV_SW_INCR | U_BIT };

	(void)state;
	for (unsigned int vm = 0; vm < 2; vm++) {
		struct vperf_pmu_filter saved = hv.vm[vm].cfg.filter;

		start(vm, types, PMCR_E);
		guest_write(PMEVCNTR2_EL0, 0);
		guest_write(PMSWINC_EL0, 0xf);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), 1);
		assert_int_equal(guest_read(PMEVCNTR1_EL0), 0); /* P: not at EL1 */
		assert_int_equal(guest_read(PMEVCNTR3_EL0), 1);
		guest_write(PMUSERENR_EL0, PMUSERENR_SW | PMUSERENR_ER);
		sim_set_el(0);
		guest_write(PMSWINC_EL0, 0xf);
		sim_set_el(1);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), 2);
		assert_int_equal(guest_read(PMEVCNTR1_EL0), 1);
		assert_int_equal(guest_read(PMEVCNTR3_EL0), 1); /* U: not at EL0 */
		guest_write(PMCNTENCLR_EL0, 1);
		guest_write(PMSWINC_EL0, 1);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), 2);
		guest_write(PMCNTENSET_EL0, 1);
		guest_write(PMCR_EL0, 0);
		guest_write(PMSWINC_EL0, 1);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), 2);
		guest_write(PMCR_EL0, PMCR_E);
		hv.vm[vm].cfg.filter.allow[0] &= ~VPERF_BIT(EV_SW_INCR);
		guest_write(PMSWINC_EL0, 1);
		hv.vm[vm].cfg.filter = saved;
		assert_int_equal(guest_read(PMEVCNTR0_EL0), 2);
		assert_int_equal(guest_read(PMEVCNTR2_EL0), 0); /* not SW_INCR */
		guest_write(PMUSERENR_EL0, 0);
		hv_leave(0);
	}
}

/*
 * CHAIN (event 0x1E) on an odd counter counts the 32-bit overflow of the even counter below it
 * only while it is enabled itself (I5.3.21, the counter enables): a software increment that
 * overflows counter 0 leaves a disabled counter 1 alone, and bumps it once enabled.
 */
static void test_swinc_chain_needs_enabled_odd(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_SW_INCR);
	guest_write(PMEVTYPER1_EL0, EV_CHAIN);
	guest_write(PMEVCNTR0_EL0, 0xffffffffull);
	guest_write(PMEVCNTR1_EL0, 5);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0) & 0xffffffffull, 0);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 5);
	guest_write(PMEVCNTR0_EL0, 0xffffffffull);
	guest_write(PMCNTENSET_EL0, 2);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 6);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * On a PMUv3p5 PE event counters are 64 bits wide; with PMCR_EL0.LP = 0 their overflow is still
 * the carry out of bit 31 (I5.3.21, PMCR_EL0.LP), whatever bits [63:32] hold: a software
 * increment of 0x1_ffffffff raises the flag. With LP = 1 the same increment does not.
 */
static void test_swinc_32bit_overflow_of_wide_counter(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct sim_pe_config model;
	struct hv_vcpu *a;

	(void)state;
	hv_default_config(&model);
	model.pmuver = 6;
	hv_init(&model, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_SW_INCR);
	guest_write(PMEVCNTR0_EL0, 0x1ffffffffull);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0x200000000ull);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	guest_write(PMOVSCLR_EL0, 1);
	guest_write(PMEVCNTR0_EL0, 0x1ffffffffull);
	guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0x200000000ull);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* PMSWINC for a VM whose filter denies SW_INCR counts nothing (the filter holds for the
 * software-emulated increment too), and PMCEID0 does not list the event. */
static void test_swinc_denied_by_filter(void **state)
{
	struct vperf_vm_config c = policy(VPERF_PMU_SELF, 3);

	(void)state;
	vperf_pmu_filter_set(&c.filter, EV_SW_INCR, false);
	assert_int_equal(hv_vm(2, &c), VPERF_OK);
	hv_enter(hv_vcpu(2, 2), 0);
	guest_write(PMEVTYPER0_EL0, EV_SW_INCR);
	guest_write(PMEVCNTR0_EL0, 0);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMSWINC_EL0, 1);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(guest_read(PMCEID0_EL0) & VPERF_BIT(EV_SW_INCR), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_overflow_32, setup_swinc),
		cmocka_unit_test_setup(test_overflow_64, setup_swinc),
		cmocka_unit_test_setup(test_chain, setup_swinc),
		cmocka_unit_test_setup(test_flag_without_interrupt, setup_swinc),
		cmocka_unit_test_setup(test_what_counts, setup_swinc),
		cmocka_unit_test(test_swinc_chain_needs_enabled_odd),
		cmocka_unit_test(test_swinc_32bit_overflow_of_wide_counter),
		cmocka_unit_test_setup(test_swinc_denied_by_filter, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
