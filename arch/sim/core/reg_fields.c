// SPDX-License-Identifier: MIT
/*
 * The model's field lists (pmu/pmu_fields.h, spe/spe_fields.h, core/fields.h) as tables, for the
 * test that holds them against vperf's field by field (tests/unit/test_sim_regs.c). Written from
 * the architecture text, like the rest of the model: nothing here comes from include/vperf.
 *
 * At compile time: no two fields of a list share a bit. That every bit of a register is a field or
 * RES0 (the res0 of its line in core/arch_regs.c, or vperf's database for the SPE registers,
 * whose bits the model's table leaves to the SPE family) is the test's to check.
 */
#include <sim/arch_regs.h>

#include "../pmu/pmu_fields.h"
#include "../spe/spe_fields.h"
#include "fields.h"

#define FIELD_OR(mask)	  | (uint64_t)(mask)
#define FIELD_SUM(mask)	  +(uint64_t)(mask)
#define DISJOINT(list)	  ((0ull list(FIELD_SUM)) == (0ull list(FIELD_OR)))
#define ROW(mask)	  { #mask, (uint64_t)(mask) },
#define TABLE(name, list) static const struct sim_reg_field name[] = { list(ROW) }

#define LISTS(X)                               \
	X(pmcr, SIM_PMCR_EL0_FIELDS)           \
	X(pmu_bits, SIM_PMU_BITS_FIELDS)       \
	X(pmswinc, SIM_PMSWINC_EL0_FIELDS)     \
	X(pmselr, SIM_PMSELR_EL0_FIELDS)       \
	X(pmuserenr, SIM_PMUSERENR_EL0_FIELDS) \
	X(pmevtyper, SIM_PMEVTYPER_EL0_FIELDS) \
	X(pmccfiltr, SIM_PMCCFILTR_EL0_FIELDS) \
	X(pmicfiltr, SIM_PMICFILTR_EL0_FIELDS) \
	X(pmscr, SIM_PMSCR_FIELDS)             \
	X(pmsicr, SIM_PMSICR_EL1_FIELDS)       \
	X(pmsirr, SIM_PMSIRR_EL1_FIELDS)       \
	X(pmsfcr, SIM_PMSFCR_EL1_FIELDS)       \
	X(pmsevfr, SIM_PMSEVFR_FIELDS)         \
	X(pmslatfr, SIM_PMSLATFR_EL1_FIELDS)   \
	X(pmsidr, SIM_PMSIDR_EL1_FIELDS)       \
	X(pmbidr, SIM_PMBIDR_EL1_FIELDS)       \
	X(pmblimitr, SIM_PMBLIMITR_EL1_FIELDS) \
	X(pmbptr, SIM_PMBPTR_EL1_FIELDS)       \
	X(pmbsr, SIM_PMBSR_EL1_FIELDS)         \
	X(mdcr, SIM_MDCR_EL2_FIELDS)

#define DEFINE(name, list) \
	TABLE(name, list); \
	_Static_assert(DISJOINT(list), #list ": no two fields share a bit");
LISTS(DEFINE)
#undef DEFINE

#define RET(table) (*n = VPERF_ARRAY_SIZE(table), table)

/* The PMU registers by kind (one list for each SET/CLR pair's halves, PMZR_EL0 and
 * PMUACR_EL1), the others by encoding. */
static const struct sim_reg_field *pmu_fields(uint8_t kind, unsigned int *n)
{
	switch (kind) {
	case SIM_KIND_PMCR:
		return RET(pmcr);
	case SIM_KIND_PMCNTEN:
	case SIM_KIND_PMINTEN:
	case SIM_KIND_PMOVS:
	case SIM_KIND_PMZR:
	case SIM_KIND_PMUACR:
		return RET(pmu_bits);
	case SIM_KIND_PMSWINC:
		return RET(pmswinc);
	case SIM_KIND_PMSELR:
		return RET(pmselr);
	case SIM_KIND_PMUSERENR:
		return RET(pmuserenr);
	case SIM_KIND_PMEVTYPER:
		return RET(pmevtyper);
	case SIM_KIND_PMCCFILTR:
		return RET(pmccfiltr);
	case SIM_KIND_PMICFILTR:
		return RET(pmicfiltr);
	default:
		return NULL;
	}
}

const struct sim_reg_field *sim_reg_fields(const struct sim_arch_reg *reg, unsigned int *n)
{
	*n = 0;
	switch (reg->enc) {
	case SIM_ENC_PMSCR_EL1:
	case SIM_ENC_PMSCR_EL2:
		return RET(pmscr);
	case SIM_ENC_PMSICR_EL1:
		return RET(pmsicr);
	case SIM_ENC_PMSIRR_EL1:
		return RET(pmsirr);
	case SIM_ENC_PMSFCR_EL1:
		return RET(pmsfcr);
	case SIM_ENC_PMSEVFR_EL1:
	case SIM_ENC_PMSNEVFR_EL1:
		return RET(pmsevfr);
	case SIM_ENC_PMSLATFR_EL1:
		return RET(pmslatfr);
	case SIM_ENC_PMSIDR_EL1:
		return RET(pmsidr);
	case SIM_ENC_PMBIDR_EL1:
		return RET(pmbidr);
	case SIM_ENC_PMBLIMITR_EL1:
		return RET(pmblimitr);
	case SIM_ENC_PMBPTR_EL1:
		return RET(pmbptr);
	case SIM_ENC_PMBSR_EL1:
		return RET(pmbsr);
	case SIM_ENC_MDCR_EL2:
		return RET(mdcr);
	default:
		return pmu_fields(reg->kind, n);
	}
}
