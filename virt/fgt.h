/* SPDX-License-Identifier: MIT */
/* The fine-grained traps vperf gives a VM (fgt.c); their fields: vperf/fgt.h. */
#ifndef VPERF_VIRT_FGT_H
#define VPERF_VIRT_FGT_H

#include <vperf/vperf.h>

#include "vm_config.h"

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
	if (!VPERF_HAS_VSPE)
		return false;
	return vm->cfg.spe && vperf_vm_spe_buffer(vm) == VPERF_SPE_BUF_EL1 &&
	       !vperf_platform()->any_no_fgt;
}
/*
 * A direct-partition VM whose types do not trap, on a platform whose pCPUs differ in their common
 * events (big.LITTLE clusters; PMCEID0/1_EL0, Arm DDI 0487 K.a I5.3.6-7): its PMCEID<n>_EL0
 * reads trap alone (HDFGRTR_EL2.PMCEIDn_EL0, D24.2), so that it reads the events every pCPU
 * counts (the platform's, as a trapped VM does) wherever it runs, not those of the pCPU it is
 * on. Decided at vm_init, as the type traps; a pCPU brought up later whose events would change
 * what an untrapped VM reads is refused (platform.c, pmceid_exact).
 */
static inline bool vperf_vm_fgt_pmceid(const struct vperf_vm *vm)
{
	return vm->cfg.pmu_mode != VPERF_PMU_OFF && vm->cfg.partition == VPERF_PART_DIRECT &&
	       !vperf_vm_fgt_types(vm) && vperf_platform()->pmceid_differs;
}
/* The bits of vperf_vm.fgt_types (policy.c): the index of a pCPU's vm_hdfgrtr/vm_hdfgwtr. */
#define VPERF_FGT_TYPES	 1u
#define VPERF_FGT_PMBSR	 2u
#define VPERF_FGT_PMCEID 4u
#define VPERF_FGT_NR	 8u
/* False, logged, when the hypervisor gives FGT values on a PE without FEAT_FGT. */
bool vperf_fgt_host_ok(const struct vperf_pcpu *pcpu);
/* At pcpu_init: the values a vCPU runs with on this pCPU (vm_hdfgrtr/vm_hdfgwtr). */
void vperf_fgt_pcpu_init(struct vperf_pcpu *pcpu);
/* Write both registers (each only where it changed). */
void vperf_fgt_set(struct vperf_pcpu *pcpu, uint64_t rtr, uint64_t wtr);

/* At load, after MDCR_EL2: the vCPU's values, written where they changed. Inline, on every
 * load's path: without FEAT_FGT, or back from a put that kept them, it only compares. */
/* FEAT_FGT2's index (vm_hdfgrtr2): 1 for a direct-partition VM, whose TPM may be 0. */
static inline unsigned int vperf_vm_fgt2_index(const struct vperf_vm *vm)
{
	return vm->cfg.partition == VPERF_PART_DIRECT && vm->cfg.pmu_mode != VPERF_PMU_OFF;
}

static inline unsigned int vperf_fgt2_index(const struct vperf_vcpu *vcpu)
{
	return vperf_vm_fgt2_index(vcpu->vm);
}

/* Write HDFGRTR2_EL2 / HDFGWTR2_EL2 (FEAT_FGT2), each only where it changed. */
void vperf_fgt2_set(struct vperf_pcpu *pcpu, uint64_t rtr, uint64_t wtr);

/* The four registers hold the vCPU's values already: one bit of the record of what they hold
 * (fgt_held, kept by every writer: the load below, vperf_fgt_put, pcpu_init), on the switch's
 * fast path. */
static inline bool vperf_fgt_current(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	return (pcpu->fgt_held >> vcpu->vm->fgt_class) & 1u;
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
	pcpu->fgt_held = pcpu->fgt_same[vcpu->vm->fgt_class];
}
/* At put: the host's values back. */
void vperf_fgt_put(struct vperf_pcpu *pcpu);

#endif /* VPERF_VIRT_FGT_H */
