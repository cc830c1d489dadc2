#!/bin/busybox sh
# shellcheck shell=dash
# /init of dom0 for the xen-native target (run.sh): Debian's Xen 4.17 toolstack brings up
# xenstored and xenconsoled, then each vperf.guest=ARGS of the kernel's command line (',' for ' ')
# becomes a domain `xl create`d with Xen's own vPMU (vpmu=1) and an SBSA vUART, running the
# conformance suite. A guest "linux:ARGS" is the Linux guest instead (tests/qemu/linux): Debian's
# kernel, the one running dom0, with its initramfs whose /init checks perf, ARGS its command line
# (console=hvc0: Xen's PV console); "linux-rootfs:ARGS" the same kernel with the initramfs whose
# /init runs Linux's perf tool. xenconsoled logs each guest's console to a file; when every guest
# said SUITE DONE (or the time is up) the logs are printed, each line tagged DOMn: with the
# domain's id, and the machine powers off.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin:/usr/lib/xen-4.17/bin
mkdir -p /sys
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# libxl's lock files and xenconsoled's ptys; xl's domain configurations.
mkdir -p /dev/pts /proc/xen /var/run/xen /var/run/xenstored /var/lib/xen /var/log/xen /var/lock /tmp \
	/etc/xen
: >/etc/xen/xl.conf
mount -t devpts devpts /dev/pts
for m in xen-evtchn xen-privcmd xen-gntdev xen-gntalloc xenfs/xenfs; do
	insmod /lib/modules/*/kernel/drivers/xen/$m.ko || echo "xen-init: insmod $m failed"
done
mount -t xenfs xenfs /proc/xen
xenstored --pid-file /var/run/xenstored.pid &
sleep 1
xen-init-dom0
xenconsoled --log=guest --log-dir=/var/log/xen &
sleep 1
echo "xen-init: $(xl info | grep -E '^(xen_version|virt_caps)' | tr -s ' ' | paste -sd';')"

k=0
for g in $(tr ' ' '\n' </proc/cmdline | sed -n 's/^vperf\.guest=//p'); do
	k=$((k + 1))
	args=$(echo "${g#linux*:}" | tr ',' ' ')
	# A guest that crashes or reboots is destroyed, not restarted: the wait below ends.
	{
		printf 'name = "suite%s"\nvcpus = 1\nvpmu = 1\nextra = "%s"\n' "$k" "$args"
		printf 'on_reboot = "destroy"\non_crash = "destroy"\n'
	} >/etc/xen/suite$k.cfg
	case "$g" in
	linux:* | linux-rootfs:*)
		image=${g%%:*}
		printf 'kernel = "/linux/Image"\nramdisk = "/linux/initrd.bin"\nmemory = 256\n' ;;
	*)
		image=pmu-suite.bin
		printf 'kernel = "/pmu-suite.bin"\nmemory = 64\nvuart = "sbsa_uart"\n' ;;
	esac >>/etc/xen/suite$k.cfg
	echo "$image" >/tmp/image$k
	xl create /etc/xen/suite$k.cfg || echo "xen-init: xl create suite$k failed"
	echo "xen-init: DOM$(xl domid suite$k) $image '$args'"
done

# console_log J: where xenconsoled logs guest J's console: the suite's SBSA vUART, a Linux
# guest's PV console.
console_log() {
	case "$(cat "/tmp/image$1")" in
	linux*) echo "/var/log/xen/guest-suite$1.log" ;;
	*) echo "/var/log/xen/guest-suite$1-vuart0.log" ;;
	esac
}

# Wait (guest time) for every guest's SUITE DONE, or for its domain to be gone.
i=0
while [ $i -lt 600 ]; do
	left=0
	for j in $(seq 1 $k); do
		grep -q 'SUITE DONE' "$(console_log "$j")" 2>/dev/null && continue
		xl domid suite$j >/dev/null 2>&1 && left=$((left + 1))
	done
	[ $left -eq 0 ] && break
	sleep 1
	i=$((i + 1))
done
for j in $(seq 1 $k); do
	id=$(xl domid suite$j 2>/dev/null || echo "$j")
	sed "s/^/DOM$id: /" "$(console_log "$j")"
done
echo "xen-init: $k guests done"
poweroff -f
