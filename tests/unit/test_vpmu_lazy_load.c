// SPDX-License-Identifier: MIT
/*
 * The load's quick resume (vperf_vpmu_load, virt/vpmu/switch.h): it resumes the hardware only
 * when the vCPU is parked on this very pCPU (hw_pcpu) and the pCPU still names it owner. A pCPU
 * the vCPU left with a flush keeps naming it owner, with a stale copy in its hardware: the
 * owner test alone would resume that copy. (test_vpmu_lazy.c has the rest of the lazy put;
 * this file keeps it under its size.)
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

/* VM 0 (lazy_vms) */
static int setup_lazy(void **state)
{
	(void)state;
	lazy_vms(1);
	return 0;
}

/* Counter 0 counts cycles, counting enabled. */
static void program(uint64_t base)
{
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMEVCNTR0_EL0, base);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
}

/* Parked on pCPU 1, loaded on pCPU 0 (which it left with a flush, and which still names it
 * owner) without the flush of pCPU 1 it owed (misuse): the load restores its shadow (the counts
 * on pCPU 1 are lost, as test_migration_without_flush says) and the state's pCPU is now pCPU 0.
 * So its next lazy put parks it there, the flush of pCPU 0 saves what it wrote, and pCPU 1's
 * stale copy (1030) is never resumed nor saved over it. A quick resume that tested the owner
 * only would leave hw_pcpu on pCPU 1: the flush of pCPU 0 would save nothing and the load on
 * pCPU 1 would resume 1030. */
static void test_back_to_stale_owner(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	program(1000);
	hv_run_n(&op3, 10);
	hv_leave(0);
	hv_enter(a, 1); /* the harness flushes pCPU 0 first: 1030 in the shadow */
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1060);
	hv_leave(1);
	assert_true(vperf_vcpu_parked(&a->v));
	assert_int_equal(hv.pcpu[0].pmu_owner, &a->v);
	sim_set_cpu(0); /* no flush of pCPU 1 */
	vperf_vcpu_load(&a->v, &hv.pcpu[0]);
	hv.running[0] = a;
	a->cpu = 0;
	assert_int_equal(hv.pcpu[0].stats.misuse, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1030);
	guest_write(PMEVCNTR0_EL0, 7);
	guest_write(PMCR_EL0, 0); /* stopped: 7 stays 7 */
	hv_leave(0);
	hv_enter(a, 1); /* the flush of pCPU 0 first, by the harness */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 7);
	assert_int_equal(hv.pcpu[1].stats.misuse, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_back_to_stale_owner, setup_lazy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
