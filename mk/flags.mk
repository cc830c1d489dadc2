# Compilers and flags. The strict warning set applies to every C file vperf owns; -Wconversion
# applies to the library (lib/, virt/, arch/), where a silent truncation of a guest value is a bug.

HOSTCC ?= gcc
CROSS_COMPILE ?= aarch64-linux-gnu-
SANITIZE ?= 0

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wmissing-declarations -Wold-style-definition -Wpointer-arith -Wcast-align -Wcast-qual \
	-Wwrite-strings -Wundef -Wvla -Wformat=2 -Wimplicit-fallthrough -Wnull-dereference \
	-Wredundant-decls -Wswitch-default -Wfloat-equal
LIB_WARN := -Wconversion -Wsign-conversion

INCLUDES := -I$(srctree)/include -I$(srctree)/arch/$(ARCH)/include -I$(obj)/include \
	-include $(autoconf-h)
BASE_CFLAGS := -std=c11 $(WARN) -O2 -g -fno-common -MMD -MP

ifeq ($(ARCH),arm64)
  CC := $(CROSS_COMPILE)gcc
  AR := $(CROSS_COMPILE)ar
  NM := $(CROSS_COMPILE)nm
  # EL2 code: no libc, no FP/SIMD registers (the guest's live in them), no red zone games.
  ARCH_CFLAGS := -ffreestanding -nostdlib -mgeneral-regs-only -fno-stack-protector \
	-fno-pic -fno-asynchronous-unwind-tables -fno-omit-frame-pointer
else
  CC := $(HOSTCC)
  AR := ar
  NM := nm
  ARCH_CFLAGS := -D_DEFAULT_SOURCE
  ifeq ($(SANITIZE),1)
    SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
  endif
endif

# KCFLAGS: extra flags for the library only, e.g. the ABI flags of the hypervisor that links it
# (integrations/xen builds it with Xen's: -mcpu=generic -mno-outline-atomics ...).
KCFLAGS ?=
CFLAGS_LIB := $(BASE_CFLAGS) $(LIB_WARN) $(ARCH_CFLAGS) $(SAN_FLAGS) $(INCLUDES) $(KCFLAGS)
CFLAGS_TEST := $(BASE_CFLAGS) $(SAN_FLAGS) $(INCLUDES) -D_DEFAULT_SOURCE
LDFLAGS_TEST := $(SAN_FLAGS)
# Host programs (tools/) are always built for the build machine, whatever ARCH is; they compile
# freestanding-clean library sources (e.g. the SPE codec) again for the host.
HOST_CFLAGS := -std=c11 $(WARN) -O2 -g -MMD -MP -D_DEFAULT_SOURCE -I$(srctree)/include \
	-I$(srctree)/arch/sim/include -I$(obj)/include -include $(autoconf-h)
