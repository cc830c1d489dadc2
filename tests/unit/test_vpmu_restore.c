// SPDX-License-Identifier: MIT
/*
 * A vCPU's types restored into the hardware in one batch (virt/vpmu/switch.c restore(), after
 * another VM's vCPU took the counters on the same pCPU, or on another pCPU after a migration)
 * get the same filtering as a type the guest writes while loaded (Arm DDI 0487 K.a, I5.3.30,
 * PMEVTYPER<n>_EL0), judged by what the model's counters count afterwards:
 *   - on a PE with EL3, neither the Secure world nor EL3 counts into a guest's counter;
 *   - a XENPMU_MODE_ALL guest's counter counts EL2 too (NSH = !P);
 *   - a denied event does not count for a direct-partition guest whose types trap through
 *     FEAT_FGT, where the hardware holds the filtered copy, not what the guest wrote.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/esr.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

/* Another VM's vCPU takes the counters of pCPU cpu (a PMU access brings its state in), then vc
 * runs there again: its state is restored from the shadow at its load (its PMU is active). */
static void other_owner_between(struct hv_vcpu *vc, struct hv_vcpu *other, unsigned int cpu)
{
	hv_enter(other, cpu);
	guest_write(PMCR_EL0, 0);
	hv_enter(vc, cpu);
}

/* The two ways a's state comes back from its shadow: step 0, loaded again on pCPU 0 after b owned
 * the counters there; step 1, migrated to pCPU 1. */
static void restore_step(struct hv_vcpu *a, struct hv_vcpu *b, unsigned int step)
{
	if (step == 0) {
		other_owner_between(a, b, 0);
	} else {
		hv_leave(0);
		hv_enter(a, 1);
	}
}

/* Four ops each in Secure EL0, Secure EL1 and EL3 while the vCPU is loaded. */
static void run_secure_world(void)
{
	for (unsigned int el = 0; el < 4; el++)
		for (unsigned int i = 0; el != 2 && i < 4; i++)
			sim_run_secure(el, &op3, 1);
}

/* The Secure world may count (MDCR_EL3.SPME): a guest counter with P = U = 0 counts its own
 * Non-secure EL1 and EL0 only, restored by another owner's departure or by a migration. */
static void test_restored_type_not_secure(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config c0 = policy(VPERF_PMU_SELF, 3), c1 = policy(VPERF_PMU_HV, 4);
	struct hv_vcpu *a, *b;
	uint64_t v;

	(void)state;
	hv_default_config(&cfg);
	cfg.el3 = true;
	cfg.mdcr_el3_spme = true;
	cfg.el2_trap_cycles = 0;
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &c0), VPERF_OK);
	assert_int_equal(hv_vm(1, &c1), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_INST);
	guest_write(PMEVTYPER1_EL0, EV_CYCLES);
	guest_write(PMCNTENSET_EL0, 3);
	guest_write(PMCR_EL0, PMCR_E);
	for (unsigned int step = 0; step < 2; step++) {
		restore_step(a, b, step);
		v = guest_read(PMEVCNTR0_EL0);
		run_secure_world();
		assert_int_equal(guest_read(PMEVCNTR0_EL0), v);
		v = guest_read(PMEVCNTR1_EL0);
		run_secure_world();
		assert_int_equal(guest_read(PMEVCNTR1_EL0), v);
		hv_run_n(&op3, 5);
		assert_int_equal(guest_read(PMEVCNTR1_EL0), v + 15);
	}
	assert_int_equal(sim_error_count(), 0);
}

/* XENPMU_MODE_ALL profiles the hypervisor too: restored after a SELF VM's vCPU took the
 * counters, its P = 0 counter still counts EL2 (each trap costs the model 20 EL2 cycles). */
static void test_restored_all_type_counts_el2(void **state)
{
	struct vperf_vm_config all = policy(VPERF_PMU_ALL, 2);
	struct hv_vcpu *a, *b;
	uint64_t v;

	assert_int_equal(setup(state), 0);
	assert_int_equal(hv_vm(2, &all), VPERF_OK);
	a = hv_vcpu(2, 2);
	b = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	other_owner_between(a, b, 0);
	assert_int_equal(hw_evtyper(0) & NSH_BIT, NSH_BIT);
	v = guest_read(PMEVCNTR0_EL0);
	hv_run_n(&op3, 10);
	/* This read's own trap adds 20 EL2 cycles before the counter is read. */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), v + 30 + 20);
	assert_int_equal(sim_error_count(), 0);
}

/* FEAT_FGT: VM 0 direct with INST_RETIRED denied (its types trap), VM 1 trapped. */
static int setup_fgt(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PMU_SELF, 2),
			       trapped = policy(VPERF_PMU_SELF, 2);

	(void)state;
	hv_default_config(&cfg);
	cfg.fgt = true;
	hv_init(&cfg, 2);
	direct.partition = VPERF_PART_DIRECT;
	vperf_pmu_filter_set(&direct.filter, EV_INST, false);
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	assert_int_equal(hv_vm(1, &trapped), VPERF_OK);
	return 0;
}

/* The direct guest's denied type, restored by another owner's departure or a migration, is
 * the filtered copy the trapped write gave the hardware: it counts nothing, while the allowed
 * one counts and the guest reads back what it wrote. */
static void test_restored_denied_type_direct_fgt(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 1);
	uint64_t filtered;

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMEVTYPER1_EL0, EV_INST);
	guest_write(PMEVCNTR0_EL0, 0);
	guest_write(PMEVCNTR1_EL0, 0);
	guest_write(PMCNTENSET_EL0, 3);
	guest_write(PMCR_EL0, PMCR_E);
	filtered = hw_evtyper(1);
	assert_int_not_equal(filtered, EV_INST);
	for (unsigned int step = 0; step < 2; step++) {
		restore_step(a, b, step);
		assert_int_equal(hw_evtyper(1), filtered);
		hv_run_n(&op3, 10);
		assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), 30 * (step + 1));
		assert_int_equal(guest_read(PMEVTYPER1_EL0), EV_INST);
	}
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The cycle counter's filter is the guest's after a restore: another guest's PMCCFILTR_EL0 in the
 * hardware meanwhile is replaced by the value vperf programmed for this guest (I5.3.2). Kills
 * "restore keeps the previous owner's PMCCFILTR_EL0".
 */
static void test_restore_brings_back_ccfiltr(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a, *b;
	uint64_t mine;

	(void)state;
	init_model(6, true, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMCCFILTR_EL0, U_BIT); /* not EL0 */
	mine = sim_peek(0, VPERF_ENC_PMCCFILTR_EL0);
	hv_leave(0);
	hv_enter(b, 0);
	guest_write(PMCCFILTR_EL0, P_BIT); /* not EL1 */
	assert_true(sim_peek(0, VPERF_ENC_PMCCFILTR_EL0) != mine);
	hv_leave(0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCCFILTR_EL0), U_BIT);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCFILTR_EL0), mine);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restored_type_not_secure),
		cmocka_unit_test(test_restored_all_type_counts_el2),
		cmocka_unit_test_setup(test_restored_denied_type_direct_fgt, setup_fgt),
		cmocka_unit_test(test_restore_brings_back_ccfiltr),
	};

	return cmocka_run_group_tests_name("vpmu_restore", tests, NULL, NULL);
}
