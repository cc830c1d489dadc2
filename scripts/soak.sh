#!/bin/sh
# SPDX-License-Identifier: MIT
# make soak: isolation at scale, far beyond make check (docs/testing.md, "Soak").
#   soak.sh SRCTREE OUT
# 1. The seeded isolation schedules of the model (test_isolation_mixed: PMU and SPE VMs beside
#    the host's own profiling; test_vpmu_isolation: every PMU partition; test_isolation_worlds:
#    worlds drawn from the seed, one world per seed), SOAK_SCHEDULES of each (default 10^6), in slices of SOAK_SLICE seeds spread over SOAK_JOBS processes (default: the
#    CPUs). A slice stops at its first failure and prints it with its seed; the others go on.
# 2. Each SMP configuration of the QEMU suite (tests/qemu/configs.txt, names containing "smp"),
#    SOAK_QEMU_RUNS times (default 200; 0 skips), SOAK_JOBS runs at once (each its own QEMU and
#    log directory; the load they put on each other is part of the test); a failed run keeps its
#    log as OUT/qemu/NAME-runK.log. SOAK_QEMU_CONFIGS="name ..." picks other configurations.
#    Run K resets the PMU and SPE to its own garbage (QEMU_RESET_SEED=K+1: the project's QEMU's
#    reset-seed); QEMU_RESET_SEED=K+1 run.sh one NAME repeats it.
# SOAK_RESUME=1 goes on with an interrupted soak in the same OUT: the slices that passed there
#    are not run again, if the code they ran is this one (virt/, arch/sim, include/, tests/unit
#    at the same git trees, nothing uncommitted there, the same SOAK_SLICE; OUT/code).
# The last line: "soak: N passed, N failed" (slices and QEMU runs); exit 1 if one failed.
set -u

# soak.sh --slice TEST FIRST (with SOAK_OUT, SOAK_SLICE): one slice, its log in
# OUT/slices/TEST-FIRST.log, its verdict on stdout.
if [ "${1:-}" = --slice ]; then
	log=$SOAK_OUT/slices/$2-$3.log
	if HV_SEED0=$3 HV_SCHEDULES=$SOAK_SLICE "$SOAK_OUT/sim/tests/bin/$2" >"$log" 2>&1; then
		echo "PASS $2 seeds $3.."
	else
		echo "FAIL $2 seeds $3..: $(grep -m 1 'seed [0-9]*' "$log" || tail -n 1 "$log") ($log)"
	fi
	exit 0
fi

# soak.sh --qemu NAME K (with SOAK_OUT, SOAK_SRC, SOAK_QEMU): run K of one QEMU configuration,
# its verdict on stdout; the log is kept only when the run failed.
if [ "${1:-}" = --qemu ]; then
	log=$SOAK_OUT/qemu/$2-run$3.log logs=$SOAK_OUT/qemu/logs-$2-$3
	# Each run its own UNKNOWN reset values (the project's QEMU's reset-seed, run K's K + 1)
	if QEMU_RESET_SEED=$(($3 + 1)) QEMU_OUT=$SOAK_QEMU QEMU_LOGS=$logs \
		"$SOAK_SRC/tests/qemu/run.sh" one "$2" >"$log" 2>&1
	then
		echo "PASS qemu $2 run $3"
		rm -f "$log"
	else
		echo "FAIL qemu $2 run $3 ($log)"
	fi
	rm -rf "$logs"
	exit 0
fi

src=$1 out=$2
schedules=${SOAK_SCHEDULES:-1000000}
slice=${SOAK_SLICE:-10000}
jobs=${SOAK_JOBS:-$(nproc)}
qemu_runs=${SOAK_QEMU_RUNS:-200}
mkdir -p "$out/slices" "$out/qemu"

echo "soak: building the model's tests without sanitizers ($out/sim)"
make -s -C "$src" O="$out/sim" ARCH=sim defconfig >/dev/null &&
	make -s -C "$src" O="$out/sim" -j"$jobs" all >"$out/build.log" 2>&1 ||
	{ echo "soak: build failed ($out/build.log)"; exit 1; }

# code_key: what the model's schedules run, or nothing when it cannot be named (no git, or
# uncommitted changes), in which case nothing is resumed.
code_key() {
	dirs="virt arch/sim include tests/unit"
	# shellcheck disable=SC2086
	git -C "$src" diff --quiet HEAD -- $dirs 2>/dev/null || return 0
	for d in $dirs; do git -C "$src" rev-parse "HEAD:$d"; done | tr '\n' ' '
	echo "slice $slice"
}

key=$(code_key)
done_before=$out/slices-before.txt
if [ "${SOAK_RESUME:-0}" = 1 ] && [ -n "$key" ] && [ "$key" = "$(cat "$out/code" 2>/dev/null)" ]; then
	grep '^PASS' "$out/slices.txt" >"$done_before" 2>/dev/null
	echo "soak: resuming: $(grep -c . "$done_before") slices passed before on this code"
else
	: >"$done_before"
fi
if [ -n "$key" ]; then echo "$key" >"$out/code"; else rm -f "$out/code"; fi
cp "$done_before" "$out/slices.txt"

t0=$(date +%s)
for t in test_isolation_mixed test_vpmu_isolation test_isolation_worlds; do
	first=1
	while [ "$first" -le "$schedules" ]; do
		grep -q "^PASS $t seeds $first\.\." "$done_before" || echo "$t $first"
		first=$((first + slice))
	done
done | SOAK_OUT=$out SOAK_SLICE=$slice xargs -r -P "$jobs" -n 2 "$0" --slice >>"$out/slices.txt"
grep -v '^PASS' "$out/slices.txt"
passed=$(grep -c '^PASS' "$out/slices.txt") failed=$(grep -c '^FAIL' "$out/slices.txt")
echo "soak: model schedules: $passed slices passed ($(grep -c . "$done_before") of them before)," \
	"$failed failed, $schedules schedules of each test; this run $(($(date +%s) - t0)) s"

if [ "$qemu_runs" -gt 0 ]; then
	make -s -C "$src" O="$out/qemu-build" qemu-images qemu-linux >"$out/qemu-build.log" 2>&1 ||
		{ echo "soak: QEMU images failed ($out/qemu-build.log)"; exit 1; }
	# Built (or found in the cache) once here, not by each of the runs at once.
	QEMU=${QEMU:-$("$src/platform/qemu/build.sh")} || { echo "soak: QEMU failed"; exit 1; }
	export QEMU
	names=${SOAK_QEMU_CONFIGS:-$(awk -F'|' '/^[a-z]/ { gsub(/ /, "", $1);
		if ($1 ~ /smp/ && $0 !~ /manual/) print $1 }' "$src/tests/qemu/configs.txt")}
	for name in $names; do
		t1=$(date +%s)
		seq 1 "$qemu_runs" | sed "s/^/$name /" |
			SOAK_OUT=$out SOAK_SRC=$src SOAK_QEMU=$out/qemu-build/qemu \
				xargs -r -P "$jobs" -n 2 "$0" --qemu >"$out/qemu/$name.txt"
		grep -v '^PASS' "$out/qemu/$name.txt"
		ok=$(grep -c '^PASS' "$out/qemu/$name.txt") bad=$(grep -c '^FAIL' "$out/qemu/$name.txt")
		echo "soak: qemu $name: $ok of $qemu_runs passed in $(($(date +%s) - t1)) s" \
			"($jobs at once)"
		passed=$((passed + ok)) failed=$((failed + bad))
	done
fi
echo "soak: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
