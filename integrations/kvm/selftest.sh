#!/bin/sh
# KVM's own PMU selftest as a judge of the vperf backend: tools/testing/selftests/kvm's
# aarch64/vpmu_counter_access of the same kernel source (fetch.sh), cross-built static once per
# machine into the cache, run inside the project's KVM host (build.sh's Image under the
# project's QEMU, nVHE, kvm-arm.vperf=1) from make validate's kvm initramfs with the test added
# (tests/validate/debian/kvm-init.sh runs each vperf.selftest=NAME as /selftest/NAME). It
# creates VMs whose PMCR_EL0.N it sets through ONE_REG, from 0 to the most KVM offers (with
# vperf: the counters the host does not keep), and checks in the guest that the counters below
# N work and the ones above are refused; N above the limit must be refused by KVM.
# Passes when the test exits 0 and vperf answered its guests' PMU register accesses at EL2.
#
# Usage: QEMU_OUT=DIR integrations/kvm/selftest.sh   (make kvm-selftest; DIR as for guest.sh:
#        the initramfs is make validate's kvm one, which carries the suite)
#   KVM_SELFTEST_ARGS   more kernel command line (e.g. kvm-arm.vperf=0: KVM's own emulation)
#   QEMU                another qemu-system-aarch64 (default: the project's, platform/qemu)
set -eu
: "${QEMU_OUT:?QEMU_OUT (the directory with pmu-suite.bin)}"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/common.sh"
test=vpmu_counter_access
img=$("$here/build.sh")
qemu=${QEMU:-$("$root/platform/qemu/build.sh")}

# The test, built once per source version: the kernel's UAPI headers and the selftest's
# library in a hard-linked copy of the source (make writes new files, never the cached ones).
dir=$KVM_CACHE/selftests/$KVM_DEB_VERSION
bin=$dir/out/aarch64/$test
if [ ! -x "$bin" ]; then
	src=$("$here/fetch.sh")
	mkdir -p "$dir"
	exec 9>"$dir/lock"
	flock 9
	if [ ! -x "$bin" ]; then
		rm -rf "$dir/src" "$dir/out"
		cp -al "$src" "$dir/src"
		echo "kvm-selftest: building $test (log: $dir/build.log)" >&2
		{
			nice make -C "$dir/src" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- headers &&
				nice make -C "$dir/src/tools/testing/selftests/kvm" ARCH=arm64 \
					CROSS_COMPILE=aarch64-linux-gnu- EXTRA_CFLAGS=-static \
					LDFLAGS=-static OUTPUT="$dir/out" "$bin"
		} >"$dir/build.log" 2>&1 || {
			tail -n 20 "$dir/build.log" >&2
			exit 1
		}
	fi
	exec 9>&-
fi

work=$(dirname "$img")/selftest
mkdir -p "$work" 2>/dev/null || work=$(mktemp -d)
cpio=$(QEMU=$qemu WORK=$work "$root/tests/validate/debian/run.sh" build kvm)
# The test joins the initramfs as a second archive (the kernel unpacks them in turn; its /init
# is the same kvm-init.sh).
rm -rf "$work/extra" && mkdir -p "$work/extra/selftest"
cp "$bin" "$work/extra/selftest/"
"$root/tests/qemu/linux/mkcpio.sh" "$root/tests/validate/debian/kvm-init.sh" "$work/extra.cpio" \
	"$work/extra"
cat "$cpio" "$work/extra.cpio" >"$work/initrd"
log=$work/$test.log
echo "kvm-selftest: booting $img (log: $log)" >&2
timeout 1800 nice "$qemu" -nodefaults -M virt,virtualization=on,gic-version=3 -cpu max -smp 1 \
	-m 1G -display none -serial stdio -no-reboot -kernel "$img" -initrd "$work/initrd" \
	-append "console=ttyAMA0 panic=-1 kvm-arm.mode=nvhe kvm-arm.vperf=1 ${KVM_SELFTEST_ARGS:-} vperf.selftest=$test" \
	</dev/null >"$log" 2>&1 || true
grep -E "kvm-init: selftest|^\[$test\] .*(ok|not ok|PASS|FAIL|==== Test|Assertion|pmcr_n|Random seed)" "$log" | head -n 40 || true
answered=$(grep -c "vperf answered [1-9][0-9]* PMU register accesses at EL2" "$log" || true)
echo "kvm-selftest: vCPUs whose PMU accesses vperf answered: $answered"
if grep -q "kvm-init: selftest $test rc=0" "$log" && [ "$answered" -gt 0 ]; then
	echo "PASS kvm-selftest $test"
else
	echo "FAIL kvm-selftest $test (log: $log)"
	exit 1
fi
