#!/bin/sh
# vperf-spe [ITERS]: profile the workload with SPE through Linux's arm_spe_pmu driver and perf's
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
# or the AUX area was full) linux-tool-spe-aux tolerates (0 by default).
iters=${1:-10000000}
dev=/sys/bus/event_source/devices/arm_spe_0
test=linux-tool-spe

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
# shellcheck disable=SC2086 # $aux is two words or none
perf record -e arm_spe_0// $aux --no-bpf-event -N -B -o spe.data -- vperf-work "$iters" >spe-record.out 2>&1
rc=$?
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
