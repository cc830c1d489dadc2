/* SPDX-License-Identifier: MIT */
/*
 * MDCR_EL2, the register through which vperf traps and partitions the PMU and SPE: field
 * positions from its description in Arm DDI 0487 K.a (E2PB and TPMS also in SPE 3.4.2 and
 * SPE 3.4.6). tests/unit/test_regdb.c checks them against the values the database and the model
 * use. The PMU registers' fields are in vperf/pmu_regs.h, the ID registers' in vperf/id_regs.h,
 * the SPE registers' in vperf/spe_regs.h.
 */
#ifndef VPERF_MDCR_H
#define VPERF_MDCR_H

#include <vperf/types.h>

#define MDCR_EL2_HPMN_SHIFT    0
#define MDCR_EL2_HPMN_MASK     VPERF_GENMASK(4, 0)
#define MDCR_EL2_TPMCR	       VPERF_BIT(5)
#define MDCR_EL2_TPM	       VPERF_BIT(6)
#define MDCR_EL2_HPME	       VPERF_BIT(7)
#define MDCR_EL2_TDE	       VPERF_BIT(8)
#define MDCR_EL2_TDA	       VPERF_BIT(9)
#define MDCR_EL2_TDOSA	       VPERF_BIT(10)
#define MDCR_EL2_TDRA	       VPERF_BIT(11)
#define MDCR_EL2_E2PB_SHIFT    12
#define MDCR_EL2_E2PB_MASK     VPERF_GENMASK(13, 12)
#define MDCR_EL2_E2PB_EL2      (0ull << 12) /* EL2 owns the buffer, EL1 PMB* trap */
#define MDCR_EL2_E2PB_EL1_TRAP (2ull << 12) /* EL1 owns it, EL1 PMB* trap */
#define MDCR_EL2_E2PB_EL1      (3ull << 12) /* EL1 owns it, no trap */
#define MDCR_EL2_TPMS	       VPERF_BIT(14)
#define MDCR_EL2_HPMD	       VPERF_BIT(17)
#define MDCR_EL2_TTRF	       VPERF_BIT(19)
#define MDCR_EL2_HCCD	       VPERF_BIT(23)
#define MDCR_EL2_E2TB_MASK     VPERF_GENMASK(25, 24)
#define MDCR_EL2_HLP	       VPERF_BIT(26)
#define MDCR_EL2_TDCC	       VPERF_BIT(27)
#define MDCR_EL2_MTPME	       VPERF_BIT(28)
#define MDCR_EL2_HPMFZO	       VPERF_BIT(29)
#define MDCR_EL2_HPMFZS	       VPERF_BIT(36)

/*
 * The field list (F(mask) a field, as vperf/pmu_regs.h's): every MDCR_EL2 field vperf names.
 * MDCR_EL2 has no RES0 mask in the database (an EL2 register, never a guest's), so lib/regdb.c
 * checks that the fields are disjoint, and that vperf's fields are some of them.
 */
/* clang-format off */
#define MDCR_EL2_FIELDS(F) \
	F(MDCR_EL2_HPMN_MASK) F(MDCR_EL2_TPMCR) F(MDCR_EL2_TPM) F(MDCR_EL2_HPME) F(MDCR_EL2_TDE) \
	F(MDCR_EL2_TDA) F(MDCR_EL2_TDOSA) F(MDCR_EL2_TDRA) F(MDCR_EL2_E2PB_MASK) F(MDCR_EL2_TPMS) \
	F(MDCR_EL2_HPMD) F(MDCR_EL2_TTRF) F(MDCR_EL2_HCCD) F(MDCR_EL2_E2TB_MASK) F(MDCR_EL2_HLP) \
	F(MDCR_EL2_TDCC) F(MDCR_EL2_MTPME) F(MDCR_EL2_HPMFZO) F(MDCR_EL2_HPMFZS)
/* The MDCR_EL2 fields vperf owns. The hypervisor owns the rest: debug and trace traps, and
 * HLP / HPMFZO, which govern only its own second counter range. */
#define MDCR_EL2_VPERF_FIELDS(F) \
	F(MDCR_EL2_HPMN_MASK) F(MDCR_EL2_TPMCR) F(MDCR_EL2_TPM) F(MDCR_EL2_HPME) \
	F(MDCR_EL2_E2PB_MASK) F(MDCR_EL2_TPMS) F(MDCR_EL2_HPMD) F(MDCR_EL2_HCCD) F(MDCR_EL2_MTPME)
/* clang-format on */
#define MDCR_EL2_VPERF_MASK VPERF_FIELDS_UNION(MDCR_EL2_VPERF_FIELDS)
/* The second range's controls, which a second-range guest's PMCR_EL0 governs while it runs
 * (VPERF_PART_SECOND: HPME its E, HLP its LP; HPMFZO and HPMFZS, which would freeze its counters
 * on an overflow or an SPE event the guest knows nothing of, 0): vperf's then, the
 * hypervisor's otherwise (virt/mdcr.c). */
#define MDCR_EL2_SECOND_FIELDS (MDCR_EL2_HPME | MDCR_EL2_HLP | MDCR_EL2_HPMFZO | MDCR_EL2_HPMFZS)

/* The MDCR_EL2 fields the hypervisor may give, for the host (vperf_pcpu_config.host_mdcr) or for
 * one vCPU (vperf_vcpu_set_host_mdcr): the self-hosted debug traps TDE, TDA, TDOSA and TDRA, the
 * trace controls TTRF and E2TB, TDCC, and HLP, HPMFZO and HPMFZS, which act only on the
 * hypervisor's second counter range (Arm DDI 0487 K.a, MDCR_EL2). Those that come with a feature
 * exist only where the PE has it (virt/mdcr.c, host_fields()). Every other field is
 * vperf's (MDCR_EL2_VPERF_MASK) or one vperf does not know (the PMU snapshot and exception
 * controls PMSSE and PMEE among them, which it never gives away). */
#define MDCR_EL2_HOST_MASK                                                              \
	(MDCR_EL2_TDE | MDCR_EL2_TDA | MDCR_EL2_TDOSA | MDCR_EL2_TDRA | MDCR_EL2_TTRF | \
	 MDCR_EL2_E2TB_MASK | MDCR_EL2_HLP | MDCR_EL2_TDCC | MDCR_EL2_HPMFZO | MDCR_EL2_HPMFZS)

#endif /* VPERF_MDCR_H */
