// SPDX-License-Identifier: MIT
/*
 * The guest device-tree nodes of vperf's devices, written with libfdt into the tree the
 * hypervisor builds for a VM (the way Xen's toolstack builds guest trees):
 *
 *   pmu {
 *           compatible = "arm,armv8-pmuv3";
 *           interrupts = <1 7 4>;   PPI, INTID 23 - 16, level-high
 *   };
 *   spe-pmu {
 *           compatible = "arm,statistical-profiling-extension-v1";
 *           interrupts = <1 5 4>;   PPI, INTID 21 - 16, level-high
 *   };
 *
 * The GIC binding's interrupt specifier is <type number flags>: type 1 is a PPI numbered from
 * INTID 16, flags 4 is level-high (DT_IRQ_TYPE_LEVEL_HIGH in Xen's device_tree_defs.h); the
 * PMU's interrupt is level-sensitive (Arm ARM, PMUIRQ), PMBIRQ too (SPE supplement 3.5), and so
 * are vperf's virtual lines. The SPE node is the one Linux's arm_spe_pmu driver probes.
 */
#include "fdt_api.h"
#include "internal.h"

#define GIC_SPEC_PPI  1u
#define DT_LEVEL_HIGH 4u

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static int fdt_err(int err)
{
	return err == -VPERF_FDT_ERR_NOSPACE ? VPERF_ENOSPC : VPERF_EINVAL;
}

/* A node under the root with a compatible string (its size including the NUL) and one level
 * PPI. */
static int add_node(void *fdt, const char *name, const char *compatible, size_t size,
		    uint32_t intid)
{
	uint8_t irq[12];
	int node, err;

	be32(irq, GIC_SPEC_PPI);
	be32(irq + 4, intid - 16);
	be32(irq + 8, DT_LEVEL_HIGH);
	node = fdt_add_subnode(fdt, fdt_path_offset(fdt, "/"), name);
	if (node < 0)
		return fdt_err(node);
	err = fdt_setprop(fdt, node, "compatible", compatible, (int)size);
	if (!err)
		err = fdt_setprop(fdt, node, "interrupts", irq, sizeof(irq));
	return err ? fdt_err(err) : VPERF_OK;
}

/* No PMU (OFF) or no SPE: no node, and the guest's probe finds nothing. */
int vperf_fdt_add_nodes(void *fdt, const struct vperf_vm *vm)
{
	static const char pmu[] = "arm,armv8-pmuv3";
	static const char spe[] = "arm,statistical-profiling-extension-v1";
	int err = VPERF_OK;

	if (vm->cfg.pmu_mode != VPERF_PMU_OFF)
		err = add_node(fdt, "pmu", pmu, sizeof(pmu), vperf_vm_pmu_virq(vm));
	if (!err && vm->cfg.spe && vm->cfg.spe_buffer != VPERF_SPE_BUF_EL2)
		err = add_node(fdt, "spe-pmu", spe, sizeof(spe), vperf_vm_spe_virq(vm));
	return err;
}
