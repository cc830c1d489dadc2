#!/bin/sh
# Run test programs, let their output through (cmocka's summary lines must reach CI), and append
# one line per test case to a results file: "<passed> <failed> <name>".
#   run-tests.sh RESULTS BIN...                    cmocka binaries
#   run-tests.sh --script RESULTS NAME CMD [ARG...] one command that passes or fails as a whole
#   run-tests.sh --stage RESULTS NAME CMD [ARG...]  a command whose tests write RESULTS themselves
# Exit status: 0 when everything passed, 1 when something failed (every binary still runs), 2 on
# a usage error: RESULTS empty or not a path (no '/'), or its directory missing. An empty make
# variable in its place vanishes from the command line and shifts the arguments: NAME would be
# taken for the results file (a stray file named after the test in the current directory), the
# command's first word for NAME, and its options for the command, which fails for a reason that
# has nothing to do with the test.
# RUN_TESTS_TAG=t in the environment names the binaries' results "name@t" (the same tests run
# again in another configuration).
set -u

# check_results PATH NAME: PATH can be the results file.
check_results() {
	case "$1" in
	*/*) [ -d "$(dirname "$1")" ] || usage "no directory for the results file $1" ;;
	'') usage "empty RESULTS path${2:+ (for $2)}" ;;
	*) usage "RESULTS '$1' is not a path: an empty results variable before the test's name?" ;;
	esac
}

usage() {
	echo "run-tests.sh: $1" >&2
	echo "usage: run-tests.sh RESULTS BIN... | run-tests.sh --script|--stage RESULTS NAME CMD [ARG...]" >&2
	exit 2
}

if [ "${1:-}" = "--script" ]; then
	[ $# -ge 4 ] || usage "--script needs RESULTS, NAME and a command"
	results=$2 name=$3
	check_results "$results" "$name"
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
	check_results "$results" "$name"
	shift 3
	"$@" && exit 0
	rc=$?
	if ! awk '$2 > 0 { bad = 1 } END { exit !bad }' "$results" 2>/dev/null; then
		echo "[  FAILED  ] $name (exit $rc before any test failure was recorded)"
		echo "0 1 $name" >>"$results"
	fi
	exit 1
fi

[ $# -ge 1 ] || usage "no RESULTS path"
check_results "$1"
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
