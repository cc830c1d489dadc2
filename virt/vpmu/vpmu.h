/* SPDX-License-Identifier: MIT */
/*
 * The vPMU's internals, shared by regs.c and fast.h (register emulation: the full and the fast
 * path), switch.c and switch.h (hardware ownership, load/put), counters.c (a counter wherever it
 * lives), irq.c (the physical PMUIRQ and the guest's virtual PMU interrupt line), map.c and map.h
 * (the emulated partition's placement), filter.c (the event filter), caps.c (what the pCPUs let a
 * guest hold) and blob.c (its words of a save/restore blob). Field names: vperf/pmu_regs.h.
 */
#ifndef VPERF_VIRT_VPMU_H
#define VPERF_VIRT_VPMU_H

#include <arch/sysreg.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "../access.h"
#include "../fgt.h"

/* PMUSERENR_EL0: EN, SW, CR and ER, for every partition (vpmu_userenr_keep). */
#define VPMU_USERENR_WRITABLE (PMUSERENR_EN | PMUSERENR_SW | PMUSERENR_CR | PMUSERENR_ER)
/* What a trapped guest may set in PMCCFILTR_EL0: P and U (PMEVTYPER<n>_EL0: also the event
 * number as wide as the PEs count it, vperf_vpmu_type_trapped). To the guest there is no EL2 or
 * EL3, so NSK, NSU, NSH, M, SH and the Realm bits are RES0 (Arm DDI 0487 K.a, I5.3.30); the
 * hardware's copy carries the EL3 and EL2 filters vperf chooses (filter.c). */
#define VPMU_CCFILTR_WRITABLE (PMEVTYPER_P | PMEVTYPER_U)
#define VPMU_CYCLE_BIT	      VPERF_BIT(VPERF_CYCLE_IDX)
#define VPMU_EVENT_SW_INCR    0x00u
#define VPMU_EVENT_CHAIN      0x1eu
#define VPMU_EVENT_CPU_CYCLES 0x11u

/* The guest's counters as bits of PMCNTEN/PMINTEN/PMOVS: [0, N) and the cycle counter. */
static inline uint64_t vpmu_mask_of(const struct vperf_vm_config *cfg)
{
	return (VPERF_BIT(cfg->nr_counters) - 1) | VPMU_CYCLE_BIT;
}

/* The same, computed once at vperf_vm_init (every switch and trap asks for it). */
static inline uint64_t vpmu_mask(const struct vperf_vcpu *vcpu)
{
	return vcpu->vm->pmu_mask;
}

/*
 * The PMSELR_EL0 the hardware holds whenever no direct-partition guest's state is in it. The
 * PMXEVCNTR_EL0 / PMXEVTYPER_EL0 access pseudocode (Arm DDI 0487 K.a, D24.5) checks SEL against
 * the self-hosted counters (PMCCR.EPMN's effective value, N without FEAT_PMUv3_EXTPMN) before
 * MDCR_EL2.TPM: a SEL at or above them (SEL = 31 for PMXEVCNTR_EL0) is UNDEFINED with FEAT_FGT,
 * CONSTRAINED UNPREDICTABLE without, at the guest's own EL1, so a trapped guest's PMXEV* would
 * never reach its emulation. 0 passes both checks; with no self-hosted counter at all (EPMN = 0:
 * every counter the external agent's, so every guest has N = 0) no SEL passes PMXEVCNTR_EL0's,
 * which the guest's N = 0 makes UNDEFINED anyway, and 31 passes PMXEVTYPER_EL0's (PMCCFILTR_EL0,
 * which a guest with no event counter still reaches through SEL = 31).
 */
static inline uint64_t vpmu_idle_selr(const struct vperf_pcpu *pcpu)
{
	return pcpu->epmn ? 0 : PMSELR_SEL;
}

/* PMCR_EL0 bits every guest reads and the hardware holds whatever the guest wrote (LC = 1 where
 * some pCPU is AArch64-only, caps.c): derived with the masks, ORed into every PMCR_EL0 value
 * vperf writes from a guest's shadow (vpmu_hw_pmcr). */
extern uint64_t vperf_vpmu_pmcr_fixed;
static inline uint64_t vpmu_hw_pmcr(uint64_t pmcr)
{
	return pmcr | vperf_vpmu_pmcr_fixed;
}
/* The vCPU's state is in this pCPU's hardware. */
static inline bool vpmu_in_hw(const struct vperf_vcpu *vcpu)
{
	return vcpu->pmu.where == VPERF_VPMU_HW;
}

/* The filter's answer (filter.c) for a common event (< 64, which needs nothing but the filter's
 * bit): inline for the paths that ask on every access (a type write, PMSWINC). */
static inline bool vpmu_common_event_allowed(const struct vperf_vm *vm, uint32_t event)
{
	return vm->cfg.filter.allow[0] & VPERF_BIT(event);
}
uint64_t vperf_vpmu_hw_evtyper(const struct vperf_vcpu *vcpu, uint64_t guest);
/* The same for guest counters [0, nr) into hw[] (a restore). */
void vperf_vpmu_hw_evtypers(const struct vperf_vcpu *vcpu, unsigned int nr,
			    const uint64_t *restrict guest, uint64_t *restrict hw);
uint64_t vperf_vpmu_hw_ccfiltr(const struct vperf_vcpu *vcpu, uint64_t guest);
#ifdef CONFIG_VPERF_VPMU
uint64_t vperf_vpmu_pmceid(const struct vperf_vm *vm, bool high, uint64_t hw);
#else
/* No vPMU built in (../policy.c's demands): no VM has one, none was shown an event. */
static inline uint64_t vperf_vpmu_pmceid(const struct vperf_vm *vm, bool high, uint64_t hw)
{
	(void)vm;
	(void)high;
	(void)hw;
	return 0;
}
#endif

/* XENPMU_MODE_ALL: the privileged VM profiles everyone (its counters count other VMs and EL2). */
static inline bool vpmu_all_vm(const struct vperf_vcpu *vcpu)
{
	return vcpu->vm->cfg.pmu_mode == VPERF_PMU_ALL;
}

static inline bool vpmu_direct_vm(const struct vperf_vcpu *vcpu)
{
	return vcpu->vm->cfg.partition == VPERF_PART_DIRECT;
}

/* A direct-partition guest that holds its types in the hardware itself, as it writes them: not
 * one whose types trap through FEAT_FGT (../fgt.c), which has them emulated as in the trapped
 * partition (the filter applied, the guest reading back what it wrote). */
static inline bool vpmu_types_direct(const struct vperf_vcpu *vcpu)
{
	return vpmu_direct_vm(vcpu) && !(vcpu->vm->fgt_types & VPERF_FGT_TYPES);
}

/* May this direct-partition vCPU run untrapped on its pCPU: FEAT_FGT there when its types or
 * its PMCEID<n>_EL0 reads must trap, FEAT_HPMN0 when it has no event counter (MDCR_EL2.HPMN = 0), no newer PMU register
 * untrapped and no MT counting the core's other threads through types it writes itself
 * (../pcpu.c, direct_hazards)? Else it stays trapped. */
static inline bool vpmu_direct_here(const struct vperf_vcpu *vcpu)
{
	const struct vperf_pcpu *pcpu = vcpu->pcpu;
	bool types_trap = vcpu->vm->fgt_types & VPERF_FGT_TYPES;
	bool needs_fgt = vcpu->vm->fgt_types & (VPERF_FGT_TYPES | VPERF_FGT_PMCEID);

	return (pcpu->caps.fgt || !needs_fgt) && (pcpu->caps.hpmn0 || vcpu->vm->cfg.nr_counters) &&
	       !pcpu->direct_newer_regs && (!pcpu->mt_counts || types_trap);
}

static inline bool vpmu_emulated_vm(const struct vperf_vcpu *vcpu)
{
	return vcpu->vm->cfg.partition == VPERF_PART_EMULATED;
}

/* The second-range placement (map.h, second.c): the host keeps the first range and the cycle
 * counter; the guest's PMCR_EL0.E and LP are MDCR_EL2.HPME and HLP (../mdcr.c). */
static inline bool vpmu_second_vm(const struct vperf_vcpu *vcpu)
{
	return vcpu->vm->cfg.partition == VPERF_PART_SECOND;
}

/* Guest counters n and n + 1 are a CHAIN pair: n even, n + 1 a counter of the guest's counting
 * CHAIN, which counts the overflows of bits [31:0] of counter n (Arm DDI 0487, D14 event 0x1E).
 * The emulated partition places such a pair on an even/odd physical pair (map.c). */
static inline bool vpmu_chained(const struct vperf_vcpu *vcpu, unsigned int n)
{
	return !(n & 1) && n + 1 < vcpu->vm->cfg.nr_counters &&
	       (vcpu->pmu.evtyper[n + 1] & PMEVTYPER_EVT) == VPMU_EVENT_CHAIN;
}
void vperf_vpmu_map_all(struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu);
bool vperf_vpmu_map_complete(const struct vperf_vcpu *vcpu);
bool vperf_vpmu_multiplexed(const struct vperf_vcpu *vcpu);
/* At the vCPU's put: move its rotation point when it is multiplexed (rule in map.c). */
void vperf_vpmu_end_slice(struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu);
void vperf_vpmu_place(struct vperf_vcpu *vcpu, unsigned int n, unsigned int p);
/* Emulated partition, state in the hardware: move the counters whose placement changed (the
 * enables or, pair_changed, a CHAIN pair did) to where vperf_vpmu_map_all puts them now. */
void vperf_vpmu_repack(struct vperf_vcpu *vcpu, bool pair_changed);
/* Emulated partition: the physical counters of even counters live without their CHAIN partner
 * (one slot: the pair is chained in software), and taking their overflows from hw_ovs (the
 * hardware's PMOVSSET_EL0) into the shadow, each one counted in the partner (map.c). */
uint64_t vperf_vpmu_soft_chain_hw(const struct vperf_vcpu *vcpu);
void vperf_vpmu_take_soft_chain(struct vperf_vcpu *vcpu, uint64_t hw_ovs);
/* The same from the hardware's flags now, when the state is there (a trapped access). */
void vperf_vpmu_sync_soft_chain(struct vperf_vcpu *vcpu);
/* Guest counter n (even) overflowed at bit 31: its CHAIN partner counts it where the rules say
 * (swinc.c; by_index as for vperf_vpmu_write_swinc's trapped case). */
void vperf_vpmu_chain_overflow(struct vperf_vcpu *vcpu, unsigned int n, bool by_index);

void vperf_vpmu_reset(struct vperf_vcpu *vcpu);
/* Direct partition: leave the untrapped state (overflow, put), or enter it (after a trap). */
void vperf_vpmu_leave_direct(struct vperf_vcpu *vcpu);
/* A trap of a direct-partition vCPU running untrapped (FEAT_FGT's, fgt.c): bring the registers
 * it wrote untrapped and that the emulation reads (PMSELR_EL0, PMUSERENR_EL0) to the shadow. */
void vperf_vpmu_sync_selection(struct vperf_vcpu *vcpu);
void vperf_vpmu_try_direct(struct vperf_vcpu *vcpu);
/* lazy: the hypervisor's promise that the vCPU's next load is on this pCPU
 * (vperf_vcpu_put_lazy, vperf_vpmu_park, switch.h). */
void vperf_vpmu_put(struct vperf_vcpu *vcpu, bool lazy);
/* An owner change on pcpu (its CPU): the state a lazy put parked there, to its shadow. */
void vperf_vpmu_flush(struct vperf_pcpu *pcpu);
/* pcpu (its CPU) loses its PMU context: every count still in its hardware to the owner's shadow,
 * and no hardware copy of anyone's left (vperf_pcpu_down). */
void vperf_vpmu_down(struct vperf_pcpu *pcpu);

/* Make the vCPU's state live in the hardware of the pCPU it is loaded on (first touch). */
void vperf_vpmu_acquire(struct vperf_vcpu *vcpu);
/* Counter n (VPERF_CYCLE_IDX: the cycle counter) wherever it lives. */
uint64_t vperf_vpmu_counter(const struct vperf_vcpu *vcpu, unsigned int n);
void vperf_vpmu_set_counter(struct vperf_vcpu *vcpu, unsigned int n, uint64_t val);
/* Overflow flags: the shadow's and, while in hardware, the hardware's. */
uint64_t vperf_vpmu_ovs(const struct vperf_vcpu *vcpu);
/* Recompute the virtual PMUIRQ level and push it on change (irq.c). Every file that changes a
 * flag, an enable or PMCR_EL0.E calls it, and it reads the flags where they are (counters.c,
 * map.h): the vPMU's files call each other through it in a circle, on purpose (irq.c). */
void vperf_vpmu_update_irq(struct vperf_vcpu *vcpu);

/* Idle: nothing counts, no interrupt is pending, and EL0 has no access of its own to give back
 * at load (PMUSERENR_EL0 is mirrored into the hardware only while the state is there: EL0 gating
 * happens before any trap, so an unloaded grant would send the guest's EL0 accesses to its own
 * EL1). Its next load costs nothing. */
static inline bool vpmu_idle_in(const struct vperf_vpmu *s, uint64_t mask)
{
	return (!(s->pmcr & PMCR_E) || !(s->cnten & mask)) && !s->ovs && !s->userenr;
}

static inline bool vpmu_idle(const struct vperf_vcpu *vcpu)
{
	return vpmu_idle_in(&vcpu->pmu, vpmu_mask(vcpu));
}

/* What the pCPUs let a guest hold (caps.c), derived again whenever the platform changes
 * (vperf_init, vperf_pcpu_init). */
void vperf_vpmu_derive_masks(void);
/* Every initialised pCPU has 64-bit event counters (PMUv3p5): derived with the masks, read
 * inline by the paths that ask on every access (PMSWINC). */
extern bool vperf_vpmu_wide;
static inline bool vperf_vpmu_wide_counters(void)
{
	return vperf_vpmu_wide;
}
/* An event counter's value as the guest's PMU version has it: bits [31:0] only unless every
 * pCPU has 64-bit counters. A PMUv3p5 pCPU's counter counts on past bit 31 with PMCR_EL0.LP
 * = 0 (it overflows there, I5.3.21 LP), which a guest told an older version (a platform with an
 * older pCPU, vperf_vcpu_id_dfr0) must not see: every read of a hardware event counter for a
 * guest goes through this. */
extern uint64_t vperf_vpmu_counter_mask;
static inline uint64_t vpmu_counter_bits(uint64_t hw)
{
	return hw & vperf_vpmu_counter_mask;
}
/* The type fields a direct-partition guest holds. */
uint64_t vperf_vpmu_type_direct(bool cycle);
/* The PMEVTYPER<n>_EL0 fields a trapped or emulated guest keeps: P, U and the event number as
 * wide as every pCPU's PMU counts it (derived with the masks; inline for the type write and the
 * restore, which ask for every type). */
extern uint64_t vperf_vpmu_trapped_type;
static inline uint64_t vperf_vpmu_type_trapped(void)
{
	return vperf_vpmu_trapped_type;
}

/* The bits of PMEVTYPER<n> (n = VPERF_CYCLE_IDX: PMCCFILTR) a guest keeps when it writes. */
uint64_t vperf_vpmu_evtyper_keep(const struct vperf_vcpu *vcpu, unsigned int n);

/* The bits of PMCR_EL0 and PMUSERENR_EL0 a guest keeps: what the register emulation stores, the
 * switch carries and a blob may hold (PMCR_EL0: what every pCPU implements, caps.c). */
uint64_t vperf_vpmu_pmcr_keep(const struct vperf_vcpu *vcpu);

/*
 * PMUSERENR_EL0: EN, SW, CR and ER (Arm DDI 0487, PMUSERENR_EL0), for every partition. UEN and
 * TID (FEAT_PMUv3p9) and IR (FEAT_PMUv3_ICNTR) are not offered: vperf shows neither feature
 * nor switches PMUACR_EL1, which UEN hands EL0 to, so a direct guest that sets them keeps them
 * only until vperf next sees the register (vpmu_sync_userenr), and a blob holding them is
 * refused rather than put into a PE that may not implement them.
 */
static inline uint64_t vpmu_userenr_keep(const struct vperf_vcpu *vcpu)
{
	(void)vcpu;
	return VPMU_USERENR_WRITABLE;
}

/*
 * PMUSERENR_EL0 as a direct-partition guest left it, written untrapped, cut to what it keeps.
 * The fields it may not hold (UEN [4], IR [5], TID [6] of FEAT_PMUv3p9 / FEAT_PMUv3_ICNTR, RES0
 * for the PMUv3p5 it is shown) are cleared in the hardware too, at once: the put clears the
 * register only when the guest's own fields are set (switch.c), and the next vCPU's EL0 would
 * run with them (IR = 1: EL0 reads of PMICNTR_EL0 past its own EL1's control).
 */
static inline uint64_t vpmu_sync_userenr(const struct vperf_vcpu *vcpu)
{
	uint64_t hw = read_sysreg(PMUSERENR_EL0), keep = hw & vpmu_userenr_keep(vcpu);

	if (hw != keep)
		write_sysreg(keep, PMUSERENR_EL0);
	return keep;
}

/* Every write of the vCPU's PMUSERENR_EL0 copy goes through here: el0_grant follows it, for the
 * second range's quick put (switch.h). */
static inline void vpmu_set_userenr(struct vperf_vpmu *s, uint64_t userenr)
{
	s->userenr = userenr;
	s->el0_grant = userenr != 0;
}

bool vperf_vpmu_access(struct vperf_vcpu *vcpu, struct vperf_access *acc);
/* A guest's PMSWINC_EL0 write at el (regs.c, and the fast path's when it does not answer). */
void vperf_vpmu_write_swinc(struct vperf_vcpu *vcpu, uint64_t val, unsigned int el);
/* The same in the trapped partition with the state in the hardware, for the trap fast path
 * (fast.h): false, nothing done, when val has RES0 bits set. */
bool vperf_vpmu_fast_swinc(struct vperf_vcpu *vcpu, uint64_t val, unsigned int el);

/* At pcpu_init (../pcpu.c): the PMU registers whose reset value is UNKNOWN and that the switch
 * relies on holding what every put leaves (switch.c). */
void vperf_vpmu_pcpu_init(struct vperf_pcpu *pcpu);
/* Whether PMCR_EL0.X sticks on this PE (an event export bus), from the host's pmcr (caps.c). */
bool vperf_vpmu_probe_export_bus(uint64_t pmcr);

/* The blob's vPMU words (blob.c): w is the whole blob (../blob_layout.h). */
void vperf_vpmu_blob_fill(const struct vperf_vcpu *vcpu, uint64_t *w);
bool vperf_vpmu_blob_ok(const struct vperf_vcpu *vcpu, const uint64_t *w);
void vperf_vpmu_blob_apply(struct vperf_vcpu *vcpu, const uint64_t *w);

#endif /* VPERF_VIRT_VPMU_H */
