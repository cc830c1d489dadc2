#!/bin/sh
# Run test programs, let their output through (cmocka's summary lines must reach CI), and append
# one line per test case to a results file: "<passed> <failed> <name>".
#   run-tests.sh RESULTS BIN...                    cmocka binaries
#   run-tests.sh --script RESULTS NAME CMD [ARG...] one command that passes or fails as a whole
# RUN_TESTS_TAG=t in the environment names the binaries' results "name@t" (the same tests run
# again in another configuration).
set -u

if [ "${1:-}" = "--script" ]; then
	results=$2 name=$3
	shift 3
	if "$@"; then
		echo "[  PASSED  ] $name"
		echo "1 0 $name" >>"$results"
	else
		echo "[  FAILED  ] $name"
		echo "0 1 $name" >>"$results"
	fi
	exit 0
fi

results=$1
shift
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
	rm -f "$log" "$log.rc"
done
exit 0
