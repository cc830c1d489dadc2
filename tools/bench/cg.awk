# One callgrind dump (written with --compress-strings=no --compress-pos=no) as a table cell:
# instructions per call (calls: -v calls=N) that are vperf's own, and in parentheses all of
# them. Not vperf's: what the calls into the simulated PE's accessor seam (vperf_arch_*, an MRS
# or MSR on hardware), its barriers and the bench hypervisor's ops (bench_op_*) cost inclusively.
function ext(f)
{
	return f ~ /^(vperf_arch_|sim_barrier$|bench_op_)/
}
/^summary:/ { total = $2 }
/^fn=/ { fn = substr($0, 4) }
/^cfn=/ { cfn = substr($0, 5) }
/^calls=/ { pending = 1; next }
pending {
	if (ext(cfn) && !ext(fn))
		other += $2
	pending = 0
}
END {
	if (total == "") {
		print "no summary in the dump" > "/dev/stderr"
		exit 1
	}
	if (calls == 0)
		print "no trap"
	else
		printf "%d (%d)\n", (total - other) / calls + 0.5, total / calls + 0.5
}
