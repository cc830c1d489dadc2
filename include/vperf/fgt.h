/* SPDX-License-Identifier: MIT */
/*
 * FEAT_FGT's debug fine-grained trap registers, HDFGRTR_EL2 (MRS) and HDFGWTR_EL2 (MSR): the PMU
 * fields, from their descriptions in Arm DDI 0487 K.a (D24.2; bit positions as in Linux's
 * arch/arm64/tools/sysreg), and the presence field ID_AA64MMFR0_EL1.FGT [59:56].
 *
 * Who writes them: vperf, at vCPU load and put (virt/fgt.c). The fields below are vperf's
 * (HDFGRTR_VPERF_MASK, HDFGWTR_VPERF_MASK); the hypervisor gives its own value of each register
 * in vperf_pcpu_config (host_hdfgrtr, host_hdfgwtr: its debug, trace, SPE and BRBE traps), which
 * every vCPU runs with outside vperf's fields and which vperf puts back whole at every put. The
 * hypervisor must not write the two registers itself between a load and its put.
 *
 * vperf sets a trap only where a policy needs it: the type registers (PMEVTYPER<n>_EL0,
 * PMXEVTYPER_EL0, PMCCFILTR_EL0; reads and writes) and PMCEID<n>_EL0 reads of a direct-partition
 * VM whose event filter does not allow every event (docs/vpmu.md, "FEAT_FGT"). Counters,
 * enables, overflow flags, PMCR_EL0, PMSELR_EL0 and PMUSERENR_EL0 never trap by FGT.
 *
 * One SPE field besides, in both registers: PMBSR_EL1, which vperf sets on top of the hypervisor's
 * values (it is not vperf's field otherwise) while a vCPU of a VM with an untrapped guest-owned
 * buffer (VPERF_SPE_BUF_EL1) runs on a system where every pCPU has FEAT_FGT (docs/vspe.md,
 * "FEAT_FGT"): a guest's write of PMBSR_EL1 then never reaches the hardware unseen, and its read
 * never returns vperf's own stage 2 fault before that fault's PMBIRQ is taken.
 */
#ifndef VPERF_FGT_H
#define VPERF_FGT_H

#include <vperf/types.h>

#define ID_MMFR0_FGT_SHIFT 56
#define ID_MMFR0_FGT_MASK  VPERF_GENMASK(59, 56)

/* Bits common to both registers (PMSWINC and PMCR: HDFGWTR_EL2 only; PMMIR and PMCEIDn:
 * HDFGRTR_EL2 only). PMEVTYPERn_EL0 covers PMXEVTYPER_EL0 whatever PMSELR_EL0.SEL says;
 * PMCCFILTR_EL0 does not. */
#define HDFG_PMEVCNTRN	VPERF_BIT(12)
#define HDFG_PMEVTYPERN VPERF_BIT(13)
#define HDFG_PMCCFILTR	VPERF_BIT(14)
#define HDFG_PMCCNTR	VPERF_BIT(15)
#define HDFG_PMCNTEN	VPERF_BIT(16)
#define HDFG_PMINTEN	VPERF_BIT(17)
#define HDFG_PMOVS	VPERF_BIT(18)
#define HDFG_PMSELR	VPERF_BIT(19)
#define HDFGWTR_PMSWINC VPERF_BIT(20)
#define HDFGWTR_PMCR	VPERF_BIT(21)
#define HDFGRTR_PMMIR	VPERF_BIT(22)
#define HDFG_PMUSERENR	VPERF_BIT(57)
#define HDFGRTR_PMCEIDN VPERF_BIT(58)

/* HDFGWTR_EL2 (and HDFGRTR_EL2) bit 25: writes (reads) of PMBSR_EL1 at EL1, with FEAT_SPE. */
#define HDFG_PMBSR VPERF_BIT(25)

/* Every PMU field of each register: vperf's. */
#define HDFGRTR_VPERF_MASK \
	(VPERF_GENMASK(19, 12) | HDFGRTR_PMMIR | HDFG_PMUSERENR | HDFGRTR_PMCEIDN)
#define HDFGWTR_VPERF_MASK (VPERF_GENMASK(21, 12) | HDFG_PMUSERENR)

/* What a VM whose types trap gets (virt/fgt.c). */
#define HDFGRTR_TYPES (HDFG_PMEVTYPERN | HDFG_PMCCFILTR | HDFGRTR_PMCEIDN)
#define HDFGWTR_TYPES (HDFG_PMEVTYPERN | HDFG_PMCCFILTR)

/*
 * The database's fgt column (sysregs.def): the field of HDFGRTR_EL2 (MRS) and HDFGWTR_EL2 (MSR)
 * that traps a register, or of FEAT_FGT2's HDFGRTR2_EL2 / HDFGWTR2_EL2. One line a field:
 * X(name, register: 1 HDFGxTR_EL2, 2 HDFGxTR2_EL2, read bit, write bit), 64 where the register
 * has no such field (descriptions of the four registers in Arm DDI 0487 K.a, D24.2; bit positions
 * as in Linux's arch/arm64/tools/sysreg). A field whose name starts with N traps at 0. The PMU
 * fields cover the trapped registers' EL1 and EL0 accesses, the SPE fields EL1's:
 * PMEVCNTRN covers PMXEVCNTR_EL0 and PMEVTYPERN PMXEVTYPER_EL0 (whatever PMSELR_EL0.SEL says);
 * PMSDSFR_EL1's field (FEAT_SPE_FDS, in HDFGxTR2_EL2) is not listed: no guest is shown it.
 */
#define VPERF_FGT_FIELD_LIST(X)  \
	X(NONE, 0, 64, 64)       \
	X(PMEVCNTRN, 1, 12, 12)  \
	X(PMEVTYPERN, 1, 13, 13) \
	X(PMCCFILTR, 1, 14, 14)  \
	X(PMCCNTR, 1, 15, 15)    \
	X(PMCNTEN, 1, 16, 16)    \
	X(PMINTEN, 1, 17, 17)    \
	X(PMOVS, 1, 18, 18)      \
	X(PMSELR, 1, 19, 19)     \
	X(PMSWINC, 1, 64, 20)    \
	X(PMCR, 1, 64, 21)       \
	X(PMMIR, 1, 22, 64)      \
	X(PMBLIMITR, 1, 23, 23)  \
	X(PMBPTR, 1, 24, 24)     \
	X(PMBSR, 1, 25, 25)      \
	X(PMSCR, 1, 26, 26)      \
	X(PMSEVFR, 1, 27, 27)    \
	X(PMSFCR, 1, 28, 28)     \
	X(PMSICR, 1, 29, 29)     \
	X(PMSIDR, 1, 30, 64)     \
	X(PMSIRR, 1, 31, 31)     \
	X(PMSLATFR, 1, 32, 32)   \
	X(PMUSERENR, 1, 57, 57)  \
	X(PMCEIDN, 1, 58, 64)    \
	X(NPMSNEVFR, 1, 62, 62)  \
	X(PMBIDR, 1, 63, 64)     \
	X(NPMICNTR, 2, 2, 2)     \
	X(NPMICFILTR, 2, 3, 3)   \
	X(NPMUACR, 2, 4, 4)      \
	X(NPMZR, 2, 64, 21)

enum vperf_fgt_field {
#define VPERF_FGT_ENUM(name, reg, rbit, wbit) VPERF_FGT_##name,
	VPERF_FGT_FIELD_LIST(VPERF_FGT_ENUM)
#undef VPERF_FGT_ENUM
};

/* Each field's register and bits as constants: VPERF_FGT_REG_PMCR, VPERF_FGT_RBIT_PMCR ... */
enum {
#define VPERF_FGT_CONSTS(name, reg, rbit, wbit)                       \
	VPERF_FGT_REG_##name = (reg), VPERF_FGT_RBIT_##name = (rbit), \
	VPERF_FGT_WBIT_##name = (wbit),
	VPERF_FGT_FIELD_LIST(VPERF_FGT_CONSTS)
#undef VPERF_FGT_CONSTS
};
#define VPERF_FGT_MASK(bit) ((bit) < 64 ? 1ull << ((bit)&63) : 0ull)

/*
 * FEAT_FGT2's HDFGRTR2_EL2 / HDFGWTR2_EL2 (D24.2.68 and its write twin; ID_AA64MMFR0_EL1.FGT
 * >= 2). Every field is "n"-named: 0 traps the EL1/EL0 accesses it names to EL2 (EC 0x18), 1
 * does not. The fields of the PMUv3p9 / FEAT_PMUv3_ICNTR registers, whose MDCR_EL2.TPM trap a
 * direct-partition guest runs without (bit positions as in Linux's arch/arm64/tools/sysreg and
 * Documentation/arch/arm64/booting.rst): nPMICNTR_EL0 [2], nPMICFILTR_EL0 [3] (which also makes
 * PMCNTEN/PMOVS F0 read as zero at EL1 and EL0), nPMUACR_EL1 [4] in both, nPMZR_EL0 [21] in
 * HDFGWTR2_EL2 only.
 */
#define HDFG2_NPMICNTR	    VPERF_BIT(2)
#define HDFG2_NPMICFILTR    VPERF_BIT(3)
#define HDFG2_NPMUACR	    VPERF_BIT(4)
#define HDFGWTR2_NPMZR	    VPERF_BIT(21)
#define HDFGRTR2_VPERF_MASK (HDFG2_NPMICNTR | HDFG2_NPMICFILTR | HDFG2_NPMUACR)
#define HDFGWTR2_VPERF_MASK (HDFGRTR2_VPERF_MASK | HDFGWTR2_NPMZR)

#endif /* VPERF_FGT_H */
