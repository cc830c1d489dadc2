/* SPDX-License-Identifier: MIT */
/* System register access and barriers for the QEMU hypervisor and guest payloads (EL2 and EL1
 * code built freestanding). Names are passed to the assembler as written. */
#ifndef QEMU_ARM_H
#define QEMU_ARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define read_sysreg(r)                                       \
	({                                                   \
		uint64_t v__;                                \
		__asm__ volatile("mrs %0, " #r : "=r"(v__)); \
		v__;                                         \
	})
#define write_sysreg(v, r) __asm__ volatile("msr " #r ", %0" : : "r"((uint64_t)(v)) : "memory")

#define isb()	  __asm__ volatile("isb" : : : "memory")
#define dsb(opt)  __asm__ volatile("dsb " #opt : : : "memory")
#define wfi()	  __asm__ volatile("wfi" : : : "memory")
#define barrier() __asm__ volatile("" : : : "memory")

#define BIT(n)		 (1ull << (n))
#define ARRAY_SIZE(a)	 (sizeof(a) / sizeof((a)[0]))
#define FIELD(v, hi, lo) (((v) >> (lo)) & ((1ull << ((hi) - (lo) + 1)) - 1))

/* MMIO with a plain base-register addressing mode, as Linux's __raw_readl() does: the compiler
 * may otherwise pick a writeback or pair form, whose data abort has no syndrome (ESR_EL2.ISV =
 * 0) and cannot be emulated by a hypervisor. */
static inline uint32_t mmio_read32(uint64_t addr)
{
	uint32_t v;

	__asm__ volatile("ldr %w0, [%1]" : "=r"(v) : "r"(addr) : "memory");
	dsb(ld);
	return v;
}

static inline void mmio_write32(uint64_t addr, uint32_t v)
{
	dsb(st);
	__asm__ volatile("str %w0, [%1]" : : "rZ"(v), "r"(addr) : "memory");
}

static inline uint64_t mmio_read64(uint64_t addr)
{
	uint64_t v;

	__asm__ volatile("ldr %0, [%1]" : "=r"(v) : "r"(addr) : "memory");
	dsb(ld);
	return v;
}

static inline void irq_enable(void)
{
	__asm__ volatile("msr daifclr, #2" : : : "memory");
}

static inline void irq_disable(void)
{
	__asm__ volatile("msr daifset, #2" : : : "memory");
}

#endif /* QEMU_ARM_H */
