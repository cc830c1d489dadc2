# tests/qemu/linux: a Debian arm64 kernel booted as a guest, with an initramfs whose static /init
# checks perf_event_open(2) counts and samples through the (v)PMU (docs/qemu.md, "The Linux
# guest"). Included by tests/qemu/build.mk.
#   qemu-linux        the kernel (scripts/deps.sh linux unpacks it into $(QEMU_LINUX)) and the
#                     initramfs, as $(qemu-out)/linux.bin and linux-initrd.bin for the runner
#   qemu-linux-check  only the Linux configurations of tests/qemu/configs.txt
# The kernel stays outside the tree: linux.bin is a symbolic link to the unpacked Image.
# The perf guest's initramfs, linux-rootfs.bin: Debian's perf, its libraries and busybox (a tree
# mkrootfs.sh caches outside the tree, $(QEMU_LINUX_ROOTFS)), the kernel's SPE module, the
# workload and the two scripts (perf-init.sh as /init, spe.sh as vperf-spe-record: not the host
# decoder tools/vperf-spe).

QEMU_LINUX ?= /opt/vperf/linux-arm64
QEMU_LINUX_ROOTFS ?= /opt/vperf/linux-rootfs
# A normal Linux user program: the cross C library, linked statically, the repository's warnings.
qemu-linux-cflags := -std=c11 $(WARN) -O2 -g -static -MMD -MP

qemu-linux-deps:
	$(Q)VPERF_LINUX_ARM64=$(QEMU_LINUX) $(srctree)/scripts/deps.sh build qemu linux

$(qemu-out)/linux/init: $(qemu-src)/linux/init.c | qemu-linux-deps
	@mkdir -p $(@D) $(qemu-out)/obj/linux
	@echo "  CC      qemu/linux/init"
	$(Q)$(qemu-cc) $(qemu-linux-cflags) -MF $(qemu-out)/obj/linux/init.d -MT $@ $< -o $@

$(qemu-out)/linux-initrd.bin: $(qemu-out)/linux/init $(qemu-src)/linux/mkcpio.sh
	@echo "  CPIO    qemu/linux-initrd.bin"
	$(Q)$(qemu-src)/linux/mkcpio.sh $< $@

$(qemu-out)/linux/vperf-work: $(qemu-src)/linux/workload.c | qemu-linux-deps
	@mkdir -p $(@D) $(qemu-out)/obj/linux
	@echo "  CC      qemu/linux/vperf-work"
	$(Q)$(qemu-cc) $(qemu-linux-cflags) -MF $(qemu-out)/obj/linux/workload.d -MT $@ $< -o $@

# The same program linked 256 MiB higher (vperf-work-hi): a second SPE guest's workload whose
# samples cannot be taken for the first's (linux-spe-2vm, spe-iso.sh: disjoint text ranges).
$(qemu-out)/linux/vperf-work-hi: $(qemu-src)/linux/workload.c | qemu-linux-deps
	@mkdir -p $(@D) $(qemu-out)/obj/linux
	@echo "  CC      qemu/linux/vperf-work-hi"
	$(Q)$(qemu-cc) $(qemu-linux-cflags) -Wl,-Ttext-segment=0x10400000 \
		-MF $(qemu-out)/obj/linux/workload-hi.d -MT $@ $< -o $@

# The cached tree's path: mkrootfs.sh rewrites it (and asks apt) only when it names no cached
# tree, in a fresh build directory, so a new perf or busybox in the archive is seen there.
$(qemu-out)/linux/rootfs.path: qemu-linux-rootfs
	@:
qemu-linux-rootfs: | qemu-linux-deps
	@mkdir -p $(qemu-out)/linux
	$(Q)VPERF_LINUX_ROOTFS=$(QEMU_LINUX_ROOTFS) $(qemu-src)/linux/mkrootfs.sh $(qemu-out)/linux/rootfs.path

# The files built here, under their guest paths; the kernel's modules from $(QEMU_LINUX)/root.
$(qemu-out)/linux-rootfs.bin: $(qemu-out)/linux/rootfs.path $(qemu-out)/linux/vperf-work \
		$(qemu-out)/linux/vperf-work-hi $(qemu-src)/linux/spe-iso.sh \
		$(qemu-src)/linux/perf-init.sh $(qemu-src)/linux/spe.sh $(qemu-src)/linux/mkcpio.sh \
		$(qemu-src)/linux/mkrootfs.sh $(wildcard $(QEMU_LINUX)/version)
	@echo "  CPIO    qemu/linux-rootfs.bin"
	$(Q)rm -rf $(qemu-out)/linux/overlay && mkdir -p $(qemu-out)/linux/overlay/usr/bin
	$(Q)cp $(qemu-out)/linux/vperf-work $(qemu-out)/linux/vperf-work-hi \
		$(qemu-out)/linux/overlay/usr/bin/
	$(Q)cp $(qemu-src)/linux/spe-iso.sh $(qemu-out)/linux/overlay/usr/bin/vperf-spe-iso
	$(Q)cp $(qemu-src)/linux/spe.sh $(qemu-out)/linux/overlay/usr/bin/vperf-spe-record
	$(Q)$(qemu-src)/linux/mkcpio.sh $(qemu-src)/linux/perf-init.sh $@ \
		"$$(cat $(qemu-out)/linux/rootfs.path)" $(qemu-out)/linux/overlay $(QEMU_LINUX)/root

qemu-linux: $(qemu-out)/linux-initrd.bin $(qemu-out)/linux-rootfs.bin | qemu-linux-deps
	@mkdir -p $(qemu-out)
	$(Q)ln -sfn $(QEMU_LINUX)/Image $(qemu-out)/linux.bin

qemu-linux-check: qemu-images qemu-linux
	$(Q)$(qemu-env) $(qemu-runner) check linux

.PHONY: qemu-linux qemu-linux-check qemu-linux-deps qemu-linux-rootfs
