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
 * PMU's interrupt is level-sensitive (Arm DDI 0487 K.a, PMUIRQ), PMBIRQ too (SPE 3.5), and so
 * are vperf's virtual lines. The SPE node is the one Linux's arm_spe_pmu driver probes.
 */
#include <vperf/vperf.h>

#include "fdt_api.h"

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
	/* All or nothing: a half-made node would make the retry after growing the buffer fail
	 * (the node exists). Deleting only shrinks the tree, so it cannot run out of space. */
	if (err)
		fdt_del_node(fdt, node);
	return err ? fdt_err(err) : VPERF_OK;
}

/* Header word i of a tree (big-endian, read byte by byte: the buffer need not be aligned). */
static uint32_t header(const void *fdt, unsigned int i)
{
	const uint8_t *p = (const uint8_t *)fdt + 4 * i;

	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

#define HDR_TOTALSIZE	 1
#define HDR_OFF_STRUCT	 2
#define HDR_OFF_RSVMAP	 4
#define HDR_VERSION	 5
#define HDR_SIZE_STRUCT	 9
#define TOKEN_BEGIN_NODE 1u
#define TOKEN_END_NODE	 2u
#define TOKEN_PROP	 3u
#define TOKEN_NOP	 4u
#define TOKEN_END	 9u

/* The memory reservation map ends (an entry of size 0) before the structure block. libfdt's
 * checks do not look at it, and its fdt_open_into, the documented way to grow a tree, copies
 * with a negative size when the map runs into the next block. */
static bool rsvmap_ok(const void *fdt)
{
	const uint8_t *p = fdt;
	uint32_t end = header(fdt, HDR_OFF_STRUCT);

	for (uint32_t off = header(fdt, HDR_OFF_RSVMAP); off + 16 <= end; off += 16) {
		bool zero = true;

		for (unsigned int i = 8; i < 16; i++)
			zero &= p[off + i] == 0;
		if (zero)
			return true;
	}
	return false;
}

/* The structure block's tokens stay inside it (Devicetree Specification 5.4): libfdt 1.6.1's own
 * fdt_check_full loops forever on a property whose length is close to 2^32, so vperf walks the
 * tokens itself first. */
static bool struct_ok(const void *fdt)
{
	const uint8_t *p = fdt;
	uint32_t off = header(fdt, HDR_OFF_STRUCT), size = header(fdt, HDR_SIZE_STRUCT);
	uint32_t end = off + size;

	if (end < off || end > header(fdt, HDR_TOTALSIZE))
		return false;
	while (end - off >= 4) {
		uint32_t token = header(p + off, 0);

		off += 4;
		if (token == TOKEN_BEGIN_NODE) {
			while (off < end && p[off])
				off++;
			off = (off + 4) & ~3u; /* the NUL, then padding to 4 bytes */
		} else if (token == TOKEN_PROP) {
			if (end - off < 8 || header(p + off, 0) > end - off - 8)
				return false;
			off = (off + 8 + header(p + off, 0) + 3) & ~3u;
		} else if (token == TOKEN_END) {
			return true;
		} else if (token != TOKEN_END_NODE && token != TOKEN_NOP) {
			return false;
		}
		if (off > end)
			return false;
	}
	return false;
}

/* No PMU (OFF) and no SPE: no node, and the guest's probe finds nothing. */
int vperf_fdt_add_nodes(void *fdt, const struct vperf_vm *vm)
{
	static const char pmu[] = "arm,armv8-pmuv3";
	static const char spe[] = "arm,statistical-profiling-extension-v1";
	/* A VM profiled from outside (VPERF_SPE_BUF_EL2) sees no SPE: no node. */
	bool want_pmu = vm->cfg.pmu_mode != VPERF_PMU_OFF,
	     want_spe = vm->cfg.spe && vm->cfg.spe_buffer != VPERF_SPE_BUF_EL2;
	int err = VPERF_OK;

	if (!want_pmu && !want_spe)
		return VPERF_OK;
	/* libfdt edits a tree on trust: a malformed one (a hypervisor bug) is refused untouched
	 * rather than edited into something worse, or read out of bounds. Version 17 first:
	 * libfdt edits nothing older, and its fdt_check_full reads through a NULL pointer on some
	 * (1.6.1). */
	if (fdt_check_header(fdt) || header(fdt, HDR_VERSION) < 17 || !struct_ok(fdt) ||
	    fdt_check_full(fdt, header(fdt, HDR_TOTALSIZE)) || !rsvmap_ok(fdt))
		return VPERF_EINVAL;
	/* Checked read-only first: libfdt's editing calls may touch the header (its version)
	 * before they find the node exists. */
	if (fdt_path_offset(fdt, "/pmu") >= 0 || fdt_path_offset(fdt, "/spe-pmu") >= 0)
		return VPERF_EINVAL;
	if (want_pmu)
		err = add_node(fdt, "pmu", pmu, sizeof(pmu), vperf_vm_pmu_virq(vm));
	if (!err && want_spe) {
		err = add_node(fdt, "spe-pmu", spe, sizeof(spe), vperf_vm_spe_virq(vm));
		/* All or nothing across the two nodes as well: the retry must find neither. */
		if (err && want_pmu)
			fdt_del_node(fdt, fdt_path_offset(fdt, "/pmu"));
	}
	return err;
}
