#!/bin/sh
# make check-fresh: prove the README's quick start on a pristine Debian 12 (docs/build.md).
#
# Builds a minimal Debian 12 root file system (debootstrap --variant=minbase) from the Debian
# mirror this machine's apt is configured with (read from apt at run time, never written into the
# repository), copies a clean `git archive` of HEAD into it, and runs there, as root and as a new
# user would, exactly the README's quick-start lines: the prerequisite (apt-get install make),
# then `make run`, then `make check`. Each command's whole output, result and wall time are
# printed; then, from outside the root, whether they left its source tree clean (tree-clean), and
# the run ends with `fresh: N passed, N failed` over the two commands and tree-clean.
#
# The base root file system is cached outside the source tree ($VPERF_FRESH_CACHE, default
# /var/cache/vperf/check-fresh), and so are the downloaded .debs (apt's archive directory is
# bound there), so a repeat costs only the project's own steps: every package is still installed
# by the project's own scripts/deps.sh inside the fresh root, and `make run` builds the project's
# QEMU there (platform/qemu: its source from backports, its build into the root's own
# /var/cache/vperf/qemu), as on a new machine. Needs root (chroot, mounts) and
# installs debootstrap on the host when it is missing.
#   scripts/check-fresh.sh [SRCTREE]     (VPERF_FRESH_KEEP=1 keeps the root for inspection)
# VPERF_FRESH_GOALS="validate" runs other make goals after the prerequisite instead of the quick
# start's two (default "run check"), each timed the same way: `make check-fresh
# VPERF_FRESH_GOALS=validate` is what make validate costs a new machine (docs/validation.md).
set -eu

srctree=$(cd "${1:-$(dirname "$0")/..}" && pwd)
cache=${VPERF_FRESH_CACHE:-/var/cache/vperf/check-fresh}
suite=bookworm
goals=${VPERF_FRESH_GOALS:-run check}

[ "$(id -u)" -eq 0 ] || { echo "check-fresh: needs root (chroot and mounts)" >&2; exit 2; }
# The commit the root gets, fixed at the start: HEAD may move while the run lasts.
commit=$(git -C "$srctree" rev-parse --verify -q HEAD) ||
	{ echo "check-fresh: $srctree is no git checkout (it copies git archive HEAD)" >&2; exit 2; }
export DEBIAN_FRONTEND=noninteractive

# Debian's repositories as this machine's apt knows them: "URI SUITE COMPONENT" per line, for the
# native architecture's binary packages.
debian_repos() {
	apt-get indextargets --format '$(ORIGIN) $(TARGET_OF) $(ARCHITECTURE) $(REPO_URI) $(RELEASE) $(COMPONENT)' |
		awk -v arch="$(dpkg --print-architecture)" \
			'$1 == "Debian" && $2 == "deb" && $3 == arch { print $4, $5, $6 }' | sort -u
}

host_setup() {
	apt-get update -qq
	command -v debootstrap >/dev/null ||
		apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
	repos=$(debian_repos)
	mirror=$(echo "$repos" | awk -v s="$suite" '$2 == s { print $1; exit }')
	[ -n "$mirror" ] || { echo "check-fresh: apt knows no Debian '$suite' repository" >&2; exit 2; }
}

# The base root file system, made once: what a new Debian 12 machine has before anything else.
base_tarball() {
	base=$cache/base-$suite-$(dpkg --print-architecture).tar
	[ -f "$base" ] && return
	echo "check-fresh: debootstrap $suite from $mirror (cached as $base)"
	tmp=$cache/base.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	debootstrap --variant=minbase "$suite" "$tmp" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$cache/debootstrap.log" >&2; exit 1; }
	tar -C "$tmp" -cf "$base.new" .
	mv "$base.new" "$base"
	rm -rf "$tmp"
}

# A fresh root from the base, configured with this machine's Debian repositories and the apt
# options that reaching them needs (the Acquire settings of apt.conf.d), and the source tree.
make_root() {
	root=$cache/root
	rm -rf "$root"
	mkdir -p "$root" "$cache/archives/partial"
	tar -C "$root" -xf "$base"
	echo "$repos" | while read -r uri rel comp; do
		echo "deb $uri $rel $comp"
	done >"$root/etc/apt/sources.list"
	for f in /etc/apt/apt.conf.d/*; do
		grep -qs '^Acquire' "$f" && cp "$f" "$root/etc/apt/apt.conf.d/"
	done
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	mkdir -p "$root/root/vperf"
	git -C "$srctree" archive "$commit" | tar -x -C "$root/root/vperf"
}

# The quick start, inside the root: the README's lines, timed. Runs in its own mount namespace,
# so every mount is gone when it ends, whatever happens.
run_inside() {
	unshare --mount --fork sh -eu -c '
		root=$1 cache=$2
		mount --make-rprivate /
		mount -t proc proc "$root/proc"
		mount -t sysfs sys "$root/sys"
		mount --rbind /dev "$root/dev"
		mount --bind "$cache/archives" "$root/var/cache/apt/archives"
		exec chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			sh -c "cd /root/vperf && . /root/quickstart.sh"
	' check-fresh "$root" "$cache"
}

quickstart_script() {
	{
		echo "goals='$goals'"
		cat <<'EOF'
passed=0 failed=0
# step NAME CMD...: run one command with its whole output (make check's cmocka summaries must
# reach CI's log), then its result and wall time.
step() {
	name=$1 t0=$(date +%s)
	shift
	echo "== check-fresh: $*"
	{ "$@" 2>&1; echo $? >"/root/$name.rc"; } | tee "/root/$name.log"
	if [ "$(cat "/root/$name.rc")" = 0 ]; then r=PASSED; else r=FAILED; fi
	echo "== check-fresh: '$*' $r in $(($(date +%s) - t0)) s (log: root/$name.log in the root)"
	[ "$r" = PASSED ]
}
# The README's prerequisite: make itself (everything else, make's targets install).
if ! { step apt-update apt-get update -qq && step install-make apt-get install -y -qq make; }; then
	echo "check-fresh: the root's goals: 0 passed, $(echo $goals | wc -w) failed"
	exit 0
fi
for g in $goals; do
	if step "make-$g" make "$g"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "check-fresh: the root's goals: $passed passed, $failed failed"
EOF
	} >"$root/root/quickstart.sh"
}

# tree_clean: make check must leave the source tree as it found it; its own test of that is
# skipped in the root (no git there), so it is judged from outside: the root's copy against the
# commit it was copied from, through this checkout's objects and an index of its own (a changed
# or removed file, or a new one that .gitignore does not name, fails it).
tree_clean() {
	idx=$(mktemp -d)/index
	gitdir=$(git -C "$srctree" rev-parse --absolute-git-dir)
	changes=$(
		g() { GIT_INDEX_FILE=$idx git -C "$root/root/vperf" --git-dir="$gitdir" --work-tree=. "$@"; }
		g read-tree "$commit" && { g update-index -q --refresh >/dev/null || true; } &&
			g diff-files --name-status && g ls-files --others --exclude-standard | sed 's/^/?	/'
	)
	rc=$?
	rm -rf "$(dirname "$idx")"
	if [ "$rc" -eq 0 ] && [ -z "$changes" ]; then
		echo "[  PASSED  ] tree-clean (make $goals left the root's source tree as git archive made it)"
		return 0
	fi
	echo "[  FAILED  ] tree-clean: make $goals changed the root's source tree (git, rc $rc):"
	echo "$changes" | sed 's/^/  /'
	return 1
}

t0=$(date +%s)
mkdir -p "$cache"
host_setup
base_tarball
make_root
quickstart_script
run_inside | tee "$cache/quickstart.log"
counts=$(sed -n 's/^check-fresh: the root.s goals: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
	"$cache/quickstart.log" | tail -n 1)
[ -n "$counts" ] || counts="0 1"
passed=${counts%% *} failed=${counts##* }
if tree_clean; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
# A report a goal wrote (make validate's) outlives the root.
for f in "$root"/root/vperf/build/validate/report.md "$root"/root/vperf/build/validate/report.html; do
	[ -f "$f" ] && cp "$f" "$cache/validate-$(basename "$f")" &&
		echo "check-fresh: kept $cache/validate-$(basename "$f")"
done
[ -n "${VPERF_FRESH_KEEP:-}" ] || rm -rf "$root"
echo "check-fresh: $(($(date +%s) - t0)) s in all (cache: $cache)"
echo "fresh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
