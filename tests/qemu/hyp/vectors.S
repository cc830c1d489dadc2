/* SPDX-License-Identifier: MIT */
/*
 * EL2 exception vectors (Arm ARM D1.3.3: VBAR_EL2 + 0x000 current EL SP0, 0x200 current EL SPx,
 * 0x400 lower EL AArch64, 0x600 lower EL AArch32; sync/IRQ/FIQ/SError 0x80 apart).
 *
 * A guest's x0-x30, ELR_EL2 and SPSR_EL2 are stored straight into its struct vcpu_regs, found
 * through TPIDR_EL2, so a trap costs no copy. hyp_trap() returns the regs of the vCPU to enter,
 * which is another one after a switch.
 */
#include "asm.h"

.macro ventry label
	.balign	0x80
	b	\label
.endm

	.section .text.vectors, "ax"
	.balign	0x800
	.globl	hyp_vectors
hyp_vectors:
	ventry	hyp_bad		/* current EL, SP_EL0 */
	ventry	hyp_bad
	ventry	hyp_bad
	ventry	hyp_bad
	ventry	hyp_self_sync	/* current EL, SP_ELx: a hypervisor bug */
	ventry	hyp_bad
	ventry	hyp_bad
	ventry	hyp_bad
	ventry	guest_sync	/* lower EL, AArch64 */
	ventry	guest_irq
	ventry	guest_fiq
	ventry	guest_serr
	ventry	hyp_bad		/* lower EL, AArch32: never enabled (HCR_EL2.RW = 1) */
	ventry	hyp_bad
	ventry	hyp_bad
	ventry	hyp_bad

.macro save_guest kind
	stp	x0, x1, [sp, #-16]!
	mrs	x0, tpidr_el2
	stp	x2, x3, [x0, #16]
	stp	x4, x5, [x0, #32]
	stp	x6, x7, [x0, #48]
	stp	x8, x9, [x0, #64]
	stp	x10, x11, [x0, #80]
	stp	x12, x13, [x0, #96]
	stp	x14, x15, [x0, #112]
	stp	x16, x17, [x0, #128]
	stp	x18, x19, [x0, #144]
	stp	x20, x21, [x0, #160]
	stp	x22, x23, [x0, #176]
	stp	x24, x25, [x0, #192]
	stp	x26, x27, [x0, #208]
	stp	x28, x29, [x0, #224]
	ldp	x2, x3, [sp], #16
	stp	x2, x3, [x0, #0]
	mrs	x2, elr_el2
	mrs	x3, spsr_el2
	stp	x30, x2, [x0, #240]
	str	x3, [x0, #REGS_SPSR]
	mov	x1, #\kind
	bl	hyp_trap
	b	guest_enter
.endm

guest_sync:
	save_guest TRAP_SYNC
guest_irq:
	save_guest TRAP_IRQ
guest_fiq:
	save_guest TRAP_FIQ
guest_serr:
	save_guest TRAP_SERR

/* guest_enter(regs): load a vCPU's GPRs, ELR and SPSR and ERET into it. */
	.globl	guest_enter
guest_enter:
	msr	tpidr_el2, x0
	ldp	x30, x2, [x0, #240]
	ldr	x3, [x0, #REGS_SPSR]
	msr	elr_el2, x2
	msr	spsr_el2, x3
	ldp	x2, x3, [x0, #16]
	ldp	x4, x5, [x0, #32]
	ldp	x6, x7, [x0, #48]
	ldp	x8, x9, [x0, #64]
	ldp	x10, x11, [x0, #80]
	ldp	x12, x13, [x0, #96]
	ldp	x14, x15, [x0, #112]
	ldp	x16, x17, [x0, #128]
	ldp	x18, x19, [x0, #144]
	ldp	x20, x21, [x0, #160]
	ldp	x22, x23, [x0, #176]
	ldp	x24, x25, [x0, #192]
	ldp	x26, x27, [x0, #208]
	ldp	x28, x29, [x0, #224]
	ldp	x0, x1, [x0, #0]
	eret
	dsb	nsh
	isb

hyp_self_sync:
	mov	x0, #0
	b	hyp_panic_exception
hyp_bad:
	mov	x0, #1
	b	hyp_panic_exception

/* fpsimd_save(struct fpsimd *) / fpsimd_restore(): V0-V31, FPSR, FPCR of the running vCPU. The
 * hypervisor's own C code never touches them (-mgeneral-regs-only). */
	.globl	fpsimd_save
fpsimd_save:
	stp	q0, q1, [x0, #0]
	stp	q2, q3, [x0, #32]
	stp	q4, q5, [x0, #64]
	stp	q6, q7, [x0, #96]
	stp	q8, q9, [x0, #128]
	stp	q10, q11, [x0, #160]
	stp	q12, q13, [x0, #192]
	stp	q14, q15, [x0, #224]
	stp	q16, q17, [x0, #256]
	stp	q18, q19, [x0, #288]
	stp	q20, q21, [x0, #320]
	stp	q22, q23, [x0, #352]
	stp	q24, q25, [x0, #384]
	stp	q26, q27, [x0, #416]
	stp	q28, q29, [x0, #448]
	stp	q30, q31, [x0, #480]
	mrs	x1, fpsr
	mrs	x2, fpcr
	add	x0, x0, #512
	stp	x1, x2, [x0]
	ret

	.globl	fpsimd_restore
fpsimd_restore:
	ldp	q0, q1, [x0, #0]
	ldp	q2, q3, [x0, #32]
	ldp	q4, q5, [x0, #64]
	ldp	q6, q7, [x0, #96]
	ldp	q8, q9, [x0, #128]
	ldp	q10, q11, [x0, #160]
	ldp	q12, q13, [x0, #192]
	ldp	q14, q15, [x0, #224]
	ldp	q16, q17, [x0, #256]
	ldp	q18, q19, [x0, #288]
	ldp	q20, q21, [x0, #320]
	ldp	q22, q23, [x0, #352]
	ldp	q24, q25, [x0, #384]
	ldp	q26, q27, [x0, #416]
	ldp	q28, q29, [x0, #448]
	ldp	q30, q31, [x0, #480]
	add	x0, x0, #512
	ldp	x1, x2, [x0]
	msr	fpsr, x1
	msr	fpcr, x2
	ret
