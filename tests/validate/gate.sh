#!/bin/sh
# What fails on the target must fail on the reference: the tests of OUT/results.tsv (validate.sh)
# that FAILed on TARGET and never on REF (bare QEMU: what the PE does), tests REF cannot run (two
# guests' isolation) and a guest's crash included. Prints each with its evidence; exits 1 when
# there is one. make check gates vperf's targets with it.
#   gate.sh OUT REF TARGET
set -u
out=$1 ref=$2 target=$3
awk -F'\t' -v ref="$ref" -v t="$target" '
	$1 == ref && $5 == "FAIL" { bad[$4] = 1 }
	$1 == t && $5 == "FAIL" { fail[++n] = $4 "\t" $2 "\t" $3 "\t" $6 }
	END {
		for (i = 1; i <= n; i++) {
			split(fail[i], f, "\t")
			if (f[1] in bad) continue
			printf "validate: %s FAILs on %s (%s %s: %s), not on %s\n", f[1], t, f[2], f[3], f[4], ref
			worse++
		}
		printf "validate: %s against %s: %d tests worse\n", t, ref, worse
		exit worse > 0
	}' "$out/results.tsv"
