#!/bin/sh
# A boot volume for the UEFI application (docs/uefi.md): a FAT file system image, whole-disk
# ("superfloppy", no partition table), to write to a USB stick (dd) or give QEMU as a drive.
#   mkstick.sh OUT.img NAME    configuration NAME of tests/qemu/configs.txt (a hyp or efi one)
# It holds the application at the removable-media path firmware boots by itself
# (EFI/BOOT/BOOTAA64.EFI: UEFI 2.10, 3.5.1.1, AArch64), the configuration's command line
# (vperf/cmdline.txt) and its images in slot order (vperf/slot0.bin, ...). Built with mtools,
# without mounting anything. Environment: QEMU_OUT (the images, as make qemu-images leaves them).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
out=${QEMU_OUT:?QEMU_OUT}
img=${1:?usage: mkstick.sh OUT.img NAME}
name=${2:?usage: mkstick.sh OUT.img NAME}

line=$(grep -v '^[[:space:]]*#' "$here/configs.txt" |
	awk -F'|' -v n="$name" '{ g = $1; gsub(/[ \t]/, "", g); if (g == n) print }')
[ -n "$line" ] || { echo "mkstick.sh: no configuration '$name' in configs.txt" >&2; exit 1; }
how=$(echo "$line" | cut -d'|' -f2 | tr -d ' \t')
case "$how" in hyp | efi) ;; *) echo "mkstick.sh: $name boots no hypervisor ($how)" >&2; exit 1 ;; esac
images=$(echo "$line" | cut -d'|' -f3 | tr -d ' \t')
args=$(echo "$line" | cut -d'|' -f4 | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')

files="$out/vperf-hyp.efi"
for i in $(echo "$images" | tr ',' ' '); do files="$files $out/$i.bin"; done
for f in $files; do
	[ -e "$f" ] || { echo "mkstick.sh: $f missing (make efi qemu-images, qemu-linux)" >&2; exit 1; }
done
# The files' size and 16 MiB for FAT's own structures, in MiB; FAT32 from 64 MiB on.
# shellcheck disable=SC2086 # one word per file
mib=$(( ($(du -L -c -k $files | tail -n 1 | cut -f1) / 1024) + 16 ))
rm -f "$img"
truncate -s "${mib}M" "$img"
fat=""
[ "$mib" -lt 64 ] || fat=-F
mformat -i "$img" $fat -v VPERF ::
mmd -i "$img" ::/EFI ::/EFI/BOOT ::/vperf
mcopy -i "$img" "$out/vperf-hyp.efi" ::/EFI/BOOT/BOOTAA64.EFI
printf '%s\n' "$args" >"$img.cmdline"
mcopy -i "$img" "$img.cmdline" ::/vperf/cmdline.txt
rm -f "$img.cmdline"
k=0
for i in $(echo "$images" | tr ',' ' '); do
	mcopy -i "$img" "$out/$i.bin" "::/vperf/slot$k.bin"
	k=$((k + 1))
done
echo "$img: $mib MiB, FAT${fat:+32}; EFI/BOOT/BOOTAA64.EFI, vperf/cmdline.txt, $k image(s)"
