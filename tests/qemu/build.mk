# tests/qemu: the reference EL2 hypervisor and the guest payloads, run under qemu-system-aarch64.
#   qemu-images   hypervisor + payloads into $(O)/qemu/ (links the arm64 vperf of $(O)/qemu-lib),
#                 and the hypervisor of each vperf mutant (tests/mutants: vperf-hyp-NAME.bin)
#   qemu-check    every configuration of tests/qemu/configs through the runner; one result line
#                 per configuration in $(results); closes with 'N passed, N failed'
#   qemu-run      the demo: two guests time-sliced on one pCPU, each measuring itself, then two
#                 Linux guests profiling themselves with SPE through vperf (make run)
#   qemu-bench    -icount shift=0 runs: EL2 instructions per trapped access, per vCPU switch and
#                 from PMUIRQ entry to the list-register write, vSPE switches with SPE active
#                 and the records lost across them (fails if one is); writes
#                 the QEMU section of $(O)/bench/performance.md (BENCH_UPDATE_DOCS=1: docs/)
#   qemu-linux, qemu-linux-check   the Linux guest (tests/qemu/linux/build.mk)
#   qemu-spe-check  the FEAT_SPE smoke test of tests/qemu/spe (QEMU= the patched QEMU)
#   efi           the hypervisor as a UEFI application, $(O)/qemu/vperf-hyp.efi (docs/uefi.md);
#                 qemu-images builds it too (the efi configurations boot it)
#   efi-stick     a FAT image for a USB stick: the application, EFI_CONFIG's command line and images
# Needs scripts/deps.sh qemu (QEMU, the cross compiler, libfdt for arm64, Xen's headers).

qemu-out := $(obj)/qemu
qemu-lib := $(obj)/qemu-lib/libvperf.a
QEMU_LIBFDT ?= /opt/vperf/libfdt-arm64
qemu-fdt-lib := $(QEMU_LIBFDT)/usr/lib/aarch64-linux-gnu/libfdt.a
qemu-cc := $(CROSS_COMPILE)gcc
qemu-src := $(srctree)/tests/qemu

# EL2 and EL1 code alike: freestanding, no FP/SIMD in our own code (the guest's registers live
# there at EL2; libfdt.a may use them and runs only at boot, before any guest), no PIC.
qemu-cflags := -std=c11 $(WARN) -O2 -g -ffreestanding -nostdlib -mgeneral-regs-only \
	-fno-stack-protector -fno-pic -fno-pie -fno-asynchronous-unwind-tables -mstrict-align \
	-fno-common -MMD -MP -D__XEN_TOOLS__ -I$(QEMU_LIBFDT)/usr/include -isystem $(qemu-out)/include
qemu-hyp-cflags := $(qemu-cflags) -I$(srctree)/include -I$(obj)/qemu-lib/include \
	-include $(obj)/qemu-lib/include/generated/vperf/autoconf.h
qemu-ldflags := -nostdlib -static -no-pie -Wl,--build-id=none -Wl,-z,noexecstack \
	-Wl,--no-warn-rwx-segments

qemu-lib-src := lib/string.c lib/printf.c lib/uart.c
qemu-hyp-src := hyp/head.S hyp/vectors.S hyp/main.c hyp/gic.c hyp/vgic.c hyp/vgic_mmio.c \
	hyp/vcpu.c hyp/sched.c hyp/trap.c hyp/psci.c hyp/vuart.c hyp/mm.c hyp/vm.c hyp/vm_args.c \
	hyp/guest_dt.c hyp/pmu_host.c hyp/pmu_bench.c hyp/hpmn_probe.c hyp/hpmn_stub.S hyp/spe.c hyp/spe_outside.c $(qemu-lib-src)
qemu-guest-common := guest/head.S guest/rt.c guest/gic.c guest/dt.c guest/pmu.c guest/util.c \
	guest/smp.c $(qemu-lib-src)
qemu-guests := pmu-suite demo spe-smoke spe-nspb
pmu-suite-src := $(qemu-guest-common) guest/suite.c guest/suite_irq.c guest/suite_iso.c \
	guest/suite_iso_cross.c guest/suite_timer.c guest/suite_kept.c guest/suite_mux.c guest/suite_el2.c guest/suite_spe.c guest/suite_spe_iso.c \
	guest/suite_traps.c guest/suite_el0.c guest/bench.c guest/bench_spe.c guest/cost.c \
	guest/switch_cost.c
demo-src := $(qemu-guest-common) guest/demo.c
# FEAT_SPE smoke test of the project's QEMU (tests/qemu/spe/smoke.sh): its own EL2 entry, and
# spe-nspb, firmware started at EL3 (-bios) for the MDCR_EL3.NSPB rules.
spe-smoke-src := spe/head.S spe/smoke.c spe/smoke_regs.c spe/smoke_sampling.c \
	spe/smoke_buffer.c spe/smoke_completion.c spe/smoke_records.c spe/smoke_result.c \
	$(qemu-lib-src)
spe-nspb-src := spe/el3_head.S spe/nspb.c spe/nspb_lower.S spe/smoke_records.c spe/smoke_result.c \
	$(qemu-lib-src)

qemu-obj = $(patsubst %,$(qemu-out)/obj/$(1)/%.o,$(basename $(2)))

$(qemu-out)/include/xen:
	@mkdir -p $(@D)
	$(Q)test -f /usr/include/xen/arch-arm.h || { echo "libxen-dev missing: scripts/deps.sh qemu" >&2; exit 1; }
	$(Q)ln -sfn /usr/include/xen $@

qemu-deps:
	$(Q)$(srctree)/scripts/deps.sh build qemu

$(qemu-lib): qemu-deps
	$(Q)test -f $(obj)/qemu-lib/.config || $(sub) O=$(O)/qemu-lib ARCH=arm64 defconfig
	$(Q)$(sub) O=$(O)/qemu-lib all
qemu-lib: $(qemu-lib)

# Hypervisor objects see vperf's headers and the arm64 library's configuration.
$(qemu-out)/obj/hyp/%.o: $(qemu-src)/%.c | $(qemu-lib) $(qemu-out)/include/xen
	@mkdir -p $(@D)
	@echo "  CC      qemu/hyp/$*.c"
	$(Q)$(qemu-cc) $(qemu-hyp-cflags) -c $< -o $@
$(qemu-out)/obj/hyp/%.o: $(qemu-src)/%.S
	@mkdir -p $(@D)
	@echo "  AS      qemu/hyp/$*.S"
	$(Q)$(qemu-cc) $(qemu-cflags) -c $< -o $@
$(qemu-out)/obj/guest/%.o: $(qemu-src)/%.c | $(qemu-out)/include/xen qemu-deps
	@mkdir -p $(@D)
	@echo "  CC      qemu/guest/$*.c"
	$(Q)$(qemu-cc) $(qemu-cflags) -c $< -o $@
$(qemu-out)/obj/guest/%.o: $(qemu-src)/%.S
	@mkdir -p $(@D)
	@echo "  AS      qemu/guest/$*.S"
	$(Q)$(qemu-cc) $(qemu-cflags) -c $< -o $@

$(qemu-out)/vperf-hyp.elf: $(call qemu-obj,hyp,$(qemu-hyp-src)) $(qemu-lib) $(qemu-src)/hyp/hyp.lds
	@echo "  LD      qemu/vperf-hyp.elf"
	$(Q)$(qemu-cc) $(qemu-ldflags) -T $(qemu-src)/hyp/hyp.lds \
		$(call qemu-obj,hyp,$(qemu-hyp-src)) $(qemu-lib) $(qemu-fdt-lib) -lgcc -o $@

# vperf mutants (tests/mutants/NAME.patch: vperf with a fixed defect brought back,
# scripts/vperf-mutant.sh): the hypervisor linked with the mutated arm64 library, booted by the
# configurations with vperf-mutant=NAME (must-fail). The library is rebuilt at every call (the
# copy is refreshed from the tree), recompiling what changed only.
qemu-vperf-mutants := $(patsubst $(srctree)/tests/mutants/%.patch,%,\
	$(wildcard $(srctree)/tests/mutants/*.patch))
qemu-mutant-lib = $(obj)/qemu-mutant/$(1)/build/libvperf.a

define qemu_mutant_rule
$(call qemu-mutant-lib,$(1)): qemu-mutant-refresh | qemu-deps
	@echo "  MUTANT  $(1) ($(O)/qemu-mutant/$(1))"
	$(Q)msrc=$$$$($(srctree)/scripts/vperf-mutant.sh $(srctree) $(1) $(obj)/qemu-mutant/$(1)) && \
	  { test -f $(obj)/qemu-mutant/$(1)/build/.config || \
	    $(MAKE) -f $$$$msrc/Makefile O=$(obj)/qemu-mutant/$(1)/build ARCH=arm64 defconfig >/dev/null; } && \
	  $(MAKE) -f $$$$msrc/Makefile O=$(obj)/qemu-mutant/$(1)/build all >/dev/null
$(qemu-out)/vperf-hyp-$(1).elf: $(call qemu-obj,hyp,$(qemu-hyp-src)) $(call qemu-mutant-lib,$(1)) \
		$(qemu-src)/hyp/hyp.lds
	@echo "  LD      qemu/vperf-hyp-$(1).elf"
	$(Q)$(qemu-cc) $(qemu-ldflags) -T $(qemu-src)/hyp/hyp.lds \
		$(call qemu-obj,hyp,$(qemu-hyp-src)) $(call qemu-mutant-lib,$(1)) $(qemu-fdt-lib) -lgcc -o $$@
endef
$(foreach m,$(qemu-vperf-mutants),$(eval $(call qemu_mutant_rule,$(m))))
qemu-mutant-refresh:

define qemu_guest_rule
$(qemu-out)/$(1).elf: $(call qemu-obj,guest,$($(1)-src)) $(qemu-src)/guest/guest.lds
	@echo "  LD      qemu/$(1).elf"
	$(Q)$(qemu-cc) $(qemu-ldflags) -T $(qemu-src)/guest/guest.lds \
		$(call qemu-obj,guest,$($(1)-src)) $(qemu-fdt-lib) -lgcc -o $$@
endef
$(foreach g,$(qemu-guests),$(eval $(call qemu_guest_rule,$(g))))

$(qemu-out)/%.bin: $(qemu-out)/%.elf
	$(Q)$(CROSS_COMPILE)objcopy -O binary $< $@

# The suite as a raw image, without the arm64 Image header's magic (bytes 56-59 zeroed): how
# QEMU and the hypervisor load an image that is not a Linux Image (docs/qemu.md).
$(qemu-out)/pmu-suite-raw.bin: $(qemu-out)/pmu-suite.bin
	$(Q)cp $< $@ && printf '\000\000\000\000' | dd of=$@ bs=1 seek=56 conv=notrunc status=none

qemu-images: $(qemu-out)/vperf-hyp.bin $(qemu-out)/vperf-hyp.efi $(patsubst %,$(qemu-out)/%.bin,$(qemu-guests)) \
	$(qemu-out)/pmu-suite-raw.bin $(patsubst %,$(qemu-out)/vperf-hyp-%.bin,$(qemu-vperf-mutants))

# The hypervisor as a UEFI application (docs/uefi.md): tests/qemu/efi with the raw image
# vperf-hyp.bin inside, built the way Debian's gnu-efi for arm64 builds an application (its
# crt0-efi-aarch64.o carries the PE/COFF header and self-relocates; elf_aarch64_efi.lds; a
# position-independent shared object copied out as a flat binary). libfdt for the device tree;
# lib/string.c for what libfdt needs, but memcpy and memset, which gnu-efi's libefi.a defines;
# lib/printf.c and lib/uart.c for its lines after ExitBootServices (no firmware console then).
QEMU_GNUEFI ?= /opt/vperf/gnu-efi-arm64
qemu-efi-inc := $(QEMU_GNUEFI)/usr/include/efi
qemu-efi-cflags := -std=c11 $(WARN) -O2 -g -ffreestanding -fpic -fshort-wchar \
	-fno-stack-protector -fno-strict-aliasing -mgeneral-regs-only -MMD -MP \
	-isystem $(qemu-efi-inc) -isystem $(qemu-efi-inc)/aarch64 -isystem $(qemu-efi-inc)/protocol \
	-I$(QEMU_LIBFDT)/usr/include
qemu-efi-obj := $(qemu-out)/obj/efi/efi_main.o $(qemu-out)/obj/efi/efi_acpi.o \
	$(qemu-out)/obj/efi/efi_enter.o $(qemu-out)/obj/efi/string.o $(qemu-out)/obj/efi/printf.o \
	$(qemu-out)/obj/efi/uart.o

qemu-efi-deps:
	$(Q)$(srctree)/scripts/deps.sh build qemu efi

$(qemu-out)/obj/efi/efi_%.o: $(qemu-src)/efi/efi_%.c | qemu-efi-deps
	@mkdir -p $(@D)
	@echo "  CC      qemu/efi/efi_$*.c"
	$(Q)$(qemu-cc) $(qemu-efi-cflags) -c $< -o $@
$(qemu-out)/obj/efi/efi_enter.o: $(qemu-src)/efi/efi_enter.S $(qemu-out)/vperf-hyp.bin
	@mkdir -p $(@D)
	@echo "  AS      qemu/efi/efi_enter.S"
	$(Q)$(qemu-cc) -c -DHYP_IMAGE='"$(qemu-out)/vperf-hyp.bin"' $< -o $@
$(qemu-out)/obj/efi/string.o: $(qemu-src)/lib/string.c | qemu-efi-deps
	@mkdir -p $(@D)
	@echo "  CC      qemu/efi/string.c"
	$(Q)$(qemu-cc) $(qemu-efi-cflags) -Dmemcpy=qemu_lib_memcpy -Dmemset=qemu_lib_memset -c $< -o $@
$(qemu-out)/obj/efi/printf.o $(qemu-out)/obj/efi/uart.o: $(qemu-out)/obj/efi/%.o: \
		$(qemu-src)/lib/%.c | qemu-efi-deps
	@mkdir -p $(@D)
	@echo "  CC      qemu/efi/$*.c"
	$(Q)$(qemu-cc) $(qemu-efi-cflags) -c $< -o $@
$(qemu-out)/vperf-hyp.so: $(qemu-efi-obj)
	@echo "  LD      qemu/vperf-hyp.so"
	$(Q)$(CROSS_COMPILE)ld -nostdlib --no-undefined --build-id=sha1 -shared -Bsymbolic \
		-z noexecstack --no-warn-rwx-segments -T $(QEMU_GNUEFI)/usr/lib/elf_aarch64_efi.lds --defsym=EFI_SUBSYSTEM=0xa \
		$(QEMU_GNUEFI)/usr/lib/crt0-efi-aarch64.o $(qemu-efi-obj) \
		-L$(QEMU_GNUEFI)/usr/lib -lefi -lgnuefi $(qemu-fdt-lib) -o $@
$(qemu-out)/vperf-hyp.efi: $(qemu-out)/vperf-hyp.so
	@echo "  EFI     qemu/vperf-hyp.efi"
	$(Q)$(CROSS_COMPILE)objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
		-j .rela -j '.rel.*' -j '.rela.*' -j .reloc -O binary $< $@

efi: $(qemu-out)/vperf-hyp.efi
	@echo "$(abspath $(qemu-out)/vperf-hyp.efi)"

# A boot volume for a USB stick: the application, configuration EFI_CONFIG's command line and
# images (tests/qemu/efi/mkstick.sh; a Linux configuration needs make qemu-linux first).
EFI_CONFIG ?= efi-self-1vm
efi-stick: qemu-images
	$(Q)QEMU_OUT=$(qemu-out) $(qemu-src)/efi/mkstick.sh $(qemu-out)/vperf-efi-$(EFI_CONFIG).img \
		$(EFI_CONFIG)

qemu-runner := $(qemu-src)/run.sh
qemu-env = QEMU_OUT=$(qemu-out) QEMU_RESULTS=$(results) VPERF_SPE=$(obj)/host/bin/vperf-spe

qemu-check: qemu-images qemu-linux $(obj)/host/bin/vperf-spe
	$(Q)$(qemu-env) $(qemu-runner) check

qemu-run: qemu-images qemu-linux
	$(Q)$(qemu-env) $(qemu-runner) demo

# Its tables go into the generated section of QEMU_BENCH_OUT: by default $(O)/bench/performance.md
# (a copy of docs/performance.md when it does not exist yet), docs/performance.md itself with
# BENCH_UPDATE_DOCS=1 (tools/bench/build.mk).
QEMU_BENCH_OUT ?= $(if $(BENCH_UPDATE_DOCS),$(srctree)/docs/performance.md,$(obj)/bench/performance.md)
qemu-bench: qemu-images
	$(Q)test -f $(QEMU_BENCH_OUT) || { mkdir -p $(dir $(QEMU_BENCH_OUT)) && \
		cp $(srctree)/docs/performance.md $(QEMU_BENCH_OUT); }
	$(Q)$(qemu-env) $(qemu-runner) bench $(QEMU_BENCH_OUT)

# FEAT_SPE smoke test of the project's QEMU (-cpu max,spe=on; QEMU=path runs another binary).
qemu-spe-check: $(qemu-out)/spe-smoke.bin $(qemu-out)/spe-nspb.bin $(obj)/host/bin/vperf-spe
	$(Q)QEMU=$${QEMU:-$$($(srctree)/platform/qemu/build.sh)} \
		$(qemu-src)/spe/smoke.sh $(qemu-out)/spe-smoke.bin $(obj)/host/bin/vperf-spe \
		$(qemu-out)/spe-nspb.bin

include $(qemu-src)/linux/build.mk

.PHONY: qemu-images qemu-check qemu-run qemu-bench qemu-deps qemu-lib qemu-spe-check \
	qemu-mutant-refresh qemu-efi-deps efi efi-stick

-include $(shell find $(qemu-out)/obj -name '*.d' 2>/dev/null)
