#!/bin/sh
# Mutation testing of virt/ (and include/vperf/, the model): apply each mutation of
# tests/mutate/mutations.txt, one at a time, to a scratch copy of the tree, rebuild the sim unit
# tests (no sanitizers) and run them, stopping at the first failing binary. A mutation the tests
# kill passes; a survivor fails and is printed.
#   mutate.sh SRCTREE WORKDIR [PATTERN]     PATTERN: only the mutations whose line contains it
# Ends with "mutate: N passed, N failed"; exits non-zero when a mutation survived or a line is
# bad (its original text is not found exactly once, or the mutant does not build).
set -u
src=$1 work=$2 only=${3:-}
list=$src/tests/mutate/mutations.txt
tree=$work/tree build=$work/build log=$work/log
jobs=${MUTATE_JOBS:-2}
# MUTATE_FROM=k, MUTATE_TO=m: only the k-th to the m-th selected lines (resume an interrupted run,
# or split the list between cores).
from=${MUTATE_FROM:-1} to=${MUTATE_TO:-999999}

rm -rf "$work"
mkdir -p "$tree"
# The working copy as it is (tracked and new files), never the real tree: mutants live here only.
"$(dirname "$0")/tree-files.sh" "$src" | (cd "$tree" && tar xf -)

mk() {
	make -f "$tree/Makefile" O="$build" "$@" >"$log" 2>&1
}

# Bring one test binary up to date with the mutant and run it with the given environment:
#   t NAME LABEL [VAR=value ...]
# Only the binaries a mutant reaches are linked (most mutants die in the first one or two), not
# all of them. A binary that does not build prints "build:LABEL".
t() {
	name=$1 label=$2
	shift 2
	[ -e "$build/tests/bin/$name" ] || return 0
	mk "$build/tests/bin/$name" || { echo "build:$label"; return 1; }
	env "$@" "$build/tests/bin/$name" >"$log" 2>&1 || { echo "$label"; return 1; }
}

# The unit tests `make test` runs, one label a line in the order a mutant meets them: NAME, or
# NAME@VARIANT for a binary run again in another environment (run_label). The vPMU ones first
# (most mutants die there), the vPMU tests again on the other PMU versions (tests/unit/build.mk,
# pmu-versions), all the others, and the seeded isolation schedules on those versions, with lazy
# puts and with lazy and eager puts mixed.
first="test_vpmu test_vpmu_irq test_vpmu_el0 test_vpmu_blob test_vpmu_direct test_vpmu_emulated \
test_trap test_core test_bench_counts"
labels() {
	# A vSPE or model SPE mutant is most likely caught by the vSPE tests: those first.
	case $file in
	*vspe* | */spe/*)
		for b in "$build"/tests/bin/test_vspe* "$build"/tests/bin/test_sim_spe*; do
			basename "$b"
		done
		;;
	esac
	for tb in $first; do echo "$tb"; done
	for v in 1 4 5 7; do
		for tb in test_vpmu test_vpmu_irq test_vpmu_el0 test_vpmu_filter test_vpmu_sync_window \
			test_vpmu_blob test_vpmu_swinc; do
			echo "$tb@pmuver$v"
		done
	done
	for b in "$build"/tests/bin/test_*; do
		tb=$(basename "$b")
		case " $first " in *" $tb "*) continue ;; esac
		echo "$tb"
	done
	for v in 1 4 5 7; do echo "test_vpmu_isolation@pmuver$v"; done
	echo test_vpmu_isolation@lazy
	echo test_vpmu_isolation@mixed
	# The vSPE switch on a VHE host (HV_E2H=1: the guest's PMSCR_EL1 is PMSCR_EL12 there).
	for tb in test_vspe_switch test_vspe_host test_vspe_outside test_vspe_blob test_vspe_contract; do
		if [ -x "$build/tests/bin/$tb" ]; then echo "$tb@vhe"; fi
	done
}

# Run one label: pmuverV sets HV_PMUVER, lazy and mixed HV_LAZY_PUT 1 and 2, vhe HV_E2H=1; the
# isolation schedules run 300 worlds when repeated in a variant.
run_label() {
	name=${1%@*} variant=
	case $1 in *@*) variant=${1#*@} ;; esac
	few=
	[ -n "$variant" ] && [ "$name" = test_vpmu_isolation ] && few=HV_SCHEDULES=300
	case $variant in
	'') t "$name" "$1" ;;
	pmuver*) t "$name" "$1" HV_PMUVER="${variant#pmuver}" $few ;;
	lazy) t "$name" "$1" HV_LAZY_PUT=1 $few ;;
	vhe) t "$name" "$1" HV_E2H=1 ;;
	mixed) t "$name" "$1" HV_LAZY_PUT=2 $few ;;
	esac
}

# Which label killed a line before, on any tree: a cache outside the clone keyed by a checksum of
# the whole line. It only orders the run (that label first, then all the others as always), so a
# stale entry costs one binary and never changes a verdict. A second run of the list, or a run of
# the lines a change touched, mostly takes one test binary a line instead of dozens.
cache=${MUTATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vperf/mutate}/killers
mkdir -p "$(dirname "$cache")" 2>/dev/null && touch "$cache" 2>/dev/null || cache=/dev/null
line_key() { printf '%s\n' "$1" | cksum | cut -d' ' -f1; }
known_killer() { grep "^$1 " "$cache" 2>/dev/null | tail -n 1 | cut -d' ' -f2; }

run_tests() {
	hint=${1:-}
	[ -z "$hint" ] || run_label "$hint" || return 1
	labels | while IFS= read -r l; do
		[ "$l" = "$hint" ] && continue
		run_label "$l" || exit 1
	done
}

# Replace the one occurrence of $2 in file $1 by $3 (fixed strings); fail unless there is
# exactly one.
apply() {
	ORIG=$2 NEW=$3 perl -e '
		sub unesc { my $s = shift; $s =~ s/\\(.)/$1 eq "n" ? "\n" : $1 eq "t" ? "\t" : $1/ge; $s }
		local $/; my $t = <STDIN>;
		my ($o, $r) = (unesc($ENV{ORIG}), unesc($ENV{NEW}));
		my $n = () = $t =~ /\Q$o\E/g;
		if ($n != 1) { print $t; exit 3 }
		$t =~ s/\Q$o\E/$r/;
		print $t;' <"$1" >"$1.mutant"
	rc=$?
	[ $rc -eq 0 ] && mv "$1.mutant" "$1"
	rm -f "$1.mutant"
	return $rc
}

echo "mutate: scratch tree $tree"
mk defconfig || { cat "$log"; exit 1; }
mk -j"$jobs" all || { cat "$log"; exit 1; }
file=
if failed_in=$(run_tests); then
	echo "mutate: baseline passes"
else
	echo "mutate: the unmutated tree fails $failed_in: fix that first"
	exit 1
fi

passed=0 failed=0 n=0
while IFS= read -r line; do
	case $line in '' | '#'*) continue ;; esac
	case $line in *"$only"*) ;; *) continue ;; esac
	# cut keeps empty fields (an empty mutated text deletes the original).
	file=$(printf '%s\n' "$line" | cut -f1)
	orig=$(printf '%s\n' "$line" | cut -f2)
	new=$(printf '%s\n' "$line" | cut -f3)
	what=$(printf '%s\n' "$line" | cut -f4)
	n=$((n + 1))
	[ "$n" -ge "$from" ] && [ "$n" -le "$to" ] || continue
	cp "$tree/$file" "$work/saved"
	if ! apply "$tree/$file" "$orig" "$new"; then
		echo "BAD      #$n $file: original text not found exactly once: $orig"
		failed=$((failed + 1))
		continue
	fi
	key=$(line_key "$line")
	killer=$(run_tests "$(known_killer "$key")")
	case $killer in
	build:*)
		echo "BAD      #$n $file: the mutant does not build ($what)"
		failed=$((failed + 1))
		;;
	'')
		echo "SURVIVED #$n $file: $what"
		failed=$((failed + 1))
		;;
	*)
		echo "killed   #$n by $killer: $what"
		echo "$key $killer" >>"$cache"
		passed=$((passed + 1))
		;;
	esac
	cp "$work/saved" "$tree/$file"
done <"$list"

echo "mutate: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
