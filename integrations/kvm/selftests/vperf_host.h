/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a test of ours reads of the host it runs in: its command line (the
 * kernel's kvm-arm.vperf_* parameters it booted with) and its kernel log
 * (what KVM says of each vCPU at its destroy, through /dev/kmsg).
 */
#ifndef VPERF_HOST_H
#define VPERF_HOST_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <test_util.h>

static char vperf_cmdline[4096];

/* /proc/cmdline, once */
static inline void vperf_cmdline_read(void)
{
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t len;

	TEST_ASSERT(fd >= 0, "no /proc/cmdline");
	len = read(fd, vperf_cmdline, sizeof(vperf_cmdline) - 1);
	TEST_ASSERT(len > 0, "empty /proc/cmdline");
	vperf_cmdline[len] = 0;
	close(fd);
}

/* word, whole, is on the command line */
static inline bool vperf_cmdline_has(const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(vperf_cmdline, word); p; p = strstr(p + 1, word))
		if ((p == vperf_cmdline || p[-1] == ' ') && strchr(" \n", p[n]))
			return true;
	return false;
}

/* item is in the comma-separated value of key= on the command line */
static inline bool vperf_cmdline_lists(const char *key, const char *item)
{
	const char *p = strstr(vperf_cmdline, key);
	char list[64], *tok, *save;
	size_t n;

	if (!p)
		return false;
	p += strlen(key);
	n = strcspn(p, " \n");
	n = n < sizeof(list) ? n : sizeof(list) - 1;
	memcpy(list, p, n);
	list[n] = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, item))
			return true;
	return false;
}

/* The host's log from now on: /dev/kmsg at its end */
static inline int vperf_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	TEST_ASSERT(fd >= 0, "no /dev/kmsg");
	lseek(fd, 0, SEEK_END);
	return fd;
}

/* Each record of the host's log since vperf_kmsg_open() to fn, then closed */
static inline void vperf_kmsg_each(int fd, void (*fn)(const char *rec, void *arg), void *arg)
{
	char rec[2048];
	ssize_t len;

	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue; /* records lost to a wrap: read on */
		if (len <= 0)
			break;
		rec[len] = 0;
		fn(rec, arg);
	}
	close(fd);
}

#endif /* VPERF_HOST_H */
