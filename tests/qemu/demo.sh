# Sourced by run.sh demo (make run): two guests time-sliced on one pCPU, each measuring its own
# workload with its vPMU, the host keeping two counters of its own. -icount shift=0 makes QEMU
# count INST_RETIRED (and ties the cycle counter to it: one instruction per cycle).
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
