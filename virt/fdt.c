// SPDX-License-Identifier: MIT
/*
 * The guest device-tree nodes of vperf's devices, written with libfdt into the tree the
 * hypervisor builds for a VM (the way Xen's toolstack builds guest trees):
 *
 *   pmu {
 *           compatible = "arm,armv8-pmuv3";
 *           interrupts = <1 7 4>;   PPI, INTID 23 - 16, level-high
 *   };
 *
 * The GIC binding's interrupt specifier is <type number flags>: type 1 is a PPI numbered from
 * INTID 16, flags 4 is level-high (DT_IRQ_TYPE_LEVEL_HIGH in Xen's device_tree_defs.h); the
 * PMU's interrupt is level-sensitive (Arm ARM, PMUIRQ) and so is vperf's virtual line.
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

static int add_pmu(void *fdt, const struct vperf_vm *vm)
{
	static const char compatible[] = "arm,armv8-pmuv3";
	uint8_t irq[12];
	int node, err;

	be32(irq, GIC_SPEC_PPI);
	be32(irq + 4, vperf_vm_pmu_virq(vm) - 16);
	be32(irq + 8, DT_LEVEL_HIGH);
	node = fdt_add_subnode(fdt, fdt_path_offset(fdt, "/"), "pmu");
	if (node < 0)
		return fdt_err(node);
	err = fdt_setprop(fdt, node, "compatible", compatible, sizeof(compatible));
	if (!err)
		err = fdt_setprop(fdt, node, "interrupts", irq, sizeof(irq));
	/* All or nothing: a half-made node would make the retry after growing the buffer fail
	 * (the node exists). Deleting only shrinks the tree, so it cannot run out of space. */
	if (err)
		fdt_del_node(fdt, node);
	return err ? fdt_err(err) : VPERF_OK;
}

int vperf_fdt_add_nodes(void *fdt, const struct vperf_vm *vm)
{
	if (vm->cfg.pmu_mode == VPERF_PMU_OFF)
		return VPERF_OK; /* no PMU: no node, and the guest's probe finds nothing */
	return add_pmu(fdt, vm);
}
