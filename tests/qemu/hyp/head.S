/* SPDX-License-Identifier: MIT */
/*
 * Entry of the reference hypervisor. QEMU (-M virt,virtualization=on) enters a raw image that
 * carries the Linux arm64 header at EL2 with the MMU off and x0 = the host DTB (Linux
 * Documentation/arch/arm64/booting.rst: header fields). We keep x0, take a stack,
 * clear .bss, build a one-level identity map and turn the EL2 MMU and caches on, then call C.
 */
#include "asm.h"
#include "../lib/boot.inc"

	.section .text.head, "ax"
	.globl _start
_start:
	b	entry			/* code0 */
	.long	0			/* code1 */
	.quad	0x80000			/* text_offset: loaded at RAM base + 0x80000 */
	.quad	_image_size		/* image_size, including .bss: QEMU puts the DTB after it */
	.quad	0xa			/* flags: little endian (bit 0 = 0), 4K pages, anywhere */
	.quad	0, 0, 0
	.ascii	"ARM\x64"		/* magic at offset 56 */
	.long	0

entry:
	mov	x19, x0
	mrs	x1, CurrentEL
	cmp	x1, #(2 << 2)
	b.ne	not_el2
	boot_stack_and_bss boot_stack_top
	bl	el2_mmu_setup
	adr	x1, hyp_vectors
	msr	vbar_el2, x1
	isb
	mov	x0, x19
	bl	hyp_main
not_el2:
	wfi
	b	not_el2

/*
 * A secondary pCPU, started by the boot CPU with PSCI CPU_ON (sched.c): at EL2, MMU off, x0 =
 * its index. It takes its own stack (pcpu_stacks[x0], C), turns on the boot CPU's identity map
 * and enters C.
 */
	.globl	secondary_entry
secondary_entry:
	mov	x19, x0
	adrp	x1, pcpu_stacks
	add	x1, x1, :lo12:pcpu_stacks
	add	x2, x0, #1
	mov	x3, #PCPU_STACK
	madd	x1, x2, x3, x1
	mov	sp, x1
	bl	el2_mmu_enable
	adr	x1, hyp_vectors
	msr	vbar_el2, x1
	isb
	mov	x0, x19
	bl	hyp_secondary_main
	b	not_el2

/*
 * Identity map of the first 4 GiB with 1 GiB level-1 blocks (4K granule, 39-bit VA, so the walk
 * starts at level 1; Arm ARM D8.2): [0, 1G) Device-nGnRnE (GIC, UART, ...), [1G, 4G) Normal
 * write-back RAM. MAIR_EL2 attr0 = 0x00 (Device-nGnRnE), attr1 = 0xff (Normal WB RW-allocate).
 */
el2_mmu_setup:
	adrp	x0, el2_pgd
	add	x0, x0, :lo12:el2_pgd
	ldr	x1, =(PTE_BLOCK | PTE_AF | PTE_XN | PTE_ATTR(0))
	str	x1, [x0]
	ldr	x2, =(PTE_BLOCK | PTE_AF | PTE_SH_INNER | PTE_ATTR(1))
	mov	x3, #1
3:	orr	x1, x2, x3, lsl #30
	str	x1, [x0, x3, lsl #3]
	add	x3, x3, #1
	cmp	x3, #4
	b.ne	3b
	dsb	ishst
el2_mmu_enable:
	adrp	x0, el2_pgd
	add	x0, x0, :lo12:el2_pgd
	ldr	x1, =0xff00
	msr	mair_el2, x1
	ldr	x1, =TCR_EL2_VALUE
	msr	tcr_el2, x1
	msr	ttbr0_el2, x0
	isb
	tlbi	alle2
	dsb	ish
	isb
	ldr	x1, =SCTLR_EL2_VALUE
	msr	sctlr_el2, x1
	isb
	ret

	.section .bss.pgd, "aw", %nobits
	.balign	4096
	.globl	el2_pgd
el2_pgd:
	.space	4096
	.balign	16
boot_stack:
	.space	16384
	.globl	boot_stack_top
boot_stack_top:
