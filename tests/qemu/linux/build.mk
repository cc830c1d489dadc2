# tests/qemu/linux: a Debian arm64 kernel booted as a guest, with an initramfs whose static /init
# checks perf_event_open(2) counts and samples through the (v)PMU (docs/qemu.md, "The Linux
# guest"). Included by tests/qemu/build.mk.
#   qemu-linux        the kernel (scripts/deps.sh linux unpacks it into $(QEMU_LINUX)) and the
#                     initramfs, as $(qemu-out)/linux.bin and linux-initrd.bin for the runner
#   qemu-linux-check  only the Linux configurations of tests/qemu/configs.txt
# The kernel stays outside the tree: linux.bin is a symbolic link to the unpacked Image.

QEMU_LINUX ?= /opt/vperf/linux-arm64
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

qemu-linux: $(qemu-out)/linux-initrd.bin | qemu-linux-deps
	@mkdir -p $(qemu-out)
	$(Q)ln -sfn $(QEMU_LINUX)/Image $(qemu-out)/linux.bin

qemu-linux-check: qemu-images qemu-linux
	$(Q)$(qemu-env) $(qemu-runner) check linux

.PHONY: qemu-linux qemu-linux-check qemu-linux-deps
