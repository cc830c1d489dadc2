/* SPDX-License-Identifier: MIT */
/*
 * Entry of the guest payloads: a Linux arm64 boot-protocol Image (header fields and entry
 * state: Linux Documentation/arch/arm64/booting.rst), so QEMU, the reference
 * hypervisor or any other hypervisor boots it unmodified. Entered with x0 = DTB, MMU off, at
 * EL1 (or EL2, which is left for EL1 at once with every PMU counter given to EL1).
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
	mov	x19, x0
	mrs	x1, CurrentEL
	cmp	x1, #(2 << 2)
	b.ne	el1_entry
	/* EL2 with no hypervisor wanted: EL1 AArch64 (HCR_EL2.RW), physical counter and timer
	 * open to EL1 (CNTHCTL_EL2), no FP/SVE traps, HPMN = N so EL1 owns every counter. */
	mov	x1, #(1 << 31)
	msr	hcr_el2, x1
	mov	x1, #3
	msr	cnthctl_el2, x1
	msr	cntvoff_el2, xzr
	mov	x1, #0x33ff
	msr	cptr_el2, x1
	mrs	x1, pmcr_el0
	ubfx	x1, x1, #11, #5
	msr	mdcr_el2, x1
	mov	x1, #0xf		/* ICC_SRE_EL2: SRE, DFB, DIB, Enable */
	msr	S3_4_C12_C9_5, x1
	mrs	x1, midr_el1
	msr	vpidr_el2, x1
	mrs	x1, mpidr_el1
	msr	vmpidr_el2, x1
	/* EL2 stays reachable by HVC for the EL2 probes (suite_el2.c, el2_vectors below). */
	adr	x1, el2_vectors
	msr	vbar_el2, x1
	adrp	x1, el2_stack_top
	add	x1, x1, :lo12:el2_stack_top
	mov	sp, x1
	msr	tpidr_el2, xzr
	adrp	x1, entered_el2
	mov	x2, #1
	str	x2, [x1, :lo12:entered_el2]
	mov	x1, #0x3c5
	msr	spsr_el2, x1
	adr	x1, el1_entry
	msr	elr_el2, x1
	mov	x0, x19
	isb
	eret

el1_entry:
	boot_stack_and_bss stack_top
	mov	x1, #(3 << 20)		/* CPACR_EL1.FPEN: libfdt.a may use SIMD */
	msr	cpacr_el1, x1
	adr	x1, el1_vectors
	msr	vbar_el1, x1
	isb
	bl	mmu_setup		/* C, MMU off: aligned accesses only (-mstrict-align) */
	adrp	x1, boot_ttbr0
	str	x0, [x1, :lo12:boot_ttbr0]
	bl	mmu_on
	mov	x0, x19
	bl	guest_main
3:	wfi
	b	3b

/* mmu_on(ttbr0): the identity map on with caches, on any CPU. Clobbers x1. */
mmu_on:
	msr	ttbr0_el1, x0
	ldr	x1, =0xff04		/* MAIR: attr0 Device-nGnRE, attr1 Normal WB */
	msr	mair_el1, x1
	/* TCR_EL1: T0SZ 25, IRGN0/ORGN0 WB, SH0 inner, TG0 4K, EPD1 (no TTBR1 walks), IPS 40 bit */
	ldr	x1, =((2 << 32) | (1 << 23) | (3 << 12) | (1 << 10) | (1 << 8) | 25)
	msr	tcr_el1, x1
	isb
	tlbi	vmalle1
	dsb	nsh
	isb
	/* SCTLR_EL1: RES1 bits, M, C, I, SPAN (no automatic PAN: EL1 never touches EL0 data). */
	ldr	x1, =(0x30d00800 | (1 << 0) | (1 << 2) | (1 << 12) | (1 << 23))
	msr	sctlr_el1, x1
	isb
	ret

/* A secondary CPU started by PSCI CPU_ON (smp.c) at EL1 with the MMU off and x0 = the top of its
 * stack: the boot CPU's vectors and page tables, then secondary_main(). */
	.globl	secondary_entry
secondary_entry:
	mov	sp, x0
	mov	x1, #(3 << 20)
	msr	cpacr_el1, x1
	adr	x1, el1_vectors
	msr	vbar_el1, x1
	isb
	adrp	x0, boot_ttbr0
	ldr	x0, [x0, :lo12:boot_ttbr0]
	bl	mmu_on
	bl	secondary_main
4:	wfi
	b	4b

/* Exceptions: x0-x30, ELR, SPSR, ESR into a struct frame on the EL1 stack; the C handler may
 * change ELR (to skip an instruction) before the return. */
.macro vent handler, kind
	.balign	0x80
	sub	sp, sp, #272
	stp	x0, x1, [sp, #0]
	mov	x1, #\kind
	b	\handler
.endm

	.balign	0x800
el1_vectors:
	vent	exc_common, 0		/* current EL, SP_EL0 */
	vent	exc_common, 1
	vent	exc_common, 2
	vent	exc_common, 3
	vent	exc_common, 0		/* current EL, SP_EL1 */
	vent	exc_common, 1
	vent	exc_common, 2
	vent	exc_common, 3
	vent	exc_common, 4		/* lower EL (EL0), AArch64 */
	vent	exc_common, 5
	vent	exc_common, 2
	vent	exc_common, 3
	vent	exc_common, 2
	vent	exc_common, 2
	vent	exc_common, 2
	vent	exc_common, 3

exc_common:
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	mrs	x2, elr_el1
	stp	x30, x2, [sp, #240]
	mrs	x2, spsr_el1
	mrs	x3, esr_el1
	stp	x2, x3, [sp, #256]
	mov	x0, sp
	bl	exc_handler
	ldp	x2, x3, [sp, #248]
	msr	elr_el1, x2
	msr	spsr_el1, x3
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x19, [sp, #144]
	ldp	x20, x21, [sp, #160]
	ldp	x22, x23, [sp, #176]
	ldp	x24, x25, [sp, #192]
	ldp	x26, x27, [sp, #208]
	ldp	x28, x29, [sp, #224]
	ldr	x30, [sp, #240]
	ldp	x0, x1, [sp, #0]
	add	sp, sp, #272
	eret

/*
 * uint64_t el0_call(uint64_t (*fn)(uint64_t), uint64_t arg): run fn(arg) at EL0 (with
 * interrupts masked) on the EL0 stack; fn returns into el0_exit, whose SVC comes back here
 * through exc_handler -> el0_return.
 */
	.globl	el0_call
el0_call:
	stp	x19, x20, [sp, #-96]!
	stp	x21, x22, [sp, #16]
	stp	x23, x24, [sp, #32]
	stp	x25, x26, [sp, #48]
	stp	x27, x28, [sp, #64]
	stp	x29, x30, [sp, #80]
	adrp	x2, el0_saved_sp
	mov	x3, sp
	str	x3, [x2, :lo12:el0_saved_sp]
	msr	elr_el1, x0
	mov	x0, x1
	adrp	x2, el0_stack_top
	add	x2, x2, :lo12:el0_stack_top
	msr	sp_el0, x2
	mov	x2, #0x3c0		/* EL0t, D A I F masked */
	msr	spsr_el1, x2
	adr	x30, el0_exit
	isb
	eret

	.globl	el0_exit
el0_exit:
	svc	#0

/* el0_return(value): called by the SVC handler on the EL1 stack; unwinds to el0_call's caller. */
	.globl	el0_return
el0_return:
	adrp	x2, el0_saved_sp
	ldr	x3, [x2, :lo12:el0_saved_sp]
	mov	sp, x3
	ldp	x21, x22, [sp, #16]
	ldp	x23, x24, [sp, #32]
	ldp	x25, x26, [sp, #48]
	ldp	x27, x28, [sp, #64]
	ldp	x29, x30, [sp, #80]
	ldp	x19, x20, [sp], #96
	ret

/*
 * EL2 of a payload entered there (bare-el2): a synchronous exception from EL1 is either an HVC
 * #0 calling one of the probes' helpers (x0 = function, x1, x2 = arguments, result in x0), or
 * an access MDCR_EL2 made trap, whose ESR_EL2 is kept in TPIDR_EL2 (function 1 reads it) and
 * which is skipped. Anything else stops the CPU. MMU off at EL2: the stack is its own.
 *   0: MDCR_EL2 = x1, returns the previous value
 *   1: returns the ESR of the last trapped access (0: none) and forgets it
 *   2: returns PMOVSSET_EL0, then PMOVSCLR_EL0 = x1 and PMOVSSET_EL0 = x2 (every counter)
 *   3: returns PMEVCNTR<x1>_EL0 read at EL2; 4: PMEVCNTR<x1>_EL0 = x2 at EL2 (via PMSELR_EL0)
 */
	.balign	0x800
el2_vectors:
	.rept	8
	.balign	0x80
	b	.
	.endr
	.balign	0x80
	b	el2_sync_lower		/* lower EL, AArch64, synchronous */
	.rept	7
	.balign	0x80
	b	.
	.endr

el2_sync_lower:
	stp	x2, x3, [sp, #-16]!
	mrs	x3, esr_el2
	lsr	x3, x3, #26
	cmp	x3, #0x16		/* HVC from AArch64 */
	b.eq	1f
	mrs	x3, esr_el2
	msr	tpidr_el2, x3
	mrs	x3, elr_el2
	add	x3, x3, #4
	msr	elr_el2, x3
	b	9f
1:	cmp	x0, #0
	b.ne	2f
	mrs	x0, mdcr_el2
	msr	mdcr_el2, x1
	b	9f
2:	cmp	x0, #1
	b.ne	3f
	mrs	x0, tpidr_el2
	msr	tpidr_el2, xzr
	b	9f
3:	cmp	x0, #2
	b.ne	4f
	mrs	x0, pmovsset_el0
	msr	pmovsclr_el0, x1
	msr	pmovsset_el0, x2
	b	9f
4:	msr	pmselr_el0, x1
	isb
	cmp	x0, #3
	b.ne	5f
	mrs	x0, pmxevcntr_el0
	b	9f
5:	msr	pmxevcntr_el0, x2
9:	isb
	ldp	x2, x3, [sp], #16
	eret

	.section .data
	.balign	8
	.globl	entered_el2
entered_el2:				/* 1: entered at EL2, el2_vectors answer HVC #0 */
	.quad	0

	.section .bss
	.balign	16
el2_stack:
	.space	256
el2_stack_top:
	.balign	16
el0_saved_sp:
	.quad	0
boot_ttbr0:
	.quad	0
	.balign	16
stack:
	.space	32768
stack_top:

	.section .el0stack, "aw", %nobits
	.balign	4096
el0_stack:
	.space	4096
	.globl	el0_stack_top
el0_stack_top:
