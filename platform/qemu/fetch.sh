#!/bin/sh
# Fetch the source of the project's QEMU: Debian's qemu source package from the release's
# backports suite (QEMU 10.0), unpacked without Debian's patches into a cache outside the clone.
# The patch series of platform/qemu/patches applies on top (build.sh).
#
# The backports suite is not part of a stock Debian 12 apt configuration, so its entries are
# derived at run time from this machine's own: every configured archive (apt-get indextargets)
# whose suite is the release codename of /etc/os-release also serves <codename>-backports. The
# entries live in a private apt configuration under the cache; the system's sources and lists are
# not touched and no mirror is named here.
#
# Usage: platform/qemu/fetch.sh        prints the unpacked source directory on stdout
#   QEMU_DEB_VERSION   the source version (default: the 10.0.2 backport)
#   QEMU_CACHE         cache directory (default /var/cache/vperf/qemu, or ~/.cache/vperf/qemu
#                      where that is not writable)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

ver=$QEMU_DEB_VERSION
upstream=${ver#*:}
upstream=${upstream%%-*}
upstream=${upstream%+ds}
src=$QEMU_CACHE/src/qemu-${ver#*:}
if [ -f "$src/configure" ]; then
	echo "$src"
	exit 0
fi

apt=$QEMU_CACHE/apt
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/parts" "$QEMU_CACHE/dl"
backports_sources deb-src >"$apt/sources.list"
[ -s "$apt/sources.list" ] || { echo "qemu-fetch: no $(codename) archive configured in apt" >&2; exit 1; }
echo "qemu-fetch: deb-src $(codename)-backports from apt's configuration: $(wc -l <"$apt/sources.list") entries" >&2
private_apt "$apt" update >&2
# Only the .orig tarball (+ds: Debian's repack of upstream) is used, never Debian's patches, so
# only it is downloaded (apt checks it against the suite's signed Sources index).
(cd "$QEMU_CACHE/dl" && private_apt "$apt" source --download-only --tar-only "qemu=$ver") >&2
tarball=$QEMU_CACHE/dl/qemu_$upstream+ds.orig.tar.xz
[ -f "$tarball" ] || { echo "qemu-fetch: $tarball not downloaded" >&2; exit 1; }
rm -rf "$src.tmp"
mkdir -p "$src.tmp"
tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
mv "$src.tmp" "$src"
echo "$src"
