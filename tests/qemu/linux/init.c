// SPDX-License-Identifier: MIT
/*
 * /init of the Linux guest's initramfs: "perf works inside guests", checked from a Linux user
 * program through perf_event_open(2) and Linux's own arm_pmu driver. Nothing here knows about
 * vperf: the same program runs on bare QEMU and under the reference hypervisor.
 *
 * It counts its own CPU cycles and instructions over a loop of a known instruction count, at EL0
 * only and at EL0+EL1, samples the loop with cycle-counter (and instruction-counter) overflows
 * through a perf mmap ring buffer, checks that Linux probed the PMU with the counters the VM was
 * given, prints one "RESULT <test> PASS|FAIL|SKIP <detail>" line per check and "SUITE DONE
 * passed=P failed=F" (the QEMU runner's conventions, tests/qemu/run.sh), and powers off
 * (reboot(RB_POWER_OFF): PSCI SYSTEM_OFF).
 *
 * Parameters come from the kernel command line: Linux hands init every unknown "name=value"
 * argument as an environment variable.
 *   n=N       the event counters the PMU must have (PMCR_EL0.N; Linux adds the cycle counter)
 *   icount=1  QEMU runs with -icount shift=0: INST_RETIRED counts and one instruction is one
 *             cycle, so the counts are checked exactly; without it QEMU 7.2 counts no
 *             instructions (docs/qemu.md) and cycles follow the host's clock
 *   iters=K   loop iterations (default 10000000: 2 instructions each)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The measured loop: exactly two instructions per iteration plus the ret, nothing else, so its
 * EL0 instruction count is known. Samples must land in [vperf_loop, vperf_loop_end). */
void vperf_loop(uint64_t iters);
extern const char vperf_loop_end[];
__asm__(".text\n"
	".balign 16\n"
	".globl vperf_loop\n"
	".type vperf_loop, %function\n"
	"vperf_loop:\n"
	"1:	subs x0, x0, #1\n"
	"	b.ne 1b\n"
	"	ret\n"
	".globl vperf_loop_end\n"
	"vperf_loop_end:\n"
	".size vperf_loop, . - vperf_loop\n");

#define SAMPLE_PERIOD 250000u
#define RING_PAGES    64u /* data pages of the sampling ring buffer (a power of two) */

static unsigned int passed, failed;
static uint64_t iters = 10000000;
static bool icount;
static long page_size;

static void result(const char *test, const char *verdict, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void result(const char *test, const char *verdict, const char *fmt, ...)
{
	va_list ap;

	printf("RESULT %s %s ", test, verdict);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!strcmp(verdict, "PASS"))
		passed++;
	else if (!strcmp(verdict, "FAIL"))
		failed++;
}

static const char *verdict(bool ok)
{
	return ok ? "PASS" : "FAIL";
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int perf_open(struct perf_event_attr *attr, int group)
{
	return (int)syscall(SYS_perf_event_open, attr, 0 /* this task */, -1 /* any CPU */, group,
			    0ul);
}

static void attr_init(struct perf_event_attr *a, uint64_t config, bool user_only)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->config = config;
	a->exclude_kernel = user_only;
	/* exclude_hv stays 0, as perf's default: Linux at EL1 then asks for EL2 counting too
	 * (PMEVTYPER.NSH), which a hypervisor must not grant. */
}

/* Linux's arm_pmu probe line: "hw perfevents: enabled with armv8_pmuv3 PMU driver, C counters
 * available" with C = PMCR_EL0.N event counters + the cycle counter. */
static void check_probe(void)
{
	static char log[1 << 17];
	const char *want = getenv("n");
	int len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, (int)sizeof(log) - 1);
	const char *line, *p;
	unsigned int counters = 0;

	if (len < 0) {
		result("linux-pmu-probe", "FAIL", "klogctl: %s", strerror(errno));
		return;
	}
	log[len] = '\0';
	line = strstr(log, "hw perfevents: enabled with ");
	if (!line) {
		p = strstr(log, "hw perfevents:");
		result("linux-pmu-probe", "FAIL", "no PMU driver probed (%.60s)",
		       p ? p : "no \"hw perfevents:\" line in the kernel log");
		return;
	}
	p = strstr(line, "PMU driver, ");
	if (p)
		counters = (unsigned int)strtoul(p + strlen("PMU driver, "), NULL, 10);
	printf("PERF probe: %.*s\n", (int)strcspn(line, "\n"), line);
	if (!want) {
		result("linux-pmu-probe", verdict(counters > 1), "%u counters (no n= given)",
		       counters);
		return;
	}
	result("linux-pmu-probe", verdict(counters == (unsigned int)atoi(want) + 1),
	       "%u counters available = n=%s event counters + the cycle counter", counters, want);
}

struct group_read {
	uint64_t nr, time_enabled, time_running;
	uint64_t value[2];
};

/* Why perf_event_open(2) failed, for a RESULT line. A PERF_TYPE_HARDWARE event fails with ENOENT
 * when no PMU driver registered one: Linux found no PMU to probe (no PMU node in its device
 * tree), which is what the guest must be told, not just "No such file or directory". */
static const char *perf_why(int err)
{
	return err == ENOENT ? "no hardware events: Linux probed no PMU" : strerror(err);
}

/* Cycles and instructions as one group around the loop: 0, or the errno that stopped it. */
static int count_loop(bool user_only, struct group_read *r, uint64_t *elapsed)
{
	struct perf_event_attr a;
	int lead, insn;
	uint64_t t0;

	attr_init(&a, PERF_COUNT_HW_CPU_CYCLES, user_only);
	a.disabled = 1;
	a.read_format =
		PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	lead = perf_open(&a, -1);
	if (lead < 0) {
		int err = errno;

		printf("PERF perf_event_open(cycles): %s\n", strerror(err));
		return err;
	}
	attr_init(&a, PERF_COUNT_HW_INSTRUCTIONS, user_only);
	insn = perf_open(&a, lead);
	if (insn < 0 && !(errno == ENOENT && !icount)) {
		int err = errno;

		printf("PERF perf_event_open(instructions): %s\n", strerror(err));
		close(lead);
		return err;
	}
	/* ENOENT: the PMU does not implement INST_RETIRED (PMCEID0_EL0 bit 8 clear: QEMU 7.2
	 * without -icount), so Linux offers no instructions event; cycles alone then. */
	ioctl(lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	t0 = now_ns();
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	vperf_loop(iters);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	*elapsed = now_ns() - t0;
	memset(r, 0, sizeof(*r));
	if (read(lead, r, sizeof(*r)) < (ssize_t)(sizeof(*r) - sizeof(r->value[1])) ||
	    r->nr != (insn < 0 ? 1u : 2u)) {
		printf("PERF read(group): %s\n", strerror(errno));
		if (insn >= 0)
			close(insn);
		close(lead);
		return EIO;
	}
	if (insn >= 0)
		close(insn);
	close(lead);
	return 0;
}

static void check_counts(bool user_only)
{
	const char *test = user_only ? "linux-count-user" : "linux-count-kernel";
	uint64_t want = 2 * iters, elapsed = 0, cyc, ins;
	struct group_read r;
	bool ok;
	int err = count_loop(user_only, &r, &elapsed);

	if (err) {
		result(test, "FAIL", "perf_event_open/read: %s", perf_why(err));
		return;
	}
	cyc = r.value[0];
	ins = r.value[1];
	printf("PERF %s: cycles %" PRIu64 " instructions %" PRIu64 " (loop: %" PRIu64
	       " instructions at EL0) elapsed %" PRIu64 " ns enabled %" PRIu64 " running %" PRIu64
	       "\n",
	       user_only ? "EL0" : "EL0+EL1", cyc, ins, want + 1, elapsed, r.time_enabled,
	       r.time_running);
	if (r.time_running != r.time_enabled || !r.time_running) {
		result(test, "FAIL",
		       "group not on the PMU the whole time (running %" PRIu64 " of %" PRIu64
		       " ns)",
		       r.time_running, r.time_enabled);
		return;
	}
	if (!cyc) {
		result(test, "FAIL", "no cycles counted");
		return;
	}
	if (icount) {
		/* -icount shift=0: one instruction per cycle. At EL0 only the loop runs between
		 * the enabling and disabling ioctls (their returns to EL0 add a few instructions);
		 * at EL0+EL1 the ioctls, timer ticks and exception entries add kernel work. */
		uint64_t slack = user_only ? 64 : want / 10 + 200000;

		ok = ins >= want && ins <= want + slack && cyc >= want && cyc <= ins + slack;
		result(test, verdict(ok),
		       "instructions %" PRIu64 " in [%" PRIu64 ", %" PRIu64 "], cycles %" PRIu64
		       " (-icount: one per instruction)",
		       ins, want, want + slack, cyc);
		return;
	}
	/* Without -icount QEMU 7.2 counts no INST_RETIRED; its cycle counter runs on the virtual
	 * clock (1 GHz), so cycles stay below the loop's elapsed nanoseconds (plus slack) and
	 * above a small fraction of them (the loop may share the pCPU with other guests). */
	ok = (ins == 0 || (ins >= want && ins <= want + want / 10 + 200000)) &&
	     cyc <= elapsed + elapsed / 4 + 100000 && cyc >= elapsed / 50;
	result(test, verdict(ok),
	       "cycles %" PRIu64 " for %" PRIu64 " ns elapsed, instructions %" PRIu64 "%s", cyc,
	       elapsed, ins, ins ? "" : " (no instructions event: QEMU without -icount)");
}

/* Read `len` bytes at offset `off` of the ring buffer's data area (records may wrap). */
static void ring_copy(const char *data, uint64_t size, uint64_t off, void *dst, size_t len)
{
	size_t first;

	off &= size - 1;
	first = len < size - off ? len : (size_t)(size - off);
	memcpy(dst, data + off, first);
	memcpy((char *)dst + first, data, len - first);
}

struct sample_stats {
	uint64_t samples, in_loop, lost, throttled, other, count;
};

/* Sampling: PERF_SAMPLE_IP | PERF_SAMPLE_TID records every `SAMPLE_PERIOD` events at EL0, through
 * the counter's overflow interrupt (the vPMU's virtual PPI) into the mmap ring buffer. */
static int sample_loop(uint64_t config, struct sample_stats *st)
{
	struct perf_event_attr a;
	size_t len = (size_t)(RING_PAGES + 1) * (size_t)page_size;
	struct perf_event_mmap_page *meta;
	uint64_t head, tail, size = (uint64_t)RING_PAGES * (uint64_t)page_size;
	const char *data;
	int fd;

	memset(st, 0, sizeof(*st));
	attr_init(&a, config, true);
	a.disabled = 1;
	a.sample_period = SAMPLE_PERIOD;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a.wakeup_events = 1000000; /* read once at the end, no wakeups needed */
	fd = perf_open(&a, -1);
	if (fd < 0) {
		int err = errno;

		printf("PERF perf_event_open(sampling): %s\n", strerror(err));
		return err;
	}
	meta = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		int err = errno;

		printf("PERF mmap: %s\n", strerror(err));
		close(fd);
		return err;
	}
	data = (const char *)meta + page_size;
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	vperf_loop(iters);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &st->count, sizeof(st->count)) != (ssize_t)sizeof(st->count))
		st->count = 0;
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	for (tail = meta->data_tail; tail + sizeof(struct perf_event_header) <= head;) {
		struct perf_event_header h;
		struct {
			uint64_t ip;
			uint32_t pid, tid;
		} s;

		ring_copy(data, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + sizeof(s)) {
			ring_copy(data, size, tail + sizeof(h), &s, sizeof(s));
			st->samples++;
			if (s.ip >= (uintptr_t)vperf_loop && s.ip < (uintptr_t)vperf_loop_end &&
			    s.pid == (uint32_t)getpid())
				st->in_loop++;
		} else if (h.type == PERF_RECORD_LOST) {
			st->lost++;
		} else if (h.type == PERF_RECORD_THROTTLE) {
			st->throttled++;
		} else {
			st->other++;
		}
		tail += h.size;
	}
	munmap(meta, len);
	close(fd);
	return 0;
}

static void check_sampling(const char *test, uint64_t config, const char *what)
{
	struct sample_stats st;
	uint64_t expect;
	int err = sample_loop(config, &st);
	bool ok;

	if (err == ENOENT && config == PERF_COUNT_HW_INSTRUCTIONS && !icount) {
		result(test, "SKIP",
		       "no instructions event: INST_RETIRED not implemented "
		       "(QEMU without -icount)");
		return;
	}
	if (err) {
		result(test, "FAIL", "perf_event_open/mmap: %s", perf_why(err));
		return;
	}
	expect = st.count / SAMPLE_PERIOD;
	printf("PERF sampling %s at EL0, period %u: %" PRIu64 " events counted, %" PRIu64
	       " samples (%" PRIu64 " in the loop), lost %" PRIu64 " throttled %" PRIu64
	       " other records %" PRIu64 "\n",
	       what, SAMPLE_PERIOD, st.count, st.samples, st.in_loop, st.lost, st.throttled,
	       st.other);
	/* One sample per period elapsed, each in the loop. An overflow taken late still lands in
	 * the loop and Linux carries its overshoot into the next period. Without -icount the
	 * cycle counter follows the host's clock: whenever the host deschedules QEMU for more
	 * than a period the overshoot exceeds it and a sample is lost, and the last overflow may
	 * be taken after the loop (measured on bare QEMU beside two busy host threads: 29 to 37
	 * samples of 84 to 124, one outside the loop). There, only most samples in the loop are
	 * required. Throttling would mean an interrupt storm. */
	if (icount)
		ok = expect >= 10 && st.samples + expect / 10 + 1 >= expect &&
		     st.in_loop == st.samples;
	else
		ok = st.samples >= 3 && st.in_loop * 4 >= st.samples * 3;
	ok = ok && st.samples <= expect + 1 && !st.lost && !st.throttled;
	result(test, verdict(ok),
	       "%" PRIu64 " samples for %" PRIu64 " %s / period %u, %" PRIu64
	       " in the loop, lost %" PRIu64 ", throttled %" PRIu64,
	       st.samples, st.count, what, SAMPLE_PERIOD, st.in_loop, st.lost, st.throttled);
}

/* Output goes to the console Linux opened for init. Where the console's driver could not start
 * (Linux's PL011 driver without an interrupt: the open succeeds for root, every write fails with
 * EIO), it goes to the kernel log instead, which the console prints; /proc is mounted then only
 * to lift the rate limit on /dev/kmsg writers (ten lines per five seconds). */
static void setup_output(void)
{
	if (write(1, "\n", 1) != 1) {
		int fd = open("/dev/kmsg", O_WRONLY);

		if (!mount("proc", "/proc", "proc", 0, NULL)) {
			int ctl = open("/proc/sys/kernel/printk_devkmsg", O_WRONLY);

			if (ctl >= 0) {
				if (write(ctl, "on\n", 3) != 3)
					perror("printk_devkmsg");
				close(ctl);
			}
		}
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/* Linux lowers kernel.perf_event_max_sample_rate whenever a sampling interrupt takes longer
 * than its share of CPU time (perf_cpu_time_max_percent), measured on the guest's clock. Under
 * QEMU without -icount that clock is the host's, so a host busy with other work makes the
 * handler look slow ("perf: interrupt took too long (10364 > 2500), lowering
 * kernel.perf_event_max_sample_rate to 19250" in an idle machine's runs; lower beside a busy
 * host), Linux throttles, and a correct vPMU fails the "no throttling" check. 0 turns that
 * measurement off, and the rate goes back to Linux's default. The check still fails on an
 * interrupt storm: the per-tick limit (the rate over HZ) stays. */
static void write_sysctl(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, value, strlen(value)) != (ssize_t)strlen(value))
		printf("PERF %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void keep_sample_rate(void)
{
	if (access("/proc/sys/kernel", F_OK) && mount("proc", "/proc", "proc", 0, NULL))
		printf("PERF mount /proc: %s\n", strerror(errno));
	/* In this order: Linux refuses a rate once the measurement is off. */
	write_sysctl("/proc/sys/kernel/perf_event_max_sample_rate", "100000\n");
	write_sysctl("/proc/sys/kernel/perf_cpu_time_max_percent", "0\n");
}

int main(void)
{
	const char *s;

	setup_output();
	page_size = sysconf(_SC_PAGESIZE);
	icount = (s = getenv("icount")) && atoi(s);
	if ((s = getenv("iters")))
		iters = strtoull(s, NULL, 0);
	printf("vperf-linux-init: pid %d, loop of %" PRIu64 " iterations, icount %d\n", getpid(),
	       iters, icount);
	check_probe();
	check_counts(true);
	check_counts(false);
	keep_sample_rate();
	check_sampling("linux-sample-cycles", PERF_COUNT_HW_CPU_CYCLES, "cycles");
	check_sampling("linux-sample-insns", PERF_COUNT_HW_INSTRUCTIONS, "instructions");
	printf("SUITE DONE passed=%u failed=%u\n", passed, failed);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
