# integrations/xen: vperf inside Xen on Arm (docs/integration/xen.md).
#   xen-check   fetch Xen's source (Debian 12's package, cached in /var/cache/vperf/xen), apply
#               integrations/xen/patches, build vperf with Xen's flags and Xen (and the mutants),
#               boot every configuration of integrations/xen/configs.txt under QEMU; results in
#               $(results), last line "xen: N passed, N failed"
#   xen-build   only fetch, patch and build
# Not part of make check (it fetches a source package and builds a hypervisor): .ci/run runs it.

xen-out := $(obj)/xen
xen-env = XEN_OUT=$(xen-out) QEMU_OUT=$(qemu-out) QEMU_RESULTS=$(results)

xen-check: qemu-images qemu-linux
	$(call deps_for,build qemu xen)
	$(Q)$(xen-env) $(srctree)/integrations/xen/check.sh check

xen-build:
	$(call deps_for,build xen)
	$(Q)$(xen-env) $(srctree)/integrations/xen/check.sh build

.PHONY: xen-check xen-build
