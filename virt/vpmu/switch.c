// SPDX-License-Identifier: MIT
/*
 * Where a vCPU's PMU state lives, and moving it. The first counter range [0, HPMN) and the cycle
 * counter belong to at most one vCPU per pCPU at a time (pcpu->pmu_owner); the host's second
 * range is never touched here, so it keeps counting across every switch.
 *
 * Lazy switching: a vCPU's state moves into the hardware on its first PMU access (every access
 * traps in the trapped modes), stays there while it runs, and at put its counters are copied to
 * the shadow and counting stops (PMCR_EL0.E = 0). If the same vCPU comes back to the same pCPU
 * and nobody took the hardware meanwhile, resuming is one PMCR_EL0 write; otherwise its state
 * is restored from the shadow. A vCPU that never used the PMU, or whose PMU was idle at its last
 * put, costs no System register access at load or put.
 */
#include <arch/barrier.h>
#include <arch/sysreg.h>

#include "vpmu.h"

/* Counters [0, hpmn) and the cycle counter: every bit a previous owner may have left set. */
static uint64_t first_range_mask(const struct vperf_pcpu *pcpu)
{
	return (VPERF_BIT(pcpu->hpmn) - 1) | VPMU_CYCLE_BIT;
}

void vperf_vpmu_reset(struct vperf_vcpu *vcpu)
{
	static const struct vperf_vpmu zero;

	vcpu->pmu = zero;
	for (unsigned int n = 0; n < VPERF_PMU_MAX_COUNTERS; n++)
		vcpu->pmu.map[n] = VPERF_VPMU_NOT_LIVE;
	/* The vGIC may still hold the line of the state before the reset or restore: push the
	 * (low) level at the next load whatever vperf pushed before. */
	vcpu->pmu.irq_dirty = true;
}

/* Counter n's physical counter now, or -1 when its value is in the shadow. */
static int live(const struct vperf_vcpu *vcpu, unsigned int n)
{
	return vpmu_in_hw(vcpu) ? vperf_vpmu_phys(vcpu, n) : -1;
}

uint64_t vperf_vpmu_counter(const struct vperf_vcpu *vcpu, unsigned int n)
{
	int p = live(vcpu, n);

	if (p < 0)
		return n == VPERF_CYCLE_IDX ? vcpu->pmu.ccntr : vcpu->pmu.evcntr[n];
	return n == VPERF_CYCLE_IDX ? read_sysreg(PMCCNTR_EL0) : read_pmevcntr((unsigned int)p);
}

void vperf_vpmu_set_counter(struct vperf_vcpu *vcpu, unsigned int n, uint64_t val)
{
	int p = live(vcpu, n);

	/* Before PMUv3p5 event counters are 32 bits wide (Arm DDI 0487 K.a, I5.3, PMEVCNTR<n>): a
	 * shadow keeps no more than the hardware would, so the guest never reads [63:32] back. */
	if (n != VPERF_CYCLE_IDX && !vperf_vpmu_wide_counters())
		val &= 0xffffffffull;

	if (p < 0 && n == VPERF_CYCLE_IDX)
		vcpu->pmu.ccntr = val;
	else if (p < 0)
		vcpu->pmu.evcntr[n] = val;
	else if (n == VPERF_CYCLE_IDX)
		write_sysreg(val, PMCCNTR_EL0);
	else
		write_pmevcntr((unsigned int)p, val);
}

uint64_t vperf_vpmu_ovs(const struct vperf_vcpu *vcpu)
{
	uint64_t hw = vpmu_in_hw(vcpu) ? vperf_vpmu_guest_bits(vcpu, read_sysreg(PMOVSSET_EL0)) : 0;

	return vcpu->pmu.ovs | hw;
}

/* Program guest counter n's type and value into its physical counter p. */
void vperf_vpmu_place(struct vperf_vcpu *vcpu, unsigned int n, unsigned int p)
{
	write_pmevtyper(p, vperf_vpmu_hw_evtyper(vcpu, vcpu->pmu.evtyper[n]));
	write_pmevcntr(p, vcpu->pmu.evcntr[n]);
}

/* The inverse of place, for guest counters whose enables the guest just cleared (the physical
 * enables already are): their values and raised flags go back to the shadow, their physical
 * counters are left with no interrupt enable and no flag for the next guest counter placed. */
void vperf_vpmu_release(struct vperf_vcpu *vcpu, uint64_t guest)
{
	uint64_t hw = vperf_vpmu_hw_bits(vcpu, guest) & ~VPMU_CYCLE_BIT;

	if (!vpmu_emulated_vm(vcpu) || !hw)
		return;
	vcpu->pmu.ovs |= vperf_vpmu_guest_bits(vcpu, read_sysreg(PMOVSSET_EL0) & hw);
	for (unsigned int n = 0; n < vcpu->vm->cfg.nr_counters; n++) {
		int p = vperf_vpmu_phys(vcpu, n);

		if (p < 0 || !(guest & VPERF_BIT(n)))
			continue;
		vcpu->pmu.evcntr[n] = read_pmevcntr((unsigned int)p);
		vcpu->pmu.map[n] = VPERF_VPMU_NOT_LIVE;
	}
	write_sysreg(hw, PMINTENCLR_EL1);
	write_sysreg(hw, PMOVSCLR_EL0);
}

/*
 * Restore into hardware whose first range may hold another vCPU's leftovers, with counting
 * stopped (PMCR_EL0.E = 0 since that vCPU's put). SET/CLR pairs: clear everything the previous
 * owner could have set, then set ours (writing 0 to a SET register changes nothing). Counters
 * and types before the enables; PMCR_EL0 last, so nothing counts a half-restored state.
 */
static void restore(struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	const struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t all = first_range_mask(pcpu);

	write_sysreg(all, PMCNTENCLR_EL0);
	/* A XENPMU_MODE_ALL owner counted EL2 (NSH, no HPMD) and did not stop at its put: until
	 * a context synchronization event its types, enables and MDCR_EL2 may still govern the
	 * counters this vCPU's values are about to go into, and the EL2 code up to the ERET would
	 * count into them (Arm DDI 0487 K.a, synchronization of System registers). */
	if (pcpu->pmu_owner && vpmu_all_vm(pcpu->pmu_owner))
		isb();
	write_sysreg(all, PMINTENCLR_EL1);
	write_sysreg(all, PMOVSCLR_EL0);
	vperf_vpmu_map_all(vcpu, pcpu);
	for (unsigned int n = 0; n < vcpu->vm->cfg.nr_counters; n++) {
		int p = vperf_vpmu_phys(vcpu, n);

		if (p >= 0)
			vperf_vpmu_place(vcpu, n, (unsigned int)p);
	}
	write_sysreg(vperf_vpmu_hw_ccfiltr(vcpu, s->ccfiltr), PMCCFILTR_EL0);
	write_sysreg(s->ccntr, PMCCNTR_EL0);
	if (vperf_vpmu_hw_bits(vcpu, s->cnten))
		write_sysreg(vperf_vpmu_hw_bits(vcpu, s->cnten), PMCNTENSET_EL0);
	if (vperf_vpmu_hw_bits(vcpu, s->inten))
		write_sysreg(vperf_vpmu_hw_bits(vcpu, s->inten), PMINTENSET_EL1);
	write_sysreg(s->userenr, PMUSERENR_EL0);
	/* Only a direct-partition guest uses the hardware's PMSELR_EL0 (untrapped PMXEV*): it must
	 * find its own selection there, not the previous owner's. */
	if (vpmu_direct_vm(vcpu))
		write_sysreg(s->selr, PMSELR_EL0);
	write_sysreg(s->pmcr, PMCR_EL0);
}

/* Untrapped, the guest wrote the hardware directly: copy its controls back to the shadow. */
static void sync_from_hw(struct vperf_vcpu *vcpu)
{
	struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t mask = vpmu_mask(vcpu);

	s->pmcr = read_sysreg(PMCR_EL0) & vperf_vpmu_pmcr_keep(vcpu);
	s->cnten = read_sysreg(PMCNTENSET_EL0) & mask;
	s->inten = read_sysreg(PMINTENSET_EL1) & mask;
	s->userenr = read_sysreg(PMUSERENR_EL0) & vpmu_userenr_keep(vcpu);
	s->selr = read_sysreg(PMSELR_EL0) & PMSELR_SEL;
	s->ccfiltr = read_sysreg(PMCCFILTR_EL0) & ~vperf_sysregs[VPERF_SR_PMCCFILTR_EL0].res0;
	for (unsigned int n = 0; n < vcpu->vm->cfg.nr_counters; n++)
		s->evtyper[n] = read_sysreg_enc(vperf_pmevtyper_enc(n)) &
				~vperf_sysregs[VPERF_SR_PMEVTYPER0_EL0].res0;
}

void vperf_vpmu_leave_direct(struct vperf_vcpu *vcpu)
{
	if (!vcpu->pmu.direct)
		return;
	sync_from_hw(vcpu);
	vcpu->pmu.direct = false;
	vperf_update_mdcr(vcpu);
}

/* After a trapped access: a direct-partition vCPU with no overflow to show runs untrapped
 * again. The hardware mirrors the shadow (trapped invariant), so only MDCR_EL2 changes. */
void vperf_vpmu_try_direct(struct vperf_vcpu *vcpu)
{
	if (!vpmu_direct_vm(vcpu) || vcpu->pmu.direct || vperf_vpmu_ovs(vcpu))
		return;
	vcpu->pmu.direct = true;
	vperf_update_mdcr(vcpu);
}

/* Stop counting and copy what the hardware changed by itself (counters, raised overflow flags)
 * to the shadow. Everything else is already there: every write went through vperf. */
static void save(struct vperf_vcpu *vcpu)
{
	struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t ovs = s->ovs;

	/* XENPMU_MODE_ALL: the privileged VM's counters go on counting whoever runs next (the
	 * copy below is for a migration; back on this pCPU it finds the live counters). */
	if ((s->pmcr & PMCR_E) && !vpmu_all_vm(vcpu))
		write_sysreg(s->pmcr & ~PMCR_E, PMCR_EL0);
	for (unsigned int n = 0; n < vcpu->vm->cfg.nr_counters; n++) {
		int p = vperf_vpmu_phys(vcpu, n);

		if (p >= 0)
			s->evcntr[n] = read_pmevcntr((unsigned int)p);
	}
	s->ccntr = read_sysreg(PMCCNTR_EL0);
	s->ovs |= vperf_vpmu_guest_bits(vcpu, read_sysreg(PMOVSSET_EL0));
	vperf_vpmu_end_slice(vcpu, vcpu->pcpu);
	/* Other vCPUs' EL0 must see PMUSERENR_EL0 = 0, the value of a vCPU that never set it. */
	if (s->userenr)
		write_sysreg(0, PMUSERENR_EL0);
	s->where = VPERF_VPMU_SHADOW;
	/* A flag raised but not yet taken as an interrupt counts from now on (computed from the
	 * shadow, which now holds every flag: no second PMOVSSET_EL0 read). Without a new flag the
	 * level is the one last pushed: every trapped change of PMCR_EL0.E, the enables or the
	 * flags pushes it, and the hardware's flags only grow in between (vperf clears them only
	 * where it pushes next). A direct-partition guest runs untrapped only with no flag and its
	 * line low (vperf_vpmu_try_direct): whatever it changed untrapped, its level is low until a
	 * flag comes up, which the copy above brings to the shadow. */
	if (s->ovs != ovs || s->irq_dirty)
		vperf_vpmu_update_irq(vcpu);
}

/* The hardware still holds exactly this vCPU's state: it was the last owner on this pCPU. */
static bool hw_copy_valid(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	return pcpu->pmu_owner == vcpu && vcpu->pmu.hw_pcpu == pcpu;
}

static void resume(struct vperf_vcpu *vcpu)
{
	if (vcpu->pmu.userenr)
		write_sysreg(vcpu->pmu.userenr, PMUSERENR_EL0);
	if (vcpu->pmu.pmcr & PMCR_E)
		write_sysreg(vcpu->pmu.pmcr, PMCR_EL0);
}

void vperf_vpmu_acquire(struct vperf_vcpu *vcpu)
{
	struct vperf_pcpu *pcpu = vcpu->pcpu;

	vcpu->pmu.active = true;
	if (vpmu_in_hw(vcpu))
		return;
	/* Resumed or restored, the vCPU sees the same: an emulated vCPU whose enabled counters are
	 * not all placed (multiplexed) is always restored, from its own rotation point. */
	if (hw_copy_valid(vcpu, pcpu) && vperf_vpmu_map_complete(vcpu)) {
		resume(vcpu);
	} else {
		restore(vcpu, pcpu);
		pcpu->pmu_owner = vcpu;
		vcpu->pmu.hw_pcpu = pcpu;
	}
	vcpu->pmu.where = VPERF_VPMU_HW;
}

/* Idle: nothing counts, no interrupt is pending, and EL0 has no access of its own to give back
 * at load (PMUSERENR_EL0 is mirrored into the hardware only while the state is there: EL0 gating
 * happens before any trap, so an unloaded grant would send the guest's EL0 accesses to its own
 * EL1). Its next load costs nothing. */
static bool idle(const struct vperf_vcpu *vcpu)
{
	const struct vperf_vpmu *s = &vcpu->pmu;

	return (!(s->pmcr & PMCR_E) || !(s->cnten & vpmu_mask(vcpu))) && !s->ovs && !s->userenr;
}

void vperf_vpmu_load(struct vperf_vcpu *vcpu)
{
	if (vcpu->pmu.active) {
		vperf_vpmu_acquire(vcpu);
		if (vpmu_direct_vm(vcpu))
			vperf_vpmu_try_direct(vcpu);
	}
	if (vcpu->pmu.irq_dirty)
		vperf_vpmu_update_irq(vcpu);
}

void vperf_vpmu_put(struct vperf_vcpu *vcpu)
{
	if (!vpmu_in_hw(vcpu))
		return;
	if (vcpu->pmu.direct) {
		sync_from_hw(vcpu);
		vcpu->pmu.direct = false; /* the next load traps until the state is back */
		vperf_mdcr_stale(vcpu);
	}
	save(vcpu);
	vcpu->pmu.active = !idle(vcpu);
}

/* The guest's PMUIRQ, a level like the physical one (irq.c): PMCR_EL0.E and a flag whose
 * interrupt is enabled, counting the flags still in the hardware (raised while their interrupt was
 * disabled), so the level never depends on when the physical interrupt is taken. Pushed only on
 * change, except after a reset or a restore (irq_dirty set by them): then the vGIC may hold any
 * level for this line, and the next push happens whatever vperf last pushed. A vCPU that is not
 * loaded gets it at its next load. */
void vperf_vpmu_update_irq(struct vperf_vcpu *vcpu)
{
	struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t pending = s->inten & vpmu_mask(vcpu);
	bool level = (s->pmcr & PMCR_E) && pending &&
		     (((s->ovs & pending) != 0) || (vperf_vpmu_ovs(vcpu) & pending) != 0);

	if (!vcpu->pcpu) {
		s->irq_dirty |= level != s->irq_level;
		return;
	}
	if (level == s->irq_level && !s->irq_dirty)
		return;
	s->irq_dirty = false;
	s->irq_level = level;
	vperf_ops->set_irq_line(vcpu->hv_vcpu, vperf_vm_pmu_virq(vcpu->vm), level);
}
