#!/bin/sh
# A KVM guest with vperf as its PMU: the project's KVM host kernel (build.sh) booted under the
# project's QEMU in nVHE mode with kvm-arm.vperf=1, its initramfs make validate's kvm one
# (tests/validate/debian: Debian's qemu-system-aarch64 as the VMM, tests/validate/debian/kvm-init.sh
# as /init), running the conformance suite (pmu-suite.bin) as a KVM guest (-accel kvm -cpu host).
# Passes when the suite passes (but KVM_GUEST_XFAIL) with the N vperf gives (the host's N minus
# the two counters the host keeps) and the host says vperf answered the guest's PMU register
# accesses at EL2, and the host's own perf, used meanwhile (integrations/kvm/hostperf.c, built
# static here and added to the initramfs), counted right; with KVM_VPERF_RANGE=second, also that
# entries came back to the counters vperf's lazy put left (the host's count, patch 13), at a
# quarter of a busy vCPU's exits at least (lazy_round_trips), and that the host's PMU driver took
# only the first range and the cycle counter. vperf must
# have logged no error (patch 14: "vperf error: ", a misuse of its API by KVM or a fault).
#
# Usage: QEMU_OUT=DIR integrations/kvm/guest.sh   (DIR holds pmu-suite.bin: make kvm-guest)
#   KVM_VPERF_RANGE  the counters vperf gives the guests (kvm-arm.vperf_range): first (the
#                    default: the host keeps 2 above them) or second (the host keeps the first
#                    range and the cycle counter, HPMN = 3 of 6; the guests get [3, 6), N = 2, and
#                    a lazy put; the host's CPU is -cpu max,aarch32=off, which vperf needs for it)
#   KVM_GUEST_N      the guest's expected PMCR_EL0.N (default: 4, QEMU -cpu max's 6 minus 2; 2
#                    with KVM_VPERF_RANGE=second)
#   KVM_MIGRATE_MS   move the guests' vCPU threads between the host's CPUs 0 and 1 every so many
#                    ms (vperf.migrate, kvm-init.sh), so that vCPUs run where their lazy put did
#                    not leave them (default: 10 with KVM_VPERF_RANGE=second, none otherwise;
#                    empty: none)
#   KVM_GUEST_CPUS   the guest's vCPUs (default 2: the suite's second-CPU tests, among them
#                    cpu-on-pmu-reset, whose PSCI CPU_ON must reset the vCPU's PMU in vperf)
#   KVM_HOST_CPUS    the KVM host's CPUs (default: as many as the guest's vCPUs)
#   KVM_GUEST_XFAIL  suite tests allowed to fail (default sgi-cross-cpu: the SGI never reaches
#                    the spinning vCPU 1 in this nested KVM, with kvm-arm.vperf=0 as well)
#   KVM_GUEST_ARGS   more kernel command line (e.g. kvm-arm.vperf=0 to see KVM's own emulation)
#   KVM_HOSTPERF     how the host uses its perf while the guests run (hostperf.c): count (the
#                    default: two pinned events of a task switching in and out, on the counters
#                    the driver would take first), sample (a sampling event on every CPU: each
#                    overflow must reach the host's driver), or empty for none
#   QEMU             another qemu-system-aarch64 (default: the project's, platform/qemu)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${QEMU_OUT:?QEMU_OUT (the directory with pmu-suite.bin)}"
img=$("$here/build.sh")
qemu=${QEMU:-$("$root/platform/qemu/build.sh")}
work=$(dirname "$img")/guest
mkdir -p "$work" 2>/dev/null || work=$(mktemp -d)
cpio=$(QEMU=$qemu WORK=$work "$root/tests/validate/debian/run.sh" build kvm)
hostperf=${KVM_HOSTPERF-count}
range=${KVM_VPERF_RANGE:-first}
case "$range" in
first) host_cpu=max guest_n=4 migrate= ;;
second) host_cpu=max,aarch32=off guest_n=2 migrate=10 ;;
*) echo "kvm-guest: KVM_VPERF_RANGE=$range: first or second" >&2 && exit 2 ;;
esac
migrate_ms=${KVM_MIGRATE_MS-$migrate}
# The second range: the host's PMU driver sees PMCR_EL0.N = HPMN = 3 at EL1 (patch 12 sets HPMN
# before it probes), counters 0-2 and the cycle counter, nothing of the guests'.
host_pmu="hw perfevents: enabled with armv8_pmuv3 PMU driver, 4 (0,80000007) counters available"
if [ -n "$hostperf" ]; then
	# The host's program joins the initramfs as a second archive, as selftest.sh's test does.
	rm -rf "$work/extra" && mkdir -p "$work/extra/selftest"
	aarch64-linux-gnu-gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror \
		-o "$work/extra/selftest/hostperf" "$here/hostperf.c"
	"$root/tests/qemu/linux/mkcpio.sh" "$root/tests/validate/debian/kvm-init.sh" \
		"$work/extra.cpio" "$work/extra"
	cat "$cpio" "$work/extra.cpio" >"$work/initrd"
	cpio=$work/initrd
fi
log=$work/suite.log
echo "kvm-guest: booting $img (log: $log)" >&2
timeout 900 nice "$qemu" -nodefaults -M virt,virtualization=on,gic-version=3 -cpu "$host_cpu" -smp "${KVM_HOST_CPUS:-${KVM_GUEST_CPUS:-2}}" \
	-m 1G -display none -serial stdio -no-reboot -kernel "$img" -initrd "$cpio" \
	-append "console=ttyAMA0 panic=-1 kvm-arm.mode=nvhe kvm-arm.vperf=1 kvm-arm.vperf_range=$range ${migrate_ms:+vperf.migrate=$migrate_ms} ${KVM_GUEST_ARGS:-} ${hostperf:+vperf.hostperf=$hostperf} vperf.guest=n=${KVM_GUEST_N:-$guest_n},cpus=${KVM_GUEST_CPUS:-2}" \
	</dev/null >"$log" 2>&1 || true
grep -E "RESULT .* FAIL|SUITE DONE|vperf|hostperf|left to KVM|lazy put|vperf error" "$log" || true
xfail=" ${KVM_GUEST_XFAIL-sgi-cross-cpu} "
# lazy_round_trips LOG: some vCPU with 1000 exits or more came back to the counters vperf's lazy
# put left at a quarter of them at least (the suite's vCPU 0: about 55%; with the lazy put
# replaced by the eager one on the exits that are not an IRQ: 0.1%).
lazy_round_trips() {
	tr -d '\r' <"$1" | sed -n 's/.*vcpu [0-9]*: \([0-9]*\) of \([0-9]*\) exits came back to a lazy put$/\1 \2/p' |
		awk '$2 >= 1000 && 4 * $1 >= $2 { ok = 1 } END { exit !ok }'
}
unexpected=
# shellcheck disable=SC2013 # test names are single words
for t in $(sed -n 's/.*RESULT \([^ ]*\) FAIL.*/\1/p' "$log"); do
	case "$xfail" in *" $t "*) echo "kvm-guest: $t failed (expected)" ;; *) unexpected="$unexpected $t" ;; esac
done
if grep -q "SUITE DONE passed=[1-9][0-9]* failed=" "$log" && [ -z "$unexpected" ] &&
	grep -q "vperf answered [1-9][0-9]* PMU register accesses at EL2" "$log" &&
	{ [ -z "$hostperf" ] || grep -q "kvm-init: hostperf $hostperf rc=0" "$log"; } &&
	{ [ "$range" = first ] || { lazy_round_trips "$log" && grep -q "$host_pmu" "$log"; }; } &&
	! grep -q "vperf error: " "$log"; then
	echo "PASS kvm-guest vperf${KVM_VPERF_RANGE:+ range=$range}"
else
	echo "FAIL kvm-guest vperf${KVM_VPERF_RANGE:+ range=$range} (log: $log)"
	exit 1
fi
