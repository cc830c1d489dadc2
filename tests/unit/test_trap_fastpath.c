// SPDX-License-Identifier: MIT
/*
 * The trap fast path (virt/vpmu/fast.h, inline in the trap entry virt/trap.c): the writes it
 * answers from the syndrome alone (PMEVTYPER<n>_EL0, PMSWINC_EL0) with Rt = 31. In the ISS of an
 * exception from MSR, MRS or System instruction execution (EC 0x18, ESR_EL2 in Arm DDI 0487 K.a),
 * Rt = 31 names XZR: an MSR from it writes zero, whatever the hypervisor's register frame holds
 * (the frame has x0..x30 only; what lies past it, or in any of its registers, is not the value).
 * And what the fast path must do as the full path does: counters n >= 8, PMSWINC's RES0 check,
 * the trap statistics, the hardware type it writes, and an MRS to XZR writing no register.
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

static uint32_t evcntr_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7);
}

static uint32_t evtyper_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7);
}

/*
 * PMEVCNTR<n>_EL0 and PMEVTYPER<n>_EL0 name n as CRm[1:0]:op2 (their encodings in Arm DDI 0487
 * K.a, D24): n = 9 and n = 17 need both CRm bits. A PE with 20 counters, the host keeping 2, a
 * guest with 18: its type and counter writes for 9 and 17 land on physical counters 9 and 17 and
 * read back, on the fast path once the state is in the hardware, without touching 1 or 8.
 */
static void test_fast_path_high_counter_index(void **state)
{
	static const unsigned int idx[] = { 8, 9, 17 };
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 18);
	struct sim_pe_config model;
	struct hv_vcpu *a;

	(void)state;
	hv_default_config(&model);
	model.nr_counters = 20;
	hv_init(&model, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, 0); /* the state in the hardware: the fast path from here */
	for (unsigned int i = 0; i < 3; i++) {
		unsigned int n = idx[i];

		guest_msr(evtyper_enc(n), 0x10 + n);
		guest_msr(evcntr_enc(n), 1000 + n);
	}
	for (unsigned int i = 0; i < 3; i++) {
		unsigned int n = idx[i];

		assert_int_equal(hw_evtyper(n) & 0xffff, 0x10 + n);
		assert_int_equal(guest_mrs(evtyper_enc(n)), 0x10 + n);
		assert_int_equal(guest_mrs(evcntr_enc(n)), 1000 + n);
	}
	assert_int_equal(hw_evtyper(1) & 0xffff, 0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * PMSWINC_EL0 bits [63:31] are RES0 (I5.3, PMSWINC_EL0): a write with bit 31 set is counted and
 * logged as on the full path, and increments counter 0 all the same, with the state in the
 * hardware, where the fast path sees it first.
 */
static void test_fast_path_swinc_res0(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_SW_INCR);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMSWINC_EL0, VPERF_BIT(31) | 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1);
	assert_int_equal(hv.vm[0].stats.bad_value, 1);
	assert_string_equal(hv.last_log, "vperf: guest wrote RES0 bits 0x80000000 of PMSWINC_EL0 "
					 "(value 0x80000001): ignored");
	assert_int_equal(sim_error_count(), 0);
}

/* Every trap vperf answers counts in the VM's statistics, on the fast path as on the full one:
 * five accesses the fast path answers are five traps. */
static void test_fast_path_counts_traps(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;
	uint64_t traps;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, 0);
	traps = hv.vm[0].stats.traps;
	(void)guest_read(PMCCNTR_EL0);
	(void)guest_read(PMEVCNTR1_EL0);
	(void)guest_read(PMOVSSET_EL0);
	guest_write(PMEVTYPER0_EL0, EV_INST);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(sim_guest_stats(0)->el2_traps >= 5, true);
	assert_int_equal(hv.vm[0].stats.traps, traps + 5);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The fast path's PMEVTYPER<n>_EL0 write (fast.h) programs the hardware as the full path
 * (filter.c) does. PMXEVTYPER_EL0 always takes the full path, PMEVTYPER1_EL0 the fast one once
 * the state is in the hardware: the two counters' hardware types must be equal for every type,
 * on a PE with and without EL3 (where NSK, NSU and M exist, I5.3.30), for a SELF VM and a
 * XENPMU_MODE_ALL one (NSH = !P), for an event the VM's filter denies and for SAMPLE_POP (0x4000,
 * an SPE event: denied to a VM without a vSPE, an event >= 64 judged apart from the common ones).
 * A denied event is excluded everywhere: the hardware gets P = U = 1 and no NS or M bit (with
 * EL3, NSK = NSU = 0 differ from P = U = 1: Non-secure EL1/EL0 not counted either). An allowed
 * type counting everywhere gets, with EL3, P = U = 1 (no Secure EL1/EL0) with NSK = NSU = 1
 * (the guest's own EL1/EL0), and NSH in XENPMU_MODE_ALL only.
 * Kills "the fast path's PMEVTYPER write in XENPMU_MODE_ALL drops NSH" and its relatives.
 */
static void fast_type_as_full(bool el3, enum vperf_pmu_mode mode)
{
	static const uint64_t types[] = {
		EV_CYCLES,	EV_CYCLES | P_BIT, EV_CYCLES | U_BIT, EV_CYCLES | P_BIT | U_BIT,
		EV_INST,	EV_INST | P_BIT,   EV_INST | U_BIT,   0x4000,
		0x4000 | U_BIT,
	};
	struct vperf_vm_config cfg = policy(mode, 2);
	uint64_t all = mode == VPERF_PMU_ALL ? NSH_BIT : 0, el3_pu = el3 ? P_BIT | U_BIT : 0;
	struct sim_pe_config model;

	hv_default_config(&model);
	model.el3 = el3;
	hv_init(&model, 2);
	vperf_pmu_filter_set(&cfg.filter, EV_INST, false);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMCR_EL0, 0); /* the state in the hardware: the fast path from here */
	guest_write(PMSELR_EL0, 0);
	for (unsigned int i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		guest_write(PMXEVTYPER_EL0, types[i]);
		guest_write(PMEVTYPER1_EL0, types[i]);
		assert_int_equal(hw_evtyper(1), hw_evtyper(0));
	}
	guest_write(PMEVTYPER1_EL0, EV_INST);
	assert_int_equal(hw_evtyper(1), P_BIT | U_BIT | EV_INST);
	guest_write(PMEVTYPER1_EL0, EV_CYCLES);
	assert_int_equal(hw_evtyper(1), el3_pu | (el3 ? NSK_BIT | NSU_BIT : 0) | all | EV_CYCLES);
	if (hv.model.pmuver >= 4) { /* evtCount[15:10] from PMUv3p1 */
		guest_write(PMEVTYPER1_EL0, 0x4000);
		assert_int_equal(hw_evtyper(1), P_BIT | U_BIT | 0x4000);
	}
	assert_int_equal(hv.vm[0].stats.bad_value, 0);
	assert_int_equal(sim_error_count(), 0);
}

static void test_fast_path_type_as_full_path(void **state)
{
	(void)state;
	fast_type_as_full(true, VPERF_PMU_SELF);
	fast_type_as_full(true, VPERF_PMU_ALL);
	fast_type_as_full(false, VPERF_PMU_SELF);
	fast_type_as_full(false, VPERF_PMU_ALL);
}

/*
 * MRS to XZR discards the value (Rt = 31 is XZR, not a register): a counter read answered on the
 * fast path writes no general-purpose register (the model checks every GPR a handler leaves).
 * Kills "an MRS to XZR answered on the fast path writes x0".
 */
static void test_fast_path_mrs_to_xzr(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMCCNTR_EL0, 5);
	guest_mrs_xzr(VPERF_ENC_PMCCNTR_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	guest_mrs_xzr(VPERF_ENC_PMEVCNTR0_EL0);
	guest_mrs_xzr(VPERF_ENC_PMOVSSET_EL0);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msr_pmevtyper_from_xzr_writes_zero),
		cmocka_unit_test(test_msr_pmswinc_from_xzr_increments_nothing),
		cmocka_unit_test(test_fast_path_high_counter_index),
		cmocka_unit_test(test_fast_path_swinc_res0),
		cmocka_unit_test(test_fast_path_counts_traps),
		cmocka_unit_test(test_fast_path_type_as_full_path),
		cmocka_unit_test(test_fast_path_mrs_to_xzr),
	};

	return cmocka_run_group_tests_name("trap_fastpath", tests, NULL, NULL);
}
