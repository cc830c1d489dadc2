// SPDX-License-Identifier: MIT
/*
 * ACPI for the UEFI application (efi_main.c), for firmware that describes the machine with ACPI
 * tables and no device tree (servers booting in ACPI mode; edk2 on QEMU virt unless acpi=off).
 * The hypervisor reads a device tree, so the few facts it needs are taken from the tables and
 * written as one, with the nodes and properties a firmware DT would have for them:
 *   - MADT (ACPI 6.5, 5.2.12): the GICv3 distributor (GICD structure, type 0xC), its
 *     redistributors (GICR structure, type 0xE, or the first GICC's GICR base), the PMU's
 *     interrupt (GICC, type 0xB: Performance Interrupt GSIV) and SPE's (GICC: SPE overflow
 *     Interrupt, ACPI 6.3 on, when the structure is long enough to hold it);
 *   - GTDT (5.2.25): the secure and non-secure EL1 physical, virtual and EL2 timers' GSIVs;
 *   - SPCR (Microsoft's Serial Port Console Redirection table): the console UART, kept only
 *     when it is a PL011 (interface type 3) in memory space.
 * Every table's checksum is verified (5.2.6: all its bytes sum to 0). Offsets are those of the
 * ACPI structures (packed, little endian).
 */
#include <efi.h>
#include <efilib.h>
#include <libfdt.h>

#include "efi_acpi.h"

#define SDT_HEADER   36
#define MADT_ENTRIES (SDT_HEADER + 8) /* Local Interrupt Controller Address, Flags */
#define MADT_GICC    0x0b
#define MADT_GICD    0x0c
#define MADT_GICR    0x0e
#define SPCR_PL011   3
#define PPI_FLAGS    4 /* DT binding of the GIC: level-sensitive, active high */
#define DT_SIZE	     4096

struct acpi_facts {
	uint64_t gicd, gicr, gicr_len, uart;
	uint32_t gic_version;
	uint32_t timer[4]; /* secure EL1, non-secure EL1, virtual, EL2: GSIVs */
	uint32_t pmu, spe;
};

static uint64_t rd(const uint8_t *p, unsigned int off, unsigned int bytes)
{
	uint64_t v = 0;

	for (unsigned int i = bytes; i--;)
		v = v << 8 | p[off + i];
	return v;
}

static bool checksum_ok(const uint8_t *p, uint64_t len)
{
	uint8_t sum = 0;

	for (uint64_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + p[i]);
	return sum == 0;
}

/* The table with signature sig among the XSDT's entries (5.2.8), checksum verified. */
static const uint8_t *find_table(const uint8_t *xsdt, const char *sig)
{
	uint64_t len = rd(xsdt, 4, 4);

	for (uint64_t off = SDT_HEADER; off + 8 <= len; off += 8) {
		const uint8_t *t = (const uint8_t *)(uintptr_t)rd(xsdt, (unsigned int)off, 8);

		if (t && !CompareMem(t, sig, 4) && checksum_ok(t, rd(t, 4, 4)))
			return t;
	}
	return NULL;
}

static void read_madt(const uint8_t *madt, struct acpi_facts *f)
{
	uint64_t len = rd(madt, 4, 4);
	bool gicc_seen = false;

	for (uint64_t off = MADT_ENTRIES; off + 2 <= len;) {
		const uint8_t *e = madt + off;
		unsigned int type = e[0], elen = e[1];

		if (elen < 2 || off + elen > len)
			break;
		if (type == MADT_GICD && elen >= 24) {
			f->gicd = rd(e, 8, 8);
			f->gic_version = e[20];
		} else if (type == MADT_GICR && elen >= 16 && !f->gicr) {
			f->gicr = rd(e, 4, 8);
			f->gicr_len = rd(e, 12, 4);
		} else if (type == MADT_GICC && elen >= 76 && !gicc_seen) {
			gicc_seen = true; /* the boot CPU's; the hypervisor takes one PPI for all */
			f->pmu = (uint32_t)rd(e, 20, 4);
			f->spe = elen >= 80 ? (uint32_t)rd(e, 78, 2) : 0;
			if (!f->gicr)
				f->gicr = rd(e, 60, 8);
		}
		off += elen;
	}
}

static void read_gtdt(const uint8_t *gtdt, struct acpi_facts *f)
{
	if (rd(gtdt, 4, 4) < 80)
		return;
	for (unsigned int i = 0; i < 4; i++)
		f->timer[i] = (uint32_t)rd(gtdt, 48 + 8 * i, 4);
}

static void read_spcr(const uint8_t *spcr, struct acpi_facts *f)
{
	if (rd(spcr, 4, 4) >= 52 && spcr[36] == SPCR_PL011 && spcr[40] == 0 /* memory space */)
		f->uart = rd(spcr, 44, 8);
}

/* ---- the device tree ---- */

#define TRY(x)                       \
	do {                         \
		int err_ = (x);      \
		if (err_ < 0)        \
			return err_; \
	} while (0)

static int prop_reg(void *dt, int node, uint64_t a, uint64_t la, uint64_t b, uint64_t lb)
{
	fdt64_t reg[4] = { cpu_to_fdt64(a), cpu_to_fdt64(la), cpu_to_fdt64(b), cpu_to_fdt64(lb) };

	return fdt_setprop(dt, node, "reg", reg, b ? sizeof(reg) : sizeof(reg) / 2);
}

/* A node at the root with a compatible string and PPIs (GSIV - 16; 0: none given, the node is
 * left without interrupts, which check_dt reports). */
static int ppi_node(void *dt, const char *name, const char *compat, const uint32_t *gsiv,
		    unsigned int n)
{
	fdt32_t irq[12];
	int node = fdt_add_subnode(dt, 0, name);

	TRY(node);
	TRY(fdt_setprop_string(dt, node, "compatible", compat));
	for (unsigned int i = 0; i < n; i++) {
		if (gsiv[i] < 16 || gsiv[i] >= 32)
			return 0;
		irq[i * 3] = cpu_to_fdt32(1); /* a PPI */
		irq[i * 3 + 1] = cpu_to_fdt32(gsiv[i] - 16);
		irq[i * 3 + 2] = cpu_to_fdt32(PPI_FLAGS);
	}
	return fdt_setprop(dt, node, "interrupts", irq, n * 3 * sizeof(fdt32_t));
}

static int write_dt(void *dt, const struct acpi_facts *f)
{
	int node;

	TRY(fdt_create_empty_tree(dt, DT_SIZE));
	TRY(fdt_setprop_u32(dt, 0, "#address-cells", 2));
	TRY(fdt_setprop_u32(dt, 0, "#size-cells", 2));
	TRY(fdt_add_subnode(dt, 0, "chosen"));
	if (f->gicd && f->gic_version >= 3) {
		node = fdt_add_subnode(dt, 0, "interrupt-controller");
		TRY(node);
		TRY(fdt_setprop_string(dt, node, "compatible", "arm,gic-v3"));
		TRY(prop_reg(dt, node, f->gicd, 0x10000, f->gicr,
			     f->gicr_len ? f->gicr_len : 0x20000));
	}
	if (f->uart) {
		node = fdt_add_subnode(dt, 0, "pl011");
		TRY(node);
		TRY(fdt_setprop_string(dt, node, "compatible", "arm,pl011"));
		TRY(prop_reg(dt, node, f->uart, 0x1000, 0, 0));
	}
	TRY(ppi_node(dt, "timer", "arm,armv8-timer", f->timer, 4));
	if (f->pmu)
		TRY(ppi_node(dt, "pmu", "arm,armv8-pmuv3", &f->pmu, 1));
	if (f->spe)
		TRY(ppi_node(dt, "spe", "arm,statistical-profiling-extension-v1", &f->spe, 1));
	return fdt_pack(dt);
}

void *acpi_to_dt(const void *rsdp_table)
{
	const uint8_t *rsdp = rsdp_table, *xsdt, *t;
	struct acpi_facts f = { 0 };
	void *dt;
	int err;

	/* RSDP (5.2.5.3): "RSD PTR ", Revision >= 2 for the XSDT, the extended checksum over Length. */
	if (CompareMem(rsdp, "RSD PTR ", 8) || rsdp[15] < 2 || !checksum_ok(rsdp, rd(rsdp, 20, 4)))
		return NULL;
	xsdt = (const uint8_t *)(uintptr_t)rd(rsdp, 24, 8);
	if (!xsdt || CompareMem(xsdt, "XSDT", 4) || !checksum_ok(xsdt, rd(xsdt, 4, 4)))
		return NULL;
	if ((t = find_table(xsdt, "APIC")))
		read_madt(t, &f);
	if ((t = find_table(xsdt, "GTDT")))
		read_gtdt(t, &f);
	if ((t = find_table(xsdt, "SPCR")))
		read_spcr(t, &f);
	Print(L"vperf-efi: ACPI: GICD %lx (GICv%d) GICR %lx, PL011 %lx, timer GSIVs %d %d %d, "
	      L"PMU %d, SPE %d\n",
	      f.gicd, f.gic_version, f.gicr, f.uart, f.timer[1], f.timer[2], f.timer[3], f.pmu,
	      f.spe);
	dt = AllocatePool(DT_SIZE);
	if (!dt)
		return NULL;
	err = write_dt(dt, &f);
	if (err < 0) {
		Print(L"vperf-efi: ACPI: device tree: libfdt error %d\n", err);
		FreePool(dt);
		return NULL;
	}
	return dt;
}
