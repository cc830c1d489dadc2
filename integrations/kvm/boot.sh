#!/bin/sh
# Boot the project's KVM host kernel (build.sh) under the project's QEMU on the virt board with
# EL2 (virtualization=on), the PMU and SPE (-cpu max,spe=on), once per KVM mode, and check what
# the kernel says of KVM, the PMU and SPE up to the panic for want of a root file system (there
# is none yet: the end of the boot is the end of the test).
#
# Usage: integrations/kvm/boot.sh   one "PASS|FAIL kvm-boot MODE" line a mode, then
#                                   "kvm-boot: N passed, N failed"
#   KVM_BOOT_MODES   the modes (default "nvhe vhe protected"; protected is pKVM, whose
#                    hypervisor runs with HCR_EL2.E2H = 1 (hVHE) on a PE with FEAT_VHE, as
#                    QEMU's max; protected-e2h0 is pKVM with E2H = 0, VHE hidden and hVHE
#                    refused: id_aa64mmfr1.vh=0 arm64_sw.hvhe=0)
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
	protected)
		echo "kvm \[1\]: Protected hVHE mode initialized successfully"
		echo "CPU features: detected: VHE for hypervisor only" ;;
	protected-e2h0)
		echo "kvm \[1\]: Protected nVHE mode initialized successfully"
		echo "CPU features: SYS_ID_AA64MMFR1_EL1\[11:8\]: forced to 0" ;;
	*) echo "boot.sh: unknown mode $1" >&2; exit 2 ;;
	esac
	echo "hw perfevents: enabled with armv8_pmuv3 PMU driver"
	echo "arm_spe_pmu spe: probed SPEv1"
	echo "Unable to mount root fs"
}

pass=0 fail=0
for mode in ${KVM_BOOT_MODES:-nvhe vhe protected}; do
	# VHE is what KVM picks on a PE with FEAT_VHE; the others are asked for.
	case "$mode" in
	vhe) arg="" ;;
	protected-e2h0) arg="kvm-arm.mode=protected id_aa64mmfr1.vh=0 arm64_sw.hvhe=0" ;;
	*) arg="kvm-arm.mode=$mode" ;;
	esac
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
