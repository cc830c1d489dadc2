#!/bin/sh
# Boot the project's KVM host kernel (build.sh) under the project's QEMU on the virt board with
# EL2 (virtualization=on), the PMU and SPE (-cpu max,spe=on), once per KVM mode, and check what
# the kernel says of KVM, the PMU and SPE up to the panic for want of a root file system (there
# is none yet: the end of the boot is the end of the test).
#
# Usage: integrations/kvm/boot.sh   one "PASS|FAIL kvm-boot MODE" line a mode, then
#                                   "kvm-boot: N passed, N failed"
#   KVM_BOOT_MODES   the modes (default "nvhe vhe"; "protected" panics at boot on this
#                    configuration, with and without the series: docs/integration/kvm.md)
#   QEMU             another qemu-system-aarch64 (default: the project's, platform/qemu)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
img=$("$here/build.sh")
qemu=${QEMU:-$("$here/../../platform/qemu/build.sh")}
log_dir=$(dirname "$img")/boot
mkdir -p "$log_dir" 2>/dev/null || log_dir=$(mktemp -d)

# expect MODE: the lines the kernel prints when KVM comes up in MODE.
expect() {
	case "$1" in
	nvhe) echo "kvm \[1\]: Hyp nVHE mode initialized successfully" ;;
	vhe) echo "kvm \[1\]: VHE mode initialized successfully" ;;
	protected) echo "kvm \[1\]: Protected nVHE mode initialized successfully" ;;
	*) echo "boot.sh: unknown mode $1" >&2; exit 2 ;;
	esac
	echo "hw perfevents: enabled with armv8_pmuv3 PMU driver"
	echo "arm_spe_pmu spe: probed SPEv1"
	echo "Unable to mount root fs"
}

pass=0 fail=0
for mode in ${KVM_BOOT_MODES:-nvhe vhe}; do
	# VHE is what KVM picks on a PE with FEAT_VHE; the others are asked for.
	arg=""
	[ "$mode" = vhe ] || arg="kvm-arm.mode=$mode"
	log=$log_dir/$mode.log
	timeout 300 nice "$qemu" -M virt,virtualization=on,gic-version=3 -cpu max,spe=on -m 512 \
		-smp 2 -nographic -no-reboot -kernel "$img" \
		-append "console=ttyAMA0 panic=-1 $arg" >"$log" 2>&1 || true
	missing=$(expect "$mode" | while IFS= read -r line; do
		grep -q "$line" "$log" || echo "$line"
	done)
	if [ -z "$missing" ]; then
		echo "PASS kvm-boot $mode"
		pass=$((pass + 1))
	else
		echo "FAIL kvm-boot $mode: no \"$(echo "$missing" | head -n 1)\" (log: $log)"
		fail=$((fail + 1))
	fi
done
echo "kvm-boot: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
