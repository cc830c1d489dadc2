/* SPDX-License-Identifier: MIT */
/*
 * ESR_EL2 for a trapped MSR/MRS (EC = 0x18). Layout (Arm DDI 0487 K.a, D24.2.40, ISS encoding
 * for an exception from MSR, MRS or System instruction execution):
 *   EC [31:26], IL [25], Op0 [21:20], Op2 [19:17], Op1 [16:14], CRn [13:10], Rt [9:5],
 *   CRm [4:1], Direction [0] (1 = read, MRS; 0 = write, MSR).
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

struct vperf_esr_sysreg {
	uint16_t enc; /* VPERF_SYSREG_ENC(op0, op1, CRn, CRm, op2) */
	uint8_t rt;   /* 31 means XZR: reads discard, writes write 0 */
	bool read;    /* MRS */
};

/* Decode a trapped MSR/MRS syndrome. Returns false if EC is not 0x18. */
bool vperf_esr_decode_sysreg(uint64_t esr, struct vperf_esr_sysreg *out);

/* The syndrome hardware reports for that access (IL=1); the sim model and tests build traps. */
uint64_t vperf_esr_encode_sysreg(uint32_t enc, unsigned int rt, bool read);

#endif /* VPERF_ESR_H */
