#!/bin/sh
# make xen-check: vperf inside Xen on Arm (docs/integration/xen.md).
#   check.sh check [PART]   fetch Xen (fetch.sh), apply patches/, build vperf for Xen and Xen
#                           (and each mutant the configurations use), then boot every
#                           configuration of configs.txt (whose name contains PART) as a dom0less
#                           system under QEMU and judge it from the serial log; ends with
#                           "xen: N passed, N failed"
#   check.sh build          only fetch, patch and build
#   check.sh one NAME       one configuration, log on stdout
# Environment: XEN_OUT (build tree, images, logs), QEMU_OUT (the guest payloads, make
# qemu-images), QEMU_RESULTS (run-tests.sh results file to append to), XEN_CACHE (fetch.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
srctree=$(cd "$here/../.." && pwd)
out=${XEN_OUT:?XEN_OUT}
images=${QEMU_OUT:?QEMU_OUT}
results=${QEMU_RESULTS:-/dev/null}
# The project's QEMU (platform/qemu: Debian's QEMU 10 with its patch series), built once per
# machine into a cache; QEMU=/path/to/qemu-system-aarch64 runs another binary.
qemu=${QEMU:-$("$srctree/platform/qemu/build.sh")} || { echo "check.sh: building QEMU failed" >&2; exit 1; }
cross=${CROSS_COMPILE:-aarch64-linux-gnu-}
mkdir -p "$out" && out=$(cd "$out" && pwd) # Xen's make runs in another directory
images=$(cd "$images" 2>/dev/null && pwd || echo "$images")
logs=$out/logs
# Xen's arm64 code generation flags (xen/arch/arm/arch.mk, EMBEDDED_EXTRA_CFLAGS in Config.mk)
# that vperf's own arm64 flags lack: the library must not call libgcc's outline atomics, which
# Xen does not link.
xen_kcflags="-mcpu=generic -mno-outline-atomics -fno-pie"
machine=virt,virtualization=on,gic-version=3
suite=xen
mkdir -p "$logs"
. "$srctree/scripts/verdict.sh"

# A guest's console line: a domU's through Xen's vpl011 ("(XEN) DOMn: ..."), dom0's (hvc0)
# as it is.
G='\(DOM[0-9]*: \|^\)'
field() { echo "$1" | cut -d'|' -f"$2" | trim; }

# ---- source, library, hypervisor: build.sh ----------------------------------------------------
. "$here/build.sh"

# ---- one boot ----------------------------------------------------------------------------------

# Each domU's kernel at slot_base + 2k * slot, its initramfs (if any) at the next slot.
slot_base=0x50000000 slot=0x04000000
slot_addr() { printf '0x%x' $((slot_base + $1 * slot)); }

# spec_get SPEC KEY: the value of KEY=... in a domU spec.
spec_get() { for tok in $(echo "$1" | cut -d' ' -f2-); do case "$tok" in "$2"=*) echo "${tok#*=}" ;; esac; done; }

# modules T K IMAGE ARGS INITRD: the kernel's (and the initramfs's) module node of slot K, each
# line indented by the tabs T (booting.txt's "multiboot,module").
modules() {
	module "$1" kernel "$(slot_addr $((2 * ($2 - 1))))" "$3" "$4"
	[ -z "$5" ] || module "$1" ramdisk "$(slot_addr $((2 * ($2 - 1) + 1)))" "$images/$5.bin"
}

# module T KIND ADDR FILE [ARGS]: one module node; a kernel's carries its bootargs.
module() {
	printf "$1module@%x {\n" "$3"
	printf "$1\tcompatible = \"multiboot,%s\", \"multiboot,module\";\n" "$2"
	printf "$1\treg = <0x0 0x%x 0x0 0x%x>;\n" "$3" "$(stat -L -c %s "$4")"
	[ "$2" != kernel ] || printf "$1\tbootargs = \"%s\";\n" "$5"
	printf "$1};\n"
}

# domu_node K SPEC: the dom0less node of domU K (booting.txt's "xen,domain").
domu_node() {
	k=$1 spec=$2
	img=$images/$(echo "$spec" | cut -d' ' -f1).bin
	vpmu=$(spec_get "$spec" vpmu) n=$(spec_get "$spec" n) mem=$(spec_get "$spec" mem)
	initrd=$(spec_get "$spec" initrd) args=$(spec_get "$spec" args | tr ',' ' ')
	cpus=$(spec_get "$spec" cpus) part=$(spec_get "$spec" part)
	printf '\t\tdomU%s {\n\t\t\tcompatible = "xen,domain";\n' "$k"
	printf '\t\t\t#address-cells = <2>;\n\t\t\t#size-cells = <2>;\n'
	printf '\t\t\tmemory = <0x0 %s>;\n\t\t\tcpus = <%s>;\n\t\t\tvpl011;\n' $((${mem:-64} * 1024)) "${cpus:-1}"
	[ -n "$vpmu" ] && printf '\t\t\tvpmu;\n\t\t\tvpmu-mode = "%s";\n' "$vpmu"
	[ -n "$n" ] && printf '\t\t\tvpmu-counters = <%s>;\n' "$n"
	[ -n "$part" ] && printf '\t\t\tvpmu-partition = "%s";\n' "$part"
	[ "$(spec_get "$spec" spe)" = 1 ] && printf '\t\t\tvspe;\n'
	modules '\t\t\t' "$k" "$img" "$args" "$initrd"
	printf '\t\t};\n'
}

# dom0_node K SPEC: dom0's kernel and initramfs, modules directly under /chosen (booting.txt).
dom0_node() {
	k=$1 spec=$2
	img=$images/$(echo "$spec" | cut -d' ' -f1).bin
	initrd=$(spec_get "$spec" initrd) args=$(spec_get "$spec" args | tr ',' ' ')
	modules '\t\t' "$k" "$img" "$args" "$initrd"
}

is_dom0() { case " $1 " in *" dom0 "*) return 0 ;; esac; return 1; }

# The domUs Xen left out for their vpmu-partition (patch 13): a value it does not know, or the
# direct partition vperf refused.
part_refusals() { grep -c '(XEN) Domain domU[0-9]*: vpmu-partition "[^"]*" \(unknown\|refused\)' "$1"; }

# QEMU's own device tree for this machine, with Xen's command line and the domUs in /chosen.
# Prints the QEMU loader arguments of the domU images.
mkdtb() {
	name=$1 xenargs=$2 domus=$3 dtb=$4 smp=$5 cpu=$6
	"$qemu" -nodefaults -M "$machine,dumpdtb=$dtb.qemu" -cpu "$cpu" -m 2G -smp "$smp" -display none \
		>/dev/null 2>&1 || return 1
	{
		dtc -q -I dtb -O dts "$dtb.qemu"
		printf '/ {\n\tchosen {\n\t\t#address-cells = <2>;\n\t\t#size-cells = <2>;\n'
		# dom0 (a spec with "dom0"): its memory and its XENPMU mode (dom0-vpmu) on Xen's
		# command line
		d0=$(echo "$domus" | tr ';' '\n' | trim | while IFS= read -r spec; do
			is_dom0 "$spec" || continue
			v=$(spec_get "$spec" vpmu) spe=$(spec_get "$spec" spe)
			printf ' dom0_mem=%sM%s%s' "$(spec_get "$spec" mem)" "${v:+ dom0-vpmu=$v}" \
				"${spe:+ dom0-vspe=$spe}"
		done)
		printf '\t\txen,xen-bootargs = "console=dtuart sync_console %s%s";\n' "$xenargs" "$d0"
		k=1
		echo "$domus" | tr ';' '\n' | trim | while IFS= read -r spec; do
			[ -n "$spec" ] || continue
			if is_dom0 "$spec"; then dom0_node $k "$spec"; else domu_node $k "$spec"; fi
			k=$((k + 1))
		done
		printf '\t};\n};\n'
	} >"$dtb.dts" && dtc -q -I dts -O dtb -o "$dtb" "$dtb.dts"
}

# judge NAME LOG FLAGS RC SECS NDOM: the verdict, in qemu-check's form.
judge() {
	name=$1 log=$2 flags=$3 rc=$4 secs=$5 ndom=$6
	pass=$(grep -c "$G"'RESULT [^ ]* PASS' "$log")
	skip=$(grep -c "$G"'RESULT [^ ]* SKIP' "$log")
	xfail=$(xfail_tests "$flags") flaky=$(flaky_tests "$flags")
	fails="" xfailed="" flaked=""
	for t in $(grep "$G"'RESULT [^ ]* FAIL' "$log" | sed 's/.*RESULT \([^ ]*\) FAIL.*/\1/' | sort -u); do
		case " $xfail " in
		*" $t "*) xfailed="$xfailed $t" ;;
		*) case " $flaky " in *" $t "*) flaked="$flaked $t" ;; *) fails="$fails $t" ;; esac ;;
		esac
	done
	fails=${fails# }
	guests=$(grep -c "$G"'SUITE DONE' "$log")
	unexpected=$fails
	# An expected failure that passed in every domU that ran it (XPASS): an xfail= one fails the
	# configuration, must-fail ones too (not a catch: the list is wrong), a flaky= one is only
	# reported.
	xpass_must=$(xpassed "$log" "$xfail") xpass_may=$(xpassed "$log" "$flaky")
	verdict_xpass "$name" "$xpass_must" "$xpass_may"
	for t in $xpass_must; do
		unexpected="$unexpected (xpass: $t)"
	done
	# A Linux domU must have probed its PMU (the counters it found: PMCR_EL0.N + the cycle counter).
	linux=$(grep -c "$G"'.*Booting Linux on physical CPU' "$log")
	if [ "$linux" -gt 0 ]; then
		probed=$(grep -c "$G"'.*hw perfevents: enabled with armv8_pmuv3' "$log")
		[ "$probed" -ge "$linux" ] || unexpected="$unexpected (linux-no-pmu)"
		# A Linux domU with cpus=2 brought its second vCPU up with PSCI CPU_ON, which resets
		# the vCPU's PMU state (vperf_vcpu_reset) first.
		[ "$(grep -c "$G"'.*SMP: Total of 2 processors activated' "$log")" -ge "$linux_smp" ] ||
			unexpected="$unexpected (linux-cpu-on)"
	fi
	[ "$guests" -ge "$ndom" ] || unexpected="$unexpected (guest-unfinished: $guests of $ndom)"
	grep -q 'domain_crash\|Domain [0-9]* crashed\|Panic on CPU' "$log" &&
		unexpected="$unexpected (crash)"
	[ "$rc" = timeout ] && unexpected="$unexpected (timeout)"
	# spe-refused: each domU asking for SPE (spe=1) was refused with Xen's message (QEMU has no
	# SPE), and the domUs that run see none (the suite's spe-absent: every PMS*/PMB* access
	# refused).
	spe_broken=""
	case " $flags " in
	*" spe-refused "*)
		[ "$(grep -c '(XEN) Domain domU[0-9]*: vspe refused (-19: the CPUs have no SPE): not created' "$log")" -eq "$spe_refused" ] ||
			spe_broken=" (spe-not-refused: $spe_refused domU(s) asked for SPE)"
		[ "$(grep -c "$G"'RESULT spe-absent PASS' "$log")" -ge "$ndom" ] ||
			spe_broken="$spe_broken (spe-absent not passed by every running domU)"
		unexpected="$unexpected$spe_broken" ;;
	esac
	# spe: Xen's summary of each domU with SPE (vpmu_domain_shutdown(), at its power-off):
	# every page whose stage-2 map was deferred got mapped on the way back to the guest, none
	# refused, and with s2-fixed=MIN at least MIN of the buffer's stage-2 faults were fixed.
	if has_flag "$flags" spe; then
		s2=$(grep '(XEN) vperf: d[0-9]*: SPE stage-2 faults fixed' "$log" | tr -d '\r')
		[ "$(echo "$s2" | grep -c .)" -ge "$spe_doms" ] ||
			spe_broken="$spe_broken (spe-summary: $(echo "$s2" | grep -c .) of $spe_doms)"
		s2min=$(flag_value "$flags" s2-fixed)
		while IFS= read -r l; do
			[ -n "$l" ] || continue
			n=$(echo "$l" | sed -n 's/.*faults fixed \([0-9]*\):.*/\1/p')
			d=$(echo "$l" | sed -n 's/.*pages deferred \([0-9]*\) .*/\1/p')
			m=$(echo "$l" | sed -n 's/.*mapped on return \([0-9]*\),.*/\1/p')
			r=$(echo "$l" | sed -n 's/.*refused \([0-9]*\)$/\1/p')
			[ "$d" = "$m" ] && [ "$r" = 0 ] ||
				spe_broken="$spe_broken (spe-s2-deferred: $d deferred, $m mapped, $r refused)"
			[ -z "$s2min" ] || [ "$n" -ge "$s2min" ] ||
				spe_broken="$spe_broken (spe-s2-fixed: $n < $s2min)"
		done <<EOS
$s2
EOS
		unexpected="$unexpected$spe_broken"
	fi
	# Each domU Xen left out for its vpmu-partition (a value it does not know, or the direct
	# partition vperf refused) must be one the configuration expects (refused=N).
	part_broken=""
	[ "$part_refused" -eq "${refused:-0}" ] ||
		part_broken=" (partition-refused: $part_refused domU(s) not created, ${refused:-0} expected)"
	# host-check: Xen's own counter above HPMN (vperf-host-check) was incremented and found
	# exactly as Xen left it at every switch, on every pCPU (its last report, at the last
	# domU's power-off).
	if has_flag "$flags" host-check; then
		hc=$(grep '(XEN) vperf: host counter check: ' "$log" | tail -n 1 | tr -d '\r')
		hc_incs=$(echo "$hc" | sed -n 's/.*check: \([0-9]*\) increments.*/\1/p')
		hc_off=$(echo "$hc" | sed -n 's/.*, \([0-9]*\) checks off.*/\1/p')
		if [ -z "$hc" ]; then
			part_broken="$part_broken (host-counter: no report)"
		elif [ "${hc_off:-1}" != 0 ] || [ "${hc_incs:-0}" -eq 0 ]; then
			part_broken="$part_broken (host-counter: ${hc#*check: })"
		fi
	fi
	unexpected="$unexpected$part_broken"
	# The isolation verdict: the quiet guest's iso-* tests and the noisy one's iso-noisy-irqs.
	iso_pass=$(grep -c "$G"'RESULT iso-[^ ]* PASS' "$log")
	iso_fail=$(grep -c "$G"'RESULT iso-[^ ]* FAIL' "$log")
	[ -z "$xpass_must" ] || ! has_flag "$flags" must-fail ||
		{ verdict_fail "$name" "$pass" 1 "$unexpected"; return; }
	has_flag "$flags" must-fail &&
		{ verdict_must_fail "$name" "$fails$spe_broken$part_broken" "$unexpected"; return; }
	# must-bug: a broken integration Xen itself must stop, with a BUG_ON of the glue
	# (vperf_assert_masked(): a call into vperf with interrupts unmasked).
	if has_flag "$flags" must-bug; then
		bug=$(grep -o 'Xen BUG at [^ ]*vperf\.c:[0-9]*' "$log" | head -n 1)
		verdict_must_fail "$name" "$bug" " (no BUG in vperf.c)"
		return
	fi
	grep "$G"'\(RESULT \|SUITE DONE\)' "$log" | sed 's/^(XEN) /  /; s/^\(RESULT\|SUITE DONE\)/  dom0: \1/'
	grep '(XEN) vperf: d[0-9]*: \|(XEN) Domain domU[0-9]*: vpmu-partition' "$log" | sed 's/^(XEN) /  /'
	grep '(XEN) vperf: host counter check: ' "$log" | tail -n 1 | sed 's/^(XEN) /  /'
	if [ $((iso_pass + iso_fail)) -gt 0 ]; then
		# a summary line only (the verdict is the tests'): the isolation suite's quiet guest runs
		# four iso tests at least (the noisy one adds iso-noisy-irqs), the iso-* pairs one or two
		if [ "$iso_fail" -eq 0 ]; then
			echo "  isolation: PASS ($iso_pass iso tests: each domain counted only itself)"
		else
			echo "  isolation: FAIL ($iso_fail of $((iso_pass + iso_fail)) iso tests failed)"
		fi
	fi
	if [ -z "$(echo "$unexpected" | tr -d ' ')" ] && [ "$pass" -gt 0 ]; then
		verdict_pass "$name" "$pass" \
			"$pass tests passed, $skip skipped${xfailed:+, xfail:$xfailed}${flaked:+, flaky:$flaked}, $ndom domUs, $secs s"
		return 0
	fi
	verdict_fail "$name" "$pass" 1 "$unexpected"
}

run_config() {
	line=$1
	name=$(field "$line" 1) variant=$(field "$line" 2) xenargs=$(field "$line" 3)
	domus=$(field "$line" 4) flags=$(field "$line" 5)
	tmo=$(flag_value "$flags" timeout)
	log=$logs/$name.log dtb=$out/dtb/$name.dtb
	mkdir -p "$out/dtb"
	command -v "$qemu" >/dev/null || { verdict_infra "$name" "$qemu not found"; return; }
	[ -f "$out/xen-$variant" ] || { verdict_infra "$name" "no Xen build $out/xen-$variant"; return; }
	set --
	ndom=0
	tmp_specs=$(mktemp)
	echo "$domus" | tr ';' '\n' | trim | grep . >"$tmp_specs"
	while IFS= read -r spec; do
		img=$(echo "$spec" | cut -d' ' -f1) initrd=$(spec_get "$spec" initrd)
		for f in $img $initrd; do
			[ -e "$images/$f.bin" ] || { rm -f "$tmp_specs"; verdict_infra "$name" "image missing: $f.bin"; return; }
		done
		set -- "$@" -device "loader,file=$images/$img.bin,addr=$(slot_addr $((2 * ndom))),force-raw=on"
		[ -z "$initrd" ] ||
			set -- "$@" -device "loader,file=$images/$initrd.bin,addr=$(slot_addr $((2 * ndom + 1))),force-raw=on"
		ndom=$((ndom + 1))
	done <"$tmp_specs"
	rm -f "$tmp_specs"
	ndom0=$(echo "$domus" | tr ';' '\n' | trim | grep -c ' dom0\( \|$\)')
	linux_smp=$(echo "$domus" | tr ';' '\n' | trim | grep -c '^linux .*cpus=2')
	# spe-refused: the domUs asking for SPE are expected not to be created.
	spe_refused=0
	has_flag "$flags" spe-refused &&
		spe_refused=$(echo "$domus" | tr ';' '\n' | grep -c '[[:space:]]spe=1\([[:space:]]\|$\)')
	# Xen's summary of each domU with SPE, printed when it powers off.
	spe_doms=0
	# dom0 is not counted: Xen halts the machine when dom0 powers off, before any summary.
	has_flag "$flags" spe && spe_doms=$(echo "$domus" | tr ';' '\n' | grep -v ' dom0\( \|$\)' |
		grep -c '[[:space:]]spe=1\([[:space:]]\|$\)')
	smp=$(flag_value "$flags" smp)
	# spe: the PE has FEAT_SPE (the project's QEMU, docs/qemu-spe.md); QEMU's board then
	# describes PMBIRQ (PPI 5) in its device tree, where Xen finds it.
	cpu=max
	has_flag "$flags" spe && cpu=max,spe=on
	# pmu-clusters=K: CPU i in cluster i mod K, each lacking a common event the others count
	# (the project's QEMU: big.LITTLE's PMUs, docs/platform-qemu.md).
	clusters=$(flag_value "$flags" pmu-clusters)
	[ -z "$clusters" ] || cpu="$cpu,pmu-clusters=$clusters"
	mkdtb "$name" "$xenargs" "$domus" "$dtb" "${smp:-1}" "$cpu" ||
		{ verdict_infra "$name" "building $dtb failed"; return; }
	has_flag "$flags" icount && set -- "$@" -icount shift=0
	# Empty the log before QEMU starts: the loop below must not read a previous run's.
	: >"$log"
	t0=$(date +%s)
	timeout "${tmo:-120}" "$qemu" -nodefaults -M "$machine" -cpu "$cpu" -m 2G -smp "${smp:-1}" -display none \
		-serial stdio -no-reboot -dtb "$dtb" -kernel "$out/xen-$variant" "$@" </dev/null >"$log" 2>&1 &
	pid=$!
	# dom0less domains that power off stay dead: Xen keeps running. Stop when every domU said
	# SUITE DONE, a domain crashed, or Xen panicked.
	rc=ok
	while kill -0 $pid 2>/dev/null; do
		[ "$(grep -c "$G"'SUITE DONE' "$log")" -ge $((ndom - spe_refused - $(part_refusals "$log"))) ] &&
			[ "$(grep -c '(XEN) vperf: d[0-9]*: SPE: ' "$log")" -ge "$spe_doms" ] && break
		grep -q 'domain_crash\|Domain [0-9]* crashed\|Panic on CPU' "$log" && break
		sleep 0.5
	done
	if kill -0 $pid 2>/dev/null; then
		kill $pid 2>/dev/null
		wait $pid
	else
		wait $pid
		[ $? -eq 124 ] && rc=timeout
	fi
	secs=$(($(date +%s) - t0))
	qemu_msg=$(grep -m 1 "^$(basename "$qemu"): " "$log" | grep -v ': warning: \|terminating on signal')
	[ -z "$qemu_msg" ] || { verdict_infra "$name" "QEMU refused to start: $qemu_msg"; return; }
	grep -q '(XEN) Xen version' "$log" || { verdict_infra "$name" "no Xen banner"; return; }
	started=$(grep -c '(XEN) \*\*\* LOADING DOMU' "$log")
	part_refused=$(part_refusals "$log") refused=$(flag_value "$flags" refused)
	ndom=$((ndom - spe_refused - part_refused))
	[ "$started" -ge $((ndom - ndom0)) ] ||
		{ verdict_infra "$name" "domUs not created ($started of $((ndom - ndom0)))"; return; }
	judge "$name" "$log" "$flags" $rc $secs $ndom
}

check() {
	build_all "${1:-}" || { echo "0 1 xen:build" >>"$results"; echo "xen: 0 passed, 1 failed"; return 1; }
	run_selected "${1:-}"
}

case "${1:-check}" in
check) check "${2:-}" ;;
build) build_all ;;
one) [ -n "$(config_named "${2:-}")" ] || { echo "xen: no configuration '${2:-}'" >&2; exit 2; }
	build_all "$2" && run_named "$2" ;;
*) echo "usage: check.sh check [PART] | build | one NAME" >&2; exit 2 ;;
esac
