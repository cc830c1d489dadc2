// SPDX-License-Identifier: MIT
/*
 * PMSCR_EL1.PCT[1] (bit [7]) for a VM (virt/vspe/regs.c, vperf_vspe_keep): the field exists with
 * FEAT_ECV, whatever the SPE version, and is RES0 without it. ID_AA64MMFR0_EL1.ECV = 0b0001
 * "Extends the PMSCR_EL1.PCT, PMSCR_EL2.PCT ... fields" (Arm DDI 0487 D24.2.88); CollectTimeStamp()
 * (J1.1.1.55) reads '0':PCT<0> without FEAT_ECV and takes PCT = 0b11 as guest physical time.
 * SPEv1p2 has nothing to do with it. A vCPU may run on any initialised pCPU, so the VM keeps the
 * bit only where every pCPU has FEAT_ECV, and a pCPU without it brought up afterwards is refused.
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>

#include "vspe_util.h"

#define PCT_GUEST_PHYS (3ull << 6) /* PCT = 0b11 */
#define BIT7	       (1ull << 7)
#define MMFR0_ECV      (0xfull << 60)

static const uint64_t pmscr = V_PMSCR_E1SPE | V_PMSCR_TS | PCT_GUEST_PHYS;

/* Every pCPU with SPE version pmsver and ID_AA64MMFR0_EL1.ECV = ecv; pCPU 1, when ecv1 differs,
 * reports ECV = ecv1 and is initialised again (a CPU brought up later, with the result want);
 * then VM 0 (trapped buffer), its vCPU loaded on pCPU 0. */
static struct hv_vcpu *setup(uint8_t pmsver, uint8_t ecv, uint8_t ecv1, int want)
{
	struct hv_vcpu *vc;

	vs_init_ecv(pmsver, 0, 1, ecv);
	if (ecv1 != ecv) {
		uint64_t mmfr0 = sim_peek(1, VPERF_ENC_ID_AA64MMFR0_EL1) & ~MMFR0_ECV;

		sim_set_cpu(1);
		sim_poke(1, VPERF_ENC_ID_AA64MMFR0_EL1, mmfr0 | (uint64_t)ecv1 << 60);
		assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &hv.pcpu[1].cfg), want);
		if (want == VPERF_OK)
			hv_host_boot(1);
		sim_set_cpu(0);
	}
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	return vc;
}

/* The guest's PCT = 0b11 as it reads it back and as its live buffer puts it in pCPU 0's
 * PMSCR_EL1; bad is the bad values the write counted. */
static void write_guest_phys(uint64_t want, uint64_t bad)
{
	struct lx_spe lx = { .vm = 0, .size = V_BUF_SIZE };

	guest_write(PMSCR_EL1, pmscr);
	assert_int_equal(guest_read(PMSCR_EL1), want);
	assert_int_equal(hv.vm[0].stats.bad_value, bad);
	lx_start(&lx);
	guest_write(PMSCR_EL1, pmscr);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1) & BIT7, want & BIT7);
	assert_int_equal(sim_error_count(), 0);
}

/* SPEv1p2 without FEAT_ECV: bit 7 is RES0, written as 1 it reads back 0 and is counted. Breaks:
 * the old rule (keep PCT[1] from SPEv1p2, PMSVer >= 3) reads 0b11 back. */
static void test_spev1p2_without_ecv(void **state)
{
	(void)state;
	setup(3, 0, 0, VPERF_OK);
	write_guest_phys(pmscr & ~BIT7, 1);
}

/* SPEv1 with FEAT_ECV: the VM keeps PCT = 0b11 (guest physical time), uncounted, and the
 * hardware gets it. Breaks: the old rule drops bit 7 below SPEv1p2. */
static void test_spev1_with_ecv(void **state)
{
	(void)state;
	setup(1, 1, 1, VPERF_OK);
	write_guest_phys(pmscr, 0);
	setup(3, 2, 2, VPERF_OK); /* FEAT_ECV_POFF: the same field */
	write_guest_phys(pmscr, 0);
}

/* pCPU 0 has FEAT_ECV (and its hardware keeps bit 7), pCPU 1 not: a vCPU may move there, so the
 * VM has no PCT[1] and vperf never writes it to pCPU 0's PMSCR_EL1. Breaks: keeping PCT[1] on
 * the loaded pCPU's FEAT_ECV alone (caps->ecv without the platform's any_no_ecv). */
static void test_mixed_ecv(void **state)
{
	(void)state;
	setup(1, 1, 0, VPERF_OK);
	write_guest_phys(pmscr & ~BIT7, 1);
}

/* Once a VM with a vSPE keeps PCT[1], a pCPU without FEAT_ECV is refused (logged, counted): its
 * vCPUs could run there. A VM without SPE relies on nothing of it. Breaks: the demand's check
 * (platform.c) or its record (policy.c, d.ecv) removed. */
static void test_later_pcpu_without_ecv(void **state)
{
	struct vperf_vm_config plain = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 2 };
	uint64_t mmfr0;

	(void)state;
	vs_init_ecv(1, 0, 1, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	mmfr0 = sim_peek(1, VPERF_ENC_ID_AA64MMFR0_EL1) & ~MMFR0_ECV;
	sim_poke(1, VPERF_ENC_ID_AA64MMFR0_EL1, mmfr0);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &hv.pcpu[1].cfg), VPERF_EINVAL);
	assert_int_equal(hv.pcpu[1].stats.refused, 1);
	sim_set_cpu(0);

	vs_init_ecv(1, 0, 1, 1);
	assert_int_equal(hv_vm(0, &plain), VPERF_OK);
	sim_poke(1, VPERF_ENC_ID_AA64MMFR0_EL1, mmfr0);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &hv.pcpu[1].cfg), VPERF_OK);
	sim_set_cpu(0);
	assert_int_equal(sim_error_count(), 0);
}

/* pCPU c has FEAT_ECV when its bit is in ecv_cpus; the model with those PEs, no pCPU up. */
static void init_model(unsigned int ecv_cpus)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];

	for (unsigned int c = 0; c < SIM_MAX_CPUS; c++) {
		sim_spe_default_config(&cfgs[c], 1);
		cfgs[c].ecv = (ecv_cpus >> c) & 1u;
		cfgs[c].el2_trap_cycles = 0;
	}
	hv_init_model(cfgs);
}

/* pCPU 0 without FEAT_ECV up first, pCPU 1 with it after: a vCPU on pCPU 1 holds no PCT[1], as it
 * may move to pCPU 0. Breaks: the platform's "a pCPU lacks FEAT_ECV" taken from the last pCPU
 * alone (assigned, not accumulated) keeps it. */
static void test_ecv_pcpu_after_one_without(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };

	(void)state;
	init_model(2u);
	assert_int_equal(hv_pcpu_up(0, &pcfg), VPERF_OK);
	assert_int_equal(hv_pcpu_up(1, &pcfg), VPERF_OK);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 1);
	guest_write(PMSCR_EL1, pmscr);
	assert_int_equal(guest_read(PMSCR_EL1), pmscr & ~BIT7);
	hv_leave(1);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spev1p2_without_ecv),
		cmocka_unit_test(test_spev1_with_ecv),
		cmocka_unit_test(test_mixed_ecv),
		cmocka_unit_test(test_later_pcpu_without_ecv),
		cmocka_unit_test(test_ecv_pcpu_after_one_without),
	};

	return cmocka_run_group_tests_name("vspe_pct", tests, NULL, NULL);
}
