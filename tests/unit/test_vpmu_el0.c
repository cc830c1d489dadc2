// SPDX-License-Identifier: MIT
/*
 * EL0's access to the PMU (Arm DDI 0487 K.a: PMUSERENR_EL0 and the EL0 access pseudocode of each
 * PMU register, D24.5): what the guest's EN, SW, CR and ER grant and refuse, who takes a refused
 * access (the guest's EL1, never EL2), and that a grant is in the hardware's PMUSERENR_EL0 whenever
 * the vCPU runs: after an idle put, a resume, and a pCPU reset (whose UNKNOWN value vperf clears).
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <vperf/esr.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

/*
 * PMUSERENR_EL0.ER = 1 gives EL0 read access to the event counters and read/write access to
 * PMSELR_EL0 (I5.3, PMUSERENR_EL0.ER), with EN = 0: EL0 selects counter 1 and reads it through
 * PMXEVCNTR_EL0.
 */
static void test_el0_er_writes_pmselr(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVCNTR1_EL0, 77);
	guest_write(PMUSERENR_EL0, PMUSERENR_ER);
	sim_set_el(0);
	guest_write(PMSELR_EL0, 1);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	assert_int_equal(guest_read(PMSELR_EL0), 1);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 77);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	sim_set_el(1);
	assert_int_equal(guest_read(PMSELR_EL0), 1);
	assert_int_equal(hv.vm[0].stats.undef, 0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The EL0 grant is applied by the PE before any trap to EL2 (PMUSERENR_EL0), so it must be in the
 * hardware whenever the vCPU runs: put leaves 0 there for the next vCPU, and a vCPU resumed on the
 * hardware it left (nobody took its counters) gets its own value back, as a restored one does.
 */
static void test_resume_restores_el0_grant(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	const struct vperf_vm_config off = { .pmu_mode = VPERF_PMU_OFF };
	struct hv_vcpu *a, *b;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	assert_int_equal(hv_vm(1, &off), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMUSERENR_EL0, PMUSERENR_EN);
	hv_enter(b, 0);
	sim_set_el(0);
	(void)guest_read(PMCCNTR_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL1); /* b's EL0 has no grant */
	hv_enter(a, 0);
	assert_ptr_equal(hv.pcpu[0].pmu_owner, &a->v); /* resumed, not restored */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMUSERENR_EL0), PMUSERENR_EN);
	sim_set_el(0);
	(void)guest_read(PMCCNTR_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	assert_int_equal(hv.vm[0].stats.undef, 0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * PMUSERENR_EL0 is readable at EL0 whatever its EN says (EL0 may always learn what it is allowed):
 * with only SW set, an EL0 read traps to EL2 (MDCR_EL2.TPM) and reads the guest's value.
 * Kills "EL0 with PMUSERENR_EL0.EN = 0 cannot read PMUSERENR_EL0".
 */
static void test_el0_reads_pmuserenr_without_en(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMUSERENR_EL0, PMUSERENR_SW);
	sim_set_el(0);
	assert_int_equal(guest_read(PMUSERENR_EL0), PMUSERENR_SW);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	sim_set_el(1);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * EN opens the PMU registers of EL0, not the EL1 ones, and PMUSERENR_EL0 stays read-only there:
 * syndromes claiming an EL0 MSR PMUSERENR_EL0 or an EL0 MRS PMMIR_EL1 (both UNDEFINED at EL0,
 * which no hardware traps) are UNDEF, and the guest's PMUSERENR_EL0 is unchanged.
 * Kills "EL0 with PMUSERENR_EL0.EN = 1 writes PMUSERENR_EL0" and "... reads PMMIR_EL1".
 */
static void test_el0_en_keeps_el1_registers(void **state)
{
	uint64_t gprs[31] = { 0 };
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMUSERENR_EL0, PMUSERENR_EN);
	gprs[1] = 0;
	assert_int_equal(raw(VPERF_ENC_PMUSERENR_EL0, false, gprs, 0), VPERF_TRAP_UNDEF);
	assert_int_equal(guest_read(PMUSERENR_EL0), PMUSERENR_EN);
	gprs[1] = 0x5a5a;
	assert_int_equal(raw(VPERF_ENC_PMMIR_EL1, true, gprs, 0), VPERF_TRAP_UNDEF);
	assert_int_equal(gprs[1], 0x5a5a);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * CR grants EL0 reads of PMCCNTR_EL0, ER reads of the event counters: never writes. A write
 * syndrome from EL0 with CR = ER = 1, EN = 0 (the hardware would have trapped it to the guest's
 * EL1) is not performed: UNDEF, the counters keep their values.
 * Kills "EL0 with PMUSERENR_EL0.CR = 1 ... writes PMCCNTR_EL0" and "... ER = 1 ... writes an event
 * counter".
 */
static void test_el0_cr_er_grant_reads_only(void **state)
{
	uint64_t gprs[31] = { 0 };
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMCCNTR_EL0, 7);
	guest_write(PMEVCNTR0_EL0, 9);
	guest_write(PMUSERENR_EL0, PMUSERENR_CR | PMUSERENR_ER);
	gprs[1] = 1234;
	assert_int_equal(raw(VPERF_ENC_PMCCNTR_EL0, false, gprs, 0), VPERF_TRAP_UNDEF);
	assert_int_equal(raw(VPERF_ENC_PMEVCNTR0_EL0, false, gprs, 0), VPERF_TRAP_UNDEF);
	assert_int_equal(raw(VPERF_ENC_PMXEVCNTR_EL0, false, gprs, 0), VPERF_TRAP_UNDEF);
	assert_int_equal(guest_read(PMCCNTR_EL0), 7);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 9);
	/* The reads they do grant are answered. */
	assert_int_equal(raw(VPERF_ENC_PMCCNTR_EL0, true, gprs, 0), VPERF_TRAP_HANDLED);
	assert_int_equal(gprs[1], 7);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A guest whose EL1 gave its EL0 the PMU (PMUSERENR_EL0.EN) but runs no counter is not idle: at
 * its next load the grant is back in the hardware before EL0 runs, so an EL0 access traps to EL2
 * (TPM) and is emulated instead of going to the guest's EL1 (D24.5). Kills "a vCPU whose EL0 has
 * PMU access but no counter running is idle".
 */
static void test_el0_grant_survives_an_idle_put(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMCCNTR_EL0, 11);
	guest_write(PMUSERENR_EL0, PMUSERENR_EN);
	hv_leave(0);
	hv_enter(a, 0);
	sim_set_el(0);
	assert_int_equal(guest_read(PMCCNTR_EL0), 11);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	sim_set_el(1);
	assert_int_equal(sim_error_count(), 0);
}

/* EL0 of a vCPU that never used its PMU, on hardware whose PMUSERENR_EL0 holds a grant nobody
 * gave this guest (EN = 1 here, written behind vperf's back): the guest's own PMUSERENR_EL0 is
 * 0, so the access that reaches vperf is refused, never emulated. */
static void test_el0_refused_with_reset_pmuserenr(void **state)
{
	(void)state;
	sim_poke(0, VPERF_ENC_PMUSERENR_EL0, PMUSERENR_EN);
	hv_enter(hv_vcpu(0, 0), 0);
	sim_set_el(0);
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	sim_set_el(1);
	assert_int_equal(guest_read(PMUSERENR_EL0), 0);
}

/* The same vCPU on a pCPU just reset, its PMUSERENR_EL0 UNKNOWN (EN = ER = 1 here) and then
 * initialised: the guest's own PMUSERENR_EL0 is 0, so its EL0 accesses trap to its own EL1, as
 * on bare metal and as on a pCPU another vCPU's put left at 0, not UNDEF (the trap fuzzer's
 * differential check, corpus/trap/77a80575...). */
static void test_el0_traps_to_el1_after_pcpu_reset(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };

	(void)state;
	sim_poke(0, VPERF_ENC_PMUSERENR_EL0, PMUSERENR_EN | PMUSERENR_ER);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	sim_set_el(0);
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL1);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(last(), SIM_ACC_TRAP_EL1);
	sim_set_el(1);
	assert_int_equal(guest_read(PMUSERENR_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_el0_er_writes_pmselr),
		cmocka_unit_test(test_resume_restores_el0_grant),
		cmocka_unit_test(test_el0_reads_pmuserenr_without_en),
		cmocka_unit_test(test_el0_en_keeps_el1_registers),
		cmocka_unit_test(test_el0_cr_er_grant_reads_only),
		cmocka_unit_test(test_el0_grant_survives_an_idle_put),
		cmocka_unit_test_setup(test_el0_refused_with_reset_pmuserenr, setup),
		cmocka_unit_test_setup(test_el0_traps_to_el1_after_pcpu_reset, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
