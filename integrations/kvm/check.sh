#!/bin/sh
# make kvm-check: every judge of vperf as KVM's PMU and SPE backend in one run (checks.txt: the
# series' style, the boot, the conformance suite as a KVM guest in both counter ranges with the
# host's perf meanwhile, SPE in KVM guests, make validate's isolation pair, KVM's selftests and
# ours, and must-fail mutants of the glue, each of which one of those checks must catch). One
# "PASS|FAIL kvm-check NAME (N s)" line a check, the checks' own verdict lines before it (an
# "XPASS kvm-guest TEST ..." line each a test listed as an expected failure that passed, counted
# on the check's line and in all), then "kvm-check: N passed, N failed".
#
# Usage: QEMU_OUT=DIR integrations/kvm/check.sh   (make kvm-check; DIR holds pmu-suite.bin)
#   KVM_CHECKS   the names of the checks to run (default: every line of checks.txt)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${QEMU_OUT:?QEMU_OUT (the directory with pmu-suite.bin)}"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# run SCRIPT ENV LOG: the script with the line's environment (VAR=value words), its output to LOG.
run() {
	case "$1" in
	checkpatch) set -- "$here/build.sh --checkpatch" "$2" "$3" ;;
	boot | guest | selftest) set -- "$here/$1.sh" "$2" "$3" ;;
	validate:*)
		eval "env $2 \"\$root/tests/validate/debian/run.sh\" one \"\${1#validate:}\"" \
			>"$3" 2>"$3.err" </dev/null
		suite_verdict "$3"
		return ;;
	*) echo "kvm-check: unknown script $1" >"$3" && return 2 ;;
	esac
	# The environment is shell words: a value with spaces is quoted ("a b").
	eval "env $2 $1" >"$3" 2>"$3.err" </dev/null
}

# suite_verdict LOG: every guest of a make validate configuration (LOG, its serial log) ran the
# suite to its end with no test failed; the verdict line said as the other scripts say theirs.
suite_verdict() {
	guests=$(grep -c "^kvm-init: \[vm[0-9]*\] " "$1")
	done_ok=$(grep -c "SUITE DONE passed=[0-9]* failed=0 " "$1")
	if [ "$guests" -gt 0 ] && [ "$done_ok" -eq "$guests" ] && ! grep -q "RESULT .* FAIL" "$1"; then
		echo "PASS suite: $guests guests" >>"$1"
	else
		echo "FAIL suite: $done_ok of $guests guests passed" >>"$1"
		return 1
	fi
}

passed=0 failed=0 xpassed=0
while IFS='|' read -r name script envs flags; do
	name=$(echo "$name" | tr -d ' \t')
	case "$name" in '' | '#'*) continue ;; esac
	[ -z "${KVM_CHECKS:-}" ] || case " $KVM_CHECKS " in *" $name "*) ;; *) continue ;; esac
	script=$(echo "$script" | tr -d ' \t')
	flags=$(echo "$flags" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
	must=${flags#must-fail=}
	[ "$must" != "$flags" ] || must=
	t0=$(date +%s)
	run "$script" "$envs" "$logs/$name"
	rc=$?
	grep -E '^(PASS|FAIL|XFAIL|XPASS) |RESULT .* FAIL|: [0-9]+ passed' "$logs/$name" | sed 's/^/  /'
	xpass=$(grep -c '^XPASS ' "$logs/$name")
	xpassed=$((xpassed + xpass))
	secs=$(($(date +%s) - t0))
	if [ -z "$must" ] && [ "$rc" -eq 0 ]; then
		verdict=PASS
	elif [ -n "$must" ] && [ "$rc" -ne 0 ] && grep -Eq "$must" "$logs/$name"; then
		verdict=PASS why=" (caught: $(grep -E "$must" "$logs/$name" | head -n 1))"
	else
		verdict=FAIL
		why=" ($( [ -n "$must" ] && echo "not caught by '$must'; " )exit $rc)"
		# What the check's script printed last (guest.sh: the serial log's lines it judged),
		# so that a failure in CI can be read from CI's output alone.
		tail -n 12 "$logs/$name" | sed 's/^/  log: /'
		tail -n 5 "$logs/$name.err" | sed 's/^/  stderr: /'
	fi
	[ "$verdict" = PASS ] && passed=$((passed + 1)) || failed=$((failed + 1))
	echo "$verdict kvm-check $name ($secs s$([ "$xpass" -eq 0 ] || echo ", $xpass XPASS"))${why:-}"
	why=
done <"$here/checks.txt"
echo "kvm-check: $xpassed XPASS (a test listed as an expected failure passed: a KVM_GUEST_FLAKY one is only reported, a KVM_GUEST_XFAIL one fails its line)"
echo "kvm-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
