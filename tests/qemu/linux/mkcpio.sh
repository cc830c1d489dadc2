#!/bin/sh
# Write the Linux guest's initramfs, a cpio archive in the "newc" format the kernel unpacks
# (Linux Documentation/driver-api/early-userspace/buffer-format.rst): the static /init, the two
# device nodes it may need before anything is mounted, and /proc to mount if it must. Written
# here rather than with cpio(1) so that device nodes need no root and no package.
#   mkcpio.sh INIT OUT
set -eu
init=$1 out=$2
ino=720

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

{
	entry dev $((0040755)) 0 0
	entry dev/console $((0020600)) 5 1
	entry dev/kmsg $((0020644)) 1 11
	entry proc $((0040755)) 0 0
	entry init $((0100755)) 0 0 "$init"
	entry TRAILER!!! 0 0 0
} >"$out.tmp"
mv "$out.tmp" "$out"
