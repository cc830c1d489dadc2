#!/bin/sh
# make validate: judge hypervisors against the architecture with the same guests (the PMU and SPE
# conformance suite, the Linux guest, the cost loop of tests/qemu/guest/cost.c), all on the
# project's QEMU, and write one report (docs/validation.md).
#   validate.sh OUT [TARGET...]   the targets of targets.txt (default: every runnable one); logs
#                                 in OUT/logs, the report in OUT/report.md and OUT/report.html
# Environment: QEMU_OUT and XEN_OUT as the runners take them (make validate sets them);
# VALIDATE_SKIP: a shell pattern of configurations not to run (make check: 'linux-*');
# VALIDATE_ONLY: a shell pattern of the only configurations to run (e.g. '*linux*').
set -u
here=$(cd "$(dirname "$0")" && pwd)
srctree=$(cd "$here/../.." && pwd)
out=${1:?validate.sh OUT [TARGET...]}
shift
mkdir -p "$out/logs" && out=$(cd "$out" && pwd)
targets_file=$here/targets.txt

fields() { grep -v '^#' "$targets_file" | grep -v '^[[:space:]]*$'; }
field() { echo "$1" | cut -d'|' -f"$2" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'; }
line_of() { fields | awk -F'|' -v t="$1" '{ n = $1; gsub(/ /, "", n) } n == t'; }

[ $# -gt 0 ] || set -- $(fields | awk -F'|' '{ n = $1; gsub(/ /, "", n); print n }')
for t in "$@"; do
	[ -n "$(line_of "$t")" ] || { echo "validate: no target '$t' (tests/validate/targets.txt)" >&2; exit 2; }
done

# run_config RUNNER NAME LOG: one configuration, its whole serial log into LOG.
run_config() {
	case "$1" in
	qemu) "$srctree/tests/qemu/run.sh" one "$2" >"$3" 2>&1 ;;
	xen) "$srctree/integrations/xen/check.sh" one "$2" >"$3" 2>&1 ;;
	# (the Debian trees and the initramfs are built on first use, their progress on stderr)
	debian) WORK="$out/debian" "$here/debian/run.sh" one "$2" >"$3" ;;
	esac
}

: >"$out/results.tsv"
: >"$out/costs.tsv"
: >"$out/runs.tsv"
start=$(date +%s)
for t in "$@"; do
	l=$(line_of "$t")
	runner=$(field "$l" 2) configs=$(field "$l" 3)
	if [ "$runner" = none ]; then
		printf '%s\t-\tnot run\t%s\n' "$t" "$(field "$l" 4)" >>"$out/runs.tsv"
		echo "validate: $t not run: $(field "$l" 4)"
		continue
	fi
	for c in $configs; do
		case "$c" in ${VALIDATE_SKIP:-''}) continue ;; esac
		case "$c" in ${VALIDATE_ONLY:-*}) ;; *) continue ;; esac
		log=$out/logs/$t--$c.log t0=$(date +%s)
		echo "validate: $t: $c"
		run_config "$runner" "$c" "$log"
		n=$(grep -c 'RESULT \|COST ' "$log")
		printf '%s\t%s\t%s lines\t%s s\n' "$t" "$c" "$n" $(($(date +%s) - t0)) >>"$out/runs.tsv"
		[ "$n" -gt 0 ] || echo "validate: $t: $c printed no RESULT (log $log)"
		"$here/extract.sh" "$t" "$c" "$log" "$out"
	done
done
elapsed=$(($(date +%s) - start))
# The command as given: the configuration patterns too, when set.
cmd="make validate TARGETS=\"$*\""
[ -z "${VALIDATE_ONLY:-}" ] || cmd="VALIDATE_ONLY='$VALIDATE_ONLY' $cmd"
[ -z "${VALIDATE_SKIP:-}" ] || cmd="VALIDATE_SKIP='$VALIDATE_SKIP' $cmd"
"$here/report.sh" "$out" "$here/sections.txt" "$cmd" "$elapsed" "$*"
echo "validate: report in $out/report.md and $out/report.html ($elapsed s)"
