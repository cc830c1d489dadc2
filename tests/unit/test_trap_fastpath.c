// SPDX-License-Identifier: MIT
/*
 * The trap fast path (virt/vpmu/fast.h, inline in the trap entry virt/trap.c): the writes it
 * answers from the syndrome alone (PMEVTYPER<n>_EL0, PMSWINC_EL0) with Rt = 31. In the ISS of an
 * exception from MSR, MRS or System instruction execution (EC 0x18, ESR_EL2 in Arm DDI 0487 K.a),
 * Rt = 31 names XZR: an MSR from it writes zero, whatever the hypervisor's register frame holds
 * (the frame has x0..x30 only; what lies past it, or in any of its registers, is not the value).
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/esr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

/* A trapped (SELF) guest of 3 counters, loaded on pCPU 0, its PMU enabled: its state is in the
 * hardware, so that its EL1 writes of the two registers take the fast path. */
static struct hv_vcpu *loaded_trapped_guest(void)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 3);
	struct hv_vcpu *a;

	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, PMCR_E);
	return a;
}

/* An MSR from XZR at EL1, delivered to the trap entry as hardware reports it (Rt = 31), with a
 * frame whose every register, and one slot past x30, holds `fill`. */
static void msr_xzr_with_frame(uint32_t enc, uint64_t fill)
{
	uint64_t frame[32];

	for (unsigned int i = 0; i < 32; i++)
		frame[i] = fill;
	assert_int_equal(hv_raw_trap(vperf_esr_encode_sysreg(enc, 31, false), frame, 1),
			 VPERF_TRAP_HANDLED);
	for (unsigned int i = 0; i < 32; i++)
		assert_int_equal(frame[i], fill);
}

/*
 * MSR PMEVTYPER1_EL0, XZR writes 0: the counter's type, which counted CPU_CYCLES, reads 0
 * (SW_INCR, no filter bits) afterwards, although every register of the frame holds INST_RETIRED
 * (a value the fast path would accept). Mutation tried: fast.h passing gprs[rt] to fast_write
 * whatever Rt is (the frame's slot 31) or gprs[0] for Rt = 31: PMEVTYPER1_EL0 reads 0x08.
 */
static void test_msr_pmevtyper_from_xzr_writes_zero(void **state)
{
	(void)state;
	loaded_trapped_guest();
	guest_write(PMEVTYPER1_EL0, EV_CYCLES);
	assert_int_equal(guest_read(PMEVTYPER1_EL0), EV_CYCLES);
	msr_xzr_with_frame(VPERF_ENC_PMEVTYPER1_EL0, EV_INST);
	assert_int_equal(guest_read(PMEVTYPER1_EL0), 0);
	assert_int_equal(hw_evtyper(1) & PMEVTYPER_EVT, 0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * MSR PMSWINC_EL0, XZR increments nothing: counter 0 counts SW_INCR, enabled, and stays at its
 * value although every register of the frame holds 1 (the bit of counter 0). Same mutations.
 */
static void test_msr_pmswinc_from_xzr_increments_nothing(void **state)
{
	(void)state;
	loaded_trapped_guest();
	guest_write(PMEVTYPER0_EL0, EV_SW_INCR);
	guest_write(PMEVCNTR0_EL0, 5);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMSWINC_EL0, 1); /* the fast path counts a real increment */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 6);
	msr_xzr_with_frame(VPERF_ENC_PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 6);
	/* The same through the model (its own frame, Rt = 31 in the syndrome it builds). */
	guest_msr_xzr(VPERF_ENC_PMSWINC_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 6);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msr_pmevtyper_from_xzr_writes_zero),
		cmocka_unit_test(test_msr_pmswinc_from_xzr_increments_nothing),
	};

	return cmocka_run_group_tests_name("trap_fastpath", tests, NULL, NULL);
}
