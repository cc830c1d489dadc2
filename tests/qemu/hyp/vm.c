// SPDX-License-Identifier: MIT
/*
 * VM configuration from the hypervisor's command line (QEMU -append, /chosen/bootargs) and VM
 * creation: guest RAM, the guest image placed by the Linux arm64 boot protocol, the generated
 * device tree, stage 2, and the VM's vperf policy.
 *
 *   slice_us=N  host_counters=K  bench=1  mutant=no-trap|no-put|no-irq|passthrough|no-s2map|
 *   same-context
 *   pcpus=N (physical CPUs to use, QEMU -smp N)  migrate_every=N (slices before a vCPU moves on)
 *   hpmn_expect=0|1 (the boot-time probe of MDCR_EL2.HPMN at EL1, hpmn_probe.c, must find it
 *   unenforced / enforced: RESULT host hpmn-probe; the probe's answer goes to vperf either way)
 *   mutant=hpmn-unenforced (the probe runs with nothing hidden: it measures a PE ignoring HPMN)
 *   vmI.img=K (image slot, staged by QEMU -device loader at IMAGE_SLOT_PA(K))
 *   vmI.initrd=K (slot K holds an initramfs, a newc cpio archive: /chosen linux,initrd-*)
 *   vmI.pmu=off|self|hv|all  vmI.part=trapped|direct|emulated  vmI.n=COUNTERS  vmI.cpus=N
 *   vmI.slots=K (emulated partition: physical counters its counters are multiplexed onto)
 *   vmI.deny=E+E (event numbers the VM's filter denies, 0x for hexadecimal, at most 4; the rest
 *   allowed)
 *   vmI.spe=1|trapped|untrapped|outside (SPE, its Profiling Buffer policy; docs/vspe.md)
 *   vmI.spe_pa=1, vmI.spe_pct=1 (the SPE policy grants physical addresses, physical time)
 *   vmI.cntvoff=N (CNTVOFF_EL2 while the VM runs: its virtual count is the physical one - N)
 *   vmI.s2=lazy (RAM mapped at stage 2 on its first fault, mm.c)  s2_scrub=N (every N slices the
 *   lazy VMs' RAM is unmapped again)
 *   vmI.mem=MiB  vmI.uart=emu|pt  vmI.args=a,b,c (the guest's bootargs, commas become spaces,
 *   %XX is a byte in hexadecimal: %2C a comma; at most ARGS_MAX - 1 bytes, else the VM is refused)
 *   vmI.expect=refused (the VM must be refused, for its bootargs or by vperf for its policy:
 *   reported PASS when it is)
 */
#include "hyp.h"

#include <xen/xen.h>

#define ARM64_IMAGE_MAGIC 0x644d5241u /* "ARM\x64" at byte 56 (booting.rst) */
#define DTB_MAX		  0x10000u
#define SLICE_US_MIN	  10u /* a slice lets a guest run at least this long after its entry */

static bool starts(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n))
		return false;
	*rest = s + n;
	return true;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

/* vmI.args: the guest's bootargs, up to the next space of the hypervisor's own command line. ','
 * separates the guest's arguments (a space); %XX is the byte of hexadecimal XX, so %2C is a
 * comma inside an argument, %20 a space, %25 a '%'. Longer than ARGS_MAX - 1: refused (false). */
static bool copy_arg(char *dst, size_t cap, const char *src)
{
	size_t n = 0;

	for (; *src && *src != ' '; src++) {
		char c = *src == ',' ? ' ' : *src;

		if (c == '%' && hex_digit(src[1]) >= 0 && hex_digit(src[2]) >= 0) {
			c = (char)(hex_digit(src[1]) << 4 | hex_digit(src[2]));
			src += 2;
		}
		if (n + 1 >= cap) {
			dst[n] = '\0';
			return false;
		}
		dst[n++] = c;
	}
	dst[n] = '\0';
	return true;
}

static void parse_pmu(struct vm_config *c, const char *v)
{
	c->pmu = !strncmp(v, "self", 4)	 ? VPERF_PMU_SELF
		 : !strncmp(v, "hv", 2)	 ? VPERF_PMU_HV
		 : !strncmp(v, "all", 3) ? VPERF_PMU_ALL
					 : VPERF_PMU_OFF;
}

static void parse_part(struct vm_config *c, const char *v)
{
	c->part = !strncmp(v, "direct", 6)     ? VPERF_PART_DIRECT
		  : !strncmp(v, "emulated", 8) ? VPERF_PART_EMULATED
					       : VPERF_PART_TRAPPED;
}

static void parse_deny(struct vm_config *c, const char *v)
{
	const char *end;

	c->nr_deny = 0;
	while (c->nr_deny < sizeof(c->deny) / sizeof(c->deny[0])) {
		c->deny[c->nr_deny] = (uint32_t)parse_u64(v, &end);
		if (end == v)
			break;
		c->nr_deny++;
		if (*end != '+')
			break;
		v = end + 1;
	}
}

static void parse_vm_key(struct vm_config *c, const char *k)
{
	const char *v;

	if (starts(k, "img=", &v))
		c->image = (int)parse_u64(v, NULL);
	else if (starts(k, "initrd=", &v))
		c->initrd = (int)parse_u64(v, NULL);
	else if (starts(k, "pmu=", &v))
		parse_pmu(c, v);
	else if (starts(k, "part=", &v))
		parse_part(c, v);
	else if (starts(k, "n=", &v))
		c->counters = (unsigned int)parse_u64(v, NULL);
	else if (starts(k, "deny=", &v))
		parse_deny(c, v);
	else if (starts(k, "slots=", &v))
		c->emu_slots = (unsigned int)parse_u64(v, NULL);
	else if (starts(k, "cpus=", &v))
		c->vcpus = (unsigned int)parse_u64(v, NULL);
	else if (starts(k, "mem=", &v))
		c->mem = parse_u64(v, NULL) << 20;
	else if (starts(k, "spe", &v))
		spe_parse(c, v);
	else if (starts(k, "cntvoff=", &v))
		c->cntvoff = parse_u64(v, NULL);
	else if (starts(k, "s2=", &v))
		c->s2_lazy = !strncmp(v, "lazy", 4);
	else if (starts(k, "uart=", &v))
		c->uart_passthrough = !strncmp(v, "pt", 2);
	else if (starts(k, "expect=", &v))
		c->expect_refused = !strncmp(v, "refused", 7);
	else if (starts(k, "args=", &v))
		c->args_too_long = !copy_arg(c->args, sizeof(c->args), v);
}

static void parse_token(const char *t)
{
	const char *v;

	if (starts(t, "slice_us=", &v)) {
		uint64_t us = parse_u64(v, NULL);

		if (us < SLICE_US_MIN) {
			hyp_log("slice_us=%lu: below %u us, %u us used", us, SLICE_US_MIN,
				SLICE_US_MIN);
			us = SLICE_US_MIN;
		}
		hyp.slice_ticks = us * (read_sysreg(cntfrq_el0) / 1000000);
	} else if (starts(t, "host_counters=", &v)) {
		hyp.host_counters = (unsigned int)parse_u64(v, NULL);
	} else if (starts(t, "mutant=", &v)) {
		hyp.mutant = !strncmp(v, "no-trap", 7)		  ? MUT_NO_TRAP
			     : !strncmp(v, "no-put", 6)		  ? MUT_NO_PUT
			     : !strncmp(v, "no-irq", 6)		  ? MUT_NO_IRQ
			     : !strncmp(v, "passthrough", 11)	  ? MUT_PASSTHROUGH
			     : !strncmp(v, "no-s2map", 8)	  ? MUT_NO_S2MAP
			     : !strncmp(v, "same-context", 12)	  ? MUT_SAME_CONTEXT
			     : !strncmp(v, "hpmn-unenforced", 15) ? MUT_HPMN_UNENFORCED
								  : MUT_NONE;
		hyp_log("MUTANT %u: a deliberately broken integration", hyp.mutant);
	} else if (starts(t, "hpmn_expect=", &v)) {
		hyp.hpmn_expect = parse_u64(v, NULL) != 0;
	} else if (starts(t, "pcpus=", &v)) {
		hyp.nr_pcpus = (unsigned int)parse_u64(v, NULL);
		if (hyp.nr_pcpus < 1 || hyp.nr_pcpus > MAX_PCPUS)
			hyp_panic("pcpus=%u: 1 to %u", hyp.nr_pcpus, MAX_PCPUS);
	} else if (starts(t, "migrate_every=", &v)) {
		hyp.migrate_every = (unsigned int)parse_u64(v, NULL);
	} else if (starts(t, "s2_scrub=", &v)) {
		hyp.s2_scrub = (unsigned int)parse_u64(v, NULL);
	} else if (starts(t, "bench=", &v)) {
		hyp.bench = parse_u64(v, NULL) != 0;
	} else if (starts(t, "loglevel=", &v)) {
		hyp.loglevel = (enum vperf_log_level)parse_u64(v, NULL);
	} else if (t[0] == 'v' && t[1] == 'm' && t[2] >= '0' && t[2] < '0' + MAX_VMS &&
		   t[3] == '.') {
		unsigned int i = (unsigned int)(t[2] - '0');

		parse_vm_key(&hyp.vms[i].cfg, t + 4);
		if (i + 1 > hyp.nr_vms)
			hyp.nr_vms = i + 1;
	}
}

const char *pmu_mode_name(enum vperf_pmu_mode mode)
{
	return mode == VPERF_PMU_OFF	? "OFF"
	       : mode == VPERF_PMU_SELF ? "SELF"
	       : mode == VPERF_PMU_HV	? "HV"
	       : mode == VPERF_PMU_ALL	? "ALL"
					: "?";
}

void vm_parse_args(const char *args)
{
	hyp.slice_ticks = read_sysreg(cntfrq_el0) / 1000; /* 1 ms */
	hyp.host_counters = 2;
	hyp.nr_pcpus = 1;
	hyp.hpmn_expect = -1;
	for (unsigned int i = 0; i < MAX_VMS; i++) {
		struct vm_config *c = &hyp.vms[i].cfg;

		c->image = -1;
		c->initrd = -1;
		c->vcpus = 1;
		c->counters = 2;
		c->mem = 64ull << 20;
	}
	while (*args) {
		while (*args == ' ')
			args++;
		if (*args)
			parse_token(args);
		while (*args && *args != ' ')
			args++;
	}
}

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
