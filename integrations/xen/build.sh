# integrations/xen/build.sh: the Xen builds of make xen-check, sourced by check.sh (which sets
# here, srctree, out, logs, cross, xen_kcflags and selected()).
#
# Xen's patched tree and its objects live outside the clone, in the cache fetch.sh keeps the
# source in: $XEN_CACHE/build/<hash of the source's name and the series>/src (and src-passthrough,
# the same with CONFIG_VPERF off), so that a new clone (CI's) compiles only what differs: vperf's
# objects in Xen, whose include paths name the clone, and the links. A run holds the build's lock
# from the tree's preparation to the last variant, as mutants are applied to the shared tree in
# place (and taken out again, also by the next run when one was left); each Xen binary is copied
# into the clone's $out before the lock is released. The newest two builds are kept.
# Undo any mutant a failed earlier run left applied.
unmutate() {
	for m in "$here"/mutants/*.patch; do
		patch -d "$tree" -p1 -R -s -f --dry-run <"$m" >/dev/null 2>&1 &&
			patch -d "$tree" -p1 -R -s -f <"$m" >/dev/null
	done
	return 0
}

# prepare_tree: the patched tree of this source and series ($tree), its build locked (fd 8).
prepare_tree() {
	src=$("$here/fetch.sh") || { echo "xen-check: fetching Xen's source failed"; return 1; }
	stamp=$( (basename "$src" && cat "$here"/patches/*.patch) | sha256sum | cut -c1-16)
	builds=$(dirname "$src")/build
	tree=$builds/$stamp/src
	mkdir -p "$builds/$stamp" && exec 8>"$builds/$stamp/lock" && flock 8 || return 1
	touch "$builds/$stamp"
	prune_builds
	if [ "$(cat "$tree/.vperf-series" 2>/dev/null)" = "$stamp" ]; then
		unmutate
		return 0
	fi
	rm -rf "$tree" && cp -a "$src" "$tree" || return 1
	for p in "$here"/patches/*.patch; do
		patch -d "$tree" -p1 -s -N --no-backup-if-mismatch <"$p" ||
			{ echo "xen-check: $(basename "$p") does not apply to $(basename "$src")"; return 1; }
	done
	echo "$stamp" >"$tree/.vperf-series"
	echo "xen-check: $(basename "$src") with $(ls "$here"/patches/*.patch | wc -l) patches in $tree"
}

# prune_builds: all but the newest two builds of $builds, those no run holds.
prune_builds() {
	ls -1t "$builds" | tail -n +3 | while read -r old; do
		(flock -n 9 && rm -rf "${builds:?}/$old") 9>"$builds/$old/lock" 2>/dev/null || true
	done
}

build_vperf() {
	# (again when the defconfig changed: a build tree keeps the .config it was made with)
	[ -f "$out/vperf/.config" ] && [ ! "$srctree/configs/xen_defconfig" -nt "$out/vperf/.config" ] ||
		make -C "$srctree" O="$out/vperf" ARCH=arm64 DEFCONFIG=xen_defconfig defconfig || return 1
	nice -n 10 make -C "$srctree" O="$out/vperf" KCFLAGS="$xen_kcflags" "$out/vperf/libvperf.a"
}

# A vperf mutant (tests/mutants/NAME.patch, a fixed defect brought back): a scratch copy of the
# tree with the patch (scripts/vperf-mutant.sh), built as build_vperf builds the real one, into
# $out/vperf-NAME. Prints the copy's path.
build_vperf_mutant() {
	m=$1 mdir=$out/mutant-$1
	msrc=$("$srctree/scripts/vperf-mutant.sh" "$srctree" "$m" "$mdir") || return 1
	[ -f "$out/vperf-$m/.config" ] ||
		make -f "$msrc/Makefile" O="$out/vperf-$m" ARCH=arm64 DEFCONFIG=xen_defconfig defconfig >&2 || return 1
	nice -n 10 make -f "$msrc/Makefile" O="$out/vperf-$m" KCFLAGS="$xen_kcflags" "$out/vperf-$m/libvperf.a" >&2 ||
		return 1
	echo "$msrc"
}

# Xen's own make, without the variables of a calling make (O= would make it build out of tree);
# vperf from $vperf_src and $vperf_obj (the real tree and its build unless a vperf mutant's).
xen_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL nice -n 10 make -C "$xtree/xen" -j2 XEN_TARGET_ARCH=arm64 CROSS_COMPILE="$cross" \
		VPERF_SRC="${vperf_src:-$srctree}" VPERF_OBJ="${vperf_obj:-$out/vperf}" "$@"
}

# build_xen VARIANT: $out/xen-VARIANT. vperf: the series; passthrough: the series with
# CONFIG_VPERF off (Xen's own raw PMU pass-through, in a copy of the tree); vperf+NAME: the
# series linked with the vperf mutant NAME (tests/mutants/NAME.patch); else the series +
# mutants/VARIANT.patch.
build_xen() {
	v=$1 blog=$logs/build-xen-$1.log xtree=$tree vperf=y vperf_src="" vperf_obj=""
	case "$v" in
	vperf+*)
		vperf_obj=$out/vperf-${v#vperf+}
		vperf_src=$(build_vperf_mutant "${v#vperf+}" 2>"$blog") ||
			{ echo "xen-check: building the vperf mutant ${v#vperf+} failed: $blog"; return 1; }
		;;
	esac
	# Xen relinks vperf's library only when it is newer than its object: after (or before) a
	# build with another library, its object must go.
	rm -f "$tree/xen/arch/arm/vperf-lib.o"
	if [ "$v" = passthrough ]; then
		xtree=$builds/$stamp/src-passthrough vperf=n
		[ "$(cat "$xtree/.vperf-series" 2>/dev/null)" = "$(cat "$tree/.vperf-series")" ] ||
			{ rm -rf "$xtree" && cp -a "$tree" "$xtree" && rm -f "$xtree/xen/.config"; } || return 1
	fi
	if [ ! -f "$xtree/xen/.config" ]; then
		xen_make defconfig >"$blog" 2>&1 &&
			printf 'CONFIG_EXPERT=y\nCONFIG_VPERF=%s\n' $vperf >>"$xtree/xen/.config" &&
			xen_make olddefconfig >>"$blog" 2>&1 || { echo "xen-check: Xen configuration failed ($blog)"; return 1; }
	fi
	if [ "$v" != vperf ] && [ "$v" != passthrough ] && [ -n "${v##vperf+*}" ]; then
		patch -d "$tree" -p1 -s -N <"$here/mutants/$v.patch" ||
			{ echo "xen-check: mutant $v does not apply"; return 1; }
	fi
	tb=$(date +%s)
	xen_make >>"$blog" 2>&1
	rc=$?
	[ -f "$here/mutants/$v.patch" ] && patch -d "$tree" -p1 -R -s <"$here/mutants/$v.patch"
	[ -z "$vperf_obj" ] || rm -f "$tree/xen/arch/arm/vperf-lib.o"
	[ $rc -eq 0 ] || { echo "xen-check: building Xen ($v) failed: $blog"; return 1; }
	[ "$vperf" = n ] || grep -q '^CONFIG_VPERF=y' "$xtree/xen/.config" ||
		{ echo "xen-check: CONFIG_VPERF is off"; return 1; }
	cp "$xtree/xen/xen" "$out/xen-$v"
	echo "xen-check: built Xen ($v) in $(($(date +%s) - tb)) s"
}

build_all() {
	ta=$(date +%s)
	prepare_tree && build_vperf >"$logs/build-vperf.log" 2>&1 ||
		{ echo "xen-check: building vperf for Xen failed: $logs/build-vperf.log"; return 1; }
	for v in $(selected "${1:-}" | cut -d'|' -f2 | trim | sort -u); do
		build_xen "$v" || return 1
	done
	exec 8>&-
	echo "xen-check: fetch, patch and build took $(($(date +%s) - ta)) s"
}

