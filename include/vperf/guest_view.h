/* SPDX-License-Identifier: MIT */
/*
 * What a guest is shown of its vPMU and vSPE outside the trapped registers: the ID registers a
 * hypervisor's HCR_EL2.TID3 handler answers, the virtual PPIs and the device tree nodes. Part of
 * vperf's API (vperf.h includes it after the objects it takes).
 */
#ifndef VPERF_GUEST_VIEW_H
#define VPERF_GUEST_VIEW_H

#include <vperf/vperf.h>

/* ID_AA64DFR0_EL1 as the vCPU must see it, from the hardware value hw: for the hypervisor's
 * HCR_EL2.TID3 trap handler. */
uint64_t vperf_vcpu_id_dfr0(const struct vperf_vcpu *vcpu, uint64_t hw);
/* ID_AA64DFR1_EL1 as the vCPU must see it, from the hardware's value hw: the same without
 * PMICNTR [39:36] (vperf gives no guest FEAT_PMUv3_ICNTR: PMICNTR_EL0 is UNDEF for it). A
 * hypervisor that traps ID registers (HCR_EL2.TID3) answers a guest's read with it. */
uint64_t vperf_vcpu_id_dfr1(const struct vperf_vcpu *vcpu, uint64_t hw);

/* The virtual PPI a VM's PMU overflow interrupt is injected on (for its device tree). */
static inline uint32_t vperf_vm_pmu_virq(const struct vperf_vm *vm)
{
	return vm->cfg.pmu_virq ? vm->cfg.pmu_virq : CONFIG_VPERF_VPMU_PPI;
}

/* The virtual PPI a VM's SPE buffer interrupt is injected on (for its device tree). */
static inline uint32_t vperf_vm_spe_virq(const struct vperf_vm *vm)
{
	return vm->cfg.spe_virq ? vm->cfg.spe_virq : CONFIG_VPERF_VSPE_PPI;
}

#ifdef CONFIG_VPERF_FDT
/* Add the VM's vperf device nodes (the PMU, "arm,armv8-pmuv3" on its virtual PPI, nothing for an
 * OFF VM; for a VM with SPE, "arm,statistical-profiling-extension-v1" on its PMBIRQ PPI) under
 * the root of the guest device tree fdt, with libfdt, which the hypervisor links. All or
 * nothing: VPERF_ENOSPC when the tree's buffer is full, leaving the tree as it was (grow it, e.g.
 * with fdt_open_into, and retry), VPERF_EINVAL otherwise, the tree untouched (a /pmu or /spe-pmu
 * node exists, no valid tree, or a layout libfdt cannot edit in place). */
int vperf_fdt_add_nodes(void *fdt, const struct vperf_vm *vm);
#else
static inline int vperf_fdt_add_nodes(void *fdt, const struct vperf_vm *vm)
{
	(void)fdt;
	(void)vm;
	return VPERF_ENOTSUP;
}
#endif

#endif /* VPERF_GUEST_VIEW_H */
