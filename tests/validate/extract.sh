#!/bin/sh
# The RESULT and COST lines of a log as tab-separated rows: target, configuration, guest
# ([vmI] under the reference hypervisor, DOMn: under Xen, "-" alone), then the test, its verdict
# and the detail, or the cost's name and value. The reference hypervisor's own checks
# ("RESULT host NAME VERDICT") are vperf's, not the guest's: the pattern leaves them out. A guest
# that printed results but no "SUITE DONE" (it crashed, hung or was cut off) gets a FAIL of its
# own, suite-done. A line may end in several CRs (a guest's console through a VMM's pty inside the
# hypervisor's: "\r\r\n").
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
/COST [a-z0-9-]+ [0-9.]+$/ {
	i = index($0, "COST "); split(substr($0, i + 5), w, " ")
	printf "%s\t%s\t%s\t%s\t%s\n", t, c, guest(substr($0, 1, i - 1)), w[1], w[2] >> cost
}
END {
	for (g in ran)
		if (!(g in done))
			printf "%s\t%s\t%s\tsuite-done\tFAIL\tno SUITE DONE after its results\n", t, c, g >> res
}' "$3"
