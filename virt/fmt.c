// SPDX-License-Identifier: MIT
/*
 * A bounded string builder for log lines: virt/ has no libc, hence no snprintf. Output is always
 * NUL-terminated and silently truncated at the buffer's end.
 */
#include "fmt.h"

void vperf_fmt_init(struct fmt *f, char *buf, size_t cap)
{
	f->buf = buf;
	f->cap = cap;
	f->len = 0;
	if (cap)
		buf[0] = '\0';
}

static void put(struct fmt *f, char c)
{
	if (f->len + 1 >= f->cap)
		return;
	f->buf[f->len++] = c;
	f->buf[f->len] = '\0';
}

void vperf_fmt_str(struct fmt *f, const char *s)
{
	while (*s)
		put(f, *s++);
}

void vperf_fmt_dec(struct fmt *f, uint64_t v)
{
	char digits[20];
	unsigned int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		put(f, digits[--n]);
}

/* Hexadecimal with "0x" and at least min_digits digits. */
void vperf_fmt_hex(struct fmt *f, uint64_t v, unsigned int min_digits)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int n = 16;

	while (n > 1 && n > min_digits && !(v >> ((n - 1) * 4)))
		n--;
	vperf_fmt_str(f, "0x");
	while (n--)
		put(f, hex[(v >> (n * 4)) & 0xf]);
}
