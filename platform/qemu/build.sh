#!/bin/sh
# Build the project's QEMU (qemu-system-aarch64 only) from Debian's QEMU 10 source with the
# patch series of platform/qemu/patches, and install it into a cache outside the clone keyed by
# the source version and a hash of everything that shapes the binary (the series and its
# patches, the device list, the configure options). A second call finds the binary and returns
# at once, so every make target and CI job of a machine shares one build.
#
# Usage: platform/qemu/build.sh         prints the path of qemu-system-aarch64 on stdout
#        platform/qemu/build.sh --key   prints the cache key (<version>-<hash>) only
#   QEMU_CACHE, QEMU_DEB_VERSION   see common.sh
#   QEMU_JOBS                      parallel compile jobs (default: the number of cores)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

# Just what the tests need: TCG (with -icount), the virt board, device trees from the system's
# libfdt; no optional library, tool, document, firmware blob or user-mode emulation.
configure_opts="--target-list=aarch64-softmmu --without-default-features --without-default-devices
--with-devices-aarch64=vperf --enable-tcg --enable-fdt=system --disable-docs --disable-tools
--disable-install-blobs --disable-download --disable-debug-info"

# The patches in series order (quilt style: one file name a line, '#' starts a comment).
patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$here/patches/series" | grep -v '^$' || true
}

key() {
	{
		echo "$configure_opts"
		cat "$here/devices.mak" "$here/patches/series"
		for p in $(patches); do cat "$here/patches/$p"; done
	} | sha256sum | cut -c1-12
}

ver=${QEMU_DEB_VERSION#*:}
id=$ver-$(key)
[ "${1:-}" = --key ] && { echo "$id"; exit 0; }
prefix=$QEMU_CACHE/$id
bin=$prefix/bin/qemu-system-aarch64
[ -x "$bin" ] && { echo "$bin"; exit 0; }

# One build of a series at a time: a second caller waits for the first and then finds its binary.
mkdir -p "$QEMU_CACHE"
exec 9>"$QEMU_CACHE/.lock-$id"
flock 9
[ -x "$bin" ] && { echo "$bin"; exit 0; }

start=$(date +%s)
# The build's own Debian packages (meson and pycotap from backports), asked for only here.
"$here/../../scripts/deps.sh" qemu-build >&2
src=$("$here/fetch.sh")
work=$QEMU_CACHE/build/$id
rm -rf "$work"
mkdir -p "$work"
echo "qemu-build: $id: copying $src" >&2
cp -a "$src" "$work/src"
cp "$here/devices.mak" "$work/src/configs/devices/aarch64-softmmu/vperf.mak"
for p in $(patches); do
	echo "qemu-build: applying $p" >&2
	patch -d "$work/src" -p1 -s --no-backup-if-mismatch <"$here/patches/$p" >&2
done

mkdir -p "$work/build"
cd "$work/build"
echo "qemu-build: configure (log: $work/build/configure.log)" >&2
# shellcheck disable=SC2086
# Debian's python3: the one its meson and pycotap packages are installed for (the +ds tarball ships
# no wheels, so configure must find them there, not in a python of the user's PATH).
if ! ../src/configure --python=/usr/bin/python3 --prefix="$prefix" $configure_opts >configure.log 2>&1; then
	tail -n 30 configure.log >&2
	exit 1
fi
jobs=${QEMU_JOBS:-$(nproc)}
echo "qemu-build: compiling with $jobs jobs (log: $work/build/build.log)" >&2
# Ninja's "[done/total]" lines go to the log; every tenth of the way is printed.
set +e
ninja -j "$jobs" qemu-system-aarch64 2>&1 | tee build.log | awk '
	match($0, /^\[[0-9]+\/[0-9]+\]/) {
		split(substr($0, 2, RLENGTH - 2), n, "/")
		pct = int(100 * n[1] / n[2])
		if (pct >= next_pct) { printf "qemu-build: %3d%% (%d/%d)\n", pct, n[1], n[2] > "/dev/stderr"; fflush("/dev/stderr"); next_pct = pct - pct % 10 + 10 }
	}'
set -e
[ -x qemu-system-aarch64 ] || { grep -B2 -A20 -m1 'FAILED\|error:' build.log >&2; exit 1; }
mkdir -p "$prefix/bin.tmp"
cp qemu-system-aarch64 "$prefix/bin.tmp/"
rm -rf "$prefix/bin"
mv "$prefix/bin.tmp" "$prefix/bin"
echo "$QEMU_DEB_VERSION $(patches | tr '\n' ' ')" >"$prefix/VERSION"
cd /
rm -rf "$work"
echo "qemu-build: $bin built in $(($(date +%s) - start)) s" >&2
echo "$bin"
