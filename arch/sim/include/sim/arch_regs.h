/* SPDX-License-Identifier: MIT */
/*
 * The model's own description of every System register it implements: encoding, direction,
 * what traps it to EL2, which feature makes it present, and its RES0 bits. Written from the
 * architecture text (arch/sim/arch_regs.c cites where), not from vperf's register database, so
 * that a misreading in include/vperf/sysregs.def is not repeated by the model that tests vperf;
 * tests/unit/test_sim_regs.c compares the two line by line.
 */
#ifndef VPERF_SIM_ARCH_REGS_H
#define VPERF_SIM_ARCH_REGS_H

#include <vperf/types.h>

enum sim_dir { SIM_DIR_RO = 1, SIM_DIR_WO = 2, SIM_DIR_RW = 3 };

/* What makes an EL0/EL1 access trap to EL2. */
enum sim_trap_class {
	SIM_TRAP_NONE,	    /* no EL2 trap */
	SIM_TRAP_TPM,	    /* MDCR_EL2.TPM */
	SIM_TRAP_TPM_TPMCR, /* MDCR_EL2.TPM or TPMCR (PMCR_EL0) */
	SIM_TRAP_TPMS,	    /* MDCR_EL2.TPMS (SPE sampling controls) */
	SIM_TRAP_E2PB,	    /* MDCR_EL2.E2PB != 0b11 (Profiling Buffer) */
	SIM_TRAP_TID3,	    /* HCR_EL2.TID3 (ID registers) */
	SIM_TRAP_EL2_ONLY,  /* an EL2 register: UNDEFINED at EL0/EL1 */
};

enum sim_feature {
	SIM_FEAT_ALWAYS,
	SIM_FEAT_PMUV3,	  /* PMUVer >= 1 */
	SIM_FEAT_PMUV3P4, /* PMUVer >= 5 */
	SIM_FEAT_PMUV3P9, /* PMUVer >= 9 */
	SIM_FEAT_SPE,	  /* PMSVer >= 1 */
	SIM_FEAT_SPEV1P2, /* PMSVer >= 3 */
	SIM_FEAT_SPE_FDS, /* PMSVer >= 5 in the model (FEAT_SPE_FDS) */
	SIM_FEAT_GICV3,
};

struct sim_arch_reg {
	const char *name;
	uint32_t enc;  /* VPERF_SYSREG_ENC(op0, op1, CRn, CRm, op2) */
	uint8_t dir;   /* enum sim_dir */
	uint8_t trap;  /* enum sim_trap_class */
	uint8_t feat;  /* enum sim_feature */
	uint64_t res0; /* RES0 in every version (feature-dependent fields are not RES0 here) */
};

/* The register at enc, or NULL when the model has no such register. */
const struct sim_arch_reg *sim_arch_reg(uint32_t enc);
/* Every register, in no particular order: i = 0, 1, ... until NULL. */
const struct sim_arch_reg *sim_arch_reg_at(unsigned int i);

#endif /* VPERF_SIM_ARCH_REGS_H */
