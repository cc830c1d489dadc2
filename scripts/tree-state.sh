#!/bin/sh
# The state of a git checkout as `git status --porcelain` shows it, each listed file with a hash
# of its content: two snapshots differ when a command in between changed, added or removed a file
# that git does not ignore. make check takes one before and one after (docs/build.md).
#   tree-state.sh snapshot DIR FILE          write DIR's state to FILE (nothing outside a checkout)
#   tree-state.sh compare DIR FILE RESULTS   one result line "tree-clean" in RESULTS: passed when
#                                            DIR's state is FILE's; skipped outside a checkout
set -u
mode=$1 dir=$2 file=$3

# A checkout whose top is DIR itself: not an exported copy that happens to lie inside another.
in_checkout() {
	top=$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null) &&
		[ "$(cd "$top" && pwd -P)" = "$(cd "$dir" && pwd -P)" ]
}

state() {
	git -C "$dir" status --porcelain=v1 -uall | while IFS= read -r line; do
		f=${line#???}
		printf '%s %s\n' "$line" "$(git -C "$dir" hash-object -- "$f" 2>/dev/null)"
	done
}

case "$mode" in
snapshot)
	if in_checkout; then state >"$file"; else rm -f "$file"; fi ;;
compare)
	results=$4
	if ! in_checkout || [ ! -f "$file" ]; then
		echo "tree-clean: skipped (not a git checkout)"
		exit 0
	fi
	state >"$file.after"
	if cmp -s "$file" "$file.after"; then
		echo "[  PASSED  ] tree-clean (make check left the source tree as it found it)"
		echo "1 0 tree-clean" >>"$results"
		exit 0
	fi
	echo "[  FAILED  ] tree-clean: make check changed the source tree (git status):"
	diff "$file" "$file.after" | sed -n 's/^[<>] /  /p'
	echo "0 1 tree-clean" >>"$results"
	exit 1 ;;
*) echo "usage: tree-state.sh snapshot DIR FILE | compare DIR FILE RESULTS" >&2; exit 2 ;;
esac
