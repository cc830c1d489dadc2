// SPDX-License-Identifier: MIT
/*
 * What the payload learns from its device tree (libfdt): the PMU node and its interrupt, the
 * GICv3 frames, the PL011, the PSCI conduit, the vCPUs and the bootargs. Nothing is assumed
 * about who built the tree: QEMU's own, the reference hypervisor's, or another hypervisor's.
 */
#include <libfdt.h>
#include <string.h>

#include "guest.h"

static uint64_t reg_at(const void *fdt, int node, unsigned int idx)
{
	int len;
	const fdt32_t *reg = fdt_getprop(fdt, node, "reg", &len);

	if (!reg || len < (int)((idx + 1) * 16))
		return 0;
	return (uint64_t)fdt32_to_cpu(reg[idx * 4]) << 32 | fdt32_to_cpu(reg[idx * 4 + 1]);
}

/* The idx-th PPI specifier <1 n flags> (GIC binding) as an INTID: 16 + n. */
static uint32_t ppi_intid(const void *fdt, int node, unsigned int idx)
{
	int len;
	const fdt32_t *irq = fdt_getprop(fdt, node, "interrupts", &len);

	if (!irq || len < (int)(12 * (idx + 1)) || fdt32_to_cpu(irq[3 * idx]) != 1)
		return 0;
	return 16 + fdt32_to_cpu(irq[3 * idx + 1]);
}

static unsigned int count_cpus(const void *fdt)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), node;
	unsigned int n = 0;

	if (cpus < 0)
		return 1;
	fdt_for_each_subnode(node, fdt, cpus)
	{
		const char *type = fdt_getprop(fdt, node, "device_type", NULL);

		if (type && !strcmp(type, "cpu"))
			n++;
	}
	return n ? n : 1;
}

int dt_parse(uint64_t dtb)
{
	const void *fdt = (const void *)(uintptr_t)dtb;
	int node;
	const char *s;

	gi.uart = 0x09000000;
	if (fdt_check_header(fdt))
		return -1;
	node = fdt_node_offset_by_compatible(fdt, -1, "arm,pl011");
	if (node < 0) /* Xen's vpl011: the SBSA subset (UARTDR, UARTFR), all the guest uses */
		node = fdt_node_offset_by_compatible(fdt, -1, "arm,sbsa-uart");
	if (node >= 0 && reg_at(fdt, node, 0))
		gi.uart = reg_at(fdt, node, 0);
	node = fdt_node_offset_by_compatible(fdt, -1, "arm,gic-v3");
	if (node >= 0) {
		gi.gicd = reg_at(fdt, node, 0);
		gi.gicr = reg_at(fdt, node, 1);
	}
	node = fdt_node_offset_by_compatible(fdt, -1, "arm,armv8-pmuv3");
	gi.has_pmu = node >= 0;
	gi.pmu_intid = node >= 0 ? ppi_intid(fdt, node, 0) : 0;
	node = fdt_node_offset_by_compatible(fdt, -1, "arm,statistical-profiling-extension-v1");
	gi.spe_intid = node >= 0 ? ppi_intid(fdt, node, 0) : 0;
	/* "arm,armv8-timer": secure physical, non-secure physical, virtual, hypervisor */
	node = fdt_node_offset_by_compatible(fdt, -1, "arm,armv8-timer");
	gi.ptimer_intid = node >= 0 ? ppi_intid(fdt, node, 1) : 0;
	node = fdt_path_offset(fdt, "/psci");
	s = node >= 0 ? fdt_getprop(fdt, node, "method", NULL) : NULL;
	gi.psci_smc = s && !strcmp(s, "smc");
	gi.under_vperf = fdt_node_check_compatible(fdt, 0, "vperf,reference-guest") == 0;
	node = fdt_path_offset(fdt, "/chosen");
	gi.args = node >= 0 ? fdt_getprop(fdt, node, "bootargs", NULL) : NULL;
	if (!gi.args)
		gi.args = "";
	gi.ncpus = count_cpus(fdt);
	return 0;
}
