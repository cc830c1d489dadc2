# Sourced by run.sh bench FILE (make bench): EL2 instruction counts of the reference hypervisor
# under QEMU -icount shift=0, where the host's INST_RETIRED counter filtered to EL2 (pmu_host.c,
# role 2) counts every EL2 instruction. Guests run XENPMU_MODE_HV so MDCR_EL2.HPME stays set and
# that counter keeps counting through their traps. Writes FILE's QEMU section.
file=${2:?run.sh bench FILE}
a_args="bench=1 host_counters=3 vm0.img=0 vm0.pmu=hv vm0.n=3 vm0.args=bench=1"
b_args="bench=1 host_counters=3 vm0.img=0 vm0.pmu=hv vm0.n=3 vm0.args=name=A,period=100000 \
vm1.img=0 vm1.pmu=hv vm1.n=3 vm1.args=name=B,work=mem,period=100000"
qemu_cmd hyp pmu-suite "$a_args" 120 -icount shift=0 >"$logs/bench-a.log"
qemu_cmd hyp demo "$b_args" 120 -icount shift=0 >"$logs/bench-b.log"
grep -q 'vperf-hyp: done' "$logs/bench-a.log" && grep -q 'vperf-hyp: done' "$logs/bench-b.log" ||
	{ echo "bench: a run did not finish (logs in $logs)" >&2; exit 1; }

region() { # the second (warm) measurement of region $1: "insns vperf"
	grep "BENCH region $1:" "$logs/bench-a.log" | tail -n 1 |
		sed 's/.*: \([0-9.]*\) EL2 insns per op, \([0-9]*\) in.*/\1 \2/'
}
avg() { sed -n "s/^BENCH $1 \([0-9.]*\) insns (n=\([0-9]*\)).*/\1 (n = \2)/p" "$logs/bench-b.log"; }
row() { set -- "$1" $(region "$2"); echo "| $1 | $2 | $3 |"; }

section=$(mktemp)
{
	echo "<!-- vperf-bench:qemu:begin (written by make bench: tests/qemu/bench.sh) -->"
	echo "## Reference hypervisor on QEMU (-icount shift=0)"
	echo
	echo "Measured by \`make bench\` on $(date +%Y-%m-%d): $($qemu --version | head -n 1),"
	echo "$(${CROSS_COMPILE:-aarch64-linux-gnu-}gcc --version | head -n 1), -O2. EL2 instructions are"
	echo "counted by the host's own counter (INST_RETIRED filtered to EL2, second range) on"
	echo "\`-cpu max\`; QEMU retires one instruction per ns of virtual time at shift 0. The runs:"
	echo
	echo "    tests/qemu/run.sh bench   # = the two commands below"
	echo "    qemu-system-aarch64 -nodefaults -M virt,virtualization=on,gic-version=3 -cpu max -m 2G -icount shift=0 -kernel vperf-hyp.bin -device loader,file=pmu-suite.bin,addr=0x90000000,force-raw=on -append '$a_args'"
	echo "    qemu-system-aarch64 -nodefaults -M virt,virtualization=on,gic-version=3 -cpu max -m 2G -icount shift=0 -kernel vperf-hyp.bin -device loader,file=demo.bin,addr=0x90000000,force-raw=on -append '$b_args'"
	echo
	echo "### EL2 instructions per trapped guest access (trapped partition, XENPMU_MODE_HV, N = 3)"
	echo
	echo "From the guest's exception to its ERET, averaged over 2000 identical accesses between two"
	echo "hypercall marks, less the marks themselves (an empty region). \"vperf\" is the part inside"
	echo "vperf_handle_sysreg() (each figure includes ~10 instructions of the counter read itself);"
	echo "the rest is the hypervisor: register save/restore (72), ESR dispatch, the vGIC sync/flush."
	echo
	echo "| guest access | EL2 instructions | of which vperf |"
	echo "| --- | --- | --- |"
	row "MRS PMCCNTR_EL0" 1
	row "MSR PMSWINC_EL0" 2
	row "MRS PMEVCNTR0_EL0" 3
	row "MSR PMEVTYPER0_EL0" 4
	row "MRS PMOVSSET_EL0" 5
	echo
	echo "### vCPU switch and PMU interrupt (two guests sampling with the cycle counter, 1 ms slices)"
	echo
	echo "| path | EL2 instructions |"
	echo "| --- | --- |"
	echo "| vCPU switch: timer interrupt dispatch to the end of the switch (EL1 state, FP/SIMD, timer, vGIC, vperf) | $(avg vcpu-switch) |"
	echo "| of which vperf_vcpu_put | $(avg vperf-put) |"
	echo "| of which vperf_vcpu_load | $(avg vperf-load) |"
	echo "| physical PMUIRQ: hyp_trap() entry (after the 36-instruction register save) to the list-register write of INTID 23 | $(avg pmuirq-to-lr) |"
	echo "<!-- vperf-bench:qemu:end -->"
} >"$section"
cat "$section"
if [ -f "$file" ] && grep -q 'vperf-bench:qemu:begin' "$file"; then
	awk -v sec="$section" '
		/vperf-bench:qemu:begin/ { while ((getline l < sec) > 0) print l; skip = 1; next }
		/vperf-bench:qemu:end/ { skip = 0; next }
		!skip { print }' "$file" >"$file.tmp" && mv "$file.tmp" "$file"
else
	{ [ -f "$file" ] && echo; cat "$section"; } >>"$file"
fi
rm -f "$section"
echo "bench: wrote the QEMU section of $file"
