# Self cost per function and per source line of one callgrind dump (bench.sh writes them with
# --compress-strings=no --compress-pos=no), functions of virt/ and lib/ only, divided by N (-v N=calls):
# the profile behind docs/performance.md, "Where the instructions go".
#   awk -v N=200 -f tools/bench/self.awk build/bench/results/cg.out.13 | sort -k1,1 -k2nr
/^fl=/ { fl = substr($0,4); fi = fl; next }
/^(fi|fe)=/ { fi = substr($0,4); next }
/^fn=/ { fn = substr($0,4); fi = fl; file[fn] = fl; next }
/^cfn=/ { next }
/^calls=/ { pending = 1; next }
/^[0-9+-]/ {
  if (pending) { pending = 0; next }
  if (fl !~ /\/(virt|lib)\//) next
  self[fn] += $2; f = fi; sub(/.*\//, "", f); line[f ":" $1] += $2; next }
END {
  for (k in self) { printf "fn   %6.1f %s\n", self[k]/N, k; tot += self[k] }
  printf "TOTAL %6.1f\n", tot/N
  for (k in line) if (line[k]/N >= 3) printf "line %6.1f %s\n", line[k]/N, k
}
