# Sourced by the runners that boot configurations under QEMU and judge them from a serial log
# (tests/qemu/run.sh, integrations/xen/check.sh): reading a configs.txt, the verdict lines
# ("[  PASSED  ] SUITE:NAME ..." as cmocka prints them) and the results lines of run-tests.sh
# ("<passed> <failed> SUITE:NAME"), the "[  XPASS   ]" lines of the tests that passed though
# listed as expected failures, and the loop that closes with "SUITE: N passed, N failed".
# The sourcing script sets: suite (the results' prefix: qemu, xen), here (the directory holding
# configs.txt), results (the file to append to), logs (where each configuration's log goes), and
# defines run_config LINE.

xpassc=0 # the tests reported XPASS (verdict_xpass)

trim() { sed 's/^[[:space:]]*//; s/[[:space:]]*$//'; }

# The configurations of configs.txt: "name | ... | flags" lines, comments left out.
configs() { grep -v '^[[:space:]]*#' "$here/configs.txt" | grep '|'; }

# The configurations whose name contains $1 (all without it).
selected() { configs | awk -F'|' -v p="${1:-}" 'index($1, p)'; }

# config_named NAME: the line of the configuration called exactly NAME.
config_named() { configs | awk -F'|' -v n="$1" '{ g = $1; gsub(/[ \t]/, "", g); if (g == n) print }'; }

# flag_value FLAGS KEY: the value of KEY=... among the flags (empty when absent).
flag_value() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# has_flag FLAGS WORD: the flags hold WORD on its own.
has_flag() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }

# The tests the configuration expects to fail, space-separated: xfail=a,b must fail (each a
# known, deterministic defect of that platform or configuration: one that passes, XPASS, fails
# the configuration, so that the list stays true), flaky=c,d may fail (each a known intermittent
# outcome, its reason in a comment above the line: an XPASS is reported and fails nothing).
xfail_tests() { flag_value "$1" xfail | tr ',' ' '; }
flaky_tests() { flag_value "$1" flaky | tr ',' ' '; }

# xpassed LOG TESTS: those of TESTS (space-separated) that LOG shows passing ("RESULT [host ]NAME
# PASS", in any guest) and failing nowhere, each with a space before it.
xpassed() {
	for xp_t in $2; do
		grep -q "RESULT \(host \)\{0,1\}$xp_t PASS" "$1" &&
			! grep -q "RESULT \(host \)\{0,1\}$xp_t FAIL" "$1" && printf ' %s' "$xp_t"
	done
	return 0
}

# verdict_xpass NAME MUST MAY: one "[  XPASS   ]" line per test that passed though the
# configuration lists it, MUST those of xfail= (the configuration fails: say so in its verdict),
# MAY those of flaky= (reported only); each counted in xpassc, the closing line's.
verdict_xpass() {
	for xp_t in $2; do
		echo "[  XPASS   ] $suite:$1: $xp_t passed, listed xfail= (must fail): the configuration fails"
		xpassc=$((xpassc + 1))
	done
	for xp_t in $3; do
		echo "[  XPASS   ] $suite:$1: $xp_t passed, listed flaky= (may fail)"
		xpassc=$((xpassc + 1))
	done
}

# verdict_pass NAME PASSED DETAIL: the configuration passed with PASSED tests.
verdict_pass() {
	echo "[  PASSED  ] $suite:$1 ($3)"
	echo "$2 0 $suite:$1" >>"$results"
}

# verdict_fail NAME PASSED FAILED WHY: it failed; WHY names the unexpected failures.
verdict_fail() {
	echo "[  FAILED  ] $suite:$1:$4 (log: $logs/$1.log)"
	echo "$2 $3 $suite:$1" >>"$results"
	return 1
}

# verdict_infra NAME REASON: the run says nothing about vperf (QEMU or an image missing, QEMU
# refusing its arguments, no banner, a guest not started); a failure of any configuration,
# must-fail ones included.
verdict_infra() {
	echo "[  FAILED  ] $suite:$1: infrastructure failure: $2 (log: $logs/$1.log)"
	echo "0 1 $suite:$1" >>"$results"
	return 1
}

# verdict_must_fail NAME CAUGHT ALL: a deliberately broken integration passes when a test caught
# it (CAUGHT: the failed tests, empty when none did); ALL lists everything unexpected.
verdict_must_fail() {
	if [ -n "$(echo "$2" | tr -d ' ')" ]; then
		echo "[  PASSED  ] $suite:$1 (breakage caught: $(echo $2))"
		echo "1 0 $suite:$1" >>"$results"
		return 0
	fi
	echo "[  FAILED  ] $suite:$1 (the suite did not notice the broken integration:$3)"
	echo "0 1 $suite:$1" >>"$results"
	return 1
}

# run_selected [PART]: run_config on each configuration whose name contains PART but those
# flagged "manual" (run only by name), then the closing lines; status 0 when all passed.
run_selected() {
	start=$(date +%s) okc=0 badc=0 xpassc=0 tmp=$(mktemp)
	selected "${1:-}" | awk -F'|' '!index(" " $5 " ", " manual ")' >"$tmp"
	while IFS= read -r line; do
		if run_config "$line"; then okc=$((okc + 1)); else badc=$((badc + 1)); fi
	done <"$tmp"
	rm -f "$tmp"
	echo "$suite: $okc configurations passed, $badc failed in $(($(date +%s) - start)) s, $xpassc XPASS (logs: $logs)"
	echo "$suite: $okc passed, $badc failed"
	[ "$badc" -eq 0 ]
}

# run_named NAME: the configuration called NAME, its verdict, then its whole log.
run_named() {
	line=$(config_named "$1")
	[ -n "$line" ] || { echo "$suite: no configuration '$1'" >&2; exit 2; }
	run_config "$line"
	cat "$logs/$1.log"
}
