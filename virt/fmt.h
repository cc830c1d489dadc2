/* SPDX-License-Identifier: MIT */
/* A bounded string builder for log lines (fmt.c): freestanding, no printf. */
#ifndef VPERF_VIRT_FMT_H
#define VPERF_VIRT_FMT_H

#include <vperf/types.h>

struct fmt {
	char *buf;
	size_t len, cap;
};
void vperf_fmt_init(struct fmt *f, char *buf, size_t cap);
void vperf_fmt_str(struct fmt *f, const char *s);
void vperf_fmt_dec(struct fmt *f, uint64_t v);
void vperf_fmt_hex(struct fmt *f, uint64_t v, unsigned int min_digits);

#endif /* VPERF_VIRT_FMT_H */
