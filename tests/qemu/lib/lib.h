/* SPDX-License-Identifier: MIT */
/* The few C library pieces the freestanding QEMU images use (and libfdt.a needs). */
#ifndef QEMU_LIB_H
#define QEMU_LIB_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h> /* declarations only: lib/string.c implements them */

/* Console: a PL011 data register polled for space (PL011 TRM: UARTFR.TXFF, bit 5). */
void uart_init(uint64_t base);
void uart_putc(char c);
void uart_puts(const char *s);

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Decimal or 0x-prefixed hexadecimal; *end after the digits. */
uint64_t parse_u64(const char *s, const char **end);

#endif /* QEMU_LIB_H */
