// SPDX-License-Identifier: MIT
/*
 * Which physical counter holds which guest counter. In the trapped and direct partitions guest
 * counter n is physical counter n. In the emulated partition (docs/vpmu.md, the three partitions)
 * the guest's counters are shadows, and those it has enabled are placed on the physical counters
 * the VM is given (emu_slots of the first range [0, HPMN)) while it runs; when it enables more than
 * that, they are multiplexed round robin, like perf's own rotation, and undercount by design. The
 * guest never learns which physical counter it uses. The cycle counter is always PMCCNTR_EL0.
 *
 * The rotation rule: where a slice starts (pmu.rotate) belongs to the vCPU alone. It moves only
 * when one of the vCPU's own runs ends (its put) with an enabled counter left without a physical
 * counter (more enabled than slots), to the first enabled counter (unit, below) that did not count
 * in that run. The placement is a function of rotate,
 * the enables and the CHAIN pairs only (never of the order the guest enabled its counters in),
 * so a vCPU sees the same counts whether its state was resumed or restored, that is whatever
 * other vCPUs did to the PMU in between.
 *
 * CHAIN (Arm DDI 0487, D14 event 0x1E): an odd counter counting CHAIN counts the overflows of
 * bits [31:0] of the even counter below it, physically. So the placement moves units, not
 * counters: a guest counter alone, or a CHAIN pair (guest counters 2k and 2k + 1, the odd one
 * counting CHAIN), which lands on a physical pair (2j, 2j + 1) when the VM has two slots or more
 * (pairs first, from slot 0, then the single counters); a pair is never split, and no CHAIN
 * counter sits above another unit's even counter. With one slot only the even counter is
 * placed, and vperf chains in software: its physical overflow interrupt is enabled whatever the
 * guest's, and each overflow it takes (at the PMUIRQ, at any trap of the guest, at the put)
 * counts one in the odd counter's shadow by the same rule as an emulated PMSWINC (swinc.c).
 */
#include "map.h"
#include "vpmu.h"

static uint64_t emu_hw_bits(const struct vperf_vcpu *vcpu, uint64_t guest)
{
	uint64_t hw;

	guest &= vpmu_mask(vcpu);
	hw = guest & VPMU_CYCLE_BIT;
	for (unsigned int n = 0; n < vcpu->vm->cfg.nr_counters; n++) {
		int p = vperf_vpmu_phys(vcpu, n);

		if ((guest & VPERF_BIT(n)) && p >= 0)
			hw |= VPERF_BIT(p);
	}
	return hw;
}

static uint64_t emu_guest_bits(const struct vperf_vcpu *vcpu, uint64_t hw)
{
	uint64_t guest = hw & VPMU_CYCLE_BIT;

	for (unsigned int n = 0; n < vcpu->vm->cfg.nr_counters; n++) {
		int p = vperf_vpmu_phys(vcpu, n);

		if (p >= 0 && (hw & VPERF_BIT(p)))
			guest |= VPERF_BIT(n);
	}
	return guest;
}

/* The emulated partition's side of vperf_vpmu_hw_bits/guest_bits (vpmu.h, inline: outside
 * it the bits are the identity on the guest's counters). */
uint64_t vperf_vpmu_emu_hw_bits(const struct vperf_vcpu *vcpu, uint64_t guest)
{
	return emu_hw_bits(vcpu, guest);
}

uint64_t vperf_vpmu_emu_guest_bits(const struct vperf_vcpu *vcpu, uint64_t hw)
{
	return emu_guest_bits(vcpu, hw);
}

static unsigned int slots(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	uint8_t want = vcpu->vm->cfg.emu_slots;

	return want && want < pcpu->hpmn ? want : pcpu->hpmn;
}

/* The guest counters that want a physical counter: those it has enabled. */
static uint64_t wanted(const struct vperf_vcpu *vcpu)
{
	return vcpu->pmu.cnten & vpmu_mask(vcpu) & ~VPMU_CYCLE_BIT;
}

/* The unit guest counter n belongs to starts at the even counter of its CHAIN pair, if any. */
static unsigned int unit_start(const struct vperf_vcpu *vcpu, unsigned int n)
{
	return (n & 1) && vpmu_chained(vcpu, n - 1) ? n - 1 : n;
}

/* The guest counters of the unit starting at u. */
static uint64_t unit_bits(const struct vperf_vcpu *vcpu, unsigned int u)
{
	return vpmu_chained(vcpu, u) ? VPERF_BIT(u) | VPERF_BIT(u + 1) : VPERF_BIT(u);
}

/* The physical counters a unit takes: a pair takes two where there are two slots; with one it
 * takes one, its odd counter chained in software. */
static unsigned int unit_size(const struct vperf_vcpu *vcpu, unsigned int u, unsigned int nslots)
{
	return vpmu_chained(vcpu, u) && nslots >= 2 ? 2 : 1;
}

/*
 * Place the wanted units, from the rotation point on, on the VM's slots: walking round robin
 * from rotate, each unit that still fits is chosen (a pair that does not fit waits, a later
 * counter alone may still take the last slot); then the chosen pairs take (0, 1), (2, 3), ... in
 * that order and the chosen counters alone the slots after them. Leaves rotate alone: the same
 * placement for a restore at any load, whoever used the PMU meanwhile.
 */
void vperf_vpmu_map_all(struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	unsigned int nr = vcpu->vm->cfg.nr_counters, nslots, used = 0, pairs = 0, slot, n;
	uint64_t want = wanted(vcpu), seen = 0, chosen = 0;

	if (!vpmu_emulated_vm(vcpu) || !nr)
		return;
	nslots = slots(vcpu, pcpu);
	for (unsigned int i = 0; i < nr; i++)
		vcpu->pmu.map[i] = VPERF_VPMU_NOT_LIVE;
	n = vcpu->pmu.rotate % nr;
	for (unsigned int i = 0; i < nr; i++, n = (n + 1) % nr) {
		unsigned int u = unit_start(vcpu, n), size = unit_size(vcpu, u, nslots);

		if ((seen & VPERF_BIT(u)) || !(want & unit_bits(vcpu, u)))
			continue;
		seen |= VPERF_BIT(u);
		if (used + size > nslots)
			continue;
		used += size;
		chosen |= VPERF_BIT(u);
		pairs += size == 2;
	}
	slot = 2 * pairs;
	pairs = 0;
	n = vcpu->pmu.rotate % nr;
	for (unsigned int i = 0; i < nr; i++, n = (n + 1) % nr) {
		if (!(chosen & VPERF_BIT(n)))
			continue;
		if (unit_size(vcpu, n, nslots) == 2) {
			vcpu->pmu.map[n] = (uint8_t)(2 * pairs);
			vcpu->pmu.map[n + 1] = (uint8_t)(2 * pairs + 1);
			pairs++;
		} else {
			vcpu->pmu.map[n] = (uint8_t)slot++;
		}
	}
}

/* The first wanted unit, round robin from the rotation point, that has no physical counter in
 * the current placement; -1 when every one has. */
static int first_waiting(const struct vperf_vcpu *vcpu)
{
	unsigned int nr = vcpu->vm->cfg.nr_counters, n;
	uint64_t want = wanted(vcpu);

	if (!nr)
		return -1;
	n = vcpu->pmu.rotate % nr;
	for (unsigned int i = 0; i < nr; i++, n = (n + 1) % nr) {
		unsigned int u = unit_start(vcpu, n);

		if ((want & unit_bits(vcpu, u)) && vcpu->pmu.map[u] == VPERF_VPMU_NOT_LIVE)
			return (int)u;
	}
	return -1;
}

/* Every enabled counter has a physical counter, or is chained in software to one that has: the
 * hardware copy can be resumed as it is. */
bool vperf_vpmu_map_complete(const struct vperf_vcpu *vcpu)
{
	return !vpmu_emulated_vm(vcpu) || first_waiting(vcpu) < 0;
}

/* A put now would end a slice and move the rotation point on (../vcpu.c, vperf_vcpu_multiplexed):
 * the state is in the hardware, the placement valid (a vCPU loaded idle is not: its put saves
 * nothing and moves nothing), and an enabled unit waits for a slot. */
bool vperf_vpmu_multiplexed(const struct vperf_vcpu *vcpu)
{
	return vpmu_in_hw(vcpu) && !vperf_vpmu_map_complete(vcpu);
}

/* The end of one of the vCPU's own runs (its put): when it had more enabled counters than slots,
 * the next slice starts at the first enabled unit that did not count in this one. */
void vperf_vpmu_end_slice(struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	int u;

	(void)pcpu;
	if (!vpmu_emulated_vm(vcpu))
		return;
	u = first_waiting(vcpu);
	if (u >= 0)
		vcpu->pmu.rotate = (uint8_t)u;
}

/* From the placement alone (valid while the state is in the hardware, and for the restore that
 * makes the placement). */
uint64_t vperf_vpmu_soft_chain_hw(const struct vperf_vcpu *vcpu)
{
	uint64_t hw = 0;

	if (!vpmu_emulated_vm(vcpu))
		return 0;
	for (unsigned int n = 0; n + 1 < vcpu->vm->cfg.nr_counters; n += 2)
		if (vcpu->pmu.map[n] != VPERF_VPMU_NOT_LIVE &&
		    vcpu->pmu.map[n + 1] == VPERF_VPMU_NOT_LIVE && vpmu_chained(vcpu, n))
			hw |= VPERF_BIT(vcpu->pmu.map[n]);
	return hw;
}

/* Each flag the hardware raised for an even counter chained in software is one overflow: into
 * the shadow with the flag cleared in the hardware (so that the next overflow raises it again),
 * and counted in the odd counter. */
void vperf_vpmu_take_soft_chain(struct vperf_vcpu *vcpu, uint64_t hw_ovs)
{
	uint64_t hw = vperf_vpmu_soft_chain_hw(vcpu) & hw_ovs, ovs = vcpu->pmu.ovs;

	if (!hw)
		return;
	write_sysreg(hw, PMOVSCLR_EL0);
	for (unsigned int n = 0; n + 1 < vcpu->vm->cfg.nr_counters; n += 2) {
		uint8_t p = vcpu->pmu.map[n];

		if (p == VPERF_VPMU_NOT_LIVE || !(hw & VPERF_BIT(p)))
			continue;
		vcpu->pmu.ovs |= VPERF_BIT(n);
		/* The one CHAIN rule (swinc.c), not a second copy of it here: a call circle
		 * map.c -> swinc.c -> counters.c -> map.c (counters.c asks where a counter
		 * lives), all inside the vPMU, on purpose. */
		vperf_vpmu_chain_overflow(vcpu, n, false);
	}
	if (vcpu->pmu.ovs != ovs)
		vperf_vpmu_update_irq(vcpu);
}

/* Before the guest observes anything (a trapped access): the overflows its counters chained in
 * software made since the last look, counted (D14 event 0x1E: software that reads the even
 * counter, then the odd one after a context synchronization event, never sees the even one
 * overflowed and the odd one not incremented). */
void vperf_vpmu_sync_soft_chain(struct vperf_vcpu *vcpu)
{
	if (vpmu_in_hw(vcpu) && vperf_vpmu_soft_chain_hw(vcpu))
		vperf_vpmu_take_soft_chain(vcpu, read_sysreg(PMOVSSET_EL0));
}

/*
 * The enables or a CHAIN pair changed while the state is in the hardware: the counters whose
 * physical counter changes (a counter enabled takes a slot if the placement gives it one, a
 * counter disabled gives its slot back at once to one still waiting) are taken out of their old
 * physical counters first (value and raised flag to the shadow, enable, interrupt enable and flag
 * cleared there), then placed on their new ones with their enables. The guest runs at EL1/EL0
 * only after this, and its counters never count EL2 (MDCR_EL2.HPMD, NSH = 0): nothing is lost.
 */
/* A CHAIN pair made or undone where nothing moved (one slot: the even counter stays) changes
 * which live counters chain in software: their physical interrupt enables follow. */
static void sync_inten(const struct vperf_vcpu *vcpu)
{
	uint64_t live = vperf_vpmu_hw_bits(vcpu, vpmu_mask(vcpu)) & ~VPMU_CYCLE_BIT;
	uint64_t on = vperf_vpmu_hw_inten(vcpu) & live;

	if (on)
		write_sysreg(on, PMINTENSET_EL1);
	if (live & ~on)
		write_sysreg(live & ~on, PMINTENCLR_EL1);
}

/* A pair just made whose even counter stays where it counted alone, now chained in software: a
 * flag the hardware still holds for it was raised before the pair existed (every trap takes the
 * chained overflows before the guest's access, vperf_vpmu_sync_soft_chain), and the odd counter
 * counts only the overflows made while it counts CHAIN (Arm DDI 0487, D14 event 0x1E). Into the
 * shadow, cleared in the hardware, counted nowhere. */
static void shadow_unchained_flags(struct vperf_vcpu *vcpu)
{
	uint64_t hw = vperf_vpmu_soft_chain_hw(vcpu), ovs = vcpu->pmu.ovs;

	if (!hw)
		return;
	hw &= read_sysreg(PMOVSSET_EL0);
	if (!hw)
		return;
	write_sysreg(hw, PMOVSCLR_EL0);
	vcpu->pmu.ovs |= vperf_vpmu_guest_bits(vcpu, hw);
	if (vcpu->pmu.ovs != ovs)
		vperf_vpmu_update_irq(vcpu);
}

void vperf_vpmu_repack(struct vperf_vcpu *vcpu, bool pair_changed)
{
	unsigned int nr = vcpu->vm->cfg.nr_counters;
	uint8_t old[VPERF_PMU_MAX_COUNTERS], now[VPERF_PMU_MAX_COUNTERS];
	uint64_t moved = 0, out = 0, in = 0, hw_ovs;

	if (!vpmu_emulated_vm(vcpu) || !vpmu_in_hw(vcpu))
		return;
	if (pair_changed)
		shadow_unchained_flags(vcpu);
	for (unsigned int n = 0; n < nr; n++)
		old[n] = vcpu->pmu.map[n];
	vperf_vpmu_map_all(vcpu, vcpu->pcpu);
	for (unsigned int n = 0; n < nr; n++) {
		now[n] = vcpu->pmu.map[n];
		vcpu->pmu.map[n] = old[n];
		if (old[n] != now[n])
			moved |= VPERF_BIT(n);
	}
	if (!moved) {
		if (pair_changed)
			sync_inten(vcpu);
		return; /* nothing moves: no other System register access */
	}
	/* Overflows chained in software are counted under the placement they happened in. */
	hw_ovs = read_sysreg(PMOVSSET_EL0);
	vperf_vpmu_take_soft_chain(vcpu, hw_ovs);
	for (unsigned int n = 0; n < nr; n++) {
		vcpu->pmu.map[n] = now[n];
		if (!(moved & VPERF_BIT(n)) || old[n] == VPERF_VPMU_NOT_LIVE)
			continue;
		out |= VPERF_BIT(old[n]);
		vcpu->pmu.evcntr[n] = vpmu_counter_bits(read_pmevcntr(old[n]));
		if (hw_ovs & VPERF_BIT(old[n]))
			vcpu->pmu.ovs |= VPERF_BIT(n);
	}
	if (out) {
		write_sysreg(out, PMCNTENCLR_EL0);
		write_sysreg(out, PMINTENCLR_EL1);
		write_sysreg(out, PMOVSCLR_EL0);
	}
	for (unsigned int n = 0; n < nr; n++)
		if ((moved & VPERF_BIT(n)) && vcpu->pmu.map[n] != VPERF_VPMU_NOT_LIVE) {
			vperf_vpmu_place(vcpu, n, vcpu->pmu.map[n]);
			in |= VPERF_BIT(vcpu->pmu.map[n]);
		}
	if (pair_changed)
		sync_inten(vcpu);
	else if (in & vperf_vpmu_hw_inten(vcpu))
		write_sysreg(in & vperf_vpmu_hw_inten(vcpu), PMINTENSET_EL1);
	if (in & vperf_vpmu_hw_bits(vcpu, vcpu->pmu.cnten))
		write_sysreg(in & vperf_vpmu_hw_bits(vcpu, vcpu->pmu.cnten), PMCNTENSET_EL0);
}

/* Program guest counter n's type and value into its physical counter p. */
void vperf_vpmu_place(struct vperf_vcpu *vcpu, unsigned int n, unsigned int p)
{
	write_pmevtyper(p, vperf_vpmu_hw_evtyper(vcpu, vcpu->pmu.evtyper[n]));
	write_pmevcntr(p, vcpu->pmu.evcntr[n]);
}
