#!/bin/sh
# Write the Linux guest's initramfs, a cpio archive in the "newc" format the kernel unpacks
# (Linux Documentation/driver-api/early-userspace/buffer-format.rst): the static /init, the two
# device nodes it may need before anything is mounted, and /proc to mount if it must. Written
# here rather than with cpio(1) so that device nodes need no root and no package. Each TREE adds
# its directories, files and symbolic links under their paths relative to it (a path already
# added is skipped: the first TREE holding it wins).
#   mkcpio.sh INIT OUT [TREE...]
set -eu
init=$1 out=$2
shift 2
ino=720
seen=$(mktemp)
trap 'rm -f "$seen" "$seen.link" "$seen.list"' EXIT

pad() { head -c "$1" /dev/zero; }

# entry NAME MODE RDEVMAJOR RDEVMINOR [FILE]: one header (110 ASCII bytes: magic and thirteen
# 8-digit hex fields), the NUL-terminated name and the data, each padded to 4 bytes.
entry() {
	name=$1 mode=$2 rmaj=$3 rmin=$4 file=${5:-}
	size=0
	[ -n "$file" ] && size=$(wc -c <"$file")
	nlink=1
	[ $((mode & 0170000)) -eq $((0040000)) ] && nlink=2
	namesize=$((${#name} + 1))
	ino=$((ino + 1))
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		"$ino" "$mode" 0 0 "$nlink" 0 "$size" 0 0 "$rmaj" "$rmin" "$namesize" 0
	printf '%s\000' "$name"
	pad $(((4 - (110 + namesize) % 4) % 4))
	[ -n "$file" ] && cat "$file"
	pad $(((4 - size % 4) % 4))
}

# tree DIR: every path below DIR not added yet, parents first (sorted).
tree() {
	(cd "$1" && find . -mindepth 1 | sed 's|^\./||' | LC_ALL=C sort) >"$seen.list"
	while IFS= read -r p; do
		grep -qxF "$p" "$seen" && continue
		echo "$p" >>"$seen"
		f=$1/$p
		if [ -L "$f" ]; then
			printf '%s' "$(readlink "$f")" >"$seen.link"
			entry "$p" $((0120777)) 0 0 "$seen.link"
		elif [ -d "$f" ]; then
			entry "$p" $((0040755)) 0 0
		elif [ -x "$f" ]; then
			entry "$p" $((0100755)) 0 0 "$f"
		else
			entry "$p" $((0100644)) 0 0 "$f"
		fi
	done <"$seen.list"
}

printf '%s\n' dev dev/console dev/kmsg proc init >"$seen"
{
	entry dev $((0040755)) 0 0
	entry dev/console $((0020600)) 5 1
	entry dev/kmsg $((0020644)) 1 11
	entry proc $((0040755)) 0 0
	entry init $((0100755)) 0 0 "$init"
	for t in "$@"; do
		tree "$t"
	done
	entry TRAILER!!! 0 0 0
} >"$out.tmp"
mv "$out.tmp" "$out"
