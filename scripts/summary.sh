#!/bin/sh
# Add up run-tests.sh result files, print the closing line, fail if anything failed or nothing ran.
#   summary.sh [--label NAME] RESULTS...    NAME starts the closing line (default: check)
set -u
label=check
if [ "${1:-}" = "--label" ]; then
	label=$2
	shift 2
fi
passed=0 failed=0
for f in "$@"; do
	[ -f "$f" ] || { echo "summary: missing $f (a stage did not run)"; failed=$((failed + 1)); continue; }
	while read -r p n name; do
		passed=$((passed + p))
		failed=$((failed + n))
		[ "$n" -eq 0 ] || echo "summary: FAILED in $name"
	done <"$f"
done
echo "$label: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
