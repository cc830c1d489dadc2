#!/bin/sh
# Every relative link in the project's Markdown pages points at a file that exists and, when it
# names an anchor (page.md#section), at a heading of that page. Anchors follow GitHub's rule: the
# heading's text lower-cased, punctuation other than '-' and '_' dropped, spaces made '-'.
#   check-doc-links.sh SRCTREE       prints each broken link as FILE: TARGET; exits 1 if any
set -eu
cd "$1"
pages=$(find . \( -name .git -o -path ./build -o -path '*/include/generated' \) -prune -o \
	-type f -name '*.md' -print | sort)
# The anchors of one page, one a line.
anchors() {
	awk '/^```/ { code = !code; next }
	     !code && /^#+ / {
		sub(/^#+ +/, ""); s = tolower($0)
		gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s); print s }' "$1"
}
bad=0 n=0
for page in $pages; do
	dir=$(dirname "$page")
	# Links outside code blocks and code spans: ](target) with no scheme.
	links=$(awk '/^```/ { code = !code; next } !code { gsub(/`[^`]*`/, ""); print }' "$page" |
		grep -o '](\([^)( ]*\))' | sed 's/^](//; s/)$//' | grep -v '^[a-z][a-z0-9+.-]*:' || true)
	for link in $links; do
		n=$((n + 1))
		file=${link%%#*} anchor=
		case "$link" in *'#'*) anchor=${link#*#} ;; esac
		target=$page
		[ -n "$file" ] && target=$dir/$file
		if [ ! -e "$target" ]; then
			echo "$page: $link (no such file)"; bad=$((bad + 1)); continue
		fi
		if [ -n "$anchor" ] && [ -f "$target" ] && case "$target" in *.md) true ;; *) false ;; esac &&
			! anchors "$target" | grep -qx -- "$anchor"; then
			echo "$page: $link (no such heading)"; bad=$((bad + 1))
		fi
	done
done
echo "doc-links: $n links in $(echo "$pages" | wc -l) pages, $bad broken"
[ "$bad" -eq 0 ]
