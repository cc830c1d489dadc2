#!/bin/sh
# vperf-spe-record [ITERS]: profile the workload with SPE through Linux's arm_spe_pmu driver and perf's
# SPE decoder, where the guest has SPE (/sys/bus/event_source/devices/arm_spe_0); report "SPE
# absent" otherwise, as SKIP, or as FAIL when the environment's spe=1 says the guest must have it
# (docs/qemu.md, "Linux's perf tool in the guest"). Prints RESULT lines like perf-init.sh.
#
# perf record -e arm_spe_0// collects SPE's records into the AUX buffer; perf report and perf
# script decode them. The workload's loops have no loads or stores, so perf's default synthesized
# events (memory, cache and TLB ones) stay empty: --itrace=i1i makes every record an
# "instructions" sample at the sampled PC, which perf attributes to the workload's symbols.
# Environment (the kernel command line): spe_aux=KiB the AUX area (perf record -m ,PAGES; perf's
# default for root is 4 MiB, which holds the whole run: no buffer-full PMBIRQ), spe_lost_max=N
# the "AUX data lost" records (perf's count of truncated AUX records: the driver saw PMBSR_EL1.DL,
# or the AUX area was full) linux-tool-spe-aux tolerates (0 by default), spe_work=PROGRAM the
# workload (vperf-work, or vperf-work-hi: the same linked elsewhere), spe_iso=1 the isolation
# checks of spe-iso.sh over the same recording (which then asks for everything a record may
# hold: arm_spe_0/ts_enable=1,pa_enable=1,pct_enable=1/), pid_base=N the workload's process IDs
# above N (CONTEXTIDR_EL1 holds them: CONFIG_PID_IN_CONTEXTIDR), spe_perf_test=1 perf's own SPE
# tests too (perf_tests below).
iters=${1:-10000000}
dev=/sys/bus/event_source/devices/arm_spe_0
test=linux-tool-spe

# perf_tests: perf's own Arm SPE tests (perf test; Debian's linux-perf ships them as the shell
# scripts tools/perf/tests/shell/test_arm_spe*.sh, which mkrootfs.sh keeps), those whose
# description says SPE, one RESULT each: perf-test-<its description> PASS (perf test's "Ok"),
# FAIL ("FAILED!") or SKIP ("Skip", with the test's own last words, e.g. no compiler); or one
# for each part the test reports (perf-test-spe-snapshot-testing, ...).
perf_tests() {
	perf test list 2>&1 | grep -i 'spe' >perf-test-list.txt
	sed 's/^/PERF test list: /' perf-test-list.txt
	[ -s perf-test-list.txt ] || echo "RESULT perf-test-spe FAIL perf test list names no SPE test"
	while IFS= read -r t; do
		num=${t%%:*} desc=${t#*: }
		name=perf-test-$(echo "$desc" | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z0-9' '-' | sed 's/^check-//; s/-$//')
		echo "PERF perf test $((num)): $desc"
		echo "PERF uptime $(cut -d' ' -f1 /proc/uptime) s: perf test $num"
		perf test -v "$((num))" 2>&1 | tee perf-test.out | sed 's/^/PERF test: /'
		# a script that reports its parts ("SPE snapshot testing: PASS"): one RESULT each
		if grep -Eq '^[A-Za-z].*: (PASS|FAIL|SKIPPED)$' perf-test.out; then
			grep -E '^[A-Za-z].*: (PASS|FAIL|SKIPPED)$' perf-test.out | while IFS= read -r l; do
				part=$(echo "${l%: *}" | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z0-9' '-' | sed 's/-$//')
				v=${l##*: }
				[ "$v" = SKIPPED ] && v=SKIP
				echo "RESULT perf-test-$part $v perf test $((num)): $l"
			done
		elif grep -q ': Ok$' perf-test.out; then
			echo "RESULT $name PASS perf test $((num)): Ok"
		elif grep -q ': Skip' perf-test.out; then
			echo "RESULT $name SKIP perf test $((num)): $(awk '/test child finished/ { print p } { p = $0 }' perf-test.out)"
		else
			echo "RESULT $name FAIL perf test $((num)): $(tail -n 1 perf-test.out)"
		fi
	done <perf-test-list.txt
}

if [ ! -d "$dev" ]; then
	loaded="arm_spe_pmu not loaded"
	[ -d /sys/module/arm_spe_pmu ] && loaded="arm_spe_pmu loaded: no SPE in the PE or its device tree"
	why="SPE absent: no $dev ($loaded)"
	if [ "${spe:-0}" = 1 ]; then
		echo "RESULT $test FAIL $why, but spe=1"
	else
		echo "RESULT $test SKIP $why"
	fi
	exit 0
fi

cd /tmp || exit 1
echo "PERF arm_spe_0: type $(cat $dev/type), caps: $(cd $dev/caps 2>/dev/null && grep . ./* | tr '\n' ' ')"
aux=
[ -n "${spe_aux:-}" ] && aux="-m ,$((spe_aux / 4))"
irqs() { grep arm_spe_pmu /proc/interrupts | awk '{ n = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i; else break; print n }'; }
irq0=$(irqs)
work=${spe_work:-vperf-work}
event=arm_spe_0//
if [ "${spe_iso:-0}" = 1 ]; then
	event=arm_spe_0/ts_enable=1,pa_enable=1,pct_enable=1/
	vt0=$("$work" cntvct)
	# the next process ID (perf's, then its workload's) above pid_base (Linux's ns_last_pid)
	[ -n "${pid_base:-}" ] && echo "$pid_base" >/proc/sys/kernel/ns_last_pid
fi
# shellcheck disable=SC2086 # $aux is two words or none
perf record -e "$event" $aux --no-bpf-event -N -B -o spe.data -- "$work" "$iters" >spe-record.out 2>&1
rc=$?
[ "${spe_iso:-0}" = 1 ] && vt1=$("$work" cntvct)
irq1=$(irqs)
sed 's/^/PERF /' spe-record.out
perf report -i spe.data --stdio --itrace=i1i >spe-report.txt 2>spe-report.err
rc2=$?
sed 's/^/PERF report: /' spe-report.err | grep -v '^PERF report: $'
perf report -i spe.data --stats 2>/dev/null | grep -i 'aux\|lost' | sed 's/^/PERF stats: /'
# perf's own tally (session.c): "AUX data lost N times out of M!"
lost=$(sed -n 's/.*AUX data lost \([0-9]*\) times out of \([0-9]*\).*/\1/p' spe-report.err | head -n 1)
auxn=$(perf report -i spe.data --stats 2>/dev/null | sed -n 's/^ *AUX events: *\([0-9]*\).*/\1/p' | head -n 1)
lost=${lost:-0} auxn=${auxn:-0}
aux_detail="AUX records $auxn, lost $lost, PMBIRQs taken $((${irq1:-0} - ${irq0:-0})) (AUX area ${spe_aux:-4096} KiB)"
if [ "$lost" -le "${spe_lost_max:-0}" ] && [ "$auxn" -gt 0 ]; then
	echo "RESULT linux-tool-spe-aux PASS $aux_detail (lost <= ${spe_lost_max:-0})"
else
	echo "RESULT linux-tool-spe-aux FAIL $aux_detail (want some, lost <= ${spe_lost_max:-0})"
fi
grep -v '^$' spe-report.txt | head -n 30 | sed 's/^/PERF /'
perf script -i spe.data --itrace=i1i -F ip,sym 2>/dev/null | head -n 10 | sed 's/^/PERF script: /'
records=$(perf script -i spe.data --itrace=i1i -F ip,sym 2>/dev/null | grep -c 'vperf_work_m')
detail="$records SPE records in the workload's loops"
if [ "$rc" -ne 0 ] || [ "$rc2" -ne 0 ]; then
	sed 's/^/PERF /' spe-report.err
	echo "RESULT $test FAIL perf record exit $rc, report exit $rc2: $detail"
elif grep -q '\[\.\] vperf_work_major$' spe-report.txt && [ "$records" -gt 0 ]; then
	echo "RESULT $test PASS $detail (vperf_work_major in perf report)"
else
	echo "RESULT $test FAIL $detail (vperf_work_major not in perf report)"
fi
# A script that stops early (a shell or awk syntax error) prints no check: that is a failure too.
if [ "${spe_iso:-0}" = 1 ]; then
	vperf-spe-iso spe.data spe-record.out "$vt0" "$vt1" ||
		echo "RESULT linux-spe-iso FAIL vperf-spe-iso stopped with status $?"
fi
[ "${spe_perf_test:-0}" = 1 ] && perf_tests
