#!/bin/sh
# Line and branch coverage of virt/ and lib/ by the sim unit tests (gcov): where a mutation is most
# likely to survive. Builds the sim configuration with --coverage at -O0 into its own directory,
# runs `make test` there, then prints one line a source file, fewest untaken branches first:
#   file  lines  never (unexecuted lines)  brnch (branches)  untkn (untaken branches)
# and with LIST=1 every unexecuted line and untaken branch after it.
#   coverage.sh SRCTREE OUTDIR
set -u
src=$1 out=$2
list=${LIST:-0}

mk() {
	make -f "$src/Makefile" O="$out" "$@"
}

mkdir -p "$out" && out=$(cd "$out" && pwd) && src=$(cd "$src" && pwd) || exit 1
[ -f "$out/.config" ] || mk defconfig >/dev/null || exit 1
# SAN_FLAGS reaches both the library's and the tests' compile and link lines (mk/flags.mk).
find "$out" -name '*.gcda' -delete
mk -j2 SAN_FLAGS=--coverage KCFLAGS=-O0 test >"$out/coverage-test.log" 2>&1 ||
	{ tail -20 "$out/coverage-test.log"; exit 1; }
tail -1 "$out/coverage-test.log"

rm -rf "$out/gcov" && mkdir -p "$out/gcov"
cd "$out/gcov" || exit 1
find "$out/virt" "$out/lib" -name '*.gcda' | while read -r d; do
	rel=${d#"$out"/}
	gcov -p -b -c -o "$(dirname "$d")" "$src/${rel%.gcda}.c" >/dev/null 2>&1
done
printf "%-24s %5s %5s %5s %5s\n" file lines never brnch untkn
for g in *.gcov; do
	s=$(sed -n '1s/.*Source://p' "$g")
	case $s in "$src"/virt/*.c | "$src"/lib/*.c) ;; *) continue ;; esac
	awk -v f="${s#"$src"/}" -v list="$list" '
		/^ +[-#0-9]+\*?: +[0-9]+:/ { src = $0 }
		/^ +([0-9]+\*?|#####):/ { lines++ }
		/^ +#####:/ { unexec++; if (list) detail = detail "  never  " $0 "\n" }
		/^branch/ { br++ }
		/^branch +[0-9]+ (never executed|taken 0)/ {
			untaken++; if (list) detail = detail "  branch " src "\n" }
		END { printf "%-24s %5d %5d %5d %5d\n%s", f, lines, unexec, br, untaken, detail }' "$g"
done | awk '/^[a-z]/ { key = $5 } { print key "\t" $0 }' | sort -s -n -k1,1 | cut -f2- | uniq
