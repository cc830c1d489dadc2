// SPDX-License-Identifier: MIT
/*
 * The device tree a guest boots with, written with libfdt's sequential-write API the way Xen's
 * toolstack builds guest trees: memory at GUEST_RAM0_BASE, /chosen (bootargs, the initramfs if
 * any), the vCPUs with PSCI over HVC, the architected timer, the GICv3 at Xen's guest addresses,
 * a PL011 at QEMU virt's address, and, for a VM with a vPMU, vperf's "arm,armv8-pmuv3" node with
 * PPI 7 (INTID 23). Interrupt specifiers: <1 (PPI) n flags> or <0 (SPI) n flags> with flags from
 * Xen's public xen/include/public/device_tree_defs.h.
 */
#include "hyp.h"

#include <libfdt.h>
#include <xen/xen.h>
#include <xen/device_tree_defs.h>

#define GIC_SPI	    0
#define GIC_PPI	    1
#define PHANDLE_CLK 65100u

#define TRY(x)                        \
	do {                          \
		int err__ = (x);      \
		if (err__)            \
			return err__; \
	} while (0)

static int prop_cells(void *fdt, const char *name, const uint32_t *cells, unsigned int n)
{
	fdt32_t be[16];

	for (unsigned int i = 0; i < n; i++)
		be[i] = cpu_to_fdt32(cells[i]);
	return fdt_property(fdt, name, be, (int)(n * sizeof(be[0])));
}

static int prop_reg(void *fdt, uint64_t base, uint64_t size)
{
	uint32_t r[4] = { (uint32_t)(base >> 32), (uint32_t)base, (uint32_t)(size >> 32),
			  (uint32_t)size };

	return prop_cells(fdt, "reg", r, 4);
}

static int ppi_prop(void *fdt, const uint32_t *intids, unsigned int n)
{
	uint32_t cells[12];

	for (unsigned int i = 0; i < n; i++) {
		cells[3 * i] = GIC_PPI;
		cells[3 * i + 1] = intids[i] - 16;
		cells[3 * i + 2] = DT_IRQ_TYPE_LEVEL_HIGH;
	}
	return prop_cells(fdt, "interrupts", cells, 3 * n);
}

static int cpus(void *fdt, const struct vm *vm)
{
	TRY(fdt_begin_node(fdt, "cpus"));
	TRY(fdt_property_u32(fdt, "#address-cells", 1));
	TRY(fdt_property_u32(fdt, "#size-cells", 0));
	for (unsigned int i = 0; i < vm->nr_vcpus; i++) {
		char name[16];

		snprintf(name, sizeof(name), "cpu@%u", i);
		TRY(fdt_begin_node(fdt, name));
		TRY(fdt_property_string(fdt, "device_type", "cpu"));
		TRY(fdt_property_string(fdt, "compatible", "arm,armv8"));
		TRY(fdt_property_u32(fdt, "reg", i));
		TRY(fdt_property_string(fdt, "enable-method", "psci"));
		TRY(fdt_end_node(fdt));
	}
	return fdt_end_node(fdt);
}

static int psci_timer(void *fdt)
{
	static const char psci[] = "arm,psci-1.0\0arm,psci-0.2";
	/* Secure physical, non-secure physical, virtual, hypervisor timer (timer binding order). */
	static const uint32_t timer[] = { 29, 30, INTID_VTIMER, 26 };

	TRY(fdt_begin_node(fdt, "psci"));
	TRY(fdt_property(fdt, "compatible", psci, sizeof(psci)));
	TRY(fdt_property_string(fdt, "method", "hvc"));
	TRY(fdt_end_node(fdt));
	TRY(fdt_begin_node(fdt, "timer"));
	TRY(fdt_property_string(fdt, "compatible", "arm,armv8-timer"));
	TRY(ppi_prop(fdt, timer, 4));
	TRY(fdt_property(fdt, "always-on", NULL, 0));
	return fdt_end_node(fdt);
}

static int gic(void *fdt, const struct vm *vm)
{
	uint32_t reg[8] = { 0, (uint32_t)GUEST_GICV3_GICD_BASE,	 0, (uint32_t)GUEST_GICV3_GICD_SIZE,
			    0, (uint32_t)GUEST_GICV3_GICR0_BASE, 0, vm->nr_vcpus * 0x20000u };

	TRY(fdt_begin_node(fdt, "interrupt-controller@3001000"));
	TRY(fdt_property_string(fdt, "compatible", "arm,gic-v3"));
	TRY(fdt_property_u32(fdt, "#interrupt-cells", 3));
	TRY(fdt_property(fdt, "interrupt-controller", NULL, 0));
	TRY(fdt_property_u32(fdt, "redistributor-regions", 1));
	TRY(prop_cells(fdt, "reg", reg, 8));
	TRY(fdt_property_u32(fdt, "phandle", GUEST_PHANDLE_GIC));
	return fdt_end_node(fdt);
}

static int uart(void *fdt)
{
	static const char compat[] = "arm,pl011\0arm,primecell";
	static const char clock_names[] = "uartclk\0apb_pclk";
	uint32_t clocks[2] = { PHANDLE_CLK, PHANDLE_CLK };
	/* SPI 1 (INTID 33), as on QEMU virt. Linux's PL011 driver requests its interrupt when the
	 * tty is opened and cannot start without one (the console then takes no writes: EIO); the
	 * emulated PL011 never raises it (its transmit FIFO is never full and it receives nothing),
	 * see vgic_mmio.c. */
	static const uint32_t uart_spi[3] = { GIC_SPI, VUART_SPI - 32, DT_IRQ_TYPE_LEVEL_HIGH };

	TRY(fdt_begin_node(fdt, "apb-pclk"));
	TRY(fdt_property_string(fdt, "compatible", "fixed-clock"));
	TRY(fdt_property_u32(fdt, "#clock-cells", 0));
	TRY(fdt_property_u32(fdt, "clock-frequency", 24000000));
	TRY(fdt_property_u32(fdt, "phandle", PHANDLE_CLK));
	TRY(fdt_end_node(fdt));
	TRY(fdt_begin_node(fdt, "pl011@9000000"));
	TRY(fdt_property(fdt, "compatible", compat, sizeof(compat)));
	TRY(prop_reg(fdt, 0x09000000, 0x1000));
	TRY(prop_cells(fdt, "interrupts", uart_spi, 3));
	TRY(prop_cells(fdt, "clocks", clocks, 2));
	TRY(fdt_property(fdt, "clock-names", clock_names, sizeof(clock_names)));
	return fdt_end_node(fdt);
}

static int root(void *fdt, const struct vm *vm)
{
	static const char compat[] = "vperf,reference-guest\0linux,dummy-virt";

	TRY(fdt_begin_node(fdt, ""));
	TRY(fdt_property(fdt, "compatible", compat, sizeof(compat)));
	TRY(fdt_property_string(fdt, "model", "vperf reference hypervisor guest"));
	TRY(fdt_property_u32(fdt, "#address-cells", GUEST_ROOT_ADDRESS_CELLS));
	TRY(fdt_property_u32(fdt, "#size-cells", GUEST_ROOT_SIZE_CELLS));
	TRY(fdt_property_u32(fdt, "interrupt-parent", GUEST_PHANDLE_GIC));
	TRY(fdt_begin_node(fdt, "chosen"));
	TRY(fdt_property_string(fdt, "bootargs", vm->cfg.args));
	if (vm->initrd_size) {
		TRY(fdt_property_u64(fdt, "linux,initrd-start", vm->initrd_ipa));
		TRY(fdt_property_u64(fdt, "linux,initrd-end", vm->initrd_ipa + vm->initrd_size));
	}
	TRY(fdt_property_string(fdt, "stdout-path", "/pl011@9000000"));
	TRY(fdt_end_node(fdt));
	TRY(fdt_begin_node(fdt, "memory@40000000"));
	TRY(fdt_property_string(fdt, "device_type", "memory"));
	TRY(prop_reg(fdt, GUEST_RAM0_BASE, vm->cfg.mem));
	TRY(fdt_end_node(fdt));
	TRY(cpus(fdt, vm));
	TRY(psci_timer(fdt));
	TRY(gic(fdt, vm));
	TRY(uart(fdt));
	return fdt_end_node(fdt);
}

/* The tree is written sequentially, then reopened read-write so that vperf adds its own device
 * nodes (the PMU node on the VM's virtual PPI: vperf_fdt_add_nodes), then packed. */
int guest_dt_build(struct vm *vm, void *buf, size_t size)
{
	TRY(fdt_create(buf, (int)size));
	TRY(fdt_finish_reservemap(buf));
	TRY(root(buf, vm));
	TRY(fdt_finish(buf));
	TRY(fdt_open_into(buf, buf, (int)size));
	if (vperf_fdt_add_nodes(buf, &vm->vperf) != VPERF_OK)
		return -FDT_ERR_NOSPACE;
	return fdt_pack(buf);
}
