// SPDX-License-Identifier: MIT
/*
 * The vSPE held to the letter of the SPE supplement (Arm DDI 0586A, cited as "SPE <section>") and
 * of the SPE chapters of Arm DDI 0487 K.a (D17.5, D18.2), on every SPE version the model offers
 * and with both guest-owned buffer policies (trapped, E2PB = 0b10; untrapped, E2PB = 0b11):
 * discard mode, the event filter bits of each version, PMBIRQ across a vCPU reset, the write
 * pointer rules checked on the live pointer, the stage 2 restart that leaves PMBSR_EL1 as it was,
 * and what a guest sees of a stage 2 fault that lost data.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "vspe_util.h"
#include <arch/sysreg.h>
#include <arch/tlb.h>

#define PAGE	       0x1000ull
#define VMID0	       1
#define BSC_FULL       1ull
#define EC_S2_DA       0x25ull
#define FSC_XLAT_L3    0x07ull
#define V_PMBSR_COLL   (1ull << 16)
#define V_FM_DISCARD   (2ull << 1) /* PMBLIMITR_EL1.FM = 0b10 (D17.5.5) */
#define MODEL_PMSVER_N 5	   /* SPEv1 .. SPEv1p4: every version the model implements */
#define VM_PMSVER_MAX  3	   /* what vperf offers at most */

static struct lx_spe lx;

static const enum vperf_spe_buffer policies[] = { VPERF_SPE_BUF_EL1_TRAPPED, VPERF_SPE_BUF_EL1 };

static unsigned int vm_pmsver(unsigned int pmsver)
{
	return pmsver < VM_PMSVER_MAX ? pmsver : VM_PMSVER_MAX;
}

/* A VM of policy buf on a model with PMSVer pmsver, its vCPU 0 loaded on pCPU 0. */
static struct hv_vcpu *setup(uint8_t pmsver, enum vperf_spe_buffer buf, bool s2_now, uint64_t seed)
{
	struct hv_vcpu *vc;

	vs_init(pmsver, 0, seed);
	assert_int_equal(vs_vm(0, buf, s2_now), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	return vc;
}

/* The sampling controls of arm_spe_pmu_start, one sample per 257 operations. */
static void start_sampling(void)
{
	guest_write(PMSFCR_EL1, 0);
	guest_write(PMSIRR_EL1, V_INTERVAL_1);
	guest_write(PMSICR_EL1, 0);
	guest_write(PMSCR_EL1, V_PMSCR_E1SPE);
	isb();
}

/* ---- discard mode (D17.5.5) ----------------------------------------------------------------- */

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
	struct hv_vcpu *vc = setup(pmsver, buf, true, 3), *other;
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

#define HOST_VA	  0x0000008000000000ull /* vs_init_host's buffer on pCPU 0, EL2 regime */
#define HOST_SIZE 0x20000ull
#define EC_S1_DA  0x24ull

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

/* ---- the event filter bits of each version (D18.2.6) ---------------------------------------- */

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
	vc = setup(2, VPERF_SPE_BUF_EL1_TRAPPED, true, 1);
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

/* ---- PMBIRQ across a vCPU reset (SPE 3.5) --------------------------------------------------- */

/*
 * PMBIRQ is a level driven by PMBSR_EL1.S (SPE 3.5). A vCPU reset with an event pending (S = 1, its
 * virtual line high) clears S (SPE 4.2: vperf resets PMBSR_EL1 to 0): its line drops at the next
 * load, as any other change of the level.
 */
static void reset_drops_pmbirq(uint8_t pmsver, enum vperf_spe_buffer buf)
{
	const uint64_t lim = V_BUF_VA + V_BUF_SIZE;
	struct hv_vcpu *vc = setup(pmsver, buf, true, 1);

	guest_write(PMBPTR_EL1, lim); /* no room: a buffer full event (SPE 3.4.1) */
	guest_write(PMBLIMITR_EL1, lim | V_PMBLIMITR_E);
	assert_true(vc->spe_irq_level);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_reset(&vc->v), VPERF_OK);
	hv_enter(vc, 0);
	assert_false(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	/* Reset with the line already low pushes nothing. */
	hv_leave(0);
	assert_int_equal(vperf_vcpu_reset(&vc->v), VPERF_OK);
	hv_enter(vc, 0);
	assert_false(vc->spe_irq_level);
	assert_int_equal(sim_error_count(), 0);
}

static void test_reset_drops_pmbirq(void **state)
{
	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++)
			reset_drops_pmbirq(v, policies[p]);
}

/* ---- the write pointer rules on the live pointer (SPE 3.4.1) -------------------------------- */

/* A guest buffer of size bytes filled up to its buffer full event, the guest's line high. */
static struct hv_vcpu *fill(uint8_t pmsver, enum vperf_spe_buffer buf, uint64_t size)
{
	struct hv_vcpu *vc = setup(pmsver, buf, true, 5);

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

/* ---- the stage 2 restart leaves PMBSR_EL1 as it was (SPE 3.5) ------------------------------- */

/*
 * A stage 2 fault with no data lost, which vperf maps and restarts itself, found at a PMBIRQ (the
 * guest keeps running, several samples per slice) or by put's drain (one sample per slice, then a
 * switch). The guest's PMBSR_EL1 before it held `before` (its own write, S = 0) and the hardware
 * set COLL meanwhile (long samples collide, SPE 3.1.4): after the restart the guest reads exactly
 * before | COLL, no stage 2 EC or FSC, no interrupt; its buffer goes on.
 */
static void restart_keeps_pmbsr(uint8_t pmsver, enum vperf_spe_buffer buf, bool at_put,
				uint64_t before)
{
	const struct sim_uop slow = { .pc = V_LOOP_PC(0),
				      .vaddr = 0x4000,
				      .latency = 600,
				      .type = SIM_UOP_LOAD,
				      .size_log2 = 3 };
	struct hv_vcpu *vc = setup(pmsver, buf, true, 11);
	uint64_t ptr;

	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_probe();
	guest_write(PMBSR_EL1, before); /* trapped: the buffer is not live yet */
	lx_start(&lx);
	for (unsigned int i = 0; i < 257 * 4; i++)
		guest_run(&slow, 1);
	vs_run_loads(0, 257 * 3, 3); /* the last long sample done */
	assert_true(sim_spe_stats(0)->collision >= 1);
	hv_leave(0); /* every record so far in memory */
	hv_enter(vc, 0);
	ptr = sim_peek(0, VPERF_ENC_PMBPTR_EL1);
	sim_mem_unmap_s2(VMID0, V_BUF_IPA + ((ptr - V_BUF_VA) & ~(PAGE - 1)), V_BUF_SIZE);
	tlbi_vmalls12e1is(); /* the hypervisor's TLB maintenance (SPE 3.4.4) */
	dsb_nsh();
	for (unsigned int i = 0; i < 100 && !hv.vm[0].stats.spe_s2_fixed; i++) {
		if (!at_put) {
			vs_run_loads(0, 257, 3);
			continue;
		}
		vs_run_loads(0, 300, 3);
		hv_leave(0);
		hv_enter(vc, 0);
	}
	assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 1);
	assert_int_equal(hv.spe_irqs, at_put ? 0 : 1);
	assert_false(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), before | V_PMBSR_COLL);
	if (buf == VPERF_SPE_BUF_EL1) /* untrapped unless DL or EA could be misread */
		assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)),
				 before & (V_PMBSR_DL | V_PMBSR_EA) ? 2 : 3);
	vs_run_loads(0, 257 * 4, 3);
	vs_drain_visible();
	assert_true(guest_read(PMBPTR_EL1) > ptr);
	assert_int_equal(hv.vm[0].stats.spe_events, 0);
	assert_int_equal(sim_error_count(), 0);
}

static void test_restart_keeps_pmbsr(void **state)
{
	/* What a guest that clears only S leaves of an earlier event: a buffer full's BSC, a
	 * truncation's DL, an external abort's EA. */
	static const uint64_t befores[] = { 0, BSC_FULL, V_PMBSR_DL | BSC_FULL, V_PMBSR_EA };

	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++)
			for (unsigned int put = 0; put < 2; put++)
				for (unsigned int b = 0; b < VPERF_ARRAY_SIZE(befores); b++)
					restart_keeps_pmbsr(v, policies[p], put, befores[b]);
}

/* ---- a guest's own PMBSR_EL1 write that sets S (SPE 3.5) ------------------------------------ */

/*
 * Trapped, a guest's write of PMBSR_EL1 with S = 1 asserts its interrupt, whatever EC it names
 * (SPE 3.5), and it reads back what it wrote; nothing is mapped for it. Untrapped (E2PB = 0b11) the
 * write goes to the hardware. With the stage 2 Data Abort EC and an FSC no mapping cures (here
 * 0, an address size fault) it is none of vperf's faults and reaches the guest as written. With a
 * Translation fault's FSC it is what a stage 2 fault of vperf's own leaves too: vperf cannot tell
 * the two apart (docs/vspe.md) and takes it for its fault (the page at PMBPTR_EL1 mapped,
 * profiling resumed, no interrupt).
 */
static void guest_sets_s_fsc(uint8_t pmsver, enum vperf_spe_buffer buf, uint64_t fsc)
{
	const uint64_t val = V_PMBSR_S | V_PMBSR_EC(EC_S2_DA) | fsc;
	struct hv_vcpu *vc = setup(pmsver, buf, true, 2);

	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	vs_run_loads(0, 257 * 2, 3);
	guest_write(PMBSR_EL1, val);
	vs_run_loads(0, 4, 3);
	if (buf == VPERF_SPE_BUF_EL1_TRAPPED || fsc != FSC_XLAT_L3) {
		assert_true(vc->spe_irq_level);
		assert_int_equal(guest_read(PMBSR_EL1), val);
		assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 0);
	} else {
		assert_false(vc->spe_irq_level);
		assert_int_equal(guest_read(PMBSR_EL1), 0);
		assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 1);
	}
	assert_int_equal(sim_error_count(), 0);
}

static void test_guest_sets_s(void **state)
{
	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++) {
			guest_sets_s_fsc(v, policies[p], 0);
			guest_sets_s_fsc(v, policies[p], FSC_XLAT_L3);
		}
}

/* ---- a stage 2 fault that lost data (SPE 3.5.2, 3.5.3) -------------------------------------- */

/*
 * A record cut by a stage 2 fault (DL = 1) reaches the guest as a buffer full event with DL = 1
 * while PMBPTR_EL1 lies far below the limit: a deliberate departure from SPE 3.5.2, which has
 * buffer full only at the limit (docs/vspe.md). arm_spe_pmu handles it as a truncation: it keeps
 * the data up to PMBPTR_EL1, flags the session truncated and does not re-arm; it reports no
 * error, which the architected alternatives (a fault, or EC = 0 with BSC = 0) would bring.
 */
static void stage2_dl(uint8_t pmsver, enum vperf_spe_buffer buf)
{
	struct hv_vcpu *vc = setup(pmsver, buf, false, 11);
	uint64_t pmbsr, ptr;

	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	sim_mem_unmap_s2(VMID0, V_BUF_IPA + PAGE, V_BUF_SIZE - PAGE);
	for (unsigned int i = 0; i < 400 && !vc->spe_irq_level; i++)
		vs_run_loads(0, 257, 3);
	assert_true(vc->spe_irq_level);
	psb_csync();
	dsb_nsh();
	isb();
	pmbsr = guest_read(PMBSR_EL1);
	ptr = guest_read(PMBPTR_EL1);
	assert_int_equal(pmbsr & ~V_PMBSR_COLL, V_PMBSR_S | V_PMBSR_DL | BSC_FULL);
	assert_true(ptr > V_BUF_VA + PAGE - 64 && ptr <= V_BUF_VA + PAGE);
	assert_true(V_BUF_VA + V_BUF_SIZE - ptr > PAGE); /* far below the limit */
	assert_int_equal(hv.vm[0].stats.spe_dl, 1);
	lx_irq(&lx);
	assert_int_equal(lx.truncated, 1);
	assert_int_equal(lx.fatal, 0);
	assert_false(vc->spe_irq_level);
	lx_stop(&lx);
	assert_int_equal(lx_records(&lx), sim_spe_stats(0)->written);
	assert_int_equal(sim_error_count(), 0);
}

static void test_stage2_dl_is_truncation(void **state)
{
	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++)
			stage2_dl(v, policies[p]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_discard_mode),
		cmocka_unit_test(test_model_discard_mode),
		cmocka_unit_test(test_event_filter_bits),
		cmocka_unit_test(test_filter_misaligned_spev1p1),
		cmocka_unit_test(test_reset_drops_pmbirq),
		cmocka_unit_test(test_rearm_checks_live_pointer),
		cmocka_unit_test(test_rearm_prefaults_from_live_pointer),
		cmocka_unit_test(test_restart_keeps_pmbsr),
		cmocka_unit_test(test_guest_sets_s),
		cmocka_unit_test(test_stage2_dl_is_truncation),
	};

	return cmocka_run_group_tests_name("vspe_letter", tests, NULL, NULL);
}
