#!/bin/sh
# The model's Linux-driver SPE buffer, decoded by the vperf-spe tool itself: every record's PC,
# data address and total latency must be the sampled load's (the end-to-end check of the SPE
# model with vperf-spe).
# Usage: spe_linux_cli.sh TEST_BINARY VPERF_SPE
set -eu
test_bin=$1 tool=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

VPERF_SPE_DUMP="$dir/buf" "$test_bin" >/dev/null 2>&1 || { echo "$test_bin failed"; exit 1; }
"$tool" --json "$dir/buf" >"$dir/records.json"
# One "pc va latency" line per record, in buffer order.
sed -n 's/.*"pc":{"addr":"\([^"]*\)".*"lat":{"total":\([0-9]*\).*"va":{"addr":"\([^"]*\)".*/\1 \3 \2/p' \
	"$dir/records.json" >"$dir/got"
want=$(wc -l <"$dir/buf.expect")
got=$(wc -l <"$dir/got")
[ "$want" -gt 0 ] || { echo "no samples expected: the model test did not dump"; exit 1; }
[ "$got" -eq "$(wc -l <"$dir/records.json")" ] || { echo "a record lacks pc, va or latency"; exit 1; }
if ! diff -u "$dir/buf.expect" "$dir/got"; then
	echo "vperf-spe decoded records differ from the sampled loads"
	exit 1
fi
echo "vperf-spe decoded $got records: PCs, data addresses and latencies as sampled"
