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
#include <vperf/esr.h>

#define PAGE	       0x1000ull
#define VMID0	       1
#define BSC_FULL       1ull
#define EC_S2_DA       0x25ull
#define PMBSR_EC_OF(v) (((v) >> 26) & 0x3fu)
#define V_PMBSR_COLL   (1ull << 16)
#define HOST_VA	       0x0000008000000000ull /* vs_init_host's buffer on pCPU 0, EL2 regime */

static struct lx_spe lx;

/* n sampled loads of VM vm's loop, each `latency` cycles long: above the sampling interval (256
 * operations), every other sample collides with the one still in flight (SPE 3.1.4). */
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
		vs_run_loads(0, 257, 3);
	assert_true(hv.spe_irqs >= 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1) & (V_PMBSR_S | 0x3f),
			 V_PMBSR_S | BSC_FULL);
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

/* A guest sampling into its buffer (trapped unless buf says otherwise). */
static struct hv_vcpu *coll_setup_buf(uint64_t seed, uint64_t size, enum vperf_spe_buffer buf)
{
	struct hv_vcpu *vc;

	vs_init(1, 0, seed);
	assert_int_equal(vs_vm(0, buf, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = size };
	lx_probe();
	lx_start(&lx);
	return vc;
}

static struct hv_vcpu *coll_setup(uint64_t seed, uint64_t size)
{
	return coll_setup_buf(seed, size, VPERF_SPE_BUF_EL1_TRAPPED);
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
	vs_run_loads(0, 257 * 4, 600);
	vs_run_loads(0, 257 * 3, 3); /* the last long sample done */
	collisions = sim_spe_stats(0)->collision;
	assert_true(collisions >= 1);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_COLL); /* live, trapped read */
	guest_write(PMBSR_EL1, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1), 0);
	vs_run_loads(0, 257 * 2, 3);
	assert_int_equal(sim_spe_stats(0)->collision, collisions);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_false(vc->spe_irq_level);

	vs_run_loads(0, 257 * 4, 600); /* collisions again, then a switch before any read */
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
	vs_run_loads(0, 257 * 4, 600);
	vs_run_loads(0, 257 * 2, 3); /* the last long sample done */
	hv_leave(0);
	hv_enter(vc, 0);
	collisions = sim_spe_stats(0)->collision;
	for (unsigned int i = 0; i < 200 && !vc->spe_irq_level; i++)
		vs_run_loads(0, 257, 3);
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
		vs_run_loads(0, 257, 600);
	assert_true(vc->spe_irq_level);
	assert_true(sim_spe_stats(0)->collision >= 1);
	pmbsr = guest_read(PMBSR_EL1);
	assert_int_equal(pmbsr, V_PMBSR_S | V_PMBSR_DL | V_PMBSR_COLL | BSC_FULL);
	assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 1);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A stage 2 fault vperf restarts itself (DL = 0) changes nothing the guest can see, and so keeps
 * what the hardware set before it: a COLL of samples that collided earlier, not read yet, is in
 * the guest's PMBSR_EL1 after the restart (SPE 3.1.4: it stays set until software clears it).
 */
static void stage2_restart_keeps_coll(enum vperf_spe_buffer buf)
{
	struct hv_vcpu *vc;
	uint64_t collisions, ptr;

	vc = coll_setup_buf(11, V_BUF_SIZE, buf);
	vs_run_loads(0, 257 * 4, 600);
	vs_run_loads(0, 257 * 3, 3); /* the last long sample done */
	collisions = sim_spe_stats(0)->collision;
	assert_true(collisions >= 1);
	ptr = sim_peek(0, VPERF_ENC_PMBPTR_EL1);
	sim_mem_unmap_s2(VMID0, V_BUF_IPA + ((ptr - V_BUF_VA) & ~(PAGE - 1)), V_BUF_SIZE);
	for (unsigned int i = 0; i < 100 && !hv.vm[0].stats.spe_s2_fixed; i++)
		vs_run_loads(0, 257, 3);
	assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 1);
	assert_int_equal(sim_spe_stats(0)->collision, collisions);
	assert_false(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_COLL);
	lx_stop(&lx);
	assert_int_equal(sim_error_count(), 0);
}

/* Trapped, the guest reads the virtual PMBSR_EL1; untrapped (E2PB = 0b11), the hardware's. */
static void test_stage2_restart_keeps_coll(void **state)
{
	(void)state;
	stage2_restart_keeps_coll(VPERF_SPE_BUF_EL1_TRAPPED);
	stage2_restart_keeps_coll(VPERF_SPE_BUF_EL1);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
}

/* ---- the untrapped buffer (switch.c) -------------------------------------------------------- */

/*
 * An untrapped guest (E2PB = 0b11) whose buffer's next page the hypervisor took back at stage 2:
 * the record in flight at put faults on its first byte (DL = 0, SPE 3.5.3), vperf maps the page
 * and restarts the buffer itself. Nothing of it reaches the guest: no interrupt, PMBSR_EL1 reads
 * 0 and the buffer goes on, untrapped again, with every record in the guest's buffer.
 */
static void test_untrapped_put_with_stage2_fault(void **state)
{
	struct hv_vcpu *vc;
	uint64_t ptr;

	(void)state;
	vs_init(1, 0, 11);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, false), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_probe();
	lx_start(&lx);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	lx_run(&lx, vc, 2000);
	ptr = sim_peek(0, VPERF_ENC_PMBPTR_EL1);
	sim_mem_unmap_s2(VMID0, V_BUF_IPA + ((ptr - V_BUF_VA) & ~(PAGE - 1)), V_BUF_SIZE);
	for (unsigned int i = 0; i < 40 && !hv.vm[0].stats.spe_s2_fixed; i++) {
		lx_run(&lx, vc, 300);
		hv_leave(0);
		hv_enter(vc, 0);
	}
	assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 1);
	assert_int_equal(hv.spe_irqs, 0); /* taken at put, not at a PMBIRQ */
	assert_false(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	lx_run(&lx, vc, 3000);
	lx_stop(&lx);
	assert_int_equal(lx.irqs, 0);
	assert_int_equal(hv.vm[0].stats.spe_events, 0);
	assert_int_equal(lx_records(&lx), sim_spe_stats(0)->written);
	assert_int_equal(sim_error_count(), 0);
}

/* PMBLIMITR_EL1.FM (here the reserved 0b11; 0b10 is discard mode from SPEv1p2, SPE 4.3.2) written
 * by an untrapped guest is part of its state: it reads it back after a put and a load. */
static void test_untrapped_fm_survives_put(void **state)
{
	const uint64_t limitr = (V_BUF_VA + V_BUF_SIZE) | (3ull << 1) | V_PMBLIMITR_E;
	struct hv_vcpu *vc;

	(void)state;
	vs_init(3, 0, 2);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	guest_write(PMBPTR_EL1, V_BUF_VA);
	guest_write(PMBLIMITR_EL1, limitr);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	hv_enter(hv_vcpu(1, 1), 0);
	hv_enter(vc, 0);
	assert_int_equal(guest_read(PMBLIMITR_EL1), limitr);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- the buffer rules and the syndrome (buffer.c, regs.c) ---------------------------------- */

/*
 * A buffer enabled with PMBPTR_EL1 == PMBLIMITR_EL1.LIMIT has no room for a record (SPE 3.4.1): it
 * is the full buffer a restart from the saved pointer leaves, nothing was lost, and vperf shows the
 * buffer full event with DL = 0 (SPE 3.5.2) without enabling the hardware. A pointer past the limit
 * is one that lost data: DL = 1.
 */
static void test_enable_at_limit_is_full_without_dl(void **state)
{
	const uint64_t lim = V_BUF_VA + V_BUF_SIZE;
	struct hv_vcpu *vc;

	(void)state;
	vs_init(1, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	guest_write(PMBPTR_EL1, lim);
	guest_write(PMBLIMITR_EL1, lim | V_PMBLIMITR_E);
	assert_true(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | BSC_FULL);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1) & V_PMBLIMITR_E, 0);
	guest_write(PMBLIMITR_EL1, 0);
	guest_write(PMBSR_EL1, 0);
	guest_write(PMBPTR_EL1, lim + 0x40);
	guest_write(PMBLIMITR_EL1, lim | V_PMBLIMITR_E);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | V_PMBSR_DL | BSC_FULL);
	assert_int_equal(sim_error_count(), 0);
}

/* Every SPE register is UNDEFINED at EL0 (SPE 3.2.3, 3.4.6), before any trap: a syndrome that
 * claims an EL0 access, as a confused or hostile hypervisor path could deliver, is UNDEF and
 * changes nothing. */
static void test_el0_syndrome_undef(void **state)
{
	static const uint32_t regs[] = { VPERF_ENC_PMSCR_EL1, VPERF_ENC_PMBPTR_EL1,
					 VPERF_ENC_PMBSR_EL1, VPERF_ENC_PMSIDR_EL1 };
	uint64_t gprs[31] = { 0 };

	(void)state;
	vs_init(1, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	gprs[3] = V_PMSCR_E1SPE;
	for (unsigned int i = 0; i < 4; i++) {
		assert_int_equal(hv_raw_trap(vperf_esr_encode_sysreg(regs[i], 3, false), gprs, 0),
				 VPERF_TRAP_UNDEF);
		assert_int_equal(hv_raw_trap(vperf_esr_encode_sysreg(regs[i], 4, true), gprs, 0),
				 VPERF_TRAP_UNDEF);
	}
	assert_int_equal(gprs[4], 0);
	assert_int_equal(guest_read(PMSCR_EL1), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- the host's own buffer around a guest (host.c, ../vcpu.c, ../mdcr.c) ------------------- */

/*
 * On an SPEv1p1 host (PMSVer 2) PMSNEVFR_EL1 does not exist and is UNDEFINED even at EL2: parking
 * and unparking the host's buffer around a vSPE guest never touches it (the model reports any
 * access of a register the PE lacks), and the host's records are all its own.
 */
static void test_park_spev1p1_no_pmsnevfr(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	vs_init_host(2, 6);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	vs_host_run(2000);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	lx_run(&lx, vc, 2000);
	hv_leave(0);
	vs_host_run(2000);
	assert_true(vs_host_records(0) >= 10);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A vSPE guest whose PMU runs in XENPMU_MODE_HV keeps the host's MDCR_EL2.HPME, so nothing but the
 * parked buffer makes its put write MDCR_EL2: the host's E2PB = 0b00 must be back before the
 * host's buffer is, or the host samples with the buffer still EL1's, through the guest's regime.
 */
static void test_unpark_after_e2pb_is_the_hosts(void **state)
{
	const struct vperf_vm_config spe = { .spe = true, .spe_buffer = VPERF_SPE_BUF_EL1_TRAPPED };
	struct hv_vcpu *vc;

	(void)state;
	vs_init_host(3, 8);
	assert_int_equal(vs_vm_mode(0, &spe, true, VPERF_PMU_HV), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	lx_run(&lx, vc, 2000);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 2);
	hv_leave(0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 0);
	vs_host_run(2000);
	assert_true(vs_host_records(0) >= 5);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- the MDCR_EL2 cache (../mdcr.c, switch.c) ------------------------------------------------ */

/* A vCPU that ran on pCPU 0 (HPMN 4) moves to pCPU 1, whose host keeps one counter (HPMN 5): it
 * runs with pCPU 1's MDCR_EL2, not the value cached on pCPU 0. */
static void test_mdcr_after_migration(void **state)
{
	const struct vperf_pcpu_config one = { .host_counters = 1 };
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 2 };
	struct hv_vcpu *a;

	(void)state;
	vs_init(1, 0, 1);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &one), VPERF_OK);
	hv_host_boot(1);
	sim_set_cpu(0);
	vperf_pmu_filter_allow_all(&cfg.filter);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & 0x1f, 4);
	hv_leave(0);
	hv_enter(a, 1);
	assert_int_equal(sim_peek(1, VPERF_ENC_MDCR_EL2) & 0x1f, 5);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * vCPU C ran once with no buffer (E2PB = 0b10 cached), then is restored from a blob whose buffer
 * is live, taken from vCPU A of the same VM: at its next load, on the same pCPU, it runs
 * untrapped (E2PB = 0b11) as a load of that state does, not with the cached value.
 */
static void test_mdcr_after_restore_of_live_buffer(void **state)
{
	static uint8_t blob[VPERF_VSPE_BLOB_SIZE];
	struct hv_vcpu *a, *c;
	int len;

	(void)state;
	vs_init(1, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	a = hv_vcpu(0, 0);
	c = hv_vcpu(1, 0);
	hv_enter(c, 0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 2);
	hv_enter(a, 0);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	hv_leave(0);
	len = vperf_vcpu_save(&a->v, blob, sizeof(blob));
	assert_true(len > 0);
	assert_int_equal(vperf_vcpu_restore(&c->v, blob, (size_t)len), VPERF_OK);
	hv_enter(c, 0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	lx_run(&lx, c, 2000);
	lx_stop(&lx);
	assert_true(lx_records(&lx) >= 5);
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
		cmocka_unit_test(test_stage2_restart_keeps_coll),
		cmocka_unit_test(test_untrapped_put_with_stage2_fault),
		cmocka_unit_test(test_untrapped_fm_survives_put),
		cmocka_unit_test(test_enable_at_limit_is_full_without_dl),
		cmocka_unit_test(test_el0_syndrome_undef),
		cmocka_unit_test(test_park_spev1p1_no_pmsnevfr),
		cmocka_unit_test(test_unpark_after_e2pb_is_the_hosts),
		cmocka_unit_test(test_mdcr_after_migration),
		cmocka_unit_test(test_mdcr_after_restore_of_live_buffer),
	};

	return cmocka_run_group_tests_name("vspe_audit", tests, NULL, NULL);
}
