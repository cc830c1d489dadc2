# platform/qemu: the project's QEMU, built from Debian's QEMU 10 source with the patch series of
# platform/qemu/patches (docs/platform-qemu.md). Every QEMU run of the project uses it:
# tests/qemu/run.sh and integrations/xen/check.sh ask platform/qemu/build.sh for the binary,
# which builds it once per machine into a cache outside the clone (QEMU_CACHE, default
# /var/cache/vperf/qemu) keyed by the source version and a hash of the series.
#   qemu-path    print the path of qemu-system-aarch64 (building it when missing)
#   qemu-key     print the cache key <version>-<hash>
# QEMU=/path/to/qemu-system-aarch64 on the command line runs the suites on another binary.

qemu-platform := $(srctree)/platform/qemu

qemu-path:
	$(Q)$(qemu-platform)/build.sh

qemu-key:
	$(Q)$(qemu-platform)/build.sh --key

.PHONY: qemu-path qemu-key
