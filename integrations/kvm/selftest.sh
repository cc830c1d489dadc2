#!/bin/sh
# KVM's own selftests as judges of the vperf backend: those of tools/testing/selftests/kvm (the
# same kernel source, fetch.sh) that touch what vperf answers or changes in KVM, cross-built
# static once per machine into the cache, run inside the project's KVM host (build.sh's Image
# under the project's QEMU, nVHE) from make validate's kvm initramfs with the tests added
# (tests/validate/debian/kvm-init.sh runs each vperf.selftest=NAME as /selftest/NAME, in turn).
# The host boots with kvm-arm.vperf=1 (vperf answers its guests' PMU at EL2) and again with
# kvm-arm.vperf=0 (KVM's own emulation: the control), once per CPU model the tests need (cpus()):
#   vpmu_counter_access  (on every model) the VMM's PMCR_EL0.N through ONE_REG from 0 to the most
#                        KVM offers (with vperf: the counters the host does not keep); in the
#                        guest the counters below N work, those above are refused; N above the
#                        limit is refused by KVM. With vperf=1 vperf must also have answered.
#   set_id_regs          the VMM's writes of the ID registers' writable fields (ID_AA64DFR0_EL1
#                        PMUVer, DebugVer..., ID_DFR0_EL1 PerfMon, CopDbg...), what the guest then
#                        reads (patch 8 writes PMUVer/PMSVer at a vCPU's first run: no SPE shown
#                        where vperf gives none), and a vCPU reset (patch 7) keeping them; an
#                        expected failure here (XFAIL below)
#   set_id_regs_noasid   the same test less its one field this kernel keeps read-only
#                        (ID_AA64MMFR0_EL1.ASIDBITS): made at build time, that line dropped
#   get-reg-list         KVM_GET_REG_LIST with and without the PMUv3 feature: the ONE_REG list of
#                        PMU registers a VMM migrates
#   aarch32_id_regs      (a64fx: AArch64 only at EL0, which the test needs and QEMU's max is not)
#                        the AArch32 ID registers, ID_DFR0_EL1 among them, RAZ and WI
#   debug-exceptions     breakpoints, watchpoints, single step (the guest's and the VMM's) and the
#                        OS Lock in the guest: MDCR_EL2's debug traps (TDA, TDOSA, TDE), which
#                        patch 6 hands to vperf for each vCPU
#   debug-exceptions_stepped  the same, failing also when the VMM's single step never stopped the
#                        guest (derive() below): TDE while the VMM debugs
#   psci_test            PSCI CPU_ON and SYSTEM_SUSPEND: a vCPU reset while its VM runs (patch 7)
#   vcpu_width_config    KVM_ARM_VCPU_INIT again and with other features: vCPU reset (patch 7)
#   vperf_pmu_filter     ours (selftests/): KVM_ARM_VCPU_PMU_V3_FILTER as the guest sees it, denied
#                        and allowed CPU_CYCLES (patch 19 gives vperf the filter)
#   vperf_pmu_migrate    ours: a counting vCPU's registers (KVM_GET_REG_LIST) saved and written into
#                        two new VMs, in the list's order and the reverse: the counters go on from
#                        the saved values; with vperf=1 through vperf's blob (patch 20), and a
#                        corrupted blob fails KVM_RUN with EINVAL, the vCPU unchanged (required())
#   vperf_pmu_view       ours: the PMU registers' ONE_REG ids read what the guest reads and write
#                        what it then reads (with vperf=1 vperf's state, patch 29), and the ID
#                        registers' PMU fields one PMU: PerfMon follows the PMUVer the VMM lowered,
#                        no PMICNTR (patch 28); with kvm-arm.vperf_spe=1 in KVM_SELFTEST_ARGS also
#                        a VM vperf refuses (its PMU on the SPE PPI): KVM_RUN fails (patch 27);
#                        with kvm-arm.mode=nested no VM with EL2 may be made (this kernel
#                        exposes none; vperf does not emulate a guest hypervisor's MDCR_EL2)
#   vperf_pmu_flush      ours: the vCPU thread pinned to CPU 0, then CPU 1 (nothing run on CPU 0
#                        between), with another VM's vCPU run on the old CPU or the new one between
#                        moves: the guest finds its PMU exactly as it left it at every entry (the
#                        flush of the CPU a lazy put parked its counters on: patches 12 and 26);
#                        then CPU 1 taken offline with the vCPU parked there, the vCPU run on
#                        CPU 0 (KVM's flush at CPU down, patch 34), CPU 1 back online
#   vperf_pmu_policy     ours: KVM_ARM_VCPU_PMU_V3_VPERF (patch 42), a VM's policy from its VMM: the
#                        default is the kernel's parameters, bad policies, late writes and what
#                        the host keeps from VMMs refused, a direct VM with SPE (as far as
#                        kvm-arm.vperf_vmm allows them) and a trapped one without, run in turn,
#                        each given its own (vperf's count of answered accesses from /dev/kmsg,
#                        PMSVer); with kvm-arm.vperf_vmm=direct,spe,mode in KVM_SELFTEST_ARGS
#                        the direct partition and SPE are required
#   vperf_host_long      ours: two pinned 64-bit CPU_CYCLES events of the host's perf on CPU 1
#                        while a guest spins there 10 s; CPU 1's PMU interrupts must not move
#                        (the host's counters above HPMN overflow at bit 63 by MDCR_EL2.HLP,
#                        patch 40). Judged only where an event passed 2^32 on the PMU all
#                        along, which VHE requires with vperf=1 (vperf loaded throughout)
# With kvm-arm.vperf=1 a test fails too when vperf reported a vCPU loaded elsewhere than where a
# lazy put left it with no flush between (its misuse line, printed at the vCPU's destroy).
# Prints one line per test, CPU and mode, "PASS|FAIL|XFAIL kvm-selftest NAME [cpu=CPU] vperf=M"
# (and the test's own result lines before it), then "kvm-selftest: P passed, F failed, X expected
# failures"; fails when one failed. An expected failure is a known failure outside vperf, named
# by its exact assertion (xfail() below): any other failure of that test is a FAIL.
#
# Usage: QEMU_OUT=DIR integrations/kvm/selftest.sh   (make kvm-selftest; DIR as for guest.sh:
#        the initramfs is make validate's kvm one, which carries the suite)
#   KVM_SELFTESTS       the tests (default: all of the above)
#   KVM_SELFTEST_MODES  the values of kvm-arm.vperf to boot with (default: "1 0")
#   KVM_SELFTEST_HOST_CPUS  the host's CPUs (default 2: a test's vCPU threads move between them,
#                       and vperf takes each CPU at its first guest run)
#   KVM_SELFTEST_ARGS   more kernel command line; a vperf parameter refused at boot is printed
#   KVM_SELFTEST_CPUS   only these of the CPU models above (a space-separated list, e.g.
#                       "max,spe=on a64fx" for the direct partition: cortex-a710 has no FEAT_FGT
#                       in QEMU, so a direct guest's PMXEVCNTR_EL0 past N reads as zero there,
#                       CONSTRAINED UNPREDICTABLE, where vpmu_counter_access wants UNDEFINED)
#   KVM_VPERF_RANGE     first (default) or second: kvm-arm.vperf_range; second runs every test
#                       on max,spe=on,aarch32=off (AArch64 only: vperf's second range needs it,
#                       and aarch32_id_regs too), where the guests get N = 2, but
#                       vcpu_width_config, which needs AArch32 at EL1 (it skips there)
#   KVM_MODE            KVM's mode, as for guest.sh: nvhe (the default), protected (pKVM, the
#                       tests' VMs non-protected ones) or vhe (this PE's default: the host
#                       kernel at EL2, vperf loaded from vcpu_load to vcpu_put); the PASS/FAIL
#                       lines then say mode=
#   QEMU                another qemu-system-aarch64 (default: the project's, platform/qemu)
set -eu
: "${QEMU_OUT:?QEMU_OUT (the directory with pmu-suite.bin)}"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/common.sh"
range=${KVM_VPERF_RANGE:-first}
case "$range" in
first) width=vcpu_width_config ;;
second) width= ;;
*) echo "kvm-selftest: KVM_VPERF_RANGE=$range: first or second" >&2 && exit 2 ;;
esac
tests=${KVM_SELFTESTS:-vpmu_counter_access set_id_regs set_id_regs_noasid get-reg-list
	aarch32_id_regs debug-exceptions debug-exceptions_stepped psci_test $width vperf_pmu_filter
	vperf_pmu_migrate vperf_pmu_view vperf_pmu_flush vperf_pmu_policy vperf_host_long}
modes=${KVM_SELFTEST_MODES:-1 0}
kvm_mode=${KVM_MODE:-nvhe}
case "$kvm_mode" in
nvhe) mode_tag= ;;
protected | vhe) mode_tag=" mode=$kvm_mode" ;;
*) echo "kvm-selftest: KVM_MODE=$kvm_mode: nvhe, protected or vhe" >&2 && exit 2 ;;
esac
mode_line=$(kvm_mode_line "$kvm_mode")
mode_arg=$(kvm_mode_arg "$kvm_mode")
host_cpus=${KVM_SELFTEST_HOST_CPUS:-2}
img=$("$here/build.sh")
qemu=${QEMU:-$("$root/platform/qemu/build.sh")}

# all_cpus NAME: the QEMU CPU models NAME runs on. The project's max with SPE (FEAT_PMUv3p9, 6
# counters: 4 for the guests with vperf; SPE in the hardware, which the guests must not see).
# aarch32_id_regs needs a vCPU that is AArch64 only at EL0, which max is not (the test skips
# there): QEMU's a64fx is AArch64 only at every EL, with EL2 and PMUv3. vpmu_counter_access runs
# on every model, for other first ranges: a64fx has 8 counters (6 for the guests), cortex-a710 20
# (18).
all_cpus() {
	[ "$range" = first ] || { echo max,spe=on,aarch32=off && return; }
	case "$1" in
	aarch32_id_regs) echo a64fx ;;
	vpmu_counter_access) echo max,spe=on a64fx cortex-a710 ;;
	*) echo max,spe=on ;;
	esac
}

# cpus NAME: those of KVM_SELFTEST_CPUS among them, when it is set.
cpus() {
	[ -n "${KVM_SELFTEST_CPUS:-}" ] || { all_cpus "$1" && return; }
	for c in $(all_cpus "$1"); do
		case " $KVM_SELFTEST_CPUS " in *" $c "*) printf '%s ' "$c" ;; esac
	done
	echo
}

# xfail NAME SECTION: why NAME failed as SECTION (its output) shows, when that is a known failure
# outside vperf (empty: it is not). set_id_regs of this source expects every field of its list
# writable, ID_AA64MMFR0_EL1.ASIDBITS (bits [7:4]) among them, but this kernel leaves ASIDBITS
# out of the register's writable mask (arch/arm64/kvm/sys_regs.c): the test stops there, after
# ID_AA64MMFR0_EL1_BIGEND, the same with vperf=0.
xfail() {
	case "$1" in
	set_id_regs)
		if grep -q "set_id_regs.c:434: masks\[idx\] & ftr_bits\[j\].mask == ftr_bits\[j\].mask" "$2" &&
			grep -q "  0 != 0xf0 " "$2" &&
			[ "$(grep "^\[$1\] ok " "$2" | tail -n 1 | sed 's/.* //')" = ID_AA64MMFR0_EL1_BIGEND ]; then
			echo "ID_AA64MMFR0_EL1.ASIDBITS is read-only in this kernel, writable for the test"
		fi ;;
	esac
}

# The build's path of a test: get-reg-list is built from a generic and an arch part; a derived
# test (below) is not in the Makefile's list and is built as an extra program of it.
target() {
	case "$1" in
	get-reg-list) echo "$1" ;;
	*) echo "aarch64/$1" ;;
	esac
}

# derived_from NAME: the source's test NAME is made from at build time, by the sed program
# derive NAME prints (nothing for the source's own tests; GNU sed):
#   set_id_regs_noasid        set_id_regs less the one field of its list this kernel keeps
#                             read-only (ID_AA64MMFR0_EL1.ASIDBITS; xfail() below)
#   debug-exceptions_stepped  debug-exceptions whose test of the VMM's single step also fails
#                             when the guest never stopped (no KVM_EXIT_DEBUG at all), which the
#                             original accepts: that is what a vCPU without MDCR_EL2.TDE does
derived_from() {
	case "$1" in
	set_id_regs_noasid) echo set_id_regs ;;
	debug-exceptions_stepped) echo debug-exceptions ;;
	esac
}
derive() {
	case "$1" in
	set_id_regs_noasid) echo '/ID_AA64MMFR0_EL1, ASIDBITS/d' ;;
	debug-exceptions_stepped)
		fn='^void test_single_step_from_userspace('
		echo "/$fn/i static int vperf_steps;"
		echo '/TEST_ASSERT(ss_enable, "Unexpected KVM_EXIT_DEBUG");/a vperf_steps++;'
		printf '/%s/,/^}/s/^\\tkvm_vm_free(vm);/%s\\n&/\n' "$fn" \
			'\tTEST_ASSERT(vperf_steps, "no KVM_EXIT_DEBUG");'
		;;
	esac
}

# ours NAME: NAME is the project's own test, its source in integrations/kvm/selftests/ (with the
# headers there), built with the selftests' library like a derived test; rebuilt when its copy in
# the build's tree differs from it.
ours() {
	[ -f "$here/selftests/$1.c" ]
}
stale() {
	ours "$1" || return 1
	for f in "$1.c" vperf_selftest.h vperf_host.h vperf_policy.h; do
		cmp -s "$here/selftests/$f" "$kst/aarch64/$f" || return 0
	done
	return 1
}

# required NAME MODE: the lines NAME's output must have with kvm-arm.vperf=MODE to pass:
# vperf_pmu_migrate must have found vperf's whole blob in the list, migrated it and seen a
# corrupted one refused, where vperf answers the PMU. lacking NAME MODE LOG: the first LOG lacks.
required() {
	case "$1:$2" in
	vperf_pmu_migrate:1)
		echo "vperf blob: 86 words migrated"
		echo "corrupted blob refused: KVM_RUN EINVAL, the vCPU unchanged"
		;;
	vperf_host_long:1)
		[ "$kvm_mode" != vhe ] || echo "host long: judged"
		;;
	vperf_pmu_policy:1)
		echo "policy: the kernel's parameters read back, bad policies refused"
		echo "policy: the trapped VM's accesses trapped"
		if [ "$range" != second ]; then
			echo "policy: the emulated VM's counters moved on at its exits"
			echo "policy: one counter on its slot, not moved at the exits"
		fi
		# max,spe=on: SPE, and the direct partition in the first range, where the host
		# lets VMMs have them (kvm-arm.vperf_vmm); else it must keep them
		case " ${KVM_SELFTEST_ARGS:-} " in
		*" kvm-arm.vperf_vmm=direct,spe,mode "*)
			echo "policy: SPE for the VM that asked, none for the other"
			[ "$range" = second ] || echo "policy: the direct VM's accesses did not trap"
			;;
		*) echo "policy: what the host keeps from VMMs refused" ;;
		esac
		;;
	vperf_pmu_policy:0)
		echo "policy: no vperf, no KVM_ARM_VCPU_PMU_V3_VPERF"
		;;
	vperf_pmu_view:1)
		echo "view: the PMU registers are vperf's"
		# AArch32 at EL0 (the first range's CPU): ID_DFR0_EL1 is not RAZ
		[ "$range" = second ] || echo "view: one PMU in the ID registers"
		case " ${KVM_SELFTEST_ARGS:-} " in *" kvm-arm.vperf_spe=1 "*)
			echo "view: a VM vperf refuses (PMU and SPE on PPI 21): KVM_RUN EINVAL" ;;
		esac
		case " ${KVM_SELFTEST_ARGS:-} " in *" kvm-arm.mode=nested "*)
			echo "view: no VM with EL2 on this host (KVM_ARM_VCPU_INIT: ENOENT)" ;;
		esac
		;;
	esac
}
# The lines of our tests' own output worth showing (pr_info's), an extended regex.
ours_lines() {
	echo "(no filter|deny|allow|list order|reverse order|KVM.s own|saved|reading on|vperf blob|corrupted|vperf_(pmu|host)_|flush: |host long: |policy: |view: (the |one |a VM|no VM|PMUVer|after|ID_DFR0))"
}
lacking() {
	required "$1" "$2" | while IFS= read -r line; do
		grep -qF "[$1] $line" "$3" || { echo "$line" && break; }
	done
}

# The tests, built once per source version: the kernel's UAPI headers and the selftests' library
# in a hard-linked copy of the source (make writes new files, never the cached ones; so does
# sed, for a derived test's source beside its original, and cp for ours).
dir=$KVM_CACHE/selftests/$KVM_DEB_VERSION
kst=$dir/src/tools/testing/selftests/kvm
missing() {
	for t in $tests; do
		if [ ! -x "$dir/out/$(target "$t")" ] || stale "$t"; then
			echo "$dir/out/$(target "$t")"
		fi
	done
}
if [ -n "$(missing)" ]; then
	src=$("$here/fetch.sh")
	mkdir -p "$dir"
	exec 9>"$dir/lock"
	flock 9
	bins=$(missing)
	if [ -n "$bins" ]; then
		echo "kvm-selftest: building $(echo "$bins" | wc -l) tests (log: $dir/build.log)" >&2
		# The kernel's makes without ours' variables (make O=... kvm-selftest passes O down in
		# MAKEFLAGS, which the selftests' tools would take for their output directory).
		unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL O
		# shellcheck disable=SC2086 # one path a word
		{
			{ [ -d "$dir/src" ] || cp -al "$src" "$dir/src"; } &&
				nice make -C "$dir/src" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- headers &&
				extra='' &&
				for t in $tests; do
					if ours "$t"; then
						extra="$extra aarch64/$t"
						echo "$bins" | grep -qx "$dir/out/aarch64/$t" || continue
						cp --remove-destination "$here/selftests/$t.c" \
							"$here/selftests/vperf_selftest.h" "$here/selftests/vperf_host.h" \
							"$here/selftests/vperf_policy.h" \
							"$kst/aarch64/" &&
							rm -f "$dir/out/aarch64/$t" || exit 1
						continue
					fi
					from=$(derived_from "$t")
					[ -n "$from" ] || continue
					extra="$extra aarch64/$t"
					sed "$(derive "$t")" "$kst/aarch64/$from.c" >"$kst/aarch64/$t.c" || exit 1
				done &&
				nice make -C "$kst" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
					EXTRA_CFLAGS=-static LDFLAGS=-static OUTPUT="$dir/out" \
					TEST_GEN_PROGS_EXTENDED_aarch64="$extra" $bins
		} >"$dir/build.log" 2>&1 || {
			tail -n 20 "$dir/build.log" >&2
			exit 1
		}
	fi
	exec 9>&-
fi

work=$(dirname "$img")/selftest
mkdir -p "$work" 2>/dev/null || work=$(mktemp -d)
# One run at a time in this directory: two runs of the same kernel (two clones' make kvm-check,
# a helper's beside one's own) would write each other's logs and initramfs. The second waits.
exec 8>"$work/.lock"
flock 8
cpio=$(QEMU=$qemu WORK=$work "$root/tests/validate/debian/run.sh" build kvm)
# The tests join the initramfs as a second archive (the kernel unpacks them in turn; its /init
# is the same kvm-init.sh).
rm -rf "$work/extra" && mkdir -p "$work/extra/selftest"
for t in $tests; do
	cp "$dir/out/$(target "$t")" "$work/extra/selftest/"
done
"$root/tests/qemu/linux/mkcpio.sh" "$root/tests/validate/debian/kvm-init.sh" "$work/extra.cpio" \
	"$work/extra"
cat "$cpio" "$work/extra.cpio" >"$work/initrd"

# section LOG NAME: the lines of LOG from NAME's start to its exit status (the host's own
# messages among them: each vCPU destroyed says how many PMU accesses vperf answered).
section() {
	tr -d '\r' <"$1" | sed -n "/^kvm-init: selftest $2\$/,/^kvm-init: selftest $2 rc=/p"
}

passed=0 failed=0 xfailed=0
for m in $modes; do
	for cpu in $(for t in $tests; do cpus "$t"; done | tr ' ' '\n' | sort -u); do
		cmdline='' on=''
		for t in $tests; do
			case " $(cpus "$t") " in *" $cpu "*) cmdline="$cmdline vperf.selftest=$t" on="$on $t" ;; esac
		done
		log=$work/$cpu-vperf$m${mode_tag:+-$kvm_mode}.log
		echo "kvm-selftest: booting $img on $cpu with kvm-arm.vperf=$m (log: $log)" >&2
		timeout 3600 nice "$qemu" -nodefaults -M virt,virtualization=on,gic-version=3 \
			-cpu "$cpu" -smp "$host_cpus" -m 1G -display none -serial stdio -no-reboot \
			-kernel "$img" -initrd "$work/initrd" -append "console=ttyAMA0 panic=-1 $mode_arg \
kvm-arm.vperf=$m kvm-arm.vperf_range=$range ${KVM_SELFTEST_ARGS:-}$cmdline" </dev/null >"$log" 2>&1 || true
		# A vperf parameter the host refused at boot (patch 27): vperf is off then
		tr -d '\r' <"$log" | grep -E "kvm-arm\.vperf.* refused: .*vperf is off" |
			sed 's/^/kvm-selftest: the host: /' || true
		for t in $on; do
			tag=$t$mode_tag
			[ "$cpu" = max,spe=on ] || tag="$t cpu=$cpu$mode_tag"
			section "$log" "$t" >"$log.$t"
			rc=$(sed -n "s/^kvm-init: selftest $t rc=//p" "$log.$t")
			vcpus=$(grep -c "vperf answered [0-9]* PMU register accesses at EL2" "$log.$t" || true)
			answered=$(grep -c "vperf answered [1-9][0-9]* PMU register accesses at EL2" \
				"$log.$t" || true)
			# The test's verdicts but its TAP "ok" lines (counted in its Totals), at
			# most 12; an assertion's own lines whatever came before them (a check's
			# must-fail pattern may name its message); the last "ok" before it.
			grep -E "^\[$t\] (not ok |[a-z0-9+_]+: PASS|1\.\.0 # SKIP|# Totals|$(ours_lines))" \
				"$log.$t" | head -n 12 || true
			grep -E "^\[$t\] (==== |  )" "$log.$t" | grep -Ev "  pid=|addr2line" |
				head -n 4 || true
			! grep -q "^\[$t\] ==== Test Assertion Failure" "$log.$t" ||
				grep "^\[$t\] ok " "$log.$t" | tail -n 1
			misuse=$(grep -m 1 "vperf error: .*after a lazy put without vperf_pcpu_flush" "$log.$t" || true)
			[ -z "$misuse" ] || echo "kvm-selftest: the host: vperf error: ${misuse#*vperf error: }"
			why=
			if ! grep -q "$mode_line" "$log"; then
				why="KVM did not come up in $kvm_mode mode"
			elif [ "${rc:-none}" != 0 ]; then
				why="rc=${rc:-none}"
			elif [ -n "$misuse" ]; then
				why="vperf reported a load without the flush"
			elif [ "$m" = 1 ] && [ "$answered" -eq 0 ] &&
				{ [ "$t" = vpmu_counter_access ] || ours "$t"; }; then
				why="no vCPU's PMU access was vperf's"
			elif [ -n "$(lacking "$t" "$m" "$log.$t")" ]; then
				why="no \"$(lacking "$t" "$m" "$log.$t")\""
			fi
			expected=$(xfail "$t" "$log.$t")
			counts="vCPUs $vcpus, whose PMU accesses vperf answered $answered"
			[ "$m" = 1 ] || counts="KVM's own PMU"
			if [ -z "$why" ]; then
				echo "PASS kvm-selftest $tag vperf=$m ($counts)"
				passed=$((passed + 1))
			elif [ -n "$expected" ]; then
				echo "XFAIL kvm-selftest $tag vperf=$m ($why: $expected)"
				xfailed=$((xfailed + 1))
			else
				echo "FAIL kvm-selftest $tag vperf=$m ($why; log: $log)"
				failed=$((failed + 1))
			fi
		done
	done
done
echo "kvm-selftest: $passed passed, $failed failed, $xfailed expected failures"
[ "$failed" -eq 0 ]
