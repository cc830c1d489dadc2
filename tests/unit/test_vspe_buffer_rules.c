// SPDX-License-Identifier: MIT
/*
 * The guest's Profiling Buffer held to its rules (virt/vspe/buffer.c, switch.c), on the model,
 * with both guest-owned buffer policies (trapped, E2PB = 0b10; untrapped, E2PB = 0b11):
 *   - only PMBLIMITR_EL1.FM = 0b10 is discard mode (Arm DDI 0487 K.a D17.5.5, with
 *     FEAT_SPEv1p2); every other FM value, reserved ones included (a reserved value behaves as
 *     some defined one, SPE 4.3.2), is held to the write pointer rules of SPE 3.4.1;
 *   - a discard-mode buffer writes nothing, so vperf maps no stage 2 page for it;
 *   - a stage 2 Permission fault on the buffer (a hypervisor write-protecting pages to track
 *     dirty memory during a migration) is the hypervisor's, as a Translation fault is: mapped
 *     again through its stage2_map op and restarted, the guest seeing nothing (SPE 3.5.3);
 *   - a vCPU loaded with its virtual PMBSR_EL1.S = 1, an event it has not served, does not sample
 *     (SPE 3.5: S = 1 disables the buffer);
 *   - a collision (PMBSR_EL1.COLL, SPE 3.1.4) the hardware flagged while the vCPU was trapped
 *     stays visible to the guest once it runs untrapped, reading the hardware's PMBSR_EL1; COLL
 *     kept at a live read, at put, in a truncation and across a stage 2 restart;
 *   - discard mode as Linux enables it, on every SPE version the model offers, and the model's
 *     own discard mode; PMBPTR_EL1 == PMBLIMITR_EL1 at enable is a buffer full event without DL;
 *   - the re-enable after a buffer full event checked, and prefaulted, from the live pointer.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <arch/tlb.h>
#include <vperf/esr.h>

#include "vspe_util.h"

#define MODEL_PMSVER_N 5 /* SPEv1 .. SPEv1p4: every version the model implements */
#define HOST_VA	       0x0000008000000000ull /* vs_init_host's buffer on pCPU 0, EL2 regime */
#define HOST_SIZE      0x20000ull
#define EC_S1_DA       0x24ull

#define PAGE	     0x1000ull
#define VMID0	     1
#define BSC_FULL     1ull
#define V_FM(x)	     ((uint64_t)(x) << 1) /* PMBLIMITR_EL1.FM, bits [2:1] */
#define V_FM_DISCARD V_FM(2)
#define V_PMBSR_COLL (1ull << 16)

static const enum vperf_spe_buffer policies[] = { VPERF_SPE_BUF_EL1_TRAPPED, VPERF_SPE_BUF_EL1 };

static struct lx_spe lx;

/* A VM of policy buf on a model with PMSVer pmsver, its vCPU 0 loaded on pCPU 0; stage 2 mapped
 * up front when s2_now, else on demand. */
static struct hv_vcpu *setup(uint8_t pmsver, enum vperf_spe_buffer buf, bool s2_now)
{
	struct hv_vcpu *vc;

	vs_init(pmsver, 0, 5);
	assert_int_equal(vs_vm(0, buf, s2_now), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	return vc;
}

static void start_sampling(void)
{
	guest_write(PMSFCR_EL1, 0);
	guest_write(PMSIRR_EL1, V_INTERVAL_1);
	guest_write(PMSICR_EL1, 0);
	guest_write(PMSCR_EL1, V_PMSCR_E1SPE);
	isb();
}

/* ---- FM: only 0b10 is discard mode ---------------------------------------------------------- */

/*
 * On a VM shown SPEv1p2, a buffer enabled with PMBPTR_EL1 = LIMIT = 0 (no room for a record, SPE
 * 3.4.1) in FM = 0b01 or 0b11 gets the buffer full event that fill mode gets (S, BSC = full, its
 * virtual PMBIRQ up) and the hardware buffer stays off; in FM = 0b10 it is discard mode and gets
 * none. Mutations tried: vperf_vspe_discard (buffer.c) taking any non-zero FM, or FM[1] alone,
 * for discard mode: FM = 0b01 / 0b11 get no event.
 */
static void test_only_fm_0b10_is_discard(void **state)
{
	(void)state;
	for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++) {
		for (unsigned int fm = 0; fm < 4; fm++) {
			struct hv_vcpu *vc = setup(3, policies[p], true);

			guest_write(PMBPTR_EL1, 0);
			guest_write(PMBLIMITR_EL1, V_FM(fm) | V_PMBLIMITR_E);
			if (fm == 2) {
				assert_false(vc->spe_irq_level);
				assert_int_equal(guest_read(PMBSR_EL1), 0);
				continue;
			}
			assert_true(vc->spe_irq_level);
			assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | BSC_FULL);
			assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1) & V_PMBLIMITR_E, 0);
			assert_int_equal(sim_error_count(), 0);
		}
	}
}

/* On a VM shown SPEv1p1, FM = 0b10 is reserved, not discard mode (FEAT_SPEv1p2 adds it): the
 * same buffer gets the buffer full event. Mutation tried: vperf_vspe_discard honouring FM = 0b10
 * from SPEv1p1 on: no event. */
static void test_fm_0b10_not_discard_before_v1p2(void **state)
{
	(void)state;
	for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++) {
		struct hv_vcpu *vc = setup(2, policies[p], true);

		guest_write(PMBPTR_EL1, 0);
		guest_write(PMBLIMITR_EL1, V_FM_DISCARD | V_PMBLIMITR_E);
		assert_true(vc->spe_irq_level);
		assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | BSC_FULL);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1) & V_PMBLIMITR_E, 0);
		assert_int_equal(sim_error_count(), 0);
	}
}

/* ---- discard mode maps nothing ---------------------------------------------------------------- */

/*
 * A discard-mode buffer over the VM's own 64 KB (PMBPTR_EL1 and LIMIT valid, stage 2 mapped on
 * demand only): enabled, sampling, put and loaded again, and restored from a blob on another vCPU,
 * it writes nothing and vperf asks for no stage 2 mapping (a hypervisor tracking dirty pages
 * would otherwise see them all dirtied). Mutation tried: vperf_vspe_prefault (buffer.c) prefaulting
 * a discard-mode buffer: 16 pages mapped.
 */
static void test_discard_mode_maps_no_page(void **state)
{
	const uint64_t limitr = (V_BUF_VA + V_BUF_SIZE) | V_FM_DISCARD | V_PMBLIMITR_E;
	static uint8_t blob[VPERF_VSPE_BLOB_SIZE];

	(void)state;
	for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++) {
		struct hv_vcpu *vc = setup(3, policies[p], false), *other;
		int len;

		guest_write(PMBPTR_EL1, V_BUF_VA);
		guest_write(PMBLIMITR_EL1, limitr);
		start_sampling();
		vs_run_loads(0, 257 * 8, 3);
		assert_true(sim_spe_stats(0)->discarded >= 4);
		hv_leave(0);
		hv_enter(vc, 0);
		vs_run_loads(0, 257 * 4, 3);
		hv_leave(0);
		len = vperf_vcpu_save(&vc->v, blob, sizeof(blob));
		assert_true(len > 0);
		other = hv_vcpu(1, 0);
		assert_int_equal(vperf_vcpu_restore(&other->v, blob, (size_t)len), VPERF_OK);
		hv_enter(other, 0);
		vs_run_loads(0, 257 * 4, 3);
		assert_int_equal(guest_read(PMBLIMITR_EL1), limitr);
		assert_int_equal(sim_spe_stats(0)->written, 0);
		assert_int_equal(hv.mem[0].s2_maps, 0);
		assert_int_equal(sim_error_count(), 0);
	}
}

/* ---- a stage 2 Permission fault is the hypervisor's ------------------------------------------- */

/*
 * Linux's driver samples into its 64 KB buffer; the hypervisor then write-protects all of it at
 * stage 2 (dirty tracking for a migration). The next record's write is a stage 2 Permission fault
 * (PMBSR_EL1.EC = stage 2 Data Abort, FSC = 0b0011LL) with no data lost: vperf maps the page
 * again through stage2_map and restarts the buffer, the guest taking no interrupt and every
 * record it reads back complete. Mutation tried: stage2_mappable (switch.c) taking Translation and
 * Access flag faults only: the guest gets the fault as an event and its session ends.
 */
static void test_stage2_permission_fault_restarted(void **state)
{
	(void)state;
	for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++) {
		struct hv_vcpu *vc = setup(1, policies[p], false);
		unsigned int maps;

		lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
		lx_probe();
		lx_start(&lx);
		lx_run(&lx, vc, 2000);
		maps = hv.mem[0].s2_maps;
		assert_int_equal(
			sim_mem_map_s2(VMID0, V_BUF_IPA, V_BUF_PA(0), V_BUF_SIZE, SIM_PERM_R),
			VPERF_OK);
		lx_run(&lx, vc, 20000);
		lx_stop(&lx);
		assert_true(hv.vm[0].stats.spe_s2_fixed >= 1);
		assert_true(hv.mem[0].s2_maps > maps);
		assert_int_equal(hv.vm[0].stats.spe_events, 0);
		assert_int_equal(lx.irqs, 0);
		assert_int_equal(lx.fatal, 0);
		assert_int_equal(lx_records(&lx), sim_spe_stats(0)->written);
		assert_true(lx_records(&lx) >= 50);
		assert_int_equal(sim_error_count(), 0);
	}
}

/* ---- S = 1 at load: no sampling ---------------------------------------------------------------- */

/*
 * A guest's one-page buffer fills while it runs with its interrupt not taken: its virtual
 * PMBSR_EL1 holds the buffer full event (S = 1). Put, another VM in between, and loaded again, it
 * does not sample (the hardware buffer stays disabled, nothing is written, no further event) until
 * it has served the event (PMBSR_EL1 = 0), from where it samples again. Mutation tried (the two
 * guards together, as each covers the other): vperf_vspe_acquire (switch.c) enabling the hardware
 * buffer whatever S says, with save() counting a vCPU active by PMBLIMITR_EL1.E alone.
 */
static void test_unserved_event_does_not_sample_after_load(void **state)
{
	(void)state;
	for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++) {
		struct hv_vcpu *vc = setup(1, policies[p], true);
		uint64_t written, events, feed;

		assert_int_equal(vs_vm(1, policies[p], true), VPERF_OK);
		guest_write(PMBPTR_EL1, V_BUF_VA);
		guest_write(PMBLIMITR_EL1, (V_BUF_VA + PAGE) | V_PMBLIMITR_E);
		start_sampling();
		for (unsigned int i = 0; i < 200 && !vc->spe_irq_level; i++)
			vs_run_loads(0, 257, 3);
		assert_true(vc->spe_irq_level);
		hv_enter(hv_vcpu(1, 1), 0);
		hv_enter(vc, 0);
		written = sim_spe_stats(0)->written;
		events = sim_spe_stats(0)->events;
		feed = sim_spe_stats(0)->feed;
		assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1) & V_PMBLIMITR_E, 0);
		vs_run_loads(0, 257 * 8, 3);
		vs_drain_visible();
		assert_int_equal(sim_spe_stats(0)->written, written);
		assert_int_equal(sim_spe_pending(0), 0);
		assert_int_equal(sim_spe_stats(0)->feed, feed); /* nothing sampled at all */
		assert_int_equal(sim_spe_stats(0)->events, events);
		assert_true(vc->spe_irq_level);
		assert_int_equal(guest_read(PMBSR_EL1) & V_PMBSR_S, V_PMBSR_S);
		/* Served: the guest moves its pointer back and clears S; sampling resumes. */
		guest_write(PMBPTR_EL1, V_BUF_VA);
		guest_write(PMBSR_EL1, 0);
		isb();
		assert_false(vc->spe_irq_level);
		vs_run_loads(0, 257 * 8, 3);
		vs_drain_visible();
		assert_true(sim_spe_stats(0)->written > written);
		assert_int_equal(sim_error_count(), 0);
	}
}

/* ---- COLL across the change to untrapped ------------------------------------------------------ */

static unsigned int e2pb(void)
{
	return (unsigned int)V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2));
}

/*
 * VPERF_SPE_BUF_EL1: a guest whose PMBSR_EL1 holds DL (it wrote it so) runs trapped (E2PB = 0b10)
 * with its buffer in the hardware. It disables the buffer, clears PMBSR_EL1, and the hardware's
 * PMBSR_EL1.COLL is set meanwhile (poked here: a sampled operation that collided before the
 * disable and whose flag the PE sets later, SPE 3.1.4; the model itself makes a collision visible
 * at the next context synchronization event, the trap of the guest's disable, before its PMBSR_EL1
 * write, which would overwrite it). It then enables its buffer, which runs untrapped (0b11): the
 * guest reads the hardware's PMBSR_EL1, which must still hold the COLL the hardware set while it
 * was trapped. Mutation tried: vperf_vspe_try_direct (switch.c) writing the shadow PMBSR_EL1 alone
 * to the hardware: the guest reads 0.
 */
static void test_coll_kept_going_untrapped(void **state)
{
	const uint64_t lim = V_BUF_VA + V_BUF_SIZE;
	struct hv_vcpu *vc;

	(void)state;
	vc = setup(1, VPERF_SPE_BUF_EL1, true);
	guest_write(PMBSR_EL1, V_PMBSR_DL);
	guest_write(PMBPTR_EL1, V_BUF_VA);
	guest_write(PMBLIMITR_EL1, lim | V_PMBLIMITR_E);
	assert_int_equal(e2pb(), 2); /* DL: trapped, the buffer in the hardware */
	start_sampling();
	vs_run_loads(0, 257 * 2, 3);
	guest_write(PMBLIMITR_EL1, lim);
	guest_write(PMBSR_EL1, 0);
	assert_int_equal(e2pb(), 2);
	sim_poke(0, VPERF_ENC_PMBSR_EL1, sim_peek(0, VPERF_ENC_PMBSR_EL1) | V_PMBSR_COLL);
	guest_write(PMBLIMITR_EL1, lim | V_PMBLIMITR_E);
	assert_int_equal(e2pb(), 3);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_COLL);
	assert_false(vc->spe_irq_level);
	guest_write(PMBSR_EL1, 0); /* the guest's to clear */
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_int_equal(sim_error_count(), 0);
}

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

/*
 * arm_spe_pmu's discard mode: PMBLIMITR_EL1 = FM 0b10 | E with LIMIT = 0 and PMBPTR_EL1 left at 0,
 * which breaks every rule of SPE 3.4.1. In discard mode those rules do not apply and no buffer
 * management event is generated (D17.5.5): the guest reads PMBSR_EL1 = 0, no interrupt, the
 * hardware buffer is on and samples, every record discarded, none written; a blob of this state
 * is taken and restored. Before SPEv1p2 FM = 0b10 is reserved, no discard mode: the rules apply.
 */
static void discard_mode(uint8_t pmsver, enum vperf_spe_buffer buf)
{
	const uint64_t limitr = V_FM_DISCARD | V_PMBLIMITR_E;
	static uint8_t blob[VPERF_VSPE_BLOB_SIZE];
	struct hv_vcpu *vc = vs_setup_on_version(pmsver, buf, true, 3), *other;
	int len;

	guest_write(PMBPTR_EL1, 0);
	guest_write(PMBLIMITR_EL1, limitr);
	if (pmsver < 3) {
		assert_true(vc->spe_irq_level);
		assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | BSC_FULL);
		return;
	}
	start_sampling();
	vs_run_loads(0, 257 * 8, 3);
	assert_false(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_int_equal(guest_read(PMBLIMITR_EL1), limitr);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1), limitr);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)),
			 buf == VPERF_SPE_BUF_EL1 ? 3 : 2);
	assert_true(sim_spe_stats(0)->discarded >= 4);
	assert_int_equal(sim_spe_stats(0)->written, 0);
	assert_int_equal(hv.vm[0].stats.bad_value, 0);
	hv_leave(0);
	len = vperf_vcpu_save(&vc->v, blob, sizeof(blob));
	assert_true(len > 0);
	other = hv_vcpu(1, 0);
	assert_int_equal(vperf_vcpu_restore(&other->v, blob, (size_t)len), VPERF_OK);
	hv_enter(other, 0);
	assert_int_equal(guest_read(PMBLIMITR_EL1), limitr);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1), limitr);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_int_equal(sim_error_count(), 0);
}

static void test_discard_mode(void **state)
{
	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++)
			discard_mode(v, policies[p]);
}

/*
 * The model on its own, an EL2-owned buffer with no vperf in between: enabled in discard mode with
 * PMBPTR_EL1 at the limit (no room, SPE 3.4.1), it samples, writes nothing and raises no event
 * (D17.5.5). Leaving discard mode with the buffer still enabled puts the rules back: the model
 * checks them then and gives the broken rule its outcome (here, by option, a stage 1 fault at
 * PMBPTR_EL1). Before SPEv1p2 FM = 0b10 is reserved and behaves as 0b00.
 */
static void model_discard(uint8_t pmsver)
{
	const uint64_t lim = HOST_VA + HOST_SIZE;
	struct sim_spe_options o;
	uint64_t pmbsr;

	vs_init_host(pmsver, 4);
	sim_spe_default_options(&o);
	o.wptr = SIM_SPE_WPTR_FAULT;
	sim_spe_set_options(&o);
	write_sysreg(0, PMBLIMITR_EL1);
	isb();
	write_sysreg(lim, PMBPTR_EL1);
	write_sysreg(lim | V_FM_DISCARD | V_PMBLIMITR_E, PMBLIMITR_EL1);
	isb();
	vs_host_run(257 * 8);
	vs_drain_visible();
	pmbsr = read_sysreg(PMBSR_EL1);
	if (pmsver < 3) {
		assert_int_equal(pmbsr & V_PMBSR_S, V_PMBSR_S);
		return;
	}
	assert_int_equal(pmbsr, 0);
	assert_int_equal(read_sysreg(PMBPTR_EL1), lim);
	assert_int_equal(sim_spe_stats(0)->written, 0);
	assert_true(sim_spe_stats(0)->discarded >= 4);
	assert_int_equal(sim_spe_stats(0)->events, 0);
	write_sysreg(lim | V_PMBLIMITR_E, PMBLIMITR_EL1);
	isb();
	vs_host_run(257 * 8);
	vs_drain_visible();
	pmbsr = read_sysreg(PMBSR_EL1);
	assert_int_equal(pmbsr & V_PMBSR_S, V_PMBSR_S);
	assert_int_equal((pmbsr >> 26) & 0x3f, EC_S1_DA);
	assert_int_equal(sim_spe_stats(0)->events, 1);
	assert_int_equal(sim_error_count(), 0);
}

static void test_model_discard_mode(void **state)
{
	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		model_discard(v);
}

/* A guest buffer of size bytes filled up to its buffer full event, the guest's line high. */
static struct hv_vcpu *fill(uint8_t pmsver, enum vperf_spe_buffer buf, uint64_t size)
{
	struct hv_vcpu *vc = vs_setup_on_version(pmsver, buf, true, 5);

	lx = (struct lx_spe){ .vm = 0, .size = size };
	lx_probe();
	lx_start(&lx);
	for (unsigned int i = 0; i < 2000 && !vc->spe_irq_level; i++)
		vs_run_loads(0, 257, 3);
	assert_true(vc->spe_irq_level);
	psb_csync();
	dsb_nsh();
	isb();
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | BSC_FULL);
	return vc;
}

/*
 * After a buffer full event the guest rewrites only PMBLIMITR_EL1 (the same limit) and clears
 * PMBSR_EL1.S: the pointer is where the hardware left it, less than 2^MaxSize bytes below the
 * limit, so the buffer breaks SPE 3.4.1 and gets its outcome (a buffer full event), the hardware
 * buffer staying off; the pointer the guest wrote at the start is not the one that counts.
 */
static void rearm_checks_live_pointer(uint8_t pmsver, enum vperf_spe_buffer buf)
{
	const uint64_t lim = V_BUF_VA + PAGE;
	struct hv_vcpu *vc = fill(pmsver, buf, PAGE);
	uint64_t ptr = guest_read(PMBPTR_EL1);

	assert_true(lim - ptr < 64); /* MaxSize 64 bytes */
	guest_write(PMBLIMITR_EL1, lim | V_PMBLIMITR_E);
	guest_write(PMBSR_EL1, 0);
	assert_true(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | BSC_FULL);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1) & V_PMBLIMITR_E, 0);
	assert_int_equal(guest_read(PMBPTR_EL1), ptr);
	assert_int_equal(sim_error_count(), 0);
}

static void test_rearm_checks_live_pointer(void **state)
{
	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++)
			rearm_checks_live_pointer(v, policies[p]);
}

/*
 * The same guest extends its limit instead (32 KB to 64 KB) and clears S: the rules hold from the
 * live pointer, the buffer goes on from there, and the prefault maps the pages from the live
 * pointer on, not the pages the guest's first window began with (which the hypervisor has taken
 * back meanwhile).
 */
static void rearm_prefaults_from_live_pointer(uint8_t pmsver, enum vperf_spe_buffer buf)
{
	struct hv_vcpu *vc = fill(pmsver, buf, V_BUF_SIZE / 2);
	uint64_t ptr = guest_read(PMBPTR_EL1);
	uint64_t live_page = (ptr - V_BUF_VA) & ~(PAGE - 1);

	sim_mem_unmap_s2(VMID0, V_BUF_IPA, live_page);
	tlbi_vmalls12e1is(); /* the hypervisor's TLB maintenance (SPE 3.4.4) */
	dsb_nsh();
	guest_write(PMBLIMITR_EL1, (V_BUF_VA + V_BUF_SIZE) | V_PMBLIMITR_E);
	guest_write(PMBSR_EL1, 0);
	assert_false(vc->spe_irq_level);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1) & V_PMBLIMITR_E, V_PMBLIMITR_E);
	assert_int_equal(sim_mem_translate_s2(VMID0, V_BUF_IPA, true).fault, 2);
	assert_int_equal(sim_mem_translate_s2(VMID0, V_BUF_IPA + live_page - PAGE, true).fault, 2);
	assert_int_equal(sim_mem_translate_s2(VMID0, V_BUF_IPA + live_page, true).fault, 0);
	assert_int_equal(sim_mem_translate_s2(VMID0, V_BUF_IPA + V_BUF_SIZE - PAGE, true).fault, 0);
	vs_run_loads(0, 257 * 8, 3);
	vs_drain_visible();
	assert_false(vc->spe_irq_level);
	assert_true(guest_read(PMBPTR_EL1) > ptr);
	assert_int_equal(sim_error_count(), 0);
}

static void test_rearm_prefaults_from_live_pointer(void **state)
{
	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++)
			rearm_prefaults_from_live_pointer(v, policies[p]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_only_fm_0b10_is_discard),
		cmocka_unit_test(test_fm_0b10_not_discard_before_v1p2),
		cmocka_unit_test(test_discard_mode_maps_no_page),
		cmocka_unit_test(test_stage2_permission_fault_restarted),
		cmocka_unit_test(test_unserved_event_does_not_sample_after_load),
		cmocka_unit_test(test_coll_kept_going_untrapped),
		cmocka_unit_test(test_coll_reaches_guest),
		cmocka_unit_test(test_event_keeps_coll),
		cmocka_unit_test(test_stage2_truncation_keeps_coll),
		cmocka_unit_test(test_stage2_restart_keeps_coll),
		cmocka_unit_test(test_enable_at_limit_is_full_without_dl),
		cmocka_unit_test(test_discard_mode),
		cmocka_unit_test(test_model_discard_mode),
		cmocka_unit_test(test_rearm_checks_live_pointer),
		cmocka_unit_test(test_rearm_prefaults_from_live_pointer),
	};

	return cmocka_run_group_tests_name("vspe_buffer_rules", tests, NULL, NULL);
}
