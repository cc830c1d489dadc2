// SPDX-License-Identifier: MIT
/*
 * The rest of a hypervisor around the README's integration skeleton, so that `make docs-snippets`
 * can link it (aarch64, -nostdlib) against libvperf.a and, with CONFIG_VPERF_FDT, libfdt: every
 * function the skeleton declares as the hypervisor's own, the C library functions libvperf.a and
 * Debian's libfdt.a call (a hypervisor has its own), and an entry point making the skeleton's
 * calls in a hypervisor's order. Never run: an undefined symbol is what it catches.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct my_vm;
struct my_vcpu;

/* The skeleton's functions (README.md, "Using it from a hypervisor"). */
int my_boot(void);
int my_cpu_on(void);
int my_create_vm(struct my_vm *vm, void *guest_fdt);
void my_switch(struct my_vcpu *prev, struct my_vcpu *next);
void my_trap_sysreg(struct my_vcpu *v, uint64_t esr);
void my_irq(uint32_t intid, uint32_t pmu_irq, uint32_t spe_irq);

/* The hypervisor's own functions the skeleton declares. */
unsigned int my_cpu_id(void);
void my_inject_undef(void *vcpu);
void my_set_irq_line(void *vcpu, uint32_t intid, bool level);
void my_write_mdcr_el2(uint64_t value);
uint64_t my_read_id_aa64dfr0_el1(void);
void my_host_spe_irq(void);
void my_eoi(uint32_t intid);

unsigned int my_cpu_id(void)
{
	return 0;
}
void my_inject_undef(void *vcpu)
{
	(void)vcpu;
}
void my_set_irq_line(void *vcpu, uint32_t intid, bool level)
{
	(void)vcpu;
	(void)intid;
	(void)level;
}
void my_write_mdcr_el2(uint64_t value)
{
	(void)value;
}
uint64_t my_read_id_aa64dfr0_el1(void)
{
	return 0;
}
void my_host_spe_irq(void)
{
}
void my_eoi(uint32_t intid)
{
	(void)intid;
}

/* The C library functions the objects linked may call (GCC's four, and libfdt's). */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
unsigned long strtoul(const char *s, char **end, int base);
void __stack_chk_fail(void);
extern uintptr_t __stack_chk_guard;

void *memcpy(void *dst, const void *src, size_t n)
{
	return memmove(dst, src, n);
}
void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s)
		while (n--)
			*d++ = *s++;
	else
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
void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)(uintptr_t)p;
	return NULL;
}
size_t strlen(const char *s)
{
	return strnlen(s, (size_t)-1);
}
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
unsigned long strtoul(const char *s, char **end, int base)
{
	unsigned long v = 0;

	(void)base; /* libfdt parses decimal unit addresses only */
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (unsigned long)(*s++ - '0');
	if (end)
		*end = (char *)(uintptr_t)s;
	return v;
}
uintptr_t __stack_chk_guard = 0x5a5a5a5a;
void __stack_chk_fail(void)
{
	for (;;)
		;
}

/* The calls in a hypervisor's order: boot, a VM, a switch, a trap, an interrupt. */
void _start(void);
void _start(void)
{
	if (my_boot() == 0 && my_create_vm(NULL, NULL) == 0) {
		my_switch(NULL, NULL);
		my_trap_sysreg(NULL, 0);
		my_irq(23, 23, 21);
	}
	for (;;)
		;
}
