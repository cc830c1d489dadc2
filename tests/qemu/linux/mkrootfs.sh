#!/bin/sh
# The Debian part of the perf guest's root file system (docs/qemu.md, "Linux's perf tool in the
# guest"): Debian's arm64 `linux-perf` (perf for the guest's kernel series) with the shared
# libraries it loads, `busybox-static` for the commands, `dash` for /bin/sh and coreutils' mktemp:
# perf's SPE test asks mktemp for a name of five X's, which busybox's mktemp refuses, and busybox's
# shell would run its own mktemp whatever PATH says (Debian builds it to prefer its applets). Their
# .debs are fetched with apt-get download from the archive this machine's apt is configured with
# (arm64 a foreign architecture: scripts/deps.sh linux adds it), unpacked with dpkg-deb -x, and
# only the files used are kept: /usr/bin/perf, /bin/busybox, /bin/sh, /usr/bin/mktemp, the closure
# of their DT_NEEDED libraries, each found in the unpacked packages, and perf's own Arm SPE tests
# (perf test: the shell scripts usr/lib/perf-core/tests/shell/test_arm_spe*.sh of linux-perf, where
# perf looks for them). A library missing from them brings in the Depends of the packages whose
# files are used, round after round, until nothing is missing.
#
# The tree is cached outside the source tree, under $VPERF_LINUX_ROOTFS (default
# /opt/vperf/linux-rootfs), in a directory named after the packages' versions and the tree's
# layout, so a new version of one of them in the archive, or a new layout, builds a new
# tree. The tree's `packages` file lists every package a kept file came from, with its version.
#   mkrootfs.sh PATHFILE   when PATHFILE names no cached tree of this layout: ask apt for the
#                          versions (one apt-cache call, seconds), build the tree unless cached,
#                          write its path into PATHFILE; otherwise nothing (PATHFILE keeps its
#                          time)
set -eu
pathfile=$1
base=${VPERF_LINUX_ROOTFS:-/opt/vperf/linux-rootfs}
roots="linux-perf busybox-static dash coreutils"
multiarch=aarch64-linux-gnu

# The tree's layout, the last part of its name: t3 added perf's SPE tests, dash and mktemp. A
# cached tree of another layout is not used.
layout=t3

old=$(cat "$pathfile" 2>/dev/null || true)
case $old in *_$layout) [ -f "$old/packages" ] && exit 0 ;; esac
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

# The candidate versions, "PKG VERSION" per line, in one apt-cache call (each costs seconds).
# shellcheck disable=SC2046,SC2086 # one word per package
versions=$(apt-cache policy $(printf '%s:arm64 ' $roots) 2>/dev/null |
	awk '/^[^ ].*:$/ { p = $1; sub(/:arm64:$/, "", p) } /^ *Candidate:/ && $2 != "(none)" { print p, $2 }')
key=""
for p in $roots; do
	v=$(echo "$versions" | awk -v p="$p" '$1 == p { print $2 }')
	[ -n "$v" ] || { echo "mkrootfs.sh: apt knows no $p:arm64 (scripts/deps.sh linux adds arm64)" >&2; exit 1; }
	key="$key${key:+_}$p-$v"
done
key=$(echo "${key}_$layout" | tr ':~+' '...')
tree=$base/$key

# needed ELF: the sonames ELF names as DT_NEEDED.
needed() {
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
}

# provider SONAME: the unpacked file (any package's) that is SONAME, or nothing.
provider() {
	for d in "$work"/pkg/*/lib/"$multiarch" "$work"/pkg/*/usr/lib/"$multiarch"; do
		[ -e "$d/$1" ] && { echo "$d/$1"; return; }
	done
	return 0
}

# fetch PKG...: download and unpack each package (arm64, the candidate version) into pkg/NAME.
# Package lists older than the archive name files it no longer has: update them once, retry.
fetch() {
	# shellcheck disable=SC2046 # one word per package
	(cd "$work/debs" && apt-get download -qq $(printf '%s:arm64 ' "$@")) || {
		$SUDO apt-get update -qq
		# shellcheck disable=SC2046
		(cd "$work/debs" && apt-get download -qq $(printf '%s:arm64 ' "$@"))
	}
	for p in "$@"; do
		mkdir -p "$work/pkg/$p"
		dpkg-deb -x "$work"/debs/"${p}"_*_arm64.deb "$work/pkg/$p"
		echo "$p" >>"$work/fetched"
	done
}

# closure: the libraries perf, dash and mktemp load, one "SONAME FILE" line each, into
# $work/closure; the sonames no unpacked package provides into $work/missing.
closure() {
	: >"$work/closure"
	: >"$work/missing"
	todo="$work/pkg/linux-perf/usr/bin/perf $work/pkg/dash/bin/dash $work/pkg/coreutils/bin/mktemp"
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

# next_round: the library packages that the packages in use depend on and that are not fetched
# yet (alternatives: the first; version constraints and :any dropped).
next_round() {
	used=$(sed 's|.*/pkg/\([^/]*\)/.*|\1|' "$work/closure" | sort -u)
	for p in linux-perf $used; do
		dpkg-deb -f "$work"/debs/"${p}"_*_arm64.deb Pre-Depends Depends
	done | sed 's/^[A-Za-z-]*: //' | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:any//; s/ //g' |
		grep -E '^(lib|zlib1g)' | sort -u | grep -vxF -f "$work/fetched" || true
}

build() {
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	mkdir -p "$work/debs" "$work/pkg"
	chmod 755 "$work" # apt's download sandbox user (_apt) writes into debs
	chmod 777 "$work/debs"
	: >"$work/fetched"
	# shellcheck disable=SC2086 # lists of package names
	fetch $roots
	round=1
	while closure && [ -s "$work/missing" ]; do
		more=$(next_round)
		if [ -z "$more" ] || [ "$round" -ge 8 ]; then
			echo "mkrootfs.sh: no package provides: $(cut -d' ' -f1 "$work/missing" | paste -sd' ')" >&2
			exit 1
		fi
		# shellcheck disable=SC2086
		fetch $more
		round=$((round + 1))
	done
	t=$work/tree
	mkdir -p "$t/bin" "$t/usr/bin" "$t/lib/$multiarch"
	cp "$work/pkg/linux-perf/usr/bin/perf" "$t/usr/bin/perf"
	cp "$work/pkg/busybox-static/bin/busybox" "$t/bin/busybox"
	cp "$work/pkg/coreutils/bin/mktemp" "$t/usr/bin/mktemp" # before busybox's in PATH
	mkdir -p "$t/usr/lib/perf-core/tests/shell"
	cp "$work"/pkg/linux-perf/usr/lib/perf-core/tests/shell/test_arm_spe*.sh \
		"$t/usr/lib/perf-core/tests/shell/"
	cp "$work/pkg/dash/bin/dash" "$t/bin/sh"
	while read -r so lib; do
		cp -L "$lib" "$t/lib/$multiarch/$so"
	done <"$work/closure"
	# perf's program interpreter (PT_INTERP) is /lib/ld-linux-aarch64.so.1.
	ln -s "$multiarch/ld-linux-aarch64.so.1" "$t/lib/ld-linux-aarch64.so.1"
	for p in $roots $(sed 's|.*/pkg/\([^/]*\)/.*|\1|' "$work/closure" | sort -u); do
		# shellcheck disable=SC2016 # dpkg-deb's format, not the shell's
		dpkg-deb -W --showformat='${Package} ${Version}\n' "$work"/debs/"${p}"_*_arm64.deb
	done | sort -u >"$t/packages"
	echo "mkrootfs.sh: $tree: $(wc -l <"$t/packages") packages ($round rounds), $(du -sk "$t" | cut -f1) KiB"
	# Into place whole (a rename), unless a concurrent build got there first.
	$SUDO mkdir -p "$base"
	[ -f "$tree/packages" ] && return
	$SUDO rm -rf "$tree.new"
	$SUDO cp -R "$t" "$tree.new"
	$SUDO rm -rf "$tree"
	$SUDO mv "$tree.new" "$tree"
}

[ -f "$tree/packages" ] || build
echo "$tree" >"$pathfile"
