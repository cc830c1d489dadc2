#!/bin/sh
# Install packages from the release's backports suite (QEMU 10 needs meson >= 1.5; Debian 12
# has 1.0): scripts/deps.sh calls this for its "name/backports" entries, after installing the
# ordinary packages they depend on. The suite's entries are derived from apt's own
# configuration (common.sh) into a private apt directory that exists only for this call: the
# system's sources and lists are not touched and no mirror is named here.
#
# Usage: platform/qemu/backports.sh PACKAGE...
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"

apt=$(mktemp -d)
trap 'rm -rf "$apt"' EXIT
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/parts"
backports_sources deb >"$apt/sources.list"
[ -s "$apt/sources.list" ] || { echo "backports: no $(codename) archive configured in apt" >&2; exit 1; }
private_apt "$apt" update -qq
pkgs=""
for p in "$@"; do pkgs="$pkgs $p/$(codename)-backports"; done
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive private_apt "$apt" install -y -qq --no-install-recommends $pkgs >/dev/null
