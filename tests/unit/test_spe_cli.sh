#!/bin/sh
# vperf-spe command-line test: an encoder-written buffer (spe-gen) decodes to the records it was
# built from in every mode; malformed input is reported with its offset and exit status 1; usage
# and I/O errors give 2 and 3.   usage: test_spe_cli.sh VPERF_SPE SPE_GEN SCRATCH_DIR
set -u
tool=$1 gen=$2 dir=$3
fails=0
rm -rf "$dir" && mkdir -p "$dir" || exit 1

fail() {
	echo "spe-cli: FAIL: $*"
	fails=$((fails + 1))
}

# expect_rc WANT CMD...: run CMD (stdout to $dir/out, stderr to $dir/err), check its status.
expect_rc() {
	want=$1
	shift
	"$@" >"$dir/out" 2>"$dir/err"
	got=$?
	[ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want"
}

expect_in() { # FILE PATTERN: a line of FILE matches the basic regular expression PATTERN
	grep -q -- "$2" "$1" || fail "$1 has no line matching '$2'"
}

# --help and usage errors
expect_rc 0 "$tool" --help
expect_in "$dir/out" '^usage: vperf-spe'
expect_in "$dir/out" 'exit status'
expect_rc 2 "$tool" --no-such-option
expect_rc 2 "$tool" a b
expect_rc 2 "$tool" --top 0
expect_rc 3 "$tool" "$dir/does-not-exist"
expect_in "$dir/err" 'does-not-exist: No such file'

# A buffer written by the encoder: 100 records (see tests/unit/test_spe_gen.c).
"$gen" "$dir/gen.bin" 100 || fail "spe-gen failed"
expect_rc 0 "$tool" --json "$dir/gen.bin"
[ "$(wc -l <"$dir/out")" -eq 100 ] || fail "json: $(wc -l <"$dir/out") lines, expected 100"
[ -s "$dir/err" ] && fail "json: unexpected stderr: $(cat "$dir/err")"
head -n 1 "$dir/out" >"$dir/first"
expect_in "$dir/first" '^{"offset":0,.*"pc":{"addr":"0x400000","el":0,"ns":1'
expect_in "$dir/first" '"type":"ldst-gp"'
expect_in "$dir/first" '"names":\["retired","l1d-access"\]'
expect_in "$dir/first" '"va":{"addr":"0x10000"'
expect_in "$dir/first" '"ts":0}$'
sed -n 3p "$dir/out" >"$dir/third"
expect_in "$dir/third" '"pc":{"addr":"0x400008".*"type":"branch","raw":"0x01","flags":\["cond"\]'
expect_in "$dir/third" '"br_tgt":{"addr":"0x500000"'
tail -n 1 "$dir/out" >"$dir/last"
expect_in "$dir/last" '"pc":{"addr":"0x40018c"'
expect_in "$dir/last" '"opaque":\[{"offset":[0-9]*,"kind":"COUNT","index":6,"size":2,"payload":"0x63"'

expect_rc 0 "$tool" "$dir/gen.bin"
expect_in "$dir/out" '^00000000  b0 00 00 40 00 00 00 00 80     ADDR pc 0x0000000000400000 el0'
expect_in "$dir/out" '^          -- record 99: '
expect_in "$dir/out" 'ALIGN 16'
expect_in "$dir/out" '^100 records, 0 malformed, '

expect_rc 0 "$tool" --summary --top 2 "$dir/gen.bin"
expect_in "$dir/out" 'records     100 (ended by Timestamp 50, by End 50)'
expect_in "$dir/out" '^  branch  *25  25.00%$'
expect_in "$dir/out" '^top 2 PCs (100 distinct)'
expect_in "$dir/out" '^top 2 data virtual addresses (4 distinct)'
expect_in "$dir/out" '^          13  13.00%  0x0000000000010000$'
expect_in "$dir/out" '^  retired  *100 100.00%$'
expect_in "$dir/out" '^  mispred  *25  25.00%$'
expect_in "$dir/out" '^  opaque      25 packets'

# stdin, and the same records from it
expect_rc 0 sh -c "'$tool' -j <'$dir/gen.bin'"
[ "$(wc -l <"$dir/out")" -eq 100 ] || fail "json from stdin: wrong line count"

# Malformed: a record, 0xc5 (no packet has this header, SPE 5.2.1) at offset 3,
# then a record after the End at 6.
printf '\111\000\001\305\356\356\001\111\001\001' >"$dir/bad.bin"
expect_rc 1 "$tool" --json "$dir/bad.bin"
expect_in "$dir/err" 'malformed at offset 0x3 (3): header byte encodes no packet; resuming at 0x7'
expect_in "$dir/out" '^{"error":"header byte encodes no packet","reason":1,"offset":3,"resync":7}$'
[ "$(grep -c '"op"' "$dir/out")" -eq 2 ] || fail "bad.bin: expected 2 records around the error"
expect_rc 1 "$tool" "$dir/bad.bin"
expect_in "$dir/out" '^00000003  c5 ee ee 01 49 01 01  *ERROR header byte encodes no packet'
expect_rc 1 "$tool" -s "$dir/bad.bin"
expect_in "$dir/out" 'malformed   1 spots, 4 bytes skipped'
expect_rc 1 "$tool" -q -s "$dir/bad.bin"
[ -s "$dir/err" ] && fail "--quiet still wrote to stderr"

# Truncated: the encoder's buffer cut inside a packet.
head -c 1000 "$dir/gen.bin" >"$dir/cut.bin"
expect_rc 1 "$tool" -j "$dir/cut.bin"
expect_in "$dir/err" 'buffer ends inside a'
expect_in "$dir/out" '"error":"buffer ends inside a'

# Empty input: nothing to decode, not an error.
: >"$dir/empty.bin"
expect_rc 0 "$tool" "$dir/empty.bin"
expect_in "$dir/out" '^0 records, 0 malformed, 0 bytes$'

[ "$fails" -eq 0 ] && echo "spe-cli: all checks passed"
[ "$fails" -eq 0 ]
