#!/bin/sh
# FEAT_SPE smoke test of the project's QEMU (platform/qemu, -cpu max,spe=on): boots
# spe-smoke.bin at EL2 on the virt board under -icount shift=0, judges its RESULT lines, decodes
# the Profiling Buffer it printed (SPE-BUF lines) with tools/vperf-spe, and runs it a second
# time to check that the records and RESULT lines are the same (deterministic under -icount),
# and a third time with EL3 present (secure=on), which must change nothing. Then spe-nspb.bin,
# started at EL3 as firmware (-bios, secure=on), checks the MDCR_EL3.NSPB rules from Non-secure
# and Secure EL2 and EL1 (nspb.c) and exits through semihosting.
# A failed check fails the test after these steps, so a run still says whether it repeats.
#   smoke.sh IMAGE VPERF_SPE NSPB_IMAGE    QEMU=path/to/qemu-system-aarch64 (default: on PATH)
# -icount sleep=off: the virtual clock follows the instructions only (with sleep=on it also
# advances in host time while QEMU starts), so the Timestamp packets repeat too.
# SPE_BENCH=1: one more run without -icount, printing the cost of sampling (spe-bench line).
# Prints "spe-smoke: PASS" or "spe-smoke: FAIL (...)"; exit status 0 or 1. Logs in $TMPDIR.
set -u
image=${1:?spe-smoke.bin}
decoder=${2:?vperf-spe}
nspb_image=${3:?spe-nspb.bin}
qemu=${QEMU:-qemu-system-aarch64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run LOG [MACHINE-OPTIONS]
run() {
	timeout 120 "$qemu" -nodefaults -M "virt,virtualization=on,gic-version=3${2:-}" \
		-cpu max,spe=on -m 256M -icount shift=0,sleep=off -display none -serial stdio \
		-no-reboot -kernel "$image" </dev/null >"$1" 2>&1
}

fail() {
	echo "spe-smoke: FAIL ($1)"
	exit 1
}

run "$tmp/log1"
grep -q '^SUITE DONE' "$tmp/log1" || { cat "$tmp/log1"; fail "no SUITE DONE"; }
grep '^RESULT' "$tmp/log1"
failed=
grep -q '^RESULT .* FAIL' "$tmp/log1" && failed="a check failed"
grep '^SPE-BUF ' "$tmp/log1" | cut -d' ' -f2 | tr -d '\n' | xxd -r -p >"$tmp/buf"
[ -s "$tmp/buf" ] || fail "no buffer"
"$decoder" --summary "$tmp/buf" || fail "vperf-spe: malformed records"
"$decoder" --dump "$tmp/buf" | head -n 24

run "$tmp/log2"
grep '^SPE-BUF ' "$tmp/log2" | cut -d' ' -f2 | tr -d '\n' | xxd -r -p >"$tmp/buf2"
cmp -s "$tmp/buf" "$tmp/buf2" || fail "records differ between two -icount runs"
# The RESULT lines repeat too (the interval checks read Timestamps)
[ "$(grep '^RESULT' "$tmp/log1")" = "$(grep '^RESULT' "$tmp/log2")" ] ||
	fail "RESULT lines differ between two -icount runs"
# With EL3 (secure=on) the payload still runs at Non-secure EL2: QEMU's direct boot sets
# MDCR_EL3.NSPB = 0b11 as firmware must (SPE 3.4.6, Linux's booting.rst), so nothing traps to
# EL3 and the run is the same, byte for byte (else the first SPE access traps to an EL3 with no
# handler: no SUITE DONE).
run "$tmp/log3" ,secure=on
[ "$(grep '^RESULT\|^SPE-BUF' "$tmp/log1")" = "$(grep '^RESULT\|^SPE-BUF' "$tmp/log3")" ] ||
	fail "with EL3 (secure=on) the run differs: MDCR_EL3.NSPB"
# EL3: the firmware image in the secure flash; RESULT lines of its own, judged as the others.
timeout 120 "$qemu" -nodefaults -M virt,secure=on,virtualization=on,gic-version=3 \
	-cpu max,spe=on -m 256M -icount shift=0,sleep=off -display none -serial stdio -no-reboot \
	-semihosting -bios "$nspb_image" </dev/null >"$tmp/log-nspb" 2>&1
grep -q '^SUITE DONE' "$tmp/log-nspb" || { cat "$tmp/log-nspb"; fail "EL3 (spe-nspb): no SUITE DONE"; }
grep '^RESULT' "$tmp/log-nspb"
grep -q '^RESULT .* FAIL' "$tmp/log-nspb" && failed="a check failed"
if [ "${SPE_BENCH:-0}" = 1 ]; then
	timeout 300 "$qemu" -nodefaults -M virt,virtualization=on,gic-version=3 -cpu max,spe=on \
		-m 256M -display none -serial stdio -no-reboot -kernel "$image" </dev/null |
		grep '^spe-bench'
fi
[ -n "$failed" ] && fail "$failed; records identical in two runs"
echo "spe-smoke: PASS ($(wc -c <"$tmp/buf") bytes of records, identical in two runs and with EL3;" \
	"$(grep -c '^RESULT' "$tmp/log1") checks at EL2, $(grep -c '^RESULT' "$tmp/log-nspb") at EL3)"
