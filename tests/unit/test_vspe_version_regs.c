// SPDX-License-Identifier: MIT
/*
 * The SPE registers and fields a VM has by the SPE version it is shown (virt/vspe/regs.c): the
 * lowest PMSVer of every initialised pCPU, at most SPEv1p2. Here pCPU 0 has SPEv1p2 while another
 * pCPU reports SPEv1p1, so the VM is shown SPEv1p1 while it runs on hardware that has what
 * SPEv1p2 adds; vperf, not the hardware, must hold the guest to SPEv1p1 there:
 *   - PMSNEVFR_EL1 comes with SPEv1p2 (FEAT_SPEv1p2, Arm DDI 0487 K.a D17.5 and its register
 *     description): for a VM shown SPEv1p1 an access is UNDEFINED, although the hardware's
 *     PMSNEVFR_EL1 exists and MDCR_EL2.TPMS traps it to EL2;
 *   - PMSCR_EL1.PCT is one bit, [6], before SPEv1p2, which makes it [7:6]: bit 7 is RES0 for a
 *     VM shown SPEv1p1 (a write of it is ignored and counted as a bad value, and it never reaches
 *     the hardware's PMSCR_EL1).
 * On a system where every pCPU has SPEv1p2 the VM has both.
 */
#include "cmocka_wrap.h"
#include "vspe_util.h"
#include <arch/sysreg.h>

/* The model with SPEv1p2 on every pCPU; pCPU 1 reports PMSVer = pmsver1 and is initialised again
 * (as a CPU brought up later); VM 0 (trapped buffer) created afterwards, its vCPU loaded on
 * pCPU 0. */
static struct hv_vcpu *mixed(uint8_t pmsver1)
{
	uint64_t dfr0;
	struct hv_vcpu *vc;

	vs_init(3, 0, 9);
	sim_set_cpu(1);
	dfr0 = sim_peek(1, VPERF_ENC_ID_AA64DFR0_EL1) & ~VPERF_GENMASK(35, 32);
	sim_poke(1, VPERF_ENC_ID_AA64DFR0_EL1, dfr0 | (uint64_t)pmsver1 << 32);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &hv.pcpu[1].cfg), VPERF_OK);
	hv_host_boot(1);
	sim_set_cpu(0);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	assert_int_equal(
		V_PMSVER(vperf_vcpu_id_dfr0(&vc->v, sim_peek(0, VPERF_ENC_ID_AA64DFR0_EL1))),
		pmsver1);
	return vc;
}

static enum sim_access last(void)
{
	return sim_guest_stats(0)->last;
}

/*
 * PMSNEVFR_EL1 is UNDEFINED for a VM shown SPEv1p1 (read and write), and is its register when
 * it is shown SPEv1p2. Mutation tried: reg_of (regs.c) giving the VM PMSNEVFR_EL1 from SPEv1p1
 * (PMSVer >= 2): the read returns 0 and the write is taken.
 */
static void test_pmsnevfr_needs_spev1p2(void **state)
{
	(void)state;
	mixed(2);
	guest_read(PMSNEVFR_EL1);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMSNEVFR_EL1, 0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	assert_int_equal(sim_error_count(), 0);

	mixed(3);
	guest_write(PMSNEVFR_EL1, 0x2); /* E[1], retired */
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	assert_int_equal(guest_read(PMSNEVFR_EL1), 0x2);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * PMSCR_EL1.PCT[1] (bit 7) is RES0 for a VM shown SPEv1p1: written as 1 it reads back 0, the write
 * is counted (bad_value), and the hardware's PMSCR_EL1 does not get it; a VM shown SPEv1p2 keeps
 * it. Mutation tried: vperf_vspe_keep (regs.c) keeping PCT[1] from SPEv1p1 (PMSVer >= 2): the
 * guest reads bit 7 back.
 */
static void test_pmscr_pct1_needs_spev1p2(void **state)
{
	const uint64_t pmscr = V_PMSCR_E1SPE | V_PMSCR_PCT | (1ull << 7);

	(void)state;
	mixed(2);
	guest_write(PMSCR_EL1, pmscr);
	assert_int_equal(guest_read(PMSCR_EL1), V_PMSCR_E1SPE | V_PMSCR_PCT);
	assert_int_equal(hv.vm[0].stats.bad_value, 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1) & (1ull << 7), 0);
	assert_int_equal(sim_error_count(), 0);

	mixed(3);
	guest_write(PMSCR_EL1, pmscr);
	assert_int_equal(guest_read(PMSCR_EL1), pmscr);
	assert_int_equal(hv.vm[0].stats.bad_value, 0);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmsnevfr_needs_spev1p2),
		cmocka_unit_test(test_pmscr_pct1_needs_spev1p2),
	};

	return cmocka_run_group_tests_name("vspe_version_regs", tests, NULL, NULL);
}
