/* SPDX-License-Identifier: MIT */
/* What a VM was given: the questions on its configuration (vperf_vm_config, checked by
 * vperf_vm_init in policy.c) that every module asks on its paths. */
#ifndef VPERF_VIRT_VM_CONFIG_H
#define VPERF_VIRT_VM_CONFIG_H

#include <vperf/vperf.h>

#include "platform.h"

/* What the build has (Kconfig): a feature configured out is no VM's (vperf_vm_init refuses it),
 * and with these constants in vpmu_on() and vspe_on() the compiler drops its calls from the
 * entry points' paths (the stubs of vpmu/entry.h and vspe/entry.h stand for it). */
#ifdef CONFIG_VPERF_VPMU
#define VPERF_HAS_VPMU true
#else
#define VPERF_HAS_VPMU false
#endif
#ifdef CONFIG_VPERF_VSPE
#define VPERF_HAS_VSPE true
#else
#define VPERF_HAS_VSPE false
#endif

/* What the VM was given (vperf_vm_init checked it). A vPMU: */
static inline bool vpmu_on(const struct vperf_vcpu *vcpu)
{
	return VPERF_HAS_VPMU && vcpu->vm->cfg.pmu_mode != VPERF_PMU_OFF;
}

/* A vSPE of its own (the guest owns a Profiling Buffer): */
static inline bool vspe_on(const struct vperf_vcpu *vcpu)
{
	return VPERF_HAS_VSPE && vcpu->vm->cfg.spe && vcpu->vm->cfg.spe_buffer != VPERF_SPE_BUF_EL2;
}

/* vperf_vm.lazy: which lazy put its vCPUs may take (vcpu.c), set by vperf_vm_init from its
 * policy. Only a VM without SPE (no vSPE state to drain, no host buffer saved for it): */
enum vperf_vm_lazy {
	VPERF_VM_LAZY_NONE,    /* every lazy put is put()'s */
	VPERF_VM_LAZY_TRAPPED, /* the trapped partition outside XENPMU_MODE_ALL: it parks */
	VPERF_VM_LAZY_SECOND,  /* the second range: the quick put (vpmu/switch.h) */
};

static inline enum vperf_vm_lazy vperf_vm_cfg_lazy(const struct vperf_vm_config *cfg)
{
	if (!VPERF_HAS_VPMU || cfg->spe || cfg->pmu_mode == VPERF_PMU_OFF)
		return VPERF_VM_LAZY_NONE;
	if (cfg->partition == VPERF_PART_SECOND)
		return VPERF_VM_LAZY_SECOND;
	if (cfg->partition == VPERF_PART_TRAPPED && cfg->pmu_mode != VPERF_PMU_ALL)
		return VPERF_VM_LAZY_TRAPPED;
	return VPERF_VM_LAZY_NONE;
}

/* SPE from outside: the hypervisor profiles the VM into its own buffer; the guest sees no SPE. */
static inline bool vspe_outside(const struct vperf_vcpu *vcpu)
{
	return VPERF_HAS_VSPE && vcpu->vm->cfg.spe && vcpu->vm->cfg.spe_buffer == VPERF_SPE_BUF_EL2;
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

#endif /* VPERF_VIRT_VM_CONFIG_H */
