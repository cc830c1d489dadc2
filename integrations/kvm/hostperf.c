// SPDX-License-Identifier: MIT
/*
 * The KVM host's own perf while vperf's guests run (make kvm-guest, integrations/kvm/guest.sh):
 * a static program in the host's initramfs that kvm-init.sh starts before the guests and stops
 * with SIGTERM after them. With kvm-arm.vperf=1 the host's PMU driver must keep to the counters
 * vperf leaves the host (docs/integration/kvm.md, "The host's perf"); this program uses the PMU
 * the way that would break it otherwise, and checks that the host's own counts come out right.
 *
 *   hostperf count    two pinned events on every CPU, counting whatever runs there: CPU_CYCLES
 *                     as the generic "cycles" (the cycle counter when the driver may use it) and
 *                     as raw event 0x11 (the lowest free event counter: counter 0 when the driver
 *                     may use it), the counters a guest's PMU state is written to. Passes when
 *                     on each CPU both counted all the time (pinned: enabled == running), never
 *                     more than MAX_RATE cycles a nanosecond between two readings 20 ms apart, and
 *                     agree within 10% (the same event).
 *   hostperf mux      count's, and two CPU_CYCLES events more a CPU than the host's counters
 *                     hold: perf rotates them every 1 ms (pmu_disable, pmu_enable), whatever
 *                     runs there (VHE: a loaded vCPU, its PMCR_EL0 not the driver's). As count.
 *   hostperf sample   one CPU_CYCLES sampling event on every CPU (period PERIOD), counting
 *                     whatever runs there, guests' entries and exits included. Every overflow
 *                     must reach the host's driver: a lost one leaves a 64-bit counter far from
 *                     its next overflow, and the samples stop. Passes when each CPU's samples
 *                     (with those perf reports lost) are at least 90% of count / PERIOD.
 *   hostperf spe      an SPE event (arm_spe_0) on every CPU, its AUX area consumed as it fills,
 *                     while the guests run (with kvm-arm.vperf_spe=1, guests with SPE of their
 *                     own use the same Profiling Buffer registers). After them, this program
 *                     runs on each CPU in turn for SPIN_MS: the host's session must still write
 *                     records there: the AUX head moves by the time the event is disabled, by
 *                     no more than the area holds (a guest's PMBPTR_EL1 left in the CPU makes
 *                     the driver hand over a size that is not its buffer's). No hand-over while
 *                     the guests ran may exceed the area either (none is required: the driver
 *                     hands over a full area or at the stop, and guests may leave it unfilled).
 *   hostperf spe-toggle  spe's, and each CPU's event disabled and enabled again every TOGGLE_US
 *                     (perf's IPI to that CPU: the driver's arm_spe_pmu_stop() and _start()
 *                     wherever the CPU is, a loaded vCPU with the guest's buffer in the CPU
 *                     under VHE). Judged as spe, and each event must have been toggled.
 *   hostperf spe-task  an SPE event on each thread of every qemu-system-aarch64 process, attached
 *                     as the threads appear (a host's perf record -p of its VMM): perf stops a
 *                     thread's session when it is switched out, before KVM's preempt notifier
 *                     puts its vCPU (a vCPU thread blocking in a WFI, under VHE with the guest's
 *                     buffer in the CPU). Passes when some thread's session handed over records
 *                     and none more than its AUX area holds at once.
 * The SPE modes are in hostperf_spe.c. Prints "hostperf: ..." lines and "hostperf: PASS" or "hostperf: FAIL"; exits 0 on PASS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hostperf.h"

#define PERIOD	 20000000ULL /* CPU_CYCLES: QEMU counts 1e9 a virtual second, so 20 ms */
#define MUX_FILE "/sys/bus/event_source/devices/armv8_pmuv3/perf_event_mux_interval_ms"

volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, 0);
}

struct reading {
	uint64_t value, enabled, running;
};

static int read_event(int fd, struct reading *r)
{
	return read(fd, r, sizeof(*r)) == (ssize_t)sizeof(*r) ? 0 : -1;
}

/* Cycles a nanosecond between two readings. QEMU counts 1 a ns, but a reading's count and its
 * enabled time are not taken at one instant: with the host's CPUs loaded (a nested guest, QEMU
 * under other jobs) one 49 ms window showed 216351570 cycles (4.4 a ns) while the run as a whole
 * counted 0.88. A counter someone else wrote comes back with a delta near 2^31, 2^32 or 2^63:
 * 40 a ns and more over any window shorter than 50 ms. */
#define MAX_RATE 16

/* One CPU's two counting events: a reading now, against the last (last[i].enabled 0 at first). */
static int count_step(int cpu, const int fd[2], struct reading last[2], int print)
{
	const char *name[2] = { "cycles", "r11" };
	struct reading r[2];
	int ok = 1;

	if (read_event(fd[0], &r[0]) || read_event(fd[1], &r[1])) {
		printf("hostperf: read: %s\n", strerror(errno));
		return 0;
	}
	for (int i = 0; i < 2; i++) {
		uint64_t dv = r[i].value - last[i].value, dt = r[i].enabled - last[i].enabled;

		/* Counting all the time (pinned), never faster than MAX_RATE (above). */
		if (r[i].running != r[i].enabled || dv > MAX_RATE * dt) {
			printf("hostperf: cpu %d: %s counted %llu in %llu ns (running %llu of %llu "
			       "ns)\n",
			       cpu, name[i], (unsigned long long)dv, (unsigned long long)dt,
			       (unsigned long long)r[i].running, (unsigned long long)r[i].enabled);
			ok = 0;
		}
		if (print)
			printf("hostperf: cpu %d: %s %llu enabled %llu ns running %llu ns\n", cpu,
			       name[i], (unsigned long long)r[i].value,
			       (unsigned long long)r[i].enabled, (unsigned long long)r[i].running);
		last[i] = r[i];
	}
	/* Both counted, the same event on two counters: 10% apart at most. */
	if (print)
		ok &= r[0].value > 0 && r[1].value > 0 && r[0].value / 10 * 9 <= r[1].value &&
		      r[1].value / 10 * 9 <= r[0].value;
	return ok;
}

/* hostperf mux: events the pinned ones leave no counter for, rotated every millisecond. */
static int mux_open(int cpu)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_RAW, .config = 0x11 };
	FILE *f = fopen(MUX_FILE, "w");
	int ok = f && fputs("1\n", f) >= 0;

	ok = f && !fclose(f) && ok;
	for (int i = 0; ok && i < 2; i++)
		ok = perf_open(&a, -1, cpu) >= 0;
	return ok ? 0 : -1;
}

static int count_mode(int mux)
{
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	struct reading last[MAX_CPUS][2];
	struct perf_event_attr attr;
	int fd[MAX_CPUS][2];
	int ok = 1;

	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	memset(last, 0, sizeof(last));
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.pinned = 1;
	attr.exclude_hv = 1;
	for (int c = 0; c < ncpu; c++) {
		attr.type = PERF_TYPE_HARDWARE;
		attr.config = PERF_COUNT_HW_CPU_CYCLES;
		fd[c][0] = perf_open(&attr, -1, c);
		attr.type = PERF_TYPE_RAW;
		attr.config = 0x11; /* CPU_CYCLES, Arm DDI 0487 D17.11 */
		fd[c][1] = perf_open(&attr, -1, c);
		if (fd[c][0] < 0 || fd[c][1] < 0 || (mux && mux_open(c))) {
			printf("hostperf: perf_event_open cpu %d: %s\nhostperf: FAIL\n", c,
			       strerror(errno));
			return 1;
		}
	}
	/* Read every 20 ms (each read brings the hardware counter into the event's count). */
	while (!stop) {
		usleep(20000);
		for (int c = 0; c < ncpu; c++)
			ok &= count_step(c, fd[c], last[c], 0);
	}
	for (int c = 0; c < ncpu; c++)
		ok &= count_step(c, fd[c], last[c], 1);
	printf("hostperf: %s\n", ok ? "PASS" : "FAIL");
	return !ok;
}

struct sampler {
	int fd;
	struct perf_event_mmap_page *page;
	uint64_t samples, lost;
};

static void drain(struct sampler *s, long pagesz)
{
	const unsigned char *data = (const unsigned char *)s->page + pagesz;
	uint64_t size = (uint64_t)RING_PAGES * (uint64_t)pagesz;
	uint64_t head = __atomic_load_n(&s->page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = s->page->data_tail;

	while (tail < head) {
		struct perf_event_header h;

		/* Records are 8-byte aligned and the ring a power of two: a header never wraps. */
		memcpy(&h, data + tail % size, sizeof(h));
		if (h.type == PERF_RECORD_SAMPLE) {
			s->samples++;
		} else if (h.type == PERF_RECORD_LOST) {
			uint64_t lost = 0;

			for (unsigned int i = 0; i < 8; i++)
				lost |= (uint64_t)data[(tail + 16 + i) % size] << (8 * i);
			s->lost += lost;
		}
		tail += h.size ? h.size : 8;
	}
	__atomic_store_n(&s->page->data_tail, tail, __ATOMIC_RELEASE);
}

static int sample_mode(void)
{
	struct sampler s[MAX_CPUS];
	long pagesz = sysconf(_SC_PAGESIZE);
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	struct perf_event_attr attr;
	FILE *f;
	int ok = 1;

	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	/* No throttling: a slow emulated interrupt must not lower the sample rate. */
	f = fopen("/proc/sys/kernel/perf_cpu_time_max_percent", "w");
	if (f) {
		fputs("0\n", f);
		fclose(f);
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_RAW;
	attr.config = 0x11;
	attr.config1 = 1; /* a 64-bit counter (FEAT_PMUv3p5): a lost overflow ends the samples */
	attr.sample_period = PERIOD;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.pinned = 1;
	for (int c = 0; c < ncpu; c++) {
		memset(&s[c], 0, sizeof(s[c]));
		s[c].fd = perf_open(&attr, -1, c);
		if (s[c].fd < 0) {
			printf("hostperf: perf_event_open cpu %d: %s\nhostperf: FAIL\n", c,
			       strerror(errno));
			return 1;
		}
		s[c].page = mmap(NULL, (size_t)(RING_PAGES + 1) * (size_t)pagesz,
				 PROT_READ | PROT_WRITE, MAP_SHARED, s[c].fd, 0);
		if (s[c].page == MAP_FAILED) {
			printf("hostperf: mmap: %s\nhostperf: FAIL\n", strerror(errno));
			return 1;
		}
	}
	while (!stop) {
		usleep(20000);
		for (int c = 0; c < ncpu; c++)
			drain(&s[c], pagesz);
	}
	for (int c = 0; c < ncpu; c++) {
		struct reading r;
		uint64_t expect;

		ioctl(s[c].fd, PERF_EVENT_IOC_DISABLE, 0);
		drain(&s[c], pagesz);
		if (read_event(s[c].fd, &r)) {
			printf("hostperf: read: %s\nhostperf: FAIL\n", strerror(errno));
			return 1;
		}
		expect = r.value / PERIOD;
		printf("hostperf: cpu %d: r11 %llu, samples %llu, lost %llu, expected %llu\n", c,
		       (unsigned long long)r.value, (unsigned long long)s[c].samples,
		       (unsigned long long)s[c].lost, (unsigned long long)expect);
		ok &= expect > 0 && (s[c].samples + s[c].lost) * 10 >= expect * 9;
	}
	printf("hostperf: %s\n", ok ? "PASS" : "FAIL");
	return !ok;
}

int main(int argc, char **argv)
{
	signal(SIGTERM, on_term);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "count"))
		return count_mode(0);
	if (argc == 2 && !strcmp(argv[1], "mux"))
		return count_mode(1);
	if (argc == 2 && !strcmp(argv[1], "sample"))
		return sample_mode();
	if (argc == 2 && !strcmp(argv[1], "spe"))
		return spe_mode(0);
	if (argc == 2 && !strcmp(argv[1], "spe-toggle"))
		return spe_mode(1);
	if (argc == 2 && !strcmp(argv[1], "spe-task"))
		return spe_task_mode();
	fprintf(stderr, "usage: hostperf count|mux|sample|spe|spe-toggle|spe-task\n");
	return 2;
}
