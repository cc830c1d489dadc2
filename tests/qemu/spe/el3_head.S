/* SPDX-License-Identifier: MIT */
/*
 * Entry of the FEAT_SPE EL3 check (nspb.c): firmware for QEMU virt with secure=on and
 * virtualization=on, started at EL3 from the secure flash (-bios) with every MMU off. It copies
 * itself to the RAM address it is linked for (guest.lds), where the Non-secure states can run it
 * too, and stays at EL3, from where lower_call() visits Non-secure or Secure EL2 and EL1.
 * Arm DDI 0487 K.a D1 (exception entry and return), C5.2.x (SCR_EL3, MDCR_EL3 are written by
 * nspb.c).
 */
#include "../lib/boot.inc"

	.section .text.head, "ax"
	.globl	_start
_start:
	/* Position independent until the branch: the flash runs it at address 0 */
	adr	x0, _start
	ldr	x1, =_text
	ldr	x2, =__bss_start
1:	ldr	x3, [x0], #8
	str	x3, [x1], #8
	cmp	x1, x2
	b.lo	1b
	dsb	sy
	ic	iallu
	dsb	sy
	isb
	ldr	x0, =el3_entry
	br	x0
	.ltorg

el3_entry:
	boot_stack_and_bss stack_top
	adr	x1, el3_vectors
	msr	vbar_el3, x1
	adr	x1, el2_vectors
	msr	vbar_el2, x1
	adr	x1, el1_vectors
	msr	vbar_el1, x1
	isb
	bl	nspb_main
	/* Semihosting SYS_EXIT (0x18) with ADP_Stopped_ApplicationExit and status x0: QEMU exits */
	adrp	x1, exit_block
	add	x1, x1, :lo12:exit_block
	str	x0, [x1, #8]
	mov	x0, #0x18
	hlt	#0xf000
2:	wfi
	b	2b

/*
 * lower_call(fn, spsr, scr): run fn in the Exception level and mode SPSR_EL3 = spsr names, with
 * SCR_EL3 = scr (NS, EEL2: the security state), on the stacks below; fn ends with "smc #0",
 * which returns here to the caller at EL3. Callee-saved registers survive; fn may use x0-x17.
 */
	.globl	lower_call
lower_call:
	stp	x29, x30, [sp, #-96]!
	stp	x19, x20, [sp, #16]
	stp	x21, x22, [sp, #32]
	stp	x23, x24, [sp, #48]
	stp	x25, x26, [sp, #64]
	stp	x27, x28, [sp, #80]
	msr	scr_el3, x2
	msr	spsr_el3, x1
	msr	elr_el3, x0
	adrp	x1, el2_stack_top
	add	x1, x1, :lo12:el2_stack_top
	msr	sp_el2, x1
	adrp	x1, el1_stack_top
	add	x1, x1, :lo12:el1_stack_top
	msr	sp_el1, x1
	isb
	eret
lower_call_return:
	ldp	x19, x20, [sp, #16]
	ldp	x21, x22, [sp, #32]
	ldp	x23, x24, [sp, #48]
	ldp	x25, x26, [sp, #64]
	ldp	x27, x28, [sp, #80]
	ldp	x29, x30, [sp], #96
	ret

/*
 * trap_log TRAPS, ESR, ELR: append ESR to the log TRAPS (struct trap_log in nspb.c: a count, then up
 * to 64 syndromes) and skip the trapped instruction (ELR += 4). Clobbers x0, x1, x2.
 */
.macro trap_log traps, esr, elr
	adrp	x1, \traps
	add	x1, x1, :lo12:\traps
	ldr	x2, [x1]
	add	x0, x2, #1
	str	x0, [x1]
	cmp	x2, #64
	b.hs	9001f
	add	x1, x1, x2, lsl #3
	mrs	x0, \esr
	str	x0, [x1, #8]
9001:	mrs	x0, \elr
	add	x0, x0, #4
	msr	\elr, x0
.endm

/* From a lower EL: "smc #0" ends lower_call; anything else (a trap, EC 0x18) is logged. */
el3_sync_lower:
	stp	x0, x1, [sp, #-32]!
	str	x2, [sp, #16]
	mrs	x0, esr_el3
	lsr	x1, x0, #26
	cmp	x1, #0x17		/* SMC from AArch64 */
	b.eq	1f
	trap_log el3_traps, esr_el3, elr_el3
	ldr	x2, [sp, #16]
	ldp	x0, x1, [sp], #32
	eret
1:	add	sp, sp, #32
	b	lower_call_return

/* A trap from EL1 to EL2 (MDCR_EL2.TPMS, E2PB) is logged and skipped. */
el2_sync_lower:
	stp	x0, x1, [sp, #-32]!
	str	x2, [sp, #16]
	trap_log el2_traps, esr_el2, elr_el2
	ldr	x2, [sp, #16]
	ldp	x0, x1, [sp], #32
	eret

/*
 * Anything else below EL3 (an UNDEFINED access at EL2 or EL1): kept in lower_unexpected_esr
 * (nspb.c reports it), then back to EL3 as if fn had ended.
 */
.macro lower_unexpected esr
	mrs	x0, \esr
	adrp	x1, lower_unexpected_esr
	str	x0, [x1, :lo12:lower_unexpected_esr]
	smc	#0
.endm
el2_unexpected:
	lower_unexpected esr_el2
el1_unexpected:
	lower_unexpected esr_el1

/* At EL3 itself: a bug of the test. Report, exit. */
el3_unexpected:
	mrs	x0, esr_el3
	mrs	x1, elr_el3
	bl	nspb_unexpected
	adrp	x1, exit_block
	add	x1, x1, :lo12:exit_block
	mov	x0, #1
	str	x0, [x1, #8]
	mov	x0, #0x18
	hlt	#0xf000
3:	wfi
	b	3b

	.balign	0x800
el3_vectors:
	.rept	8
	vent_branch	el3_unexpected		/* current EL */
	.endr
	vent_branch	el3_sync_lower		/* lower EL, AArch64 */
	.rept	7
	vent_branch	el3_unexpected
	.endr

	.balign	0x800
el2_vectors:
	.rept	8
	vent_branch	el2_unexpected
	.endr
	vent_branch	el2_sync_lower
	.rept	7
	vent_branch	el2_unexpected
	.endr

	.balign	0x800
el1_vectors:
	.rept	16
	vent_branch	el1_unexpected
	.endr

	.data
	.balign	8
exit_block:
	.quad	0x20026			/* ADP_Stopped_ApplicationExit */
	.quad	0			/* the exit status */

	.bss
	.balign	16
	.space	16384
stack_top:
	.space	4096
el2_stack_top:
	.space	4096
el1_stack_top:
