/* SPDX-License-Identifier: MIT */
/* The vPMU's switch steps inlined into the vCPU's load and lazy put (../vcpu.c), each with the
 * slow path it calls in switch.c. */
#ifndef VPERF_VIRT_VPMU_SWITCH_H
#define VPERF_VIRT_VPMU_SWITCH_H

#include <arch/barrier.h>
#include <arch/sysreg.h>

#include "../mdcr.h"
#include "second.h"
#include "vpmu.h"

/* The physical counters of the first range an owner may have left enabled: its N (guest
 * counter n is physical counter n), or in the emulated partition the slots it is placed on
 * (map.c). */
static inline unsigned int vpmu_owner_reach(const struct vperf_vcpu *owner,
					    const struct vperf_pcpu *pcpu)
{
	uint8_t slots = owner->vm->cfg.emu_slots;

	if (!vpmu_emulated_vm(owner))
		return owner->vm->cfg.nr_counters;
	return slots && slots < pcpu->hpmn ? slots : pcpu->hpmn;
}

/* Before the loaded vCPU's MDCR_EL2 (computed, not yet written) moves [hpmn, pcpu->hpmn) into
 * the second range: give up another owner's counters there (switch.c). */
void vperf_vpmu_evict_above(struct vperf_vcpu *vcpu, unsigned int hpmn);

/*
 * At load, between computing the vCPU's MDCR_EL2 and writing it (vcpu.c). A direct-partition
 * vCPU runs with MDCR_EL2.HPMN = N (../mdcr.c): counters [N, pcpu->hpmn) leave the first range,
 * where PMCR_EL0.E = 0 stopped the previous owner's at its put, for the second, which counts
 * under MDCR_EL2.HPME and PMCNTENSET_EL0 alone (Arm DDI 0487, MDCR_EL2.HPMN; PMCR_EL0.E applies
 * to the first range only). With HPME set (XENPMU_MODE_HV and host counters), an owner's counter
 * still enabled there would count this guest (and EL2 up to the ERET) and take its overflows.
 * Inline: the common load only compares (no owner, the vCPU is the owner, the same HPMN).
 */
static inline void vperf_vpmu_before_mdcr(struct vperf_vcpu *vcpu)
{
	const struct vperf_pcpu *pcpu = vcpu->pcpu;
	unsigned int hpmn = (unsigned int)(vcpu->mdcr & MDCR_EL2_HPMN_MASK) >> MDCR_EL2_HPMN_SHIFT;

	if (pcpu->pmu_owner && pcpu->pmu_owner != vcpu && (vcpu->mdcr & MDCR_EL2_HPME) &&
	    hpmn < pcpu->hpmn)
		vperf_vpmu_evict_above(vcpu, hpmn);
}

/*
 * The lazy put's vPMU part (switch.c, docs/vpmu.md "Lazy put"), inline for vperf_vcpu_put_lazy's
 * common case: the eager put's save() without the counters, which stay parked in the hardware;
 * counting stopped, the flags, the EL0 grant and the virtual line exactly as save() leaves them
 * (guest counter n is physical counter n: the flags need no mapping). Only the trapped partition
 * outside XENPMU_MODE_ALL parks (the emulated partition moves its rotation at every put, the
 * direct one copies its controls back, ALL goes on counting). False: nothing done, the put saves
 * as usual. True: parked, and *push says whether the caller must push the virtual line
 * (vperf_vpmu_update_irq) before the vCPU is no longer loaded: a new flag, or a reset's or a
 * restore's level (left out of here so that the common path makes no call).
 */
/*
 * The second range's lazy put (second.c): no PMU register written, the MDCR_EL2 of the put (HPME
 * = 0) stops its counters; only a pending physical IRQ (ISR_EL1.I, not a PMU register) makes it
 * read PMOVSSET_EL0 and take the guest's flags, which an overflow just before the exit may have
 * raised. It stays active (it was, its state being in the hardware), so that its MDCR_EL2 and
 * HPME stay what they were: an idle vCPU is acquired again at its next load, at worst a restore
 * after another vCPU took the counters, where an eager put would have left it in the shadow.
 */
static inline bool vpmu_park_second(struct vperf_vcpu *vcpu, bool *push)
{
	struct vperf_vpmu *s = &vcpu->pmu;

	*push = s->irq_dirty;
	if (read_sysreg(ISR_EL1) & ISR_EL1_I)
		*push |= vperf_vpmu_second_park_flags(vcpu);
	if (s->userenr)
		write_sysreg(0, PMUSERENR_EL0);
	s->where = VPERF_VPMU_PARKED;
	return true;
}

/*
 * With host_writes_pmcr (vperf/vperf.h): stop a parked trapped vCPU's counters by its own enables.
 * PMCR_EL0.E enables every counter of the first range, [0, MDCR_EL2.HPMN) (Arm DDI 0487 K.a,
 * I5.3.21 PMCR_EL0.E, "the affected counters"; MDCR_EL2.HPMN, D13's counter ranges), and the
 * host's EL1 driver sets it whenever it enables its own events: a counter still set in
 * PMCNTENSET_EL0 would count the host's work into the parked guest's value. A counter whose
 * PMCNTENSET_EL0 bit is 0 counts nothing whatever PMCR_EL0.E says (I5.3.18, I5.3.19
 * PMCNTENCLR_EL0), and one whose PMINTENSET_EL1 bit is 0 raises no interrupt request for a flag
 * it left (I5.3.36 PMINTENCLR_EL1): the host's PMUIRQ never sees a guest's flag. Only the
 * guest's own bits (its shadow: counter n is physical counter n; never the host's counters at
 * or above HPMN) are cleared, and the shadow keeps them for the resume.
 *
 * The ISB: a direct write to PMCNTENCLR_EL0 is guaranteed to reach the counting logic only after
 * a context synchronization event (Arm DDI 0487 K.a, "Synchronization requirements for AArch64
 * System registers"). Until then a counter may still count and overflow; an overflow after the
 * PMOVSSET_EL0 read below would be a flag in the hardware only, which the host's driver may
 * clear (Linux's clears every flag it reads) before the guest ever sees it. After the ISB no
 * counter of the guest's moves, so the read sees every flag the guest will ever raise before
 * its resume: the shadow has them all. (With NSH = 0 in every type vperf writes, nothing counts
 * at EL2 anyway; the ISB makes the argument independent of that and costs no register access.)
 */
static inline void vpmu_park_stop_enables(const struct vperf_vpmu *s, uint64_t mask)
{
	uint64_t cnten = s->cnten & mask, inten = s->inten & mask;

	if (cnten)
		write_sysreg(cnten, PMCNTENCLR_EL0);
	if (inten)
		write_sysreg(inten, PMINTENCLR_EL1);
	if (cnten | inten)
		isb();
}

/* For a VM whose policy parks (VPERF_VM_LAZY_TRAPPED, or asked by vperf_vpmu_park_trapped). */
static inline bool vpmu_park_trapped_hw(struct vperf_vcpu *vcpu, bool *push)
{
	struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t ovs = s->ovs, mask;

	if (!vpmu_in_hw(vcpu))
		return false;
	mask = vpmu_mask(vcpu);
	if (vcpu->pcpu->cfg.host_writes_pmcr)
		vpmu_park_stop_enables(s, mask);
	else if (s->pmcr & PMCR_E)
		write_sysreg(vpmu_hw_pmcr(s->pmcr & ~PMCR_E), PMCR_EL0);
	s->ovs |= read_sysreg(PMOVSSET_EL0) & mask;
	if (s->userenr)
		write_sysreg(0, PMUSERENR_EL0);
	s->where = VPERF_VPMU_PARKED;
	s->active = !vpmu_idle_in(s, mask);
	*push = s->ovs != ovs || s->irq_dirty;
	return true;
}

static inline bool vperf_vpmu_park_trapped(struct vperf_vcpu *vcpu, bool *push)
{
	if (vcpu->vm->cfg.partition != VPERF_PART_TRAPPED || vpmu_all_vm(vcpu))
		return false;
	return vpmu_park_trapped_hw(vcpu, push);
}

/* The lazy put of a VM whose policy parks (VPERF_VM_LAZY_TRAPPED: ../vcpu.c checked it). */
static inline bool vperf_vpmu_park_lazy(struct vperf_vcpu *vcpu, bool *push)
{
	return vpmu_park_trapped_hw(vcpu, push);
}

/* Either: the second range's (vpmu_park_second) or the trapped partition's lazy put. */
static inline bool vperf_vpmu_park(struct vperf_vcpu *vcpu, bool *push)
{
	if (vpmu_in_hw(vcpu) && vpmu_second_vm(vcpu))
		return vpmu_park_second(vcpu, push);
	return vperf_vpmu_park_trapped(vcpu, push);
}

/* This vCPU's state is parked in pcpu's hardware (a lazy put, nobody has taken it since). */
static inline bool vpmu_parked_here(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	return vcpu->pmu.where == VPERF_VPMU_PARKED && vcpu->pmu.hw_pcpu == pcpu;
}

/*
 * The second range's round trip (docs/vpmu.md, "The second range"), ahead of the general lazy
 * put and load (../vcpu.c): a lazy put that needs nothing but the host's MDCR_EL2 (no SPE, no EL0
 * grant to take back, no line to push, no IRQ pending: ISR_EL1, no fine-grained traps of the
 * host's to restore) parks the state as vpmu_park_second would and leaves pcpu->resume = vcpu.
 * The token says "nothing since": every load takes it (vcpu.c), and so do vperf_pcpu_flush and
 * vperf_pcpu_forget. So at the load back that finds it nothing was loaded on the pCPU since
 * (none loaded now: a load over a loaded vCPU, the hypervisor's misuse, takes the full path,
 * which says so), no other vCPU acquired the counters (an acquire, an eviction or a flush of
 * the owner runs only with a vCPU loaded or from vperf_pcpu_flush: the vCPU still owns them, its
 * fine-grained traps and E2PB are still the host's), and no line change waits: the vCPU stayed
 * parked (no flush), so no reset or restore (refused while parked: VPERF_EBUSY) raised one, and
 * vperf_handle_pmu_irq takes the token when it moves a parked owner's flag (irq.c). What the
 * token cannot say, the load back checks: its MDCR_EL2 is still the one cached for this pCPU
 * (no new configuration epoch, no vperf_vcpu_set_host_mdcr or vperf_vcpu_init, no load
 * elsewhere since, which would have computed it for that pCPU: so the state is still the one
 * parked here). Then it resumes writing only MDCR_EL2 (or, with hyp_writes_mdcr, not even that:
 * the hypervisor does): what vperf_vpmu_load's resume does for it (no PMUSERENR_EL0, no
 * PMCR_EL0).
 */
static inline bool vperf_vpmu_second_put_quick(struct vperf_vcpu *vcpu, struct vperf_pcpu *pcpu)
{
	/* The VM's policy (second range, no SPE) is vperf_vm.lazy's, which the caller tested;
	 * in the hardware, no EL0 grant, no line to push: one load (vperf/vpmu.h). */
	if (vcpu->pmu.lazy_word != VPERF_VPMU_LAZY_QUICK || pcpu->fgt_host_pmu ||
	    (read_sysreg(ISR_EL1) & ISR_EL1_I))
		return false;
	/* where, the other bytes still 0 */
	vcpu->pmu.lazy_word = VPERF_VPMU_LAZY_WORD(VPERF_VPMU_PARKED);
	pcpu->resume = vcpu;
	return true;
}

static inline bool vperf_vpmu_second_load_quick(struct vperf_vcpu *vcpu, struct vperf_pcpu *pcpu)
{
	if (vcpu->mdcr_pcpu != pcpu || vcpu->mdcr_epoch != vperf_mdcr_epoch)
		return false;
	vcpu->pmu.where = VPERF_VPMU_HW;
	return true;
}

/* With host_writes_pmcr (host_pmcr.c): the eager put's stop by the vCPU's enables, and the
 * resume's guest PMCR_EL0 (the host's is in the hardware), then the enables its put cleared. */
void vperf_vpmu_stop_enables(const struct vperf_vcpu *vcpu);
void vperf_vpmu_resume_enables(struct vperf_vcpu *vcpu);

/* The same for the trapped partition (guest counter n is physical counter n: its shadow's bits
 * are the hardware's), inline for the first range's lazy round trip (nVHE KVM). The guest's
 * PMCR_EL0 first: its counters are all disabled until the enables, so none counts under the
 * host's controls. A XENPMU_MODE_ALL vCPU's enables were never cleared: set again, unchanged. */
static inline __attribute__((always_inline)) void
vpmu_resume_trapped_enables(const struct vperf_vcpu *vcpu)
{
	const struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t mask = vpmu_mask(vcpu), cnten = s->cnten & mask, inten = s->inten & mask;

	write_sysreg(vpmu_hw_pmcr(s->pmcr), PMCR_EL0);
	if (cnten)
		write_sysreg(cnten, PMCNTENSET_EL0);
	if (inten)
		write_sysreg(inten, PMINTENSET_EL1);
}

/* vpmu_resume's part but PMUSERENR_EL0 (for a vCPU without an EL0 grant: vperf_vpmu_load). */
static inline __attribute__((always_inline)) void vpmu_resume_controls(struct vperf_vcpu *vcpu)
{
	enum vperf_partition part = vcpu->vm->cfg.partition;

	/* A direct guest's put left the idle selection in the hardware (save()). */
	if (part == VPERF_PART_DIRECT) {
		if (vcpu->pmu.selr != vpmu_idle_selr(vcpu->pcpu))
			write_sysreg(vcpu->pmu.selr, PMSELR_EL0);
	} else if (part == VPERF_PART_SECOND) {
		return; /* its E is MDCR_EL2.HPME, which the load wrote already */
	}
	if (vcpu->pcpu->cfg.host_writes_pmcr) {
		if (part == VPERF_PART_TRAPPED)
			vpmu_resume_trapped_enables(vcpu);
		else
			vperf_vpmu_resume_enables(vcpu);
		return;
	}
	if (vcpu->pmu.pmcr & PMCR_E)
		write_sysreg(vpmu_hw_pmcr(vcpu->pmu.pmcr), PMCR_EL0);
}

/* The hardware holds the vCPU's state already (it was the last owner here): what its put took
 * away. Inline, for switch.c's acquire. */
static inline __attribute__((always_inline)) void vpmu_resume(struct vperf_vcpu *vcpu)
{
	if (vcpu->pmu.userenr)
		write_sysreg(vcpu->pmu.userenr, PMUSERENR_EL0);
	vpmu_resume_controls(vcpu);
}

/* The rest of the vPMU's load, out of line (switch.c): acquire an active state, the virtual
 * line when it moved. */
void vperf_vpmu_load_state(struct vperf_vcpu *vcpu);

/*
 * The vPMU's part of a load. Inline in the vCPU's load (../vcpu.c), so that the common switch
 * back on the same pCPU makes no call: parked here by a lazy put, and nobody took the counters
 * since: resume (acquire's own answer for this case, without its other checks).
 */
static inline void vperf_vpmu_load(struct vperf_vcpu *vcpu)
{
	struct vperf_vpmu *s = &vcpu->pmu;

	/* One word says parked, no line to push and no EL0 grant to give back (a vCPU with one
	 * takes the general path, whose resume writes PMUSERENR_EL0). */
	if (s->active && s->lazy_word == VPERF_VPMU_LAZY_WORD(VPERF_VPMU_PARKED) &&
	    s->hw_pcpu == vcpu->pcpu && vcpu->pcpu->pmu_owner == vcpu) {
		/* First, so that vpmu_resume_controls' call (host_writes_pmcr outside the
		 * trapped partition) is a tail call: the common path keeps no frame. */
		s->where = VPERF_VPMU_HW;
		vpmu_resume_controls(vcpu);
		return;
	}
	vperf_vpmu_load_state(vcpu);
}

#endif /* VPERF_VIRT_VPMU_SWITCH_H */
