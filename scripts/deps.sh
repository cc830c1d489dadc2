#!/bin/sh
# Install, from Debian's packages, whatever vperf's build, tests and QEMU runs need and the machine
# lacks. Cheap when everything is present (one dpkg-query), so every Makefile target that needs a
# tool depends on it. Usage: scripts/deps.sh [group...]   groups: build (default), fuzz, qemu, all
set -eu

pkgs_build="build-essential gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libcmocka-dev \
libfdt-dev kconfig-frontends-nox libxen-dev device-tree-compiler valgrind"
pkgs_fuzz="clang libclang-rt-14-dev"
pkgs_qemu="qemu-system-arm gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libxen-dev"
# The QEMU hypervisor and guest payloads link libfdt built for aarch64. libfdt-dev:arm64 cannot be
# installed beside the host's libfdt-dev (the packages conflict), so its .deb is unpacked here.
libfdt_arm64=${VPERF_LIBFDT_ARM64:-/opt/vperf/libfdt-arm64}
pkgs_format="clang-format"

want=""
for group in ${*:-build}; do
	case "$group" in
	build) want="$want $pkgs_build" ;;
	fuzz) want="$want $pkgs_fuzz" ;;
	qemu) want="$want $pkgs_qemu" ;;
	format) want="$want $pkgs_format" ;;
	all) want="$want $pkgs_build $pkgs_fuzz $pkgs_qemu $pkgs_format" ;;
	*) echo "deps.sh: unknown group '$group'" >&2; exit 2 ;;
	esac
done

want_libfdt=""
case " $want " in *" qemu-system-arm "*) want_libfdt=1 ;; esac

missing=""
for p in $want; do
	# One status line per installed architecture: present when any line says installed.
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qx 'install ok installed' ||
		missing="$missing $p"
done
[ -n "$want_libfdt" ] && [ ! -f "$libfdt_arm64/usr/lib/aarch64-linux-gnu/libfdt.a" ] &&
	missing="$missing (libfdt-dev:arm64)"
[ -z "$missing" ] && exit 0

echo "deps.sh: installing from Debian:$missing"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
pkgs=$(echo "$missing" | sed 's/([^)]*)//g')
if [ -n "$want_libfdt" ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	$SUDO dpkg --add-architecture arm64
fi
# Package lists may be absent or stale on a fresh machine: update once, then install.
$SUDO apt-get update -qq
if [ -n "$(echo "$pkgs" | tr -d ' ')" ]; then
	# shellcheck disable=SC2086
	$SUDO apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
fi
if [ -n "$want_libfdt" ] && [ ! -f "$libfdt_arm64/usr/lib/aarch64-linux-gnu/libfdt.a" ]; then
	tmp=$(mktemp -d)
	chmod 777 "$tmp"
	(cd "$tmp" && apt-get download -qq libfdt-dev:arm64)
	$SUDO mkdir -p "$libfdt_arm64"
	$SUDO dpkg-deb -x "$tmp"/libfdt-dev_*_arm64.deb "$libfdt_arm64"
	rm -rf "$tmp"
fi
