// SPDX-License-Identifier: MIT
/*
 * Emulation of the guest's PMUv3 registers in the trapped modes (MDCR_EL2.TPM = 1). The guest
 * sees N = its counter count; guest counter i is physical counter i; counters, and overflow
 * flags the hardware raised, live in the hardware while the vCPU owns it; every control lives
 * in the shadow and is mirrored to the hardware. Field rules: Arm DDI 0487 K.a, I5.3 (the System
 * register views have the same fields). The hottest accesses take a fast path first (fast.h).
 */
#include <arch/sysreg.h>

#include "../log.h"
#include "../mdcr.h"
#include "../ops.h"
#include "map.h"
#include "res0.h"
#include "second.h"
#include "vpmu.h"

/* EL0 access rights from the guest's PMUSERENR_EL0 (EN, SW, CR, ER), by the register's el0 rule
 * in the database (vperf_el0_allows). The hardware applies the same register first (the physical
 * PMUSERENR_EL0 mirrors the guest's while it runs), so an access refused here means the mirror
 * was wrong: it is still refused. */
static bool el0_allowed(const struct vperf_vcpu *vcpu, const struct vperf_access *acc)
{
	return vperf_el0_allows(acc->desc->el0, vcpu->pmu.userenr, acc->read);
}

static uint64_t read_pmcr(const struct vperf_vcpu *vcpu)
{
	const struct vperf_pcpu *pcpu = vcpu->pcpu;

	return vpmu_hw_pmcr(vcpu->pmu.pmcr & vperf_vpmu_pmcr_keep(vcpu)) |
	       (uint64_t)vcpu->vm->cfg.nr_counters << PMCR_N_SHIFT |
	       (pcpu ? pcpu->caps.pmcr_id : 0);
}

/* P and C reset the guest's own counters one by one: PMCR_EL0.P written at EL2 would reset
 * the host's counters too (I5.3.21: at EL2 it affects the first and second ranges). */
static void write_pmcr(struct vperf_vcpu *vcpu, uint64_t val)
{
	if (val & PMCR_P)
		for (unsigned int n = 0; n < vcpu->vm->cfg.nr_counters; n++)
			vperf_vpmu_set_counter(vcpu, n, 0);
	if (val & PMCR_C)
		vperf_vpmu_set_counter(vcpu, VPERF_CYCLE_IDX, 0);
	vcpu->pmu.pmcr = val & vperf_vpmu_pmcr_keep(vcpu);
	/* The second range: the hardware's PMCR_EL0 is the host's; E and LP go to MDCR_EL2
	 * (vperf_vpmu_access). */
	if (vpmu_in_hw(vcpu) && !vpmu_second_vm(vcpu))
		write_sysreg(vpmu_hw_pmcr(vcpu->pmu.pmcr), PMCR_EL0);
	vperf_vpmu_update_irq(vcpu);
}

/* A SET/CLR pair: the shadow is the truth; the hardware gets the same bits, SET and CLR being
 * exactly the registers that change only the written bits. */
static void write_pair(struct vperf_vcpu *vcpu, const struct vperf_access *acc, uint64_t *shadow)
{
	bool set = acc->desc->pair == VPERF_PAIR_SET;
	bool cnten = acc->desc->slot == VPERF_SLOT_PMCNTEN;
	uint64_t bits = acc->val & vpmu_mask(vcpu), hw;

	*shadow = set ? *shadow | bits : *shadow & ~bits;
	if (!vpmu_in_hw(vcpu) || !bits)
		goto out;
	/* Emulated partition: a counter enabled now takes a physical counter if the placement
	 * gives it one (else it waits for its multiplexing slice), one disabled gives its counter
	 * back at once; the counters whose placement changes move (map.c). */
	if (cnten && !set && vpmu_emulated_vm(vcpu))
		write_sysreg(vperf_vpmu_hw_bits(vcpu, bits), PMCNTENCLR_EL0);
	if (cnten)
		vperf_vpmu_repack(vcpu, false);
	hw = vperf_vpmu_hw_bits(vcpu, bits);
	/* The interrupt of an even counter chained in software stays enabled (map.c), and that of
	 * the second range's cycle counter (second.c). */
	if (!set && !cnten)
		hw &= vpmu_second_vm(vcpu) ? ~VPERF_BIT(vpmu_second_cycle(vcpu))
					   : ~vperf_vpmu_soft_chain_hw(vcpu);
	if (hw)
		write_sysreg_enc(acc->enc, hw);
out:
	vperf_vpmu_update_irq(vcpu);
}

/* Overflow flags: a guest SET goes to the shadow only (the virtual line follows it); a CLR
 * clears both, so a flag the hardware raised but whose interrupt was not yet taken goes too. */
static void write_ovs(struct vperf_vcpu *vcpu, const struct vperf_access *acc)
{
	uint64_t bits = acc->val & vpmu_mask(vcpu);

	if (acc->desc->pair == VPERF_PAIR_SET) {
		vcpu->pmu.ovs |= bits;
	} else {
		vcpu->pmu.ovs &= ~bits;
		bits = vpmu_in_hw(vcpu) ? vperf_vpmu_hw_bits(vcpu, bits) : 0;
		if (bits)
			write_sysreg(bits, PMOVSCLR_EL0);
	}
	vperf_vpmu_update_irq(vcpu);
}

/* What a guest keeps of a type it writes: a trapped guest sees no EL2 or EL3 (P, U and the
 * event); a direct-partition guest whose types do not trap has the hardware's fields. */
uint64_t vperf_vpmu_evtyper_keep(const struct vperf_vcpu *vcpu, unsigned int n)
{
	if (vpmu_types_direct(vcpu))
		return vperf_vpmu_type_direct(n == VPERF_CYCLE_IDX);
	return n == VPERF_CYCLE_IDX ? VPMU_CCFILTR_WRITABLE : vperf_vpmu_type_trapped();
}

static void write_evtyper(struct vperf_vcpu *vcpu, unsigned int n, uint64_t val)
{
	bool pair;
	int p;

	val &= vperf_vpmu_evtyper_keep(vcpu, n);
	if (n == VPERF_CYCLE_IDX) {
		vcpu->pmu.ccfiltr = val;
		if (vpmu_in_hw(vcpu) && vpmu_second_vm(vcpu))
			vperf_vpmu_second_write_ccfiltr(vcpu);
		else if (vpmu_in_hw(vcpu))
			write_sysreg(vperf_vpmu_hw_ccfiltr(vcpu, vcpu->pmu.ccfiltr), PMCCFILTR_EL0);
		return;
	}
	pair = (n & 1) && vpmu_chained(vcpu, n - 1);
	vcpu->pmu.evtyper[n] = val;
	/* A CHAIN pair made or undone: in the emulated partition it moves as one (map.c). */
	if ((n & 1) && vpmu_chained(vcpu, n - 1) != pair)
		vperf_vpmu_repack(vcpu, true);
	p = vpmu_in_hw(vcpu) ? vperf_vpmu_phys(vcpu, n) : -1;
	if (p >= 0)
		write_pmevtyper((unsigned int)p, vperf_vpmu_hw_evtyper(vcpu, vcpu->pmu.evtyper[n]));
}

static uint64_t read_evtyper(const struct vperf_vcpu *vcpu, unsigned int n)
{
	return n == VPERF_CYCLE_IDX ? vcpu->pmu.ccfiltr : vcpu->pmu.evtyper[n];
}

/* PMXEVTYPER/PMXEVCNTR: SEL = 31 is PMCCFILTR for the type and CONSTRAINED UNPREDICTABLE for
 * the counter (vperf: UNDEF); a SEL beyond the guest's counters is UNDEF (I5.3, PMSELR). */
static bool selected(const struct vperf_vcpu *vcpu, bool counter, unsigned int *n)
{
	*n = (unsigned int)(vcpu->pmu.selr & PMSELR_SEL);
	if (*n == VPERF_CYCLE_IDX)
		return !counter;
	return *n < vcpu->vm->cfg.nr_counters;
}

static bool access_counter(struct vperf_vcpu *vcpu, struct vperf_access *acc, unsigned int n)
{
	if (acc->read)
		acc->val = vperf_vpmu_counter(vcpu, n);
	else
		vperf_vpmu_set_counter(vcpu, n, acc->val);
	return true;
}

static bool access_evtyper(struct vperf_vcpu *vcpu, struct vperf_access *acc, unsigned int n)
{
	if (acc->read)
		acc->val = read_evtyper(vcpu, n);
	else
		write_evtyper(vcpu, n, acc->val);
	return true;
}

static bool access_indexed(struct vperf_vcpu *vcpu, struct vperf_access *acc)
{
	unsigned int n = vperf_pmev_index(acc->enc);

	if (acc->desc->slot == VPERF_SLOT_PMXEVCNTR || acc->desc->slot == VPERF_SLOT_PMXEVTYPER) {
		if (!selected(vcpu, acc->desc->slot == VPERF_SLOT_PMXEVCNTR, &n))
			return false;
	} else if (n >= vcpu->vm->cfg.nr_counters) {
		return false; /* counters at or above the guest's N are UNDEFINED */
	}
	if (acc->desc->slot == VPERF_SLOT_PMEVCNTR || acc->desc->slot == VPERF_SLOT_PMXEVCNTR)
		return access_counter(vcpu, acc, n);
	return access_evtyper(vcpu, acc, n);
}

static bool access_pair(struct vperf_vcpu *vcpu, struct vperf_access *acc)
{
	uint64_t *shadow = acc->desc->slot == VPERF_SLOT_PMCNTEN   ? &vcpu->pmu.cnten
			   : acc->desc->slot == VPERF_SLOT_PMINTEN ? &vcpu->pmu.inten
								   : NULL;

	if (acc->read)
		acc->val = shadow ? *shadow : vperf_vpmu_ovs(vcpu);
	else if (shadow)
		write_pair(vcpu, acc, shadow);
	else
		write_ovs(vcpu, acc);
	return true;
}

/* The direct partition's untrapped PMXEV* use the hardware's selection: keep it the guest's. */
static void write_selr(struct vperf_vcpu *vcpu, uint64_t val)
{
	vcpu->pmu.selr = val & PMSELR_SEL;
	if (vpmu_direct_vm(vcpu) && vpmu_in_hw(vcpu))
		write_sysreg(vcpu->pmu.selr, PMSELR_EL0);
}

/* The RES0 bits a write sets (res0.h), 0 for none: counted and logged. */
static uint64_t bad_bits(struct vperf_vcpu *vcpu, const struct vperf_access *acc)
{
	uint64_t bad = acc->read ? 0 : acc->val & vpmu_res0_of(acc->desc);

	if (bad) {
		STAT_INC(&vcpu->vm->stats, bad_value);
		vperf_log_bad_bits(vcpu->vm, acc->desc, acc->val, bad);
	}
	return bad;
}

/* One switch on the database slot, so every register is one indirect jump from the trap. */
static bool emulate(struct vperf_vcpu *vcpu, struct vperf_access *acc)
{
	switch (acc->desc->slot) {
	case VPERF_SLOT_PMCCNTR:
		return access_counter(vcpu, acc, VPERF_CYCLE_IDX);
	case VPERF_SLOT_PMEVCNTR:
	case VPERF_SLOT_PMEVTYPER:
	case VPERF_SLOT_PMXEVCNTR:
	case VPERF_SLOT_PMXEVTYPER:
		return access_indexed(vcpu, acc);
	case VPERF_SLOT_PMCNTEN:
	case VPERF_SLOT_PMINTEN:
	case VPERF_SLOT_PMOVS:
		return access_pair(vcpu, acc);
	case VPERF_SLOT_PMCR:
		if (acc->read)
			acc->val = read_pmcr(vcpu);
		else
			write_pmcr(vcpu, acc->val);
		return true;
	case VPERF_SLOT_PMSWINC:
		vperf_vpmu_write_swinc(vcpu, acc->val, vperf_ops->guest_el(vcpu->hv_vcpu));
		return true;
	case VPERF_SLOT_PMSELR:
		if (acc->read)
			acc->val = vcpu->pmu.selr;
		else
			write_selr(vcpu, acc->val);
		return true;
	case VPERF_SLOT_PMUSERENR:
		if (acc->read)
			acc->val = vcpu->pmu.userenr;
		else
			vpmu_set_userenr(&vcpu->pmu, acc->val & vpmu_userenr_keep(vcpu));
		if (!acc->read && vpmu_in_hw(vcpu))
			write_sysreg(vcpu->pmu.userenr, PMUSERENR_EL0);
		return true;
	case VPERF_SLOT_PMCEID:
		/* The events every pCPU counts, not this one's: the guest may run on any. */
		acc->val = vperf_vpmu_pmceid(
			vcpu->vm, acc->enc == VPERF_ENC_PMCEID1_EL0,
			vperf_platform()->pmceid[acc->enc == VPERF_ENC_PMCEID1_EL0]);
		return true;
	case VPERF_SLOT_PMCCFILTR:
		return access_evtyper(vcpu, acc, VPERF_CYCLE_IDX);
	case VPERF_SLOT_PMMIR:
		/* It exists from PMUv3p4, which the guest sees when every pCPU has it (the
		 * database's feature column, checked by the trap entry, ../trap.c): the PE's own
		 * value, a description of its pipeline. */
		acc->val = read_sysreg(PMMIR_EL1);
		return true;
	default:
		return false; /* PMZR_EL0: PMUv3p9, never shown (the trap entry refuses it first) */
	}
}

bool vperf_vpmu_access(struct vperf_vcpu *vcpu, struct vperf_access *acc)
{
	bool ok;

	if (!vpmu_on(vcpu) || !vcpu->pcpu)
		return false;
	/* Untrapped, only FEAT_FGT's type traps come (fgt.c): PMSELR, PMUSERENR are the hardware's */
	if (vcpu->pmu.direct)
		vperf_vpmu_sync_selection(vcpu);
	if (vperf_ops->guest_el(vcpu->hv_vcpu) == 0 && !el0_allowed(vcpu, acc))
		return false;
	/* RES0 bits written as 1 are ignored (the architecture's outcome), and counted. */
	acc->val &= ~bad_bits(vcpu, acc);
	/* Steady state: the state is in this pCPU's hardware already (the first access after a
	 * load brings it there). */
	vcpu->pmu.active = true;
	if (!vpmu_in_hw(vcpu))
		vperf_vpmu_acquire(vcpu);
	if (vpmu_emulated_vm(vcpu))
		vperf_vpmu_sync_soft_chain(vcpu);
	ok = emulate(vcpu, acc);
	/* A direct-partition guest traps only until its state is back in the hardware and no
	 * overflow waits for it to see. */
	if (vpmu_direct_vm(vcpu))
		vperf_vpmu_try_direct(vcpu);
	/* The second range runs under MDCR_EL2.HPME and HLP, from its PMCR_EL0 and its being
	 * active (../mdcr.c): written when this access changed them. */
	if (vpmu_second_vm(vcpu) &&
	    ((vcpu->mdcr ^ vperf_mdcr_second(vcpu)) & MDCR_EL2_SECOND_FIELDS))
		vperf_update_mdcr(vcpu);
	return ok;
}
