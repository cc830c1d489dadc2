#!/bin/sh
# No dead configuration: every symbol of Kconfig is read by a source or build file (as
# CONFIG_<symbol>), and every bool symbol is on in one of the given configurations and off in
# another, so that the builds made from them test both states.
# Usage: check-kconfig.sh SRCTREE DOTCONFIG...   (the .config files make check builds from
# configs/*_defconfig: check-sim, check-minimal, check-vspe-only, check-arm64)
set -eu
srctree=$1
shift
[ $# -ge 2 ] || { echo "check-kconfig.sh: give at least two .config files" >&2; exit 2; }
status=0

# Where a symbol may be read: C sources and headers, and the make fragments (a symbol can select
# sources, e.g. obj-$(CONFIG_VPERF_FDT)). Not docs/, not configs/, not Kconfig itself.
readers() {
	grep -rl --include='*.c' --include='*.h' --include='*.mk' --include=Makefile \
		"CONFIG_$1\b" "$srctree/virt" "$srctree/lib" "$srctree/arch" "$srctree/include" \
		"$srctree/tests" "$srctree/tools" "$srctree/mk" "$srctree/Makefile" 2>/dev/null |
		head -1
}

symbols=$(awk '$1 == "config" || $1 == "menuconfig" { print $2 }' "$srctree/Kconfig")
for sym in $symbols; do
	if [ -z "$(readers "$sym")" ]; then
		echo "CONFIG_$sym: in Kconfig, read by no source or build file" >&2
		status=1
		continue
	fi
	type=$(awk -v s="$sym" '($1 == "config" || $1 == "menuconfig") { cur = $2; next }
		cur == s && ($1 == "bool" || $1 == "int" || $1 == "string" || $1 == "hex") {
			print $1; exit }' "$srctree/Kconfig")
	[ "$type" = bool ] || continue
	on=0 off=0
	for c in "$@"; do
		if grep -q "^CONFIG_$sym=y$" "$c"; then on=1; else off=1; fi
	done
	if [ $on -eq 0 ] || [ $off -eq 0 ]; then
		state=$([ $on -eq 1 ] && echo on || echo off)
		echo "CONFIG_$sym: $state in every configuration checked ($*): one state untested" >&2
		status=1
	fi
done
[ $status -eq 0 ] && echo "Kconfig: $(echo "$symbols" | wc -w) symbols, each read by the code; every bool one both on and off in [$*]"
exit $status
