#!/bin/sh
# The report of make validate (validate.sh): OUT/report.md and a self-contained OUT/report.html
# (the same tables, coloured, and a bar chart of what each access costs per target).
#   report.sh OUT SECTIONS COMMAND SECONDS "TARGET..."
set -u
out=$1 sections=$2 cmd=$3 secs=$4 targets=$5

# The tables as markdown; the HTML page is made from them.
awk -F'\t' -v sections="$sections" -v cmd="$cmd" -v secs="$secs" -v targets="$targets" \
	-v when="$(date -u '+%Y-%m-%d %H:%M UTC')" '
function rule(test,   i, p) {
	for (i = 1; i <= nrules; i++) {
		p = pat[i]; gsub(/\./, "\\.", p); gsub(/\*/, ".*", p)
		if (test ~ ("^" p "$")) return txt[i]
	}
	return ""
}
BEGIN {
	while ((getline l < sections) > 0) {
		if (l ~ /^#/ || l !~ /\|/) continue
		split(l, f, "|"); gsub(/^ +| +$/, "", f[1]); gsub(/^ +| +$/, "", f[2])
		pat[++nrules] = f[1]; txt[nrules] = f[2]
	}
	nt = split(targets, tl, " ")
}
FILENAME ~ /runs.tsv$/ { runs[$1] = runs[$1] (runs[$1] ? ", " : "") ($3 == "not run" ? "not run: " $4 : $2); next }
FILENAME ~ /results.tsv$/ {
	if (!($4 in seen)) { seen[$4] = 1; order[++ntests] = $4 }
	k = $1 SUBSEP $4; n[k]++
	if ($5 == "FAIL") { fail[k]++; fails[++nf] = $1 "\t" $2 "\t" $3 "\t" $4 "\t" $6 }
	else if ($5 == "PASS") pass[k]++
	next
}
FILENAME ~ /costs.tsv$/ {
	col = $1 ":" $2 ($3 == "-" ? "" : "/" $3)
	if (!(col in cseen)) { cseen[col] = 1; cols[++ncols] = col }
	if (!($4 in oseen)) { oseen[$4] = 1; ops[++nops] = $4 }
	cost[$4 SUBSEP col] = $5
}
END {
	print "# Validation report\n"
	printf "`%s`: %s s on %s, the project'"'"'s QEMU (platform/qemu).\n\n", cmd, secs, when
	print "| target | configurations |\n| --- | --- |"
	for (i = 1; i <= nt; i++) printf "| %s | %s |\n", tl[i], runs[tl[i]]
	print "\n## Conformance\n"
	print "Each cell: PASS, SKIP, or FAIL k/n (k of the n runs of the test on that target failed)."
	print "A test a target never ran is left empty.\n"
	printf "| test |"; for (i = 1; i <= nt; i++) printf " %s |", tl[i]; print " rule |"
	printf "| --- |"; for (i = 1; i <= nt; i++) printf " --- |"; print " --- |"
	for (j = 1; j <= ntests; j++) {
		t = order[j]; printf "| %s |", t
		for (i = 1; i <= nt; i++) {
			k = tl[i] SUBSEP t
			if (!n[k]) c = ""
			else if (fail[k]) c = "FAIL " fail[k] "/" n[k]
			else c = pass[k] ? "PASS" : "SKIP"
			printf " %s |", c
		}
		printf " %s |\n", rule(t)
	}
	print "\n## Failures\n"
	if (!nf) print "None."
	for (i = 1; i <= nf; i++) {
		split(fails[i], f, "\t")
		printf "- **%s** on `%s`, %s%s: %s. Rule: %s.\n", f[4], f[1], f[2],
			f[3] == "-" ? "" : " (" f[3] ")", f[5], rule(f[4])
	}
	print "\n## Cost from inside the guest\n"
	print "Instructions executed, at every Exception level, per operation (tests/qemu/guest/cost.c:"
	print "CNTVCT_EL0 around 1000 accesses under -icount shift=0, less an empty loop, the least of 5"
	print "runs; within about 2 instructions). overflow-irq: an overflow taken as an interrupt less"
	print "the same overflow handled by a call. vm-switch (tests/qemu/guest/switch_cost.c): two guests"
	print "on one pCPU read CNTPCT_EL0, and from the last read of one to the first of the other is a switch:"
	print "the median of both directions, in instructions at every Exception level.\n"
	if (!ncols) { print "None measured: no configuration of these targets ran the cost loop."; exit }
	printf "| operation |"; for (i = 1; i <= ncols; i++) printf " %s |", cols[i]; print ""
	printf "| --- |"; for (i = 1; i <= ncols; i++) printf " --- |"; print ""
	for (j = 1; j <= nops; j++) {
		printf "| %s |", ops[j]
		for (i = 1; i <= ncols; i++) printf " %s |", cost[ops[j] SUBSEP cols[i]]
		print ""
	}
}' "$out/runs.tsv" "$out/results.tsv" "$out/costs.tsv" >"$out/report.md"

# The HTML page: the markdown's tables as HTML tables, verdict cells coloured, and one SVG bar
# per cost cell (no script, no external file).
awk -F'|' '
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
function cell(s, tag,   cls) {
	gsub(/^ +| +$/, "", s); cls = ""
	if (s ~ /^PASS/) cls = " class=pass"; else if (s ~ /^FAIL/) cls = " class=fail"
	else if (s ~ /^SKIP/) cls = " class=skip"
	return "<" tag cls ">" esc(s) "</" tag ">"
}
function flush_chart(   i, j, y, w, h) {
	if (!nrows) return
	h = 22 * nrows * (ncol - 1) + 30 * nrows
	printf "<svg width=\"760\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\" font-size=\"12\">\n", h
	y = 0
	for (i = 1; i <= nrows; i++) {
		printf "<text x=\"0\" y=\"%d\" font-weight=\"bold\">%s</text>\n", y + 14, esc(rname[i]); y += 20
		for (j = 2; j <= ncol; j++) {
			w = (max > 0 && val[i, j] != "") ? 440 * val[i, j] / max : 0
			printf "<text x=\"0\" y=\"%d\">%s</text><rect x=\"250\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"#4a7ab5\"/>", y + 13, esc(head[j]), y, w
			printf "<text x=\"%.1f\" y=\"%d\">%s</text>\n", 255 + w, y + 13, val[i, j]; y += 22
		}
		y += 10
	}
	print "</svg>"
}
BEGIN {
	print "<!DOCTYPE html><html><head><meta charset=utf-8><title>vperf validation report</title><style>"
	print "body{font-family:sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:collapse;font-size:13px}"
	print "td,th{border:1px solid #bbb;padding:2px 6px}.pass{background:#cfc}.fail{background:#fbb}.skip{background:#eee}"
	print "</style></head><body>"
}
/^# / { print "<h1>" esc(substr($0, 3)) "</h1>"; next }
/^## / { if (intable) { print "</table>"; intable = 0 }; if (incost) flush_chart(); incost = ($0 ~ /Cost/); print "<h2>" esc(substr($0, 4)) "</h2>"; next }
/^\| --- / { next }
/^\|/ {
	if (!intable) { print "<table>"; intable = 1; hdr = 1 } else hdr = 0
	printf "<tr>"; for (i = 2; i < NF; i++) printf "%s", cell($i, hdr ? "th" : "td"); print "</tr>"
	if (incost && hdr) { ncol = NF - 2; for (i = 2; i < NF; i++) { head[i - 1] = $i; gsub(/^ +| +$/, "", head[i - 1]) } }
	else if (incost) {
		nrows++; rname[nrows] = $2; gsub(/^ +| +$/, "", rname[nrows])
		for (i = 3; i < NF; i++) { v = $i; gsub(/ /, "", v); val[nrows, i - 1] = v; if (v + 0 > max) max = v + 0 }
	}
	next
}
{ if (intable) { print "</table>"; intable = 0 } }
/^- / { print "<p>" esc(substr($0, 3)) "</p>"; next }
NF { print "<p>" esc($0) "</p>" }
END { if (intable) print "</table>"; if (incost) flush_chart(); print "</body></html>" }' "$out/report.md" >"$out/report.html"
