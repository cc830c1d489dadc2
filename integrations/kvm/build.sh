#!/bin/sh
# Build the project's KVM host kernel: Debian's linux source (fetch.sh) with the patch series of
# integrations/kvm/patches, configured by merging integrations/kvm/kvm.config onto allnoconfig,
# for QEMU's virt board; no modules. The Image is installed into a cache outside the clone keyed
# by the source version and a hash of everything that shapes it (the configuration fragment, the
# series and its patches, the make options), so every make target and job of a machine shares
# one build.
#
# Usage: integrations/kvm/build.sh               prints the path of the Image on stdout
#        integrations/kvm/build.sh --key         prints the cache key (<version>-<hash>) only
#        integrations/kvm/build.sh --each        bisectability: builds the tree with the first
#                                                1, 2, ... N patches applied, one after another
#                                                (incrementally, in a scratch tree), and ends
#                                                with "kvm-each: N passed, N failed"
#        integrations/kvm/build.sh --checkpatch  the kernel's scripts/checkpatch.pl on every
#                                                patch; ends "kvm-checkpatch: N passed, N failed"
#   KVM_CACHE, KVM_DEB_VERSION   see common.sh
#   KVM_JOBS                     parallel compile jobs (default: the number of cores)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

cross=aarch64-linux-gnu-
# Reproducible build identity (the kernel's version banner names its builder).
make_opts="ARCH=arm64 CROSS_COMPILE=$cross KBUILD_BUILD_USER=vperf KBUILD_BUILD_HOST=vperf"

# The patches in series order (quilt style: one file name a line, '#' starts a comment).
patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$here/patches/series" | grep -v '^$' || true
}

key() {
	{
		echo "$make_opts"
		cat "$here/kvm.config" "$here/patches/series"
		for p in $(patches); do cat "$here/patches/$p"; done
	} | sha256sum | cut -c1-12
}

say() { echo "kvm-build: $*" >&2; }

# kmake DIR ARGS: the kernel's make for the source tree DIR/src, objects in DIR/build, niced
# (the build shares the machine with everything else).
kmake() {
	d=$1
	shift
	# shellcheck disable=SC2086 # make_opts is one word per option
	nice make -C "$d/src" O="$d/build" $make_opts "$@"
}

# configure DIR: allnoconfig with the fragment, then every symbol of the fragment checked.
configure() {
	kmake "$1" -s KCONFIG_ALLCONFIG="$here/kvm.config" allnoconfig >&2
	bad=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=\(.*\)/\1 \2/p' "$here/kvm.config" |
		while read -r sym val; do
			grep -qx "$sym=$val" "$1/build/.config" || echo "$sym=$val"
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
	[ "$(cat "$2.rc")" = 0 ] && [ -f "$1/build/arch/arm64/boot/Image" ]
}

# apply DIR PATCH: one patch of the series onto DIR/src.
apply() {
	patch -d "$1/src" -p1 -s --no-backup-if-mismatch <"$here/patches/$2" >&2
}

ver=$KVM_DEB_VERSION
id=$ver-$(key)
case "${1:-}" in
--key) echo "$id"; exit 0 ;;
--checkpatch)
	src=$("$here/fetch.sh")
	pass=0 fail=0
	for p in $(patches); do
		if (cd "$src" && perl scripts/checkpatch.pl -q --no-summary "$here/patches/$p") >&2; then
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
	rm -rf "$work"
	mkdir -p "$work/build"
	# Hard links: the build writes only into build/, and patch replaces a file it changes.
	cp -al "$src" "$work/src"
	configure "$work"
	pass=0 fail=0 i=0
	for p in $(patches); do
		i=$((i + 1))
		apply "$work" "$p"
		say "prefix $i ($p)"
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
rm -rf "$work"
mkdir -p "$work/build"
say "$id: source $src"
cp -al "$src" "$work/src"
for p in $(patches); do
	say "applying $p"
	apply "$work" "$p"
done
configure "$work"
say "compiling the Image with ${KVM_JOBS:-$(nproc)} jobs (log: $work/build.log)"
if ! compile "$work" "$work/build.log"; then
	tail -n 30 "$work/build.log" >&2
	say "failed (log: $work/build.log)"
	exit 1
fi
rm -rf "$prefix.tmp"
mkdir -p "$prefix.tmp"
cp "$work/build/arch/arm64/boot/Image" "$work/build/.config" "$work/build/System.map" "$prefix.tmp/"
echo "$id" >"$prefix.tmp/key"
secs=$(($(date +%s) - start))
echo "$secs" >"$prefix.tmp/build-seconds"
mv "$prefix.tmp" "$prefix"
say "$id: built in $secs s ($((secs / 60)) min $((secs % 60)) s): $img"
echo "$img"
