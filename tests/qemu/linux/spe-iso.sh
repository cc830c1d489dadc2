#!/bin/sh
# vperf-spe-iso DATA RECORD_OUT VT0 VT1: the isolation checks of one guest's SPE records
# (docs/vspe.md, "Isolation on QEMU"), run by spe.sh (spe_iso=1) after
# perf record -e arm_spe_0/ts_enable=1,pa_enable=1,pct_enable=1/: the guest asked for every
# field a record may hold, its policy (vperf_vm_config: spe_pa, spe_pct off) grants neither
# physical addresses nor physical time. Every packet of every record, as perf script -D prints
# it (tools/perf/util/arm-spe-decoder), must be this guest's:
#   linux-spe-iso-pc       every PC in this kernel's text (_stext to _etext, KASLR places it
#                          anew at each boot), a loaded module, or the workload's text (its
#                          "text START-END" line), at EL0 or EL1
#   linux-spe-iso-context  every Context packet (CONTEXTIDR_EL1: the PID, Linux's
#                          CONFIG_PID_IN_CONTEXTIDR) is the workload's PID (perf's COMM exec
#                          event; spe.sh puts it above pid_base)
#   linux-spe-iso-pa       no physical address packet, data virtual addresses present
#   linux-spe-iso-time     every Timestamp within this guest's virtual count over the run
#                          [VT0, VT1]: virtual time (CNTVOFF_EL2 of the VM; vmI.cntvoff= puts it
#                          far from the physical count, which a physical timestamp would show)
# The line "SPE-ISO kernel LO-HI work LO-HI pid P time VT0-VT1" gives the host (run.sh,
# spe_iso) what to check against the other guests': disjoint ranges, another PID and another
# time window make these checks catch a record of another guest. Addresses are compared as 14-digit hexadecimal strings (SPE's 56 bits, as
# perf prints a PC packet), not as awk's floating-point numbers.
data=$1 out=$2 vt0=$3 vt1=$4
cd /tmp || exit 1
echo "PERF uptime $(cut -d' ' -f1 /proc/uptime) s: isolation checks"
perf script -D -i "$data" >iso-dump.txt 2>iso-dump.err || sed 's/^/PERF iso: /' iso-dump.err
echo "PERF uptime $(cut -d' ' -f1 /proc/uptime) s: perf script -D: $(wc -l <iso-dump.txt) lines"

# hex14 VALUE: bits [55:0] of a hexadecimal value (0x...) as 14 digits, by text: the shell's
# arithmetic is signed (dash stops at 2^63 - 1), and kernel addresses lie above.
hex14() {
	h=$(printf '%s' "${1#0x}" | tr 'A-F' 'a-f')
	while [ ${#h} -lt 14 ]; do h=0$h; done
	printf '%s\n' "$h" | cut -c$((${#h} - 13))-
}
# plus HEX N: the 16-digit sum of a hexadecimal value and a small decimal N, by 32-bit halves.
plus() {
	v=${1#0x}
	while [ ${#v} -lt 16 ]; do v=0$v; done
	lo=$((0x$(echo "$v" | cut -c9-16) + $2))
	printf '%08x%08x\n' $((0x$(echo "$v" | cut -c1-8) + (lo >> 32))) $((lo & 0xffffffff))
}

# one read of /proc/kallsyms (the kernel formats each of its symbols: costly under TCG)
grep -E ' (_stext|_etext)$' /proc/kallsyms >iso-kallsyms.txt
kern_lo=$(hex14 0x"$(awk '$3 == "_stext" { print $1 }' iso-kallsyms.txt)")
kern_hi=$(hex14 0x"$(awk '$3 == "_etext" { print $1 }' iso-kallsyms.txt)")
work=$(sed -n 's/.*: text \(0x[0-9a-f]*\)-\(0x[0-9a-f]*\)$/\1 \2/p' "$out" | head -n 1)
work_lo=$(hex14 "${work% *}") work_hi=$(hex14 "${work#* }")
# Each module's [base, base + size): /proc/modules "name size refs deps state base".
: >iso-ranges.txt
echo "$kern_lo $kern_hi" >>iso-ranges.txt
echo "$work_lo $work_hi" >>iso-ranges.txt
while read -r _ size _ _ _ base _; do
	echo "$(hex14 "$base") $(hex14 "$(plus "$base" "$size")")" >>iso-ranges.txt
done </proc/modules
echo "PERF uptime $(cut -d' ' -f1 /proc/uptime) s: ranges"
pid=$(sed -n 's/.*PERF_RECORD_COMM exec: [^:]*:\([0-9]*\)\/.*/\1/p' iso-dump.txt | head -n 1)
echo "SPE-ISO kernel $kern_lo-$kern_hi work $work_lo-$work_hi pid ${pid:-none} time $vt0-$vt1"

# One pass over perf's dump (busybox awk under TCG: each pass costs seconds). Packets:
# "PC 0x<addr> el<N> ns=<b>", "CONTEXT 0x<value> el1", "VA 0x<addr>" (data virtual address),
# "PA 0x<addr> ns=..." (data physical address), "TS <count>" (decimal), "LAT <n> TOT" (total
# latency). A PC outside every range is foreign; prints the counts on one line, "-" for an empty
# list, and the latency summary to iso-lat.txt (make run shows it).
awk -v ranges=iso-ranges.txt -v lo_t="$vt0" -v hi_t="$vt1" '
	# The total latency of each record (Counter packet, index 0: cycles from dispatch to completion,
	# Arm DDI 0487 D18.2.3): how many, min, median, mean, max, and how many in each power-of-two
	# range, written to FILE as one line.
	function latency_summary(file,   v, k, half, med, b, hi, line) {
		if (!nlat) { print "none" > file; return }
		half = (nlat + 1) / 2
		for (v = lmin; v <= lmax; v++) if ((k += lat[v]) >= half) { med = v; break }
		line = sprintf("%d records, total latency min %d median %d mean %.1f max %d cycles;", \
			nlat, lmin, med, lsum / nlat, lmax)
		for (b = 1; b <= lmax; b *= 2) {
			hi = 2 * b - 1; k = 0
			for (v = b; v <= hi && v <= lmax; v++) k += lat[v]
			if (k) line = line sprintf(" %s: %d", b == hi ? b : b "-" hi, k)
		}
		if (lat[0]) line = line sprintf(" 0: %d", lat[0])
		print line > file
	}
	BEGIN { while ((getline l < ranges) > 0) { split(l, r, " "); lo[++n] = "x" r[1]; hi[n] = "x" r[2] } }
	NF < 4 { next }
	$(NF - 3) == "PC" {
		a = substr($(NF - 2), 3); while (length(a) < 14) a = "0" a
		a = "x" a; el = $(NF - 1); pcs++; els[el]++
		ok = el == "el0" || el == "el1"
		if (ok) { ok = 0; for (j = 1; j <= n; j++) if (a >= lo[j] && a < hi[j]) ok = 1 }
		if (!ok && bad++ < 3) ex = ex "," substr(a, 2) "/" el
		next
	}
	$(NF - 2) == "CONTEXT" { ctx[$(NF - 1)]++; next }
	$(NF - 2) == "LAT" && $NF == "TOT" {
		v = $(NF - 1) + 0; lat[v]++; nlat++; lsum += v
		if (nlat == 1 || v < lmin) lmin = v; if (v > lmax) lmax = v
		next
	}
	$(NF - 1) == "VA" { va++; next }
	NF > 4 && $(NF - 4) == "PA" { pa++; next }
	$(NF - 1) == "TS" {
		ts++; t = $NF + 0
		if (t < lo_t + 0 || t > hi_t + 0) { if (!out++) first = $NF }
	}
	END {
		latency_summary("iso-lat.txt")
		for (c in ctx) { nctx += ctx[c]; vals = vals "," c "x" ctx[c] }
		if (ex == "") ex = ",-"; if (vals == "") vals = ",-"; if (first == "") first = "-"
		printf "%d %d %d %d %s ", pcs, bad, els["el0"], els["el1"], substr(ex, 2)
		printf "%d %s %d %d %d %d %s\n", nctx, substr(vals, 2), va, pa, ts, out, first
	}' iso-dump.txt >iso-counts.txt 2>iso-awk.err || sed 's/^/PERF iso: /' iso-awk.err
read -r pcs bad el0 el1 ex nctx vals va pa ts out_ts first <iso-counts.txt
[ "$ex" = - ] && ex=
[ "$vals" = - ] && vals=
[ "$first" = - ] && first=
echo "PERF uptime $(cut -d' ' -f1 /proc/uptime) s: counted"
echo "SPE-LAT $(cat iso-lat.txt 2>/dev/null || echo none)"

detail="$pcs records: $el0 at EL0, $el1 at EL1; outside this guest's kernel, modules and workload: $bad${ex:+ (e.g. $ex)}"
if [ "$pcs" -gt 0 ] && [ "$bad" -eq 0 ] && [ "$el0" -gt 0 ]; then
	echo "RESULT linux-spe-iso-pc PASS $detail"
else
	echo "RESULT linux-spe-iso-pc FAIL $detail"
fi

want=$(printf '0x%x' "${pid:-0}")
detail="$nctx Context packets for $pcs records, values (value x count): ${vals:-none}; the workload's PID ${pid:-unknown} ($want)"
if [ -n "$pid" ] && [ "$nctx" -eq "$pcs" ] && [ "$vals" = "${want}x$pcs" ]; then
	echo "RESULT linux-spe-iso-context PASS $detail"
else
	echo "RESULT linux-spe-iso-context FAIL $detail"
fi

detail="$va data virtual addresses, $pa physical ones (asked for: pa_enable=1)"
if [ "$va" -gt 0 ] && [ "$pa" -eq 0 ]; then
	echo "RESULT linux-spe-iso-pa PASS $detail; the policy grants none"
else
	echo "RESULT linux-spe-iso-pa FAIL $detail; want some virtual and no physical one"
fi

detail="$ts timestamps for $pcs records, $out_ts outside the virtual count's [$vt0, $vt1]${first:+ (first $first)}"
if [ "$ts" -gt 0 ] && [ "$ts" -eq "$pcs" ] && [ "$out_ts" -eq 0 ]; then
	echo "RESULT linux-spe-iso-time PASS $detail (asked for: pct_enable=1)"
else
	echo "RESULT linux-spe-iso-time FAIL $detail (asked for: pct_enable=1; want virtual time only)"
fi
echo "PERF uptime $(cut -d' ' -f1 /proc/uptime) s: isolation checks done"
