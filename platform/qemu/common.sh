# Shared by platform/qemu's scripts (sourced): the version, the cache and the backports apt view.
# shellcheck shell=sh
QEMU_DEB_VERSION=${QEMU_DEB_VERSION:-1:10.0.2+ds-2+deb13u1~bpo12+1}
default_cache=/var/cache/vperf/qemu
# Without root, a cache under the user's own directory.
mkdir -p "$default_cache" 2>/dev/null && [ -w "$default_cache" ] ||
	default_cache=${XDG_CACHE_HOME:-$HOME/.cache}/vperf/qemu
QEMU_CACHE=${QEMU_CACHE:-$default_cache}

# codename: the release of this machine (bookworm on Debian 12).
codename() {
	(. /etc/os-release && echo "$VERSION_CODENAME")
}

# backports_sources TYPE: one "TYPE URI <codename>-backports COMPONENT" line per configured archive
# serving the release's own suite, from apt's view of its sources.
backports_sources() {
	apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 'Identifier: Packages' |
		awk -v c="$(codename)" -v t="$1" 'NF == 3 && $2 == c { print t " " $1 " " c "-backports " $3 }' |
		sort -u
}

# private_apt DIR ARGS: apt-get with its sources, lists and archives under DIR only.
private_apt() {
	d=$1
	shift
	apt-get -q -o Dir::Etc::SourceList="$d/sources.list" -o Dir::Etc::SourceParts="$d/parts" \
		-o Dir::State::Lists="$d/lists" -o Dir::Cache::Archives="$d/archives" \
		-o Dir::Cache::pkgcache="" -o Dir::Cache::srcpkgcache="" -o APT::Sandbox::User=root "$@"
}
