/* SPDX-License-Identifier: MIT */
/* What every initialised pCPU offers and every initialised VM relies on (platform.c). */
#ifndef VPERF_VIRT_PLATFORM_H
#define VPERF_VIRT_PLATFORM_H

#include <vperf/vperf.h>

/*
 * What every VM initialised since vperf_init relies on finding on each pCPU, since it may run on
 * any of them: recorded by vperf_vm_init (policy.c) from its policy and what it was shown, and
 * checked by vperf_pcpu_init, which refuses a pCPU brought up later that cannot give it. There
 * is no VM destroy call: the demands only grow until the next vperf_init. FEAT_FGT and
 * FEAT_HPMN0 are not among them: a direct VM that needs them runs trapped on a pCPU without
 * them, the same PMU with traps (vpmu_direct_here), as vperf.h says.
 */
struct vperf_demands {
	uint8_t counters; /* the largest N or emu_slots of a VM with a vPMU: [0, HPMN) at least */
	uint8_t pmuver; /* the PMUVer a VM with a vPMU was shown, and its masks rest on (0: none) */
	uint64_t pmceid[2]; /* the common events a VM with a vPMU was shown (PMCEID0/1_EL0) */
	bool direct;	    /* a direct-partition VM: MDCR_EL2.HPMN enforced at EL1 */
	bool pmceid_exact;  /* ... that reads PMCEID0/1_EL0 untrapped (fgt.h): every pCPU's the
			     * same, pmceid[] exactly */
	bool el3;	    /* ... that holds PMEVTYPER NSK, NSU and M (every pCPU had EL3) */
	bool aarch32;	    /* a vPMU whose PMCR_EL0.LC and D hold a value (every pCPU had AArch32
			 * at EL0, vpmu/caps.c): a later pCPU without it could apply neither */
	bool export_bus;    /* ... that holds PMCR_EL0.X (every pCPU had an export bus) */
	uint8_t pmsver;	    /* the PMSVer a VM with SPE was shown or is profiled with (0: none) */
	bool host_spe;	    /* a VM profiled from outside: the host's own Profiling Buffer */
	bool ecv;	    /* a VM with a vSPE keeps PMSCR_EL1.PCT[1] (every pCPU had FEAT_ECV) */
	bool spe_ids;	/* a VM with a vSPE was shown the platform's SPE ID view (spe_pmsidr...) */
	bool first;	/* a VM with a vPMU in the first range: no host_first_range */
	uint8_t second; /* VPERF_PART_SECOND: its N + 1 counters in [HPMN, EPMN) (0: none), a
			  * host_first_range pCPU enforcing HPMN */
};

/* What every pCPU initialised since vperf_init offers (platform.c): the VM policies, the
 * guest-writable masks and the vSPE's ID values rest on it, so that a vCPU can move between
 * pCPUs and find the same PMU and SPE everywhere. */
struct vperf_platform {
	bool any;	       /* a pCPU was initialised: the rest means something */
	uint8_t min_hpmn;      /* the smallest first range */
	uint8_t min_second;    /* the smallest second range [HPMN, EPMN) */
	bool any_host_first;   /* a pCPU's host keeps the first range (host_first_range) */
	bool any_host_second;  /* a pCPU's host does not (its guests get the first range) */
	uint8_t min_pmuver;    /* the lowest PMUVer (0: a pCPU without PMUv3) */
	uint8_t min_pmsver;    /* the lowest PMSVer (0: a pCPU without SPE) */
	bool any_unenforced;   /* a pCPU does not enforce MDCR_EL2.HPMN at EL1 */
	bool any_aarch64_only; /* a pCPU has no AArch32 at EL0 (no PMCR_EL0.D) */
	bool any_no_el3;       /* a pCPU has no EL3 (no PMEVTYPER NSK, NSU, M) */
	bool any_no_host_spe;  /* a pCPU has no host-owned Profiling Buffer (host_spe) */
	bool any_no_export;    /* a pCPU has no event export bus (PMCR_EL0.X RAZ/WI) */
	bool any_no_fgt;       /* a pCPU has no FEAT_FGT (no fine-grained PMU traps) */
	bool any_no_hpmn0;     /* a pCPU has no FEAT_HPMN0 (MDCR_EL2.HPMN = 0 is not legal) */
	bool any_no_ecv;       /* a pCPU has no FEAT_ECV (PMSCR_EL1.PCT[1] is RES0 there) */
	bool any_spe;	       /* a pCPU has SPE (and so the SAMPLE_* PMU events), usable or not */
	uint64_t pmceid[2];    /* the common events every pCPU counts (PMCEID0/1_EL0, ANDed) */
	bool pmceid_differs;   /* two pCPUs' PMCEID0/1_EL0 differ (big.LITTLE clusters' do) */
	/* The SPE ID registers a VM with a vSPE is shown, whatever pCPU its vCPU is on, over the
	 * pCPUs with SPE (platform.c, add_spe_ids): the filter and feature bits ANDed, Interval
	 * the largest, CountSize the smallest, Align, F, MaxSize and Format the one value they
	 * all have; spe_ids_differ when they do not (no VM with a vSPE then: policy.c). Once such a
	 * VM exists a pCPU that would change the view is refused, so it no longer changes. */
	bool any_spe_ids;    /* a pCPU with SPE was initialised: the view means something */
	bool spe_ids_differ; /* pCPUs with SPE differ in Align, F, MaxSize or Format */
	uint64_t spe_pmsidr; /* PMSIDR_EL1 of the view (SPE 4.3.11) */
	uint64_t spe_pmbidr; /* PMBIDR_EL1 of the view, Align and F (SPE 4.3.1) */
	bool any_mt_counts;  /* a pCPU's PMEVTYPER<n>.MT may count other threads (pcpu.c) */
	bool any_newer_regs; /* a pCPU exposes the instruction counter or PMUv3p9's PMUACR_EL1
			      * and PMZR_EL0 with no FEAT_FGT2 to trap them (pcpu.c) */
	struct vperf_pcpu_caps first_caps; /* the first initialised pCPU's (blob checks) */
	struct vperf_demands demands;	   /* what the initialised VMs rely on */
};

const struct vperf_platform *vperf_platform(void);
/* vperf_init: these ops, and no pCPU yet. */
void vperf_platform_reset(const struct vperf_hyp_ops *ops);
/* vperf_pcpu_init: one more pCPU, probed and configured. */
void vperf_platform_add(const struct vperf_pcpu *pcpu);
/* vperf_vm_init: one more VM, relying on d. */
void vperf_platform_demand(const struct vperf_demands *d);
/* vperf_pcpu_init, before vperf_platform_add: NULL when pcpu gives every initialised VM what it
 * relies on, else why not (for the log). */
const char *vperf_platform_refusal(const struct vperf_pcpu *pcpu);

#endif /* VPERF_VIRT_PLATFORM_H */
