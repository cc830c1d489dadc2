#!/bin/sh
# The RESULT and COST lines of a log as tab-separated rows: target, configuration, guest
# ([vmI] under the reference hypervisor, DOMn: under Xen, "-" alone), then the test, its verdict
# and the detail, or the cost's name and value. The reference hypervisor's own checks
# ("RESULT host NAME VERDICT") are vperf's, not the guest's: the pattern leaves them out. A guest
# that printed results but no "SUITE DONE" (it crashed, hung or was cut off) gets a FAIL of its
# own, suite-done. The "GAP out in" lines of the two guests of a pair (switch_cost.c) become a
# cost of their own, `vm-switch` of guest "pair": within a gap of one guest in which the other ran
# exactly once, the counts from the one's last read to the other's first and back, each a switch;
# the median of them all, in instructions (-icount shift=0: one per nanosecond), and a RESULT
# cost-switch-pair naming how many; or, when a run of one guest overlaps a run of the other
# (their CNTPCT_EL0 differ by an offset), a FAIL and no cost. A line may end in several CRs (a guest's console through a
# VMM's pty inside the hypervisor's: "\r\r\n").
#   extract.sh TARGET CONFIGURATION LOG OUT   appends to OUT/results.tsv and OUT/costs.tsv
set -u
out=$4
awk -v t="$1" -v c="$2" -v res="$out/results.tsv" -v cost="$out/costs.tsv" '
function guest(p) {
	if (match(p, /\[vm[0-9]+\]/)) return substr(p, RSTART + 1, RLENGTH - 2)
	if (match(p, /DOM[0-9]+/)) return tolower(substr(p, RSTART, RLENGTH))
	return "-"
}
{ sub(/\r+$/, "") }
/RESULT [^ ]+ (PASS|FAIL|SKIP)/ {
	i = index($0, "RESULT "); s = substr($0, i + 7)
	split(s, w, " ")
	d = s; sub(/^[^ ]+ [^ ]+ ?/, "", d); gsub(/\t/, " ", d)
	g = guest(substr($0, 1, i - 1)); ran[g] = 1
	printf "%s\t%s\t%s\t%s\t%s\t%s\n", t, c, g, w[1], w[2], d >> res
}
/SUITE DONE/ { done[guest(substr($0, 1, index($0, "SUITE DONE") - 1))] = 1 }
/GAPS [0-9]+ [0-9]+$/ {
	i = index($0, "GAPS "); split(substr($0, i + 5), w, " ")
	freq[guest(substr($0, 1, i - 1))] = w[1]
}
/GAP [0-9]+ [0-9]+$/ {
	i = index($0, "GAP "); split(substr($0, i + 4), w, " ")
	g = guest(substr($0, 1, i - 1)); k = ngap[g]++
	gout[g, k] = w[1] + 0; gin[g, k] = w[2] + 0
}
/COST [a-z0-9-]+ [0-9.]+$/ {
	i = index($0, "COST "); split(substr($0, i + 5), w, " ")
	printf "%s\t%s\t%s\t%s\t%s\n", t, c, guest(substr($0, 1, i - 1)), w[1], w[2] >> cost
}
# switches(A, B): each gap of A in which B ran once (B back in after A went out, out again
# before A came back, and not back before A): the two switches, into sw[].
function switches(a, b,   j, r) {
	r = 0
	for (j = 0; j < ngap[a]; j++) {
		while (r < ngap[b] && gin[b, r] < gout[a, j]) r++
		if (r + 1 < ngap[b] && gout[b, r + 1] <= gin[a, j] && gin[b, r + 1] > gin[a, j]) {
			sw[nsw++] = gin[b, r] - gout[a, j]
			sw[nsw++] = gin[a, j] - gout[b, r + 1]
		}
	}
}
# overlaps(A, B): the runs of A (from the end of one of its gaps to the start of the next) in which
# a run of B began or went on. Two guests on one CPU never run at once: on one clock there are
# none, so any is a sign that their CNTPCT_EL0 are not one clock (a physical offset per VM).
function overlaps(a, b,   j, r, n) {
	n = r = 0
	for (j = 0; j + 1 < ngap[a]; j++) {
		while (r + 1 < ngap[b] && gout[b, r + 1] <= gin[a, j]) r++
		if (r + 1 < ngap[b] && gin[b, r] < gout[a, j + 1]) n++
	}
	return n
}
function median(   i, j, v) {
	for (i = 1; i < nsw; i++) {
		v = sw[i]
		for (j = i - 1; j >= 0 && sw[j] > v; j--) sw[j + 1] = sw[j]
		sw[j + 1] = v
	}
	return nsw % 2 ? sw[(nsw - 1) / 2] : (sw[nsw / 2 - 1] + sw[nsw / 2]) / 2
}
function pair_cost(   g, n, p, m) {
	for (g in ngap) p[n++] = g
	if (n != 2) return
	if ((m = overlaps(p[0], p[1]) + overlaps(p[1], p[0])) > 0) {
		printf "%s\t%s\tpair\tcost-switch-pair\tFAIL\t%d runs of one guest overlap runs of the other: their CNTPCT_EL0 are not one clock\n", t, c, m >> res
		return
	}
	nsw = 0; switches(p[0], p[1]); switches(p[1], p[0])
	if (!nsw) {
		printf "%s\t%s\tpair\tcost-switch-pair\tFAIL\tno gap of one guest held exactly one run of the other\n", t, c >> res
		return
	}
	m = median() * 1000000000 / freq[p[0]]
	printf "%s\t%s\tpair\tvm-switch\t%.1f\n", t, c, m >> cost
	printf "%s\t%s\tpair\tcost-switch-pair\tPASS\t%d switches between %s and %s, median %.1f instructions\n", t, c, nsw, p[0], p[1], m >> res
}
END {
	pair_cost()
	for (g in ran)
		if (!(g in done))
			printf "%s\t%s\t%s\tsuite-done\tFAIL\tno SUITE DONE after its results\n", t, c, g >> res
}' "$3"
