// SPDX-License-Identifier: MIT
/*
 * A VHE host's own SPE buffer (docs/integration/kvm.md, "VHE", point 3): with HCR_EL2.E2H = 1 and
 * TGE = 1 the host's buffer is owned by EL2 in the EL2&0 regime (SPE 3.4.2), so vperf parks it
 * around every vSPE guest (host_spe), and the host's SPE driver, which may start its session at
 * an exit of a loaded vCPU, must find the vCPU put first (KVM's patch 38). test_vspe_vhe.c holds
 * the PMSCR_EL12 rules.
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/spe_regs.h>

#include "vspe_util.h"

#define V_HCR_TGE (1ull << 27) /* HCR_EL2.TGE, Arm DDI 0487 K.a D24.2 */
#define V_E2SPE	  0x02ull      /* PMSCR_EL2.E2SPE, the host's (vs_init_host) */

static void set_hcr(uint64_t set, uint64_t clear)
{
	sim_poke(0, VPERF_ENC_HCR_EL2, (sim_peek(0, VPERF_ENC_HCR_EL2) | set) & ~clear);
}

static int teardown(void **state)
{
	(void)state;
	hv_set_e2h(-1);
	return 0;
}

/*
 * A VHE host profiling itself: E2H = 1 and TGE = 1 while the host runs (its buffer owned by EL2
 * in the EL2&0 regime, SPE 3.4.2), TGE = 0 from the guest's entry to its exit (VHE KVM's world
 * switch, where vperf's load and put run). vperf parks the host's buffer around the vSPE guest
 * (host_spe): every record lands in its owner's buffer, the host's PMSCR_EL2 is the host's again
 * after each put, nothing UNDEFINED.
 */
static void test_vhe_host_buffer_parked(void **state)
{
	struct lx_spe lx = { .vm = 0, .size = V_BUF_SIZE };
	struct hv_vcpu *vc;
	unsigned int host;

	(void)state;
	hv_set_e2h(1);
	vs_init_host(3, 9);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	for (unsigned int round = 0; round < 4; round++) {
		set_hcr(V_HCR_TGE, 0);
		vs_host_run(3000);
		set_hcr(0, V_HCR_TGE);
		lx_round_beside_host(&lx, vc, round, 4, 3000);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), V_E2SPE);
	}
	set_hcr(V_HCR_TGE, 0);
	vs_host_run(3000);
	host = vs_host_records(0);
	assert_true(host >= 40);
	assert_true(lx_records(&lx) >= 40);
	assert_int_equal(host + lx_records(&lx), sim_spe_stats(0)->written);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * VHE KVM keeps a vCPU loaded while its host kernel runs between exits (vcpu_load to vcpu_put), and
 * the host's SPE driver may start its session then (an event enabled by IPI). With the vCPU loaded
 * every buffer register and sampling control but PMSCR_EL2 is the guest's (E2PB = 0b10): a driver
 * that programs them in place points the guest's sampling at the host's buffer, an address the
 * guest's translation regime does not map, and the guest's driver takes a fault event it never
 * caused. The vCPU put around the driver and loaded again (integration.md, VHE; KVM's patch 38),
 * every record is its owner's. The model must tell the two sequences apart.
 */
static struct lx_spe driver_lx;

/* The host's driver starts its session at an exit of the loaded vCPU; put_around: as patch 38. */
static struct hv_vcpu *run_with_host_driver(bool put_around)
{
	struct lx_spe *lx = &driver_lx;
	struct hv_vcpu *vc;
	uint64_t host_ptr;

	*lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	hv_set_e2h(1);
	vs_init_host(3, 9);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	set_hcr(V_HCR_TGE, 0);
	vs_host_run(3000);
	vs_drain_visible();
	host_ptr = read_sysreg(PMBPTR_EL1); /* where the host's driver's session stands */
	set_hcr(0, V_HCR_TGE);
	hv_enter(vc, 0);
	lx_start(lx);
	lx_run(lx, vc, 6000);
	set_hcr(V_HCR_TGE, 0); /* an exit the host kernel handles, the vCPU still loaded */
	if (put_around)
		hv_leave(0);
	sim_set_el(2);
	vs_host_driver_start(0, host_ptr);
	/* The entry: HCR_EL2 first, since the model applies it only at a context synchronization,
	 * then the ERET (hv_enter's, after its load). */
	set_hcr(0, V_HCR_TGE);
	if (put_around) {
		hv_enter(vc, 0);
	} else {
		isb();
		sim_set_el(1);
	}
	return vc;
}

static void test_vhe_host_driver_put_around(void **state)
{
	struct hv_vcpu *vc;
	unsigned int host;

	(void)state;
	vc = run_with_host_driver(true);
	lx_run(&driver_lx, vc, 6000);
	lx_stop(&driver_lx);
	hv_leave(0);
	set_hcr(V_HCR_TGE, 0);
	vs_host_run(3000);
	host = vs_host_records(0);
	assert_true(host >= 20);
	assert_true(lx_records(&driver_lx) >= 40);
	assert_int_equal(driver_lx.fatal + driver_lx.spurious, 0);
	assert_int_equal(host + lx_records(&driver_lx), sim_spe_stats(0)->written);
	assert_int_equal(sim_error_count(), 0);
}

/* In place, the guest samples into the host's VA, which its stage 1 does not map: its buffer
 * stops with a fault it never caused (SPE 4.4: PMBSR_EL1.EC a stage 1 Data Abort). */
static void test_vhe_host_driver_in_place_is_caught(void **state)
{
	struct sim_uop op = { .pc = V_LOOP_PC(0),
			      .vaddr = 0x7f0000000000ull,
			      .latency = 4,
			      .issue_lat = 1,
			      .type = SIM_UOP_LOAD,
			      .size_log2 = 3 };
	struct hv_vcpu *vc;
	uint64_t pmbsr;

	(void)state;
	vc = run_with_host_driver(false);
	for (unsigned int j = 0; j < 6000 && !vc->spe_irq_level; j++)
		guest_run(&op, 1);
	assert_true(vc->spe_irq_level);
	psb_csync();
	dsb_nsh();
	isb();
	pmbsr = guest_read(PMBSR_EL1);
	assert_true(pmbsr & V_PMBSR_S);
	assert_int_equal((pmbsr >> 26) & 0x3f, PMBSR_EC_S1_DA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_vhe_host_buffer_parked, teardown),
		cmocka_unit_test_teardown(test_vhe_host_driver_put_around, teardown),
		cmocka_unit_test_teardown(test_vhe_host_driver_in_place_is_caught, teardown),
	};

	return cmocka_run_group_tests_name("vspe_vhe_host", tests, NULL, NULL);
}
