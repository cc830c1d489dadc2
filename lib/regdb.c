// SPDX-License-Identifier: MIT
/* The register database as a table, and lookup by encoding (see vperf/sysregs.def). */
#include <vperf/fgt.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>
#include <vperf/spe_regs.h>
#include <vperf/sysreg.h>

const struct vperf_sysreg_desc vperf_sysregs[VPERF_SR_COUNT] = {
#define SYSREG(nm, op0, op1, crn, crm, op2, acc, trp, ft, r0, rst, sl, e0, pr, fg) \
	[VPERF_SR_##nm] = {                                                        \
		.name = #nm,                                                       \
		.res0 = (r0),                                                      \
		.reset = (rst),                                                    \
		.enc = (uint16_t)VPERF_ENC_##nm,                                   \
		.access = VPERF_ACC_##acc,                                         \
		.trap = VPERF_TRAP_##trp,                                          \
		.feat = VPERF_FEAT_##ft,                                           \
		.slot = VPERF_SLOT_##sl,                                           \
		.el0 = VPERF_EL0_##e0,                                             \
		.pair = VPERF_PAIR_##pr,                                           \
		.fgt = VPERF_FGT_##fg,                                             \
	},
#include <vperf/sysregs.def>
#undef SYSREG
};

/* The res0 column of each line as constant expressions: four 16-bit quarters per register (an
 * enumeration constant is an int), put together by DB_RES0(name). */
enum {
#define SYSREG(nm, op0, op1, crn, crm, op2, acc, trp, ft, r0, ...)                            \
	DB_RES0_Q0_##nm = (int)((r0)&0xffff), DB_RES0_Q1_##nm = (int)(((r0) >> 16) & 0xffff), \
	DB_RES0_Q2_##nm = (int)(((r0) >> 32) & 0xffff), DB_RES0_Q3_##nm = (int)((r0) >> 48),
#include <vperf/sysregs.def>
#undef SYSREG
};
#define DB_RES0(nm)                                                          \
	((uint64_t)DB_RES0_Q3_##nm << 48 | (uint64_t)DB_RES0_Q2_##nm << 32 | \
	 (uint64_t)DB_RES0_Q1_##nm << 16 | (uint64_t)DB_RES0_Q0_##nm)

/* Every bit of the register is exactly one named field of its list or RES0 on its line: a field
 * header and the database cannot disagree (a field put at the wrong bit overlaps another field
 * or a RES0 bit, or leaves a bit that is neither). */
#define CHECK_FIELDS(nm, list)                                                    \
	_Static_assert(VPERF_FIELDS_DISJOINT(list) &&                             \
			       (VPERF_FIELDS_UNION(list) ^ DB_RES0(nm)) == ~0ull, \
		       #nm ": every bit one named field or RES0")
CHECK_FIELDS(PMCR_EL0, PMCR_EL0_FIELDS);
CHECK_FIELDS(PMCNTENSET_EL0, PMU_CNT_FIELDS);
CHECK_FIELDS(PMCNTENCLR_EL0, PMU_CNT_FIELDS);
CHECK_FIELDS(PMINTENSET_EL1, PMU_CNT_FIELDS);
CHECK_FIELDS(PMINTENCLR_EL1, PMU_CNT_FIELDS);
CHECK_FIELDS(PMOVSSET_EL0, PMU_CNT_FIELDS);
CHECK_FIELDS(PMOVSCLR_EL0, PMU_CNT_FIELDS);
CHECK_FIELDS(PMZR_EL0, PMU_CNT_FIELDS);
CHECK_FIELDS(PMSWINC_EL0, PMSWINC_EL0_FIELDS);
CHECK_FIELDS(PMSELR_EL0, PMSELR_EL0_FIELDS);
CHECK_FIELDS(PMUSERENR_EL0, PMUSERENR_EL0_FIELDS);
CHECK_FIELDS(PMEVTYPER0_EL0, PMEVTYPER_EL0_FIELDS);
CHECK_FIELDS(PMEVTYPER30_EL0, PMEVTYPER_EL0_FIELDS);
CHECK_FIELDS(PMCCFILTR_EL0, PMCCFILTR_EL0_FIELDS);
CHECK_FIELDS(PMSCR_EL1, PMSCR_EL1_FIELDS);
CHECK_FIELDS(PMSICR_EL1, PMSICR_EL1_FIELDS);
CHECK_FIELDS(PMSIRR_EL1, PMSIRR_EL1_FIELDS);
CHECK_FIELDS(PMBSR_EL1, PMBSR_EL1_FIELDS);
CHECK_FIELDS(PMUACR_EL1, PMU_CNT_FIELDS);
CHECK_FIELDS(PMICFILTR_EL0, PMICFILTR_EL0_FIELDS);
CHECK_FIELDS(PMSFCR_EL1, PMSFCR_EL1_FIELDS);
CHECK_FIELDS(PMSLATFR_EL1, PMSLATFR_EL1_FIELDS);
CHECK_FIELDS(PMBLIMITR_EL1, PMBLIMITR_EL1_FIELDS);
CHECK_FIELDS(PMBPTR_EL1, PMBPTR_EL1_FIELDS);

/* A register whose line has no RES0 bits to cover (the ID registers, the event filters, whose
 * fields change with the SPE version, and the EL2 registers): its fields are disjoint and none
 * is RES0 on its line. */
#define CHECK_SOME_FIELDS(nm, list)                                                              \
	_Static_assert(VPERF_FIELDS_DISJOINT(list) && !(VPERF_FIELDS_UNION(list) & DB_RES0(nm)), \
		       #nm ": fields disjoint, none RES0")
CHECK_SOME_FIELDS(PMSEVFR_EL1, PMSEVFR_EL1_FIELDS);
CHECK_SOME_FIELDS(PMSNEVFR_EL1, PMSEVFR_EL1_FIELDS);
CHECK_SOME_FIELDS(PMSIDR_EL1, PMSIDR_EL1_FIELDS);
CHECK_SOME_FIELDS(PMBIDR_EL1, PMBIDR_EL1_FIELDS);
CHECK_SOME_FIELDS(PMSCR_EL2, PMSCR_EL2_FIELDS);
CHECK_SOME_FIELDS(MDCR_EL2, MDCR_EL2_FIELDS);

/* The writable masks vperf uses, against their registers' lists: MDCR_EL2_VPERF_MASK is the union
 * of its own list (vperf/mdcr.h), fields of MDCR_EL2; PMBSR_WRITABLE is PMBSR_EL1 but MSS2 (which
 * vperf's SPE versions do not have). */
_Static_assert(VPERF_FIELDS_DISJOINT(MDCR_EL2_VPERF_FIELDS) &&
		       !(MDCR_EL2_VPERF_MASK & ~VPERF_FIELDS_UNION(MDCR_EL2_FIELDS)),
	       "MDCR_EL2_VPERF_MASK: fields of MDCR_EL2");
_Static_assert(PMBSR_WRITABLE == (VPERF_FIELDS_UNION(PMBSR_EL1_FIELDS) & ~PMBSR_MSS2),
	       "PMBSR_WRITABLE: PMBSR_EL1's fields but MSS2");

/*
 * vperf's fine-grained trap masks (vperf/fgt.h) are the database's fgt column: the fields of
 * every PMU register (its slots, PMCR_EL0 to PMUACR_EL1), in FEAT_FGT's and FEAT_FGT2's
 * registers, and those of the type registers and PMCEID<n>_EL0 that a filtering direct VM traps.
 * Each assertion expands the database into the union of the DB_DIR (RBIT, WBIT) bits of the
 * DB_REG fields of the lines whose slot satisfies DB_COND.
 */
#define PMU_SLOT(sl) (VPERF_SLOT_##sl >= VPERF_SLOT_PMCR && VPERF_SLOT_##sl <= VPERF_SLOT_PMUACR)
#define TYPES_SLOT(sl)                                                                          \
	(VPERF_SLOT_##sl == VPERF_SLOT_PMEVTYPER || VPERF_SLOT_##sl == VPERF_SLOT_PMXEVTYPER || \
	 VPERF_SLOT_##sl == VPERF_SLOT_PMCCFILTR || VPERF_SLOT_##sl == VPERF_SLOT_PMCEID)
#define FGT_BITS(cond, reg, dir, sl, fg) \
	| (cond(sl) && VPERF_FGT_REG_##fg == (reg) ? VPERF_FGT_MASK(VPERF_FGT_##dir##_##fg) : 0ull)
#define FGT_LINE(cond, reg, dir, sl, fg) FGT_BITS(cond, reg, dir, sl, fg) /* dir expanded first */
#define SYSREG(nm, op0, op1, crn, crm, op2, acc, trp, ft, r0, rst, sl, e0, pr, fg) \
	FGT_LINE(DB_COND, DB_REG, DB_DIR, sl, fg)
#define DB_COND PMU_SLOT
#define DB_REG	1
#define DB_DIR	RBIT
_Static_assert((0ull
#include <vperf/sysregs.def>
		) == HDFGRTR_VPERF_MASK,
	       "HDFGRTR_VPERF_MASK: the PMU registers' read fields (sysregs.def fgt column)");
#undef DB_DIR
#define DB_DIR WBIT
_Static_assert((0ull
#include <vperf/sysregs.def>
		) == HDFGWTR_VPERF_MASK,
	       "HDFGWTR_VPERF_MASK: the PMU registers' write fields (sysregs.def fgt column)");
#undef DB_REG
#define DB_REG 2
_Static_assert((0ull
#include <vperf/sysregs.def>
		) == HDFGWTR2_VPERF_MASK,
	       "HDFGWTR2_VPERF_MASK: the PMU registers' FEAT_FGT2 write fields");
#undef DB_DIR
#define DB_DIR RBIT
_Static_assert((0ull
#include <vperf/sysregs.def>
		) == HDFGRTR2_VPERF_MASK,
	       "HDFGRTR2_VPERF_MASK: the PMU registers' FEAT_FGT2 read fields");
#undef DB_REG
#define DB_REG 1
#undef DB_COND
#define DB_COND TYPES_SLOT
_Static_assert((0ull
#include <vperf/sysregs.def>
		) == HDFGRTR_TYPES,
	       "HDFGRTR_TYPES: the read fields of the types and PMCEID<n>_EL0");
#undef DB_DIR
#define DB_DIR WBIT
_Static_assert((0ull
#include <vperf/sysregs.def>
		) == HDFGWTR_TYPES,
	       "HDFGWTR_TYPES: the write fields of the types");
#undef SYSREG
#undef DB_COND
#undef DB_REG
#undef DB_DIR
_Static_assert(VPERF_FGT_MASK(VPERF_FGT_RBIT_PMBSR) == HDFG_PMBSR &&
		       VPERF_FGT_MASK(VPERF_FGT_WBIT_PMBSR) == HDFG_PMBSR,
	       "HDFG_PMBSR: PMBSR_EL1's field (sysregs.def fgt column)");

/* VPERF_FGT_FIELD_LIST is the field list of four registers (HDFGRTR_EL2 / HDFGWTR_EL2: register
 * 1, its read and write bits; HDFGRTR2_EL2 / HDFGWTR2_EL2: register 2): in each, no two of the
 * fields share a bit. */
#define FGT_OR(reg, dir, name, r, rbit, wbit)  | ((r) == (reg) ? VPERF_FGT_MASK(dir) : 0ull)
#define FGT_SUM(reg, dir, name, r, rbit, wbit) +((r) == (reg) ? VPERF_FGT_MASK(dir) : 0ull)
#define FGT_R1_OR(name, r, rbit, wbit)	       FGT_OR(1, rbit, name, r, rbit, wbit)
#define FGT_R1_SUM(name, r, rbit, wbit)	       FGT_SUM(1, rbit, name, r, rbit, wbit)
#define FGT_W1_OR(name, r, rbit, wbit)	       FGT_OR(1, wbit, name, r, rbit, wbit)
#define FGT_W1_SUM(name, r, rbit, wbit)	       FGT_SUM(1, wbit, name, r, rbit, wbit)
#define FGT_R2_OR(name, r, rbit, wbit)	       FGT_OR(2, rbit, name, r, rbit, wbit)
#define FGT_R2_SUM(name, r, rbit, wbit)	       FGT_SUM(2, rbit, name, r, rbit, wbit)
#define FGT_W2_OR(name, r, rbit, wbit)	       FGT_OR(2, wbit, name, r, rbit, wbit)
#define FGT_W2_SUM(name, r, rbit, wbit)	       FGT_SUM(2, wbit, name, r, rbit, wbit)
#define FGT_DISJOINT(x) \
	((0ull VPERF_FGT_FIELD_LIST(FGT_##x##_SUM)) == (0ull VPERF_FGT_FIELD_LIST(FGT_##x##_OR)))
_Static_assert(FGT_DISJOINT(R1) && FGT_DISJOINT(W1) && FGT_DISJOINT(R2) && FGT_DISJOINT(W2),
	       "VPERF_FGT_FIELD_LIST: one bit of HDFGxTR_EL2 / HDFGxTR2_EL2 for two fields");

/* Binary search: the database is sorted by encoding (tests/unit/test_regdb.c checks it). */
const struct vperf_sysreg_desc *vperf_sysreg_lookup(uint32_t enc)
{
	size_t lo = 0, hi = VPERF_SR_COUNT;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t here = vperf_sysregs[mid].enc;

		if (here == enc)
			return &vperf_sysregs[mid];
		if (here < enc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Database index + 1 of each encoding of the PMU/SPE space, 0 where the database has none: the
 * trap path's lookup is one load instead of a binary search (about a third of a trap's cost,
 * measured by make bench). */
static uint8_t space_map[VPERF_SPACE_SIZE];

_Static_assert(VPERF_SR_COUNT < 255, "space_map holds an index + 1 in a byte");

void vperf_sysreg_space_init(void)
{
	for (size_t i = 0; i < VPERF_SR_COUNT; i++)
		if (vperf_sysreg_in_space(vperf_sysregs[i].enc))
			space_map[vperf_space_index(vperf_sysregs[i].enc)] = (uint8_t)(i + 1);
}

const struct vperf_sysreg_desc *vperf_sysreg_lookup_space(uint32_t enc)
{
	uint8_t i = space_map[vperf_space_index(enc)];

	return i ? &vperf_sysregs[i - 1] : NULL;
}
