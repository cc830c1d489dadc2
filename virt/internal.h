/* SPDX-License-Identifier: MIT */
/* Declarations shared by the virt/ modules; not part of the public API. */
#ifndef VPERF_INTERNAL_H
#define VPERF_INTERNAL_H

#include <vperf/esr.h>
#include <vperf/vperf.h>

/*
 * virt/ in three layers, each calling only the ones below it:
 *   entry points   pcpu.c, policy.c, vcpu.c, trap.c, blob.c, fdt.c, xen_abi.c: the public API;
 *   features       vpmu/ and vspe/ (their own vpmu.h, vspe.h);
 *   base           this header, platform.c, mdcr.c, log.c, fmt.c, esr.c.
 * The features call the base (the ops, the platform, MDCR_EL2 recomputed when their trap state
 * changes, the log) and never an entry point; the base calls no feature.
 */

/* The hypervisor's ops, given to vperf_init (platform.c). */
extern const struct vperf_hyp_ops *vperf_ops;

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
	bool direct;	/* a direct-partition VM: MDCR_EL2.HPMN enforced at EL1 */
	bool el3;	/* ... that holds PMEVTYPER NSK, NSU and M (every pCPU had EL3) */
	bool aarch32;	/* ... that holds PMCR_EL0.D (every pCPU had AArch32 at EL0) */
	bool export_bus; /* ... that holds PMCR_EL0.X (every pCPU had an export bus) */
	uint8_t pmsver;	 /* the PMSVer a VM with SPE was shown or is profiled with (0: none) */
	bool host_spe;	 /* a VM profiled from outside: the host's own Profiling Buffer */
};

/* What every pCPU initialised since vperf_init offers (platform.c): the VM policies, the
 * guest-writable masks and the vSPE's ID values rest on it, so that a vCPU can move between
 * pCPUs and find the same PMU and SPE everywhere. */
struct vperf_platform {
	bool any;	       /* a pCPU was initialised: the rest means something */
	uint8_t min_hpmn;      /* the smallest first range */
	uint8_t min_pmuver;    /* the lowest PMUVer (0: a pCPU without PMUv3) */
	uint8_t min_pmsver;    /* the lowest PMSVer (0: a pCPU without SPE) */
	bool any_unenforced;   /* a pCPU does not enforce MDCR_EL2.HPMN at EL1 */
	bool any_aarch64_only; /* a pCPU has no AArch32 at EL0 (no PMCR_EL0.D) */
	bool any_no_el3;       /* a pCPU has no EL3 (no PMEVTYPER NSK, NSU, M) */
	bool any_no_host_spe;  /* a pCPU has no host-owned Profiling Buffer (host_spe) */
	bool any_no_export;    /* a pCPU has no event export bus (PMCR_EL0.X RAZ/WI) */
	bool any_no_fgt;       /* a pCPU has no FEAT_FGT (no fine-grained PMU traps) */
	bool any_no_hpmn0;     /* a pCPU has no FEAT_HPMN0 (MDCR_EL2.HPMN = 0 is not legal) */
	bool any_spe;	       /* a pCPU has SPE (and so the SAMPLE_* PMU events) */
	uint64_t pmceid[2];    /* the common events every pCPU counts (PMCEID0/1_EL0, ANDed) */
	bool any_mt_counts;    /* a pCPU's PMEVTYPER<n>.MT may count other threads (pcpu.c) */
	bool any_newer_regs;   /* a pCPU exposes the instruction counter untrapped (pcpu.c) */
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

/* What the VM was given (vperf_vm_init checked it). A vPMU: */
static inline bool vpmu_on(const struct vperf_vcpu *vcpu)
{
	return vcpu->vm->cfg.pmu_mode != VPERF_PMU_OFF;
}

/* A vSPE of its own (the guest owns a Profiling Buffer): */
static inline bool vspe_on(const struct vperf_vcpu *vcpu)
{
	return vcpu->vm->cfg.spe && vcpu->vm->cfg.spe_buffer != VPERF_SPE_BUF_EL2;
}

/* SPE from outside: the hypervisor profiles the VM into its own buffer; the guest sees no SPE. */
static inline bool vspe_outside(const struct vperf_vcpu *vcpu)
{
	return vcpu->vm->cfg.spe && vcpu->vm->cfg.spe_buffer == VPERF_SPE_BUF_EL2;
}

/*
 * MDCR_EL2 (mdcr.c, the one file that decides its value). A vCPU's value is cached with the pCPU
 * and the configuration epoch it was computed for; every vperf_init, vperf_pcpu_init and
 * vperf_vm_init starts a new epoch.
 */
void vperf_mdcr_new_epoch(void);
extern uint32_t vperf_mdcr_epoch;
/* The host's MDCR_EL2 while no vCPU runs on pcpu (pcpu->hpmn and cfg set). */
uint64_t vperf_mdcr_host(const struct vperf_pcpu *pcpu);
/* False, logged, when the hypervisor's host_mdcr sets a field the PE does not implement. */
bool vperf_mdcr_host_ok(const struct vperf_pcpu *pcpu);
/* Recompute the loaded vCPU's MDCR_EL2 and write it if it changed: its trap state changed. */
void vperf_update_mdcr(struct vperf_vcpu *vcpu);
/* Write MDCR_EL2 (and remember it): the value differs from the pCPU's last one. */
void vperf_mdcr_write(struct vperf_pcpu *pcpu, uint64_t mdcr);

/* Compute the loaded vCPU's MDCR_EL2 into vcpu->mdcr (and cache it), without writing it. */
void vperf_mdcr_compute(struct vperf_vcpu *vcpu);

/* At load, in two steps so that the vPMU can act between the value and its write (vcpu.c):
 * vcpu->mdcr is the value computed last time, when nothing it depends on changed since: the
 * same pCPU, no pCPU or VM (re)initialised (the epoch), and the vCPU's trap state (direct PMU,
 * direct SPE buffer), whose every change either recomputes it (vperf_update_mdcr) or marks it
 * stale (vperf_mdcr_stale); then it is written only when it differs from the pCPU's. Inline, on
 * every load's path. */
static inline void vperf_mdcr_refresh(struct vperf_vcpu *vcpu)
{
	if (vcpu->mdcr_pcpu != vcpu->pcpu || vcpu->mdcr_epoch != vperf_mdcr_epoch)
		vperf_mdcr_compute(vcpu);
}

static inline void vperf_mdcr_load(struct vperf_vcpu *vcpu)
{
	struct vperf_pcpu *pcpu = vcpu->pcpu;

	if (pcpu->cur_mdcr != vcpu->mdcr)
		vperf_mdcr_write(pcpu, vcpu->mdcr);
}
/* At put: the host's value back where it matters at EL2. */
void vperf_mdcr_put(struct vperf_pcpu *pcpu);

/* One of the vCPU's MDCR_EL2 inputs changed while it is not loaded (its trap state, e.g. at
 * put): its next load computes the value again instead of reusing the cached one. */
static inline void vperf_mdcr_stale(struct vperf_vcpu *vcpu)
{
	vcpu->mdcr_pcpu = NULL;
}

/*
 * Whether a VM's events must be filtered in the hardware's type registers and PMCEID<n>_EL0:
 * its filter denies some event, or the PEs implement the SPE events (SAMPLE_POP to
 * SAMPLE_COLLISION, 0x4000-0x4003, which a PE with SPE and the PMU has: SPE 2.6) and the VM
 * has no vSPE of its own, so they are hidden from it (vpmu/filter.c). A direct VM for which
 * this holds needs the fine-grained type traps; otherwise an untrapped PMCEID0_EL0 read would
 * list, and an untrapped PMEVTYPER write count, the host's sampling.
 */
static inline bool vperf_vm_cfg_filters_events(const struct vperf_vm_config *cfg)
{
	const struct vperf_pmu_filter *f = &cfg->filter;

	if (!(f->allow[0] == ~0ull && f->allow[1] == ~0ull && f->allow_other))
		return true;
	/* A pCPU whose PMEVTYPER<n>_EL0.MT counts the core's other threads and that vperf
	 * cannot disable (pcpu.c): the types must trap there, so that MT never reaches the
	 * hardware (vpmu/filter.h). */
	if (vperf_platform()->any_mt_counts)
		return true;

	return vperf_platform()->any_spe && !(cfg->spe && cfg->spe_buffer != VPERF_SPE_BUF_EL2);
}

/*
 * HDFGRTR_EL2 / HDFGWTR_EL2 (fgt.c, the one file that decides their values, on a pCPU with
 * FEAT_FGT). A direct-partition VM whose events are filtered (above) has its type registers
 * (and PMCEID<n>_EL0 reads) trapped by them and emulated as in the trapped partition. Its policy
 * needs FEAT_FGT on every pCPU (policy.c); on a pCPU initialised later without it, the VM runs
 * trapped (vpmu/switch.c).
 */
static inline bool vperf_vm_fgt_types(const struct vperf_vm *vm)
{
	return vm->cfg.pmu_mode != VPERF_PMU_OFF && vm->cfg.partition == VPERF_PART_DIRECT &&
	       vperf_vm_cfg_filters_events(&vm->cfg);
}
/* The VM's Profiling Buffer policy with the Kconfig default resolved. */
static inline enum vperf_spe_buffer vperf_vm_spe_buffer(const struct vperf_vm *vm)
{
	if (vm->cfg.spe_buffer != VPERF_SPE_BUF_DEFAULT)
		return vm->cfg.spe_buffer;
#ifdef CONFIG_VPERF_VSPE_BUFFER_UNTRAPPED
	return VPERF_SPE_BUF_EL1;
#else
	return VPERF_SPE_BUF_EL1_TRAPPED;
#endif
}

/*
 * A VM with an untrapped guest-owned buffer (VPERF_SPE_BUF_EL1) runs with HDFGWTR_EL2.PMBSR_EL1
 * and HDFGRTR_EL2.PMBSR_EL1 set (fgt.c), so that its own PMBSR_EL1 writes, which may set S with
 * any syndrome, are emulated (vspe/regs.c) and a stage 2 fault in the hardware's PMBSR_EL1 is
 * always vperf's, and so that it never reads that fault, whose PMBIRQ may not have been taken
 * yet: the read takes it first, invisibly (SPE 3.4.1 allows the restart). As for the
 * type traps, decided at vm_init (fgt_types): only when every initialised pCPU has FEAT_FGT,
 * else the guest writes PMBSR_EL1 untrapped (docs/vspe.md, "FEAT_FGT"); on a pCPU initialised
 * later without it, such a VM's buffer stays trapped (vspe/switch.c, direct_ok).
 */
static inline bool vperf_vm_fgt_pmbsr(const struct vperf_vm *vm)
{
#ifdef CONFIG_VPERF_VSPE
	return vm->cfg.spe && vperf_vm_spe_buffer(vm) == VPERF_SPE_BUF_EL1 &&
	       !vperf_platform()->any_no_fgt;
#else
	(void)vm;
	return false;
#endif
}
/* The bits of vperf_vm.fgt_types (policy.c): the index of a pCPU's vm_hdfgrtr/vm_hdfgwtr. */
#define VPERF_FGT_TYPES 1u
#define VPERF_FGT_PMBSR 2u
#define VPERF_FGT_NR	4u
/* False, logged, when the hypervisor gives FGT values on a PE without FEAT_FGT. */
bool vperf_fgt_host_ok(const struct vperf_pcpu *pcpu);
/* At pcpu_init: the values a vCPU runs with on this pCPU (vm_hdfgrtr/vm_hdfgwtr). */
void vperf_fgt_pcpu_init(struct vperf_pcpu *pcpu);
/* Write both registers (each only where it changed). */
void vperf_fgt_set(struct vperf_pcpu *pcpu, uint64_t rtr, uint64_t wtr);

/* At load, after MDCR_EL2: the vCPU's values, written where they changed. Inline, on every
 * load's path: without FEAT_FGT, or back from a put that kept them, it only compares. */
/* FEAT_FGT2's index (vm_hdfgrtr2): 1 for a direct-partition vCPU, whose TPM may be 0. */
static inline unsigned int vperf_fgt2_index(const struct vperf_vcpu *vcpu)
{
	return vcpu->vm->cfg.partition == VPERF_PART_DIRECT &&
	       vcpu->vm->cfg.pmu_mode != VPERF_PMU_OFF;
}

/* Write HDFGRTR2_EL2 / HDFGWTR2_EL2 (FEAT_FGT2), each only where it changed. */
void vperf_fgt2_set(struct vperf_pcpu *pcpu, uint64_t rtr, uint64_t wtr);

static inline bool vperf_fgt_current(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	uint8_t t = vcpu->vm->fgt_types;
	unsigned int t2 = vperf_fgt2_index(vcpu);

	return pcpu->cur_hdfgrtr == pcpu->vm_hdfgrtr[t] &&
	       pcpu->cur_hdfgwtr == pcpu->vm_hdfgwtr[t] &&
	       pcpu->cur_hdfgrtr2 == pcpu->vm_hdfgrtr2[t2] &&
	       pcpu->cur_hdfgwtr2 == pcpu->vm_hdfgwtr2[t2];
}

static inline void vperf_fgt_load(const struct vperf_vcpu *vcpu)
{
	struct vperf_pcpu *pcpu = vcpu->pcpu;
	uint8_t t = vcpu->vm->fgt_types;
	unsigned int t2 = vperf_fgt2_index(vcpu);

	if (pcpu->cur_hdfgrtr != pcpu->vm_hdfgrtr[t] || pcpu->cur_hdfgwtr != pcpu->vm_hdfgwtr[t])
		vperf_fgt_set(pcpu, pcpu->vm_hdfgrtr[t], pcpu->vm_hdfgwtr[t]);
	if (pcpu->cur_hdfgrtr2 != pcpu->vm_hdfgrtr2[t2] ||
	    pcpu->cur_hdfgwtr2 != pcpu->vm_hdfgwtr2[t2])
		vperf_fgt2_set(pcpu, pcpu->vm_hdfgrtr2[t2], pcpu->vm_hdfgwtr2[t2]);
}
/* At put: the host's values back. */
void vperf_fgt_put(struct vperf_pcpu *pcpu);

#ifdef CONFIG_VPERF_STATS
#define STAT_INC(stats, field) ((stats)->field++)
#else
#define STAT_INC(stats, field) ((void)(stats))
#endif

/* One access being emulated: what a register handler sees. Handlers never touch guest GPRs:
 * perform_access() loads val for MSR and stores it for MRS. */
struct vperf_access {
	const struct vperf_sysreg_desc *desc;
	uint32_t enc;
	bool read;
	uint64_t val;
};

/* A handler returns true when the access was emulated, false for UNDEF. */
typedef bool (*vperf_access_fn)(struct vperf_vcpu *vcpu, struct vperf_access *acc);

/* Emulate one decoded access with fn (NULL: UNDEF): load the MSR value from gprs (XZR reads
 * as 0), call fn, store the MRS value (XZR discards it), advance the PC; UNDEF when fn refuses
 * or the register has no such direction. */
enum vperf_trap_result vperf_perform_access(struct vperf_vcpu *vcpu,
					    const struct vperf_sysreg_desc *desc,
					    const struct vperf_esr_sysreg *a, uint64_t gprs[31],
					    vperf_access_fn fn);

struct fmt {
	char *buf;
	size_t len, cap;
};
void vperf_fmt_init(struct fmt *f, char *buf, size_t cap);
void vperf_fmt_str(struct fmt *f, const char *s);
void vperf_fmt_dec(struct fmt *f, uint64_t v);
void vperf_fmt_hex(struct fmt *f, uint64_t v, unsigned int min_digits);

void vperf_log(enum vperf_log_level level, const char *msg);
/* A guest mistake with its architectural outcome: counted by the caller, logged rate-limited. */
void vperf_log_notice(struct vperf_vm *vm, const char *msg);
void vperf_log_unknown_sysreg(struct vperf_vm *vm, const struct vperf_esr_sysreg *a);
/* A guest wrote RES0 bits: it gets them ignored, the host a line saying which. */
/* The same for bits the VM's features make RES0 (bad: the bits that were ignored). */
void vperf_log_bad_bits(struct vperf_vm *vm, const struct vperf_sysreg_desc *desc, uint64_t val,
			uint64_t bad);

#endif /* VPERF_INTERNAL_H */
