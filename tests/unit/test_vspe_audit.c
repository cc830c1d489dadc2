// SPDX-License-Identifier: MIT
/*
 * vSPE behaviours an outside mutation audit changed without any test failing, each observed here
 * from where a guest or the host sees it (the SPE supplement, Arm DDI 0586A, cited as "SPE
 * <section>"): whose buffer a PMBIRQ is, what an external abort becomes, and the collision bit
 * (PMBSR_EL1.COLL) the hardware sets while the guest runs. Each test names the behaviour of
 * tests/mutate/mutations.txt whose mutation it kills.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "vspe_util.h"
#include <arch/sysreg.h>

#define PAGE	     0x1000ull
#define VMID0	     1
#define BSC_FULL     1ull
#define EC_S2_DA     0x25ull
#define PMBSR_EC_OF(v) (((v) >> 26) & 0x3fu)
#define V_PMBSR_COLL (1ull << 16)
#define HOST_VA	     0x0000008000000000ull /* vs_init_host's buffer on pCPU 0, EL2 regime */

static struct lx_spe lx;

/* n sampled loads of VM vm's loop, each `latency` cycles long: above the sampling interval (256
 * operations), every other sample collides with the one still in flight (SPE 3.1.4). */
static void run_loads(unsigned int vm, unsigned int n, uint32_t latency)
{
	const struct sim_uop op = { .pc = V_LOOP_PC(vm),
				    .vaddr = 0x4000,
				    .latency = latency,
				    .type = SIM_UOP_LOAD,
				    .size_log2 = 3 };

	for (unsigned int i = 0; i < n; i++)
		guest_run(&op, 1);
}

/* ---- whose buffer a PMBIRQ is (irq.c) ------------------------------------------------------- */

/*
 * A VM profiled from outside (VPERF_SPE_BUF_EL2) runs while the host's own buffer samples it:
 * when that buffer fills, the PMBIRQ is the host's. vperf leaves it alone: the host's PMBSR_EL1
 * keeps its event (S, buffer full) and its PMBLIMITR_EL1 its value, the guest, which has no SPE,
 * gets no interrupt.
 */
static void test_host_pmbirq_outside_vm(void **state)
{
	const struct vperf_vm_config spe = { .spe = true,
					     .spe_buffer = VPERF_SPE_BUF_EL2,
					     .spe_context = 0x101 };
	const uint64_t limitr = (HOST_VA + PAGE) | V_PMBLIMITR_E;
	struct hv_vcpu *vc;

	(void)state;
	vs_init_host(3, 5);
	write_sysreg(limitr, PMBLIMITR_EL1); /* one page: full after a few dozen records */
	isb();
	assert_int_equal(vs_vm_cfg(0, &spe, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	for (unsigned int i = 0; i < 200 && !hv.spe_irqs; i++)
		run_loads(0, 257, 3);
	assert_true(hv.spe_irqs >= 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1) & (V_PMBSR_S | 0x3f), V_PMBSR_S | BSC_FULL);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1), limitr);
	assert_false(vperf_handle_spe_irq(&hv.pcpu[0]));
	assert_false(vc->spe_irq_level);
	assert_int_equal(hv.vm[0].stats.spe_events, 0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A guest with a vSPE whose state is not in the hardware (its buffer never enabled) is loaded
 * when a PMBIRQ with PMBSR_EL1.S set arrives: it is not the guest's buffer, whose events vperf
 * takes only from the hardware it owns. Nothing is taken or cleared, the guest sees nothing.
 */
static void test_host_pmbirq_guest_not_in_hw(void **state)
{
	const uint64_t host_event = V_PMBSR_S | BSC_FULL;
	struct hv_vcpu *vc;

	(void)state;
	vs_init(1, 0, 3);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	(void)guest_read(PMSIDR_EL1); /* a vSPE access: the state stays out of the hardware */
	sim_poke(0, VPERF_ENC_PMBSR_EL1, host_event);
	assert_false(vperf_handle_spe_irq(&hv.pcpu[0]));
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1), host_event);
	assert_false(vc->spe_irq_level);
	assert_int_equal(hv.vm[0].stats.spe_events, 0);
	sim_poke(0, VPERF_ENC_PMBSR_EL1, 0);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
}

/* ---- external aborts (switch.c) ------------------------------------------------------------- */

/*
 * An external abort on a write of the guest's buffer may be reported with the stage 1 or the
 * stage 2 Data Abort EC (SPE 3.5.4; the model's seed picks). With EA = 1 it is no stage 2 fault
 * the hypervisor can fix by mapping a page: the guest gets it (S, EA) whichever EC, and is never
 * restarted silently past records that never reached memory. Over sixteen seeds both ECs occur.
 */
static void test_ext_abort_with_s2_ec_reaches_guest(void **state)
{
	unsigned int s2_ec = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 16; seed++) {
		struct hv_vcpu *vc;
		uint64_t pmbsr;

		vs_init(1, 0, seed);
		assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
		vc = hv_vcpu(0, 0);
		hv_enter(vc, 0);
		lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
		sim_mem_set_abort(V_BUF_PA(0), PAGE, true);
		lx_start(&lx);
		lx_run(&lx, vc, 257 * 24); /* records in flight to the aborting page */
		hv_leave(0);		   /* the drain brings the abort in */
		hv_enter(vc, 0);
		assert_true(vc->spe_irq_level);
		psb_csync();
		dsb_nsh();
		isb();
		pmbsr = guest_read(PMBSR_EL1);
		assert_int_equal(pmbsr & (V_PMBSR_S | V_PMBSR_EA), V_PMBSR_S | V_PMBSR_EA);
		s2_ec += PMBSR_EC_OF(pmbsr) == EC_S2_DA;
		assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 0);
		sim_mem_set_abort(V_BUF_PA(0), PAGE, false);
		assert_int_equal(sim_error_count(), 0);
	}
	assert_true(s2_ec >= 1 && s2_ec < 16);
}

/* ---- the collision bit (switch.c, regs.c, event.c) ------------------------------------------ */

/* A trapped-buffer guest sampling into its 64 KB buffer. */
static struct hv_vcpu *coll_setup(uint64_t seed, uint64_t size)
{
	struct hv_vcpu *vc;

	vs_init(1, 0, seed);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = size };
	lx_probe();
	lx_start(&lx);
	return vc;
}

/*
 * PMBSR_EL1.COLL is set by the hardware, with no buffer management event, when a sample collides
 * (SPE 3.1.4), and stays set until software clears it. The guest sees it on a trapped read while
 * its buffer is live, and after a put (the hardware's PMBSR_EL1 of the next owner starts clear);
 * its own write of 0 clears it for good, in the hardware too.
 */
static void test_coll_reaches_guest(void **state)
{
	struct hv_vcpu *vc;
	uint64_t collisions;

	(void)state;
	vc = coll_setup(7, V_BUF_SIZE);
	run_loads(0, 257 * 4, 600);
	run_loads(0, 257 * 3, 3); /* the last long sample done */
	collisions = sim_spe_stats(0)->collision;
	assert_true(collisions >= 1);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_COLL); /* live, trapped read */
	guest_write(PMBSR_EL1, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1), 0);
	run_loads(0, 257 * 2, 3);
	assert_int_equal(sim_spe_stats(0)->collision, collisions);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_false(vc->spe_irq_level);

	run_loads(0, 257 * 4, 600); /* collisions again, then a switch before any read */
	hv_enter(hv_vcpu(1, 1), 0);
	hv_enter(vc, 0);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_COLL);
	guest_write(PMBSR_EL1, 0);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	lx_stop(&lx);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A buffer management event sets S, EC and MSS and leaves the other fields as they are (SPE 3.5):
 * a COLL the guest has not cleared yet is still there in the PMBSR_EL1 of its next buffer full
 * event, although the hardware's PMBSR_EL1 was cleared when the vCPU was loaded again.
 */
static void test_event_keeps_coll(void **state)
{
	uint64_t collisions;
	struct hv_vcpu *vc;
	uint64_t pmbsr;

	(void)state;
	vc = coll_setup(7, PAGE);
	run_loads(0, 257 * 4, 600);
	run_loads(0, 257 * 2, 3); /* the last long sample done */
	hv_leave(0);
	hv_enter(vc, 0);
	collisions = sim_spe_stats(0)->collision;
	for (unsigned int i = 0; i < 200 && !vc->spe_irq_level; i++)
		run_loads(0, 257, 3);
	assert_true(vc->spe_irq_level);
	assert_int_equal(sim_spe_stats(0)->collision, collisions); /* none since the load */
	pmbsr = guest_read(PMBSR_EL1);
	assert_int_equal(pmbsr & ~V_PMBSR_DL, V_PMBSR_S | V_PMBSR_COLL | BSC_FULL);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A stage 2 fault that cuts a record (DL = 1, SPE 3.5.3) is shown as a buffer full event with
 * DL = 1; the COLL the hardware set before it, which the guest has not read yet, comes with it.
 */
static void test_stage2_truncation_keeps_coll(void **state)
{
	struct hv_vcpu *vc;
	uint64_t pmbsr;

	(void)state;
	vs_init(1, 0, 11);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, false), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	sim_mem_unmap_s2(VMID0, V_BUF_IPA + PAGE, V_BUF_SIZE - PAGE);
	for (unsigned int i = 0; i < 400 && !vc->spe_irq_level; i++)
		run_loads(0, 257, 600);
	assert_true(vc->spe_irq_level);
	assert_true(sim_spe_stats(0)->collision >= 1);
	pmbsr = guest_read(PMBSR_EL1);
	assert_int_equal(pmbsr, V_PMBSR_S | V_PMBSR_DL | V_PMBSR_COLL | BSC_FULL);
	assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 1);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_pmbirq_outside_vm),
		cmocka_unit_test(test_host_pmbirq_guest_not_in_hw),
		cmocka_unit_test(test_ext_abort_with_s2_ec_reaches_guest),
		cmocka_unit_test(test_coll_reaches_guest),
		cmocka_unit_test(test_event_keeps_coll),
		cmocka_unit_test(test_stage2_truncation_keeps_coll),
	};

	return cmocka_run_group_tests_name("vspe_audit", tests, NULL, NULL);
}
