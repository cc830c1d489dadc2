// SPDX-License-Identifier: MIT
/*
 * Physical PMUIRQ and the guests' virtual PMU interrupt.
 *
 * PMUIRQ is level-sensitive: it stays asserted while any counter has its overflow flag, its
 * interrupt enable and its range enable set (PMOVSSET_EL0, PMINTENSET_EL1, PMCR_EL0.E or
 * MDCR_EL2.HPME; Arm DDI 0487 K.a, I5.3.36-45). Every flag this entry claims is therefore cleared
 * in the hardware before it returns, so the line drops and there is no interrupt storm: the host's
 * flags after they are handed to ops->host_pmu_overflow, a guest's after they are moved into its
 * shadow PMOVSSET, where the guest reads and clears them. The guest's virtual line is a level
 * computed from that shadow and pushed to the vGIC only when it changes.
 */
#include <arch/sysreg.h>

#include "../log.h"
#include "../ops.h"
#include "map.h"
#include "second.h"
#include "vpmu.h"

/* The host's counters: its second range [HPMN, EPMN), and the cycle counter while no vCPU with
 * a vPMU owns the first range. A host that keeps the first range (host_first_range) runs at EL1
 * and takes its own overflows there (its PMUIRQ stays asserted until it does): none is vperf's
 * to clear. */
static uint64_t host_mask(const struct vperf_pcpu *pcpu)
{
	uint64_t mask = (VPERF_BIT(pcpu->epmn) - 1) & ~(VPERF_BIT(pcpu->hpmn) - 1);

	if (pcpu->cfg.host_first_range)
		return 0;
	return pcpu->pmu_owner ? mask : mask | VPMU_CYCLE_BIT;
}

/* The counters whose flags are vperf's or a guest's: all but the agent's, or the second range
 * where the host keeps the first and the cycle counter. */
static uint64_t vperf_range(const struct vperf_pcpu *pcpu)
{
	uint64_t below_epmn = VPERF_BIT(pcpu->epmn) - 1;

	if (pcpu->cfg.host_first_range)
		return below_epmn & ~(VPERF_BIT(pcpu->hpmn) - 1);
	return below_epmn | VPMU_CYCLE_BIT;
}

static uint64_t take_host(struct vperf_pcpu *pcpu, uint64_t ovs)
{
	uint64_t bits = ovs & host_mask(pcpu);

	if (!bits)
		return 0;
	/* Clear before the callback: a counter that overflows again meanwhile re-raises. */
	write_sysreg(bits, PMOVSCLR_EL0);
	STAT_INC(&pcpu->stats, host_overflows);
	if (vperf_ops->host_pmu_overflow)
		vperf_ops->host_pmu_overflow(bits);
	return bits;
}

static uint64_t take_guest(struct vperf_pcpu *pcpu, uint64_t ovs)
{
	struct vperf_vcpu *owner = pcpu->pmu_owner;
	uint64_t bits, claimed;

	if (!owner || owner->pmu.hw_pcpu != pcpu)
		return 0;
	/* The overflows of an emulated vCPU's counters chained in software (map.c). Taking them
	 * (map.c, swinc.c) and leaving the direct state (switch.c) push the virtual line back
	 * through vperf_vpmu_update_irq here: a call circle inside the vPMU, on purpose, as the
	 * line has that one rule, which every change of a flag or an enable calls at once. */
	if (vpmu_in_hw(owner))
		vperf_vpmu_take_soft_chain(owner, ovs);
	claimed = bits = vperf_vpmu_hw_bits(owner, vpmu_mask(owner)) & ovs;
	/* The second range's cycle counter overflows at 32 bits too: not the guest's (second.c). */
	if (vpmu_second_vm(owner))
		bits = vperf_vpmu_second_ovs(owner, bits);
	if (!bits)
		return claimed;
	/* A direct-partition guest traps again until it has seen and cleared its flags: it
	 * reads them from the shadow the flags move into. */
	vperf_vpmu_leave_direct(owner);
	owner->pmu.ovs |= vperf_vpmu_guest_bits(owner, bits);
	write_sysreg(bits, PMOVSCLR_EL0);
	vperf_vpmu_update_irq(owner);
	/* A parked owner (no vCPU loaded) whose line now waits for its load: that load pushes it,
	 * so it is not the quick load back, which writes only MDCR_EL2 (switch.h). */
	if (owner->pmu.irq_dirty)
		pcpu->resume = NULL;
	return claimed;
}

/*
 * The external agent's range [EPMN, N) (PMCCR.EPMN, I5.3.47): its flags are the agent's to read
 * and clear, not vperf's, yet with its interrupt enabled a flag keeps PMUIRQ asserted and the
 * hypervisor would take it forever. vperf clears the interrupt enables of those flags (the line
 * drops; the flag, counter, type and count enable stay for the agent), counts it, and logs it
 * the first time on this pCPU.
 */
static void mask_agent(struct vperf_pcpu *pcpu, uint64_t ovs)
{
	uint64_t bits =
		ovs & ~(VPERF_BIT(pcpu->epmn) - 1) & (VPERF_BIT(pcpu->caps.nr_counters) - 1);

	if (!bits)
		return;
	write_sysreg(bits, PMINTENCLR_EL1);
	STAT_INC(&pcpu->stats, agent_overflows);
	if (!pcpu->agent_irq_reported)
		vperf_log(VPERF_LOG_NOTICE, "vperf: PMUIRQ from the external agent's counters: "
					    "their interrupt enables cleared");
	pcpu->agent_irq_reported = true;
}

bool vperf_handle_pmu_irq(struct vperf_pcpu *pcpu)
{
	uint64_t ovs, taken, stray;

	/* Without a PMUv3 (ID_AA64DFR0_EL1.PMUVer = 0) its registers are UNDEFINED at EL2: a
	 * PMUIRQ routed here is the hypervisor's misconfiguration, counted and not read. */
	if (!pcpu->caps.pmuver) {
		STAT_INC(&pcpu->stats, spurious_irqs);
		return false;
	}
	ovs = read_sysreg(PMOVSSET_EL0);
	taken = take_host(pcpu, ovs) | take_guest(pcpu, ovs);
	stray = ovs & ~taken & vperf_range(pcpu);
	mask_agent(pcpu, ovs);

	/* A flag of nobody's counter (a first-range counter left enabled by no one): clear it
	 * rather than let the line stay up, and count it. */
	if (stray) {
		write_sysreg(stray, PMOVSCLR_EL0);
		STAT_INC(&pcpu->stats, stray_overflows);
	}
	return taken != 0;
}

/* The guest's PMUIRQ, a level like the physical one (above): PMCR_EL0.E and a flag whose
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
