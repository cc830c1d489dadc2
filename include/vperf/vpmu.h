/* SPDX-License-Identifier: MIT */
/*
 * The vPMU's public state: the per-VM event filter and the per-vCPU guest-visible PMUv3 state.
 * Public so that a hypervisor can allocate vCPUs statically; fields are vperf's.
 */
#ifndef VPERF_VPMU_H
#define VPERF_VPMU_H

#include <vperf/types.h>

#define VPERF_PMU_MAX_COUNTERS 31
#define VPERF_CYCLE_IDX	       31
#define VPERF_VPMU_NOT_LIVE    0xff

/*
 * Which events a VM may count. One bit per common event 0x0000-0x003F (allow[0]) and
 * 0x4000-0x403F (allow[1]), the ranges PMCEID0/1_EL0 describe; every other event number
 * (IMPLEMENTATION DEFINED and extended common events) follows allow_other. A denied event
 * counts nothing; the guest reads back the PMEVTYPER it wrote and sees the event absent from
 * PMCEID. The cycle counter counts CPU_CYCLES (0x11) and is filtered as that event: with 0x11
 * denied it counts nothing either, whatever PMCCFILTR_EL0 the guest writes (and reads back).
 * Zero-initialised means "deny everything"; vperf_pmu_filter_allow_all() allows all.
 */
struct vperf_pmu_filter {
	uint64_t allow[2];
	bool allow_other;
};

static inline void vperf_pmu_filter_allow_all(struct vperf_pmu_filter *f)
{
	f->allow[0] = f->allow[1] = ~0ull;
	f->allow_other = true;
}

static inline void vperf_pmu_filter_set(struct vperf_pmu_filter *f, uint32_t event, bool allow)
{
	uint64_t *word = event < 64			       ? &f->allow[0]
			 : (event >= 0x4000 && event < 0x4040) ? &f->allow[1]
							       : NULL;

	if (!word)
		f->allow_other = allow;
	else if (allow)
		*word |= VPERF_BIT(event & 63);
	else
		*word &= ~VPERF_BIT(event & 63);
}

/* Where a vCPU's PMU state is. */
enum vperf_vpmu_where {
	VPERF_VPMU_SHADOW, /* in struct vperf_vpmu only */
	VPERF_VPMU_HW,	   /* live in the physical PMU of the pCPU that owns it */
	VPERF_VPMU_PARKED, /* left by a lazy put in the physical PMU of pmu.hw_pcpu, counting
			    * stopped, its flags taken: the counters are there while that
			    * pCPU's pmu_owner is this vCPU (docs/vpmu.md, "Lazy put") */
};

struct vperf_pcpu;

struct vperf_vpmu {
	/* Guest-visible registers. While the state is in hardware, counters (evcntr, ccntr) and
	 * the hardware's overflow flags live there; everything else is always here. */
	uint64_t pmcr;	  /* writable fields only (E, LP, DP, X, ...) */
	uint64_t cnten;	  /* PMCNTENSET_EL0 */
	uint64_t inten;	  /* PMINTENSET_EL1 */
	uint64_t ovs;	  /* PMOVSSET_EL0: flags taken from hardware or set by the guest */
	uint64_t userenr; /* PMUSERENR_EL0 */
	uint64_t selr;	  /* PMSELR_EL0 */
	uint64_t ccfiltr; /* PMCCFILTR_EL0 as the guest wrote it */
	uint64_t ccntr;	  /* PMCCNTR_EL0 while in the shadow */
	uint64_t evtyper[VPERF_PMU_MAX_COUNTERS];
	uint64_t evcntr[VPERF_PMU_MAX_COUNTERS];
	const struct vperf_pcpu *hw_pcpu;    /* the pCPU whose hardware last held this state */
	uint8_t map[VPERF_PMU_MAX_COUNTERS]; /* emulated partition: the physical counter of
					      * guest counter n while in hardware, or
					      * VPERF_VPMU_NOT_LIVE */
	uint8_t rotate; /* emulated partition: where the next multiplexing slice starts */
	bool active;	/* used since it was last found idle: keep its state in hardware */
	bool direct;	/* direct partition running untrapped: the hardware is authoritative
			    * for every register, the shadow is stale */
	bool irq_level; /* the level last pushed to the virtual interrupt line */
	/* Three bytes a second-range vCPU's lazy put tests in one load, as lazy_word
	 * (virt/vpmu/switch.h): VPERF_VPMU_LAZY_QUICK when its state is in the hardware with no
	 * line to push and no EL0 grant to take back. */
	union {
		struct {
			uint8_t where;	  /* enum vperf_vpmu_where */
			bool irq_dirty;	  /* push the level at the next load: it changed while the
					 * vCPU was not loaded, or the vGIC may hold anything
					 * (reset, restore) */
			bool el0_grant;	  /* userenr != 0 (vpmu_set_userenr) */
			uint8_t lazy_pad; /* always 0 */
		};
		uint32_t lazy_word;
	};
};

/* lazy_word for where = w, the other bytes 0: VPERF_VPMU_LAZY_QUICK, the quick put's test; the
 * same with VPERF_VPMU_PARKED, what it leaves. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define VPERF_VPMU_LAZY_WORD(w) ((uint32_t)(w) << 24)
#else
#define VPERF_VPMU_LAZY_WORD(w) ((uint32_t)(w))
#endif
#define VPERF_VPMU_LAZY_QUICK VPERF_VPMU_LAZY_WORD(VPERF_VPMU_HW)

#endif /* VPERF_VPMU_H */
