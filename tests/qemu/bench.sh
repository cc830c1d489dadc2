# Sourced by run.sh bench FILE (make bench): EL2 instruction counts of the reference hypervisor
# under QEMU -icount shift=0, where the host's INST_RETIRED counter filtered to EL2 (pmu_host.c,
# role 2) counts every EL2 instruction. Guests run XENPMU_MODE_HV so MDCR_EL2.HPME stays set and
# that counter keeps counting through their traps. Writes FILE's QEMU section.
file=${2:?run.sh bench FILE}
a_args="bench=1 host_counters=3 vm0.img=0 vm0.pmu=hv vm0.n=3 vm0.args=bench=1"
b_args="bench=1 host_counters=3 vm0.img=0 vm0.pmu=hv vm0.n=3 vm0.args=name=A,period=100000 \
vm1.img=0 vm1.pmu=hv vm1.n=3 vm1.args=name=B,work=mem,period=100000"
# The direct partition with an event filter (FEAT_FGT) beside a trapped VM sampling with the
# demo (1 ms slices): untrapped counter accesses, trapped type writes, the direct VM's switch.
c_args="bench=1 host_counters=3 vm0.img=0 vm0.pmu=hv vm0.part=direct vm0.n=3 vm0.deny=0x11 \
vm0.args=bench=direct vm1.img=1 vm1.pmu=hv vm1.n=3 vm1.args=name=B,work=mem,period=100000"
# The same direct VM without FEAT_FGT (-cpu neoverse-n2) and so without a filter (a direct VM
# with one is refused there): nothing of its PMU traps after a load, type writes included.
n_args=$(echo "$c_args" | sed 's/ vm0.deny=0x11//')
# The first run again with SPE in the PE and the VM (vm0.spe=trapped, -cpu max,spe=on): its put
# and load then include the vSPE's, for a buffer the guest never enabled; its regions 7 and 8 are
# trapped SPE accesses (MRS PMBPTR_EL1, MSR PMSCR_EL1).
s_args="bench=1 host_counters=3 vm0.img=0 vm0.pmu=hv vm0.n=3 vm0.spe=trapped vm0.args=bench=1,spe=1"
qemu_cmd hyp pmu-suite "$a_args" 120 -icount shift=0 >"$logs/bench-a.log"
qemu_cmd hyp demo "$b_args" 120 -icount shift=0 >"$logs/bench-b.log"
qemu_cmd hyp pmu-suite,demo "$c_args" 120 -icount shift=0 >"$logs/bench-c.log"
cpu=neoverse-n2
qemu_cmd hyp pmu-suite,demo "$n_args" 120 -icount shift=0 >"$logs/bench-c-nofgt.log"
cpu=max
# The conformance suite's SPE tests with the hypervisor measuring (bench=1): their buffer full
# events are PMBIRQs that vperf takes (the spe-buffer-full and spe-rearm tests).
i_args="bench=1 host_counters=3 vm0.img=0 vm0.pmu=hv vm0.n=3 vm0.spe=trapped vm0.args=n=3,spe=1"
# SPE active (guest/bench_spe.c, bench=spe): a trapped (vm0) and an untrapped (vm1) vSPE, both
# sampling into a live buffer; vperf's put and load of each back on its pCPU (mark 3) and
# alternating at 20 us slices, then for BENCH_SPE_MS of virtual time (the default some 2 minutes
# of this QEMU on a loaded 2-core machine) each guest checks that no record of its own was lost
# across the switches (RESULT spe-bench-records-lost, judged below).
spe_ms=${BENCH_SPE_MS:-12000}
l_args="bench=1 host_counters=3 slice_us=20 vm0.img=0 vm0.pmu=hv vm0.n=3 vm0.spe=trapped \
vm0.args=bench=spe,bench_ms=$spe_ms vm1.img=0 vm1.pmu=hv vm1.n=3 vm1.spe=untrapped \
vm1.args=bench=spe,bench_ms=$spe_ms"
# The conformance suite's lazy buffer (spe_lazy=1, vm0.s2=lazy): its buffer stage 2 faults, each
# recovered by vperf (the hypervisor's walk and stage2_map ops in it), trapped and untrapped.
z_args="bench=1 host_counters=3 vm0.img=0 vm0.pmu=hv vm0.n=3 vm0.spe=trapped vm0.s2=lazy \
vm0.args=n=3,spe=1,spe_lazy=1"
zu_args=$(echo "$z_args" | sed 's/spe=trapped/spe=untrapped/')
cpu=max,spe=on
qemu_cmd hyp pmu-suite "$s_args" 120 -icount shift=0 >"$logs/bench-spe.log"
qemu_cmd hyp pmu-suite "$i_args" 120 -icount shift=0 >"$logs/bench-pmbirq.log"
qemu_cmd hyp pmu-suite "$l_args" 900 -icount shift=0 >"$logs/bench-spe-live.log"
qemu_cmd hyp pmu-suite "$z_args" 120 -icount shift=0 >"$logs/bench-spe-lazy.log"
qemu_cmd hyp pmu-suite "$zu_args" 120 -icount shift=0 >"$logs/bench-spe-lazy-u.log"
cpu=max
for l in bench-a bench-b bench-c bench-c-nofgt bench-spe bench-pmbirq bench-spe-live bench-spe-lazy bench-spe-lazy-u; do
	grep -q 'vperf-hyp: done' "$logs/$l.log" || { echo "bench: $l did not finish (logs in $logs)" >&2; exit 1; }
done

region() { # the second (warm) measurement of region $1: "insns-per-op in-vperf" [log]
	grep "BENCH region $1:" "$logs/${2:-bench-a}.log" | tail -n 1 |
		sed 's/.*: \([0-9.]*\) EL2 insns per op, \([0-9]*\) in.*/\1 \2/'
}
avg() { sed -n "s/^BENCH $1 \([0-9.]*\) insns (n=\([0-9]*\)).*/\1 (n = \2)/p" "$2"; }
num() { sed -n "s/^BENCH $1 \([0-9.]*\) insns.*/\1/p" "$2"; }
# The measuring around vperf (two counter reads and the calls, trap.c trap_bench_calibrate),
# subtracted from every "in vperf" figure; the same pair surrounds each put and load.
probe=$(num probe "$logs/bench-a.log")
probe_b=$(num probe "$logs/bench-b.log")
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", a - b }'; }
hvc=$(region 6 | cut -d' ' -f1)
vperf_of() { set -- $(region "$1"); minus "$2" "$probe"; }
row() { # label region [log]
	set -- "$1" "$2" $(region "$2" "${3:-}")
	echo "| $1 | $3 | $(ratio "$3") | $(minus "$4" "$probe") | $(minus "$3" "$hvc") |"
}
same=$(minus "$(num vperf-put-same "$logs/bench-a.log")" "$probe")
same=$((same + $(minus "$(num vperf-load-same "$logs/bench-a.log")" "$probe")))
probe_s=$(num probe "$logs/bench-spe.log")
spe_same=$(minus "$(num vperf-put-same "$logs/bench-spe.log")" "$probe_s")
spe_same=$((spe_same + $(minus "$(num vperf-load-same "$logs/bench-spe.log")" "$probe_s")))
alt=$(minus "$(num vperf-put "$logs/bench-b.log")" "$probe_b")
alt=$((alt + $(minus "$(num vperf-load "$logs/bench-b.log")" "$probe_b")))
# Every other PMUIRQ measures vperf's share (main.c to the set_irq_line op), the others the
# whole path (pmu_host.c).
irq=$(num pmuirq-to-lr "$logs/bench-b.log")
irq_vperf=$(minus "$(num pmuirq-vperf "$logs/bench-b.log")" "$probe_b")
# The sim build's figures for the same paths (make bench passes its cells; trapped/HV, N = 4).
cells=${BENCH_SIM_CELLS:-}
sim() { # table row [column, default trapped/HV]
	if [ -n "$cells" ] && [ -f "$cells" ]; then
		awk -F '\t' -v t="$1" -v r="$2" -v c="${3:-trapped/HV}" '$1 == t && $2 == r && $3 == c {
			split($4, v, " "); print v[1] }' "$cells"
	else
		echo "(make bench)"
	fi
}
# vperf's part against an empty trap (the hypervisor's own round trip, region 6).
ratio() { awk -v a="$1" -v b="$hvc" 'BEGIN { printf "%.2f", a / b }'; }
target() { # name budget qemu sim
	met=no
	[ "$3" -le "$2" ] && met=yes
	echo "| $1 | <= $2 | $3 | $(ratio "$3") | $4 | $met |"
}
# The direct run's warm region $1: "ops EL2-insns traps loads"
dregion() { # region [log]
	grep "BENCH region $1:" "$logs/${2:-bench-c}.log" | tail -n 1 | tr -d '\r' |
		sed 's/.*(\([0-9]*\) ops); \([0-9]*\) EL2 insns, \([0-9]*\) traps, \([0-9]*\) loads/\1 \2 \3 \4/'
}
per_m() { awk -v a="$1" -v n="$2" 'BEGIN { printf "%.0f", a * 1000000 / n }'; }
drow() { # name label [log]
	set -- "$1" $(dregion "$2" "${3:-}")
	echo "| $1 | $2 | $4 | $(per_m "$4" "$2") | $3 | $(per_m "$3" "$2") | $5 |"
}
# The SPE-active run: per VM (vm0 trapped, vm1 untrapped), put + load less the measuring.
probe_l=$(num probe "$logs/bench-spe-live.log")
pair() { # put-name load-name: the sum of the two averages of the live run less two probes
	p=$(minus "$(num "$1" "$logs/bench-spe-live.log")" "$probe_l")
	echo $((p + $(minus "$(num "$2" "$logs/bench-spe-live.log")" "$probe_l")))
}
live_t=$(pair vperf-put-same-vm0 vperf-load-same-vm0)
live_u=$(pair vperf-put-same-vm1 vperf-load-same-vm1)
live_ta=$(pair vperf-put-vm0 vperf-load-vm0)
live_ua=$(pair vperf-put-vm1 vperf-load-vm1)
# A guest's RESULT line of the live run: "VERDICT text"
lost_line() { sed -n "s/^\[vm$1\] RESULT spe-bench-records-lost \(.*\)/\1/p" "$logs/bench-spe-live.log" | tr -d '\r'; }
lost_detail() { sed -n "s/^\[vm$1\] spe-bench: \(.*\)/\1/p" "$logs/bench-spe-live.log" | tr -d '\r'; }
lost_detects() { sed -n "s/^\[vm$1\] RESULT spe-bench-check-detects \([A-Z]*\) .*/\1/p" "$logs/bench-spe-live.log"; }
lost_fail=0
for vm in 0 1; do
	case "$(lost_line $vm) $(lost_detects $vm)" in
	PASS*PASS) ;;
	*) lost_fail=1 ;;
	esac
done
s2fix() { # log: "insns (n = N)" of one buffer stage 2 fault recovered, less the measuring
	echo "$(minus "$(num pmbirq-s2-vperf "$1")" "$(num probe "$1")") ($(avg pmbirq-s2-vperf "$1") with the measuring)"
}
s2line() { sed -n 's/^vperf-hyp: vm0 SPE: \(.*\)/\1/p' "$1" | tr -d '\r'; }

dsame=$(minus "$(num vperf-put-same "$logs/bench-c.log")" "$(num probe "$logs/bench-c.log")")
dsame=$((dsame + $(minus "$(num vperf-load-same "$logs/bench-c.log")" "$(num probe "$logs/bench-c.log")")))

# The commit measured, "-dirty" when a file outside docs/ differs from it (this run's own write
# into docs/performance.md with BENCH_UPDATE_DOCS=1 does not count), so that a reader can tell
# whether the code changed after the figures were taken.
bench_top="$(dirname "$0")/../.."
commit=$(git -C "$bench_top" rev-parse --short HEAD 2>/dev/null || echo "outside git")
[ -n "$(git -C "$bench_top" status --porcelain -- . ':(exclude)docs' 2>/dev/null)" ] && commit="$commit-dirty"
section=$(mktemp)
{
	echo "<!-- vperf-bench:qemu:begin (written by make bench: tests/qemu/bench.sh) -->"
	echo "## Reference hypervisor on QEMU (-icount shift=0)"
	echo
	echo "Measured by \`make bench\` on $(date +%Y-%m-%d) at commit $commit: $($qemu --version | head -n 1),"
	echo "$(${CROSS_COMPILE:-aarch64-linux-gnu-}gcc --version | head -n 1), -O2. EL2 instructions are"
	echo "counted by the host's own counter (INST_RETIRED filtered to EL2, second range) on"
	echo "\`-cpu max\`; QEMU retires one instruction per ns of virtual time at shift 0. The runs:"
	echo
	echo "    tests/qemu/run.sh bench   # = the commands below"
	echo "    qemu-system-aarch64 -nodefaults -M virt,virtualization=on,gic-version=3 -cpu max -m 2G -icount shift=0 -kernel vperf-hyp.bin -device loader,file=pmu-suite.bin,addr=0x90000000,force-raw=on -append '$a_args'"
	echo "    qemu-system-aarch64 -nodefaults -M virt,virtualization=on,gic-version=3 -cpu max -m 2G -icount shift=0 -kernel vperf-hyp.bin -device loader,file=demo.bin,addr=0x90000000,force-raw=on -append '$b_args'"
	echo "    qemu-system-aarch64 -nodefaults -M virt,virtualization=on,gic-version=3 -cpu max,spe=on -m 2G -icount shift=0 -kernel vperf-hyp.bin -device loader,file=pmu-suite.bin,addr=0x90000000,force-raw=on -append '$s_args'"
	echo "    qemu-system-aarch64 -nodefaults -M virt,virtualization=on,gic-version=3 -cpu max,spe=on -m 2G -icount shift=0 -kernel vperf-hyp.bin -device loader,file=pmu-suite.bin,addr=0x90000000,force-raw=on -append '$i_args'"
	echo "    qemu-system-aarch64 ... -cpu max,spe=on ... -device loader,file=pmu-suite.bin,addr=0x90000000,force-raw=on -append '$l_args'"
	echo "    qemu-system-aarch64 ... -cpu max,spe=on ... -device loader,file=pmu-suite.bin,addr=0x90000000,force-raw=on -append '$z_args'"
	echo "    qemu-system-aarch64 ... -cpu max,spe=on ... -device loader,file=pmu-suite.bin,addr=0x90000000,force-raw=on -append '$zu_args'"
	echo
	echo "### Targets: EL2 instructions inside vperf"
	echo
	echo "QEMU: EL2 instructions inside vperf, the measuring (${probe} instructions, below) taken"
	echo "out; x empty trap: that figure against an empty trap's whole round trip ($hvc EL2"
	echo "instructions, an HVC the hypervisor answers without vperf, below); sim: x86-64"
	echo "instructions of virt/ per operation from the callgrind tables above (trapped/HV, N = 4;"
	echo "vSPE: SPE only, trapped PMB*). Met: the QEMU figure is within the budget; \"-\": no"
	echo "budget is set for the path."
	echo
	echo "| path | budget | QEMU | x empty trap | sim (callgrind) | met |"
	echo "| --- | --- | --- | --- | --- | --- |"
	target "trapped MRS PMCCNTR_EL0" 100 "$(vperf_of 1)" "$(sim cg-access 'read PMCCNTR_EL0')"
	target "trapped MRS PMEVCNTR0_EL0 (sim: PMEVCNTR1)" 100 "$(vperf_of 3)" "$(sim cg-access 'read PMEVCNTR1_EL0')"
	target "trapped MRS PMOVSSET_EL0" 100 "$(vperf_of 5)" "$(sim cg-access 'read PMOVSSET_EL0')"
	target "trapped MSR PMEVTYPER0_EL0 (sim: PMEVTYPER1)" 130 "$(vperf_of 4)" "$(sim cg-access 'write PMEVTYPER1_EL0')"
	target "MSR PMSWINC_EL0" 150 "$(vperf_of 2)" "$(sim cg-access 'write PMSWINC_EL0')"
	target "put + load, active vCPU back on the same pCPU" 150 "$same" "$(sim cg-switch 'active vCPU, back on the same pCPU')"
	target "put + load, two active vCPUs alternating on one pCPU" 400 "$alt" "$(sim cg-switch 'active vCPU after another active vCPU')"
	target "physical PMUIRQ: vperf_handle_pmu_irq to its set_irq_line op (vperf's share)" 200 "$irq_vperf" "$(sim cg-pmu-irq 'counter 0 overflow, interrupt enabled')"
	echo "| physical PMUIRQ entry to the list-register write (whole hypervisor path, not vperf's) | - | ${irq%.*} | $(ratio "${irq%.*}") | - | - |"
	echo "| vSPE put + load back on the same pCPU, buffer live, trapped PMB* (the whole put + load; the vSPE's part: $((live_t - same))) | - | $live_t | $(ratio "$live_t") | $(sim cg-spe-switch 'active (buffer live)' 'trapped PMB* (E2PB 0b10)') (vSPE only) | - |"
	echo "| the same, untrapped PMB* (the vSPE's part: $((live_u - same))) | - | $live_u | $(ratio "$live_u") | $(sim cg-spe-switch 'active (buffer live)' 'untrapped PMB* (E2PB 0b11)') (vSPE only) | - |"
	echo "| put + load back on the same pCPU, the VM with a vSPE whose buffer was never enabled (the vSPE's part: $((spe_same - same))) | - | $spe_same | $(ratio "$spe_same") | $(sim cg-spe-switch 'idle (buffer never enabled)' 'trapped PMB* (E2PB 0b10)') (vSPE only) | - |"
	pmbirq=$(minus "$(num pmbirq-vperf "$logs/bench-pmbirq.log")" "$(num probe "$logs/bench-pmbirq.log")")
	echo "| physical PMBIRQ: vperf_handle_spe_irq, a guest's buffer event (QEMU: the whole call, the vGIC's list register write in it; $(avg pmbirq-vperf "$logs/bench-pmbirq.log")) | - | $pmbirq | $(ratio "$pmbirq") | $(sim cg-spe-irq 'buffer full event, trapped PMB*' vperf_handle_spe_irq) | - |"
	echo
	echo "### EL2 instructions per trapped guest access (trapped partition, XENPMU_MODE_HV, N = 3)"
	echo
	echo "From the guest's exception to its ERET, averaged over 2000 identical accesses between two"
	echo "hypercall marks, less the marks themselves (an empty region). \"vperf\": the part inside"
	echo "vperf_handle_sysreg(), less the measuring around it (a counter read and two calls: ${probe}"
	echo "instructions, measured by trap_bench_calibrate() with nothing in between). \"Above the"
	echo "floor\": the trap's total less the empty trap's (an HVC PSCI_VERSION, which the"
	echo "hypervisor answers without vperf: exception entry, register save, dispatch, vGIC sync and"
	echo "flush, register restore, ERET): $hvc instructions."
	echo
	echo "| guest access | EL2 instructions (bench build, measuring included) | x empty trap | of which vperf | above the empty trap |"
	echo "| --- | --- | --- | --- | --- |"
	row "MRS PMCCNTR_EL0" 1
	row "MSR PMSWINC_EL0" 2
	row "MRS PMEVCNTR0_EL0" 3
	row "MSR PMEVTYPER0_EL0" 4
	row "MRS PMOVSSET_EL0" 5
	probe_a=$probe probe=$probe_s # the SPE run's own measuring
	row "MRS PMBPTR_EL1 (a trapped vSPE, E2PB 0b10; the SPE run)" 7 bench-spe
	row "MSR PMSCR_EL1 (a trapped vSPE; the SPE run)" 8 bench-spe
	probe=$probe_a
	echo "| HVC PSCI_VERSION (the empty trap: no vperf) | $hvc | 1.00 | 0 | 0 |"
	echo
	echo "### vCPU switch and PMU interrupt"
	echo
	echo "Back on the same pCPU: the bench guest (counters enabled, PMCR_EL0.E) asks 100 times for"
	echo "a put and load of itself (mark 3). Alternating: two guests sampling with the cycle counter,"
	echo "1 ms slices (the second run). vperf figures less the measuring (${probe} per put or load)."
	echo "The whole switch includes the measuring's own bookkeeping: since the per-VM figures of the"
	echo "SPE-active run below (2026-11-27) that is 34 instructions more (the VM noted before each"
	echo "put and load, a second accumulator after the counter read); vperf's figures are unchanged."
	echo
	echo "| path | EL2 instructions |"
	echo "| --- | --- |"
	echo "| vperf_vcpu_put, active vCPU back on the same pCPU | $(avg vperf-put-same "$logs/bench-a.log") |"
	echo "| vperf_vcpu_load, active vCPU back on the same pCPU | $(avg vperf-load-same "$logs/bench-a.log") |"
	echo "| put + load back on the same pCPU, less the measuring | $same |"
	echo "| vCPU switch: timer interrupt dispatch to the end of the switch (EL1 state, FP/SIMD, timer, vGIC, vperf) | $(avg vcpu-switch "$logs/bench-b.log") |"
	echo "| of which vperf_vcpu_put | $(avg vperf-put "$logs/bench-b.log") |"
	echo "| of which vperf_vcpu_load | $(avg vperf-load "$logs/bench-b.log") |"
	echo "| put + load alternating, less the measuring | $alt |"
	echo "| physical PMUIRQ: hyp_trap() entry (after the 36-instruction register save) to the list-register write of INTID 23 | $(avg pmuirq-to-lr "$logs/bench-b.log") |"
	echo "| vperf's share: vperf_handle_pmu_irq() called to its set_irq_line op (the other PMUIRQs; the vGIC's part follows) | $(avg pmuirq-vperf "$logs/bench-b.log") |"
	echo "| vperf's share less the measuring | $irq_vperf |"
	echo "| the measuring (probe) | $(avg probe "$logs/bench-a.log") |"
	echo
	echo "### vSPE with SPE active: switch, records lost, buffer stage 2 fault"
	echo
	echo "The SPE-active run (\`$l_args\`): two pmu-suite guests (\`bench=spe\`,"
	echo "tests/qemu/guest/bench_spe.c), vm0 with a trapped vSPE (E2PB 0b10), vm1 untrapped (E2PB 0b11),"
	echo "each sampling EL1 into a live buffer (interval 4096, PMSIRR_EL1.RND 0) while the hypervisor"
	echo "switches them every 20 us. First each asks 100 times for a put and load of itself (mark 3),"
	echo "the buffer live; the 20 us slices give the alternating figures. vperf figures less the"
	echo "measuring (${probe_l} per put or load); the vSPE's part: less the same PMU-only put + load"
	echo "of the first run ($same)."
	echo
	echo "| path | trapped PMB* (vm0) | untrapped PMB* (vm1) |"
	echo "| --- | --- | --- |"
	echo "| vperf_vcpu_put, buffer live, back on the same pCPU | $(avg vperf-put-same-vm0 "$logs/bench-spe-live.log") | $(avg vperf-put-same-vm1 "$logs/bench-spe-live.log") |"
	echo "| vperf_vcpu_load, the same | $(avg vperf-load-same-vm0 "$logs/bench-spe-live.log") | $(avg vperf-load-same-vm1 "$logs/bench-spe-live.log") |"
	echo "| put + load back on the same pCPU, less the measuring | $live_t | $live_u |"
	echo "| of which the vSPE's (idle vSPE: $((spe_same - same)), the SPE run above) | $((live_t - same)) | $((live_u - same)) |"
	echo "| vperf_vcpu_put, alternating with the other VM's live buffer | $(avg vperf-put-vm0 "$logs/bench-spe-live.log") | $(avg vperf-put-vm1 "$logs/bench-spe-live.log") |"
	echo "| vperf_vcpu_load, alternating | $(avg vperf-load-vm0 "$logs/bench-spe-live.log") | $(avg vperf-load-vm1 "$logs/bench-spe-live.log") |"
	echo "| put + load alternating, less the measuring (PMU only, the second run: $alt) | $live_ta | $live_ua |"
	echo
	echo "Records lost across the switches. This QEMU has no SAMPLE_POP/SAMPLE_FEED/SAMPLE_FILTRATE"
	echo "PMU events to count the sampled operations, but its interval counter is exact: with RND 0"
	echo "every EL1 instruction is a member of the population and the sampled ones are 4097 apart"
	echo "(docs/qemu-spe.md, \"Interval counter\"). Each guest samples, for ${spe_ms} ms of virtual"
	echo "time, sessions of a loop of 950,000 known instructions (16 loads walking a 64 KiB window,"
	echo "3 others), IRQs masked; after each it stops, drains (PSB CSYNC, DSB) and decodes its"
	echo "buffer. A record's PC gives its place in the loop body and a load's data address the"
	echo "iteration, so consecutive records must be exactly 4097 instructions apart: a lost record"
	echo "is a gap of 8194 or more; and each session must hold 231 or 232 records of the loop. The"
	echo "check's own test drops the tenth record of the first session and must find one lost"
	echo "(spe-bench-check-detects); under \`mutant=no-put\` (vperf's put skipped) it reports tens of"
	echo "thousands lost. Before QEMU completed the operation in flight at the exception entry"
	echo "(docs/qemu-spe.md, \"Completion\") a benchmark lost 384 records over some 500,000 switches."
	echo "\`make bench\` fails when a record is lost."
	echo
	echo "| guest | verdict: records lost, sessions, switches (loads of the vCPU) | the check's detail |"
	echo "| --- | --- | --- |"
	echo "| vm0, trapped PMB* | $(lost_line 0) | $(lost_detail 0) |"
	echo "| vm1, untrapped PMB* | $(lost_line 1) | $(lost_detail 1) |"
	echo
	echo "A buffer stage 2 fault recovered (the conformance suite's lazy buffer, vm0.s2=lazy): the"
	echo "whole vperf_handle_spe_irq call, less the measuring, with the hypervisor's ops in it"
	echo "(guest_va_to_ipa's walk and stage2_map of the faulting page and the 64 pages after it,"
	echo "the prefault). A guest's own buffer event to its virtual PPI is the PMBIRQ row of the"
	echo "targets above."
	echo
	echo "| policy | EL2 instructions per recovery | the run (vperf's statistics) |"
	echo "| --- | --- | --- |"
	echo "| trapped PMB* | $(s2fix "$logs/bench-spe-lazy.log") | $(s2line "$logs/bench-spe-lazy.log") |"
	echo "| untrapped PMB* | $(s2fix "$logs/bench-spe-lazy-u.log") | $(s2line "$logs/bench-spe-lazy-u.log") |"
	echo
	echo "SPE System register accesses per switch cannot be counted on this QEMU: it would take a TCG"
	echo "plugin, and the build has none. The model counts them: \"vSPE: System register accesses per"
	echo "switch\" in the sim section above (a live switch: 10 accesses trapped, 11 untrapped, and one"
	echo "PSB CSYNC; test_switch_costs)."
	echo
	echo "### Direct partition with an event filter (FEAT_FGT) beside a trapped VM"
	echo
	echo "The third run: a direct-partition VM (XENPMU_MODE_HV, N = 3, CPU_CYCLES denied, so its"
	echo "PMEVTYPER accesses trap through HDFGWTR_EL2/HDFGRTR_EL2) time-sliced at 1 ms with a trapped"
	echo "VM that samples with the cycle counter. Each region: the guest's accesses between two marks"
	echo "(the warm second pass), the traps the hypervisor took from it (MSR/MRS, EC 0x18) and its EL2"
	echo "instructions less the marks; the loads are the slices that ended inside the region, whose"
	echo "switches make every EL2 instruction of the untrapped rows."
	echo
	echo "    qemu-system-aarch64 ... -device loader,file=pmu-suite.bin,addr=0x90000000,force-raw=on -device loader,file=demo.bin,addr=0x98000000,force-raw=on -append '$c_args'"
	echo
	echo "| guest access | accesses | traps | traps per 10^6 accesses | EL2 instructions | EL2 instructions per 10^6 accesses | loads |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	drow "MRS PMCCNTR_EL0" 11
	drow "MRS PMEVCNTR0_EL0" 12
	drow "MSR PMEVCNTR0_EL0" 13
	drow "MRS PMOVSSET_EL0" 14
	drow "MSR PMEVTYPER0_EL0 (FGT write trap)" 15
	echo
	echo "| direct VM's switch | EL2 instructions |"
	echo "| --- | --- |"
	echo "| vperf_vcpu_put, direct VM back on the same pCPU | $(avg vperf-put-same "$logs/bench-c.log") |"
	echo "| vperf_vcpu_load, direct VM back on the same pCPU | $(avg vperf-load-same "$logs/bench-c.log") |"
	echo "| put + load back on the same pCPU, less the measuring | $dsame |"
	echo "| put + load alternating with the trapped VM: vperf_vcpu_put (both VMs) | $(avg vperf-put "$logs/bench-c.log") |"
	echo "| the same: vperf_vcpu_load (both VMs) | $(avg vperf-load "$logs/bench-c.log") |"
	echo
	echo "The same direct VM without FEAT_FGT (\`-cpu neoverse-n2\`), so without its filter (vm0.deny"
	echo "dropped: vperf refuses a filtered direct VM there). Nothing traps after a load, type writes"
	echo "included: what the filter costs with FEAT_FGT is the PMEVTYPER0_EL0 row of the table above."
	echo
	echo "| guest access, no FEAT_FGT | accesses | traps | traps per 10^6 accesses | EL2 instructions | EL2 instructions per 10^6 accesses | loads |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	drow "MRS PMCCNTR_EL0" 11 bench-c-nofgt
	drow "MRS PMEVCNTR0_EL0" 12 bench-c-nofgt
	drow "MSR PMEVCNTR0_EL0" 13 bench-c-nofgt
	drow "MRS PMOVSSET_EL0" 14 bench-c-nofgt
	drow "MSR PMEVTYPER0_EL0 (untrapped)" 15 bench-c-nofgt
	echo
	echo "| direct VM's switch, no FEAT_FGT | EL2 instructions |"
	echo "| --- | --- |"
	echo "| vperf_vcpu_put, direct VM back on the same pCPU | $(avg vperf-put-same "$logs/bench-c-nofgt.log") |"
	echo "| vperf_vcpu_load, direct VM back on the same pCPU | $(avg vperf-load-same "$logs/bench-c-nofgt.log") |"
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
if [ "$lost_fail" -ne 0 ]; then
	echo "bench: FAIL: vSPE records lost across switches, or the check did not run (logs in $logs/bench-spe-live.log)" >&2
	exit 1
fi
