// SPDX-License-Identifier: MIT
/*
 * The virtual CPU interface: which list register the vPE is signalled, its acknowledge into
 * the guest's IRQ handler, and the guest's end of interrupt (ICV_EOIR1_EL1, ICV_DIR_EL1).
 *
 * Rules, from the GICv3 spec (Arm IHI 0069) pseudocode as its function names go:
 * HighestPriorityVirtualInterrupt considers only LRs in the pending state (pending+active is
 * not signalled again), of an enabled group; CanSignalVirtualInterrupt needs ICH_HCR_EL2.En,
 * a priority above ICH_VMCR_EL2.VPMR and a group priority above the running priority, which
 * the active priority registers (ICH_AP1R<n>_EL2) hold, one bit per group priority;
 * VirtualWriteEOIR1 drops the highest active priority, then FindActiveVirtualInterrupt looks
 * for the LR to deactivate (none: ICH_HCR_EL2.EOIcount++). Virtual IRQs reach EL1 only while
 * HCR_EL2.IMO = 1 (Arm DDI 0487 K.a, HCR_EL2.IMO).
 */
#include "gic_cpu.h"

#define NO_LR	  -1
#define IDLE_PRIO 0xffu
#define MIN_VBPR1 3u /* 5 preemption bits (ICH_VTR_EL2.PREbits = 4) */

static uint64_t vmcr(unsigned int cpu)
{
	return sim_reg(cpu, SIM_ENC_ICH_VMCR_EL2);
}

/* Group priority mask of Group 1 for the guest's binary point, ICH_VMCR_EL2.VBPR1. */
static uint32_t group_mask(unsigned int cpu)
{
	uint32_t bpr = (uint32_t)VPERF_FIELD_GET(vmcr(cpu), 20, 18);

	return (0xffu << (bpr < MIN_VBPR1 ? MIN_VBPR1 : bpr)) & 0xffu;
}

uint8_t sim_gic_virt_running_prio(unsigned int cpu)
{
	uint32_t ap = gic_cpu(cpu)->vap1r;
	uint32_t prio = ap ? (uint32_t)__builtin_ctz(ap) << MIN_VBPR1 : IDLE_PRIO;

	return (uint8_t)prio;
}

/* Two valid LRs with one vINTID are UNPREDICTABLE (ICH_LR<n>_EL2); checked when the guest is
 * about to run, since a hypervisor may pass through such a state while it moves an entry. */
static void check_duplicates(unsigned int cpu)
{
	struct gic_cpu *g = gic_cpu(cpu);
	bool dup = false;

	for (unsigned int i = 0; i < g->nr_lrs && !dup; i++) {
		uint64_t a = gic_lr(cpu, i);

		for (unsigned int j = i + 1; j < g->nr_lrs && sim_lr_state(a) != SIM_LR_INVALID;
		     j++)
			if (sim_lr_state(gic_lr(cpu, j)) != SIM_LR_INVALID &&
			    sim_lr_vintid(gic_lr(cpu, j)) == sim_lr_vintid(a))
				dup = true;
	}
	if (dup && !g->dup_reported)
		sim_report_error(cpu, "two valid list registers hold the same vINTID");
	g->dup_reported = dup;
}

/* The highest priority pending Group 1 LR; ties are broken at random (the choice is
 * IMPLEMENTATION DEFINED), so no hypervisor can depend on LR order. */
static int highest_pending(unsigned int cpu)
{
	unsigned int best_prio = 0x100, ties = 0;
	int best = NO_LR;

	for (unsigned int n = 0; n < gic_cpu(cpu)->nr_lrs; n++) {
		uint64_t lr = gic_lr(cpu, n);

		if (sim_lr_state(lr) != SIM_LR_PENDING || !(lr & SIM_LR_GROUP))
			continue;
		if (sim_lr_prio(lr) < best_prio) {
			best_prio = sim_lr_prio(lr);
			best = (int)n;
			ties = 1;
		} else if (sim_lr_prio(lr) == best_prio && sim_random(cpu) % ++ties == 0) {
			best = (int)n;
		}
	}
	return best;
}

static bool can_signal(unsigned int cpu, uint64_t lr)
{
	uint32_t prio = sim_lr_prio(lr), mask = group_mask(cpu);
	uint32_t vpmr = (uint32_t)VPERF_FIELD_GET(vmcr(cpu), 31, 24);
	uint32_t rprio = sim_gic_virt_running_prio(cpu);

	if (prio >= vpmr)
		return false;
	return rprio == IDLE_PRIO || (prio & mask) < (rprio & mask);
}

static bool virq_enabled(unsigned int cpu)
{
	const struct gic_cpu *g = gic_cpu(cpu);

	return (sim_reg(cpu, SIM_ENC_ICH_HCR_EL2) & SIM_ICH_HCR_EN) &&
	       (sim_reg(cpu, SIM_ENC_HCR_EL2) & SIM_HCR_EL2_IMO) &&
	       (vmcr(cpu) & SIM_ICH_VMCR_VENG1) && !g->in_guest_irq && !g->guest_masked;
}

static void call_guest_handler(unsigned int cpu, uint32_t vintid)
{
	const struct sim_handlers *h = sim_model_handlers();
	struct gic_cpu *g = gic_cpu(cpu);
	unsigned int el = sim_el();

	/* The IRQ exception is taken to EL1 with PSTATE.I set until the handler returns. */
	sim_set_el(1);
	g->in_guest_irq = true;
	if (h->guest_irq)
		h->guest_irq(h->ctx, cpu, vintid);
	g->in_guest_irq = false;
	sim_set_el(el);
}

bool gic_virt_signalled(unsigned int cpu)
{
	if (!(sim_reg(cpu, SIM_ENC_ICH_HCR_EL2) & SIM_ICH_HCR_EN) ||
	    !(vmcr(cpu) & SIM_ICH_VMCR_VENG1))
		return false;
	for (unsigned int n = 0; n < gic_cpu(cpu)->nr_lrs; n++) {
		uint64_t lr = gic_lr(cpu, n);

		if ((lr & SIM_LR_PENDING_BIT) && can_signal(cpu, lr))
			return true;
	}
	return false;
}

/* Acknowledge (ICV_IAR1_EL1) the LR the vPE is signalled: pending -> active, its group
 * priority becomes active, and the guest's handler runs. */
bool gic_virt_take(unsigned int cpu)
{
	struct gic_cpu *g = gic_cpu(cpu);
	uint64_t lr;
	uint32_t vintid;
	int n;

	if (!virq_enabled(cpu))
		return false;
	check_duplicates(cpu);
	n = highest_pending(cpu);
	if (n == NO_LR || !can_signal(cpu, gic_lr(cpu, (unsigned int)n)))
		return false;
	lr = gic_lr(cpu, (unsigned int)n);
	vintid = sim_lr_vintid(lr);
	gic_set_lr(cpu, (unsigned int)n, (lr & ~SIM_LR_PENDING_BIT) | SIM_LR_ACTIVE_BIT);
	g->vap1r |= 1u << ((sim_lr_prio(lr) & group_mask(cpu)) >> MIN_VBPR1);
	if (vintid < SIM_GIC_NR_COUNTED)
		g->stats.virt_taken[vintid]++;
	else
		g->stats.virt_taken_other++;
	gic_sync(cpu);
	call_guest_handler(cpu, vintid);
	return true;
}

/* ---- end of interrupt ------------------------------------------------------------------------ */

static int find_active(unsigned int cpu, uint32_t vintid)
{
	for (unsigned int n = 0; n < gic_cpu(cpu)->nr_lrs; n++) {
		uint64_t lr = gic_lr(cpu, n);

		if ((lr & SIM_LR_ACTIVE_BIT) && sim_lr_vintid(lr) == vintid)
			return (int)n;
	}
	return NO_LR;
}

static void count_unmatched(unsigned int cpu)
{
	uint64_t hcr = sim_reg(cpu, SIM_ENC_ICH_HCR_EL2);
	uint64_t count = VPERF_FIELD_GET(hcr, 31, 27) + 1; /* 5 bits: wraps */

	hcr = (hcr & ~SIM_ICH_HCR_EOICOUNT_MASK) |
	      (count << SIM_ICH_HCR_EOICOUNT_SHIFT & SIM_ICH_HCR_EOICOUNT_MASK);
	sim_set_reg(cpu, SIM_ENC_ICH_HCR_EL2, hcr);
	gic_cpu(cpu)->stats.eoi_no_lr++;
}

/* Active -> invalid, pending+active -> pending; a HW LR takes its physical INTID along. */
static void deactivate_lr(unsigned int cpu, unsigned int n)
{
	uint64_t lr = gic_lr(cpu, n);

	gic_set_lr(cpu, n, lr & ~SIM_LR_ACTIVE_BIT);
	if (lr & SIM_LR_HW)
		gic_phys_hw_deactivate(cpu, sim_lr_pintid(lr));
}

/* Clear the highest active priority; IDLE_PRIO when none was active. */
static uint32_t drop_priority(unsigned int cpu)
{
	struct gic_cpu *g = gic_cpu(cpu);
	uint32_t prio = sim_gic_virt_running_prio(cpu);

	g->vap1r &= g->vap1r - 1;
	return prio;
}

void sim_guest_eoi(unsigned int cpu, uint32_t vintid)
{
	struct gic_cpu *g = gic_cpu(cpu);
	uint32_t dropped;
	int n;

	g->stats.guest_eois++;
	dropped = drop_priority(cpu);
	/* No active priority: CONSTRAINED UNPREDICTABLE whether the LRs are searched; the model
	 * does not search them. */
	if (dropped == IDLE_PRIO) {
		g->stats.eoi_no_active++;
		return;
	}
	if (vmcr(cpu) & SIM_ICH_VMCR_VEOIM)
		return;
	n = find_active(cpu, vintid);
	if (n == NO_LR)
		count_unmatched(cpu);
	else if ((sim_lr_prio(gic_lr(cpu, (unsigned int)n)) & group_mask(cpu)) != dropped)
		g->stats.eoi_prio_mismatch++;
	else
		deactivate_lr(cpu, (unsigned int)n);
	gic_sync(cpu);
}

/* ICV_DIR_EL1 is ignored unless the guest split drop and deactivation (VEOIM = 1). */
void sim_guest_dir(unsigned int cpu, uint32_t vintid)
{
	int n;

	if (!(vmcr(cpu) & SIM_ICH_VMCR_VEOIM))
		return;
	n = find_active(cpu, vintid);
	if (n == NO_LR)
		count_unmatched(cpu);
	else
		deactivate_lr(cpu, (unsigned int)n);
	gic_sync(cpu);
}

/* ---- the guest's own controls ---------------------------------------------------------------- */

void sim_guest_set_pmr(unsigned int cpu, uint8_t pmr)
{
	uint64_t v = vmcr(cpu) & ~VPERF_GENMASK(31, 24);

	sim_set_reg(cpu, SIM_ENC_ICH_VMCR_EL2, v | (uint64_t)(pmr & 0xf8u) << 24);
	gic_sync(cpu);
}

void sim_guest_enable_grp1(unsigned int cpu, bool enable)
{
	uint64_t v = vmcr(cpu) & ~SIM_ICH_VMCR_VENG1;

	sim_set_reg(cpu, SIM_ENC_ICH_VMCR_EL2, enable ? v | SIM_ICH_VMCR_VENG1 : v);
	gic_sync(cpu);
}

void sim_guest_mask_irq(unsigned int cpu, bool masked)
{
	gic_cpu(cpu)->guest_masked = masked;
}
