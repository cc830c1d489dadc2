/* SPDX-License-Identifier: MIT */
/*
 * What the EL3 check (nspb.c) runs below EL3 through lower_call() (el3_head.S), each routine
 * ending with "smc #0". The register encodings are those of the SPE supplement (Arm DDI 0586A)
 * 4.3: reads use Rt = x1, writes Rt = xzr (31), which the trap syndromes must show.
 */

/*
 * probe_el2_regs (at EL2, HCR_EL2.E2H = 1): PMSCR_EL2 and PMSCR_EL12 read and written, then
 * the EL1 registers as probe_el1_regs.
 * probe_el1_regs: every SPE register of EL1 read, the writable ones written (zero);
 * probe_pmbidr keeps what the PMBIDR_EL1 read gave (all ones if it did not complete).
 */
	.text
	.globl	probe_el2_regs
probe_el2_regs:
	mrs	x1, S3_4_C9_C9_0	/* PMSCR_EL2 */
	msr	S3_4_C9_C9_0, xzr
	mrs	x1, S3_5_C9_C9_0	/* PMSCR_EL12 */
	msr	S3_5_C9_C9_0, xzr
	.globl	probe_el1_regs
probe_el1_regs:
	mrs	x1, S3_0_C9_C9_0	/* PMSCR_EL1 */
	mrs	x1, S3_0_C9_C9_2	/* PMSICR_EL1 */
	mrs	x1, S3_0_C9_C9_3	/* PMSIRR_EL1 */
	mrs	x1, S3_0_C9_C9_4	/* PMSFCR_EL1 */
	mrs	x1, S3_0_C9_C9_5	/* PMSEVFR_EL1 */
	mrs	x1, S3_0_C9_C9_6	/* PMSLATFR_EL1 */
	mrs	x1, S3_0_C9_C9_7	/* PMSIDR_EL1 */
	mrs	x1, S3_0_C9_C10_0	/* PMBLIMITR_EL1 */
	mrs	x1, S3_0_C9_C10_1	/* PMBPTR_EL1 */
	mrs	x1, S3_0_C9_C10_3	/* PMBSR_EL1 */
	mov	x1, #-1
	mrs	x1, S3_0_C9_C10_7	/* PMBIDR_EL1 */
	adrp	x2, probe_pmbidr
	str	x1, [x2, :lo12:probe_pmbidr]
	msr	S3_0_C9_C9_0, xzr
	msr	S3_0_C9_C9_2, xzr
	msr	S3_0_C9_C9_3, xzr
	msr	S3_0_C9_C9_4, xzr
	msr	S3_0_C9_C9_5, xzr
	msr	S3_0_C9_C9_6, xzr
	msr	S3_0_C9_C10_0, xzr
	msr	S3_0_C9_C10_1, xzr
	msr	S3_0_C9_C10_3, xzr
	isb
	smc	#0

/*
 * sample_loop: about 6000 instructions for the sampler EL3 programmed, then PSB CSYNC and DSB,
 * after which the records of the loop are in memory (SPE 3.6).
 */
	.globl	sample_loop
sample_loop:
	mov	x0, #2048
1:	add	x2, x2, x0
	subs	x0, x0, #1
	b.ne	1b
	hint	#17			/* PSB CSYNC */
	dsb	nsh
	smc	#0

/*
 * sample_load_loop: as sample_loop, with two loads from the stack in each iteration, whose
 * records carry the data addresses.
 */
	.globl	sample_load_loop
sample_load_loop:
	mov	x0, #2048
1:	ldr	x2, [sp]
	ldr	x3, [sp, #8]
	subs	x0, x0, #1
	b.ne	1b
	hint	#17			/* PSB CSYNC */
	dsb	nsh
	smc	#0
