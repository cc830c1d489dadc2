// SPDX-License-Identifier: MIT
/*
 * The model's GICv3: ICH_* register values, list register delivery to the guest's handler in
 * priority order, EOI and deactivation (also HW-linked), physical PPIs taken to EL2 under
 * HCR_EL2.IMO, level semantics (a storm, and its cure), maintenance interrupts, and the
 * hypervisor errors the model reports. Expected values are derived by hand from the GICv3
 * register descriptions cited in arch/sim/gic/.
 *
 * Poll points are sim_gic_poll() here, so that no other family recomputes a line the test
 * drives; test_pmu_overflow_end_to_end runs real micro-ops.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <vperf/mdcr.h>

#define IMO	  VPERF_BIT(4)
#define PMU_INTID 23u
#define SPE_INTID 21u
#define PRIO	  0xa0u

enum hyp_mode {
	H_EOI,
	H_MASK_EOI,
	H_NONE,
	H_DROP,
	H_DROP_HW,
	H_EOI_HW,
	H_EOI_WRONG,
	H_PMU,
};

static struct {
	enum hyp_mode mode;
	unsigned int calls, el_seen;
	uint32_t last;
} hyp;

static struct {
	bool eoi, lower_line;
	unsigned int n, el_seen;
	uint32_t order[16];
	enum sim_lr_state lr0_seen;
	uint8_t rprio_seen;
} guest;

static enum sim_line line_of(uint32_t intid)
{
	return intid == SPE_INTID ? SIM_LINE_PMBIRQ : SIM_LINE_PMUIRQ;
}

static void write_lr(unsigned int n, uint64_t v)
{
	write_sysreg_enc(VPERF_ENC_ICH_LR0_EL2 + n, v);
}

static void hyp_irq(void *ctx, unsigned int cpu, uint32_t intid)
{
	(void)ctx;
	hyp.calls++;
	hyp.last = intid;
	hyp.el_seen = sim_el();
	if (hyp.mode == H_MASK_EOI || hyp.mode == H_EOI_HW)
		sim_set_line(cpu, line_of(intid), false);
	if (hyp.mode == H_EOI || hyp.mode == H_MASK_EOI || hyp.mode == H_EOI_HW)
		sim_gic_eoi(cpu, intid);
	if (hyp.mode == H_DROP || hyp.mode == H_DROP_HW)
		sim_gic_priority_drop(cpu, intid);
	if (hyp.mode == H_DROP_HW || hyp.mode == H_EOI_HW)
		write_lr(0, sim_lr_make_hw(intid, intid, PRIO, SIM_LR_PENDING));
	if (hyp.mode == H_EOI_WRONG)
		sim_gic_eoi(cpu, SPE_INTID);
	if (hyp.mode == H_PMU) {
		write_sysreg(VPERF_BIT(31), PMOVSCLR_EL0);
		sim_gic_eoi(cpu, intid);
		write_lr(0, sim_lr_make(intid, PRIO, SIM_LR_PENDING));
	}
}

static void guest_irq(void *ctx, unsigned int cpu, uint32_t vintid)
{
	(void)ctx;
	if (guest.n < 16)
		guest.order[guest.n] = vintid;
	guest.n++;
	guest.el_seen = sim_el();
	guest.lr0_seen = sim_lr_state(sim_gic_lr(cpu, 0));
	guest.rprio_seen = sim_gic_virt_running_prio(cpu);
	if (guest.lower_line)
		sim_set_line(cpu, SIM_LINE_PMUIRQ, false);
	if (guest.eoi)
		sim_guest_eoi(cpu, vintid);
}

static void init(uint8_t nr_lrs, uint64_t seed)
{
	struct sim_pe_config cfg;
	const struct sim_handlers h = { .irq = hyp_irq, .guest_irq = guest_irq };

	sim_default_config(&cfg);
	cfg.el2_trap_cycles = 0;
	cfg.nr_lrs = nr_lrs;
	cfg.seed = seed;
	cfg.reset_zero = true; /* the PMU end-to-end test sets up one counter from a clean PMU */
	cfg.pmuirq_latency = SIM_IRQ_IMMEDIATE; /* the GIC's rules, not PMUIRQ's latency */
	sim_model_init(&cfg);
	sim_set_handlers(&h);
	sim_set_el(1);
	memset(&hyp, 0, sizeof(hyp));
	memset(&guest, 0, sizeof(guest));
	guest.eoi = true;
	sim_poke(0, VPERF_ENC_HCR_EL2, IMO);
	write_sysreg(SIM_ICH_HCR_EN, ICH_HCR_EL2);
}

static int setup(void **state)
{
	(void)state;
	init(4, 1);
	return 0;
}

static void poll_n(unsigned int n)
{
	while (n--)
		sim_gic_poll(0);
}

/* ---- registers ------------------------------------------------------------------------------- */

/* ListRegs [4:0] = 3, PREbits [28:26] = 4, PRIbits [31:29] = 4, nV4 [20], A3V [21]. */
static void test_vtr_and_reset_state(void **state)
{
	(void)state;
	assert_int_equal(read_sysreg(ICH_VTR_EL2), 0x90300003ull);
	assert_int_equal(read_sysreg(ICH_ELRSR_EL2), 0xf);
	assert_int_equal(read_sysreg(ICH_EISR_EL2), 0);
	assert_int_equal(read_sysreg(ICH_MISR_EL2), 0);
	/* VENG1, VBPR1 = 3, VPMR = 0xf0: a guest whose GIC driver is up. */
	assert_int_equal(read_sysreg(ICH_VMCR_EL2), 0xf00c0002ull);
	init(16, 1);
	assert_int_equal(read_sysreg(ICH_VTR_EL2) & 0x1f, 15);
	assert_int_equal(read_sysreg(ICH_ELRSR_EL2), 0xffff);
	write_sysreg(0, ICH_VTR_EL2); /* read-only: UNDEF at EL2 */
	assert_int_equal(sim_error_count(), 1);
}

static void test_unimplemented_lr_is_an_error(void **state)
{
	(void)state;
	write_sysreg(sim_lr_make(40, PRIO, SIM_LR_PENDING), ICH_LR3_EL2);
	assert_int_equal(sim_error_count(), 0);
	assert_int_equal(read_sysreg(ICH_LR4_EL2), 0);
	assert_int_equal(sim_error_count(), 1);
	write_sysreg(sim_lr_make(41, PRIO, SIM_LR_PENDING), ICH_LR15_EL2);
	assert_int_equal(sim_error_count(), 2);
	assert_int_equal(sim_peek(0, VPERF_ENC_ICH_LR15_EL2), 0);
	assert_string_equal(sim_error_at(0)->what,
			    "ICH_LR<n>_EL2 with n > ICH_VTR_EL2.ListRegs accessed (UNDEF)");
}

/* Five priority bits: [50:48] read as 0. With HW = 0 only bit 41 (EOI) of pINTID is kept. */
static void test_lr_fields_sanitized(void **state)
{
	(void)state;
	write_lr(0, sim_lr_make(40, 0xa7, SIM_LR_PENDING) | 0x1ffull << 32 | SIM_LR_EOI);
	assert_int_equal(read_sysreg(ICH_LR0_EL2),
			 sim_lr_make(40, 0xa0, SIM_LR_PENDING) | SIM_LR_EOI);
	write_lr(1, sim_lr_make_hw(41, 23, PRIO, SIM_LR_PENDING));
	assert_int_equal(sim_lr_pintid(read_sysreg(ICH_LR1_EL2)), 23);
}

/* LR0 pending; LR1 invalid owing an EOI maintenance; LR2 invalid, HW = 1 with pINTID bit 9
 * (bit 41) set, which is no EOI request; LR3 empty. */
static void test_elrsr_eisr_misr(void **state)
{
	(void)state;
	write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING));
	write_lr(1, sim_lr_make(41, PRIO, SIM_LR_INVALID) | SIM_LR_EOI);
	write_lr(2, sim_lr_make_hw(42, 0x200, PRIO, SIM_LR_INVALID));
	assert_int_equal(read_sysreg(ICH_ELRSR_EL2), 0xc);
	assert_int_equal(read_sysreg(ICH_EISR_EL2), 0x2);
	assert_int_equal(read_sysreg(ICH_MISR_EL2), SIM_ICH_MISR_EOI);
	/* UIE: at most one valid LR; NPIE: no pending LR. */
	write_sysreg(SIM_ICH_HCR_EN | SIM_ICH_HCR_UIE | SIM_ICH_HCR_NPIE, ICH_HCR_EL2);
	assert_int_equal(read_sysreg(ICH_MISR_EL2), SIM_ICH_MISR_EOI | SIM_ICH_MISR_U);
	write_lr(0, 0);
	assert_int_equal(read_sysreg(ICH_MISR_EL2),
			 SIM_ICH_MISR_EOI | SIM_ICH_MISR_U | SIM_ICH_MISR_NP);
	assert_int_equal(sim_peek(0, VPERF_ENC_ICH_ELRSR_EL2), 0xd);
	/* VGrp1EIE [6] / VGrp1DIE [7] report Group 1 enabled / disabled in MISR bits 6 / 7. */
	write_sysreg(SIM_ICH_HCR_EN | VPERF_BIT(6) | VPERF_BIT(7), ICH_HCR_EL2);
	assert_int_equal(read_sysreg(ICH_MISR_EL2), SIM_ICH_MISR_EOI | VPERF_BIT(6));
	sim_guest_enable_grp1(0, false);
	assert_int_equal(read_sysreg(ICH_MISR_EL2), SIM_ICH_MISR_EOI | VPERF_BIT(7));
}

/* ---- virtual delivery ------------------------------------------------------------------------ */

static void test_lr_delivered_to_guest(void **state)
{
	(void)state;
	write_lr(0, sim_lr_make(PMU_INTID, PRIO, SIM_LR_PENDING));
	sim_set_el(0);
	sim_gic_poll(0);
	assert_int_equal(guest.n, 1);
	assert_int_equal(guest.order[0], PMU_INTID);
	assert_int_equal(guest.el_seen, 1); /* taken to EL1 */
	assert_int_equal(sim_el(), 0);	    /* and back */
	assert_int_equal(guest.lr0_seen, SIM_LR_ACTIVE);
	assert_int_equal(guest.rprio_seen, PRIO);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_INVALID);
	assert_int_equal(sim_gic_virt_running_prio(0), 0xff);
	assert_int_equal(sim_gic_virt_count(0, PMU_INTID), 1);
	assert_int_equal(read_sysreg(ICH_ELRSR_EL2), 0xf);
	poll_n(3);
	assert_int_equal(guest.n, 1);
	assert_int_equal(sim_error_count(), 0);
}

/* Each condition alone keeps the interrupt pending. */
static void test_delivery_conditions(void **state)
{
	(void)state;
	write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING));
	write_sysreg(0, ICH_HCR_EL2);
	sim_gic_poll(0);
	write_sysreg(SIM_ICH_HCR_EN, ICH_HCR_EL2);
	sim_poke(0, VPERF_ENC_HCR_EL2, 0);
	sim_gic_poll(0);
	sim_poke(0, VPERF_ENC_HCR_EL2, IMO);
	sim_guest_enable_grp1(0, false);
	sim_gic_poll(0);
	sim_guest_enable_grp1(0, true);
	sim_guest_set_pmr(0, PRIO); /* priority must be strictly above the mask */
	sim_gic_poll(0);
	sim_guest_mask_irq(0, true);
	sim_guest_set_pmr(0, 0xf0);
	sim_gic_poll(0);
	sim_set_el(2);
	sim_guest_mask_irq(0, false);
	sim_gic_poll(0);
	assert_int_equal(guest.n, 0);
	write_lr(1, sim_lr_make(41, PRIO, SIM_LR_PENDING) & ~SIM_LR_GROUP); /* Group 0: vFIQ */
	sim_set_el(1);
	sim_gic_poll(0);
	assert_int_equal(guest.n, 1);
	assert_int_equal(guest.order[0], 40);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 1)), SIM_LR_PENDING);
}

static void test_priority_order(void **state)
{
	(void)state;
	write_lr(0, sim_lr_make(40, 0xa0, SIM_LR_PENDING));
	write_lr(1, sim_lr_make(41, 0x80, SIM_LR_PENDING));
	write_lr(2, sim_lr_make(42, 0xc0, SIM_LR_PENDING));
	write_lr(3, sim_lr_make(43, 0x90, SIM_LR_PENDING));
	sim_gic_poll(0);
	assert_int_equal(guest.n, 4);
	assert_int_equal(guest.order[0], 41);
	assert_int_equal(guest.order[1], 43);
	assert_int_equal(guest.order[2], 40);
	assert_int_equal(guest.order[3], 42);
}

/* A guest that defers its EOI keeps its priority running: an equal priority waits, a higher
 * one preempts; EOIs drop the highest active priority first. */
static void test_running_priority(void **state)
{
	(void)state;
	guest.eoi = false;
	write_lr(0, sim_lr_make(40, 0xa0, SIM_LR_PENDING));
	sim_gic_poll(0);
	write_lr(1, sim_lr_make(41, 0xa0, SIM_LR_PENDING));
	sim_gic_poll(0);
	assert_int_equal(guest.n, 1);
	write_lr(2, sim_lr_make(42, 0x80, SIM_LR_PENDING));
	sim_gic_poll(0);
	assert_int_equal(guest.n, 2);
	assert_int_equal(sim_gic_virt_running_prio(0), 0x80);
	sim_guest_eoi(0, 42);
	assert_int_equal(sim_gic_virt_running_prio(0), 0xa0);
	sim_guest_eoi(0, 40);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_INVALID);
	sim_gic_poll(0);
	assert_int_equal(guest.n, 3);
	assert_int_equal(guest.order[2], 41);
}

/* Pending+active is not signalled again until the active part is deactivated, even with no
 * active priority (as after a restore). */
static void test_pending_and_active(void **state)
{
	(void)state;
	write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING_ACTIVE));
	sim_gic_poll(0);
	assert_int_equal(guest.n, 0);
	guest.eoi = false;
	write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING));
	sim_gic_poll(0);
	write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING_ACTIVE));
	sim_gic_poll(0);
	assert_int_equal(guest.n, 1);
	sim_guest_eoi(0, 40);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_PENDING);
	sim_gic_poll(0);
	assert_int_equal(guest.n, 2);
	assert_int_equal(sim_gic_virt_count(0, 40), 2);
}

/* EOI with no LR for it (the hypervisor dropped an active LR): EOIcount counts it, and
 * LRENPIE turns that into a maintenance condition. EOI with nothing active does nothing. */
static void test_eoi_without_lr(void **state)
{
	(void)state;
	guest.eoi = false;
	write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING));
	sim_gic_poll(0);
	write_lr(0, 0);
	sim_guest_eoi(0, 40);
	assert_int_equal(read_sysreg(ICH_HCR_EL2) >> SIM_ICH_HCR_EOICOUNT_SHIFT, 1);
	assert_int_equal(sim_gic_stats(0)->eoi_no_lr, 1);
	write_sysreg(read_sysreg(ICH_HCR_EL2) | SIM_ICH_HCR_LRENPIE, ICH_HCR_EL2);
	assert_int_equal(read_sysreg(ICH_MISR_EL2), SIM_ICH_MISR_LRENP);
	sim_guest_eoi(0, 40);
	assert_int_equal(read_sysreg(ICH_HCR_EL2) >> SIM_ICH_HCR_EOICOUNT_SHIFT, 1);
	assert_int_equal(sim_gic_stats(0)->eoi_no_active, 1);
}

/* VEOIM = 1: EOI only drops the priority; ICV_DIR_EL1 deactivates. DIR is ignored otherwise. */
static void test_split_eoi(void **state)
{
	(void)state;
	write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING));
	write_sysreg(read_sysreg(ICH_VMCR_EL2) | SIM_ICH_VMCR_VEOIM, ICH_VMCR_EL2);
	sim_gic_poll(0);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_ACTIVE);
	assert_int_equal(sim_gic_virt_running_prio(0), 0xff);
	sim_guest_dir(0, 40);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_INVALID);
	write_sysreg(read_sysreg(ICH_VMCR_EL2) & ~SIM_ICH_VMCR_VEOIM, ICH_VMCR_EL2);
	guest.eoi = false;
	write_lr(1, sim_lr_make(41, PRIO, SIM_LR_PENDING));
	sim_gic_poll(0);
	sim_guest_dir(0, 41);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 1)), SIM_LR_ACTIVE);
}

/* Equal priorities: the model's choice varies with the seed and repeats for a seed. */
static void test_equal_priority_choice_is_seeded(void **state)
{
	unsigned int first40 = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 32; seed++) {
		uint32_t first;

		init(4, seed);
		write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING));
		write_lr(1, sim_lr_make(41, PRIO, SIM_LR_PENDING));
		sim_gic_poll(0);
		first = guest.order[0];
		first40 += first == 40;
		init(4, seed);
		write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING));
		write_lr(1, sim_lr_make(41, PRIO, SIM_LR_PENDING));
		sim_gic_poll(0);
		assert_int_equal(guest.order[0], first);
	}
	assert_true(first40 > 0 && first40 < 32);
}

static void test_duplicate_vintid_reported_once(void **state)
{
	(void)state;
	guest.eoi = false;
	write_lr(0, sim_lr_make(40, PRIO, SIM_LR_ACTIVE));
	write_lr(1, sim_lr_make(40, PRIO, SIM_LR_PENDING));
	poll_n(3);
	assert_int_equal(sim_error_count(), 1);
	assert_string_equal(sim_error_at(0)->what, "two valid list registers hold the same vINTID");
}

static void test_hw_pending_active_reported(void **state)
{
	(void)state;
	write_lr(0, sim_lr_make_hw(40, PMU_INTID, PRIO, SIM_LR_PENDING_ACTIVE));
	assert_int_equal(sim_error_count(), 1);
}

/* ---- physical PPIs --------------------------------------------------------------------------- */

static void test_physical_needs_imo_and_enable(void **state)
{
	(void)state;
	sim_set_line(0, SIM_LINE_PMUIRQ, true);
	sim_gic_poll(0);
	assert_int_equal(hyp.calls, 0); /* not enabled */
	sim_gic_enable_ppi(0, PMU_INTID, true);
	sim_poke(0, VPERF_ENC_HCR_EL2, 0);
	sim_gic_poll(0);
	assert_int_equal(hyp.calls, 0); /* IMO = 0: not routed to EL2 */
	assert_true(sim_gic_ppi_pending(0, PMU_INTID));
	sim_poke(0, VPERF_ENC_HCR_EL2, IMO);
	hyp.mode = H_MASK_EOI;
	sim_set_el(0);
	sim_gic_poll(0);
	assert_int_equal(hyp.calls, 1);
	assert_int_equal(hyp.last, PMU_INTID);
	assert_int_equal(hyp.el_seen, 2);
	assert_int_equal(sim_el(), 0);
	assert_false(sim_gic_ppi_active(0, PMU_INTID));
	assert_int_equal(sim_error_count(), 0);
}

/* The line stays high and the hypervisor only EOIs: taken again at every poll point, and the
 * guest's pending virtual interrupt never gets in. */
static void test_storm(void **state)
{
	(void)state;
	sim_gic_enable_ppi(0, PMU_INTID, true);
	write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING));
	sim_set_line(0, SIM_LINE_PMUIRQ, true);
	poll_n(10);
	assert_int_equal(sim_gic_phys_count(0, PMU_INTID), 10);
	assert_int_equal(guest.n, 0);
}

static void test_mask_before_deactivate(void **state)
{
	(void)state;
	hyp.mode = H_MASK_EOI;
	sim_gic_enable_ppi(0, PMU_INTID, true);
	write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING));
	sim_set_line(0, SIM_LINE_PMUIRQ, true);
	poll_n(10);
	assert_int_equal(sim_gic_phys_count(0, PMU_INTID), 1);
	assert_int_equal(guest.n, 1);
}

/* EOImode 1: after the priority drop the interrupt stays active and is not taken again while
 * its line is high; deactivation lets it in again. */
static void test_active_interrupt_not_retaken(void **state)
{
	(void)state;
	hyp.mode = H_DROP;
	sim_gic_enable_ppi(0, PMU_INTID, true);
	sim_set_line(0, SIM_LINE_PMUIRQ, true);
	poll_n(5);
	assert_int_equal(sim_gic_phys_count(0, PMU_INTID), 1);
	assert_true(sim_gic_ppi_active(0, PMU_INTID));
	assert_false(sim_gic_ppi_running(0, PMU_INTID));
	sim_gic_deactivate(0, PMU_INTID);
	sim_gic_poll(0);
	assert_int_equal(sim_gic_phys_count(0, PMU_INTID), 2);
	assert_int_equal(sim_error_count(), 0);
}

/* Without a priority drop nothing else of equal priority is taken. */
static void test_running_interrupt_blocks_others(void **state)
{
	(void)state;
	hyp.mode = H_NONE;
	sim_gic_enable_ppi(0, PMU_INTID, true);
	sim_gic_enable_ppi(0, SPE_INTID, true);
	sim_set_line(0, SIM_LINE_PMUIRQ, true);
	sim_gic_poll(0);
	sim_set_line(0, SIM_LINE_PMBIRQ, true);
	sim_set_line(0, SIM_LINE_PMUIRQ, false);
	poll_n(3);
	assert_int_equal(hyp.calls, 1);
	sim_gic_eoi(0, PMU_INTID);
	hyp.mode = H_MASK_EOI;
	sim_gic_poll(0);
	assert_int_equal(hyp.calls, 2);
	assert_int_equal(hyp.last, SPE_INTID);
}

/* The guest deactivates the HW = 1 LR, which deactivates the physical PPI: exactly one
 * physical and one virtual delivery once the guest has cleared the source. */
static void test_hw_linked_deactivation(void **state)
{
	(void)state;
	hyp.mode = H_DROP_HW;
	guest.lower_line = true;
	sim_gic_enable_ppi(0, PMU_INTID, true);
	sim_set_line(0, SIM_LINE_PMUIRQ, true);
	poll_n(5);
	assert_int_equal(sim_gic_phys_count(0, PMU_INTID), 1);
	assert_int_equal(guest.n, 1);
	assert_false(sim_gic_ppi_active(0, PMU_INTID));
	assert_int_equal(sim_gic_stats(0)->hw_deactivations, 1);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_INVALID);
	assert_int_equal(sim_error_count(), 0);
}

/* The hypervisor deactivated the physical PPI itself and linked it with HW = 1 too. */
static void test_double_deactivation_reported(void **state)
{
	(void)state;
	hyp.mode = H_EOI_HW;
	sim_gic_enable_ppi(0, PMU_INTID, true);
	sim_set_line(0, SIM_LINE_PMUIRQ, true);
	sim_gic_poll(0);
	assert_int_equal(guest.n, 1);
	assert_int_equal(sim_error_count(), 1);
	assert_string_equal(sim_error_at(0)->what,
			    "HW-linked deactivation of an inactive physical interrupt");
}

static void test_eoi_errors(void **state)
{
	(void)state;
	hyp.mode = H_EOI_WRONG;
	sim_gic_enable_ppi(0, PMU_INTID, true);
	sim_set_line(0, SIM_LINE_PMUIRQ, true);
	sim_gic_poll(0);
	assert_int_equal(sim_error_count(), 1);
	assert_true(sim_gic_ppi_running(0, PMU_INTID));
	sim_gic_deactivate(0, PMU_INTID); /* before the priority drop */
	assert_int_equal(sim_error_count(), 2);
}

/* The maintenance interrupt (PPI 25) follows ICH_HCR_EL2.En and ICH_MISR_EL2: here UIE, with
 * fewer than two valid LRs. It ends when the hypervisor refills the LRs. */
static void test_maintenance_interrupt(void **state)
{
	(void)state;
	sim_gic_enable_ppi(0, SIM_GIC_MAINT_INTID, true);
	write_sysreg(SIM_ICH_HCR_UIE, ICH_HCR_EL2);
	sim_gic_poll(0);
	assert_int_equal(hyp.calls, 0); /* En = 0: never asserted */
	write_lr(0, sim_lr_make(40, PRIO, SIM_LR_PENDING));
	write_lr(1, sim_lr_make(41, PRIO, SIM_LR_PENDING));
	write_sysreg(SIM_ICH_HCR_EN | SIM_ICH_HCR_UIE, ICH_HCR_EL2);
	sim_gic_poll(0);
	assert_int_equal(guest.n, 2); /* both taken and ended: no valid LR left */
	assert_int_equal(hyp.calls, 0);
	sim_gic_poll(0);
	assert_int_equal(hyp.calls, 1);
	assert_int_equal(hyp.last, SIM_GIC_MAINT_INTID);
	guest.eoi = false;
	write_lr(0, sim_lr_make(42, PRIO, SIM_LR_PENDING));
	write_lr(1, sim_lr_make(43, PRIO, SIM_LR_PENDING));
	poll_n(3);
	assert_int_equal(hyp.calls, 1);
	assert_int_equal(guest.n, 3);
}

/* Real ops: the PMU's cycle counter overflows, PMUIRQ reaches EL2, the hypervisor clears the
 * overflow flag and injects the virtual PPI, the guest takes it once. */
static void test_pmu_overflow_end_to_end(void **state)
{
	const struct sim_uop op = { .pc = 0x1000, .latency = 1, .type = SIM_UOP_OTHER };

	(void)state;
	hyp.mode = H_PMU;
	sim_gic_enable_ppi(0, PMU_INTID, true);
	sim_poke(0, VPERF_ENC_PMCR_EL0, 1);		      /* E */
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, VPERF_BIT(31)); /* the cycle counter */
	sim_poke(0, VPERF_ENC_PMINTENSET_EL1, VPERF_BIT(31));
	sim_poke(0, VPERF_ENC_PMCCNTR_EL0, ~0ull);
	for (int i = 0; i < 4; i++)
		guest_run(&op, 1);
	assert_int_equal(sim_gic_phys_count(0, PMU_INTID), 1);
	assert_int_equal(sim_gic_virt_count(0, PMU_INTID), 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMOVSSET_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* PMUIRQ latency (enum sim_irq_latency): AFTER_POLLS takes it at exactly the poll point after
 * the wait; AFTER_TRAP at the first poll after the guest's next trap to EL2; a line that drops
 * while the interrupt waits is never taken; SEEDED takes each of the choices over many draws. */
static void set_latency(uint8_t mode, uint16_t polls)
{
	struct sim_pe_config cfg;
	const struct sim_handlers h = { .irq = hyp_irq,
					.guest_irq = guest_irq,
					.sysreg_trap = NULL };

	sim_default_config(&cfg);
	cfg.el2_trap_cycles = 0;
	cfg.pmuirq_latency = mode;
	cfg.pmuirq_polls = polls;
	sim_model_init(&cfg);
	sim_set_handlers(&h);
	sim_set_el(1);
	memset(&hyp, 0, sizeof(hyp));
	sim_poke(0, VPERF_ENC_HCR_EL2, IMO);
	sim_gic_enable_ppi(0, PMU_INTID, true);
	hyp.mode = H_MASK_EOI;
}

static void adv_trap(void *ctx, unsigned int cpu, uint64_t esr, uint64_t gprs[31])
{
	(void)ctx;
	(void)cpu;
	(void)esr;
	(void)gprs;
	sim_advance_pc();
}

static void test_pmuirq_latency(void **state)
{
	unsigned int first_poll[4] = { 0 };

	(void)state;
	set_latency(SIM_IRQ_AFTER_POLLS, 5);
	sim_set_line(0, SIM_LINE_PMUIRQ, true);
	poll_n(5);
	assert_int_equal(hyp.calls, 0);
	assert_true(sim_gic_pmuirq_delayed(0));
	poll_n(1);
	assert_int_equal(hyp.calls, 1);

	set_latency(SIM_IRQ_AFTER_POLLS, 5);
	sim_set_line(0, SIM_LINE_PMUIRQ, true);
	poll_n(3);
	sim_set_line(0, SIM_LINE_PMUIRQ, false); /* withdrawn: never taken */
	poll_n(20);
	assert_int_equal(hyp.calls, 0);

	set_latency(SIM_IRQ_AFTER_TRAP, 1000);
	sim_poke(0, VPERF_ENC_MDCR_EL2, 6 | MDCR_EL2_TPM);
	sim_set_line(0, SIM_LINE_PMUIRQ, true);
	poll_n(100);
	assert_int_equal(hyp.calls, 0);
	sim_set_handlers(&(const struct sim_handlers){ .irq = hyp_irq, .sysreg_trap = adv_trap });
	guest_read(PMCR_EL0); /* traps; the poll after it takes PMUIRQ */
	assert_int_equal(hyp.calls, 1);

	for (uint64_t seed = 1; seed <= 64; seed++) {
		unsigned int n = 0;
		struct sim_pe_config cfg;

		sim_default_config(&cfg);
		cfg.seed = seed;
		cfg.reset_zero = true;
		sim_model_init(&cfg);
		sim_set_handlers(&(const struct sim_handlers){ .irq = hyp_irq });
		sim_poke(0, VPERF_ENC_HCR_EL2, IMO);
		sim_gic_enable_ppi(0, PMU_INTID, true);
		hyp.calls = 0;
		sim_set_line(0, SIM_LINE_PMUIRQ, true);
		while (!hyp.calls && n < 300) {
			poll_n(1);
			n++;
		}
		first_poll[n == 1 ? 0 : n <= 17 ? 1 : n <= 65 ? 2 : 3]++;
	}
	for (unsigned int i = 0; i < 4; i++)
		assert_true(first_poll[i] > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_vtr_and_reset_state, setup),
		cmocka_unit_test_setup(test_unimplemented_lr_is_an_error, setup),
		cmocka_unit_test_setup(test_lr_fields_sanitized, setup),
		cmocka_unit_test_setup(test_elrsr_eisr_misr, setup),
		cmocka_unit_test_setup(test_lr_delivered_to_guest, setup),
		cmocka_unit_test_setup(test_delivery_conditions, setup),
		cmocka_unit_test_setup(test_priority_order, setup),
		cmocka_unit_test_setup(test_running_priority, setup),
		cmocka_unit_test_setup(test_pending_and_active, setup),
		cmocka_unit_test_setup(test_eoi_without_lr, setup),
		cmocka_unit_test_setup(test_split_eoi, setup),
		cmocka_unit_test_setup(test_equal_priority_choice_is_seeded, setup),
		cmocka_unit_test_setup(test_duplicate_vintid_reported_once, setup),
		cmocka_unit_test_setup(test_hw_pending_active_reported, setup),
		cmocka_unit_test_setup(test_physical_needs_imo_and_enable, setup),
		cmocka_unit_test_setup(test_storm, setup),
		cmocka_unit_test_setup(test_mask_before_deactivate, setup),
		cmocka_unit_test_setup(test_active_interrupt_not_retaken, setup),
		cmocka_unit_test_setup(test_running_interrupt_blocks_others, setup),
		cmocka_unit_test_setup(test_hw_linked_deactivation, setup),
		cmocka_unit_test_setup(test_double_deactivation_reported, setup),
		cmocka_unit_test_setup(test_eoi_errors, setup),
		cmocka_unit_test_setup(test_maintenance_interrupt, setup),
		cmocka_unit_test_setup(test_pmu_overflow_end_to_end, setup),
		cmocka_unit_test(test_pmuirq_latency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
