#!/bin/busybox sh
# shellcheck shell=dash
# /init of dom0 for the xen-native target (run.sh): Debian's Xen 4.17 toolstack brings up
# xenstored and xenconsoled, then each vperf.guest=ARGS of the kernel's command line (',' for ' ')
# becomes a domain `xl create`d with Xen's own vPMU (vpmu=1) and an SBSA vUART, running the
# conformance suite. xenconsoled logs each vUART to a file; when every guest said SUITE DONE (or
# the time is up) the logs are printed, each line tagged DOMn: with the domain's id, and the
# machine powers off.
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
	args=$(echo "$g" | tr ',' ' ')
	printf 'name = "suite%s"\nkernel = "/pmu-suite.bin"\nmemory = 64\nvcpus = 1\nvpmu = 1\nvuart = "sbsa_uart"\nextra = "%s"\n' \
		"$k" "$args" >/etc/xen/suite$k.cfg
	xl create /etc/xen/suite$k.cfg || echo "xen-init: xl create suite$k failed"
	echo "xen-init: DOM$(xl domid suite$k) pmu-suite.bin '$args'"
done

# Wait (guest time) for every guest's SUITE DONE, or for its domain to be gone.
i=0
while [ $i -lt 600 ]; do
	left=0
	for j in $(seq 1 $k); do
		grep -q 'SUITE DONE' /var/log/xen/guest-suite$j-vuart0.log 2>/dev/null && continue
		xl domid suite$j >/dev/null 2>&1 && left=$((left + 1))
	done
	[ $left -eq 0 ] && break
	sleep 1
	i=$((i + 1))
done
for j in $(seq 1 $k); do
	id=$(xl domid suite$j 2>/dev/null || echo "$j")
	sed "s/^/DOM$id: /" /var/log/xen/guest-suite$j-vuart0.log
done
echo "xen-init: $k guests done"
poweroff -f
