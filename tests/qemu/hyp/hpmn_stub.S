/* SPDX-License-Identifier: MIT */
/*
 * The EL1 half of the boot-time HPMN probe (hpmn_probe.c): a few instructions run at EL1 with
 * the MMU off, every value kept in registers (no memory is touched at EL1, so no cache
 * maintenance is needed), and an HVC back to EL2, which lands in a vector table of its own.
 *
 *   hpmn_probe_el1(out, sel): out = struct hpmn_probe_out (6 words), sel = the counter to reach
 *   through PMSELR_EL0/PMXEVCNTR_EL0. The caller set MDCR_EL2 (HPMN, TPM = 0), HCR_EL2 (RW only:
 *   no stage 2, interrupts to EL1, where PSTATE masks them) and SCTLR_EL1 (MMU off).
 *
 * At EL1 the stub writes all ones to PMCNTENSET_EL0, PMINTENSET_EL1 and PMOVSSET_EL0 and reads
 * each back, reads and writes the counter SEL selects, and reads PMCR_EL0. An UNDEFINED access
 * is taken at EL1 by the stub's own vectors, counted in x10 and skipped.
 */
	.text
	.globl	hpmn_probe_el1
hpmn_probe_el1:
	stp	x29, x30, [sp, #-32]!
	mrs	x2, vbar_el2
	stp	x0, x2, [sp, #16]
	adr	x2, hpmn_probe_el2_vectors
	msr	vbar_el2, x2
	adr	x2, hpmn_probe_el1_vectors
	msr	vbar_el1, x2
	adr	x2, hpmn_probe_stub
	msr	elr_el2, x2
	mov	x2, #0x3c5		/* EL1h, D, A, I, F masked */
	msr	spsr_el2, x2
	isb
	eret

/* At EL1. x1 = SEL. Results: x3 PMCNTENSET, x4 PMINTENSET, x5 PMOVSSET, x6 PMXEVCNTR read,
 * x8 PMCR_EL0, x10 exceptions taken. */
hpmn_probe_stub:
	mov	x10, #0
	mov	x6, #0
	mov	x8, #0
	mov	x2, #-1
	msr	pmcntenset_el0, x2
	isb
	mrs	x3, pmcntenset_el0
	msr	pmintenset_el1, x2
	isb
	mrs	x4, pmintenset_el1
	msr	pmovsset_el0, x2
	isb
	mrs	x5, pmovsset_el0
	msr	pmselr_el0, x1
	isb
	mrs	x6, pmxevcntr_el0
	mov	x7, #0x1234
	msr	pmxevcntr_el0, x7
	isb
	mrs	x8, pmcr_el0
	hvc	#0

/* Back at EL2 (lower EL, AArch64, synchronous): the stub's registers hold the results. */
hpmn_probe_back:
	ldp	x0, x2, [sp, #16]
	msr	vbar_el2, x2
	isb
	stp	x3, x4, [x0, #0]
	stp	x5, x6, [x0, #16]
	stp	x8, x10, [x0, #32]
	ldp	x29, x30, [sp], #32
	ret

/* The stub's EL1 vectors: any synchronous exception (an UNDEFINED access) is counted and the
 * instruction skipped. Only "current EL with SP_ELx" can be taken: the stub runs EL1h. */
	.balign	0x800
hpmn_probe_el1_vectors:
	.skip	0x200
	mrs	x9, elr_el1
	add	x9, x9, #4
	msr	elr_el1, x9
	add	x10, x10, #1
	eret

/* EL2 vectors while the stub runs: its HVC comes from a lower EL in AArch64 (+0x400). */
	.balign	0x800
hpmn_probe_el2_vectors:
	.skip	0x400
	b	hpmn_probe_back
