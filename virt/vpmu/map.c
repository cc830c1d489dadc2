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
 * when one of the vCPU's own runs ends (its put) with more counters enabled than slots, to the
 * first enabled counter that did not count in that run. The placement at a load is a function of
 * rotate and the enables only, so a vCPU sees the same counts whether its state was resumed or
 * restored, that is whatever other vCPUs did to the PMU in between.
 */
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

static bool oversubscribed(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	unsigned int count = 0;

	if (!vpmu_emulated_vm(vcpu))
		return false;
	/* No __builtin_popcount: with -mgeneral-regs-only it becomes a libgcc call. */
	for (uint64_t w = wanted(vcpu); w; w &= w - 1)
		count++;
	return count > slots(vcpu, pcpu);
}

/* Place the enabled counters, from the rotation point on, on the VM's slots. Leaves rotate alone:
 * the same placement for a restore at any load, whoever used the PMU meanwhile. */
void vperf_vpmu_map_all(struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	unsigned int nr = vcpu->vm->cfg.nr_counters, slot = 0, n;
	uint64_t want = wanted(vcpu);

	if (!vpmu_emulated_vm(vcpu) || !nr)
		return;
	n = vcpu->pmu.rotate % nr;
	for (unsigned int i = 0; i < nr; i++)
		vcpu->pmu.map[i] = VPERF_VPMU_NOT_LIVE;
	for (unsigned int i = 0; i < nr && slot < slots(vcpu, pcpu); i++, n = (n + 1) % nr)
		if (want & VPERF_BIT(n))
			vcpu->pmu.map[n] = (uint8_t)slot++;
}

/* Every enabled counter has a physical counter: the hardware copy can be resumed as it is. */
bool vperf_vpmu_map_complete(const struct vperf_vcpu *vcpu)
{
	uint64_t want = wanted(vcpu);

	if (!vpmu_emulated_vm(vcpu))
		return true; /* guest counter n is physical counter n */
	for (unsigned int n = 0; n < vcpu->vm->cfg.nr_counters; n++)
		if ((want & VPERF_BIT(n)) && vperf_vpmu_phys(vcpu, n) < 0)
			return false;
	return true;
}

/* The end of one of the vCPU's own runs (its put): when it had more enabled counters than slots,
 * the next slice starts at the first enabled counter that did not count in this one. */
void vperf_vpmu_end_slice(struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	unsigned int nr = vcpu->vm->cfg.nr_counters, n;
	uint64_t want = wanted(vcpu);

	if (!oversubscribed(vcpu, pcpu))
		return;
	n = vcpu->pmu.rotate % nr;
	for (unsigned int i = 0; i < nr; i++, n = (n + 1) % nr)
		if ((want & VPERF_BIT(n)) && vcpu->pmu.map[n] == VPERF_VPMU_NOT_LIVE) {
			vcpu->pmu.rotate = (uint8_t)n;
			return;
		}
}

/* A counter the guest enables while it runs gets a free physical counter if one is left. */
int vperf_vpmu_map_one(struct vperf_vcpu *vcpu, unsigned int n)
{
	uint64_t used = 0;

	if (!vpmu_emulated_vm(vcpu) || vcpu->pmu.map[n] != VPERF_VPMU_NOT_LIVE)
		return vperf_vpmu_phys(vcpu, n);
	for (unsigned int i = 0; i < vcpu->vm->cfg.nr_counters; i++)
		if (vcpu->pmu.map[i] != VPERF_VPMU_NOT_LIVE)
			used |= VPERF_BIT(vcpu->pmu.map[i]);
	for (unsigned int p = 0; p < slots(vcpu, vcpu->pcpu); p++)
		if (!(used & VPERF_BIT(p))) {
			vcpu->pmu.map[n] = (uint8_t)p;
			return (int)p;
		}
	return -1;
}
