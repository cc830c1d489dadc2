#!/bin/sh
# The RESULT and COST lines of a log as tab-separated rows: target, configuration, guest
# ([vmI] under the reference hypervisor, DOMn: under Xen, "-" alone), then the test, its verdict
# and the detail, or the cost's name and value. The reference hypervisor's own checks
# ("RESULT host NAME VERDICT") are vperf's, not the guest's: the pattern leaves them out.
#   extract.sh TARGET CONFIGURATION LOG OUT   appends to OUT/results.tsv and OUT/costs.tsv
set -u
out=$4
awk -v t="$1" -v c="$2" -v res="$out/results.tsv" -v cost="$out/costs.tsv" '
function guest(p) {
	if (match(p, /\[vm[0-9]+\]/)) return substr(p, RSTART + 1, RLENGTH - 2)
	if (match(p, /DOM[0-9]+/)) return tolower(substr(p, RSTART, RLENGTH))
	return "-"
}
{ sub(/\r$/, "") }
/RESULT [^ ]+ (PASS|FAIL|SKIP)/ {
	i = index($0, "RESULT "); s = substr($0, i + 7)
	split(s, w, " ")
	d = s; sub(/^[^ ]+ [^ ]+ ?/, "", d); gsub(/\t/, " ", d)
	printf "%s\t%s\t%s\t%s\t%s\t%s\n", t, c, guest(substr($0, 1, i - 1)), w[1], w[2], d >> res
}
/COST [a-z0-9-]+ [0-9.]+$/ {
	i = index($0, "COST "); split(substr($0, i + 5), w, " ")
	printf "%s\t%s\t%s\t%s\t%s\n", t, c, guest(substr($0, 1, i - 1)), w[1], w[2] >> cost
}' "$3"
