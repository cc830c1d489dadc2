/* SPDX-License-Identifier: MIT */
/*
 * The UEFI application's way into the reference hypervisor (efi_main.c), and the hypervisor's
 * raw image it carries (vperf-hyp.bin, the same file the -kernel boot gives QEMU).
 *
 * efi_enter_hyp(entry, dtb): after ExitBootServices, at EL2 with the firmware's identity map
 * still on. The hypervisor's entry (hyp/head.S) expects what QEMU's loader gives it (Linux arm64
 * booting.rst): MMU off, D-cache off, x0 = the device tree. Interrupts masked; this code cleaned
 * to the Point of Coherency first, since once the MMU is off its fetches bypass the caches
 * (Arm DDI 0487 K.a, D8.2.10: with SCTLR_EL2.M = 0 instruction fetches are Normal, and
 * Non-cacheable with SCTLR_EL2.I = 0); the stale I-cache and EL2 TLB entries invalidated.
 */
	.section .text.efi_enter, "ax"
	.globl	efi_enter_hyp
	.type	efi_enter_hyp, %function
efi_enter_hyp:
	msr	daifset, #0xf
	mov	x19, x0
	mov	x20, x1
	mrs	x3, ctr_el0
	ubfx	x3, x3, #16, #4		/* DminLine: log2 of the line in words */
	mov	x4, #4
	lsl	x3, x4, x3
	adr	x1, mmu_off
	adr	x2, mmu_off_end
	sub	x4, x3, #1
	bic	x1, x1, x4
1:	dc	civac, x1
	add	x1, x1, x3
	cmp	x1, x2
	b.lo	1b
	dsb	sy
	isb
mmu_off:
	mrs	x0, sctlr_el2
	bic	x0, x0, #1		/* M */
	bic	x0, x0, #(1 << 2)	/* C */
	bic	x0, x0, #(1 << 12)	/* I */
	msr	sctlr_el2, x0
	isb
	ic	iallu
	tlbi	alle2
	dsb	sy
	isb
	mov	x0, x20
	mov	x1, xzr
	mov	x2, xzr
	mov	x3, xzr
	br	x19
mmu_off_end:
	.size	efi_enter_hyp, . - efi_enter_hyp

	.section .rodata.hyp_image, "a"
	.balign	4096
	.globl	hyp_image, hyp_image_end
hyp_image:
	.incbin	HYP_IMAGE
hyp_image_end:
	.section .note.GNU-stack, "", %progbits
