#!/bin/sh
# A scratch copy of the vperf tree with one vperf mutant applied: tests/mutants/NAME.patch, a
# patch that brings a fixed defect back, for the QEMU configurations that must catch it
# (tests/qemu/configs.txt, vperf-mutant=NAME) and for make xen-check (integrations/xen/
# configs.txt, xen column vperf+NAME).
#   vperf-mutant.sh SRCTREE NAME DIR   copy SRCTREE's working files (tracked and new, as
#                                      scripts/mutate.sh does) into DIR/src, apply the patch,
#                                      print DIR/src
# The copy keeps each file's time stamp: a build of it (O= outside DIR/src) recompiles what the
# patch touched and what changed in SRCTREE since the last copy, nothing else.
set -eu
src=$1 name=$2 dir=$3
mutant=$src/tests/mutants/$name.patch
[ -f "$mutant" ] || { echo "vperf-mutant: no $mutant" >&2; exit 1; }
mkdir -p "$dir/src"
"$(dirname "$0")/tree-files.sh" "$src" | (cd "$dir/src" && tar xf -)
patch -d "$dir/src" -p1 -s -N -r - --no-backup-if-mismatch <"$mutant" >&2 ||
	{ echo "vperf-mutant: $name.patch does not apply to $src" >&2; exit 1; }
echo "$dir/src"
