/* SPDX-License-Identifier: MIT */
/*
 * Entry of the FEAT_SPE smoke test (smoke.c): a Linux arm64 Image entered at EL2 (QEMU virt,
 * virtualization=on) with the MMU off. It stays at EL2, the owner of the Profiling Buffer
 * (MDCR_EL2.E2PB = 0b00), and visits EL1 only through call_el1() to see the EL2 traps.
 */
#include "../lib/boot.inc"

	.section .text.head, "ax"
	.globl	_start
_start:
	b	entry
	.long	0
	.quad	0x80000			/* text_offset */
	.quad	_image_size		/* image_size, .bss included */
	.quad	0xa			/* little endian, 4K pages, anywhere */
	.quad	0, 0, 0
	.ascii	"ARM\x64"
	.long	0

entry:
	boot_stack_and_bss stack_top
	adr	x1, el2_vectors
	msr	vbar_el2, x1
	mov	x1, #(1 << 31)		/* HCR_EL2.RW: EL1 is AArch64; no E2H, no TGE */
	msr	hcr_el2, x1
	mov	x1, #0x33ff		/* CPTR_EL2: no FP/SIMD trap */
	msr	cptr_el2, x1
	isb
	bl	smoke_main
	ldr	x0, =0x84000008		/* PSCI SYSTEM_OFF: QEMU exits */
	smc	#0
1:	wfi
	b	1b

/*
 * call_el1(fn): run fn at EL1h on its own stack with EL2's vectors catching its traps; fn ends
 * with "hvc #1", which returns here to the caller at EL2. Callee-saved registers survive.
 * call_el1_sampled(fn, pmscr_el2): the same, writing PMSCR_EL2 (S3_4_C9_C9_0) just before the
 * ERET: with sampling enabled there, the ISB and the ERET (call_el1_sampled_eret) are the first
 * two members of the sample population.
 * call_lower_sampled(fn, pmscr_el2, spsr): the same into the state spsr names, e.g. AArch32 EL0
 * (HCR_EL2.TGE = 1), whose code ends with "svc #0".
 */
	.globl	call_lower_sampled
call_lower_sampled:
	mov	x9, x1
	mov	x10, x2
	b	1f
	.globl	call_el1_sampled
call_el1_sampled:
	mov	x9, x1
	mov	x10, #0x3c5		/* EL1h, DAIF masked */
	b	1f
	.globl	call_el1
call_el1:
	mov	x9, xzr
	mov	x10, #0x3c5
1:	stp	x29, x30, [sp, #-96]!
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	adrp	x1, el1_stack_top
	add	x1, x1, :lo12:el1_stack_top
	msr	sp_el1, x1
	msr	elr_el2, x0
	msr	spsr_el2, x10
	isb
	cbz	x9, 2f
	msr	S3_4_C9_C9_0, x9
	isb
	.globl	call_el1_sampled_eret
call_el1_sampled_eret:
2:	eret
call_el1_return:
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #96
	ret

/* A synchronous exception from EL1: HVC #1 ends call_el1, and an SVC from AArch32 (EL0 under
 * HCR_EL2.TGE, taken at the vector of EL1's state, AArch64) call_lower_sampled, its ESR kept in
 * trap_esr; any other is counted in trap_count, its ESR kept in trap_esr, and the trapped
 * instruction skipped; after an Instruction Abort (a BLR to an unmapped address) execution goes
 * on at x30, after the BLR. */
el2_sync_lower:
	stp	x0, x1, [sp, #-16]!
	mrs	x0, esr_el2
	lsr	x1, x0, #26
	cmp	x1, #0x16		/* HVC from AArch64 */
	b.eq	2f
	cmp	x1, #0x11		/* SVC from AArch32 */
	b.ne	5f
	adrp	x1, trap_esr
	str	x0, [x1, :lo12:trap_esr]
	b	2f
5:	cmp	x1, #0x20		/* Instruction Abort from a lower EL */
	b.ne	4f
	sub	x1, x30, #4
	msr	elr_el2, x1
4:	adrp	x1, trap_esr
	str	x0, [x1, :lo12:trap_esr]
	adrp	x1, trap_count
	ldr	x0, [x1, :lo12:trap_count]
	add	x0, x0, #1
	str	x0, [x1, :lo12:trap_count]
	mrs	x0, elr_el2
	add	x0, x0, #4
	msr	elr_el2, x0
	ldp	x0, x1, [sp], #16
	eret
2:	add	sp, sp, #16
	b	call_el1_return

/* Anything else is a bug of the test: report and stop. */
el2_unexpected:
	mrs	x0, esr_el2
	mrs	x1, elr_el2
	bl	smoke_unexpected
3:	wfi
	b	3b

	.balign	0x800
el2_vectors:
	.rept	8
	vent_branch	el2_unexpected		/* current EL */
	.endr
	vent_branch	el2_sync_lower		/* lower EL, EL1 in AArch64 (EL0 in AArch32 too) */
	.rept	7
	vent_branch	el2_unexpected
	.endr

	.bss
	.balign	16
	.space	16384
stack_top:
	.space	4096
el1_stack_top:
