// SPDX-License-Identifier: MIT
/*
 * The SPE registers and fields a VM has by the SPE version it is shown (virt/vspe/regs.c): the
 * lowest PMSVer of every initialised pCPU, at most SPEv1p2. Here pCPU 0 has SPEv1p2 while another
 * pCPU reports SPEv1p1, so the VM is shown SPEv1p1 while it runs on hardware that has what
 * SPEv1p2 adds; vperf, not the hardware, must hold the guest to SPEv1p1 there:
 *   - PMSNEVFR_EL1 comes with SPEv1p2 (FEAT_SPEv1p2, Arm DDI 0487 K.a D17.5 and its register
 *     description): for a VM shown SPEv1p1 an access is UNDEFINED, although the hardware's
 *     PMSNEVFR_EL1 exists and MDCR_EL2.TPMS traps it to EL2.
 * On a system where every pCPU has SPEv1p2 the VM has it. (PMSCR_EL1.PCT[1] follows FEAT_ECV,
 * not the SPE version: test_vspe_pct.c.)
 * The event filter bits (PMSEVFR_EL1) of each version, the model's and the guest's, on every SPE
 * version the model offers, E[11] filtering on SPEv1p1 (Arm DDI 0487 K.a D18.2.6).
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <arch/tlb.h>

#include "vspe_util.h"

#define MODEL_PMSVER_N 5 /* SPEv1 .. SPEv1p4: every version the model implements */
#define VM_PMSVER_MAX  3 /* what vperf offers at most */

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

static struct lx_spe lx;

static const enum vperf_spe_buffer policies[] = { VPERF_SPE_BUF_EL1_TRAPPED, VPERF_SPE_BUF_EL1 };

static unsigned int vm_pmsver(unsigned int pmsver)
{
	return pmsver < VM_PMSVER_MAX ? pmsver : VM_PMSVER_MAX;
}

/* What PMSEVFR_EL1 / PMSNEVFR_EL1 keep of all-ones at each PMSVer, written out from the Events
 * packet (D18.2.6): SPEv1 E[63:48,31:24,15:12,7,5,3,1]; SPEv1p1 adds E[11] (misalignment) and
 * E[18:17] (predicates); SPEv1p2 E[6] (not taken); SPEv1p3 nothing; SPEv1p4 adds E[2], E[4],
 * E[10:8] and E[23:19] and has E[31:26] RES0. */
static uint64_t filter_bits(unsigned int pmsver)
{
	uint64_t m = 0xffff0000ff00f0aaull;

	if (pmsver >= 2)
		m |= 0x60800ull;
	if (pmsver >= 3)
		m |= 0x40ull;
	if (pmsver >= 5)
		m = (m | 0xf80714ull) & ~0xfc000000ull;
	return m;
}

/* The model on its own (direct accesses at EL2), and what a guest keeps through vperf: the bits of
 * the version the VM sees (at most SPEv1p2), each RES0 bit written counted as a bad value. */
static void filter_bits_at(uint8_t pmsver, enum vperf_spe_buffer buf)
{
	struct hv_vcpu *vc;
	uint64_t bad;

	vs_init(pmsver, 0, 1);
	write_sysreg(~0ull, PMSEVFR_EL1);
	assert_int_equal(read_sysreg(PMSEVFR_EL1), filter_bits(pmsver));
	if (pmsver >= 3) {
		write_sysreg(~0ull, PMSNEVFR_EL1);
		assert_int_equal(read_sysreg(PMSNEVFR_EL1), filter_bits(pmsver));
	}
	assert_int_equal(vs_vm(0, buf, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	bad = hv.vm[0].stats.bad_value;
	guest_write(PMSEVFR_EL1, filter_bits(vm_pmsver(pmsver)));
	assert_int_equal(guest_read(PMSEVFR_EL1), filter_bits(vm_pmsver(pmsver)));
	assert_int_equal(hv.vm[0].stats.bad_value, bad);
	guest_write(PMSEVFR_EL1, ~0ull);
	assert_int_equal(guest_read(PMSEVFR_EL1), filter_bits(vm_pmsver(pmsver)));
	assert_int_equal(hv.vm[0].stats.bad_value, bad + 1);
	if (vm_pmsver(pmsver) >= 3) {
		guest_write(PMSNEVFR_EL1, filter_bits(3));
		assert_int_equal(guest_read(PMSNEVFR_EL1), filter_bits(3));
		assert_int_equal(hv.vm[0].stats.bad_value, bad + 1);
		guest_write(PMSNEVFR_EL1, ~0ull);
		assert_int_equal(guest_read(PMSNEVFR_EL1), filter_bits(3));
		assert_int_equal(hv.vm[0].stats.bad_value, bad + 2);
	}
	/* The hardware gets what the guest keeps once its buffer is live. */
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	guest_write(PMSEVFR_EL1, filter_bits(vm_pmsver(pmsver)));
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSEVFR_EL1),
			 filter_bits(vm_pmsver(pmsver)) & filter_bits(pmsver));
	assert_int_equal(sim_error_count(), 0);
}

static void test_event_filter_bits(void **state)
{
	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++)
			filter_bits_at(v, policies[p]);
}

/*
 * The filter itself on SPEv1p1: E[11] (misalignment, D18.2.6) is an event the guest can select.
 * With PMSFCR_EL1.FE and PMSEVFR_EL1 = E[11], only the misaligned loads are recorded (D17.5.2).
 */
static void test_filter_misaligned_spev1p1(void **state)
{
	const struct sim_uop aligned = { .pc = V_LOOP_PC(0),
					 .vaddr = 0x4000,
					 .latency = 3,
					 .type = SIM_UOP_LOAD,
					 .size_log2 = 3 };
	struct sim_uop misaligned = aligned;
	struct hv_vcpu *vc;

	(void)state;
	misaligned.vaddr = 0x4004;
	vc = vs_setup_on_version(2, VPERF_SPE_BUF_EL1_TRAPPED, true, 1);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	guest_write(PMSFCR_EL1, 1); /* FE */
	guest_write(PMSEVFR_EL1, 1ull << 11);
	isb();
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSEVFR_EL1), 1ull << 11);
	for (unsigned int i = 0; i < 257 * 8; i++)
		guest_run(&aligned, 1);
	assert_int_equal(sim_spe_stats(0)->written, 0);
	for (unsigned int i = 0; i < 257 * 8; i++)
		guest_run(&misaligned, 1);
	lx_stop(&lx);
	assert_true(lx_records(&lx) >= 4);
	assert_false(vc->spe_irq_level);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmsnevfr_needs_spev1p2),
		cmocka_unit_test(test_event_filter_bits),
		cmocka_unit_test(test_filter_misaligned_spev1p1),
	};

	return cmocka_run_group_tests_name("vspe_version_regs", tests, NULL, NULL);
}
