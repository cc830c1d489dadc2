# virt/: the virtualization logic, identical source for every ARCH, over lib/. In three layers,
# each calling only the ones below it:
#   entry points  pcpu.c, policy.c, vcpu.c, trap.c, blob.c, fdt.c, xen_abi.c: the public API;
#   features      vpmu/ and vspe/ (their own vpmu.h, vspe.h);
#   base          platform, mdcr, fgt, log, fmt, esr (each a .c with its .h), ops.h, vm_config.h
#                 (what a VM's policy gives it) and access.h (a trapped access as a handler
#                 sees it).
# The features call the base (the ops, the platform, MDCR_EL2 recomputed when their trap state
# changes, the log) and never an entry point; the base calls no feature.
lib-y += virt/platform.c virt/mdcr.c virt/fgt.c virt/log.c virt/fmt.c virt/esr.c \
	virt/pcpu.c virt/policy.c virt/vcpu.c virt/trap.c
lib-$(CONFIG_VPERF_VPMU) += virt/vpmu/caps.c virt/vpmu/regs.c virt/vpmu/swinc.c \
	virt/vpmu/switch.c virt/vpmu/counters.c virt/vpmu/irq.c virt/vpmu/filter.c virt/vpmu/map.c virt/vpmu/fgt.c \
	virt/vpmu/blob.c virt/vpmu/second.c virt/vpmu/host_pmcr.c
lib-$(CONFIG_VPERF_VSPE) += virt/vspe/regs.c virt/vspe/switch.c virt/vspe/irq.c \
	virt/vspe/buffer.c virt/vspe/event.c virt/vspe/action.c virt/vspe/host.c virt/vspe/outside.c \
	virt/vspe/blob.c
# One blob for both versions: a VM with a vPMU, a vSPE or both saves and restores its state.
ifneq ($(CONFIG_VPERF_VPMU)$(CONFIG_VPERF_VSPE),)
lib-y += virt/blob.c
endif
lib-$(CONFIG_VPERF_XEN_ABI) += virt/xen_abi.c
lib-$(CONFIG_VPERF_FDT) += virt/fdt.c

# Xen's public headers need -std=gnu11 and __XEN_TOOLS__ (domctl.h); they are reached through a
# link so that no other system header enters the freestanding build.
CFLAGS_xen_abi := -std=gnu11 -D__XEN_TOOLS__ -isystem $(obj)/include/xenabi
XEN_INCLUDE ?= /usr/include/xen
$(obj)/virt/xen_abi.o: $(obj)/include/xenabi/xen
$(obj)/include/xenabi/xen:
	@mkdir -p $(@D)
	$(Q)test -f $(XEN_INCLUDE)/pmu.h || { echo "libxen-dev missing: make deps" >&2; exit 1; }
	$(Q)ln -sfn $(XEN_INCLUDE) $@

