// SPDX-License-Identifier: MIT
/*
 * The second-range placement (VPERF_PART_SECOND, docs/vpmu.md "The second range"), for a host
 * that runs at EL1 between vCPUs (nVHE): the host keeps the first range [0, HPMN) and the cycle
 * counter, which its own PMCR_EL0.E enables; a guest's counters are in the second range
 * [HPMN, EPMN), which MDCR_EL2.HPME enables (Arm DDI 0487 K.a, I5.3.21 PMCR_EL0.E: "the
 * counters affected by this field are the event counters in the first range" and PMCCNTR_EL0;
 * MDCR_EL2.HPME for the second range). vperf never writes the hardware's PMCR_EL0 for such a
 * guest: its E is HPME in the MDCR_EL2 the vCPU runs with and its LP is HLP (../mdcr.c), so the
 * MDCR_EL2 write of every put (the host's value, HPME = 0) stops its counters and the load's
 * starts them again, with no PMU register access. Where the counters are: map.h.
 *
 * Its cycle counter runs on an event counter counting CPU_CYCLES (0x11) with PMCCFILTR_EL0's
 * filter (PMCCNTR_EL0 is the host's). The placement needs PMUv3p5 (../policy.c): event
 * counters 64 bits wide, so that it holds a 64-bit value, and HLP. With PMCR_EL0.LP = 0 (HLP =
 * 0) that counter overflows at every 2^32 cycles where the guest's cycle counter (LC = 1, RES1:
 * the placement is refused where every pCPU has AArch32 at EL0) overflows only when [63:0]
 * wraps: its interrupt is always enabled in the hardware (vperf_vpmu_hw_inten), so that vperf
 * sees each overflow at once, and keeps only those after which [63:32] are 0 (second_ovs).
 */
#include <arch/sysreg.h>

#include "../mdcr.h"
#include "map.h"
#include "second.h"
#include "vpmu.h"

/* lazy_word is where, irq_dirty, el0_grant and a 0 byte, in that order (vperf/vpmu.h). */
_Static_assert(sizeof(bool) == 1 && sizeof(((struct vperf_vpmu *)0)->lazy_word) == 4,
	       "vperf_vpmu.lazy_word covers its three bytes and the pad");

/* The second range [HPMN, EPMN): every counter a previous owner there may have left set. */
static uint64_t second_range(const struct vperf_pcpu *pcpu)
{
	return (VPERF_BIT(pcpu->epmn) - 1) & ~(VPERF_BIT(pcpu->hpmn) - 1);
}

/* The cycle counter's event counter type: CPU_CYCLES with the guest's P and U, through the
 * same filter as its other types (a denied 0x11 counts nothing, never EL2: filter.c). */
static uint64_t cycle_type(const struct vperf_vcpu *vcpu)
{
	uint64_t guest = (vcpu->pmu.ccfiltr & VPMU_CCFILTR_WRITABLE) | VPMU_EVENT_CPU_CYCLES;

	return vperf_vpmu_hw_evtyper(vcpu, guest);
}

void vperf_vpmu_second_write_ccfiltr(const struct vperf_vcpu *vcpu)
{
	write_pmevtyper(vpmu_second_cycle(vcpu), cycle_type(vcpu));
}

/* The hardware's flags hw_ovs without the cycle counter's 32-bit overflows (above), which are
 * cleared in the hardware: a flag of its event counter is the guest's only when [63:0]
 * wrapped, after which [63:32] are 0 (taken at once by its interrupt; with LP = 1 the counter
 * overflows only there). */
uint64_t vperf_vpmu_second_ovs(const struct vperf_vcpu *vcpu, uint64_t hw_ovs)
{
	unsigned int c = vpmu_second_cycle(vcpu);

	if (!(hw_ovs & VPERF_BIT(c)) || !(read_pmevcntr(c) >> 32))
		return hw_ovs;
	write_sysreg(VPERF_BIT(c), PMOVSCLR_EL0);
	return hw_ovs & ~VPERF_BIT(c);
}

/* The guest's flags in the hardware now, in its bits. */
uint64_t vperf_vpmu_second_hw_flags(const struct vperf_vcpu *vcpu)
{
	return vpmu_second_guest_bits(vcpu, vperf_vpmu_second_ovs(vcpu, read_sysreg(PMOVSSET_EL0)));
}

/*
 * Restore into a second range that may hold another vCPU's leftovers: the range's enables,
 * interrupt enables and flags cleared first, then types and counters, then the enables. No
 * PMCR_EL0: the host's. HPME may already be 1 (the MDCR_EL2 of this load is written first),
 * but nothing counts EL2 in this range: every type vperf writes has NSH = 0 (filter.c).
 */
void vperf_vpmu_second_restore(struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	const struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t all = second_range(pcpu), hw[VPERF_PMU_MAX_COUNTERS];
	unsigned int nr = vcpu->vm->cfg.nr_counters, base = vpmu_second_base(vcpu);

	write_sysreg(all, PMCNTENCLR_EL0);
	write_sysreg(all, PMINTENCLR_EL1);
	write_sysreg(all, PMOVSCLR_EL0);
	vperf_vpmu_hw_evtypers(vcpu, nr, s->evtyper, hw);
	for (unsigned int n = 0; n < nr; n++) {
		write_pmevtyper(base + n, hw[n]);
		write_pmevcntr(base + n, s->evcntr[n]);
	}
	vperf_vpmu_second_write_ccfiltr(vcpu);
	write_pmevcntr(vpmu_second_cycle(vcpu), s->ccntr);
	if (s->cnten & vpmu_mask(vcpu))
		write_sysreg(vpmu_second_hw_bits(vcpu, s->cnten), PMCNTENSET_EL0);
	write_sysreg(vperf_vpmu_hw_inten(vcpu), PMINTENSET_EL1);
	write_sysreg(s->userenr, PMUSERENR_EL0);
}

/* The counters into the shadow (64 bits: PMUv3p5). */
void vperf_vpmu_second_save_counters(struct vperf_vcpu *vcpu)
{
	struct vperf_vpmu *s = &vcpu->pmu;
	unsigned int base = vpmu_second_base(vcpu);

	for (unsigned int n = 0; n < vcpu->vm->cfg.nr_counters; n++)
		s->evcntr[n] = read_pmevcntr(base + n);
	s->ccntr = read_pmevcntr(vpmu_second_cycle(vcpu));
}

/* An owner change on its pCPU (switch.c's flush): a state a lazy put parked there, to its shadow,
 * with the flags that put left in the hardware (it took only a pending interrupt's) and the
 * line they make, pushed at the owner's next load. */
void vperf_vpmu_second_flush(struct vperf_vcpu *owner)
{
	vperf_vpmu_second_save_counters(owner);
	owner->pmu.ovs |= vperf_vpmu_second_hw_flags(owner);
	owner->pmu.where = VPERF_VPMU_SHADOW;
	vperf_vpmu_update_irq(owner);
}

/* The HPME this vCPU's MDCR_EL2 was computed with is no longer what ../mdcr.c would give (its
 * PMCR_EL0.E, or whether it is active, changed): compute it again at the next load. */
void vperf_vpmu_second_put_mdcr(struct vperf_vcpu *vcpu)
{
	if ((vcpu->mdcr ^ vperf_mdcr_second(vcpu)) & MDCR_EL2_SECOND_FIELDS)
		vperf_mdcr_stale(vcpu);
}

/*
 * A lazy put's flags, when ISR_EL1.I says a physical IRQ is pending (Arm DDI 0487, ISR_EL1; at
 * EL2 with HCR_EL2.IMO, switch.h asks it): an overflow in the guest's last instructions before
 * an exit that was not its interrupt leaves PMUIRQ pending, and the host's MDCR_EL2 (HPME = 0)
 * about to be written would drop it, so the guest's line would wait for its next run (a guest
 * in WFI would not wake). The flags are taken into the shadow (cleared in the hardware), as
 * vperf_handle_pmu_irq would. A flag whose interrupt is disabled stays in the hardware, where
 * the state stays parked (the next owner's flush takes it). True when a flag was taken.
 */
bool vperf_vpmu_second_park_flags(struct vperf_vcpu *vcpu)
{
	uint64_t bits = vperf_vpmu_second_ovs(vcpu, read_sysreg(PMOVSSET_EL0)) &
			vpmu_second_hw_bits(vcpu, vpmu_mask(vcpu));
	if (!bits)
		return false;
	vcpu->pmu.ovs |= vpmu_second_guest_bits(vcpu, bits);
	write_sysreg(bits, PMOVSCLR_EL0);
	return true;
}
