#!/bin/sh
# Mutation testing of virt/: apply each mutation of tests/mutate/mutations.txt, one at a time, to
# a scratch copy of the tree, rebuild the sim unit tests (no sanitizers) and run them, stopping at
# the first failing binary. A mutation the tests kill passes; a survivor fails and is printed.
#   mutate.sh SRCTREE WORKDIR [PATTERN]     PATTERN: only the mutations whose line contains it
# Ends with "mutate: N passed, N failed"; exits non-zero when a mutation survived or a line is
# bad (its original text is not found exactly once, or the mutant does not build).
set -u
src=$1 work=$2 only=${3:-}
list=$src/tests/mutate/mutations.txt
tree=$work/tree build=$work/build log=$work/log
jobs=${MUTATE_JOBS:-2}

rm -rf "$work"
mkdir -p "$tree"
# The working copy as it is (tracked and new files), never the real tree: mutants live here only.
(cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 tar cf -) | (cd "$tree" && tar xf -)

mk() {
	make -f "$tree/Makefile" O="$build" "$@" >"$log" 2>&1
}

# The unit tests `make test` runs, the vPMU ones first (most mutants die there), and the vPMU
# tests again on the other PMU versions (tests/unit/build.mk, pmu-versions).
run_tests() {
	for t in test_vpmu test_vpmu_adversary test_vpmu_blob test_vpmu_direct test_vpmu_emulated \
		test_trap test_core test_bench_counts; do
		[ -x "$build/tests/bin/$t" ] || continue
		"$build/tests/bin/$t" >"$log" 2>&1 || { echo "$t"; return 1; }
	done
	for v in 1 4 5 7; do
		for t in test_vpmu test_vpmu_adversary test_vpmu_blob test_vpmu_swinc; do
			HV_PMUVER=$v "$build/tests/bin/$t" >"$log" 2>&1 || { echo "$t@pmuver$v"; return 1; }
		done
	done
	for b in "$build"/tests/bin/test_*; do
		case $(basename "$b") in
		test_vpmu | test_vpmu_adversary | test_vpmu_blob | test_vpmu_direct | \
			test_vpmu_emulated | test_trap | test_core | test_bench_counts) continue ;;
		esac
		"$b" >"$log" 2>&1 || { echo "$(basename "$b")"; return 1; }
	done
	for v in 1 4 5 7; do
		HV_PMUVER=$v HV_SCHEDULES=300 "$build/tests/bin/test_vpmu_isolation" >"$log" 2>&1 ||
			{ echo "test_vpmu_isolation@pmuver$v"; return 1; }
	done
	HV_LAZY_PUT=1 HV_SCHEDULES=300 "$build/tests/bin/test_vpmu_isolation" >"$log" 2>&1 ||
		{ echo "test_vpmu_isolation@lazy"; return 1; }
	return 0
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
	cp "$tree/$file" "$work/saved"
	if ! apply "$tree/$file" "$orig" "$new"; then
		echo "BAD      #$n $file: original text not found exactly once: $orig"
		failed=$((failed + 1))
		continue
	fi
	if ! mk -j"$jobs" all; then
		echo "BAD      #$n $file: the mutant does not build ($what)"
		failed=$((failed + 1))
	elif killer=$(run_tests); then
		echo "SURVIVED #$n $file: $what"
		failed=$((failed + 1))
	else
		echo "killed   #$n by $killer: $what"
		passed=$((passed + 1))
	fi
	cp "$work/saved" "$tree/$file"
done <"$list"

echo "mutate: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
