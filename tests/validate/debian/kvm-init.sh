#!/bin/busybox sh
# shellcheck shell=dash
# /init of the kvm target's initramfs (run.sh): Debian's kernel runs at EL2 with KVM; each
# vperf.guest=ARGS of the kernel's command line (',' for ' ') becomes a KVM guest running the
# conformance suite under Debian's qemu-system-aarch64 (-accel kvm -cpu host: the host's PMU as
# KVM exposes it, on QEMU's virt memory map the suite is linked for), all at once on the one CPU.
# A guest "linux:ARGS" is the Linux guest instead (tests/qemu/linux): Debian's kernel, the one
# running here, with its initramfs whose /init checks perf, ARGS its command line;
# "linux-rootfs:ARGS" the same kernel with the initramfs whose /init runs Linux's perf tool.
# A cpus=N among ARGS gives that guest N vCPUs (default 1). Each guest's console is printed
# tagged [vmK]. Then each vperf.selftest=NAME runs /selftest/NAME (a static test an outer script
# added to the initramfs, e.g. KVM's own selftests: integrations/kvm/selftest.sh), its output
# tagged [NAME], its exit status said; then the machine powers off. With vperf.hostperf=MODE,
# /selftest/hostperf MODE (integrations/kvm/hostperf.c, added by an outer script as the selftests
# are) uses the host's own perf from before the guests start until they are done (SIGTERM then),
# its output tagged [hostperf] and its exit status said. With vperf.migrate=MS the guests' vCPU
# threads move to the other of CPUs 0 and 1 (taskset) in rounds MS milliseconds apart, plus each
# round's own time (about a second on the emulated host), so that a vCPU runs on another CPU than
# its last run's (vperf's lazy put must be flushed there first: integrations/kvm, patch 12). A
# guest with spe=1 among its ARGS boots with QEMU's own device tree for it (-machine dumpdtb)
# plus the node of Linux's arm_spe_pmu on PPI 5 (INTID 21: KVM_VPERF_SPE_PPI of integrations/kvm,
# patch 15), added with fdtput, as -dtb: Debian's QEMU describes no SPE to a KVM guest. The
# host's pinned pages (/proc/vmstat's nr_foll_pin_*) are printed before the guests start and
# after they are done, and after them how often the CPUs entered an idle state deeper than WFI
# (cpuidle's state1 and on: a device tree with a power-down state, integrations/kvm/idle-dtb.sh).
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin
mkdir -p /sys
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
echo "kvm-init: $(dmesg | grep -o 'kvm \[[0-9]*\]: .*mode initialized.*' | head -n 1)"

hostperf=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^vperf\.hostperf=//p' | head -n 1)
if [ -n "$hostperf" ]; then
	/selftest/hostperf "$hostperf" >/hostperf.log 2>&1 &
	hostperf_pid=$!
	sleep 1
fi

pins() { echo "kvm-init: $1: $(grep nr_foll_pin /proc/vmstat | tr '\n' ' ')"; }
pins "pinned pages before the guests"
k=0
pids=
for g in $(tr ' ' '\n' </proc/cmdline | sed -n 's/^vperf\.guest=//p'); do
	case "$g" in
	linux:* | linux-rootfs:*) image=${g%%:*} && set -- -m 256M -kernel /linux/Image -initrd /linux/initrd.bin ;;
	*) image=pmu-suite.bin && set -- -m 128M -kernel /pmu-suite.bin ;;
	esac
	args=$(echo "${g#linux*:}" | tr ',' ' ')
	cpus=1
	case " $args " in *" cpus="[0-9]*) cpus=${args##*cpus=} && cpus=${cpus%% *} ;; esac
	case " $args " in
	*" spe=1 "*)
		dtb=/vm$k.dtb
		qemu-system-aarch64 -M "virt,gic-version=3,dumpdtb=$dtb" -accel kvm -cpu host \
			-smp "$cpus" -nodefaults -display none "$@" -append "$args" >/dev/null 2>&1
		fdtput -c "$dtb" /spe-pmu &&
			fdtput -t s "$dtb" /spe-pmu compatible arm,statistical-profiling-extension-v1 &&
			fdtput -t u "$dtb" /spe-pmu interrupts 1 5 4 &&
			set -- "$@" -dtb "$dtb" || echo "kvm-init: [vm$k] no device tree with SPE"
		;;
	esac
	echo "kvm-init: [vm$k] $image '$args'"
	# Either guest powers off with PSCI SYSTEM_OFF; a panic reboots (-no-reboot: QEMU exits).
	# debug-threads=on names the vCPU threads "CPU n/KVM", which vperf.migrate moves (QEMU 7.2
	# leaves every thread its process's name without it).
	(qemu-system-aarch64 -M virt,gic-version=3 -accel kvm -cpu host -smp "$cpus" \
		-name "vm$k,debug-threads=on" \
		-nodefaults -display none -serial stdio -monitor none -no-reboot \
		"$@" -append "$args" </dev/null 2>&1 | sed "s/^/[vm$k] /") &
	pids="$pids $!"
	k=$((k + 1))
done
migrate=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^vperf\.migrate=//p' | head -n 1)
if [ -n "$migrate" ]; then
	(
		n=0
		while :; do
			n=$((n + 1))
			for t in /proc/[0-9]*/task/[0-9]*; do
				case "$(cat "$t/comm" 2>/dev/null)" in
				"CPU "*) taskset -p $((n % 2 + 1)) "${t##*/}" >/dev/null 2>&1 ;;
				esac
			done
			echo "$n" >/migrate.rounds
			usleep $((migrate * 1000))
		done
	) &
	migrate_pid=$!
fi
# shellcheck disable=SC2086 # one pid a word
[ -z "$pids" ] || wait $pids
# The rounds made, not the ones asked: each forks a cat per thread of the system and a taskset per
# vCPU thread (docs/integration/kvm.md, "Moving a vCPU").
[ -z "$migrate" ] || { kill "$migrate_pid" &&
	echo "kvm-init: vCPU threads moved $(cat /migrate.rounds 2>/dev/null || echo 0) times (every $migrate ms asked)"; }
echo "kvm-init: $k guests done"
pins "pinned pages after the guests"
# idle_sum FILE: cpuidle's FILE summed over every CPU's states deeper than WFI (0 when cpuidle
# found no state): usage counts the entries, rejected the calls that returned an error, as a
# power-down request the firmware gave up does (the CPU's context kept).
idle_sum() {
	cat /sys/devices/system/cpu/cpu*/cpuidle/state[1-9]*/"$1" 2>/dev/null |
		awk '{ n += $1 } END { print n + 0 }'
}
echo "kvm-init: $(idle_sum usage) entries into CPU idle states deeper than WFI;" \
	"$(idle_sum rejected) more given up by the firmware"
if [ -n "$hostperf" ]; then
	kill -TERM "$hostperf_pid"
	wait "$hostperf_pid"
	rc=$?
	sed 's/^/[hostperf] /' /hostperf.log
	echo "kvm-init: hostperf $hostperf rc=$rc"
fi
for t in $(tr ' ' '\n' </proc/cmdline | sed -n 's/^vperf\.selftest=//p'); do
	echo "kvm-init: selftest $t"
	{
		"/selftest/$t" </dev/null 2>&1
		echo "kvm-init: selftest $t rc=$?"
	} | sed "/^kvm-init: /!s/^/[$t] /"
done
poweroff -f
