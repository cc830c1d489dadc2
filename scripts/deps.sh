#!/bin/sh
# Install, from Debian's packages, whatever vperf's build, tests and QEMU runs need and the machine
# lacks. Cheap when everything is present (one dpkg-query per package), so every Makefile target
# that needs a tool asks for its groups. Usage: scripts/deps.sh [group...] (default: build)
#   scripts/deps.sh --list   the table below: group | packages | which targets need it
set -eu

# The one table of what each group installs and which targets ask for it. A target asks for
# exactly the groups whose tools it runs; make check asks for all of them up front. Notes:
# - qemu: libfdt's libfdt_env.h includes <stdlib.h> and <string.h>, so building the reference
#   hypervisor against libfdt needs the cross C library's headers (libc6-dev-arm64-cross); libfdt
#   for arm64 itself is unpacked, not installed (see below).
# - qemu-build: what platform/qemu/build.sh needs to build the project's QEMU (asked for only
#   when it builds); "name/backports" entries come from the release's backports suite
#   (platform/qemu/backports.sh) and count as present when the installed version is a backport;
#   what they depend on from the release itself (python3-setuptools for meson) is listed too,
#   since the private backports view sees only the backports suite.
# - linux: the static /init links the cross C library; Debian's arm64 kernel is downloaded and
#   unpacked (see below).
# - validate: the same kernel (and arm64 as a foreign architecture); the arm64 packages of the
#   hypervisors and VMMs themselves are fetched when first used (scripts/debtree.sh).
# - efi: Debian's edk2 build for QEMU's arm64 virt board (qemu-efi-aarch64: the firmware the
#   UEFI boot runs, docs/uefi.md) and gnu-efi for arm64 (its crt0, linker script and headers),
#   unpacked like libfdt for arm64: the host's gnu-efi is the x86-64 one.
groups_table() {
	cat <<'EOF2'
build  | build-essential gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libcmocka-dev libfdt-dev kconfig-frontends-nox libxen-dev | every build: sim library, unit tests, host tools, arm64 library
bench  | valgrind | make bench (callgrind)
qemu   | gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross libxen-dev xxd | make run, qemu-check, make bench: the reference hypervisor, its guests
qemu-build | build-essential pkgconf ninja-build python3-venv python3-setuptools xz-utils libglib2.0-dev zlib1g-dev libfdt-dev meson/backports python3-pycotap/backports | make qemu-path (and every QEMU run, once per machine): the project's QEMU (platform/qemu)
linux  | gcc-aarch64-linux-gnu libc6-dev-arm64-cross | make run's and qemu-check's Linux guests: static /init, Debian's arm64 kernel
fuzz   | clang libclang-rt-14-dev | make check's short fuzz runs, make fuzz
xen    | flex bison dpkg-dev patch device-tree-compiler gcc-aarch64-linux-gnu | make xen-check: Xen's source package (apt-get source, dpkg-source), its arm64 build (Kconfig: flex, bison), the patch series, the dom0less boot device tree (dtc)
kvm    | flex bison bc perl xz-utils patch gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu device-tree-compiler | make kvm-kernel, kvm-path, kvm-each, kvm-checkpatch: Debian's linux source (its .orig tarball), its arm64 build (Kconfig: flex, bison; bc), the patch series, checkpatch (perl); kvm-guest's KVM_IDLE=1 (idle-dtb.sh: dtc, fdtput)
format | clang-format | make check's format test, make format
efi    | qemu-efi-aarch64 mtools binutils-aarch64-linux-gnu | make efi and qemu-check's UEFI boots: edk2 for QEMU's virt board, mtools (the boot volume: a FAT image, no mount), gnu-efi for arm64 (unpacked, see below)
validate | device-tree-compiler binutils | make validate's Debian targets (kvm, xen-native): Debian's arm64 kernel, readelf for scripts/debtree.sh (which downloads their arm64 packages), dtc for Xen's boot device tree
EOF2
}

# packages GROUP: the packages of one group.
packages() {
	groups_table | awk -F'|' -v g="$1" '{ n = $1; gsub(/ /, "", n) } n == g { print $2 }'
}

[ "${1:-}" = "--list" ] && { groups_table; exit 0; }

# The QEMU hypervisor and guest payloads link libfdt built for aarch64. libfdt-dev:arm64 cannot be
# installed beside the host's libfdt-dev (the packages conflict), so its .deb is unpacked here.
libfdt_arm64=${VPERF_LIBFDT_ARM64:-/opt/vperf/libfdt-arm64}
# gnu-efi for arm64 (crt0-efi-aarch64.o, elf_aarch64_efi.lds, libefi.a, the EFI headers): its
# arm64 package is unpacked, not installed (gnu-efi:amd64 is the host's, for x86-64 programs).
gnuefi_arm64=${VPERF_GNUEFI_ARM64:-/opt/vperf/gnu-efi-arm64}
# The Linux guest's kernel: downloaded, not installed (installing it would run the host's boot
# hooks); its /boot/vmlinuz is unpacked into $linux_arm64 as a raw arm64 Image. The cloud flavour
# boots fastest (few built-in drivers) and has what the guest needs built in: PL011, GICv3, the
# architected timer, PSCI and the PMUv3 driver. The modules the guest's root file system loads
# come from the same package (a module loads only into the kernel it was built with), into
# $linux_arm64/root/lib/modules/: SPE's driver, where the flavour builds it as one (this one
# does: CONFIG_ARM_SPE_PMU=m).
linux_arm64=${VPERF_LINUX_ARM64:-/opt/vperf/linux-arm64}
linux_meta=${VPERF_LINUX_META:-linux-image-cloud-arm64}

groups=${*:-build}
case " $groups " in *" all "*) groups="build bench qemu qemu-build linux fuzz format xen validate efi" ;; esac
want="" want_libfdt="" want_linux="" want_gnuefi=""
for group in $groups; do
	groups_table | awk '{ print $1 }' | grep -qx "$group" ||
		{ echo "deps.sh: unknown group '$group' (scripts/deps.sh --list)" >&2; exit 2; }
	want="$want $(packages "$group")"
	case "$group" in
	qemu) want_libfdt=1 ;;
	efi) want_gnuefi=1 ;;
	linux | validate) want_linux=1 ;;
	esac
done

missing="" backports=""
for p in $(echo "$want" | tr ' ' '\n' | sort -u); do
	case "$p" in
	*/backports)
		p=${p%/backports}
		dpkg-query -W -f='${Status} ${Version}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed .*~bpo' || backports="$backports $p"
		continue ;;
	esac
	# One status line per installed architecture: present when any line says installed.
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qx 'install ok installed' ||
		missing="$missing $p"
done
[ -n "$want_libfdt" ] && [ ! -f "$libfdt_arm64/usr/lib/aarch64-linux-gnu/libfdt.a" ] &&
	missing="$missing (libfdt-dev:arm64)"
[ -n "$want_gnuefi" ] && [ ! -f "$gnuefi_arm64/usr/lib/crt0-efi-aarch64.o" ] &&
	missing="$missing (gnu-efi:arm64)"
linux_missing() { [ ! -f "$linux_arm64/Image" ] || [ ! -d "$linux_arm64/root/lib/modules" ]; }
[ -n "$want_linux" ] && linux_missing && missing="$missing ($linux_meta:arm64)"
[ -z "$missing$backports" ] && exit 0

echo "deps.sh: installing from Debian:$missing${backports:+ (backports:$backports)}"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
pkgs=$(echo "$missing" | sed 's/([^)]*)//g')
if [ -n "$want_libfdt$want_linux$want_gnuefi" ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	$SUDO dpkg --add-architecture arm64
fi
# Package lists may be absent or stale on a fresh machine: update once, then install.
$SUDO apt-get update -qq
if [ -n "$(echo "$pkgs" | tr -d ' ')" ]; then
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
fi
if [ -n "$backports" ]; then
	# shellcheck disable=SC2086
	$SUDO "$(dirname "$0")/../platform/qemu/backports.sh" $backports
fi

# download PKG DIR: fetch PKG's .deb into DIR (apt's sandbox user must be able to write there).
download() {
	chmod 777 "$2"
	(cd "$2" && apt-get download -qq "$1")
}

if [ -n "$want_libfdt" ] && [ ! -f "$libfdt_arm64/usr/lib/aarch64-linux-gnu/libfdt.a" ]; then
	tmp=$(mktemp -d)
	download libfdt-dev:arm64 "$tmp"
	$SUDO mkdir -p "$libfdt_arm64"
	$SUDO dpkg-deb -x "$tmp"/libfdt-dev_*_arm64.deb "$libfdt_arm64"
	rm -rf "$tmp"
fi
if [ -n "$want_gnuefi" ] && [ ! -f "$gnuefi_arm64/usr/lib/crt0-efi-aarch64.o" ]; then
	tmp=$(mktemp -d)
	download gnu-efi:arm64 "$tmp"
	$SUDO mkdir -p "$gnuefi_arm64"
	$SUDO dpkg-deb -x "$tmp"/gnu-efi_*_arm64.deb "$gnuefi_arm64"
	rm -rf "$tmp"
fi
if [ -n "$want_linux" ] && linux_missing; then
	# The meta package depends on the current ABI's image package (linux-image-6.1.0-N-...).
	pkg=$(apt-cache depends "$linux_meta:arm64" |
		sed -n 's/^ *Depends: \(linux-image-[^ :<>]*\).*/\1/p' | head -n 1)
	[ -n "$pkg" ] || { echo "deps.sh: no kernel package behind $linux_meta:arm64" >&2; exit 1; }
	tmp=$(mktemp -d)
	download "$pkg:arm64" "$tmp"
	deb=$(ls "$tmp"/*.deb)
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards './boot/vmlinuz-*' './boot/config-*'
	mkdir -p "$tmp/lib/modules"
	grep -qx 'CONFIG_ARM_SPE_PMU=m' "$tmp"/boot/config-* &&
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards \
			'./lib/modules/*/kernel/drivers/perf/arm_spe_pmu.ko'
	img=$(ls "$tmp"/boot/vmlinuz-*)
	# Debian's arm64 vmlinuz is the raw Image (with an EFI stub); a gzip-compressed one (magic
	# 1f 8b) is decompressed. Either way the result must carry the arm64 Image header's magic
	# "ARM\x64" at byte 56 (Linux Documentation/arch/arm64/booting.rst).
	if [ "$(od -An -tx1 -N2 "$img" | tr -d ' ')" = 1f8b ]; then
		gzip -dc "$img" >"$tmp/Image"
	else
		cp "$img" "$tmp/Image"
	fi
	if [ "$(od -An -c -j56 -N4 "$tmp/Image" | tr -d ' ')" != ARMd ]; then
		echo "deps.sh: $img is no arm64 Image" >&2
		exit 1
	fi
	$SUDO mkdir -p "$linux_arm64"
	$SUDO cp "$tmp"/boot/config-* "$linux_arm64/config"
	$SUDO rm -rf "$linux_arm64/root"
	$SUDO mkdir -p "$linux_arm64/root"
	$SUDO cp -R "$tmp/lib" "$linux_arm64/root/"
	echo "$pkg $(dpkg-deb -f "$deb" Version)" | $SUDO tee "$linux_arm64/version" >/dev/null
	$SUDO cp "$tmp/Image" "$linux_arm64/Image.new"
	$SUDO mv "$linux_arm64/Image.new" "$linux_arm64/Image"
	rm -rf "$tmp"
fi
