// SPDX-License-Identifier: MIT
/*
 * hostperf spe, spe-toggle and spe-task (hostperf.c says what each judges): SPE sessions of the
 * host's, on every CPU or on QEMU's threads, while vperf's guests with SPE of their own use the
 * same Profiling Buffer registers.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "hostperf.h"

#define AUX_PAGES  16	 /* each SPE event's AUX area */
#define SPE_PERIOD 65536 /* operations between two samples */
#define SPIN_MS	   300
#define TOGGLE_US  1000 /* spe-toggle: each event off and on again this often */
#define MAX_TASKS  32	/* spe-task: QEMU threads followed */

struct spe_session {
	int fd;
	struct perf_event_mmap_page *page;
	uint64_t bytes;	  /* AUX bytes the session wrote while the guests ran */
	uint64_t largest; /* the largest of those hand-overs */
	uint64_t toggles; /* spe-toggle: disabled and enabled again while the guests ran */
};

static int spe_open(struct spe_session *s, int type, pid_t pid, int cpu, long pagesz)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (uint32_t)type;
	attr.sample_period = SPE_PERIOD;
	attr.pinned = 1;
	attr.disabled = 1; /* enabled once its AUX area exists, or it stops at once */
	s->fd = perf_open(&attr, pid, cpu);
	if (s->fd < 0)
		return -1;
	s->page = mmap(NULL, (size_t)(RING_PAGES + 1) * (size_t)pagesz, PROT_READ | PROT_WRITE,
		       MAP_SHARED, s->fd, 0);
	if (s->page == MAP_FAILED)
		return -1;
	s->page->aux_offset = (uint64_t)(RING_PAGES + 1) * (uint64_t)pagesz;
	s->page->aux_size = (uint64_t)AUX_PAGES * (uint64_t)pagesz;
	/* Read and write: the AUX area is consumed (aux_tail), not overwritten. */
	if (mmap(NULL, s->page->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		 (off_t)s->page->aux_offset) == MAP_FAILED)
		return -1;
	return ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0);
}

/* Everything the driver handed over is consumed: it may fill the area again. */
static uint64_t spe_consume(struct spe_session *s)
{
	uint64_t head = __atomic_load_n(&s->page->aux_head, __ATOMIC_ACQUIRE);
	uint64_t handed = head - s->page->aux_tail;

	s->bytes += handed;
	if (handed > s->largest)
		s->largest = handed;
	__atomic_store_n(&s->page->aux_tail, head, __ATOMIC_RELEASE);
	return head;
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* Runs on cpu for SPIN_MS, then disables its event, which hands over what it wrote. */
static uint64_t spe_spin(struct spe_session *s, int cpu)
{
	cpu_set_t set;
	uint64_t head, end;
	volatile uint64_t x = 0;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	head = spe_consume(s);
	for (end = now_ms() + SPIN_MS; now_ms() < end;)
		x += x * 3 + 1;
	ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
	return __atomic_load_n(&s->page->aux_head, __ATOMIC_ACQUIRE) - head;
}

/* arm_spe_0's perf type, or -1 (said) */
static int spe_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/arm_spe_0/type", "r");
	int type = -1;

	if (!f || fscanf(f, "%d", &type) != 1)
		printf("hostperf: no arm_spe_0 in the host\nhostperf: FAIL\n");
	if (f)
		fclose(f);
	return type;
}

/* spe-toggle: the event off and on again, which the driver does on its CPU (perf's IPI). */
static void spe_toggle(struct spe_session *s)
{
	if (!ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0) && !ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0))
		s->toggles++;
}

int spe_mode(int toggle)
{
	struct spe_session s[MAX_CPUS];
	long pagesz = sysconf(_SC_PAGESIZE);
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), type = spe_type(), ok = 1;

	if (type < 0)
		return 1;
	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	for (int c = 0; c < ncpu; c++) {
		memset(&s[c], 0, sizeof(s[c]));
		if (spe_open(&s[c], type, -1, c, pagesz)) {
			printf("hostperf: arm_spe_0 on cpu %d: %s\nhostperf: FAIL\n", c,
			       strerror(errno));
			return 1;
		}
	}
	while (!stop) {
		usleep(toggle ? TOGGLE_US : 20000);
		for (int c = 0; c < ncpu; c++) {
			if (toggle)
				spe_toggle(&s[c]);
			spe_consume(&s[c]);
		}
	}
	for (int c = 0; c < ncpu; c++) {
		uint64_t after = spe_spin(&s[c], c), area = (uint64_t)AUX_PAGES * (uint64_t)pagesz;

		printf("hostperf: cpu %d: SPE %llu bytes while the guests ran (at most %llu at "
		       "once, %llu toggles), %llu in %d ms after\n",
		       c, (unsigned long long)s[c].bytes, (unsigned long long)s[c].largest,
		       (unsigned long long)s[c].toggles, (unsigned long long)after, SPIN_MS);
		/* More than the area holds: the driver read a pointer that is not its own */
		ok &= s[c].largest <= area && after > 0 && after <= area;
		ok &= !toggle || s[c].toggles > 0;
	}
	printf("hostperf: %s\n", ok ? "PASS" : "FAIL");
	return !ok;
}

/* spe-task: the threads followed so far */
struct spe_tasks {
	struct spe_session s[MAX_TASKS];
	pid_t tid[MAX_TASKS];
	int n;
};

static int spe_followed(const struct spe_tasks *t, pid_t tid)
{
	for (int i = 0; i < t->n; i++)
		if (t->tid[i] == tid)
			return 1;
	return 0;
}

/* A session on each thread of process pid not followed yet (one that exits meanwhile is not). */
static void spe_follow_threads(struct spe_tasks *t, int pid, int type, long pagesz)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	while (d && (e = readdir(d)) && t->n < MAX_TASKS) {
		pid_t tid = (pid_t)atoi(e->d_name);

		if (tid <= 0 || spe_followed(t, tid))
			continue;
		memset(&t->s[t->n], 0, sizeof(t->s[t->n]));
		if (spe_open(&t->s[t->n], type, tid, -1, pagesz))
			continue;
		t->tid[t->n++] = tid;
	}
	if (d)
		closedir(d);
}

/* Every qemu-system-aarch64 process's threads, its vCPU threads among them. */
static void spe_follow_qemu(struct spe_tasks *t, int type, long pagesz)
{
	struct dirent *e;
	DIR *d = opendir("/proc");
	char path[64], comm[32];

	while (d && (e = readdir(d))) {
		int pid = atoi(e->d_name);
		FILE *f;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "qemu-system-aar", 15))
			spe_follow_threads(t, pid, type, pagesz);
		fclose(f);
	}
	if (d)
		closedir(d);
}

int spe_task_mode(void)
{
	static struct spe_tasks t;
	long pagesz = sysconf(_SC_PAGESIZE);
	uint64_t area = (uint64_t)AUX_PAGES * (uint64_t)pagesz, bytes = 0, largest = 0;
	int type = spe_type(), ok;

	if (type < 0)
		return 1;
	while (!stop) {
		usleep(20000);
		spe_follow_qemu(&t, type, pagesz);
		for (int i = 0; i < t.n; i++)
			spe_consume(&t.s[i]);
	}
	for (int i = 0; i < t.n; i++) {
		spe_consume(&t.s[i]);
		bytes += t.s[i].bytes;
		if (t.s[i].largest > largest)
			largest = t.s[i].largest;
	}
	printf("hostperf: SPE on %d QEMU threads: %llu bytes (at most %llu at once)\n", t.n,
	       (unsigned long long)bytes, (unsigned long long)largest);
	/* More than the area holds: the driver read a pointer that is not its own */
	ok = t.n > 0 && bytes > 0 && largest <= area;
	printf("hostperf: %s\n", ok ? "PASS" : "FAIL");
	return !ok;
}
