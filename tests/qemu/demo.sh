# Sourced by run.sh demo (make run): two guests time-sliced on one pCPU, each measuring its own
# workload with its vPMU, the host keeping two counters of its own (-icount shift=0 makes QEMU
# count INST_RETIRED and ties the cycle counter to it: one instruction per cycle); then two Linux
# guests profiling themselves with SPE through vperf's vSPE (below).
demo_args="vm0.img=0 vm0.pmu=self vm0.n=4 vm0.args=name=guest-A,work=alu,iters=3000000,period=1000000 \
vm1.img=0 vm1.pmu=hv vm1.n=3 vm1.args=name=guest-B,work=mem,iters=1000000,period=500000"
log=$logs/demo.log
echo "== vperf demo: reference EL2 hypervisor on qemu-system-aarch64 (-M virt,virtualization=on,gic-version=3 -cpu max -icount shift=0)"
echo "== two guests on one pCPU, 1 ms round-robin slices; guest A: XENPMU_MODE_SELF, 4 counters; guest B: XENPMU_MODE_HV, 3 counters"
echo "== the host keeps counters 4-5 (SW_INCR at EL2; CPU_CYCLES at EL1/EL0, which counts HV guests only)"
qemu_cmd hyp demo "$demo_args" 60 -icount shift=0 | tee "$log"
echo "== summary"
sed -n 's/^\[vm[0-9]\] DEMO //p' "$log"
echo "   (instructions exceed cycles by about 5 per sample: the sampling handler re-arms the cycle counter by read-modify-write, and the instructions between its read and its write, one cycle each under -icount shift=0, are not counted)"
grep -h 'RESULT' "$log" | sed 's/^\[vm[0-9]\] //'
fails=$(grep -c 'RESULT .* FAIL' "$log")
done_ok=$(grep -c 'vperf-hyp: done' "$log")
if [ "$fails" -eq 0 ] && [ "$done_ok" -eq 1 ]; then
	echo "== isolation check: PASS (each guest counted exactly its own work; the host's counters were untouched)"
else
	echo "== isolation check: FAIL ($fails failures; log $log)"
	exit 1
fi

# vSPE: two Linux guests (Debian's kernel and perf, tests/qemu/linux) on one pCPU of a PE with
# FEAT_SPE, each profiling its workload with perf record -e arm_spe_0// through vperf's vSPE
# (guest C's Profiling Buffer trapped, guest D's untrapped), then checking that every record is
# its own (spe-iso.sh; linux-spe-2vm in make check is the same with a PMU-only guest beside).
guest() { # I NAME BUFFER CNTVOFF PID_BASE WORKLOAD
	echo "vm$1.img=0 vm$1.initrd=1 vm$1.mem=256 vm$1.pmu=self vm$1.n=4 vm$1.spe=$3 vm$1.cntvoff=$4 \
vm$1.args=console=ttyAMA0,rdinit=/init,panic=-1,name=$2,n=4,spe=1,only=spe,spe_aux=256,iters=1000000,spe_iso=1,pid_base=$5,spe_work=$6"
}
spe_args="$(guest 0 guest-C trapped 0xffffff0000000000 1000 vperf-work) $(guest 1 guest-D untrapped 0xfffffe0000000000 2000 vperf-work-hi)"
log=$logs/demo-spe.log
echo
echo "== vSPE: two Linux guests (Debian's kernel, perf and arm_spe_pmu) on one pCPU, -cpu max,spe=on -icount shift=0"
echo "== guest C: Profiling Buffer trapped (MDCR_EL2.E2PB 0b10); guest D: untrapped (0b11); each runs"
echo "== perf record -e arm_spe_0// -- vperf-work 1000000 (D's copy linked at 0x10400000); about a minute"
cpu=max,spe=on
qemu_cmd hyp linux,linux-rootfs "$spe_args" 240 -icount shift=0 >"$log"
cpu=max
spe_lost "$log"
spe_iso "$log"
for vm in vm0 vm1; do
	echo "== guest $([ $vm = vm0 ] && echo C || echo D): perf report --stdio --itrace=i1i (each SPE record an instruction sample), top lines"
	tr -d '\r' <"$log" | sed -n "s/^\[$vm\] PERF \( *[0-9][0-9.]*% .*\)/   \1/p" | head -n 4
	tr -d '\r' <"$log" | sed -n "s/^\[$vm\] SPE-LAT \(.*\)/   SPE latency: \1/p"
	tr -d '\r' <"$log" | sed -n "s/^\[$vm\] RESULT \(linux-tool-spe\|linux-spe-iso\)/   \1/p"
done
tr -d '\r' <"$log" | sed -n 's/^vperf-hyp: \(vm[01] SPE: events [0-9]* (data lost [0-9]*)\).*bytes \([0-9]*\).*/   \1, \2 bytes of records/p; s/^RESULT host \(spe-iso-apart [A-Z]*\).*/   \1/p; s/^RESULT host \(vm[01]-spe-lost-justified .*\)/   \1/p'
fails=$(grep -c 'RESULT .* FAIL' "$log")
done_ok=$(grep -c 'vperf-hyp: done' "$log")
if [ "$fails" -eq 0 ] && [ "$done_ok" -eq 1 ] && [ "$(grep -c 'SUITE DONE' "$log")" -eq 2 ]; then
	echo "== vSPE check: PASS (each guest profiled its own workload; every record in its buffer is its own)"
else
	echo "== vSPE check: FAIL ($fails failures; log $log)"
	exit 1
fi
