# vperf: one non-recursive Makefile. Every directory contributes a build.mk fragment that adds to
# the lists below (Kbuild style: lib-$(CONFIG_X) += file.c); this file only holds the rules.
# All output goes to $(O) (default: build/), never into the source tree. `make help` lists targets.

srctree := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
O ?= build
obj := $(abspath $(O))

.DEFAULT_GOAL := all
MAKEFLAGS += --no-builtin-rules --no-print-directory
.SUFFIXES:
.DELETE_ON_ERROR:
Q := $(if $(V),,@)

# ---- configuration (kconfig-frontends) --------------------------------------------------------
# The generated header is include/generated/vperf/autoconf.h under $(O), not the usual
# generated/autoconf.h: a hypervisor that includes vperf's headers has a header of that name
# of its own, which would shadow vperf's (include/vperf/config.h includes this one).
autoconf-h := $(obj)/include/generated/vperf/autoconf.h
KCONFIG_ENV := KCONFIG_CONFIG=.config KCONFIG_AUTOHEADER=include/generated/vperf/autoconf.h \
	srctree=$(srctree)
kconf = cd $(obj) && $(KCONFIG_ENV) kconfig-$(1) $(2) $(srctree)/Kconfig

config_goals := defconfig menuconfig olddefconfig savedefconfig help deps clean distclean check-fresh \
		format format-check format-test check bench run demo qemu-check qemu-images \
		qemu-run qemu-bench qemu-deps qemu-lib qemu-linux qemu-linux-check mutate xen-check xen-build \
		qemu-path qemu-key kvm-kernel kvm-path kvm-key kvm-each kvm-checkpatch kvm-boot \
		kvm-guest kvm-selftest kvm-check
ifeq ($(filter-out $(config_goals),$(MAKECMDGOALS)),)
  skip_config := $(MAKECMDGOALS)
endif

ifeq ($(skip_config),)
  -include $(obj)/include/config/auto.conf
endif

ARCH_FROM_CONFIG := $(if $(CONFIG_VPERF_ARCH_ARM64),arm64,$(if $(CONFIG_VPERF_ARCH_SIM),sim))
ARCH ?= $(or $(ARCH_FROM_CONFIG),sim)
ifneq ($(ARCH_FROM_CONFIG),)
  ifneq ($(ARCH),$(ARCH_FROM_CONFIG))
    ifeq ($(filter defconfig,$(MAKECMDGOALS)),)
      $(error $(O)/.config is for ARCH=$(ARCH_FROM_CONFIG); run 'make defconfig ARCH=$(ARCH)')
    endif
  endif
endif

# scripts/deps.sh's table says which groups each target needs; a target asks for its own.
deps_for = $(Q)$(srctree)/scripts/deps.sh $(1)
DEPS ?= build
deps:
	$(call deps_for,$(DEPS))

$(obj)/include/config $(obj)/include/generated/vperf:
	$(Q)mkdir -p $@

DEFCONFIG ?= $(ARCH)_defconfig
defconfig: deps | $(obj)/include/config $(obj)/include/generated/vperf
	$(Q)$(call kconf,conf,--defconfig=$(srctree)/configs/$(DEFCONFIG)) >/dev/null
	$(Q)$(call kconf,conf,--silentoldconfig)
	@echo "  CONFIG  $(O)/.config from configs/$(DEFCONFIG)"

olddefconfig: deps | $(obj)/include/config $(obj)/include/generated/vperf
	$(Q)$(call kconf,conf,--olddefconfig)

menuconfig: deps | $(obj)/include/config $(obj)/include/generated/vperf
	$(Q)$(call kconf,mconf,)

savedefconfig: deps
	$(Q)$(call kconf,conf,--savedefconfig=$(obj)/defconfig)
	@echo "  SAVE    $(O)/defconfig (copy it to configs/ to keep it)"

# No .config yet: start from the ARCH's defconfig so a plain `make` works on a fresh clone.
$(obj)/.config:
	$(Q)$(MAKE) -f $(srctree)/Makefile O=$(O) ARCH=$(ARCH) defconfig

$(obj)/include/config/auto.conf $(autoconf-h): $(obj)/.config $(srctree)/Kconfig \
		| $(obj)/include/config $(obj)/include/generated/vperf
	$(Q)$(call kconf,conf,--silentoldconfig)

# ---- toolchain and flags ----------------------------------------------------------------------
include $(srctree)/mk/flags.mk

# ---- the fragments ----------------------------------------------------------------------------
lib-y :=
host-lib-y :=
hostprogs-y :=
simprogs-y :=
tests-y :=
test-extra-y :=
include $(srctree)/lib/build.mk
include $(srctree)/virt/build.mk
include $(srctree)/arch/$(ARCH)/build.mk
include $(srctree)/tools/build.mk
include $(srctree)/tests/unit/build.mk
-include $(srctree)/tests/qemu/build.mk
-include $(srctree)/integrations/xen/build.mk
-include $(srctree)/integrations/kvm/build.mk
-include $(srctree)/tests/validate/build.mk
include $(srctree)/platform/qemu/build.mk

# ---- rules ------------------------------------------------------------------------------------
include $(srctree)/mk/rules.mk

all: $(obj)/libvperf.a $(if $(CONFIG_VPERF_ARCH_SIM),$(tests-bin) $(simprogs-bin)) $(hostprogs-bin)

clean:
	$(Q)rm -rf $(obj)/lib $(obj)/virt $(obj)/arch $(obj)/tests $(obj)/host $(obj)/tools $(obj)/libvperf.a

distclean:
	$(Q)rm -rf $(obj)

include $(srctree)/mk/targets.mk

.PHONY: all deps defconfig olddefconfig menuconfig savedefconfig clean distclean
