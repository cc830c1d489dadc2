// SPDX-License-Identifier: MIT
/*
 * VM creation from the configuration vm_args.c parsed: guest RAM, the guest image placed by the
 * Linux arm64 boot protocol, an initramfs, the generated device tree, stage 2, and the VM's
 * vperf policy.
 */
#include "hyp.h"

#include <xen/xen.h>

#define ARM64_IMAGE_MAGIC 0x644d5241u /* "ARM\x64" at byte 56 (booting.rst) */
#define DTB_MAX		  0x10000u

/* The length of what QEMU's loader put in a slot, for an image without a header to say it: up to
 * its last non-zero byte (the slot is zero beyond the file, RAM being zero at power-on). */
static uint64_t slot_used(const uint8_t *src)
{
	const uint64_t *w = (const uint64_t *)(const void *)src;
	uint64_t n = IMAGE_SLOT_SIZE / sizeof(*w);

	while (n && !w[n - 1])
		n--;
	return n * sizeof(*w);
}

/* Linux arm64 boot protocol (booting.rst): copy the image to a 2 MiB aligned base + text_offset
 * of guest RAM; image_size covers .bss too (the bytes beyond the file are whatever the slot
 * holds, and the image clears its own .bss). An image without the arm64 header ("ARM\x64" at
 * byte 56) is loaded as QEMU's own loader loads a raw AArch64 kernel: at RAM + 0x80000, entered
 * at its first byte; so is a pre-3.17 header with image_size 0. */
static bool load_image(struct vm *vm, uint64_t *end)
{
	const uint8_t *src = (const uint8_t *)(uintptr_t)IMAGE_SLOT_PA(vm->cfg.image);
	const uint64_t *hdr = (const uint64_t *)(const void *)src;
	uint64_t text_offset = hdr[1], size = hdr[2];

	if ((uint32_t)hdr[7] != ARM64_IMAGE_MAGIC || !size) {
		text_offset = 0x80000;
		size = slot_used(src);
		hyp_log("vm%u: slot %d holds %s: %lu bytes loaded raw at RAM + 0x80000", vm->id,
			vm->cfg.image,
			(uint32_t)hdr[7] == ARM64_IMAGE_MAGIC ? "a pre-3.17 arm64 Image"
							      : "no arm64 Image header",
			size);
	}
	if (!size) {
		hyp_log("vm%u: image slot %d is empty", vm->id, vm->cfg.image);
		return false;
	}
	if (size > IMAGE_SLOT_SIZE || text_offset > VM_RAM_MAX ||
	    text_offset + size > vm->cfg.mem - DTB_MAX - 0x200000) {
		hyp_log("vm%u: image of %lu bytes does not fit", vm->id, size);
		return false;
	}
	memcpy((void *)(uintptr_t)(vm->ram_pa + text_offset), src, size);
	vm->entry_ipa = GUEST_RAM0_BASE + text_offset;
	*end = text_offset + size;
	return true;
}

/* One field of a newc cpio header: 8 hexadecimal digits, either case. */
static uint64_t cpio_hex(const char *p)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < 8; i++) {
		char c = p[i];
		unsigned int d = c >= '0' && c <= '9'	? (unsigned int)(c - '0')
				 : c >= 'a' && c <= 'f' ? (unsigned int)(c - 'a' + 10)
				 : c >= 'A' && c <= 'F' ? (unsigned int)(c - 'A' + 10)
							: 0;

		v = v << 4 | d;
	}
	return v;
}

#define CPIO_HDR      110u /* "070701" and 13 fields of 8 hex digits */
#define CPIO_ALIGN(x) (((x) + 3) & ~3ull)

/* The length of the newc cpio archive at p, 0 if there is none (Linux
 * Documentation/driver-api/early-userspace/buffer-format.rst): each member is the header, its
 * name (namesize bytes with the NUL) padded to 4 bytes, then its data (filesize bytes) padded to
 * 4; the member named "TRAILER!!!" ends the archive. Fields: filesize is the 7th, namesize the
 * 12th. QEMU's loader does not tell the file's size, so the archive's own structure does. */
static uint64_t cpio_size(const uint8_t *p, uint64_t max)
{
	uint64_t off = 0;

	while (off + CPIO_HDR <= max) {
		const char *h = (const char *)p + off;
		uint64_t filesize, namesize;
		bool last;

		if (memcmp(h, "070701", 6))
			return 0;
		filesize = cpio_hex(h + 6 + 6 * 8);
		namesize = cpio_hex(h + 6 + 11 * 8);
		last = namesize == sizeof("TRAILER!!!") && off + CPIO_HDR + namesize <= max &&
		       !memcmp(h + CPIO_HDR, "TRAILER!!!", namesize);
		off = CPIO_ALIGN(CPIO_ALIGN(off + CPIO_HDR + namesize) + filesize);
		if (last)
			return off <= max ? off : 0;
	}
	return 0;
}

/* The initramfs goes to the top of guest RAM, page aligned, below the device tree and above the
 * kernel (Linux arm64 booting.rst: anywhere in RAM the kernel does not occupy); the device tree's
 * /chosen linux,initrd-start and linux,initrd-end tell the kernel where. */
static bool load_initrd(struct vm *vm, uint64_t kernel_end)
{
	const uint8_t *src = (const uint8_t *)(uintptr_t)IMAGE_SLOT_PA(vm->cfg.initrd);
	uint64_t size = cpio_size(src, IMAGE_SLOT_SIZE), off;

	if (!size) {
		hyp_log("vm%u: slot %d holds no newc cpio archive", vm->id, vm->cfg.initrd);
		return false;
	}
	if (kernel_end + size + DTB_MAX + 0x1000 > vm->cfg.mem) {
		hyp_log("vm%u: initramfs of %lu bytes does not fit", vm->id, size);
		return false;
	}
	off = (vm->cfg.mem - DTB_MAX - size) & ~0xfffull;
	memcpy((void *)(uintptr_t)(vm->ram_pa + off), src, size);
	vm->initrd_ipa = GUEST_RAM0_BASE + off;
	vm->initrd_size = size;
	return true;
}

static int vperf_policy(struct vm *vm)
{
	struct vperf_vm_config cfg = {
		.pmu_mode = vm->cfg.pmu,
		.partition = vm->cfg.part,
		.nr_counters = (uint8_t)vm->cfg.counters,
		.pmu_virq = INTID_PMU,
		.spe = vm->cfg.spe,
		.spe_buffer = vm->cfg.spe_buffer,
		.spe_pa = vm->cfg.spe_pa,
		.spe_pct = vm->cfg.spe_pct,
		.spe_virq = INTID_SPE,
		.spe_context = spe_outside_context(vm),
		.emu_slots = (uint8_t)(vm->cfg.emu_slots > 255 ? 255 : vm->cfg.emu_slots),
	};

	vperf_pmu_filter_allow_all(&cfg.filter);
	for (unsigned int i = 0; i < vm->cfg.nr_deny; i++)
		vperf_pmu_filter_set(&cfg.filter, vm->cfg.deny[i], false);
	return vperf_vm_init(&vm->vperf, &cfg, vm);
}

/* The policy's verdict: a refusal is SKIP when the feature is configured out of this vperf
 * (VPERF_ENOTSUP), FAIL when the policy is one the pCPUs cannot give (VPERF_EINVAL), unless the
 * configuration expects that refusal (vmI.expect=refused), which is then a PASS, and its
 * absence a FAIL. */
static void report_policy(const struct vm *vm, int err)
{
	const char *verdict = err == VPERF_ENOTSUP ? "SKIP" : "FAIL";

	if (vm->cfg.expect_refused)
		verdict = err ? "PASS" : "FAIL";
	else if (!err)
		return;
	if (err)
		hyp_log("vm%u: vperf_vm_init refused the policy (%d)", vm->id, err);
	printf("RESULT host vm%u-policy %s vperf_vm_init=%d%s\n", vm->id, verdict, err,
	       vm->cfg.expect_refused ? " (a refusal expected)" : "");
}

/* docs/vspe.md: a VM asking for SPE on a PE without it is not created (and must not be given
 * SPE). True when the VM is not to be created. */
static bool spe_refused(const struct vm *vm, int err)
{
	if (!vm->cfg.spe)
		return false;
	if (err == VPERF_ENODEV) {
		hyp_log("vm%u: refused: SPE asked for, but a pCPU has none (ID_AA64DFR0_EL1.PMSVer "
			"0; vperf_vm_init=%d)",
			vm->id, err);
		printf("RESULT host vm%u-spe-refused PASS no SPE on this PE, VM not created\n",
		       vm->id);
		return true;
	}
	if (!err && !this_pcpu()->vperf.caps.pmsver)
		printf("RESULT host vm%u-spe-refused FAIL SPE given on a PE without it\n", vm->id);
	return false;
}

static unsigned int next_home;

static void vm_create(struct vm *vm, unsigned int id)
{
	int err;
	uint64_t kernel_end;

	vm->id = id;
	vm->ram_pa = VM_RAM_PA(id);
	if (vm->cfg.mem > VM_RAM_MAX)
		vm->cfg.mem = VM_RAM_MAX;
	if (vm->cfg.args_too_long) {
		hyp_log("vm%u: vm%u.args longer than %u bytes (Linux's COMMAND_LINE_SIZE): not "
			"started",
			id, id, ARGS_MAX - 1);
		printf("RESULT host vm%u-args %s bootargs longer than %u bytes%s\n", id,
		       vm->cfg.expect_refused ? "PASS" : "FAIL", ARGS_MAX - 1,
		       vm->cfg.expect_refused ? " (a refusal expected)" : "");
		return;
	}
	err = vperf_policy(vm);
	if (spe_refused(vm, err))
		return;
	report_policy(vm, err);
	if (err)
		return;
	vm->has_vpmu = vm->cfg.pmu != VPERF_PMU_OFF;
	vm->nr_vcpus = vm->cfg.vcpus > MAX_VCPUS_PER_VM ? MAX_VCPUS_PER_VM : vm->cfg.vcpus;
	if (!load_image(vm, &kernel_end) || (vm->cfg.initrd >= 0 && !load_initrd(vm, kernel_end)))
		return;
	vm->dtb_ipa = GUEST_RAM0_BASE + vm->cfg.mem - DTB_MAX;
	err = guest_dt_build(vm, (void *)(uintptr_t)(vm->ram_pa + vm->cfg.mem - DTB_MAX), DTB_MAX);
	if (err) {
		hyp_log("vm%u: device tree: libfdt error %d", id, err);
		return;
	}
	stage2_build(vm);
	for (unsigned int i = 0; i < vm->nr_vcpus; i++) {
		struct vcpu *v = &vm->vcpus[i];

		v->vm = vm;
		v->id = i;
		vperf_vcpu_init(&v->vperf, &vm->vperf, v);
		vcpu_reset(v, vm->entry_ipa, vm->dtb_ipa);
		v->state = i == 0 ? VCPU_RUNNABLE : VCPU_OFF;
		v->on_pcpu = -1;
		v->home = next_home++ % hyp.nr_pcpus; /* vCPUs dealt round the pCPUs */
	}
	vm->running = true;
	hyp_log("vm%u: image slot %d, %lu MiB at %lx, %u vCPU, PMU %s, %u counters", id,
		vm->cfg.image, vm->cfg.mem >> 20, vm->ram_pa, vm->nr_vcpus,
		pmu_mode_name(vm->cfg.pmu), vm->cfg.counters);
	if (vm->initrd_size)
		hyp_log("vm%u: initramfs from slot %d, %lu bytes at IPA %lx", id, vm->cfg.initrd,
			vm->initrd_size, vm->initrd_ipa);
}

void vm_create_all(void)
{
	virt_init_el2();
	for (unsigned int i = 0; i < hyp.nr_vms; i++)
		if (hyp.vms[i].cfg.image >= 0)
			vm_create(&hyp.vms[i], i);
}
