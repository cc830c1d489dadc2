#!/bin/sh
# A tree of files from Debian's arm64 packages and the shared libraries its programs load, built
# once per machine into a cache outside the clone (make validate's foreign hypervisors: a VMM,
# Xen's toolstack, busybox, kernel modules; tests/validate/debian). The .debs are fetched with
# apt-get download from the archive this machine's apt is configured with (arm64 a foreign
# architecture: scripts/deps.sh adds it) and unpacked with dpkg-deb -x; only the files the spec
# names are kept, at their paths, and the closure of their DT_NEEDED libraries, each found in the
# unpacked packages, into /lib/aarch64-linux-gnu. A library missing from them brings in the
# Depends of the packages whose files are used, round after round, until nothing is missing.
#
#   debtree.sh NAME <SPEC   prints the tree's path (progress on stderr), building it unless cached
# SPEC, one line a package: "PACKAGE[=VERSION] PATH..." (paths inside the package, shell globs
# allowed; '#' starts a comment). Without =VERSION the candidate version is used (one apt-cache
# call). The tree is $VPERF_DEBTREE_CACHE (default /var/cache/vperf/debian-arm64)/NAME-HASH, HASH
# naming the spec with the versions, so a new version in the archive builds a new tree. Its
# `packages` file lists every package a kept file came from, with its version.
set -eu
name=${1:?debtree.sh NAME <SPEC}
base=${VPERF_DEBTREE_CACHE:-/var/cache/vperf/debian-arm64}
multiarch=aarch64-linux-gnu
say() { echo "debtree: $name: $*" >&2; }

spec=$(sed 's/#.*//; s/[[:space:]]*$//' | grep -v '^[[:space:]]*$')

# The candidate versions of the packages the spec does not pin, in one apt-cache call.
unpinned=$(echo "$spec" | awk '$1 !~ /=/ { print $1 }')
# shellcheck disable=SC2046,SC2086 # one word per package
[ -z "$unpinned" ] || versions=$(apt-cache policy $(printf '%s:arm64 ' $unpinned) 2>/dev/null |
	awk '/^[^ ].*:$/ { p = $1; sub(/:arm64:$/, "", p) } /^ *Candidate:/ && $2 != "(none)" { print p, $2 }')
resolved=$(echo "$spec" | while read -r p paths; do
	case "$p" in
	*=*) echo "$p $paths" ;;
	*)
		v=$(echo "$versions" | awk -v p="$p" '$1 == p { print $2 }')
		[ -n "$v" ] || { say "apt knows no $p:arm64 (scripts/deps.sh validate adds arm64)"; exit 1; }
		echo "$p=$v $paths" ;;
	esac
done) || exit 1
tree=$base/$name-$(echo "$resolved" | sha256sum | cut -c1-12)
[ -f "$tree/packages" ] && { echo "$tree"; exit 0; }
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

# needed FILE: the sonames FILE names as DT_NEEDED (nothing for a file that is no dynamic ELF).
needed() {
	readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
}

# provider SONAME: the unpacked file (any package's) that is SONAME, or nothing.
provider() {
	for d in "$work"/pkg/*/lib/"$multiarch" "$work"/pkg/*/usr/lib/"$multiarch"; do
		[ -e "$d/$1" ] && { echo "$d/$1"; return; }
	done
	return 0
}

# fetch PKG[=VERSION]...: download and unpack each arm64 package into pkg/NAME. Package lists
# older than the archive name files it no longer has: update them once, retry.
fetch() {
	say "fetching $*"
	# shellcheck disable=SC2046 # one word per package
	(cd "$work/debs" && apt-get download -qq $(for p in "$@"; do echo "${p%%=*}:arm64${p#"${p%%=*}"}"; done)) || {
		$SUDO apt-get update -qq
		# shellcheck disable=SC2046
		(cd "$work/debs" && apt-get download -qq $(for p in "$@"; do echo "${p%%=*}:arm64${p#"${p%%=*}"}"; done))
	}
	for p in "$@"; do
		p=${p%%=*}
		mkdir -p "$work/pkg/$p"
		dpkg-deb -x "$work"/debs/"${p}"_*_arm64.deb "$work/pkg/$p"
		echo "$p" >>"$work/fetched"
	done
}

# keep: copy the spec's files into the tree, listing them in $work/kept.
keep() {
	: >"$work/kept"
	echo "$resolved" | while read -r p paths; do
		p=${p%%=*}
		for pat in $paths; do
			found=""
			# shellcheck disable=SC2086 # the pattern's glob is meant
			for f in "$work/pkg/$p"/${pat#/}; do
				[ -e "$f" ] || continue
				rel=${f#"$work/pkg/$p/"}
				mkdir -p "$work/tree/$(dirname "$rel")"
				cp -P "$f" "$work/tree/$rel"
				echo "$f" >>"$work/kept"
				found=1
			done
			[ -n "$found" ] || { say "$p has no $pat"; exit 1; }
		done
	done
}

# closure: the libraries the kept files load, one "SONAME FILE" line each, into $work/closure;
# the sonames no unpacked package provides into $work/missing.
closure() {
	: >"$work/closure"
	: >"$work/missing"
	todo=$(cat "$work/kept")
	while [ -n "$todo" ]; do
		# shellcheck disable=SC2086 # a list of paths without blanks
		set -- $todo
		f=$1
		shift
		todo="$*"
		for so in $(needed "$f"); do
			grep -q "^$so " "$work/closure" "$work/missing" && continue
			lib=$(provider "$so")
			if [ -n "$lib" ]; then
				echo "$so $lib" >>"$work/closure"
				todo="$todo $lib"
			else
				echo "$so " >>"$work/missing"
			fi
		done
	done
}

# used: the packages a kept file or a library in use came from.
used() {
	sed 's|.*/pkg/\([^/]*\)/.*|\1|' "$work/kept" "$work/closure" | sort -u
}

# next_round: the library packages that the packages in use depend on and that are not fetched
# yet (alternatives: the first; version constraints and :any dropped).
next_round() {
	for p in $(used); do
		dpkg-deb -f "$work"/debs/"${p}"_*_arm64.deb Pre-Depends Depends
	done | sed 's/^[A-Za-z-]*: //' | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:any//; s/ //g' |
		grep -E '^(lib|zlib1g)' | sort -u | grep -vxF -f "$work/fetched" || true
}

build() {
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	mkdir -p "$work/debs" "$work/pkg" "$work/tree/lib/$multiarch"
	chmod 755 "$work" # apt's download sandbox user (_apt) writes into debs
	chmod 777 "$work/debs"
	: >"$work/fetched"
	# shellcheck disable=SC2046 # one word per package
	fetch $(echo "$resolved" | cut -d' ' -f1)
	keep
	round=1
	while closure && [ -s "$work/missing" ]; do
		more=$(next_round)
		if [ -z "$more" ] || [ "$round" -ge 8 ]; then
			say "no package provides: $(cut -d' ' -f1 "$work/missing" | paste -sd' ')"
			exit 1
		fi
		# shellcheck disable=SC2086
		fetch $more
		round=$((round + 1))
	done
	t=$work/tree
	while read -r so lib; do
		cp -L "$lib" "$t/lib/$multiarch/$so"
	done <"$work/closure"
	# The program interpreter (PT_INTERP) of Debian's arm64 programs.
	[ ! -e "$t/lib/$multiarch/ld-linux-aarch64.so.1" ] ||
		ln -s "$multiarch/ld-linux-aarch64.so.1" "$t/lib/ld-linux-aarch64.so.1"
	for p in $(used); do
		# shellcheck disable=SC2016 # dpkg-deb's format, not the shell's
		dpkg-deb -W --showformat='${Package} ${Version}\n' "$work"/debs/"${p}"_*_arm64.deb
	done | sort -u >"$t/packages"
	say "$tree: $(wc -l <"$t/packages") packages ($round rounds), $(du -sk "$t" | cut -f1) KiB"
	# Into place whole (a rename), unless a concurrent build got there first.
	$SUDO mkdir -p "$base"
	[ -f "$tree/packages" ] && return
	$SUDO rm -rf "$tree.new"
	$SUDO cp -R "$t" "$tree.new"
	$SUDO rm -rf "$tree"
	$SUDO mv "$tree.new" "$tree"
}

build
echo "$tree"
