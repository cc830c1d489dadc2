#!/bin/sh
# Boot the QEMU configurations of tests/qemu/configs.txt and judge them from the serial log.
#   run.sh check [PART]     every configuration (whose name contains PART); "qemu: N passed,
#                           N failed" at the end
#   run.sh demo             the demo (make run)
#   run.sh bench FILE       -icount shift=0 measurements into FILE's QEMU section
#   run.sh one NAME         one configuration, log on stdout
# Environment: QEMU_EFI_FW (the edk2 firmware of the efi configurations, default Debian's
# qemu-efi-aarch64: /usr/share/qemu-efi-aarch64/QEMU_EFI.fd), QEMU_OUT (images, logs), QEMU_LOGS (the logs' directory, default $QEMU_OUT/logs:
# runs of one configuration at once each need their own), QEMU_RESULTS (run-tests.sh results file to append to),
# QEMU_RESET_SEED (-cpu ...,reset-seed=S: the project's QEMU's garbage in the registers a reset
# leaves UNKNOWN; unset, its default),
# QEMU (default: the project's QEMU, platform/qemu/build.sh), VPERF_SPE (tools/vperf-spe, default
# $QEMU_OUT/../host/bin/vperf-spe: decodes the SPE-BUF lines of a run, spe_decode below),
# BENCH_SPE_MS (bench: virtual ms of the SPE records-lost check, default 12000; bench.sh).
# A configuration passes when every guest printed "SUITE DONE", the hypervisor finished, no
# test FAILed (but its xfail= and flaky= ones), no xfail= test passed (each is reported as XPASS,
# a flaky= one too, without failing the configuration: scripts/verdict.sh) and nothing timed
# out; a must-fail one passes only when the
# hypervisor booted, its guests started, and a test caught the breakage (a test FAILed). An
# infrastructure failure (QEMU or an image missing, QEMU refusing its arguments, no hypervisor
# banner, a guest not started) is a failure of any configuration, must-fail ones included, and
# is reported as such.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${QEMU_OUT:?QEMU_OUT}
results=${QEMU_RESULTS:-/dev/null}
# The project's QEMU (platform/qemu: Debian's QEMU 10 with its patch series), built once per
# machine into a cache; QEMU=/path/to/qemu-system-aarch64 runs another binary.
qemu=${QEMU:-$("$here/../../platform/qemu/build.sh")} || { echo "run.sh: building QEMU failed" >&2; exit 1; }
logs=${QEMU_LOGS:-$out/logs}
efi_fw=${QEMU_EFI_FW:-/usr/share/qemu-efi-aarch64/QEMU_EFI.fd}
suite=qemu
mkdir -p "$logs"
. "$here/../../scripts/verdict.sh"

# qemu_cmd HOW IMAGES ARGS EXTRA...: run QEMU for one configuration.
qemu_cmd() {
	how=$1 images=$2 args=$3 tmo=$4
	shift 4
	case "$how" in
	bare | bare-el2)
		# IMAGE or KERNEL,INITRD (a Linux kernel and its initramfs, -initrd)
		kernel=${images%%,*}
		[ "$kernel" = "$images" ] || set -- -initrd "$out/${images#*,}.bin" "$@"
		virt=virt,gic-version=3
		[ "$how" = bare-el2 ] && virt=virt,virtualization=on,gic-version=3
		set -- -M "$virt" -m 256M -kernel "$out/$kernel.bin" -append "$args" "$@" ;;
	hyp | efi)
		slot=0
		for img in $(echo "$images" | tr ',' ' '); do
			[ "${efi_disk:-0}" = 1 ] && break # flag disk: every image is on the disk
			addr=$(printf '0x%x' $((0x90000000 + slot * 0x08000000)))
			set -- "$@" -device "loader,file=$out/$img.bin,addr=$addr,force-raw=on"
			slot=$((slot + 1))
		done
		if [ "$how" = efi ]; then
			# acpi=off: edk2 then installs QEMU's device tree, not ACPI tables (flag acpi:
			# QEMU's ACPI tables, and no device tree).
			acpi=,acpi=off el2=,virtualization=on
			[ "${efi_acpi:-}" = 1 ] && acpi=
			[ "${efi_el1:-}" = 1 ] && el2= # flag el1: the firmware, and so its applications, at EL1
			if [ "${efi_disk:-0}" = 1 ]; then
				# flag disk: the FAT image of make efi-stick on a virtio-blk disk of a
				# virtio-mmio transport (no PCI in the project's QEMU: if=virtio would be
				# virtio-blk-pci); edk2 boots its \EFI\BOOT\BOOTAA64.EFI by itself,
				# which reads its command line and images from the disk. splash-time=0
				# (fw_cfg etc/boot-menu-wait, which edk2 reads with menu=on): no 5 s wait
				# for a key before the boot (measured: 8.2 s a run with it, 2.1 s without)
				set -- -drive "if=none,id=stick,format=raw,readonly=on,file=$efi_img" \
					-device virtio-blk-device,drive=stick -boot menu=on,splash-time=0 "$@"
			else
				# edk2 (-bios) boots the UEFI application given as -kernel, with -append
				# as its load options
				set -- -kernel "$out/vperf-hyp.efi" -append "$args" "$@"
			fi
			set -- -M "virt$el2,gic-version=3$acpi" -m 2G -bios "$efi_fw" "$@"
		else
			set -- -M virt,virtualization=on,gic-version=3 -m 2G -kernel "$out/${hyp_image:-vperf-hyp}.bin" \
				-append "$args" "$@"
		fi ;;
	*) echo "run.sh: unknown kind '$how'" >&2; return 2 ;;
	esac
	# -nodefaults: no default NIC (its option ROM is in ipxe-qemu, which nothing here needs),
	# monitor or other devices; the board's PL011 is the console (-serial stdio).
	timeout "$tmo" "$qemu" -nodefaults -cpu "${cpu:-max}" -display none -serial stdio -no-reboot \
		"$@" </dev/null 2>&1
}

# images_missing IMAGES: the images (comma-separated names) that $out does not hold.
images_missing() {
	for img in $(echo "$1" | tr ',' ' '); do
		[ -e "$out/$img.bin" ] || printf ' %s' "$img.bin"
	done
}

# infra_failure LOG HOW ARGS RC: why the run says nothing about vperf (QEMU refused to start,
# the hypervisor never booted, a guest never started), or nothing when the run is judgeable.
infra_failure() {
	log=$1 how=$2 args=$3 rc=$4
	qemu_msg=$(grep -m 1 "^$(basename "$qemu"): " "$log" | grep -v ': warning: ')
	if [ "$rc" -eq 126 ] || [ "$rc" -eq 127 ]; then
		echo "QEMU could not be run ($qemu, exit $rc)"
	elif [ -n "$qemu_msg" ]; then
		echo "QEMU refused to start: $qemu_msg"
	elif [ "$how" = hyp ] || [ "$how" = efi ]; then
		grep -q '^vperf-hyp: EL2, MMU on' "$log" || { echo "no hypervisor banner"; return; }
		# Each configured VM was started, or the hypervisor reported why not (RESULT host
		# vmI-policy / -args / -spe-refused: a verdict the judge weighs).
		for vm in $(echo "$args" | grep -o 'vm[0-9]*\.img=' | sed 's/\.img=//' | sort -u); do
			grep -q "^vperf-hyp: $vm: image slot\|^RESULT host $vm-" "$log" ||
				{ echo "guest $vm not started"; return; }
		done
	elif ! grep -q 'RESULT \|Booting Linux' "$log"; then
		echo "no guest output"
	fi
}

# spe_decode NAME LOG: the hypervisor's own Profiling Buffer, printed as SPE-BUF lines (vmI.spe=
# outside, hyp/spe_outside.c), decoded again by tools/vperf-spe; malformed records (its exit
# status 1) are a FAIL, appended to the log as the hypervisor's RESULT lines are.
spe_decode() {
	grep -q '^SPE-BUF ' "$2" || return 0
	dec=${VPERF_SPE:-$out/../host/bin/vperf-spe}
	if [ ! -x "$dec" ]; then
		echo "RESULT host spe-outside-decode SKIP no vperf-spe at $dec" >>"$2"
		return 0
	fi
	grep '^SPE-BUF ' "$2" | cut -d' ' -f2 | tr -d '\n' | xxd -r -p >"$logs/$1.spe"
	"$dec" --summary -q "$logs/$1.spe" >"$logs/$1.spe.txt" 2>&1
	rc=$?
	recs=$(grep -m 1 -o '[0-9]* records' "$logs/$1.spe.txt")
	v=PASS
	[ "$rc" -eq 0 ] || v=FAIL
	echo "RESULT host spe-outside-decode $v vperf-spe --summary exit $rc: ${recs:-no records} ($logs/$1.spe.txt)" >>"$2"
}

# spe_lost LOG: each Linux guest's "AUX data lost" (perf's count of truncated AUX records,
# linux-tool-spe-aux) against the buffer events with DL vperf showed that VM (the hypervisor's
# "vmI SPE: ... (data lost D)"): a record cut by a stage 2 fault is the one loss vperf may cause,
# one truncated AUX record each. Bare runs have no hypervisor line and no verdict.
spe_lost() {
	for vm in $(sed -n 's/^\[\(vm[0-9]*\)\] RESULT linux-tool-spe-aux .*/\1/p' "$1"); do
		lost=$(sed -n "s/^\[$vm\] RESULT linux-tool-spe-aux .* lost \([0-9]*\),.*/\1/p" "$1")
		dl=$(sed -n "s/^vperf-hyp: $vm SPE: events [0-9]* (data lost \([0-9]*\)).*/\1/p" "$1")
		[ -n "$dl" ] || continue
		v=PASS
		[ "${lost:-0}" -le "$dl" ] || v=FAIL
		echo "RESULT host $vm-spe-lost-justified $v perf's AUX data lost ${lost:-0} times, vperf's events with DL $dl" >>"$1"
	done
}

# spe_iso LOG: the Linux SPE guests' own ranges, as their isolation checks used them (spe-iso.sh:
# "SPE-ISO kernel LO-HI work LO-HI pid P time VT0-VT1"), pairwise apart: kernel text, workload
# text and virtual time windows disjoint, the workloads' PIDs different. Each guest found every
# record of its buffer inside its own; apart, none of them can be another guest's.
spe_iso() {
	n=$(grep -c '^\[vm[0-9]*\] SPE-ISO ' "$1")
	[ "$n" -ge 2 ] || return 0
	tr -d '\r' <"$1" | sed -n 's/^\[\(vm[0-9]*\)\] SPE-ISO kernel \([0-9a-f]*\)-\([0-9a-f]*\) work \([0-9a-f]*\)-\([0-9a-f]*\) pid \([^ ]*\) time \([0-9]*\)-\([0-9]*\)$/\1 \2 \3 \4 \5 \6 \7 \8/p' |
		awk -v n="$n" '
		function apart(what, a_lo, a_hi, b_lo, b_hi) {
			if (a_lo < b_hi && b_lo < a_hi) bad = bad " " vm[i] "/" vm[j] ": " what " overlap;"
		}
		{ vm[NR] = $1; k0[NR] = "x" $2; k1[NR] = "x" $3; w0[NR] = "x" $4; w1[NR] = "x" $5
		  pid[NR] = $6; t0[NR] = $7 + 0; t1[NR] = $8 + 0
		  all = all " " $1 " (kernel " $2 "-" $3 ", workload " $4 "-" $5 ", PID " $6 ", time " $7 "-" $8 ")" }
		END {
			for (i = 1; i <= NR; i++)
				for (j = i + 1; j <= NR; j++) {
					apart("kernel text", k0[i], k1[i], k0[j], k1[j])
					apart("workload text", w0[i], w1[i], w0[j], w1[j])
					apart("virtual time", t0[i], t1[i], t0[j], t1[j])
					if (pid[i] == pid[j]) bad = bad " " vm[i] "/" vm[j] ": same PID;"
				}
			if (NR != n) bad = bad " " n - NR " SPE-ISO lines unreadable;"
			printf "RESULT host spe-iso-apart %s %d guests:%s%s\n", bad == "" ? "PASS" : "FAIL", NR, all, bad
		}' >>"$1"
}

# efi_dt_source LOG: where a UEFI boot's device tree came from, against the configuration: the
# firmware's own (configuration table), or written from its ACPI tables (flag acpi).
efi_dt_source() {
	from_acpi=0
	grep -q '^vperf-efi: no device tree, ACPI tables' "$1" && from_acpi=1
	v=PASS
	[ "$from_acpi" = "${efi_acpi:-0}" ] || v=FAIL
	what="the firmware's device tree"
	[ "$from_acpi" = 1 ] && what="a device tree written from the ACPI tables"
	echo "RESULT host efi-dt-source $v $what (acpi flag: ${efi_acpi:-0})" >>"$1"
}

# efi_boot_source LOG IMAGES: where a UEFI boot's application, command line and guest images came
# from, as the application says, against the configuration: flag disk, the application from a
# virtio-mmio transport (edk2's VIRTIO_MMIO_TRANSPORT_GUID device path) and all the rest from its
# \vperf files, so none from -append or -device loader; else the -kernel boot: the application
# from edk2's file system of QEMU's -kernel (QEMU_KERNEL_LOADER_FS_MEDIA_GUID), the command line
# from the load options (-append) and no image file (the loader's images).
efi_boot_source() {
	n=$(echo "$2" | tr ',' '\n' | grep -c .)
	from=$(tr -d '\r' <"$1" | sed -n 's/^vperf-efi: command line from \([^:]*\): .*/\1/p' | head -n 1)
	files=$(grep -c '^vperf-efi: slot [0-9]*: \\vperf\\slot[0-9]*\.bin, ' "$1")
	dev=$(tr -d '\r' <"$1" | sed -n 's/^vperf-efi: loaded from //p' | head -n 1)
	want_from="the load options" want_files=0 want_dev="VenMedia(1428F772-B64A-441E-B8C3-9EBDD7F893C7)"
	[ "${efi_disk:-0}" = 1 ] &&
		want_from='\vperf\cmdline.txt' want_files=$n want_dev="VenHw(837DCA9E-E874-4D82-B29A-23FE0E23D1E2"
	v=PASS
	case "$dev" in "$want_dev"*) ;; *) v=FAIL ;; esac
	[ "$from" = "$want_from" ] && [ "$files" = "$want_files" ] || v=FAIL
	printf 'RESULT host efi-boot-source %s command line from %s, %s of %s images from vperf/slotK.bin files (disk flag: %s; loaded from %s)\n' \
		"$v" "${from:-nowhere}" "$files" "$n" "${efi_disk:-0}" "${dev:-?}" >>"$1"
}

# efi_twin NAME LOG TWIN: the verdicts of a UEFI boot against its -kernel twin's (flag twin=NAME)
# in the same logs directory (make check runs the twin first): the sorted "RESULT test verdict"
# pairs must be the same, but for the efi-* ones only a UEFI boot has. SKIP without the twin's log.
efi_twin() {
	if [ ! -e "$logs/$3.log" ]; then
		echo "RESULT host efi-twin-verdicts SKIP no log of $3 in $logs (run it first)" >>"$2"
		return
	fi
	verdicts "$logs/$3.log" >"$2.twin"
	verdicts "$2" | diff "$2.twin" - >"$2.diff"
	d=$(grep -c '^[<>]' "$2.diff")
	v=PASS
	[ "$d" -eq 0 ] || v=FAIL
	echo "RESULT host efi-twin-verdicts $v $(grep -c . "$2.twin") verdicts against $3's: $d lines differ$([ "$d" -eq 0 ] || echo ": $(grep '^[<>]' "$2.diff" | head -n 4 | paste -sd ';' -)")" >>"$2"
	rm -f "$2.twin" "$2.diff"
}

# verdicts LOG: each RESULT line's test and verdict, sorted (the efi-* host checks left out).
verdicts() {
	tr -d '\r' <"$1" | sed -n 's/.*RESULT \(host \)\{0,1\}\([^ ]*\) \([A-Z]*\).*/\2 \3/p' |
		grep -v '^efi-' | sort
}

# efi_refusal NAME LOG WORD: a configuration the UEFI application must refuse (efi-refused=WORD):
# it passes when the application stopped with a message naming WORD and no hypervisor started.
efi_refusal() {
	msg=$(grep -m 1 '^vperf-efi: FAILED' "$2" | tr -d '\r')
	if [ -n "$msg" ] && echo "$msg" | grep -q -- "$3" && ! grep -q '^vperf-hyp: ' "$2"; then
		verdict_pass "$1" 1 "the application refused: ${msg#vperf-efi: FAILED: }"
		return 0
	fi
	verdict_fail "$1" 0 1 " (no refusal naming $3: ${msg:-none})"
}

# judge NAME LOG FLAGS HOW RC SECS: print the verdict, append the results line, return 0 if it
# passed.
judge() {
	name=$1 log=$2 flags=$3 how=$4 rc=$5 secs=$6
	xfail=$(xfail_tests "$flags") flaky=$(flaky_tests "$flags")
	pass=$(grep -c 'RESULT [^ ]* [^ ]* PASS\|RESULT [^ ]* PASS' "$log")
	skip=$(grep -c 'RESULT .* SKIP' "$log")
	fails=$(grep 'RESULT .* FAIL' "$log" | sed 's/.*RESULT \(host \)\{0,1\}\([^ ]*\) FAIL.*/\2/')
	bad=0 unexpected="" xfailed="" flaked=""
	for t in $fails; do
		case " $xfail " in
		*" $t "*) xfailed="$xfailed $t" ;;
		*) case " $flaky " in
			*" $t "*) flaked="$flaked $t" ;;
			*) bad=$((bad + 1)) unexpected="$unexpected $t" ;;
			esac ;;
		esac
	done
	# An expected failure that passed (XPASS): xfail= ones fail the configuration, flaky= ones
	# are only reported.
	xpass_must=$(xpassed "$log" "$xfail") xpass_may=$(xpassed "$log" "$flaky")
	verdict_xpass "$name" "$xpass_must" "$xpass_may"
	for t in $xpass_must; do
		bad=$((bad + 1)) unexpected="$unexpected (xpass: $t)"
	done
	guests=$(grep -c 'SUITE DONE' "$log")
	if [ "$how" = hyp ] || [ "$how" = efi ]; then
		want=$(grep -c 'vm[0-9]: image slot' "$log")
		grep -q 'vperf-hyp: done' "$log" || { bad=$((bad + 1)) unexpected="$unexpected (no-finish)"; }
	else
		want=1
	fi
	[ "$guests" -ge "$want" ] || { bad=$((bad + 1)) unexpected="$unexpected (guest-unfinished)"; }
	# A Linux guest must have probed its PMU (drivers/perf/arm_pmu.c prints the counters it found,
	# PMCR_EL0.N + the cycle counter; the guest's /init checks the number against its n=).
	linux=$(grep -c 'Booting Linux on physical CPU' "$log")
	probed=$(grep -c '\] hw perfevents: enabled with armv8_pmuv3' "$log")
	info=""
	if [ "$linux" -gt 0 ]; then
		[ "$probed" -ge "$linux" ] || { bad=$((bad + 1)) unexpected="$unexpected (linux-no-pmu)"; }
		info="; Linux PMU: $(grep '\] hw perfevents: enabled with' "$log" |
			grep -o '[0-9]* counters available' | sed 's/ available//' | paste -sd, -)"
	fi
	[ "$rc" -eq 124 ] && unexpected="$unexpected (timeout)"
	# Caught means a test said FAIL: a hang or a missing finish alone proves nothing.
	# must-fail: caught by the tests that failed, not by an XPASS (which fails it still).
	if has_flag "$flags" must-fail; then
		[ -z "$xpass_must" ] || { verdict_fail "$name" "$pass" "$bad" "$unexpected"; return; }
		verdict_must_fail "$name" "$(echo "$unexpected" | sed 's/([^)]*)//g')" "$unexpected"
		return
	fi
	if [ "$bad" -eq 0 ] && grep -q 'RESULT host vm[0-9]-policy SKIP' "$log"; then
		echo "[  SKIPPED ] qemu:$name (vperf_vm_init: VPERF_ENOTSUP, configured out of this vperf)"
		return 0
	fi
	if [ "$bad" -eq 0 ] && [ "$pass" -gt 0 ]; then
		verdict_pass "$name" "$pass" "$pass tests passed, $skip skipped${xfailed:+, xfail:$xfailed}${flaked:+, flaky:$flaked}$info, $secs s"
		return 0
	fi
	verdict_fail "$name" "$pass" "$bad" "$unexpected"
}

run_config() {
	line=$1
	name=$(echo "$line" | cut -d'|' -f1 | trim)
	how=$(echo "$line" | cut -d'|' -f2 | trim)
	images=$(echo "$line" | cut -d'|' -f3 | trim)
	args=$(echo "$line" | cut -d'|' -f4 | trim)
	flags=$(echo "$line" | cut -d'|' -f5 | trim)
	tmo=$(flag_value "$flags" timeout)
	log=$logs/$name.log
	extra=""
	has_flag "$flags" icount && extra="-icount shift=0"
	shift_n=$(flag_value "$flags" icount)
	[ -n "$shift_n" ] && extra="-icount shift=$shift_n"
	smp=$(flag_value "$flags" smp)
	[ -n "$smp" ] && extra="$extra -smp $smp"
	# spe: the PE has FEAT_SPE (the project's QEMU, platform/qemu: -cpu max,spe=on)
	# cpu=OPTS: QEMU's -cpu OPTS as they stand (e.g. neoverse-n2); spe and pmu-counters add to it
	cpu=max
	[ -n "$(flag_value "$flags" cpu)" ] && cpu=$(flag_value "$flags" cpu)
	has_flag "$flags" spe && cpu=$cpu,spe=on
	# pmu-counters=N: PMCR_EL0.N = N (the project's QEMU, -cpu max,pmu-counters=N)
	pmu_counters=$(flag_value "$flags" pmu-counters)
	[ -n "$pmu_counters" ] && cpu="$cpu,pmu-counters=$pmu_counters"
	# pmu-clusters=K: CPU i in cluster i mod K, each lacking a common event the others have
	# (the project's QEMU, -cpu ...,pmu-clusters=K: big.LITTLE's differing PMCEID1_EL0)
	pmu_clusters=$(flag_value "$flags" pmu-clusters)
	[ -n "$pmu_clusters" ] && cpu="$cpu,pmu-clusters=$pmu_clusters"
	# QEMU_RESET_SEED=S: the seed of the garbage the project's QEMU resets the PMU's and SPE's
	# UNKNOWN registers to (-cpu ...,reset-seed=S; its default 0x5eed otherwise; 0: zeros)
	[ -n "${QEMU_RESET_SEED:-}" ] && cpu="$cpu,reset-seed=$QEMU_RESET_SEED"
	# vperf-mutant=NAME: the hypervisor linked with vperf plus tests/mutants/NAME.patch (a fixed
	# defect brought back; make qemu-images builds vperf-hyp-NAME.bin)
	hyp_image=vperf-hyp
	[ -n "$(flag_value "$flags" vperf-mutant)" ] && hyp_image=vperf-hyp-$(flag_value "$flags" vperf-mutant)
	# acpi (efi): QEMU's ACPI tables, no device tree: the application writes one from them
	efi_acpi=0 efi_el1=0 efi_disk=0
	has_flag "$flags" acpi && efi_acpi=1
	has_flag "$flags" el1 && efi_el1=1
	# disk (efi): boot from a FAT image on a virtio-blk disk (tests/qemu/efi/mkstick.sh), which
	# holds the application, its command line and the images: no -kernel, -append or loader
	has_flag "$flags" disk && efi_disk=1
	efi_img=$logs/$name.img
	command -v "$qemu" >/dev/null || { verdict_infra "$name" "$qemu not found"; return; }
	missing=$(images_missing "$images")
	[ "$how" != hyp ] || missing="$missing$(images_missing "$hyp_image")"
	if [ "$how" = efi ]; then
		[ -e "$out/vperf-hyp.efi" ] || missing="$missing vperf-hyp.efi"
		[ -e "$efi_fw" ] || missing="$missing $efi_fw (scripts/deps.sh efi)"
	fi
	[ -z "$missing" ] || { verdict_infra "$name" "image missing:$missing"; return; }
	t0=$(date +%s)
	: >"$log"
	# The disk's contents, its first line (mkstick.sh's).
	if [ "$efi_disk" = 1 ] && ! QEMU_OUT=$out "$here/efi/mkstick.sh" "$efi_img" "$name" >"$log" 2>&1; then
		verdict_infra "$name" "the disk image: $(tail -n 1 "$log")"
		return
	fi
	# shellcheck disable=SC2086
	qemu_cmd "$how" "$images" "$args" "${tmo:-60}" $extra >>"$log"
	rc=$?
	rm -f "$efi_img"
	[ -z "$(flag_value "$flags" efi-refused)" ] ||
		{ efi_refusal "$name" "$log" "$(flag_value "$flags" efi-refused)"; return; }
	# The UEFI application stopped (and returned to the firmware, which then waits for the
	# timeout): the boot path failed, whatever QEMU said when it was stopped.
	efi_msg=$(grep -m 1 '^vperf-efi: FAILED' "$log" | tr -d '\r')
	[ -z "$efi_msg" ] || { verdict_fail "$name" 0 1 " (the UEFI application stopped: ${efi_msg#vperf-efi: FAILED: })"; return; }
	why=$(infra_failure "$log" "$how" "$args" $rc)
	[ -z "$why" ] || { verdict_infra "$name" "$why"; return; }
	spe_decode "$name" "$log"
	spe_lost "$log"
	spe_iso "$log"
	# After the runner's other RESULT lines: the twin's log has them too.
	if [ "$how" = efi ]; then
		efi_dt_source "$log"
		efi_boot_source "$log" "$images"
		twin=$(flag_value "$flags" twin)
		[ -z "$twin" ] || efi_twin "$name" "$log" "$twin"
	fi
	judge "$name" "$log" "$flags" "$how" $rc $(($(date +%s) - t0))
}

case "${1:-check}" in
check) run_selected "${2:-}" ;;
one) run_named "$2" ;;
demo) . "$here/demo.sh" ;;
bench) . "$here/bench.sh" ;;
*) echo "usage: run.sh check|one NAME|demo|bench FILE" >&2; exit 2 ;;
esac
