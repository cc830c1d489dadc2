#!/bin/sh
# make validate's foreign hypervisors (configs.txt): KVM in Debian's arm64 kernel, Debian's
# prebuilt Xen 4.17 with its own vPMU, and the project's KVM host kernel (integrations/kvm:
# vperf as KVM's PMU backend), each on the project's QEMU
# (-M virt,virtualization=on,gic-version=3 -cpu max -icount shift=0), with the conformance suite
# (pmu-suite.bin) as the guest of a VMM from Debian's arm64 packages: qemu-system-aarch64 -accel
# kvm, or xl. The Debian files are fetched and cached once per machine (scripts/debtree.sh); the
# initramfs adds this tree's /init and the suite, in WORK; a configuration with the Linux guest
# (configs.txt: "linux:ARGS", or "linux-rootfs:ARGS" for the one with Linux's perf tool) boots an
# initramfs that also holds Debian's kernel and that Linux guest's own initramfs
# (tests/qemu/linux, make qemu-linux).
#   run.sh one NAME                boot configuration NAME; the serial log (each guest's console
#                                  tagged) on stdout
#   run.sh build HYP [linux|linux-rootfs]  only the initramfs of kvm or xen-native (with that
#                                  Linux guest)
# Environment: QEMU_OUT (pmu-suite.bin, make qemu-images; linux-initrd.bin and linux-rootfs.bin,
# make qemu-linux),
# WORK (default $QEMU_OUT/../validate/debian), QEMU (default: the project's QEMU,
# platform/qemu/build.sh), VPERF_LINUX_ARM64 (Debian's kernel unpacked by scripts/deps.sh linux,
# default /opt/vperf/linux-arm64). kvm-vperf's kernel is integrations/kvm/build.sh's Image (built
# when the cache has none for this tree, as make kvm-path does; KVM_CACHE, KVM_JOBS).
set -u
here=$(cd "$(dirname "$0")" && pwd)
srctree=$(cd "$here/../../.." && pwd)
images=${QEMU_OUT:?QEMU_OUT}
work=${WORK:-$images/../validate/debian}
linux=${VPERF_LINUX_ARM64:-/opt/vperf/linux-arm64}
mkdir -p "$work" && work=$(cd "$work" && pwd)
. "$srctree/scripts/verdict.sh"
say() { echo "debian: $*" >&2; }

# ---- the Debian trees and the initramfs -------------------------------------------------------

# spec HYP: what scripts/debtree.sh keeps for HYP's initramfs (PACKAGE[=VERSION] PATH...).
spec() {
	echo "busybox-static /bin/busybox"
	case "$1" in
	kvm)
		echo "qemu-system-arm /usr/bin/qemu-system-aarch64"
		# a KVM guest's device tree with SPE (kvm-init.sh)
		echo "device-tree-compiler /usr/bin/fdtput" ;;
	xen-native)
		echo "xen-utils-4.17 $(printf '/usr/lib/xen-4.17/bin/%s ' xl xenstored xenconsoled xen-init-dom0)"
		# glibc loads libgcc_s when a thread is cancelled (xl does): no DT_NEEDED names it.
		echo "libgcc-s1 /lib/aarch64-linux-gnu/libgcc_s.so.1"
		# dom0's Xen drivers are modules of the very kernel that boots (CONFIG_XEN_DEV_EVTCHN,
		# _PRIVCMD, _GNTDEV, _GNTALLOC, CONFIG_XENFS =m): its own package's version.
		read -r kpkg kver <"$linux/version" || return 1
		# shellcheck disable=SC2125 # a pattern for debtree.sh, not for this shell
		m=lib/modules/*/kernel/drivers/xen
		echo "$kpkg=$kver $m/xen-evtchn.ko $m/xen-privcmd.ko $m/xen-gntdev.ko $m/xen-gntalloc.ko $m/xenfs/xenfs.ko" ;;
	esac
}

# guest_initrd WITH: the Linux guest's initramfs in QEMU_OUT: linux-initrd.bin (its static /init)
# for "linux", linux-rootfs.bin (Debian's perf, perf-init.sh as /init) for "linux-rootfs".
guest_initrd() {
	case "$1" in
	linux) echo "$images/linux-initrd.bin" ;;
	linux-rootfs) echo "$images/linux-rootfs.bin" ;;
	esac
}

# initrd HYP [WITH]: WORK/HYP-initrd.cpio, or WORK/HYP-WITH-initrd.cpio with a Linux guest
# (/linux/Image, /linux/initrd.bin: WITH's guest_initrd), made again when the Debian tree, the
# /init or a guest changed. Prints its path. The Linux files are in their own initramfs, one per
# Linux guest: 27 MB (and the perf tool's 31 MB) more to load and unpack under TCG would slow
# every other boot.
# newer A B: A exists and was changed after B, or B is missing (test's -nt, which POSIX sh lacks).
newer() { [ -e "$1" ] && { [ ! -e "$2" ] || [ -n "$(find "$1" -prune -newer "$2")" ]; }; }

initrd() {
	hyp=$1 with=${2:-}
	cpio=$work/$hyp${with:+-$with}-initrd.cpio overlay=$work/$hyp${with:+-$with}-overlay
	guest=$(guest_initrd "$with")
	tree=$(spec "$hyp" | "$srctree/scripts/debtree.sh" "validate-$hyp") || return 1
	init=$here/${hyp%-native}-init.sh
	if [ "$(cat "$cpio.tree" 2>/dev/null)" != "$tree" ] || newer "$init" "$cpio" ||
		newer "$images/pmu-suite.bin" "$cpio" || newer "$srctree/tests/qemu/linux/mkcpio.sh" "$cpio" ||
		{ [ -n "$with" ] && { newer "$guest" "$cpio" || newer "$linux/Image" "$cpio"; }; }; then
		say "initramfs $cpio: $tree, the suite${with:+, the Linux guest $(basename "$guest")} and $(basename "$init")"
		rm -rf "$overlay" && mkdir -p "$overlay" &&
			cp "$images/pmu-suite.bin" "$overlay/" || return 1
		if [ -n "$with" ]; then
			mkdir -p "$overlay/linux" &&
				cp "$linux/Image" "$overlay/linux/Image" &&
				cp "$guest" "$overlay/linux/initrd.bin" || return 1
		fi
		"$srctree/tests/qemu/linux/mkcpio.sh" "$init" "$cpio" "$overlay" "$tree" &&
			echo "$tree" >"$cpio.tree" || return 1
		say "initramfs: $(($(wc -c <"$cpio") / 1024)) KiB"
	fi
	echo "$cpio"
}

# xen_hypervisor: Debian's prebuilt Xen (an arm64 Image, GICv3 and the SBSA vUART built in).
xen_hypervisor() {
	tree=$(echo "xen-hypervisor-4.17-arm64 /boot/xen-4.17-arm64" |
		"$srctree/scripts/debtree.sh" validate-xen-hypervisor) || return 1
	echo "$tree/boot/xen-4.17-arm64"
}

# ---- one boot ---------------------------------------------------------------------------------

machine=virt,virtualization=on,gic-version=3
# The bootargs of each guest, as the /init scripts read them from the kernel's command line:
# vperf.guest=ARGS (',' for ' ') a guest, in order; ARGS "linux:..." the Linux guest's.
guest_args() { echo "$1" | tr ';' '\n' | trim | grep . | sed 's/^/vperf.guest=/' | paste -sd' '; }

# xen_dtb DTB KERNEL INITRD ARGS: QEMU's own device tree for this machine with Xen's command line
# and dom0's kernel and initramfs (booting.txt's "multiboot,module") in /chosen.
xen_dtb() {
	"$qemu" -nodefaults -M "$machine,dumpdtb=$1.qemu" -cpu max -m 2G -smp 1 -display none \
		>/dev/null 2>&1 || return 1
	{
		dtc -q -I dtb -O dts "$1.qemu"
		printf '/ {\n\tchosen {\n\t\t#address-cells = <2>;\n\t\t#size-cells = <2>;\n'
		printf '\t\txen,xen-bootargs = "console=dtuart sync_console dom0_mem=512M";\n'
		printf '\t\tmodule@50000000 {\n\t\t\tcompatible = "multiboot,kernel", "multiboot,module";\n'
		printf '\t\t\treg = <0x0 0x50000000 0x0 0x%x>;\n' "$(stat -L -c %s "$2")"
		printf '\t\t\tbootargs = "%s";\n\t\t};\n' "$4"
		printf '\t\tmodule@54000000 {\n\t\t\tcompatible = "multiboot,ramdisk", "multiboot,module";\n'
		printf '\t\t\treg = <0x0 0x54000000 0x0 0x%x>;\n\t\t};\n' "$(stat -L -c %s "$3")"
		printf '\t};\n};\n'
	} >"$1.dts" && dtc -q -I dts -O dtb -o "$1" "$1.dts"
}

one() {
	line=$(config_named "$1")
	[ -n "$line" ] || { echo "debian: no configuration '$1' ($here/configs.txt)" >&2; return 2; }
	name=$(field "$line" 1) hyp=$(field "$line" 2) kargs=$(field "$line" 3)
	guests=$(field "$line" 4) flags=$(field "$line" 5)
	tmo=$(flag_value "$flags" timeout)
	cpu=$(flag_value "$flags" cpu)
	[ -f "$images/pmu-suite.bin" ] || { echo "debian: no $images/pmu-suite.bin (make qemu-images)"; return 1; }
	[ -f "$linux/Image" ] || { echo "debian: no $linux/Image (scripts/deps.sh linux)"; return 1; }
	with=
	case "$guests" in
	*linux:*linux-rootfs:* | *linux-rootfs:*linux:*)
		echo "debian: $name: a linux: and a linux-rootfs: guest (the initramfs holds one)"
		return 2 ;;
	*linux-rootfs:*) with="linux-rootfs" ;;
	*linux:*) with=linux ;;
	esac
	[ -z "$with" ] || [ -f "$(guest_initrd "$with")" ] ||
		{ echo "debian: no $(guest_initrd "$with") (make qemu-linux)"; return 1; }
	qemu=${QEMU:-$("$srctree/platform/qemu/build.sh")} || { echo "debian: building QEMU failed"; return 1; }
	# kvm-vperf: the project's KVM host kernel with kvm's initramfs (the same VMM and /init).
	base=${hyp%-vperf}
	cpio=$(initrd "$base" "$with") || { echo "debian: building the $base initramfs failed"; return 1; }
	cmdline="panic=-1 $kargs $(guest_args "$guests")"
	case "$hyp" in
	kvm | kvm-vperf)
		kernel=$linux/Image
		if [ "$hyp" = kvm-vperf ]; then
			kernel=$("$srctree/integrations/kvm/build.sh") ||
				{ echo "debian: building the project's KVM kernel failed (integrations/kvm/build.sh)"; return 1; }
		fi
		set -- -m 1G -kernel "$kernel" -initrd "$cpio" -append "console=ttyAMA0 $cmdline" ;;
	xen-native)
		xen=$(xen_hypervisor) || { echo "debian: fetching Xen failed"; return 1; }
		dtb=$work/$name.dtb
		xen_dtb "$dtb" "$linux/Image" "$cpio" "console=hvc0 rdinit=/init $cmdline" ||
			{ echo "debian: building $dtb failed"; return 1; }
		set -- -m 2G -dtb "$dtb" -kernel "$xen" \
			-device "loader,file=$linux/Image,addr=0x50000000,force-raw=on" \
			-device "loader,file=$cpio,addr=0x54000000,force-raw=on" ;;
	*) echo "debian: $name: unknown hypervisor '$hyp'"; return 2 ;;
	esac
	t0=$(date +%s)
	timeout "${tmo:-900}" "$qemu" -nodefaults -M "$machine" -cpu "${cpu:-max}" -smp 1 -icount shift=0 \
		-display none -serial stdio -no-reboot "$@" </dev/null 2>&1
	rc=$?
	echo "debian: $name: QEMU exited $rc after $(($(date +%s) - t0)) s"
}

field() { echo "$1" | cut -d'|' -f"$2" | trim; }

case "${1:-}" in
one) one "${2:-}" ;;
build)
	qemu=${QEMU:-$("$srctree/platform/qemu/build.sh")} &&
		initrd "${2:?run.sh build kvm|xen-native [linux|linux-rootfs]}" "${3:-}" ;;
*) echo "usage: run.sh one NAME | build kvm|xen-native [linux|linux-rootfs]" >&2; exit 2 ;;
esac
