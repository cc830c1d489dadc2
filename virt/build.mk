# virt/: the virtualization logic, identical source for every ARCH.
lib-y += virt/esr.c virt/trap.c virt/core.c virt/log.c virt/fmt.c
lib-$(CONFIG_VPERF_VPMU) += virt/vpmu_regs.c virt/vpmu_switch.c virt/vpmu_filter.c virt/vpmu_irq.c \
	virt/vpmu_blob.c virt/vpmu_map.c
lib-$(CONFIG_VPERF_VSPE) += virt/vspe_regs.c virt/vspe_switch.c virt/vspe_irq.c \
	virt/vspe_buffer.c virt/vspe_host.c virt/vspe_outside.c virt/vspe_blob.c
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

