#!/bin/sh
# make bench: run vperf-bench (deterministic counts) and, under callgrind, its measured loops;
# print the tables and put them in DOC (a copy of docs/performance.md, or that file itself with
# make bench BENCH_UPDATE_DOCS=1) between this script's markers, leaving every other section alone.
# Usage: bench.sh BIN OUTDIR DOC SHOWN_BIN SHOWN_OUTDIR   (how the docs name BIN and OUTDIR)
set -eu

bin=$1
out=$2
doc=$3
shown=$4
shown_out=$5
here=$(cd "$(dirname "$0")" && pwd)
# The commit measured, "-dirty" when a file outside docs/ differs from it (this run's own write
# into docs/performance.md with BENCH_UPDATE_DOCS=1 does not count), so that a reader can tell
# whether the code changed after the figures were taken.
top="$here/../.."
commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo "outside git")
[ -n "$(git -C "$top" status --porcelain -- . ':(exclude)docs' 2>/dev/null)" ] && commit="$commit-dirty"
begin='<!-- vperf-bench:sim:begin (written by make bench: tools/bench/bench.sh) -->'
end='<!-- vperf-bench:sim:end -->'

mkdir -p "$out"
rm -f "$out"/cg.out*
cells=$out/cells.tsv
"$bin" >"$cells"

toggles="--toggle-collect=vperf_handle_sysreg --toggle-collect=vperf_vcpu_load"
toggles="$toggles --toggle-collect=vperf_vcpu_put --toggle-collect=naive_handle_sysreg"
toggles="$toggles --toggle-collect=naive_vcpu_load --toggle-collect=naive_vcpu_put"
toggles="$toggles --toggle-collect=vperf_handle_spe_irq --toggle-collect=vperf_handle_pmu_irq"
toggles="$toggles --toggle-collect=vperf_pcpu_flush --toggle-collect=vperf_vcpu_put_lazy"
cg="valgrind --tool=callgrind --collect-atstart=no $toggles"
cg="$cg --zero-before=bench_cg_measure --dump-after=bench_cg_measure"
cg="$cg --compress-strings=no --compress-pos=no"
# shellcheck disable=SC2086
if ! $cg --callgrind-out-file="$out/cg.out" "$bin" callgrind >"$out/manifest.tsv" \
	2>"$out/valgrind.log"; then
	cat "$out/valgrind.log" >&2
	exit 1
fi
tab=$(printf '\t')
while IFS=$tab read -r _ idx table row col _ calls; do
	value=$(awk -v calls="$calls" -f "$here/cg.awk" "$out/cg.out.$idx")
	printf '%s\t%s\t%s\t%s\n' "$table" "$row" "$col" "$value" >>"$cells"
done <"$out/manifest.tsv"

table() {
	awk -v t="$1" -v h="$2" -f "$here/pivot.awk" "$cells"
}

section() {
	cat <<EOF
$begin
## Simulated PE (sim build, callgrind)

Measured by \`make bench\` on $(date -u +%Y-%m-%d) at commit $commit: $(gcc --version | head -n 1), -O2 without
sanitizers (\`$(dirname "$(dirname "$(dirname "$shown")")")\`), $(valgrind --version). The commands it runs:

    $shown
    $cg --callgrind-out-file=$shown_out/cg.out $shown callgrind

PE: the model's default (PMUv3p5, PMCR_EL0.N = 6), the host keeps 2 counters (HPMN = 4). One VM
with N = 4 counters unless a row says otherwise; \`second/*\` (VPERF_PART_SECOND) on a PE of its own,
N = 10, its host at EL1 keeping [0, 5) and the cycle counter (\`host_first_range\`, \`host_el1\`). An active guest programs its PMU like Linux
perf: N event counters and the cycle counter, PMINTENSET, PMCNTENSET, PMCR_EL0.E. Every mode of
\`enum vperf_partition\` is tried with the SELF and HV policies; the tables show those
\`vperf_vm_init\` accepts.

### vPMU modes

$(table modes mode)

### Traps per guest PMU operation

Traps to EL2 for one operation, and in parentheses the System register accesses vperf made
handling them, in the steady state (vCPU loaded, its PMU programmed and counting, the operation
done once before). The always-trap emulation has no hardware to touch.

$(table traps operation)

### System register accesses per switch (vcpu_put + vcpu_load)

One put of the vCPU leaving a pCPU and one load of the vCPU entering one, in the steady state;
total (reads + writes), summed over the pCPUs involved. Every put is lazy
(\`vperf_vcpu_put_lazy\`, as the reference hypervisor's): a migrated vCPU has its old pCPU
flushed first (\`vperf_pcpu_flush\`, counted here and in the instructions below). "MDCR_EL2": the count includes MDCR_EL2
writes (a SELF VM pauses the host's counters while it runs: HPME off at load, on at put). The
naive full save moves every PMU register of a 31-counter PE at every switch.

$(table switch case)

### Instructions per trapped access (callgrind)

x86-64 instructions executed in \`vperf_handle_sysreg\` (in the baseline column: the always-trap
emulation's handler) per trapped access, mean of 200: vperf's own, and in parentheses
inclusive of the simulated PE behind the accessor seam and of the bench hypervisor's ops, which
on hardware are one MRS/MSR and a few instructions. "no trap": the access does not reach EL2.

$(table cg-access access)

### Instructions per switch (callgrind)

\`vperf_vcpu_put_lazy\` (every put is lazy) + \`vperf_vcpu_load\` (the naive switch's put and
load), N = 4, mean of 200, counted as above.

$(table cg-switch case)

### Instructions from PMUIRQ entry to the list register write (callgrind)

\`vperf_handle_pmu_irq\` for an overflow of the loaded vCPU's counter 0 with its interrupt
enabled, N = 4, mean of 200: PMOVSSET_EL0 read, the host's and the agent's flags looked for,
the flag moved to the guest's shadow and cleared in the hardware, the virtual line computed and
the \`set_irq_line\` op, where a hypervisor writes the list register (the op itself is the
hypervisor's: outside the first number). Counted as above.

$(table cg-pmu-irq event)

### Core profiles: System register accesses per switch

The same switches on the PMU of three core profiles (docs/cores.md; their SPE left out):
Cortex-A53 (PMUv3, Armv8.0, AArch32 at EL0), Neoverse V1 (PMUv3p4) and Neoverse N2 (PMUv3p5,
MT), in the trapped partition, the only one vperf gives on them.

$(table switch-cores case)

### Core profiles: instructions per trapped access (callgrind)

As "Instructions per trapped access" above, on the same three core profiles.

$(table cg-access-cores access)

### vSPE: System register accesses per switch

One VM with SPE and no vPMU (PMU OFF), two vCPUs switched on one pCPU (put + load, in an
exception to EL2), SPEv1p2: SPE register accesses, MDCR_EL2 included (the same policy for both
vCPUs: no MDCR_EL2 write), and barriers (PSB CSYNC, DSB NSH, ISB). Idle: the vCPUs never enabled
their buffer (lazy: nothing moves); active: both sample into a live buffer. Put: PSB CSYNC, DSB,
ISB, PMBSR, PMBPTR, PMSICR (and PMBLIMITR when untrapped), PMBLIMITR = 0, PMSCR_EL1 = 0, ISB,
DSB; load: PMSICR, PMBPTR, PMBSR, PMBLIMITR, PMSCR_EL1, the sampling controls and PMSCR_EL2 being
the pCPU's already (the same for both vCPUs: docs/vspe.md, "The controls in the hardware").

$(table spe-switch state)

### vSPE: records lost per 10^6 switches

The same two vCPUs, both sampling (one operation in 257), switched 10^6 times with 7 guest
operations in between; each guest stops, drains and decodes its buffer every 128 of its time
slices and re-arms it, as a perf session would. Records sampled (the model's count after
filtering) against records its guest decoded: the difference must be 0.

$(table spe-lost policy)

### vSPE: instructions per switch (callgrind)

\`vperf_vcpu_put\` + \`vperf_vcpu_load\` of the switch above, mean of 200, counted as above.

$(table cg-spe-switch state)

### vSPE: instructions from PMBIRQ entry to the list register write (callgrind)

\`vperf_handle_spe_irq\` for a buffer full event of a trapped-buffer guest, mean of 200: PSB
CSYNC, DSB, ISB, PMBSR_EL1 read, the event moved to the virtual PMBSR_EL1, the hardware
buffer disabled and PMBSR_EL1 cleared, and the \`set_irq_line\` op, where a hypervisor writes
the list register (the op itself is the hypervisor's: outside the first number).

$(table cg-spe-irq event)

### The contract

\`tests/unit/test_bench_counts.c\` asserts these counts exactly (same PE, host keeps 2 counters),
with the same measuring code (tools/bench/switch.c, ops.c). Trapped partition, per switch:

| case | HV | SELF |
| --- | --- | --- |
| idle vCPU (never touched the PMU) | 0 | 2 writes (MDCR_EL2) |
| active vCPU, back on the same pCPU | 1 read + 2 writes | HV + 2 MDCR_EL2 writes |
| active vCPU after another active vCPU | (N + 2) reads + (2N + 10) writes | HV + 2 MDCR_EL2 writes |
| active vCPU migrated to another pCPU | (N + 2) reads + (2N + 10) writes | HV + 2 MDCR_EL2 writes |

for N = 2 and 4 and a perf-like guest (interrupts enabled, PMUSERENR_EL0 = 0), and one trap per
guest PMU register access in every operation above. Lazy put of an active vCPU:
PMCR_EL0.E = 0, PMOVSSET_EL0 (once: the interrupt level is then computed from the shadow);
resume on the same pCPU: PMCR_EL0; the save when another vCPU takes the counters, or at the
flush before a migration: N counters, PMCCNTR_EL0; restore:
three CLR writes, N types, N counters, PMCCFILTR_EL0, PMCCNTR_EL0, PMCNTENSET_EL0,
PMINTENSET_EL1, PMUSERENR_EL0, PMCR_EL0. The trap fast path, HV: one read for PMEVCNTR1_EL0,
PMCCNTR_EL0 and PMOVSSET_EL0, one write for PMEVTYPER1_EL0, none for PMSWINC_EL0 (no SW_INCR
counter: nothing increments, the interrupt level cannot change).
$end
EOF
}

section >"$out/section.md"
cat "$out/section.md"
if [ -f "$doc" ] && grep -qF "$begin" "$doc"; then
	awk -v b="$begin" -v e="$end" -v f="$out/section.md" '
		$0 == b { while ((getline l < f) > 0) print l; skip = 1; next }
		$0 == e { skip = 0; next }
		!skip' "$doc" >"$doc.tmp"
	mv "$doc.tmp" "$doc"
elif [ -f "$doc" ]; then
	printf '\n' >>"$doc"
	cat "$out/section.md" >>"$doc"
else
	printf '# Performance\n\nMeasured results, each with the command that produced it.\n\n' >"$doc"
	cat "$out/section.md" >>"$doc"
fi
echo "bench: results in $doc"
