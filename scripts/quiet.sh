#!/bin/sh
# One stage of a build as a person sees it: a progress line, the output into a log, the log's
# last lines and its path when the stage fails.
#   quiet.sh LOG LABEL CMD [ARG...]    appends CMD's output to LOG; exit status CMD's
# V=1 in the environment lets the output through instead.
set -u
log=$1 label=$2
shift 2
if [ -n "${V:-}" ]; then
	echo "== $label"
	exec "$@"
fi
mkdir -p "$(dirname "$log")"
printf '== %s ... ' "$label"
t0=$(date +%s)
if "$@" >>"$log" 2>&1; then
	echo "done ($(($(date +%s) - t0)) s)"
	exit 0
fi
rc=$?
echo "FAILED"
tail -n 25 "$log" | sed 's/^/   | /'
echo "== the whole output: $log"
exit $rc
