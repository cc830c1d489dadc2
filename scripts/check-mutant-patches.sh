#!/bin/sh
# Every vperf mutant of tests/mutants (the defects the QEMU and Xen suites must catch, applied by
# scripts/vperf-mutant.sh) still applies to the tree as it is: a refactoring that moves the code
# a mutant removes must carry the mutant along, or the suites that need it fail to build. Seconds,
# where the QEMU suite would find it only after its build.
#   check-mutant-patches.sh SRCTREE
set -eu
src=$1 bad=0 n=0
for p in "$src"/tests/mutants/*.patch; do
	[ -f "$p" ] || continue
	n=$((n + 1))
	if ! patch -d "$src" -p1 --dry-run -s -N -r - <"$p" >/dev/null 2>&1; then
		echo "$(basename "$p" .patch): does not apply (regenerate it: its text names the change)"
		bad=$((bad + 1))
	fi
done
echo "mutant-patches: $n patches, $bad not applying"
[ "$bad" -eq 0 ]
