// SPDX-License-Identifier: MIT
/*
 * vperf_pcpu_down(): a pCPU that powers down (a PSCI power-down state, offline) comes back with
 * its PMU registers UNKNOWN (the model's sim_power_cycle: seeded garbage, MDCR_EL2 as boot
 * code leaves it). What the guest wrote must be in the hardware again at its next load there,
 * whatever put it last (lazy, eager, the direct partition's): its types and the cycle counter's
 * filter too, which a vCPU back to its own hardware copy does not write again. A put vCPU that
 * comes back after a vperf_pcpu_flush() alone would find garbage: that is what _down() is for.
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

#define FILT_PU (PMEVTYPER_P | PMEVTYPER_U)

static int setup_lazy(void **state)
{
	(void)state;
	lazy_vms(1);
	return 0;
}

/* Types with P and U (EL1 and EL0 not counted), the cycle counter's too; counters at values of
 * their own, every counter enabled, PMCR_EL0.E. */
static void program(uint64_t base)
{
	guest_write(PMEVTYPER0_EL0, EV_CYCLES | FILT_PU);
	guest_write(PMEVTYPER1_EL0, EV_INST | FILT_PU);
	guest_write(PMCCFILTR_EL0, FILT_PU);
	guest_write(PMEVCNTR0_EL0, base);
	guest_write(PMEVCNTR1_EL0, base + 1);
	guest_write(PMCCNTR_EL0, base + 4);
	guest_write(PMCNTENSET_EL0, 0x80000003ull);
	guest_write(PMCR_EL0, PMCR_E);
}

/* The pCPU goes down with what vperf asks of the hypervisor first, and comes back. */
static void power_down(unsigned int cpu)
{
	hv_power_down(cpu);
	sim_set_cpu(0);
}

/* The guest's view and the hardware's after the vCPU is back on pCPU 0: the values it left, its
 * filters in the hardware (P and U: the guest's EL1 run counts nothing). */
static void assert_kept(uint64_t base)
{
	assert_int_equal(guest_read(PMCCFILTR_EL0), FILT_PU);
	assert_int_equal(guest_read(PMEVTYPER1_EL0) & 0xffff, EV_INST);
	assert_int_equal(sim_peek(0, SIM_ENC_PMCCFILTR_EL0) & FILT_PU, FILT_PU);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), base);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), base + 1);
	assert_int_equal(guest_read(PMCCNTR_EL0), base + 4);
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0x80000003ull);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), base);
	assert_int_equal(guest_read(PMCCNTR_EL0), base + 4);
	assert_int_equal(sim_error_count(), 0);
}

/* A lazy put parked the counters; the pCPU powers down; the vCPU comes back to it. */
static void test_down_after_lazy_put(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	program(1000);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&a->v));
	power_down(0);
	assert_false(vperf_vcpu_parked(&a->v));
	assert_null(hv.pcpu[0].pmu_owner);
	hv_enter(a, 0);
	assert_kept(1000);
}

/* An eager put (the vCPU left for pCPU 1 and came back: hv's mixed puts), then the power-down:
 * the hardware copy an eager put leaves valid dies with the context too. */
static void test_down_after_eager_put(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint64_t ccfiltr, evtyper1;

	(void)state;
	hv_enter(a, 0);
	program(2000);
	hv.lazy_put = false;
	hv_leave(0);
	hv.lazy_put = true;
	assert_false(vperf_vcpu_parked(&a->v));
	assert_ptr_equal(hv.pcpu[0].pmu_owner, &a->v);
	ccfiltr = sim_peek(0, SIM_ENC_PMCCFILTR_EL0);
	evtyper1 = hw_evtyper(1);
	power_down(0);
	assert_null(hv.pcpu[0].pmu_owner);
	/* The model's power cycle lost them (UNKNOWN): what assert_kept finds, vperf restored. */
	assert_int_not_equal(sim_peek(0, SIM_ENC_PMCCFILTR_EL0), ccfiltr);
	assert_int_not_equal(hw_evtyper(1), evtyper1);
	hv_enter(a, 0);
	assert_kept(2000);
}

/* Nothing of a guest's there: the down changes nothing, and a vCPU loaded after starts clean. */
static void test_down_with_nothing_there(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	power_down(0);
	hv_enter(a, 0);
	program(3000);
	hv_leave(0);
	power_down(0);
	power_down(0);
	hv_enter(a, 0);
	assert_kept(3000);
}

/* The second range (VPERF_PART_SECOND: the host keeps the first range, at EL1): a quick lazy
 * put leaves the pCPU's resume token, the load back's promise that nothing changed there. The
 * down takes it, or that load resumes the garbage the power-down left in the guest's counters. */
static void test_down_after_quick_put(void **state)
{
	struct vperf_vm_config c = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;

	(void)state;
	el1_host_world();
	c.partition = VPERF_PART_SECOND;
	/* Offered from PMUv3p5 with PMCR_EL0.LC RES1 (no AArch32 at EL0): test_vpmu_second.c. */
	if (hv.model.pmuver < 6 || hv.model.aarch32_el0) {
		assert_int_equal(hv_vm(0, &c), VPERF_EINVAL);
		return;
	}
	assert_int_equal(hv_vm(0, &c), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	hv.lazy_put = true;
	guest_write(PMEVTYPER0_EL0, EV_CYCLES | FILT_PU);
	guest_write(PMEVTYPER1_EL0, EV_INST | FILT_PU);
	guest_write(PMCCFILTR_EL0, FILT_PU);
	guest_write(PMEVCNTR0_EL0, 4000);
	guest_write(PMEVCNTR1_EL0, 4001);
	guest_write(PMCCNTR_EL0, 4004);
	guest_write(PMCNTENSET_EL0, 0x80000003ull);
	guest_write(PMCR_EL0, PMCR_E);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&a->v));
	assert_ptr_equal(hv.pcpu[0].resume, &a->v); /* the quick put */
	power_down(0);
	assert_false(vperf_vcpu_parked(&a->v));
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 4000);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 4001);
	assert_int_equal(guest_read(PMCCNTR_EL0), 4004);
	assert_int_equal(guest_read(PMCCFILTR_EL0), FILT_PU);
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0x80000003ull);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 4000);
	assert_int_equal(guest_read(PMCCNTR_EL0), 4004);
	assert_int_equal(sim_error_count(), 0);
}

/* Counter 0 counts cycles from 0, enabled, PMCR_EL0.E; 30 cycles run. */
static void count_cycles(void)
{
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMEVCNTR0_EL0, 0);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
}

/* XENPMU_MODE_ALL: the privileged VM's counters go on counting after its put (whoever runs next,
 * here an OFF VM). Its hardware copy dies at the power-down: the down saves what they counted
 * since the put, and its next load restores that, not the value its put saved. */
static void test_down_keeps_all_counts(void **state)
{
	struct vperf_vm_config all = policy(VPERF_PMU_ALL, 2), off = { .pmu_mode = VPERF_PMU_OFF };
	struct hv_vcpu *a, *b;
	uint64_t at_put;

	(void)state;
	assert_int_equal(hv_vm(1, &all), VPERF_OK);
	assert_int_equal(hv_vm(2, &off), VPERF_OK);
	a = hv_vcpu(0, 1);
	b = hv_vcpu(1, 2);
	hv_enter(a, 0);
	count_cycles();
	at_put = guest_read(PMEVCNTR0_EL0);
	hv_enter(b, 0);
	hv_run_n(&op3, 100); /* 300 cycles of the OFF VM, counted by a's counter */
	hv_leave(0);
	power_down(0);
	assert_null(hv.pcpu[0].pmu_owner);
	hv_enter(a, 0);
	assert_true(guest_read(PMEVCNTR0_EL0) >= at_put + 300);
	assert_int_equal(sim_error_count(), 0);
}

/* An XENPMU_MODE_ALL vCPU that counted on pCPU 0, then moved to pCPU 1 and counted more there:
 * pCPU 0 still names it its owner, its counters there older than its shadow. pCPU 0's power-down
 * must not copy them over the shadow (the counts made on pCPU 1 lost). */
static void test_down_after_all_moved(void **state)
{
	struct vperf_vm_config all = policy(VPERF_PMU_ALL, 2);
	struct hv_vcpu *a;
	uint64_t at_put;

	(void)state;
	assert_int_equal(hv_vm(1, &all), VPERF_OK);
	a = hv_vcpu(0, 1);
	hv_enter(a, 0);
	count_cycles();
	hv.lazy_put = false; /* it moves: eager puts, its state in its shadow after each */
	hv_leave(0);
	hv_enter(a, 1);
	hv_run_n(&op3, 1000);
	at_put = guest_read(PMEVCNTR0_EL0);
	hv_leave(1);
	power_down(0);
	hv_enter(a, 0); /* restored from its shadow: pCPU 0 has no owner now */
	hv.lazy_put = true;
	assert_true(guest_read(PMEVCNTR0_EL0) >= at_put);
	assert_int_equal(sim_error_count(), 0);
}

/* Asked with a vCPU loaded, which it would take the hardware from: refused, counted, logged. */
static void test_down_while_loaded(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint64_t misuse;

	(void)state;
	hv_enter(a, 0);
	program(4000);
	misuse = hv.pcpu[0].stats.misuse;
	sim_enter_el2(0);
	vperf_pcpu_down(&hv.pcpu[0]);
	sim_exit_el2(0);
	assert_int_equal(hv.pcpu[0].stats.misuse, misuse + 1);
	assert_ptr_equal(hv.pcpu[0].pmu_owner, &a->v);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 4000);
	assert_int_equal(guest_read(PMCCFILTR_EL0), FILT_PU);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_down_after_lazy_put, setup_lazy),
		cmocka_unit_test_setup(test_down_after_eager_put, setup_lazy),
		cmocka_unit_test_setup(test_down_with_nothing_there, setup_lazy),
		cmocka_unit_test(test_down_after_quick_put),
		cmocka_unit_test_setup(test_down_keeps_all_counts, setup_lazy),
		cmocka_unit_test_setup(test_down_after_all_moved, setup_lazy),
		cmocka_unit_test_setup(test_down_while_loaded, setup_lazy),
	};

	return cmocka_run_group_tests_name("pcpu_down", tests, NULL, NULL);
}
