#!/bin/sh
# Write the device tree QEMU gives a machine, with a PSCI power-down idle state added to every CPU:
# QEMU's virt board describes none, so its CPUs only ever idle in WFI, and a CPU's loss of its PMU
# context at a power-down (which vperf must save a parked vCPU's counters before) never happens.
# The state: "arm,idle-state" entered through PSCI CPU_SUSPEND with power_state 0x10000 (StateType
# 1, a power-down, at the core: PSCI DEN0022, 5.4 CPU_SUSPEND, in the original format that QEMU's
# PSCI_FEATURES reports), no local-timer-stop (the board's timer is always-on and QEMU keeps it),
# and latencies short enough for the governor to pick it for any sleep of a few milliseconds.
#
# Usage: integrations/kvm/idle-dtb.sh OUT.dtb QEMU ARGS...   ARGS: the machine as it will boot
set -eu
out=$1 qemu=$2
shift 2
"$(dirname "$0")/../../scripts/deps.sh" kvm >&2 # dtc, fdtput
"$qemu" "$@" -display none -machine dumpdtb="$out" >/dev/null
# A phandle above QEMU's own.
last=$(dtc -q -I dtb -O dts "$out" | sed -n 's/.*phandle = <\(0x[0-9a-f]*\)>;.*/\1/p' |
	while read -r p; do echo $((p)); done | sort -n | tail -n 1)
ph=$((${last:-0} + 1))
state=/cpus/idle-states/cpu-power-down
fdtput -c "$out" /cpus/idle-states "$state"
fdtput -t s "$out" /cpus/idle-states entry-method psci
fdtput -t s "$out" "$state" compatible arm,idle-state
fdtput -t x "$out" "$state" arm,psci-suspend-param 10000
fdtput -t u "$out" "$state" entry-latency-us 20
fdtput -t u "$out" "$state" exit-latency-us 40
fdtput -t u "$out" "$state" min-residency-us 200
fdtput -t u "$out" "$state" phandle "$ph"
for cpu in $(fdtget -l "$out" /cpus | grep '^cpu@'); do
	fdtput -t u "$out" "/cpus/$cpu" cpu-idle-states "$ph"
done
