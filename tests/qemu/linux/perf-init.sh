#!/bin/sh
# /init of the perf guest (docs/qemu.md, "Linux's perf tool in the guest"): Linux's own perf
# tool, Debian's linux-perf, measures a workload with symbols (vperf-work, workload.c) through
# the (v)PMU, and the result is judged here, in the QEMU runner's conventions: one
# "RESULT <test> PASS|FAIL|SKIP <detail>" line per check, "SUITE DONE passed=P failed=F", then
# power off. Output of perf itself is echoed with a "PERF " prefix for the log.
# Parameters from the kernel command line (Linux hands unknown name=value arguments to init's
# environment): n= the event counters the PMU must have; icount=1 when QEMU runs -icount shift=0
# (instructions count, one per cycle); iters= the workload's size; spe=1 when the guest must
# have SPE (vperf-spe-record then fails where it is absent instead of skipping); only=spe runs the SPE
# checks alone (a configuration about SPE whose exits, e.g. a lazily mapped stage 2, would skew
# the PMU checks' wall-clock cycles).
PATH=/usr/bin:/bin
export PATH
/bin/busybox mkdir -p /proc /sys /tmp
/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s /bin # every applet as a link (it reads /proc/self/exe)
mount -t sysfs sysfs /sys
cd /tmp || exit 1
iters=${iters:-10000000}
passed=0 failed=0

# result TEST VERDICT DETAIL...
result() {
	t=$1 v=$2
	shift 2
	echo "RESULT $t $v $*"
	case $v in
	PASS) passed=$((passed + 1)) ;;
	FAIL) failed=$((failed + 1)) ;;
	esac
}

# stamp WHAT: the guest's uptime into the log (under -icount shift=0 a virtual clock: 1 ns per
# instruction, real time while idle).
stamp() { echo "PERF uptime $(cut -d' ' -f1 /proc/uptime) s: $*"; }

# show FILE: a command's output into the log.
show() { sed 's/^/PERF /' "$1"; }

# Linux's arm_pmu probe: C counters = PMCR_EL0.N event counters + the cycle counter. Without it
# (no PMU node in the device tree, as Xen's vpmu=1 gives a domain) every later check fails too,
# and says why ($nopmu).
nopmu=
check_probe() {
	c=$(dmesg | sed -n 's/.*hw perfevents: enabled with armv8_pmuv3.* \([0-9]*\) counters available.*/\1/p')
	if [ -z "$c" ]; then
		nopmu=" (Linux probed no PMU: no hardware events)"
		result linux-tool-probe FAIL "no armv8_pmuv3 probe line in the kernel log: Linux probed no PMU"
	elif [ -n "${n:-}" ] && [ "$c" -ne $((n + 1)) ]; then
		result linux-tool-probe FAIL "$c counters available, want n=$n + the cycle counter"
	else
		result linux-tool-probe PASS "$c counters available (n=${n:-?} + the cycle counter)"
	fi
}

# perf stat -e cycles,instructions over the workload. It retires at least its loops'
# instructions (6 * iters + 2, at EL0); exec, page faults and exit add kernel work, bounded here
# by 10 % + 3 M. Under -icount shift=0 a cycle is an instruction. Without -icount QEMU has no
# instructions event (perf: <not supported>): cycles must then merely be counted.
check_stat() {
	want=$((6 * iters + 2))
	stamp "perf stat"
	perf stat -x, -e cycles,instructions -o stat.csv -- vperf-work "$iters" >stat.out 2>&1
	rc=$?
	stamp "perf stat done"
	show stat.csv
	show stat.out
	cyc=$(awk -F, '$3 ~ /^cycles/ { print $1 }' stat.csv)
	ins=$(awk -F, '$3 ~ /^instructions/ { print $1 }' stat.csv)
	detail="cycles $cyc instructions $ins, the loops $want"
	if [ "$rc" -ne 0 ] || [ -z "$cyc" ] || [ "$cyc" = "<not counted>" ] || [ "$cyc" = "<not supported>" ]; then
		result linux-tool-stat FAIL "perf stat exit $rc: $detail$nopmu"
	elif [ "${icount:-0}" != 1 ]; then
		if [ "$cyc" -gt 0 ]; then
			result linux-tool-stat PASS "$detail (no -icount: cycles only)"
		else
			result linux-tool-stat FAIL "$detail"
		fi
	elif [ "$ins" -ge "$want" ] && [ "$ins" -le $((want + want / 10 + 3000000)) ] &&
		[ "$cyc" -ge $((ins - ins / 10)) ] && [ "$cyc" -le $((ins + ins / 10)) ]; then
		result linux-tool-stat PASS "$detail (-icount: instructions in [loops, +10 % + 3 M], cycles within 10 %)"
	else
		result linux-tool-stat FAIL "$detail (-icount: instructions in [loops, +10 % + 3 M], cycles within 10 %)"
	fi
}

# pct REPORT SYMBOL: the overhead perf report gives SYMBOL (0 if absent).
pct() {
	awk -v s="$2" '$NF == s && $(NF - 1) == "[.]" { sub("%", "", $1); print int($1); f = 1 }
		END { if (!f) print 0 }' "$1" | head -n 1
}

# perf record -e cycles, then perf report --stdio: the samples are of the cycles event and the
# workload's two loops hold most of them, major about twice minor (it runs twice as many
# instructions). Where the kernel has no cycles event (ENOENT: no PMU probed) perf record falls
# back to the software cpu-clock event without a word and its timer samples the same loops in
# the same proportions: the event perf report names is checked, or that would pass. Options that
# only save guest time (measured in guest seconds under -icount for one record: 1.26 with none,
# 0.72 with the first, 0.39 with all three): --no-bpf-event, or perf's side-band thread, polling
# with a 1 s timeout, holds it at its exit; -N -B, no build-id cache (a copy of /proc/kallsyms)
# and no build-ids (perf report finds the static workload by its path).
check_record() {
	perf record -e cycles --no-bpf-event -N -B -o perf.data -- vperf-work "$iters" >record.out 2>&1
	rc=$?
	show record.out
	stamp "perf record done"
	perf report -i perf.data --stdio >report.txt 2>report.err
	rc2=$?
	stamp "perf report done"
	grep -v '^$' report.txt | head -n 30 | sed 's/^/PERF /'
	samples=$(sed -n "s/^# Samples: \([0-9kKM]*\) .*/\1/p" report.txt | head -n 1)
	samples=${samples:-0}
	event=$(sed -n "s/^# Samples: .* of event '\([^']*\)'.*/\1/p" report.txt | head -n 1)
	major=$(pct report.txt vperf_work_major)
	minor=$(pct report.txt vperf_work_minor)
	detail="$samples samples${event:+ of $event}, vperf_work_major $major %, vperf_work_minor $minor %"
	if [ "$rc" -ne 0 ] || [ "$rc2" -ne 0 ]; then
		show report.err
		result linux-tool-record FAIL "perf record exit $rc, report exit $rc2: $detail$nopmu"
	elif [ -n "$event" ] && [ "$event" != cycles ]; then
		result linux-tool-record FAIL "$detail: not the cycles event (perf fell back to a software event)$nopmu"
	elif [ $((major + minor)) -ge 80 ] && [ "$minor" -ge 15 ] &&
		[ $((2 * major)) -ge $((3 * minor)) ] && [ "$major" -le $((3 * minor)) ]; then
		result linux-tool-record PASS "$detail (both present, together >= 80 %, major/minor in [1.5, 3])"
	else
		result linux-tool-record FAIL "$detail (want both, together >= 80 %, major/minor in [1.5, 3])"
	fi
}

# SPE's driver: loaded from the kernel's package when the flavour builds it as a module. The
# platform driver is registered either way; arm_spe_0 exists only where the PE has SPE and the
# device tree describes it.
load_spe_driver() {
	ko=/lib/modules/$(uname -r)/kernel/drivers/perf/arm_spe_pmu.ko
	if [ -f "$ko" ]; then
		insmod "$ko" 2>insmod.err || show insmod.err
	fi
	if [ -d /sys/bus/platform/drivers/arm_spe_pmu ]; then
		result linux-spe-driver PASS "arm_spe_pmu registered$([ -f "$ko" ] && echo " (module $ko)")"
	else
		result linux-spe-driver FAIL "arm_spe_pmu not registered (module: ${ko})"
	fi
}

echo "vperf-perf-init: $(cut -d' ' -f1 /proc/uptime) s after boot, $(perf version), iters $iters, icount ${icount:-0}"
load_spe_driver
if [ "${only:-}" != spe ]; then
	check_probe
	check_stat
	check_record
fi
vperf-spe-record "$iters" | tee spe.out
passed=$((passed + $(grep -c '^RESULT [^ ]* PASS' spe.out)))
failed=$((failed + $(grep -c '^RESULT [^ ]* FAIL' spe.out)))
echo "vperf-perf-init: done $(cut -d' ' -f1 /proc/uptime) s after boot"
echo "SUITE DONE passed=$passed failed=$failed"
sync
poweroff -f
