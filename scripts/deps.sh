#!/bin/sh
# Install, from Debian's packages, whatever vperf's build, tests and QEMU runs need and the machine
# lacks. Cheap when everything is present (one dpkg-query), so every Makefile target that needs a
# tool depends on it. Usage: scripts/deps.sh [group...]   groups: build (default), fuzz, qemu, all
set -eu

pkgs_build="build-essential gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libcmocka-dev \
libfdt-dev kconfig-frontends-nox libxen-dev device-tree-compiler valgrind"
pkgs_fuzz="clang libclang-rt-14-dev"
pkgs_qemu="qemu-system-arm"
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

missing=""
for p in $want; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "deps.sh: installing from Debian:$missing"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
# Package lists may be absent or stale on a fresh machine: update once, then install.
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
