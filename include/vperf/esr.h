/* SPDX-License-Identifier: MIT */
/*
 * ESR_EL2 for a trapped MSR/MRS (EC = 0x18): the one description of its layout, which the trap
 * entry's full path (virt/esr.c, virt/trap.c) and its fast path (virt/vpmu/fast.h) both decode
 * with. Layout (Arm DDI 0487 K.a, D24.2.40, ESR_EL2, ISS encoding for an exception from MSR, MRS
 * or System instruction execution):
 *   EC [31:26], IL [25], Op0 [21:20], Op2 [19:17], Op1 [16:14], CRn [13:10], Rt [9:5],
 *   CRm [4:1], Direction [0] (1 = read, MRS; 0 = write, MSR).
 * ISS [24:22] is RES0 and [63:32] (ISS2 and RES0) says nothing about the access: the decoder
 * ignores both, and a syndrome with them set is decoded as the access it names.
 */
#ifndef VPERF_ESR_H
#define VPERF_ESR_H

#include <vperf/sysreg.h>
#include <vperf/types.h>

#define ESR_EC_SHIFT  26
#define ESR_EC_MASK   VPERF_GENMASK(31, 26)
#define ESR_EC_SYSREG 0x18u
#define ESR_IL	      VPERF_BIT(25)
#define ESR_RT_XZR    31u

/* The ISS fields of EC 0x18, each as [shift, width]. */
#define ESR_ISS_OP0_SHIFT 20
#define ESR_ISS_OP2_SHIFT 17
#define ESR_ISS_OP1_SHIFT 14
#define ESR_ISS_CRN_SHIFT 10
#define ESR_ISS_RT_SHIFT  5
#define ESR_ISS_CRM_SHIFT 1
#define ESR_ISS_DIR_READ  VPERF_BIT(0)
#define ESR_RT_MASK	  (0x1fu << ESR_ISS_RT_SHIFT)

/* The syndrome hardware reports for an MRS (read = 1) or MSR (read = 0) of enc with Rt = 0 and
 * IL = 1, as a 32-bit constant expression: the fast path compares a syndrome with its Rt masked
 * out against these. */
#define VPERF_ESR_SYSREG(enc, read)                                                          \
	((uint32_t)ESR_EC_SYSREG << ESR_EC_SHIFT | (uint32_t)ESR_IL |                        \
	 VPERF_ENC_OP0(enc) << ESR_ISS_OP0_SHIFT | VPERF_ENC_OP2(enc) << ESR_ISS_OP2_SHIFT | \
	 VPERF_ENC_OP1(enc) << ESR_ISS_OP1_SHIFT | VPERF_ENC_CRN(enc) << ESR_ISS_CRN_SHIFT | \
	 VPERF_ENC_CRM(enc) << ESR_ISS_CRM_SHIFT | (uint32_t)(read))

struct vperf_esr_sysreg {
	uint16_t enc; /* VPERF_SYSREG_ENC(op0, op1, CRn, CRm, op2) */
	uint8_t rt;   /* 31 means XZR: reads discard, writes write 0 */
	bool read;    /* MRS */
};

/* The encoding an EC 0x18 syndrome names. */
static inline uint16_t vperf_esr_sysreg_enc(uint64_t esr)
{
	return (uint16_t)VPERF_SYSREG_ENC(
		(esr >> ESR_ISS_OP0_SHIFT) & 0x3u, (esr >> ESR_ISS_OP1_SHIFT) & 0x7u,
		(esr >> ESR_ISS_CRN_SHIFT) & 0xfu, (esr >> ESR_ISS_CRM_SHIFT) & 0xfu,
		(esr >> ESR_ISS_OP2_SHIFT) & 0x7u);
}

/* The n of a PMEVCNTR<n>_EL0 / PMEVTYPER<n>_EL0 syndrome, CRm[1:0]:Op2 (vperf_pmev_index of
 * vperf_esr_sysreg_enc, read straight from the ISS: two fields, not five, on the trap fast
 * path). */
static inline unsigned int vperf_esr_pmev_index(uint64_t esr)
{
	return (unsigned int)(((esr >> ESR_ISS_CRM_SHIFT) & 0x3u) << 3 |
			      ((esr >> ESR_ISS_OP2_SHIFT) & 0x7u));
}

/* Its Rt (31: XZR) and direction. */
static inline uint8_t vperf_esr_sysreg_rt(uint64_t esr)
{
	return (uint8_t)((esr & ESR_RT_MASK) >> ESR_ISS_RT_SHIFT);
}

static inline bool vperf_esr_sysreg_read(uint64_t esr)
{
	return (esr & ESR_ISS_DIR_READ) != 0;
}

/* Decode a trapped MSR/MRS syndrome. Returns false if EC is not 0x18. */
bool vperf_esr_decode_sysreg(uint64_t esr, struct vperf_esr_sysreg *out);

/* The syndrome hardware reports for that access (IL=1); the sim model and tests build traps. */
uint64_t vperf_esr_encode_sysreg(uint32_t enc, unsigned int rt, bool read);

#endif /* VPERF_ESR_H */
