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
 *
 * Lazy put (vperf_vcpu_put_lazy, trapped partition): the hypervisor promises that the vCPU's
 * next load is on this pCPU, so the counters are not even copied: counting stops, the raised
 * flags are taken, and the state stays PARKED in this pCPU's hardware until an owner change
 * needs it (another vCPU's acquire on this pCPU, vperf_pcpu_flush on it), which saves it to the
 * shadow on this pCPU. The invariants: docs/vpmu.md, "Lazy put".
 */
#include <arch/barrier.h>
#include <arch/sysreg.h>

#include "../log.h"
#include "../mdcr.h"
#include "map.h"
#include "second.h"
#include "switch.h"
#include "vpmu.h"

/* Counters [0, hpmn), the cycle counter and, with FEAT_PMUv3_ICNTR, the instruction counter:
 * every bit a previous owner may have left set. The instruction counter (F0, bit 32 of
 * PMCNTEN, PMINTEN and PMOVS, I5.3.18) is in no HPMN range: PMCR_EL0.E, the guest's, enables it,
 * so an enable left set would count the guest's instructions into someone else's count. No
 * guest is given it (vperf shows no FEAT_PMUv3_ICNTR): it is cleared and never set again. */
static uint64_t first_range_mask(const struct vperf_pcpu *pcpu)
{
	uint64_t icntr = pcpu->caps.icntr ? VPERF_BIT(32) : 0;

	return (VPERF_BIT(pcpu->hpmn) - 1) | VPMU_CYCLE_BIT | icntr;
}

/* At pcpu_init, before any vCPU runs there. */
void vperf_vpmu_pcpu_init(struct vperf_pcpu *pcpu)
{
	/* PMUSERENR_EL0's fields reset to architecturally UNKNOWN values (its description in Arm
	 * DDI 0487; the model's reset, docs/model.md). The PE applies it to a guest's EL0 before
	 * any trap to EL2, and a vCPU that never granted EL0 access runs on it as it is (no access
	 * at load, below): it must hold 0, what every put leaves. */
	if (pcpu->caps.pmuver)
		write_sysreg(0, PMUSERENR_EL0);
	/* PMSELR_EL0.SEL resets to an UNKNOWN value too, and is checked before MDCR_EL2.TPM by a
	 * trapped guest's PMXEVCNTR_EL0 / PMXEVTYPER_EL0 (vpmu_idle_selr): it must hold the value
	 * every direct guest's put leaves. */
	if (pcpu->caps.pmuver)
		write_sysreg(vpmu_idle_selr(pcpu), PMSELR_EL0);
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

/*
 * Restore into hardware whose first range may hold another vCPU's leftovers, with counting
 * stopped (PMCR_EL0.E = 0 since that vCPU's put). SET/CLR pairs: clear everything the previous
 * owner could have set, then set ours (writing 0 to a SET register changes nothing). Counters
 * and types before the enables; PMCR_EL0 last, so nothing counts a half-restored state.
 */
static void restore(struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	const struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t all = first_range_mask(pcpu), cnten, inten;

	/* Where the host keeps the first range, every vCPU is a second-range one (second.c). */
	if (pcpu->cfg.host_first_range) {
		vperf_vpmu_second_restore(vcpu, pcpu);
		return;
	}
	write_sysreg(all, PMCNTENCLR_EL0);
	/* A XENPMU_MODE_ALL owner counted EL2 (NSH, no HPMD) and did not stop at its put: until
	 * a context synchronization event its types, enables and MDCR_EL2 may still govern the
	 * counters this vCPU's values are about to go into, and the EL2 code up to the ERET would
	 * count into them (Arm DDI 0487 K.a, synchronization of System registers). */
	if (pcpu->pmu_owner && vpmu_all_vm(pcpu->pmu_owner))
		isb();
	write_sysreg(all, PMINTENCLR_EL1);
	write_sysreg(all, PMOVSCLR_EL0);
	if (vpmu_emulated_vm(vcpu)) {
		vperf_vpmu_map_all(vcpu, pcpu);
		for (unsigned int n = 0; n < vcpu->vm->cfg.nr_counters; n++) {
			int p = vperf_vpmu_phys(vcpu, n);

			if (p >= 0)
				vperf_vpmu_place(vcpu, n, (unsigned int)p);
		}
		cnten = vperf_vpmu_hw_bits(vcpu, s->cnten);
		inten = vperf_vpmu_hw_inten(vcpu);
	} else {
		/* Guest counter n is physical counter n, its bits the guest's own (what
		 * vperf_vpmu_hw_bits and vperf_vpmu_hw_inten give outside the emulated partition,
		 * taken here without asking the partition again). */
		uint64_t hw[VPERF_PMU_MAX_COUNTERS], mask = vpmu_mask(vcpu);
		unsigned int nr = vcpu->vm->cfg.nr_counters;

		cnten = s->cnten & mask;
		inten = s->inten & mask;
		vperf_vpmu_hw_evtypers(vcpu, nr, s->evtyper, hw);
		write_pmevtypers(nr, hw);
		write_pmevcntrs(nr, s->evcntr);
	}
	write_sysreg(vperf_vpmu_hw_ccfiltr(vcpu, s->ccfiltr), PMCCFILTR_EL0);
	write_sysreg(s->ccntr, PMCCNTR_EL0);
	if (cnten)
		write_sysreg(cnten, PMCNTENSET_EL0);
	if (inten)
		write_sysreg(inten, PMINTENSET_EL1);
	write_sysreg(s->userenr, PMUSERENR_EL0);
	/* Only a direct-partition guest uses the hardware's PMSELR_EL0 (untrapped PMXEV*): it must
	 * find its own selection there, not the previous owner's. */
	if (vpmu_direct_vm(vcpu))
		write_sysreg(s->selr, PMSELR_EL0);
	write_sysreg(vpmu_hw_pmcr(s->pmcr), PMCR_EL0);
}

/* Untrapped, the guest wrote the hardware directly: copy its controls back to the shadow. */
static void sync_from_hw(struct vperf_vcpu *vcpu)
{
	struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t mask = vpmu_mask(vcpu);

	s->pmcr = read_sysreg(PMCR_EL0) & vperf_vpmu_pmcr_keep(vcpu);
	s->cnten = read_sysreg(PMCNTENSET_EL0) & mask;
	s->inten = read_sysreg(PMINTENSET_EL1) & mask;
	vpmu_set_userenr(s, vpmu_sync_userenr(vcpu));
	s->selr = read_sysreg(PMSELR_EL0) & PMSELR_SEL;
	/* Types trapped by FEAT_FGT are the shadow's: the hardware holds their filtered copy. */
	if (!vpmu_types_direct(vcpu))
		return;
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
	if (!vpmu_direct_vm(vcpu) || vcpu->pmu.direct || vperf_vpmu_ovs(vcpu) ||
	    !vpmu_direct_here(vcpu))
		return;
	vcpu->pmu.direct = true;
	vperf_update_mdcr(vcpu);
}

/* The counters the hardware changed by itself, into the shadow (counting already stopped). */
static void save_counters(struct vperf_vcpu *vcpu)
{
	struct vperf_vpmu *s = &vcpu->pmu;
	unsigned int nr = vcpu->vm->cfg.nr_counters;

	if (vpmu_emulated_vm(vcpu)) {
		for (unsigned int n = 0; n < nr; n++) {
			int p = vperf_vpmu_phys(vcpu, n);

			if (p >= 0)
				s->evcntr[n] = vpmu_counter_bits(read_pmevcntr((unsigned int)p));
		}
	} else {
		read_pmevcntrs(nr, s->evcntr); /* guest counter n is physical counter n */
		if (!vperf_vpmu_wide_counters())
			for (unsigned int n = 0; n < nr; n++)
				s->evcntr[n] = vpmu_counter_bits(s->evcntr[n]);
	}
	s->ccntr = read_sysreg(PMCCNTR_EL0);
}

/* Stop counting and copy what the hardware changed by itself (counters, raised overflow flags)
 * to the shadow. Everything else is already there: every write went through vperf. */
static void save(struct vperf_vcpu *vcpu)
{
	struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t ovs = s->ovs, hw_ovs;

	/* XENPMU_MODE_ALL: the privileged VM's counters go on counting whoever runs next (the
	 * copy below is for a migration; back on this pCPU it finds the live counters). The
	 * second range stops at the put's MDCR_EL2 write (HPME = 0) and counts nothing at EL2
	 * before it (NSH = 0). */
	if (!vpmu_all_vm(vcpu) && !vpmu_second_vm(vcpu)) {
		if (vcpu->pcpu->cfg.host_writes_pmcr)
			vperf_vpmu_stop_enables(vcpu);
		else if (s->pmcr & PMCR_E)
			write_sysreg(vpmu_hw_pmcr(s->pmcr & ~PMCR_E), PMCR_EL0);
	}
	if (vpmu_second_vm(vcpu))
		vperf_vpmu_second_save_counters(vcpu);
	else
		save_counters(vcpu);
	hw_ovs = read_sysreg(PMOVSSET_EL0);
	if (vpmu_second_vm(vcpu))
		hw_ovs = vperf_vpmu_second_ovs(vcpu, hw_ovs);
	vperf_vpmu_take_soft_chain(vcpu, hw_ovs); /* emulated partition, one slot (map.c) */
	s->ovs |= vperf_vpmu_guest_bits(vcpu, hw_ovs);
	vperf_vpmu_end_slice(vcpu, vcpu->pcpu);
	/* Other vCPUs' EL0 must see PMUSERENR_EL0 = 0, the value of a vCPU that never set it. */
	if (s->userenr)
		write_sysreg(0, PMUSERENR_EL0);
	/* A direct guest's selection (untrapped PMXEV*, restore()) leaves with it: a trapped
	 * guest loaded next would find its PMXEV* UNDEFINED before MDCR_EL2.TPM traps them
	 * (vpmu_idle_selr). The others never write the hardware's, so their switches need no
	 * access. */
	if (vpmu_direct_vm(vcpu) && s->selr != vpmu_idle_selr(vcpu->pcpu))
		write_sysreg(vpmu_idle_selr(vcpu->pcpu), PMSELR_EL0);
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

/* An owner change on this pCPU: a state a lazy put parked here goes to its shadow first (its
 * counting stopped and its flags were taken at that put). The hardware copy stays valid, as
 * after an eager put, until someone else's state is restored over it. Always inline in the
 * acquire, on the switch's path (vperf_vpmu_flush below is the same). */
static inline __attribute__((always_inline)) void flush(struct vperf_pcpu *pcpu)
{
	struct vperf_vcpu *owner = pcpu->pmu_owner;

	if (!owner || !vpmu_parked_here(owner, pcpu))
		return;
	/* Where the host keeps the first range, every owner is a second-range vCPU (second.c). */
	if (pcpu->cfg.host_first_range) {
		vperf_vpmu_second_flush(owner);
		return;
	}
	save_counters(owner);
	owner->pmu.where = VPERF_VPMU_SHADOW;
}

void vperf_vpmu_flush(struct vperf_pcpu *pcpu)
{
	flush(pcpu);
}

/*
 * The pCPU powers down (PSCI DEN0022, 5.4 CPU_SUSPEND: a power-down state loses the core's
 * context) or goes offline: its PMU registers come back UNKNOWN, so the hardware copy the
 * owner's next acquire would resume from (hw_copy_valid) dies with them. A parked state goes to
 * its shadow (flush), and so do the counts an XENPMU_MODE_ALL owner made since its put, which
 * go on counting in the hardware (save()); then the pCPU has no owner, and the next acquire
 * restores in full.
 */
void vperf_vpmu_down(struct vperf_pcpu *pcpu)
{
	struct vperf_vcpu *owner = pcpu->pmu_owner;

	if (!owner)
		return;
	flush(pcpu);
	/* Only where its hardware copy is this pCPU's: moved and put elsewhere since, its shadow
	 * is newer than these counters. */
	if (vpmu_all_vm(owner) && !owner->pcpu && owner->pmu.hw_pcpu == pcpu &&
	    !pcpu->cfg.host_first_range)
		save_counters(owner);
	pcpu->pmu_owner = NULL;
}

/*
 * vperf_vpmu_before_mdcr's eviction: the owner's counters in [hpmn, pcpu->hpmn) must be off
 * before the MDCR_EL2 write that puts them in the second range. A state parked by a lazy put
 * goes to its shadow first; the counters' enables, interrupt enables and flags (already in the
 * owner's shadow since its put) are cleared, so that nothing counts there for anyone and no
 * PMUIRQ rises for a counter nobody owns; the owner loses its hardware copy and is restored
 * from its shadow at its next acquire. No ISB: the clears, like the MDCR_EL2 write, may reach
 * counting only at the ERET (Arm DDI 0487, "Synchronization requirements for AArch64 System
 * registers"), but whatever EL2 counts into these counters meanwhile (a type with NSH, which a
 * direct guest may set) is nobody's: the owner's values are in its shadow (saved at its put, or
 * by the flush above before the clears) and every restore clears the first range first.
 * XENPMU_MODE_ALL owners profile every VM and EL2 by policy: their counters go on counting, as
 * across every other switch. Rare: once per owner change from an owner with more counters to a
 * direct vCPU in HV.
 */
void vperf_vpmu_evict_above(struct vperf_vcpu *vcpu, unsigned int hpmn)
{
	struct vperf_pcpu *pcpu = vcpu->pcpu;
	struct vperf_vcpu *owner = pcpu->pmu_owner;
	uint64_t range = (VPERF_BIT(pcpu->hpmn) - 1) & ~(VPERF_BIT(hpmn) - 1);

	if (vpmu_all_vm(owner) || vpmu_owner_reach(owner, pcpu) <= hpmn)
		return;
	vperf_vpmu_flush(pcpu);
	write_sysreg(range, PMCNTENCLR_EL0);
	write_sysreg(range, PMINTENCLR_EL1);
	write_sysreg(range, PMOVSCLR_EL0);
	pcpu->pmu_owner = NULL;
}

/* The hardware still holds exactly this vCPU's state: it was the last owner on this pCPU. */
static bool hw_copy_valid(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	return pcpu->pmu_owner == vcpu && vcpu->pmu.hw_pcpu == pcpu;
}

void vperf_vpmu_acquire(struct vperf_vcpu *vcpu)
{
	struct vperf_pcpu *pcpu = vcpu->pcpu;

	vcpu->pmu.active = true;
	if (vpmu_in_hw(vcpu))
		return;
	/* Loaded elsewhere than where a lazy put parked it, with no vperf_pcpu_flush there first
	 * (the load reported it, ../vcpu.c): the counts since that put stay in the other pCPU's
	 * hardware (lost). That pCPU will not save them over this state: hw_pcpu moves here. */
	/* Resumed or restored, the vCPU sees the same: an emulated vCPU whose enabled counters are
	 * not all placed (multiplexed) is always restored, from its own rotation point. */
	if (hw_copy_valid(vcpu, pcpu) && vperf_vpmu_map_complete(vcpu)) {
		vpmu_resume(vcpu);
	} else {
		flush(pcpu); /* the previous owner's parked state, to its shadow */
		/* Before restore(), which places the second range's counters by it (map.h): */
		vcpu->pmu.hw_pcpu = pcpu;
		restore(vcpu, pcpu);
		pcpu->pmu_owner = vcpu;
	}
	vcpu->pmu.where = VPERF_VPMU_HW;
}

void vperf_vpmu_load_state(struct vperf_vcpu *vcpu)
{
	if (vcpu->pmu.active) {
		vperf_vpmu_acquire(vcpu);
		if (vpmu_direct_vm(vcpu))
			vperf_vpmu_try_direct(vcpu);
	}
	if (vcpu->pmu.irq_dirty)
		vperf_vpmu_update_irq(vcpu);
}

void vperf_vpmu_put(struct vperf_vcpu *vcpu, bool lazy)
{
	bool push;

	if (!vpmu_in_hw(vcpu)) {
		/* Parked here by the lazy put before this run, which made no PMU access (its load
		 * resumes nothing while the vPMU is idle): its counters are still only in this
		 * pCPU's hardware. An eager put promises nothing about the next load: they go to
		 * the shadow now, as save() would have put them there. */
		if (!lazy && vpmu_parked_here(vcpu, vcpu->pcpu))
			vperf_vpmu_flush(vcpu->pcpu);
		return;
	}
	if (lazy && vperf_vpmu_park(vcpu, &push)) {
		if (push)
			vperf_vpmu_update_irq(vcpu);
		return;
	}
	if (vcpu->pmu.direct) {
		sync_from_hw(vcpu);
		vcpu->pmu.direct = false; /* the next load traps until the state is back */
		vperf_mdcr_stale(vcpu);
	}
	save(vcpu);
	vcpu->pmu.active = !vpmu_idle(vcpu);
	if (vpmu_second_vm(vcpu))
		vperf_vpmu_second_put_mdcr(vcpu); /* HPME follows active (../mdcr.c) */
}
