#!/bin/sh
# Run test programs, let their output through (cmocka's summary lines must reach CI), and append
# one line per test case to a results file: "<passed> <failed> <name>".
#   run-tests.sh RESULTS BIN...                    cmocka binaries
#   run-tests.sh --script RESULTS NAME CMD [ARG...] one command that passes or fails as a whole
#   run-tests.sh --stage RESULTS NAME CMD [ARG...]  a command whose tests write RESULTS themselves
# Exit status: 0 when everything passed, 1 when something failed (every binary still runs), 2 on
# a usage error: RESULTS missing or empty (an empty make variable would otherwise shift the
# arguments: NAME taken for the results file, the command for NAME, and nothing run).
# RUN_TESTS_TAG=t in the environment names the binaries' results "name@t" (the same tests run
# again in another configuration).
set -u

usage() {
	echo "run-tests.sh: $1" >&2
	echo "usage: run-tests.sh RESULTS BIN... | run-tests.sh --script RESULTS NAME CMD [ARG...]" >&2
	exit 2
}

if [ "${1:-}" = "--script" ]; then
	[ $# -ge 4 ] || usage "--script needs RESULTS, NAME and a command"
	results=$2 name=$3
	[ -n "$results" ] || usage "empty RESULTS path (for $name)"
	shift 3
	if "$@"; then
		echo "[  PASSED  ] $name"
		echo "1 0 $name" >>"$results"
		exit 0
	fi
	echo "[  FAILED  ] $name"
	echo "0 1 $name" >>"$results"
	exit 1
fi

# A stage of make check whose tests write their own result lines: its failure counts once more
# only when it recorded none (a build that broke before its tests ran).
if [ "${1:-}" = "--stage" ]; then
	[ $# -ge 4 ] || usage "--stage needs RESULTS, NAME and a command"
	results=$2 name=$3
	[ -n "$results" ] || usage "empty RESULTS path (for $name)"
	shift 3
	"$@" && exit 0
	rc=$?
	if ! awk '$2 > 0 { bad = 1 } END { exit !bad }' "$results" 2>/dev/null; then
		echo "[  FAILED  ] $name (exit $rc before any test failure was recorded)"
		echo "0 1 $name" >>"$results"
	fi
	exit 1
fi

[ $# -ge 1 ] && [ -n "$1" ] || usage "empty RESULTS path"
results=$1
shift
status=0
for bin in "$@"; do
	name=$(basename "$bin")${RUN_TESTS_TAG:+@$RUN_TESTS_TAG}
	log=$(mktemp)
	{
		"$bin" 2>&1
		echo $? >"$log.rc"
	} | tee "$log"
	rc=$(cat "$log.rc")
	passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	failed=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
	# A binary that crashed, or exited non-zero with no failure counted, is one more failure.
	if [ "$rc" -ne 0 ] && [ "${failed:-0}" -eq 0 ]; then
		failed=1
	fi
	echo "${passed:-0} ${failed:-0} $name" >>"$results"
	[ "${failed:-0}" -eq 0 ] || status=1
	rm -f "$log" "$log.rc"
done
exit $status
