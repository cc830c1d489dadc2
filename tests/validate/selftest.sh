#!/bin/sh
# make check's test of make validate's own parts, on the logs of fixtures/: the RESULT and COST
# lines are found whatever prefix a hypervisor gives its guests' consoles (extract.sh), the
# report names the rule a FAIL violates and carries the costs (report.sh), a guest without
# "SUITE DONE" is a FAIL, a switch pair on two clocks gives a FAIL and no cost, and the gate
# fails on a test that fails under the hypervisor only, not on one that also fails bare.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/vperf-validate.XXXXXX")
trap 'rm -rf "$out"' EXIT
fail() { echo "validate-selftest: $*"; exit 1; }

: >"$out/results.tsv"
: >"$out/costs.tsv"
printf 'bare\tb\t2 lines\t1 s\nbare\tb2\t1 lines\t1 s\nhyp\th\t4 lines\t1 s\n' >"$out/runs.tsv"
"$here/extract.sh" bare b "$here/fixtures/bare.log" "$out"
"$here/extract.sh" bare b2 "$here/fixtures/bare-el2.log" "$out"
"$here/extract.sh" hyp h "$here/fixtures/hyp.log" "$out"
[ "$(wc -l <"$out/results.tsv")" -eq 8 ] || fail "want 8 results, got: $(cat "$out/results.tsv")"
grep -q "$(printf 'hyp\th\tvm0\tpmcr-n\tFAIL\tPMCR_EL0.N 3 (expected 4)')" "$out/results.tsv" ||
	fail "[vm0] line not parsed"
grep -q "$(printf 'hyp\th\tdom1\tspe-id\tPASS')" "$out/results.tsv" || fail "Xen DOM1 line not parsed"
grep -q "$(printf 'hyp\th\tvm0\tsuite-done\tFAIL')" "$out/results.tsv" || fail "no suite-done FAIL"
grep -q "$(printf 'bare\tb\t-\tsuite-done')" "$out/results.tsv" && fail "suite-done FAIL after SUITE DONE"
grep -q host-counters-intact "$out/results.tsv" && fail "a RESULT host line was kept"
grep -q "$(printf 'bare\tb\t-\tpmccntr-read\t0.0$')" "$out/costs.tsv" || fail "CRLF COST line not parsed"

"$here/report.sh" "$out" "$here/sections.txt" "selftest" 1 "bare hyp"
grep -q '^| chain-swinc | FAIL 1/2 | FAIL 1/1 | D14.1 ' "$out/report.md" ||
	fail "chain-swinc row wrong: $(grep chain-swinc "$out/report.md")"
grep -q '^| pmcr-n | PASS | FAIL 1/1 | I5.3.21 PMCR_EL0.N |$' "$out/report.md" ||
	fail "pmcr-n row wrong: $(grep pmcr-n "$out/report.md")"
grep -q '^| pmccntr-read | 0.0 | 282.0 |$' "$out/report.md" || fail "cost row wrong"
grep -q '<td class=fail>FAIL 1/1</td>' "$out/report.html" || fail "HTML verdict cell wrong"
grep -q '<rect ' "$out/report.html" || fail "no bar in the HTML chart"

"$here/gate.sh" "$out" bare hyp >"$out/gate.log" && fail "gate passed a regression"
grep -q 'pmcr-n FAILs on hyp' "$out/gate.log" || fail "gate did not name pmcr-n"
grep -q 'suite-done FAILs on hyp' "$out/gate.log" || fail "gate did not name the crashed guest"
grep -q 'chain-swinc FAILs' "$out/gate.log" && fail "gate blamed a test that also fails bare"
# A guest's console through a VMM inside the hypervisor (the kvm target): "\r\r\n" line ends.
mkdir "$out/cr" && : >"$out/cr/results.tsv" && : >"$out/cr/costs.tsv"
printf '[vm0] COST pmccntr-read 1974.0\r\r\n[vm0] RESULT cost PASS 1000\r\r\n' >"$out/cr/kvm.log"
"$here/extract.sh" kvm k "$out/cr/kvm.log" "$out/cr"
grep -q "$(printf 'kvm\tk\tvm0\tpmccntr-read\t1974.0$')" "$out/cr/costs.tsv" ||
	fail "COST line ending in CR CR LF not parsed"
# Two guests' gaps on one time line (switch_cost.c): a switch is counted only within a gap of
# one guest in which the other ran exactly once (not across a tick of the first, nor two runs
# of the other); six of them here, 10 10 20 50 50 50 counts, median 35 at 500 MHz: 70
# instructions.
mkdir "$out/sw" && : >"$out/sw/results.tsv" && : >"$out/sw/costs.tsv"
"$here/extract.sh" vperf s "$here/fixtures/switch.log" "$out/sw"
grep -q "$(printf 'vperf\ts\tpair\tvm-switch\t70.0$')" "$out/sw/costs.tsv" ||
	fail "switch cost wrong: $(cat "$out/sw/costs.tsv")"
grep -q "$(printf 'cost-switch-pair\tPASS\t6 switches between')" "$out/sw/results.tsv" ||
	fail "switch count wrong: $(grep pair "$out/sw/results.tsv")"
# The same pair on two clocks (each guest's CNTPCT_EL0 offset differently, as KVM 6.12 does for a VM
# whose VMM wrote its physical counter): the runs of one overlap the other's, which one CPU
# cannot do; no cost, a FAIL that says so.
mkdir "$out/sw2" && : >"$out/sw2/results.tsv" && : >"$out/sw2/costs.tsv"
# vm1 ran once within vm0's first gap (which alone would pair as two switches of 50 counts), and
# again from 500 to 700, while vm0 ran from 400 to 600.
printf '[vm%d] %s\n' 0 'GAPS 1000000000 2' 1 'GAPS 1000000000 3' 0 'GAP 100 400' 0 'GAP 600 900' \
	1 'GAP 50 150' 1 'GAP 350 500' 1 'GAP 700 800' >"$out/sw2/two-clocks.log"
"$here/extract.sh" kvm s "$out/sw2/two-clocks.log" "$out/sw2"
grep -q "$(printf 'cost-switch-pair\tFAIL\t2 runs of one guest overlap')" "$out/sw2/results.tsv" ||
	fail "two clocks not seen: $(cat "$out/sw2/results.tsv")"
[ ! -s "$out/sw2/costs.tsv" ] || fail "a switch cost from two clocks: $(cat "$out/sw2/costs.tsv")"
# A run without a cost configuration (the Linux guest alone): no empty cost table.
mkdir "$out/nocost" && : >"$out/nocost/costs.tsv"
printf 'kvm\tkvm-linux\t5 lines\t35 s\n' >"$out/nocost/runs.tsv"
printf 'kvm\tkvm-linux\tvm0\tlinux-pmu-probe\tPASS\t7 counters\n' >"$out/nocost/results.tsv"
"$here/report.sh" "$out/nocost" "$here/sections.txt" "selftest" 1 "kvm"
grep -q '^| operation |' "$out/nocost/report.md" && fail "an empty cost table"
grep -q '^None measured' "$out/nocost/report.md" || fail "no 'None measured' without costs"

# Every configuration targets.txt names is one its runner's configs.txt has: a misspelt name would
# only show when that target is run (minutes later, as a run with no RESULT).
configs_of() {
	case "$1" in
	qemu) echo "$here/../qemu/configs.txt" ;;
	xen) echo "$here/../../integrations/xen/configs.txt" ;;
	debian) echo "$here/debian/configs.txt" ;;
	esac
}
grep -v '^#' "$here/targets.txt" | grep '|' | while IFS='|' read -r target runner names _; do
	target=$(echo "$target" | tr -d ' ') runner=$(echo "$runner" | tr -d ' ')
	[ "$runner" = none ] && continue
	f=$(configs_of "$runner")
	[ -n "$f" ] || fail "target $target: unknown runner '$runner'"
	for c in $names; do
		grep -v '^[[:space:]]*#' "$f" | awk -F'|' -v n="$c" '{ g = $1; gsub(/[ \t]/, "", g) }
			g == n { found = 1 } END { exit !found }' ||
			fail "target $target: no configuration $c in $f"
	done
done || exit 1
echo "validate-selftest: extract, report and gate behave; every target's configurations exist"
