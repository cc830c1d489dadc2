#!/bin/sh
# Fetch Debian 12's source package of Xen (main suite) into a cache outside the tree and unpack
# it without Debian's patches: the series in integrations/xen/patches applies to upstream
# stable-4.17 as Debian ships it (the .orig tarball).
#
# The deb-src entries are derived at run time from this machine's own apt configuration
# (apt-get indextargets: the URI and suite of every configured "deb" source) and written to a
# private apt configuration under the cache; the system's sources and lists are not touched and no
# mirror is named here.
#
# Usage: integrations/xen/fetch.sh [CACHE]   prints the unpacked source directory on stdout
#   XEN_DEB_VERSION   the source version (default: bookworm main's 4.17.5 upload)
#   XEN_CACHE         cache directory (default /var/cache/vperf/xen, or ~/.cache/vperf/xen
#                     where that is not writable)
set -eu
ver=${XEN_DEB_VERSION:-4.17.5+72-g01140da4e8-1}
default_cache=/var/cache/vperf/xen
# Without root, a cache under the user's own directory.
mkdir -p "$default_cache" 2>/dev/null && [ -w "$default_cache" ] ||
	default_cache=${XDG_CACHE_HOME:-$HOME/.cache}/vperf/xen
cache=${1:-${XEN_CACHE:-$default_cache}}
upstream=${ver%-*}
src=$cache/xen-$upstream
if [ -f "$src/xen/Makefile" ]; then
	echo "$src"
	exit 0
fi

command -v dpkg-source >/dev/null || { echo "xen-fetch: dpkg-source missing (dpkg-dev)" >&2; exit 1; }
apt=$cache/apt
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/parts" "$cache/dl"
# One deb-src line per configured archive and suite, from apt's own view of its sources.
apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 'Identifier: Packages' |
	sort -u | awk 'NF == 3 { print "deb-src " $1 " " $2 " " $3 }' >"$apt/sources.list"
[ -s "$apt/sources.list" ] || { echo "xen-fetch: no deb source configured in apt" >&2; exit 1; }
aptp() {
	apt-get -q -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts="$apt/parts" \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache::Archives="$apt/archives" \
		-o Dir::Cache::pkgcache="" -o Dir::Cache::srcpkgcache="" -o APT::Sandbox::User=root "$@"
}
echo "xen-fetch: deb-src from apt's configuration: $(wc -l <"$apt/sources.list") entries" >&2
aptp update >&2
(cd "$cache/dl" && aptp source --download-only "xen=$ver") >&2
dsc=$(ls "$cache/dl"/xen_*.dsc | head -n 1)
rm -rf "$src.tmp"
dpkg-source --skip-patches -x "$dsc" "$src.tmp" >&2
mv "$src.tmp" "$src"
echo "$src"
