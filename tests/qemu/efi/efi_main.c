// SPDX-License-Identifier: MIT
/*
 * The reference hypervisor as a UEFI application (make efi, docs/uefi.md), built with Debian's
 * gnu-efi for arm64. It carries the hypervisor's raw image (vperf-hyp.bin, efi_enter.S) and does
 * what QEMU's -kernel loader does for the -kernel boot, from what the firmware gives:
 *   - checks it runs at EL2 (the hypervisor cannot run lower);
 *   - the device tree from the EFI configuration table (UEFI 2.10, 4.6: the table's
 *     EFI_DTB_TABLE_GUID entry), or where the firmware gives ACPI tables only, one written from
 *     them (efi_acpi.c); either checked against what the hypervisor assumes (check_dt);
 *   - the hypervisor's command line from the load options (the EFI shell's command line after
 *     the program's name) or \vperf\cmdline.txt, written to the DT's /chosen/bootargs;
 *   - the memory map: the hypervisor's memory plan (hyp/platform.h) reserved with AllocatePages
 *     at fixed addresses, and where that fails the map's entries in the way printed;
 *   - the guest images \vperf\slot0.bin .. slot3.bin of its own volume into the image slots,
 *     where QEMU's -device loader puts them for the -kernel boot (the rest of each slot zeroed:
 *     RAM the firmware used is not zero, and a raw image's length is read from the zeros after
 *     it, hyp/vm.c); a slot with no file is left as QEMU's loader filled it;
 *   - ExitBootServices with the memory map's current key, retried while the key is stale
 *     (UEFI 2.10, 7.4: EFI_INVALID_PARAMETER when the map changed since GetMemoryMap);
 *   - then the hypervisor's own entry (hyp/head.S) at EL2 with the MMU off and x0 = the DT, as
 *     QEMU enters it (efi_enter.S).
 */
#include <efi.h>
#include <efilib.h>
#include <libfdt.h>

#include "../hyp/platform.h"
#include "../lib/lib.h"
#include "efi_acpi.h"

#define ARM64_IMAGE_MAGIC 0x644d5241u /* "ARM\x64" at byte 56 (Linux arm64 booting.rst) */
#define PAGE		  4096ull
#define PAGES(n)	  (((n) + PAGE - 1) / PAGE)
#define CMDLINE_MAX	  4096
#define DT_SLACK	  (CMDLINE_MAX + 4096) /* room for /chosen/bootargs */
#define EBS_TRIES	  8

/* efi_enter.S: the hypervisor's raw image, and the jump into it. */
extern const uint8_t hyp_image[], hyp_image_end[];
void efi_enter_hyp(uint64_t entry, uint64_t dtb) __attribute__((noreturn));
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

static EFI_HANDLE self;
static EFI_FILE_HANDLE root;
static char cmdline[CMDLINE_MAX];
static uint64_t loaded[NR_IMAGE_SLOTS]; /* bytes read into each slot */

static EFI_STATUS fail(EFI_STATUS st, const CHAR16 *why)
{
	Print(L"vperf-efi: FAILED: %s (%r)\n", why, st);
	return st;
}

static unsigned int current_el(void)
{
	uint64_t el;

	__asm__ volatile("mrs %0, CurrentEL" : "=r"(el));
	return (unsigned int)(el >> 2) & 3;
}

/* Clean (and invalidate) [p, p + n) to the Point of Coherency by VA (Arm DDI 0487 K.a, D7.5.9):
 * the hypervisor's entry runs with its MMU and caches off and must see what went through the
 * caches here. Line size from CTR_EL0.DminLine (words, log2). */
static void dcache_clean_inval(uint64_t p, uint64_t n)
{
	uint64_t ctr, line, end = p + n;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	line = 4ull << ((ctr >> 16) & 0xf);
	for (p &= ~(line - 1); p < end; p += line)
		__asm__ volatile("dc civac, %0" : : "r"(p) : "memory");
	__asm__ volatile("dsb sy" : : : "memory");
}

/* ---- the memory map ---- */

static const CHAR16 *mem_type_name(UINT32 type)
{
	static const CHAR16 *const names[] = {
		L"Reserved",
		L"LoaderCode",
		L"LoaderData",
		L"BootServicesCode",
		L"BootServicesData",
		L"RuntimeServicesCode",
		L"RuntimeServicesData",
		L"Conventional",
		L"Unusable",
		L"ACPIReclaim",
		L"ACPINVS",
		L"MMIO",
		L"MMIOPortSpace",
		L"PalCode",
		L"Persistent",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : L"Other";
}

/* The firmware's map entries that overlap [base, base + size): what holds a range of the plan,
 * and how much of it no entry describes (no RAM there). */
static void show_map_overlap(uint64_t base, uint64_t size)
{
	UINTN n, key, dsize;
	UINT32 dver;
	EFI_MEMORY_DESCRIPTOR *map = LibMemoryMap(&n, &key, &dsize, &dver), *d;
	uint64_t covered = 0;

	for (UINTN i = 0; map && i < n; i++) {
		uint64_t start, end;

		d = (EFI_MEMORY_DESCRIPTOR *)(void *)((uint8_t *)map + i * dsize);
		start = d->PhysicalStart;
		end = start + d->NumberOfPages * PAGE;
		if (end <= base || start >= base + size)
			continue;
		covered += (end < base + size ? end : base + size) - (start > base ? start : base);
		if (d->Type != EfiConventionalMemory)
			Print(L"vperf-efi:   [%lx, %lx) is %s\n", start, end,
			      mem_type_name(d->Type));
	}
	if (covered < size)
		Print(L"vperf-efi:   %ld MiB of it are in no entry of the map: no RAM there\n",
		      (size - covered) >> 20);
	if (map)
		FreePool(map);
}

/* A summary of the map: how much RAM the firmware leaves free and where it ends. */
static void show_map_summary(void)
{
	UINTN n, key, dsize;
	UINT32 dver;
	EFI_MEMORY_DESCRIPTOR *map = LibMemoryMap(&n, &key, &dsize, &dver), *d;
	uint64_t free_pages = 0, top = 0;

	if (!map)
		return;
	for (UINTN i = 0; i < n; i++) {
		d = (EFI_MEMORY_DESCRIPTOR *)(void *)((uint8_t *)map + i * dsize);
		if (d->Type == EfiConventionalMemory)
			free_pages += d->NumberOfPages;
		if (d->Type != EfiMemoryMappedIO && d->Type != EfiMemoryMappedIOPortSpace &&
		    d->PhysicalStart + d->NumberOfPages * PAGE > top)
			top = d->PhysicalStart + d->NumberOfPages * PAGE;
	}
	Print(L"vperf-efi: memory map: %d entries, %ld MiB free, RAM ends at %lx\n", n,
	      free_pages * PAGE >> 20, top);
	FreePool(map);
}

/* One range of the plan, taken from the firmware's free memory at its fixed address. */
static EFI_STATUS reserve(const CHAR16 *what, uint64_t base, uint64_t size)
{
	EFI_PHYSICAL_ADDRESS addr = base;
	EFI_STATUS st = uefi_call_wrapper(BS->AllocatePages, 4, AllocateAddress, EfiLoaderData,
					  PAGES(size), &addr);

	if (EFI_ERROR(st)) {
		Print(L"vperf-efi: the %s at [%lx, %lx) is not free memory (hyp/platform.h):\n",
		      what, base, base + size);
		show_map_overlap(base, size);
		return fail(st,
			    L"the hypervisor's memory plan does not fit this machine's memory map");
	}
	return EFI_SUCCESS;
}

/* ---- files of the volume the application was loaded from ---- */

static EFI_STATUS open_root(void)
{
	EFI_LOADED_IMAGE *li;
	EFI_STATUS st =
		uefi_call_wrapper(BS->HandleProtocol, 3, self, &LoadedImageProtocol, (void **)&li);

	if (EFI_ERROR(st))
		return st;
	root = LibOpenRoot(li->DeviceHandle);
	return root ? EFI_SUCCESS : EFI_NOT_FOUND;
}

/* The device the firmware loaded this application from, as its device path: a disk's
 * (QEMU: VenHw(...) of a virtio-mmio transport) or the -kernel boot's file system in memory.
 * What the command line and images below were read from, for whoever reads the log. */
static void show_boot_device(void)
{
	EFI_LOADED_IMAGE *li;
	EFI_DEVICE_PATH *dp = NULL;
	CHAR16 *path = NULL;

	if (!EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, self, &LoadedImageProtocol,
					 (void **)&li)))
		dp = DevicePathFromHandle(li->DeviceHandle);
	if (dp)
		path = DevicePathToStr(dp);
	Print(L"vperf-efi: loaded from %s\n", path ? path : L"(no device path)");
	if (path)
		FreePool(path);
}

/* Read the file at path into buf (at most cap bytes): its length, or -1 if there is no such
 * file, -2 if it is longer than cap or unreadable. */
static int64_t read_file(CHAR16 *path, void *buf, uint64_t cap)
{
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	UINTN size;
	EFI_STATUS st;

	if (!root ||
	    EFI_ERROR(uefi_call_wrapper(root->Open, 5, root, &f, path, EFI_FILE_MODE_READ, 0)))
		return -1;
	info = LibFileInfo(f);
	size = info ? info->FileSize : 0;
	if (info)
		FreePool(info);
	if (!info || size > cap) {
		uefi_call_wrapper(f->Close, 1, f);
		return -2;
	}
	st = uefi_call_wrapper(f->Read, 3, f, &size, buf);
	uefi_call_wrapper(f->Close, 1, f);
	return EFI_ERROR(st) ? -2 : (int64_t)size;
}

/* ---- the command line ---- */

/* The EFI shell passes its command line as the load options, UTF-16, the program's name first;
 * edk2 on QEMU, booting -kernel FILE.efi, passes -append's text alone; a boot manager's entry
 * may pass binary data instead (edk2 tags the options it creates). Printable UCS-2 is a command
 * line: all of it when its first word is an argument (KEY=VALUE, as all of the hypervisor's
 * are), else what follows the program's name. */
static bool args_from_load_options(void)
{
	EFI_LOADED_IMAGE *li;
	const CHAR16 *s;
	UINTN n, i = 0, o = 0;

	if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, self, &LoadedImageProtocol,
					(void **)&li)) ||
	    !li->LoadOptions || li->LoadOptionsSize < 2 || li->LoadOptionsSize % 2)
		return false;
	s = li->LoadOptions;
	n = li->LoadOptionsSize / 2;
	while (n && !s[n - 1])
		n--;
	for (UINTN k = 0; k < n; k++)
		if (s[k] < 0x20 || s[k] > 0x7e)
			return false;
	while (i < n && s[i] != ' ' && s[i] != '=')
		i++;
	if (i < n && s[i] == '=')
		i = 0; /* an argument first: no program name (edk2's QEMU -kernel boot, -append) */
	while (i && i < n && s[i] == ' ')
		i++;
	if (i >= n || n - i >= CMDLINE_MAX)
		return false;
	for (; i < n; i++)
		cmdline[o++] = (char)s[i];
	cmdline[o] = 0;
	return true;
}

/* \vperf\cmdline.txt: the command line QEMU's -append gives the -kernel boot; line ends and
 * tabs become spaces, trailing blanks dropped. */
static bool args_from_file(void)
{
	static CHAR16 path[] = L"\\vperf\\cmdline.txt";
	int64_t n = read_file(path, cmdline, CMDLINE_MAX - 1);

	if (n < 0)
		return false;
	while (n && (cmdline[n - 1] == '\n' || cmdline[n - 1] == '\r' || cmdline[n - 1] == ' '))
		n--;
	cmdline[n] = 0;
	for (int64_t i = 0; i < n; i++)
		if (cmdline[i] == '\n' || cmdline[i] == '\r' || cmdline[i] == '\t')
			cmdline[i] = ' ';
	return true;
}

/* ---- guest images ---- */

/* Each slot's image from \vperf\slotK.bin of the boot volume (a USB stick, the EFI shell's
 * fs0:), the rest of the slot zeroed. A slot with no such file is left as it is: on QEMU the
 * runner puts the images where the -kernel boot has them (-device loader writes them into RAM
 * before the firmware starts; reserve() found the slots free in the firmware's map). */
static EFI_STATUS load_slots(void)
{
	CHAR16 path[32];

	for (unsigned int k = 0; k < NR_IMAGE_SLOTS; k++) {
		uint8_t *slot = (uint8_t *)(uintptr_t)IMAGE_SLOT_PA(k);
		int64_t n;

		SPrint(path, sizeof(path), L"\\vperf\\slot%d.bin", k);
		n = read_file(path, slot, IMAGE_SLOT_SIZE);
		if (n == -2) {
			Print(L"vperf-efi: %s: unreadable or longer than a slot (%ld MiB)\n", path,
			      IMAGE_SLOT_SIZE >> 20);
			return fail(EFI_LOAD_ERROR, L"guest image");
		}
		if (n < 0)
			continue;
		loaded[k] = (uint64_t)n;
		uefi_call_wrapper(BS->SetMem, 3, slot + n, IMAGE_SLOT_SIZE - loaded[k], 0);
		Print(L"vperf-efi: slot %d: %s, %ld bytes at %lx\n", k, path, n, IMAGE_SLOT_PA(k));
	}
	return EFI_SUCCESS;
}

/* ---- the device tree ---- */

/* The firmware's DT copied below 4 GiB (the hypervisor maps [0, 4 GiB) only), with room for
 * /chosen/bootargs = the command line. */
static EFI_STATUS build_dt(const void *fw_dt, uint64_t *out)
{
	uint64_t size = fdt_totalsize(fw_dt) + DT_SLACK;
	EFI_PHYSICAL_ADDRESS addr = 0xffffffffull;
	EFI_STATUS st = uefi_call_wrapper(BS->AllocatePages, 4, AllocateMaxAddress, EfiLoaderData,
					  PAGES(size), &addr);
	void *dt = (void *)(uintptr_t)addr;
	int chosen, err;

	if (EFI_ERROR(st))
		return fail(st, L"no memory below 4 GiB for the device tree");
	err = fdt_open_into(fw_dt, dt, (int)size);
	chosen = err ? err : fdt_path_offset(dt, "/chosen");
	if (chosen == -FDT_ERR_NOTFOUND)
		chosen = fdt_add_subnode(dt, 0, "chosen");
	err = chosen < 0 ? chosen : fdt_setprop_string(dt, chosen, "bootargs", cmdline);
	if (err) {
		Print(L"vperf-efi: device tree: libfdt error %d\n", err);
		return fail(EFI_LOAD_ERROR, L"the device tree");
	}
	*out = addr;
	return EFI_SUCCESS;
}

/* The PPI of interrupts entry idx of the first node compatible with compat: its INTID, 0 if the
 * node is absent, -1 if the entry is not a PPI (DT binding of the GICv3: three cells, type 1 a
 * PPI numbered from INTID 16). */
static int dt_ppi(const void *dt, const char *compat, int idx)
{
	int node = fdt_node_offset_by_compatible(dt, -1, compat), len;
	const fdt32_t *irq = node < 0 ? NULL : fdt_getprop(dt, node, "interrupts", &len);

	if (node < 0)
		return 0;
	if (!irq || len < (idx + 1) * 12 || fdt32_to_cpu(irq[idx * 3]) != 1)
		return -1;
	return 16 + (int)fdt32_to_cpu(irq[idx * 3 + 1]);
}

static bool dt_has(const void *dt, const char *compat)
{
	return fdt_node_offset_by_compatible(dt, -1, compat) >= 0;
}

/* One interrupt the hypervisor takes at a fixed INTID (hyp/platform.h) against the DT's. */
static bool ppi_matches(const CHAR16 *what, int dt_intid, int hyp_intid, bool optional)
{
	if (dt_intid == hyp_intid || (optional && !dt_intid))
		return true;
	Print(L"vperf-efi: the %s interrupt is INTID %d in the device tree, the hypervisor takes "
	      L"INTID %d (hyp/platform.h)\n",
	      what, dt_intid, hyp_intid);
	return false;
}

/* What the hypervisor needs of the machine (docs/uefi.md): a GICv3 (its list registers: a GICv2
 * has none), a PL011 for its console, the architected timer's PPIs, the PMU's and SPE's PPIs
 * where it expects them. Timer entries: secure, non-secure physical, virtual, hypervisor
 * (DT binding arm,armv8-timer). */
static EFI_STATUS check_dt(const void *dt)
{
	bool ok = true;

	if (!dt_has(dt, "arm,gic-v3")) {
		Print(L"vperf-efi: no GICv3 in the device tree%a: the hypervisor runs on a GICv3 "
		      L"(ICH_* list registers) only\n",
		      dt_has(dt, "arm,gic-400") || dt_has(dt, "arm,cortex-a15-gic") ? " (a GICv2)"
										    : "");
		ok = false;
	}
	if (!dt_has(dt, "arm,pl011")) {
		Print(L"vperf-efi: no PL011 (arm,pl011) in the device tree: the hypervisor's "
		      L"console is "
		      L"a PL011\n");
		ok = false;
	}
	ok &= ppi_matches(L"EL1 physical timer", dt_ppi(dt, "arm,armv8-timer", 1), INTID_PTIMER,
			  false);
	ok &= ppi_matches(L"EL1 virtual timer", dt_ppi(dt, "arm,armv8-timer", 2), INTID_VTIMER,
			  false);
	ok &= ppi_matches(L"EL2 physical timer", dt_ppi(dt, "arm,armv8-timer", 3), INTID_HYPTIM,
			  false);
	ok &= ppi_matches(L"PMU", dt_ppi(dt, "arm,armv8-pmuv3", 0), INTID_PMU, true);
	ok &= ppi_matches(L"SPE", dt_ppi(dt, "arm,statistical-profiling-extension-v1", 0),
			  INTID_SPE, true);
	if (!ok)
		return fail(EFI_UNSUPPORTED, L"the machine is not one the hypervisor knows");
	Print(L"vperf-efi: device tree: GICv3, PL011, timer PPIs %d %d %d, PMU %d, SPE %d\n",
	      INTID_PTIMER, INTID_VTIMER, INTID_HYPTIM, dt_ppi(dt, "arm,armv8-pmuv3", 0),
	      dt_ppi(dt, "arm,statistical-profiling-extension-v1", 0));
	return EFI_SUCCESS;
}

/* The firmware's description of the machine: a DT, or (only that on servers that boot in ACPI
 * mode, and on QEMU virt unless acpi=off) ACPI tables, from which efi_acpi.c writes one. */
static EFI_STATUS find_dt(void **dt)
{
	EFI_GUID dtb_guid = EFI_DTB_TABLE_GUID, acpi_guid = ACPI_20_TABLE_GUID;
	void *rsdp;

	if (!EFI_ERROR(LibGetSystemConfigurationTable(&dtb_guid, dt)) && !fdt_check_header(*dt))
		return check_dt(*dt);
	if (EFI_ERROR(LibGetSystemConfigurationTable(&acpi_guid, &rsdp)))
		return fail(EFI_NOT_FOUND, L"neither a device tree nor ACPI tables in the EFI "
					   L"configuration table");
	Print(L"vperf-efi: no device tree, ACPI tables: a device tree written from the MADT, GTDT "
	      L"and SPCR\n");
	*dt = acpi_to_dt(rsdp);
	if (!*dt)
		return fail(EFI_NOT_FOUND, L"the ACPI tables (RSDP, XSDT) are unusable");
	return check_dt(*dt);
}

/* ---- the hypervisor ---- */

/* The embedded image at its link address (hyp.lds); its size with .bss from the arm64 header. */
static EFI_STATUS place_hyp(uint64_t *size)
{
	const uint64_t *hdr = (const uint64_t *)(const void *)hyp_image;
	uint64_t file = (uint64_t)(hyp_image_end - hyp_image);
	EFI_STATUS st;

	if ((uint32_t)hdr[7] != ARM64_IMAGE_MAGIC || hdr[2] < file)
		return fail(EFI_LOAD_ERROR, L"the embedded hypervisor has no arm64 Image header");
	*size = hdr[2];
	st = reserve(L"hypervisor", HYP_LOAD_PA, *size);
	if (EFI_ERROR(st))
		return st;
	CopyMem((void *)(uintptr_t)HYP_LOAD_PA, hyp_image, file);
	return EFI_SUCCESS;
}

/* The command line holds the token tok (a whole word). */
static bool has_token(const char *tok)
{
	size_t n = strlen(tok);

	for (const char *p = cmdline; *p; p++)
		if ((p == cmdline || p[-1] == ' ') && !strncmp(p, tok, n) && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

/* GetMemoryMap then ExitBootServices with its key; a stale key (the map changed in between:
 * EFI_INVALID_PARAMETER) means another GetMemoryMap and try. The buffer is allocated first with
 * room for the entries that allocation adds, since after a failed ExitBootServices only the
 * memory map and allocation services may be called (UEFI 2.10, 7.4). *calls: ExitBootServices
 * calls made. With efi_stale_key=1 on the command line a page is allocated between the first
 * GetMemoryMap and ExitBootServices, which makes that key stale: the retry's test. */
static EFI_STATUS exit_boot_services(unsigned int *calls)
{
	bool make_stale = has_token("efi_stale_key=1");
	UINTN size = 0, key, dsize, cap;
	UINT32 dver;
	EFI_MEMORY_DESCRIPTOR *map = NULL;
	EFI_STATUS st = uefi_call_wrapper(BS->GetMemoryMap, 5, &size, map, &key, &dsize, &dver);

	if (st != EFI_BUFFER_TOO_SMALL)
		return fail(st, L"GetMemoryMap");
	cap = size + 16 * dsize;
	map = AllocatePool(cap);
	if (!map)
		return fail(EFI_OUT_OF_RESOURCES, L"memory map buffer");
	for (unsigned int i = 0; i < EBS_TRIES; i++) {
		size = cap;
		st = uefi_call_wrapper(BS->GetMemoryMap, 5, &size, map, &key, &dsize, &dver);
		if (EFI_ERROR(st))
			return st;
		if (make_stale) {
			EFI_PHYSICAL_ADDRESS page;

			make_stale = false;
			uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData, 1,
					  &page);
		}
		++*calls;
		st = uefi_call_wrapper(BS->ExitBootServices, 2, self, key);
		if (st != EFI_INVALID_PARAMETER)
			return st;
	}
	return st;
}

/* After ExitBootServices, on the PL011 the hypervisor will use: how many calls it took, and
 * with efi_stale_key=1 the verdict of the retry (the first call must have been refused). */
static void report_exit(uint64_t dt, unsigned int calls)
{
	const void *fdt = (const void *)(uintptr_t)dt;
	int node = fdt_node_offset_by_compatible(fdt, -1, "arm,pl011");
	int len;
	const fdt32_t *reg = node < 0 ? NULL : fdt_getprop(fdt, node, "reg", &len);
	char line[160];

	if (!reg || len < 8)
		return;
	uart_init((uint64_t)fdt32_to_cpu(reg[0]) << 32 | fdt32_to_cpu(reg[1]));
	snprintf(line, sizeof(line),
		 "vperf-efi: boot services left after %u ExitBootServices call%s\n", calls,
		 calls == 1 ? "" : "s");
	uart_puts(line);
	if (has_token("efi_stale_key=1")) {
		snprintf(line, sizeof(line),
			 "RESULT host efi-exit-retry %s the map key made stale before the first "
			 "call: "
			 "%u calls\n",
			 calls >= 2 ? "PASS" : "FAIL", calls);
		uart_puts(line);
	}
}

static EFI_STATUS prepare(uint64_t *dt, uint64_t *hyp_size)
{
	void *fw_dt;
	EFI_STATUS st = find_dt(&fw_dt);

	if (EFI_ERROR(st))
		return st;
	show_map_summary();
	st = place_hyp(hyp_size);
	if (!EFI_ERROR(st))
		st = reserve(L"guests' RAM", VM_RAM_PA(0), VM_RAM_PA(MAX_VMS) - VM_RAM_PA(0));
	if (!EFI_ERROR(st))
		st = reserve(L"image slots", IMAGE_SLOT_PA(0),
			     IMAGE_SLOT_PA(NR_IMAGE_SLOTS) - IMAGE_SLOT_PA(0));
	if (EFI_ERROR(st))
		return st;
	if (EFI_ERROR(open_root()))
		Print(L"vperf-efi: no file system on the boot device: images as QEMU's loader put "
		      L"them\n");
	show_boot_device();
	if (args_from_load_options())
		Print(L"vperf-efi: command line from the load options: '%a'\n", cmdline);
	else if (args_from_file())
		Print(L"vperf-efi: command line from \\vperf\\cmdline.txt: '%a'\n", cmdline);
	else
		Print(L"vperf-efi: no command line (load options or \\vperf\\cmdline.txt)\n");
	st = load_slots();
	return EFI_ERROR(st) ? st : build_dt(fw_dt, dt);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	uint64_t dt = 0, hyp_size = 0;
	unsigned int calls = 0;
	EFI_STATUS st;

	InitializeLib(image, systab);
	self = image;
	Print(L"vperf-efi: the vperf reference hypervisor as a UEFI application, at EL%d\n",
	      current_el());
	if (current_el() != 2) {
		Print(L"vperf-efi: FAILED: the firmware started this application at EL%d: the "
		      L"hypervisor needs EL2 (QEMU: -M virt,virtualization=on; a board: firmware "
		      L"that starts OS loaders at EL2, docs/uefi.md)\n",
		      current_el());
		return EFI_UNSUPPORTED;
	}
	st = prepare(&dt, &hyp_size);
	if (EFI_ERROR(st))
		return st;
	Print(L"vperf-efi: device tree at %lx; leaving boot services, entering the hypervisor "
	      L"at %lx\n",
	      dt, HYP_LOAD_PA);
	st = exit_boot_services(&calls);
	if (EFI_ERROR(st)) /* the console may be gone already (UEFI 2.10, 7.4): a best effort */
		return fail(st, L"ExitBootServices");
	/* No boot services, no console from here: the hypervisor's UART, polled (lib/uart.c). */
	report_exit(dt, calls);
	dcache_clean_inval(HYP_LOAD_PA, hyp_size);
	dcache_clean_inval(dt, fdt_totalsize((const void *)(uintptr_t)dt));
	for (unsigned int k = 0; k < NR_IMAGE_SLOTS; k++)
		dcache_clean_inval(IMAGE_SLOT_PA(k), loaded[k] + PAGE);
	efi_enter_hyp(HYP_LOAD_PA, dt);
}
