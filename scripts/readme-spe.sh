#!/bin/sh
# The vperf-spe commands the README and docs/vperf-spe.md show (lines starting with
# "build/demo/host/bin/vperf-spe "), run on what `make demo` left in DEMO_OUT (build/demo in the
# docs): each must exit 0 and print something. A smoke test of the documented commands for
# make check.
#   readme-spe.sh SRCTREE DEMO_OUT
set -u
src=$1 demo=$2
cmds=$(grep -h '^build/demo/host/bin/vperf-spe ' "$src/README.md" "$src/docs/vperf-spe.md" |
	sed 's/[[:space:]]*#.*//')
[ -n "$cmds" ] || { echo "readme-spe: no vperf-spe command found in the docs"; exit 1; }
n=0 bad=0
while IFS= read -r cmd; do
	run=$(echo "$cmd" | sed "s|build/demo/|$demo/|g")
	n=$((n + 1))
	if out=$(sh -c "$run" 2>&1) && [ -n "$out" ]; then
		echo "  ok: $cmd ($(echo "$out" | wc -l) lines)"
	else
		echo "  FAILED: $cmd"
		echo "$out" | tail -n 5 | sed 's/^/    /'
		bad=$((bad + 1))
	fi
done <<EOC
$cmds
EOC
echo "readme-spe: $n commands, $bad failed"
[ "$bad" -eq 0 ]
