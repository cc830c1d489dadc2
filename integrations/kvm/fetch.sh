#!/bin/sh
# Fetch the source of the project's KVM host kernel: Debian's linux source package (default: the
# bookworm-backports 6.12 upload, common.sh), unpacked without Debian's patches into a cache
# outside the clone. Debian's .orig tarball of linux is the upstream stable release with the few
# files the DFSG forbids removed; integrations/kvm/patches applies on top (build.sh).
#
# The deb-src entries are derived at run time from this machine's own apt configuration, as for
# QEMU (platform/qemu/common.sh) and Xen: every configured "deb" archive and suite, plus the
# release's backports suite of every archive serving the release (Debian 12's stock sources do
# not list backports). They live in a private apt configuration under the cache; the system's
# sources and lists are not touched and no mirror is named here.
#
# Usage: integrations/kvm/fetch.sh   prints the unpacked source directory on stdout
#   KVM_DEB_VERSION, KVM_CACHE       see common.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
. "$here/../../platform/qemu/common.sh"

ver=$KVM_DEB_VERSION
upstream=${ver%%-*}
src=$KVM_CACHE/src/linux-$ver
if [ -f "$src/Makefile" ] && [ -f "$src/.vperf-fetched" ]; then
	echo "$src"
	exit 0
fi

# One fetch at a time: a second caller waits for the first and then finds its tree.
mkdir -p "$KVM_CACHE/src"
exec 8>"$KVM_CACHE/.lock-fetch"
flock 8
[ -f "$src/.vperf-fetched" ] && { echo "$src"; exit 0; }

command -v xz >/dev/null || { echo "kvm-fetch: xz missing (xz-utils)" >&2; exit 1; }
apt=$KVM_CACHE/apt
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/parts" "$KVM_CACHE/dl"
{
	# shellcheck disable=SC2016 # apt's format, not the shell's
	apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 'Identifier: Packages' |
		awk 'NF == 3 { print "deb-src " $1 " " $2 " " $3 }'
	backports_sources deb-src
} | sort -u >"$apt/sources.list"
[ -s "$apt/sources.list" ] || { echo "kvm-fetch: no deb source configured in apt" >&2; exit 1; }
echo "kvm-fetch: deb-src from apt's configuration: $(wc -l <"$apt/sources.list") entries" >&2
private_apt "$apt" update >&2
tarball=$KVM_CACHE/dl/linux_$upstream.orig.tar.xz
if [ ! -f "$tarball" ]; then
	echo "kvm-fetch: downloading linux=$ver's .orig tarball (about 150 MB)" >&2
	# Only the .orig tarball, never Debian's patches; apt checks it against the signed Sources.
	(cd "$KVM_CACHE/dl" && private_apt "$apt" source --download-only --tar-only "linux=$ver") >&2
fi
[ -f "$tarball" ] || { echo "kvm-fetch: $tarball not downloaded" >&2; exit 1; }
echo "kvm-fetch: unpacking $tarball" >&2
rm -rf "$src.tmp"
mkdir -p "$src.tmp"
tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
echo "$ver" >"$src.tmp/.vperf-fetched"
rm -rf "$src"
mv "$src.tmp" "$src"
echo "$src"
