// SPDX-License-Identifier: MIT
/*
 * PMSWINC_EL0, the software increment, emulated for the trapped modes (Arm DDI 0487 K.a: I5.3.55
 * the register, D14.5 the counters' overflow, D14.8 chaining). The full path (regs.c) and the
 * trap fast path (fast.h) both end here.
 */
#include <arch/sysreg.h>

#include "vpmu.h"

/* Does guest counter n count an event the guest caused at el (enables and P/U filters)? */
static bool counts_at(const struct vperf_vcpu *vcpu, unsigned int n, unsigned int el)
{
	const struct vperf_vpmu *s = &vcpu->pmu;

	return (s->pmcr & PMCR_E) && (s->cnten & VPERF_BIT(n)) &&
	       !(s->evtyper[n] & (el == 0 ? PMEVTYPER_U : PMEVTYPER_P));
}

/* Guest counter n, for an increment: with by_index (the trapped partition, state in the
 * hardware) it is physical counter n, read and written by index; otherwise wherever it lives. */
static inline uint64_t swinc_get(const struct vperf_vcpu *vcpu, unsigned int n, bool by_index)
{
	return by_index ? vpmu_counter_bits(read_pmevcntr(n)) : vperf_vpmu_counter(vcpu, n);
}

static inline void swinc_set(struct vperf_vcpu *vcpu, unsigned int n, bool by_index, uint64_t val)
{
	if (by_index)
		write_pmevcntr(n, val);
	else
		vperf_vpmu_set_counter(vcpu, n, val);
}

/* The even counter's overflow was at 64 bits: PMCR_EL0.LP on 64-bit counters (PMUv3p5; MDCR_EL2.HLP
 * is the second range's, never a guest counter's). */
static bool overflows_at_64(const struct vperf_vcpu *vcpu)
{
	return (vcpu->pmu.pmcr & PMCR_LP) && vperf_vpmu_wide_counters();
}

static void increment(struct vperf_vcpu *vcpu, unsigned int n, bool by_index);

/* Guest counter n (even) overflowed at bit 31. Its odd neighbour counts it when it counts CHAIN
 * (Arm DDI 0487, D14 event 0x1E: not when the overflow is at 64 bits, LP = 1), is enabled with
 * PMCR_EL0.E, and the VM's filter allows CHAIN: a denied event counts nothing. */
void vperf_vpmu_chain_overflow(struct vperf_vcpu *vcpu, unsigned int n, bool by_index)
{
	if (!overflows_at_64(vcpu) && vpmu_chained(vcpu, n) &&
	    (vcpu->pmu.cnten & VPERF_BIT(n + 1)) && (vcpu->pmu.pmcr & PMCR_E) &&
	    vpmu_common_event_allowed(vcpu->vm, VPMU_EVENT_CHAIN))
		increment(vcpu, n + 1, by_index);
}

/* Add one to guest counter n with the architected overflow (D14.5, I5.3.21):
 * at bit 31, or bit 63 with PMCR_EL0.LP on 64-bit counters; a 64-bit counter with LP = 0
 * carries on past bit 31 and a 32-bit one wraps. The flag goes to the shadow like a taken
 * interrupt's, and an odd neighbour counting CHAIN counts the 32-bit overflow of its even
 * counter. */
static void increment(struct vperf_vcpu *vcpu, unsigned int n, bool by_index)
{
	uint64_t old = swinc_get(vcpu, n, by_index);
	bool wide_pe = vperf_vpmu_wide_counters();
	bool wide = overflows_at_64(vcpu);
	bool overflow = wide ? old == ~0ull : (old & 0xffffffffull) == 0xffffffffull;

	swinc_set(vcpu, n, by_index, wide_pe ? old + 1 : (old + 1) & 0xffffffffull);
	if (!overflow)
		return;
	vcpu->pmu.ovs |= VPERF_BIT(n);
	vperf_vpmu_chain_overflow(vcpu, n, by_index);
}

/* One increment by index, with every rule and the virtual line. */
static void swinc_hw(struct vperf_vcpu *vcpu, unsigned int n)
{
	uint64_t ovs = vcpu->pmu.ovs;

	increment(vcpu, n, true);
	if (vcpu->pmu.ovs != ovs)
		vperf_vpmu_update_irq(vcpu);
}

/*
 * PMSWINC is emulated in software (I5.3.55): written by EL2 on the guest's
 * behalf the hardware would attribute SW_INCR to EL2, where the guest's counters do not count
 * (HPMD, NSH = 0). Counters whose event is SW_INCR, that are enabled and whose filter admits the
 * guest's EL count one; the VM's event filter may deny SW_INCR altogether. Only the written bits
 * of enabled counters are visited (usually one), and the virtual line can only change when one
 * of them overflowed. In the trapped partition with the state in the hardware, the counters are
 * reached by index (the trap fast path's case).
 */
void vperf_vpmu_write_swinc(struct vperf_vcpu *vcpu, uint64_t val, unsigned int el)
{
	uint64_t bits = val & vcpu->pmu.cnten & vpmu_mask(vcpu) & ~VPMU_CYCLE_BIT;
	uint64_t ovs = vcpu->pmu.ovs;
	bool by_index;

	if (!bits || !(vcpu->pmu.pmcr & PMCR_E))
		return;
	if (!vpmu_common_event_allowed(vcpu->vm, VPMU_EVENT_SW_INCR))
		return;
	by_index = vpmu_in_hw(vcpu) && vcpu->vm->cfg.partition == VPERF_PART_TRAPPED;
	for (; bits; bits &= bits - 1) {
		/* ctz is inline on AArch64 (RBIT, CLZ), unlike popcount (SIMD). */
		unsigned int n = (unsigned int)__builtin_ctzll(bits);

		if ((vcpu->pmu.evtyper[n] & PMEVTYPER_EVT) == VPMU_EVENT_SW_INCR &&
		    counts_at(vcpu, n, el))
			increment(vcpu, n, by_index);
	}
	if (vcpu->pmu.ovs != ovs)
		vperf_vpmu_update_irq(vcpu);
}

/*
 * vperf_vpmu_write_swinc() for the trap fast path (fast.h): the trapped partition with the state
 * in the hardware, guest counter n being physical counter n. The written bits of enabled
 * counters, with PMCR_EL0.E and SW_INCR allowed by the VM's filter, whose type is SW_INCR and
 * whose P (EL1) or U (EL0) filter admits the writer, count one. An increment whose bits [31:0]
 * are all ones may overflow (at bit 31, or at bit 63 with PMCR_EL0.LP: both need them) and chain
 * into the odd neighbour: that one takes every rule above, the virtual line included. No other
 * increment overflows: it raises no flag, the line stays as it is. A value with RES0 bits set
 * is the full path's to count and log: false.
 */
bool vperf_vpmu_fast_swinc(struct vperf_vcpu *vcpu, uint64_t val, unsigned int el)
{
	struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t bits = val & s->cnten & (VPERF_BIT(vcpu->vm->cfg.nr_counters) - 1);
	uint64_t skip = PMEVTYPER_EVT | (el == 0 ? PMEVTYPER_U : PMEVTYPER_P);

	if (val & vperf_sysregs[VPERF_SR_PMSWINC_EL0].res0)
		return false;
	if (!bits || !(s->pmcr & PMCR_E) ||
	    !vpmu_common_event_allowed(vcpu->vm, VPMU_EVENT_SW_INCR))
		return true;
	for (; bits; bits &= bits - 1) {
		unsigned int n = (unsigned int)__builtin_ctzll(bits);
		uint64_t old;

		if ((s->evtyper[n] & skip) != VPMU_EVENT_SW_INCR)
			continue;
		old = vpmu_counter_bits(read_pmevcntr(n));
		if ((uint32_t)old != 0xffffffffu)
			write_pmevcntr(n, old + 1);
		else
			swinc_hw(vcpu, n);
	}
	return true;
}
