#!/bin/sh
# The arm64 library must link into any hypervisor: merged into one relocatable object, it may
# need nothing from outside but the four functions GCC requires of every freestanding
# environment (memcpy, memmove, memset, memcmp: GCC manual, "C Language Standards"), and every
# global it defines is in the vperf_ namespace. With CONFIG_VPERF_FDT the library also calls the
# libfdt functions of virt/fdt_api.h, given as EXTRA.
# Usage: check-undef-syms.sh CROSS_COMPILE LIBRARY [EXTRA...]
set -eu
cross=$1 lib=$2
shift 2
allowed="memcpy memmove memset memcmp $*"
merged=$(mktemp)
trap 'rm -f "$merged"' EXIT
status=0

"${cross}ld" -r --whole-archive "$lib" -o "$merged"
for sym in $("${cross}nm" -u "$merged" | awk '{print $NF}' | sort -u); do
	case " $allowed " in
	*" $sym "*) ;;
	*) echo "undefined symbol outside the ops contract: $sym" >&2; status=1 ;;
	esac
done
for sym in $("${cross}nm" -g --defined-only "$merged" | awk 'NF == 3 {print $3}' | sort -u); do
	case "$sym" in
	vperf_*) ;;
	*) echo "global symbol outside the vperf_ namespace: $sym" >&2; status=1 ;;
	esac
done
[ $status -eq 0 ] && echo "$lib: needs nothing beyond [$allowed]; all globals are vperf_*"
exit $status
