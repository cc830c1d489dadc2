// SPDX-License-Identifier: MIT
/* A small vsnprintf (%d %u %x %s %c %p, l/ll/z, width, zero padding) and the console on top. */
#include "arm.h"
#include "lib.h"

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_num(struct out *o, uint64_t v, unsigned int base, int width, char pad, bool neg)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		tmp[n++] = '-';
	while (width-- > n)
		put(o, pad);
	while (n)
		put(o, tmp[--n]);
}

static uint64_t get_arg(va_list *ap, int lng, bool sgn, bool *neg)
{
	int64_t s;

	*neg = false;
	if (!sgn)
		return lng ? va_arg(*ap, uint64_t) : va_arg(*ap, unsigned int);
	s = lng ? va_arg(*ap, int64_t) : va_arg(*ap, int);
	if (s < 0) {
		*neg = true;
		return (uint64_t)0 - (uint64_t)s;
	}
	return (uint64_t)s;
}

static const char *conv(struct out *o, const char *f, va_list *ap)
{
	char pad = ' ';
	int width = 0, lng = 0;
	bool neg;
	const char *s;

	if (*f == '0')
		pad = '0';
	while (*f >= '0' && *f <= '9')
		width = width * 10 + (*f++ - '0');
	while (*f == 'l' || *f == 'z')
		lng++, f++;
	switch (*f) {
	case 'd':
	case 'i': {
		uint64_t v = get_arg(ap, lng, true, &neg);

		put_num(o, v, 10, width, pad, neg);
		break;
	}
	case 'u':
		put_num(o, get_arg(ap, lng, false, &neg), 10, width, pad, false);
		break;
	case 'x':
		put_num(o, get_arg(ap, lng, false, &neg), 16, width, pad, false);
		break;
	case 'p':
		put(o, '0');
		put(o, 'x');
		put_num(o, (uint64_t)(uintptr_t)va_arg(*ap, void *), 16, width, pad, false);
		break;
	case 'c':
		put(o, (char)va_arg(*ap, int));
		break;
	case 's':
		for (s = va_arg(*ap, const char *); s && *s; s++)
			put(o, *s);
		break;
	case '%':
		put(o, '%');
		break;
	default:
		return f;
	}
	return f + 1;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	va_list aq;

	va_copy(aq, ap);
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt = conv(&o, fmt + 1, &aq);
	}
	va_end(aq);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int printf(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* A line cut short still ends its line, so the next one is not glued to it. */
	if (n >= (int)sizeof(buf) && fmt[0] && fmt[strlen(fmt) - 1] == '\n')
		buf[sizeof(buf) - 2] = '\n';
	uart_puts(buf);
	return n;
}

uint64_t parse_u64(const char *s, const char **end)
{
	uint64_t v = 0;
	unsigned int base = 10;

	if (s[0] == '0' && s[1] == 'x') {
		base = 16;
		s += 2;
	}
	for (;; s++) {
		unsigned int d = *s >= '0' && *s <= '9'	  ? (unsigned int)(*s - '0')
				 : *s >= 'a' && *s <= 'f' ? (unsigned int)(*s - 'a' + 10)
							  : 99;

		if (d >= base)
			break;
		v = v * base + d;
	}
	if (end)
		*end = s;
	return v;
}
