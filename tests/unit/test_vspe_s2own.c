// SPDX-License-Identifier: MIT
/*
 * An untrapped guest-owned buffer (VPERF_SPE_BUF_EL1, MDCR_EL2.E2PB = 0b11) on a system where
 * every pCPU has FEAT_FGT: the vCPU runs with HDFGWTR_EL2.PMBSR_EL1 and HDFGRTR_EL2.PMBSR_EL1
 * set, so a guest's own PMBSR_EL1 write is emulated, and one that sets S asserts its interrupt
 * whatever EC and FSC it names (SPE 3.5, "A direct write that sets PMBSR_EL1.S to 1 causes the
 * interrupt to be asserted"), even the stage 2 Data Abort EC (0x25) with a Translation, Access
 * flag or Permission FSC that vperf's own stage 2 faults carry: nothing is mapped for it. A
 * stage 2 fault in the hardware's PMBSR_EL1 is then always vperf's, restarted with no trace, and a
 * read takes any pending event first: the guest never reads vperf's fault, and reads its own
 * event, or the hardware's value with the COLL it set, as it would untrapped.
 * What the write trap costs a guest driving SPE as Linux's arm_spe_pmu does: nothing per buffer
 * interrupt (the driver writes PMBSR_EL1 only while its event holds the vCPU trapped anyway).
 * A VM created while a pCPU lacks FEAT_FGT gets none of this: the guest writes PMBSR_EL1
 * untrapped, as without FEAT_FGT at all (test_guest_sets_s below; docs/vspe.md,
 * "FEAT_FGT"). The SPE supplement (Arm DDI 0586A) is cited as "SPE <section>", HDFGRTR_EL2 and
 * HDFGWTR_EL2 from Arm DDI 0487 K.a (D24.2).
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <arch/tlb.h>
#include <sim/gic.h>

#include "vspe_util.h"

#define FSC_XLAT_L3 0x07ull

#define PAGE	       0x1000ull
#define VMID0	       1
#define BSC_FULL       1ull
#define EC_S1_DA       0x24ull
#define EC_S2_DA       0x25ull
#define V_PMBSR_COLL   (1ull << 16)
#define FGT_PMBSR      (1ull << 25) /* HDFGWTR_EL2 / HDFGRTR_EL2 field PMBSR_EL1 */
#define MODEL_PMSVER_N 5

static struct lx_spe lx;

static const enum vperf_spe_buffer policies[] = { VPERF_SPE_BUF_EL1_TRAPPED, VPERF_SPE_BUF_EL1 };

/* The model with SPE (PMSVer pmsver) and FEAT_FGT but on the CPUs in `without`, vperf, the test
 * hypervisor; no VM. */
static void init(uint8_t pmsver, uint32_t without, uint64_t seed)
{
	struct sim_pe_config cfg;

	sim_spe_default_config(&cfg, pmsver);
	cfg.seed = seed;
	cfg.el2_trap_cycles = 0;
	cfg.fgt = true;
	cfg.cpus_without_fgt = without;
	hv_init(&cfg, 2);
}

/* VM 0 of policy buf, its vCPU 0 loaded on pCPU 0. */
static struct hv_vcpu *setup(uint8_t pmsver, enum vperf_spe_buffer buf, uint32_t without,
			     uint64_t seed)
{
	struct hv_vcpu *vc;

	init(pmsver, without, seed);
	assert_int_equal(vs_vm(0, buf, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	return vc;
}

static uint64_t traps(void)
{
	return sim_guest_stats(0)->el2_traps;
}

static unsigned int e2pb(void)
{
	return (unsigned int)V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2));
}

/* The page the buffer's write pointer is in, taken back by the hypervisor: every record so far
 * in memory first (a put and a load drain them), its TLB maintenance after (SPE 3.4.4). */
static uint64_t unmap_live_page(struct hv_vcpu *vc)
{
	uint64_t ptr;

	hv_leave(0);
	hv_enter(vc, 0);
	ptr = sim_peek(0, VPERF_ENC_PMBPTR_EL1);
	sim_mem_unmap_s2(VMID0, V_BUF_IPA + ((ptr - V_BUF_VA) & ~(PAGE - 1)), PAGE);
	tlbi_vmalls12e1is();
	dsb_nsh();
	return V_BUF_IPA + ((ptr - V_BUF_VA) & ~(PAGE - 1));
}

/*
 * The guest writes PMBSR_EL1 = val (S = 1) to its live buffer. Untrapped, only the fine-grained
 * trap brings the write (one trap; each PMBSR_EL1 read traps too): the guest's interrupt rises and
 * stays until it clears S, it reads back what it wrote, nothing is mapped (the page at its
 * pointer, which the hypervisor took back, stays unmapped), and the vCPU traps until then.
 */
static void guest_sets_s(uint8_t pmsver, enum vperf_spe_buffer buf, uint64_t val)
{
	struct hv_vcpu *vc = setup(pmsver, buf, 0, 2);
	uint64_t t, page;

	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	vs_run_loads(0, 257 * 2, 3);
	page = unmap_live_page(vc);
	if (buf == VPERF_SPE_BUF_EL1) {
		assert_int_equal(e2pb(), 3);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2) & FGT_PMBSR, FGT_PMBSR);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2) & FGT_PMBSR, FGT_PMBSR);
		t = traps();
		assert_int_equal(guest_read(PMBSR_EL1), 0);
		assert_int_equal(traps(), t + 1);
	} else {
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2) & FGT_PMBSR, 0);
	}
	t = traps();
	guest_write(PMBSR_EL1, val);
	assert_int_equal(traps(), t + 1);
	assert_true(vc->spe_irq_level);
	assert_int_equal(e2pb(), 2); /* at once: it reads its PMBSR_EL1 through vperf */
	assert_int_equal(guest_read(PMBSR_EL1), val);
	vs_run_loads(0, 257 * 2, 3);
	hv_leave(0);
	hv_enter(vc, 0);
	assert_true(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), val);
	assert_int_equal(e2pb(), 2);
	assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 0);
	assert_int_equal(hv.vm[0].stats.spe_events, 0); /* no hardware event taken */
	assert_true(sim_mem_translate_s2(VMID0, page, true).fault != 0);
	guest_write(PMBSR_EL1, 0); /* served: the line drops */
	assert_false(vc->spe_irq_level);
	assert_int_equal(sim_error_count(), 0);
}

static void test_guest_sets_s_any_syndrome(void **state)
{
	/* The stage 2 Data Abort EC with an Address size FSC and every Translation (levels 0-3),
	 * Access flag (1-3) and Permission (1-3) FSC; the stage 1 one; a buffer full with and
	 * without DL; an external abort. */
	static const uint64_t fscs[] = { 0x00, 0x04, 0x05, 0x06, 0x07, 0x09,
					 0x0a, 0x0b, 0x0d, 0x0e, 0x0f };
	static const uint64_t others[] = { V_PMBSR_EC(EC_S1_DA) | 0x07, BSC_FULL,
					   V_PMBSR_DL | BSC_FULL,
					   V_PMBSR_EA | V_PMBSR_EC(EC_S2_DA) | 0x10 };

	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		for (unsigned int p = 0; p < VPERF_ARRAY_SIZE(policies); p++) {
			for (size_t f = 0; f < VPERF_ARRAY_SIZE(fscs); f++)
				guest_sets_s(v, policies[p],
					     V_PMBSR_S | V_PMBSR_EC(EC_S2_DA) | fscs[f]);
			for (size_t o = 0; o < VPERF_ARRAY_SIZE(others); o++)
				guest_sets_s(v, policies[p], V_PMBSR_S | others[o]);
		}
}

/* The guest samples into its live buffer (put and loaded once, so its records are in memory), then
 * the hypervisor takes back the buffer's stage 2 from the page at the write pointer on (its TLB
 * maintenance after, SPE 3.4.4). Returns that pointer. */
static uint64_t unmap_from_ptr(struct hv_vcpu *vc)
{
	uint64_t ptr;

	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	vs_run_loads(0, 257 * 2, 3);
	hv_leave(0);
	hv_enter(vc, 0);
	ptr = sim_peek(0, VPERF_ENC_PMBPTR_EL1);
	sim_mem_unmap_s2(VMID0, V_BUF_IPA + ((ptr - V_BUF_VA) & ~(PAGE - 1)), V_BUF_SIZE);
	tlbi_vmalls12e1is();
	dsb_nsh();
	return ptr;
}

/*
 * A real stage 2 fault, with the write trap on: the page at the pointer mapped, profiling resumed,
 * no interrupt, PMBSR_EL1 as before, untrapped again; found at a PMBIRQ or by put's drain.
 */
static void real_fault_restarts(uint8_t pmsver, bool at_put)
{
	struct hv_vcpu *vc = setup(pmsver, VPERF_SPE_BUF_EL1, 0, 11);
	uint64_t ptr = unmap_from_ptr(vc);

	for (unsigned int i = 0; i < 100 && !hv.vm[0].stats.spe_s2_fixed; i++) {
		vs_run_loads(0, at_put ? 300 : 257, 3);
		if (at_put) {
			hv_leave(0);
			hv_enter(vc, 0);
		}
	}
	assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 1);
	assert_int_equal(hv.spe_irqs, at_put ? 0 : 1);
	assert_false(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_int_equal(e2pb(), 3);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2) & FGT_PMBSR, FGT_PMBSR);
	vs_run_loads(0, 257 * 4, 3);
	vs_drain_visible();
	assert_true(guest_read(PMBPTR_EL1) > ptr);
	assert_int_equal(hv.vm[0].stats.spe_events, 0);
	assert_int_equal(sim_error_count(), 0);
}

static void test_real_fault_restarts(void **state)
{
	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		for (int put = 0; put < 2; put++)
			real_fault_restarts(v, put);
}

/*
 * Cost. A PMBSR_EL1 write while untrapped: one trap with FEAT_FGT (none without), no MDCR_EL2
 * write when the vCPU stays untrapped (S = 0). A guest driving SPE as arm_spe_pmu does, its
 * buffer small enough for several buffer full interrupts: the same traps per interrupt with
 * and without FEAT_FGT, TRAPS_PER_IRQ each (its PMBSR_EL1 read, PMBPTR_EL1 read, the re-arm's
 * PMBPTR_EL1 and PMBLIMITR_EL1 writes and its PMBSR_EL1 write: E2PB = 0b10 while its event
 * holds), of which one is its PMBSR_EL1 write.
 */
#define TRAPS_PER_IRQ 5

static unsigned int linux_irqs(uint32_t without, uint64_t *total)
{
	struct hv_vcpu *vc = setup(3, VPERF_SPE_BUF_EL1, without, 5);

	lx = (struct lx_spe){ .vm = 0, .size = 0x2000 };
	lx_start(&lx);
	*total = 0;
	for (unsigned int j = 0; j < 257 * 1200; j++) {
		uint64_t t;

		vs_run_loads(0, 1, 3);
		if (!vc->spe_irq_level)
			continue;
		t = traps();
		lx_irq(&lx);
		assert_int_equal(traps() - t, TRAPS_PER_IRQ);
		*total += traps() - t;
	}
	assert_int_equal(lx.fatal, 0);
	assert_int_equal(lx.spurious, 0);
	assert_int_equal(sim_error_count(), 0);
	return lx.irqs;
}

static void test_cost(void **state)
{
	const uint32_t no_fgt = VPERF_BIT(0) | VPERF_BIT(1);
	uint64_t with, without;
	uint64_t t, m;

	(void)state;
	for (int fgt = 0; fgt < 2; fgt++) {
		struct hv_vcpu *vc = setup(3, VPERF_SPE_BUF_EL1, fgt ? 0 : no_fgt, 5);

		lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
		lx_start(&lx);
		vs_run_loads(0, 257, 3);
		assert_int_equal(e2pb(), 3);
		t = traps();
		m = sim_cpu(0)->trace_len;
		guest_write(PMBSR_EL1, 0);
		assert_int_equal(traps() - t, fgt ? 1 : 0);
		assert_int_equal(vs_cost_since(0, m).mdcr, 0);
		assert_int_equal(e2pb(), 3);
		assert_false(vc->spe_irq_level);
	}
	assert_true(linux_irqs(0, &with) >= 3);
	assert_int_equal(linux_irqs(no_fgt, &without), lx.irqs);
	assert_int_equal(with, without);
}

/*
 * A mix of pCPUs with and without FEAT_FGT, as for the direct partition's event filter: the trap
 * is decided at vm_init and needs FEAT_FGT on every pCPU initialised then. A VM created on a mix
 * gets none: a guest's write of S with a Translation fault's FSC is taken for vperf's own stage 2
 * fault again, as without FEAT_FGT. A VM created before a pCPU without FEAT_FGT came keeps the
 * trap where it exists and runs its buffer trapped (E2PB = 0b10) on that pCPU, where nothing
 * could trap the write.
 */
static void test_mixed_pcpus(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct hv_vcpu *vc, *late;
	uint64_t t;

	(void)state;
	init(3, VPERF_BIT(1), 2);
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &pcfg), VPERF_OK);
	sim_set_cpu(0);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	late = hv_vcpu(1, 1);
	/* VM 0, created while every pCPU had FEAT_FGT: the trap on pCPU 0, trapped on pCPU 1. */
	hv_enter(vc, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2) & FGT_PMBSR, FGT_PMBSR);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	vs_run_loads(0, 257 * 2, 3);
	assert_int_equal(e2pb(), 3);
	hv_leave(0);
	hv_enter(vc, 1);
	assert_int_equal(V_MDCR_E2PB(sim_peek(1, VPERF_ENC_MDCR_EL2)), 2);
	hv_leave(1);
	/* VM 1, created on the mix: no trap, the guest's write unseen. */
	hv_enter(late, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2) & FGT_PMBSR, 0);
	lx = (struct lx_spe){ .vm = 1, .size = V_BUF_SIZE };
	lx_start(&lx);
	vs_run_loads(0, 257 * 2, 3);
	assert_int_equal(e2pb(), 3);
	t = traps();
	guest_write(PMBSR_EL1, V_PMBSR_S | V_PMBSR_EC(EC_S2_DA) | 0x07);
	assert_int_equal(traps(), t);
	vs_run_loads(0, 4, 3);
	assert_false(late->spe_irq_level);
	assert_int_equal(hv.vm[1].stats.spe_s2_fixed, 1);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * Composed with the direct partition's type traps and the hypervisor's own values: the vCPU runs
 * with the hypervisor's fields, the type traps and the PMBSR_EL1 write trap; every put gives the
 * hypervisor its values back whole; a VM with a trapped buffer gets no PMBSR_EL1 trap.
 */
static void test_composes_with_pmu_traps(void **state)
{
	const uint64_t rtr = 0x3f, wtr = 0x3f | VPERF_BIT(33);
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = rtr,
						.host_hdfgwtr = wtr };
	const uint64_t types_r = VPERF_BIT(13) | VPERF_BIT(14) | VPERF_BIT(58);
	const uint64_t types_w = VPERF_BIT(13) | VPERF_BIT(14);
	struct vperf_vm_config cfg = { .spe = true,
				       .spe_buffer = VPERF_SPE_BUF_EL1,
				       .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_DIRECT,
				       .nr_counters = 2 };

	(void)state;
	init(3, 0, 4);
	sim_poke(0, VPERF_ENC_HDFGRTR_EL2, rtr);
	sim_poke(0, VPERF_ENC_HDFGWTR_EL2, wtr);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	vperf_pmu_filter_allow_all(&cfg.filter);
	vperf_pmu_filter_set(&cfg.filter, 0x08, false);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	cfg.spe_buffer = VPERF_SPE_BUF_EL1_TRAPPED;
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
	for (int round = 0; round < 2; round++) {
		hv_enter(hv_vcpu(0, 0), 0);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr | types_r | FGT_PMBSR);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr | types_w | FGT_PMBSR);
		hv_leave(0);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
		hv_enter(hv_vcpu(1, 1), 0);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr | types_r);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr | types_w);
		hv_leave(0);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	}
	assert_int_equal(sim_error_count(), 0);
}

/* The hypervisor traps PMBPTR_EL1 and PMBLIMITR_EL1 writes itself (HDFGWTR_EL2 bits 23 and 24);
 * VM 0's vCPU 0 on pCPU 0 runs its buffer of size bytes untrapped, its PMBIRQ held off at the GIC. */
static struct hv_vcpu *untrapped_under_host_traps(uint64_t seed, uint64_t size)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgwtr = VPERF_BIT(23) | VPERF_BIT(24) };
	struct hv_vcpu *vc;

	init(3, 0, seed);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = size };
	lx_start(&lx);
	vs_run_loads(0, 8, 3);
	assert_int_equal(e2pb(), 3);
	sim_gic_enable_ppi(0, sim_line_intid(SIM_LINE_PMBIRQ), false);
	return vc;
}

/*
 * The hypervisor's own write traps of PMBPTR_EL1 and PMBLIMITR_EL1 (host_hdfgwtr) on an untrapped
 * buffer whose hardware holds an event not yet taken: the buffer filled, and the guest's next
 * instruction, a PMBPTR_EL1 or PMBLIMITR_EL1 write, traps before PMBIRQ is (the architecture
 * bounds no interrupt latency; here the PPI is held off at the GIC). Such a write leaves
 * PMBSR_EL1 as it is (SPE 3.5: S is cleared only by a direct write of PMBSR_EL1), so the guest
 * must still see its buffer full event and its interrupt, with the buffer off. A PMBSR_EL1 write
 * overwrites the event, as it would on the hardware; clearing S with the pointer at the limit
 * then enables a full buffer, which is an event of its own (SPE 3.4.1).
 */
static void event_under_host_trap(uint32_t reg, uint64_t seed)
{
	const uint32_t pmbirq = sim_line_intid(SIM_LINE_PMBIRQ);
	struct hv_vcpu *vc = untrapped_under_host_traps(seed, 0x2000);
	uint64_t t, hw;

	for (unsigned int i = 0; i < 257 * 400 && !(sim_peek(0, VPERF_ENC_PMBSR_EL1) & V_PMBSR_S);
	     i++)
		vs_run_loads(0, 1, 3);
	hw = sim_peek(0, VPERF_ENC_PMBSR_EL1);
	assert_int_equal(hw, V_PMBSR_S | BSC_FULL);
	assert_int_equal(hv.spe_irqs, 0);
	t = traps();
	if (reg == 0)
		guest_write(PMBPTR_EL1, V_BUF_VA);
	else if (reg == 1)
		guest_write(PMBLIMITR_EL1, (V_BUF_VA + 0x4000) | V_PMBLIMITR_E);
	else
		guest_write(PMBSR_EL1, 0);
	assert_int_equal(traps(), t + 1);
	sim_gic_enable_ppi(0, pmbirq, true);
	vs_run_loads(0, 257 * 2, 3);
	/* A PMBSR_EL1 write enables the buffer at its limit: full at once (SPE 3.4.1). */
	assert_true(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | BSC_FULL);
	assert_int_equal(hv.vm[0].stats.spe_events, 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1) & V_PMBLIMITR_E, 0);
	assert_int_equal(e2pb(), 2);
	/* The physical line dropped with the event's move (or the overwrite): never taken. */
	assert_int_equal(hv.spe_irqs, 0);
	assert_int_equal(sim_error_count(), 0);
}

static void test_event_under_host_trap(void **state)
{
	(void)state;
	for (uint32_t reg = 0; reg < 3; reg++)
		for (uint64_t seed = 1; seed <= 3; seed++)
			event_under_host_trap(reg, seed);
}

/*
 * A read trap of the hypervisor's own (host_hdfgrtr: PMBLIMITR_EL1 reads) on an untrapped buffer:
 * the guest changed PMBLIMITR_EL1 with a direct write, so the trapped read must return what the
 * hardware holds, not vperf's copy from before (SPE 4.3: the register reads back what was written).
 */
static void test_host_read_trap(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2, .host_hdfgrtr = VPERF_BIT(23) };
	struct hv_vcpu *vc;
	uint64_t t;

	(void)state;
	init(3, 0, 1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = 0x2000 };
	lx_start(&lx);
	vs_run_loads(0, 8, 3);
	assert_int_equal(e2pb(), 3);
	t = traps();
	guest_write(PMBLIMITR_EL1, (V_BUF_VA + 0x1000) | V_PMBLIMITR_E);
	assert_int_equal(traps(), t);
	assert_int_equal(guest_read(PMBLIMITR_EL1), (V_BUF_VA + 0x1000) | V_PMBLIMITR_E);
	assert_int_equal(traps(), t + 1);
	guest_write(PMBLIMITR_EL1, 0);
	assert_int_equal(guest_read(PMBLIMITR_EL1), 0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * vperf's own stage 2 fault in the hardware of an untrapped vCPU, its PMBIRQ late (held off at the
 * GIC; the architecture bounds no interrupt latency): the guest's PMBSR_EL1 read must not show it
 * (its S, EC 0x25 or FSC), as Linux's driver would take it for a fatal buffer fault. With FEAT_FGT
 * the read traps and takes the fault first: the page is mapped, profiling resumes, and the guest
 * reads its PMBSR_EL1 as before the fault.
 */
static void test_read_hides_stage2_fault(void **state)
{
	const uint32_t pmbirq = sim_line_intid(SIM_LINE_PMBIRQ);
	struct hv_vcpu *vc;
	uint64_t ptr, t;

	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++) {
		vc = setup(v, VPERF_SPE_BUF_EL1, 0, 11);
		ptr = unmap_from_ptr(vc);
		sim_gic_enable_ppi(0, pmbirq, false);
		for (unsigned int i = 0;
		     i < 257 * 400 && !(sim_peek(0, VPERF_ENC_PMBSR_EL1) & V_PMBSR_S); i++)
			vs_run_loads(0, 1, 3);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1) & (V_PMBSR_S | V_PMBSR_EC(0x3f)),
				 V_PMBSR_S | V_PMBSR_EC(EC_S2_DA));
		t = traps();
		assert_int_equal(guest_read(PMBSR_EL1), 0);
		assert_int_equal(traps(), t + 1);
		assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 1);
		assert_int_equal(e2pb(), 3);
		sim_gic_enable_ppi(0, pmbirq, true);
		vs_run_loads(0, 257 * 2, 3);
		assert_false(vc->spe_irq_level);
		assert_int_equal(hv.spe_irqs, 0);
		vs_drain_visible();
		assert_true(guest_read(PMBPTR_EL1) > ptr);
		assert_int_equal(hv.vm[0].stats.spe_events, 0);
		assert_int_equal(sim_error_count(), 0);
	}
}

/*
 * The guest's own buffer full event in the hardware of an untrapped vCPU, its PMBIRQ late (held
 * off at the GIC): with FEAT_FGT the guest's PMBSR_EL1 read traps and takes the event first. The
 * guest must read it, S | BSC 1 (SPE 3.5), with its interrupt asserted (a level on S), and its
 * PMBLIMITR_EL1 must read back what it wrote, though the event turned the hardware's buffer off
 * (a register reads back what was last written, SPE 4.3). The physical line dropped with the
 * move, and the guest serves the event as arm_spe_pmu does.
 */
static void read_takes_guest_event(uint8_t pmsver)
{
	const uint32_t pmbirq = sim_line_intid(SIM_LINE_PMBIRQ);
	const uint64_t limit = (V_BUF_VA + 0x2000) | V_PMBLIMITR_E;
	struct hv_vcpu *vc = setup(pmsver, VPERF_SPE_BUF_EL1, 0, 6);
	uint64_t t;

	lx = (struct lx_spe){ .vm = 0, .size = 0x2000 };
	lx_start(&lx);
	vs_run_loads(0, 8, 3);
	assert_int_equal(e2pb(), 3);
	sim_gic_enable_ppi(0, pmbirq, false);
	for (unsigned int i = 0; i < 257 * 400 && !(sim_peek(0, VPERF_ENC_PMBSR_EL1) & V_PMBSR_S);
	     i++)
		vs_run_loads(0, 1, 3);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1), V_PMBSR_S | BSC_FULL);
	assert_false(vc->spe_irq_level);
	t = traps();
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | BSC_FULL);
	assert_int_equal(traps(), t + 1);
	assert_true(vc->spe_irq_level);
	assert_int_equal(hv.vm[0].stats.spe_events, 1);
	assert_int_equal(e2pb(), 2);
	assert_int_equal(guest_read(PMBLIMITR_EL1), limit);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | BSC_FULL);
	sim_gic_enable_ppi(0, pmbirq, true);
	vs_run_loads(0, 257, 3);
	assert_int_equal(hv.spe_irqs, 0);
	lx_irq(&lx);
	assert_int_equal(lx.irqs, 1);
	assert_int_equal(lx.fatal, 0);
	assert_false(vc->spe_irq_level);
	assert_int_equal(e2pb(), 3);
	assert_int_equal(sim_error_count(), 0);
}

static void test_read_takes_guest_event(void **state)
{
	(void)state;
	for (uint8_t v = 1; v <= MODEL_PMSVER_N; v++)
		read_takes_guest_event(v);
}

/*
 * A collision (PMBSR_EL1.COLL, SPE 3.1.4) the hardware flags while the vCPU runs untrapped: set
 * with no event, it stays until software clears it. The guest's trapped PMBSR_EL1 read (FEAT_FGT)
 * must show it, and its write of 0 clear it, the vCPU untrapped throughout.
 */
static void test_read_untrapped_coll(void **state)
{
	struct hv_vcpu *vc;
	uint64_t t;

	(void)state;
	vc = setup(3, VPERF_SPE_BUF_EL1, 0, 7);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	vs_run_loads(0, 8, 3);
	assert_int_equal(e2pb(), 3);
	vs_run_loads(0, 257 * 4, 600); /* long samples collide */
	vs_run_loads(0, 257 * 3, 3);   /* the last long sample done */
	assert_true(sim_spe_stats(0)->collision >= 1);
	assert_int_equal(e2pb(), 3);
	t = traps();
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_COLL);
	assert_int_equal(traps(), t + 1);
	assert_int_equal(e2pb(), 3);
	guest_write(PMBSR_EL1, 0);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_int_equal(e2pb(), 3);
	assert_false(vc->spe_irq_level);
	assert_int_equal(hv.vm[0].stats.spe_events, 0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The same host-trapped writes with no event of the guest's pending, where they must leave no
 * trace: the guest keeps the buffer running, untrapped, and no interrupt. Either its PMBSR_EL1
 * holds S = 0 with the syndrome of an event it served left in EC and MSS (it may clear S alone:
 * with S = 0 they describe no event, SPE 3.5), or the hardware holds a stage 2 fault of vperf's
 * (the page at the pointer taken back), taken first like any event under such a write: mapped
 * and restarted with no trace. The write reaches the hardware as the untrapped write would have,
 * and the physical PMBIRQ, a level on the hardware's S (SPE 3.5), is low when the GIC lets it in.
 */
static void quiet_under_host_trap(uint32_t reg, bool stage2, uint64_t seed)
{
	struct hv_vcpu *vc = untrapped_under_host_traps(seed, V_BUF_SIZE);
	const uint64_t limit = (V_BUF_VA + V_BUF_SIZE - PAGE) | V_PMBLIMITR_E;
	uint64_t t, hw, ptr;

	if (stage2) {
		unmap_live_page(vc);
		for (unsigned int i = 0;
		     i < 257 * 40 && !(sim_peek(0, VPERF_ENC_PMBSR_EL1) & V_PMBSR_S); i++)
			vs_run_loads(0, 1, 3);
		hw = sim_peek(0, VPERF_ENC_PMBSR_EL1);
		assert_int_equal(hw & (V_PMBSR_S | V_PMBSR_DL | V_PMBSR_EC(0x3f)),
				 V_PMBSR_S | V_PMBSR_EC(EC_S2_DA));
	} else {
		guest_write(PMBSR_EL1, BSC_FULL);
		assert_int_equal(e2pb(), 3);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1), BSC_FULL);
	}
	ptr = guest_read(PMBPTR_EL1);
	t = traps();
	if (reg == 0)
		guest_write(PMBPTR_EL1, ptr);
	else
		guest_write(PMBLIMITR_EL1, limit);
	assert_int_equal(traps(), t + 1);
	assert_false(vc->spe_irq_level);
	assert_int_equal(e2pb(), 3);
	assert_int_equal(guest_read(PMBSR_EL1), stage2 ? 0 : BSC_FULL);
	assert_int_equal(guest_read(PMBPTR_EL1), ptr);
	assert_int_equal(guest_read(PMBLIMITR_EL1),
			 reg == 0 ? (V_BUF_VA + V_BUF_SIZE) | V_PMBLIMITR_E : limit);
	assert_int_equal(hv.vm[0].stats.spe_s2_fixed, stage2 ? 1 : 0);
	sim_gic_enable_ppi(0, sim_line_intid(SIM_LINE_PMBIRQ), true);
	vs_run_loads(0, 257 * 4, 3);
	vs_drain_visible();
	assert_true(guest_read(PMBPTR_EL1) > ptr);
	assert_false(vc->spe_irq_level);
	assert_int_equal(hv.vm[0].stats.spe_events, 0);
	assert_int_equal(hv.spe_irqs, 0);
	assert_int_equal(sim_error_count(), 0);
}

static void test_quiet_under_host_trap(void **state)
{
	(void)state;
	for (uint32_t reg = 0; reg < 2; reg++)
		for (int stage2 = 0; stage2 < 2; stage2++)
			for (uint64_t seed = 1; seed <= 3; seed++)
				quiet_under_host_trap(reg, stage2, seed);
}

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
	struct hv_vcpu *vc = vs_setup_on_version(pmsver, buf, true, 2);

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guest_sets_s_any_syndrome),
		cmocka_unit_test(test_real_fault_restarts),
		cmocka_unit_test(test_cost),
		cmocka_unit_test(test_mixed_pcpus),
		cmocka_unit_test(test_composes_with_pmu_traps),
		cmocka_unit_test(test_event_under_host_trap),
		cmocka_unit_test(test_host_read_trap),
		cmocka_unit_test(test_read_hides_stage2_fault),
		cmocka_unit_test(test_read_takes_guest_event),
		cmocka_unit_test(test_read_untrapped_coll),
		cmocka_unit_test(test_quiet_under_host_trap),
		cmocka_unit_test(test_guest_sets_s),
	};

	return cmocka_run_group_tests_name("vspe_s2own", tests, NULL, NULL);
}
