#!/bin/sh
# Build the project's KVM host kernel: Debian's linux source (fetch.sh) with the patch series of
# integrations/kvm/patches, configured by merging integrations/kvm/kvm.config onto allnoconfig,
# for QEMU's virt board; no modules. The Image is installed into a cache outside the clone keyed
# by the source version, a hash of the configuration (the fragment and the make options) and a
# hash of the series (the patches' names and contents, in order), so every make target and job
# of a machine shares one build.
#
# A series' first build starts from the objects of the longest prefix of the same series the
# cache still has built with the same version, configuration and vperf library (the base build,
# no patches, at worst): the kernel's own dependency tracking then recompiles only what the
# further patches change, as in an incremental build. That is sound because the copy keeps every
# file the prefix left as it was, inode and time (hard links), and a file a further patch
# changes is newer than every object of the prefix; objects live in src/out, a subdirectory of
# the source, so the kernel records its paths relative to it ("..") and the copy does not move
# them. A series that grows by a patch or two thus builds in minutes, not half an hour.
#
# Usage: integrations/kvm/build.sh               prints the path of the Image on stdout
#        integrations/kvm/build.sh --key         prints the cache key only
#        integrations/kvm/build.sh --each        bisectability: builds the tree with the first
#                                                1, 2, ... N patches applied, one after another
#                                                (incrementally, in a scratch tree), and ends
#                                                with "kvm-each: N passed, N failed"
#        integrations/kvm/build.sh --checkpatch  the kernel's scripts/checkpatch.pl on every
#                                                patch; ends "kvm-checkpatch: N passed, N failed"
#   KVM_CACHE, KVM_DEB_VERSION   see common.sh
#   KVM_JOBS                     parallel compile jobs (default: the number of cores)
#   KVM_MUTANT=NAME              the Image of the series plus mutants/NAME.patch (a must-fail
#                                defect of the glue, make kvm-check), keyed by the series' key and
#                                the mutant's hash; built from the series' own objects, which a
#                                series' build keeps for it (the newest four series), so only what
#                                the mutant changes is compiled again
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/common.sh"

cross=aarch64-linux-gnu-
# Reproducible build identity (the kernel's version banner names its builder).
make_opts="ARCH=arm64 CROSS_COMPILE=$cross KBUILD_BUILD_USER=vperf KBUILD_BUILD_HOST=vperf"

# The series as it is now: the key is computed from it at the start and the patches applied
# later, so an edit of integrations/kvm/patches meanwhile (a merge beside a running build) must
# not reach the tree, where the cache would record patches it does not hold.
series=$(mktemp -d)
trap 'rm -rf "$series"' EXIT
cp "$here/patches/"* "$series/"

# The patches in series order (quilt style: one file name a line, '#' starts a comment).
patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$series/series" | grep -v '^$' || true
}

# hash: the first 8 hex digits of the SHA-256 of stdin.
hash() {
	sha256sum | cut -c1-8
}

config_hash() {
	{
		echo "$make_opts"
		cat "$here/kvm.config"
	} | hash
}

# uses_vperf [N]: the first N patches (default all) link vperf's library (CONFIG_KVM_ARM_VPERF).
# (The helpers loop with q: a POSIX shell function shares the caller's variables, and the
# callers' loops use p.)
uses_vperf() {
	for q in $(patches | head -n "${1:-100000}"); do
		grep -q '^+config KVM_ARM_VPERF$' "$series/$q" && return 0
	done
	return 1
}

# vperf_hash: what of vperf shapes the library linked into the kernel: the kernel's vperf.config,
# vperf's Kconfig, its KVM configuration and every file of the directories the library is built
# from.
vperf_hash() {
	cat "$here/vperf.config"
	(cd "$root" && find Kconfig configs/kvm_defconfig include lib virt arch/arm64 -type f |
		LC_ALL=C sort | xargs cat) | hash
}

# series_hash [N]: of the first N patches (default all) and, once they link it, of vperf's
# library; 0 patches is the base build.
series_hash() {
	{
		for q in $(patches | head -n "${1:-100000}"); do
			echo "$q"
			cat "$series/$q"
		done
		! uses_vperf "${1:-100000}" || vperf_hash
	} | hash
}

say() { echo "kvm-build: $*" >&2; }

# kmake DIR ARGS: the kernel's make for the source tree DIR/src, objects in DIR/src/out, niced
# (the build shares the machine with everything else); with vperf's library (DIR/vperf, made by
# vperf_lib) when there is one.
kmake() {
	d=$1
	shift
	if [ -f "$d/vperf/lib-src" ]; then
		# shellcheck disable=SC2086 # make_opts is one word per option
		nice make -C "$d/src" O=out $make_opts VPERF_SRC="$root" VPERF_OBJ="$d/vperf" \
			VPERF_LIB_SRC="$(cat "$d/vperf/lib-src")" "$@"
	else
		# shellcheck disable=SC2086
		nice make -C "$d/src" O=out $make_opts "$@"
	fi
}

# vperf_lib DIR: configure vperf for KVM (configs/kvm_defconfig) in DIR/vperf and list the
# library's C files there (lib-src), which the kernel's build compiles as hyp objects.
vperf_lib() {
	mkdir -p "$1/vperf"
	make -s -C "$root" O="$1/vperf" ARCH=arm64 DEFCONFIG=kvm_defconfig defconfig >&2
	# shellcheck disable=SC2016 # make's variable, not the shell's
	make -s -C "$root" O="$1/vperf" --eval 'kvm-lib-src: ; @echo $(lib-y)' kvm-lib-src \
		>"$1/vperf/lib-src"
	[ -s "$1/vperf/lib-src" ] || { say "vperf lists no library source"; exit 1; }
}

# configure DIR: allnoconfig with the fragment (and vperf.config once the tree has
# CONFIG_KVM_ARM_VPERF), then every symbol of the fragment checked.
configure() {
	cat "$here/kvm.config" >"$1/allno.config"
	! grep -q '^config KVM_ARM_VPERF$' "$1/src/arch/arm64/kvm/Kconfig" ||
		cat "$here/vperf.config" >>"$1/allno.config"
	kmake "$1" -s KCONFIG_ALLCONFIG="$1/allno.config" allnoconfig >&2
	bad=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=\(.*\)/\1 \2/p' "$1/allno.config" |
		while read -r sym val; do
			grep -qx "$sym=$val" "$1/src/out/.config" || echo "$sym=$val"
		done)
	[ -z "$bad" ] || { say "the configuration lost: $bad"; exit 1; }
}

# compile DIR LOG: the Image, every 200th step of the kernel's build printed with the time so far.
compile() {
	jobs=${KVM_JOBS:-$(nproc)}
	t0=$(date +%s)
	set +e
	# The kernel's quiet output is one "  CC      file" line a step.
	{
		kmake "$1" -j"$jobs" Image 2>&1
		echo "$?" >"$2.rc"
	} | tee "$2" | while IFS= read -r line; do
		n=$((${n:-0} + 1))
		[ $((n % 200)) -ne 0 ] || say "$n steps, $(($(date +%s) - t0)) s: ${line#"${line%%[! ]*}"}"
	done
	set -e
	[ "$(cat "$2.rc")" = 0 ] && [ -f "$1/src/out/arch/arm64/boot/Image" ]
}

# apply DIR PATCH: one patch of the series onto DIR/src.
apply() {
	patch -d "$1/src" -p1 -s --no-backup-if-mismatch <"$series/$2" >&2
}

ver=$KVM_DEB_VERSION
cfg=$(config_hash)
id=$ver-$cfg-$(series_hash)
base=$ver-$cfg-$(series_hash 0)
mutant=${KVM_MUTANT:-}
if [ -n "$mutant" ]; then
	[ -f "$here/mutants/$mutant.patch" ] || { say "no mutant $here/mutants/$mutant.patch"; exit 2; }
	series_id=$id
	id=$id-$mutant-$(hash <"$here/mutants/$mutant.patch")
fi

# tree DIR: DIR/src, a hard-linked copy of the source, for a build from nothing.
tree() {
	rm -rf "$1"
	mkdir -p "$1"
	cp -al "$src" "$1/src"
}

# copy_build FROM DIR: DIR/src as the build FROM left it (its patched files and vperf's library
# with their times, hard-linked; its objects copied, as the compiler rewrites them in place).
# patch replaces a file it changes rather than writing it in place, so what is applied in DIR
# never reaches FROM's tree.
copy_build() {
	rm -rf "$2"
	mkdir -p "$2/src"
	(cd "$1/src" && find . -mindepth 1 -maxdepth 1 ! -name out -exec cp -al {} "$2/src/" \;)
	cp -a "$1/src/out" "$2/src/out"
	[ ! -d "$1/vperf" ] || cp -a "$1/vperf" "$2/vperf"
}

# mutant_tree DIR: DIR/src as the series' build left it, when the cache still has that build;
# else false.
mutant_tree() {
	[ -f "$KVM_CACHE/build/$series_id/done" ] || return 1
	copy_build "$KVM_CACHE/build/$series_id" "$1"
}

# patches_hash [N]: of the first N patches' names and contents alone, vperf's library aside: what a
# build's tree holds of the series, recorded beside its objects (DIR/patches).
patches_hash() {
	for q in $(patches | head -n "${1:-100000}"); do
		echo "$q"
		cat "$series/$q"
	done | hash
}

# cached_prefix: "K DIR", DIR a build of the cache (same version and configuration) whose tree
# holds the first K patches of the series, K the largest there is: the whole series itself when
# only vperf's library differs; one built with this library preferred. Nothing when there is none.
cached_prefix() {
	k=$(patches | wc -l)
	while [ "$k" -ge 0 ]; do
		d=$KVM_CACHE/build/$ver-$cfg-$(series_hash "$k")
		[ ! -f "$d/done" ] || [ "$d" = "$work" ] || { echo "$k $d"; return; }
		ph=$(patches_hash "$k")
		# shellcheck disable=SC2012 # the cache's own names: no new lines
		for d in $(ls -td "$KVM_CACHE/build/$ver-$cfg-"*/done 2>/dev/null | sed 's,/done$,,'); do
			[ "$(cat "$d/patches" 2>/dev/null)" != "$ph" ] || [ "$d" = "$work" ] ||
				{ echo "$k $d"; return; }
		done
		k=$((k - 1))
	done
}

# forget_library DIR FROM: DIR's copy of the build FROM was made with another vperf library: every
# object FROM compiled from that library's files (its .cmd names the tree it was built from) goes,
# with the library's configuration, so that they are compiled again. Their times cannot say it:
# a changed file of this clone may be older than FROM's objects.
forget_library() {
	[ -f "$2/vperf-root" ] || return 0
	grep -rlF --include='*.cmd' "$(cat "$2/vperf-root")/" "$1/src/out" |
		while read -r c; do
			b=$(basename "$c" .cmd)
			rm -f "$(dirname "$c")/${b#.}" "$c"
		done
	rm -rf "$1/vperf"
}

# series_tree DIR: DIR/src with every patch of the series applied, from the longest cached prefix's
# tree and objects when there is one, else from the source alone.
series_tree() {
	# shellcheck disable=SC2046 # "K DIR": two words, or none
	set -- "$1" $(cached_prefix)
	if [ $# -eq 3 ]; then
		say "starting from the objects of $(basename "$3"), which holds the first $2 patches"
		copy_build "$3" "$1"
		[ "$3" = "$KVM_CACHE/build/$ver-$cfg-$(series_hash "$2")" ] || {
			say "its vperf library differs: compiling the library and its callers again"
			forget_library "$1" "$3"
		}
		k=$2
	else
		k=0
		tree "$1"
	fi
	for p in $(patches | tail -n +$((k + 1))); do
		say "applying $p"
		apply "$1" "$p"
	done
}

# drop_old_series: the objects of every series' build but the newest four go (a helper's series
# and main's may be built on one machine, each the prefix of the next); every base build's
# stay (a build with another configuration, such as a helper's, must not take this one's base:
# every series build after it would compile the whole kernel again).
drop_old_series() {
	# shellcheck disable=SC2012 # the cache's own names: no new lines
	ls -td "$KVM_CACHE"/build/*/done 2>/dev/null | sed 's,/done$,,' |
		grep -v -- "-${base##*-}\$" | tail -n +5 | while read -r old; do rm -rf "$old"; done
}

case "${1:-}" in
--key) echo "$id"; exit 0 ;;
--checkpatch)
	src=$("$here/fetch.sh")
	pass=0 fail=0
	for p in $(patches); do
		if (cd "$src" && perl scripts/checkpatch.pl -q --no-summary "$series/$p") >&2; then
			echo "PASS checkpatch $p"
			pass=$((pass + 1))
		else
			echo "FAIL checkpatch $p"
			fail=$((fail + 1))
		fi
	done
	echo "kvm-checkpatch: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit ;;
--each)
	src=$("$here/fetch.sh")
	work=$KVM_CACHE/each/$id
	tree "$work"
	pass=0 fail=0 i=0
	for p in $(patches); do
		i=$((i + 1))
		apply "$work" "$p"
		say "prefix $i ($p)"
		! uses_vperf "$i" || [ -f "$work/vperf/lib-src" ] || vperf_lib "$work"
		configure "$work"
		if compile "$work" "$work/build-$i.log"; then
			echo "PASS build with patches 1-$i"
			pass=$((pass + 1))
		else
			tail -n 20 "$work/build-$i.log" >&2
			echo "FAIL build with patches 1-$i ($p; log: $work/build-$i.log)"
			fail=$((fail + 1))
		fi
	done
	echo "kvm-each: $pass passed, $fail failed"
	[ "$fail" -eq 0 ] && rm -rf "$work"
	[ "$fail" -eq 0 ]
	exit ;;
esac

prefix=$KVM_CACHE/$id
img=$prefix/Image
[ -f "$img" ] && { echo "$img"; exit 0; }

# One build of a key at a time: a second caller waits for the first and then finds its Image.
mkdir -p "$KVM_CACHE"
exec 9>"$KVM_CACHE/.lock-$id"
flock 9
[ -f "$img" ] && { echo "$img"; exit 0; }

start=$(date +%s)
"$here/../../scripts/deps.sh" kvm >&2
src=$("$here/fetch.sh")
work=$KVM_CACHE/build/$id
say "$id: source $src"
if [ -n "$mutant" ] && mutant_tree "$work"; then
	say "applying mutants/$mutant.patch onto the series' objects"
	patch -d "$work/src" -p1 -s --no-backup-if-mismatch <"$here/mutants/$mutant.patch" >&2
else
	series_tree "$work"
	[ -z "$mutant" ] || patch -d "$work/src" -p1 -s --no-backup-if-mismatch \
		<"$here/mutants/$mutant.patch" >&2
	! uses_vperf || [ -f "$work/vperf/lib-src" ] || vperf_lib "$work"
fi
configure "$work"
say "compiling the Image with ${KVM_JOBS:-$(nproc)} jobs (log: $work/build.log)"
if ! compile "$work" "$work/build.log"; then
	tail -n 30 "$work/build.log" >&2
	say "failed (log: $work/build.log)"
	exit 1
fi
o=$work/src/out
rm -rf "$prefix.tmp"
mkdir -p "$prefix.tmp"
cp "$o/arch/arm64/boot/Image" "$o/.config" "$o/System.map" "$work/build.log" "$prefix.tmp/"
echo "$id" >"$prefix.tmp/key"
secs=$(($(date +%s) - start))
echo "$secs" >"$prefix.tmp/build-seconds"
# The base build's objects stay, for the series' builds to start from, and so do a series' (the
# newest four), for its mutants' and the longer series'; a mutant's are dropped.
if [ -n "$mutant" ]; then
	rm -rf "$work"
else
	# What later builds look for (cached_prefix, forget_library).
	patches_hash >"$work/patches"
	! uses_vperf || echo "$root" >"$work/vperf-root"
	touch "$work/done"
	[ "$id" = "$base" ] || drop_old_series
fi
mv "$prefix.tmp" "$prefix"
say "$id: built in $secs s ($((secs / 60)) min $((secs % 60)) s): $img"
echo "$img"
