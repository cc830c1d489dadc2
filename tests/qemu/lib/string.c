// SPDX-License-Identifier: MIT
/*
 * The string functions GCC's freestanding code generation and Debian's arm64 libfdt.a call
 * (aarch64-linux-gnu-nm -u libfdt.a: mem*, str*, strtoul), and the stack-protector symbols that
 * libfdt.a was built to use (-fstack-protector-strong). Byte loops: both the MMU-off boot paths
 * and device memory forbid unaligned or DC ZVA tricks, and speed does not matter here.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

void *memchr(const void *p, int c, size_t n)
{
	const unsigned char *s = p;

	for (; n; n--, s++)
		if (*s == (unsigned char)c)
			return (void *)(uintptr_t)s;
	return NULL;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max); /* POSIX: not declared under -std=c11 */
size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)(uintptr_t)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)(uintptr_t)last;
	}
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

static int digit(char c, int base)
{
	int d = c >= '0' && c <= '9'   ? c - '0'
		: c >= 'a' && c <= 'z' ? c - 'a' + 10
		: c >= 'A' && c <= 'Z' ? c - 'A' + 10
				       : 99;

	return d < base ? d : -1;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	unsigned long v = 0;
	int d;

	while (*s == ' ')
		s++;
	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	} else if (base == 0) {
		base = s[0] == '0' ? 8 : 10;
	}
	while ((d = digit(*s, base)) >= 0) {
		v = v * (unsigned long)base + (unsigned long)d;
		s++;
	}
	if (end)
		*end = (char *)(uintptr_t)s;
	return v;
}

/* libfdt.a was compiled with -fstack-protector-strong: give it a canary and a failure path. */
uintptr_t __stack_chk_guard = 0x595e9fbd94fda766ull;
void __stack_chk_fail(void) __attribute__((noreturn));
void __stack_chk_fail(void)
{
	for (;;)
		__asm__ volatile("wfi");
}
