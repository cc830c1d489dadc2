// SPDX-License-Identifier: MIT
/*
 * Independence of the model (docs/model.md): the model's own register table
 * (arch/sim/core/arch_regs.c, written from the architecture text) and vperf's database
 * (include/vperf/sysregs.def) must describe the same registers the same way. A difference is a
 * misreading in one of them; neither is taken as the truth, the test names both values.
 */
#include <stdio.h>
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>
#include <vperf/spe_regs.h>
#include <sim/arch_regs.h>
#include <sim/model.h>
#include <sim/spe.h>

static unsigned int trap_of(uint8_t t)
{
	switch (t) {
	case VPERF_TRAP_NONE:
		return SIM_TRAP_NONE;
	case VPERF_TRAP_TPM:
		return SIM_TRAP_TPM;
	case VPERF_TRAP_TPM_TPMCR:
		return SIM_TRAP_TPM_TPMCR;
	case VPERF_TRAP_TPMS:
		return SIM_TRAP_TPMS;
	case VPERF_TRAP_E2PB:
		return SIM_TRAP_E2PB;
	case VPERF_TRAP_TID3:
		return SIM_TRAP_TID3;
	default:
		return SIM_TRAP_EL2_ONLY;
	}
}

static unsigned int feat_of(uint8_t f)
{
	static const unsigned int map[] = {
		[VPERF_FEAT_ID] = SIM_FEAT_ALWAYS,
		[VPERF_FEAT_PMUV3] = SIM_FEAT_PMUV3,
		[VPERF_FEAT_PMUV3P4] = SIM_FEAT_PMUV3P4,
		[VPERF_FEAT_PMUV3P9] = SIM_FEAT_PMUV3P9,
		[VPERF_FEAT_SPE] = SIM_FEAT_SPE,
		[VPERF_FEAT_SPEV1P2] = SIM_FEAT_SPEV1P2,
		[VPERF_FEAT_SPE_FDS] = SIM_FEAT_SPE_FDS,
		[VPERF_FEAT_GICV3] = SIM_FEAT_GICV3,
		[VPERF_FEAT_EL2] = SIM_FEAT_ALWAYS,
		[VPERF_FEAT_FGT] = SIM_FEAT_FGT,
		[VPERF_FEAT_PMUV3_ICNTR] = SIM_FEAT_PMUV3_ICNTR,
		[VPERF_FEAT_FGT2] = SIM_FEAT_FGT2,
	};

	return map[f];
}

static unsigned int el0_of(uint8_t e)
{
	static const unsigned int map[] = {
		[VPERF_EL0_NONE] = SIM_EL0_NONE, [VPERF_EL0_EN] = SIM_EL0_EN,
		[VPERF_EL0_SW] = SIM_EL0_SW,	 [VPERF_EL0_CR] = SIM_EL0_CR,
		[VPERF_EL0_ER] = SIM_EL0_ER,	 [VPERF_EL0_ER_RW] = SIM_EL0_ER_RW,
		[VPERF_EL0_RO] = SIM_EL0_RO,	 [VPERF_EL0_IR] = SIM_EL0_IR,
	};

	return map[e];
}

/* The database's fgt field as (register, read bit, write bit), from vperf/fgt.h's list. */
static const uint8_t fgt_of[][3] = {
#define FGT_ROW(name, reg, rbit, wbit) [VPERF_FGT_##name] = { reg, rbit, wbit },
	VPERF_FGT_FIELD_LIST(FGT_ROW)
#undef FGT_ROW
};

static bool fgt_differs(const struct sim_arch_reg *r, const struct vperf_sysreg_desc *d)
{
	return r->fgt_reg != fgt_of[d->fgt][0] || r->fgt_rbit != fgt_of[d->fgt][1] ||
	       r->fgt_wbit != fgt_of[d->fgt][2];
}

static bool is_spe(const struct sim_arch_reg *r)
{
	return r->trap == SIM_TRAP_TPMS || r->trap == SIM_TRAP_E2PB ||
	       r->enc == VPERF_ENC_PMBIDR_EL1;
}

/* Every database line is a model register with the same name, direction, trap, feature, EL0 rule,
 * fine-grained trap field and (outside SPE, whose bits the SPE family owns) RES0 bits. */
static void test_database_matches_model(void **state)
{
	unsigned int bad = 0;

	(void)state;
	for (unsigned int i = 0; i < VPERF_SR_COUNT; i++) {
		const struct vperf_sysreg_desc *d = &vperf_sysregs[i];
		const struct sim_arch_reg *r = sim_arch_reg(d->enc);

		if (!r) {
			printf("%s: not in the model's table\n", d->name);
			bad++;
			continue;
		}
		if (strcmp(r->name, d->name) || r->dir != d->access ||
		    r->trap != trap_of(d->trap) || r->feat != feat_of(d->feat) ||
		    r->el0 != el0_of(d->el0) || fgt_differs(r, d) ||
		    (!is_spe(r) && r->res0 != d->res0)) {
			printf("%s: model %s dir %u trap %u feat %u el0 %u fgt %u:%u:%u res0 "
			       "%#llx, "
			       "database dir %u trap %u feat %u el0 %u fgt %u:%u:%u res0 %#llx\n",
			       d->name, r->name, r->dir, r->trap, r->feat, r->el0, r->fgt_reg,
			       r->fgt_rbit, r->fgt_wbit, (unsigned long long)r->res0, d->access,
			       trap_of(d->trap), feat_of(d->feat), el0_of(d->el0),
			       fgt_of[d->fgt][0], fgt_of[d->fgt][1], fgt_of[d->fgt][2],
			       (unsigned long long)d->res0);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* ... and every model register is in the database. */
static void test_model_registers_in_database(void **state)
{
	const struct sim_arch_reg *r;
	unsigned int n = 0;

	(void)state;
	for (unsigned int i = 0; (r = sim_arch_reg_at(i)) != NULL; i++, n++)
		if (!vperf_sysreg_lookup(r->enc))
			fail_msg("%s: in the model, not in the database", r->name);
	assert_int_equal(n, VPERF_SR_COUNT);
}

/* The model's dispatch (the family that gives a register its behaviour, and the PMU family's
 * kind) against vperf's handler slots: a register vperf emulates as a PMU or SPE register must
 * be one for the model too, of the same kind. Registers vperf never emulates (slot NONE) have
 * no PMU kind in the model. */
static void test_dispatch_matches_slots(void **state)
{
	static const uint8_t kind_of_slot[VPERF_SLOT_COUNT] = {
		[VPERF_SLOT_PMCR] = SIM_KIND_PMCR,
		[VPERF_SLOT_PMCNTEN] = SIM_KIND_PMCNTEN,
		[VPERF_SLOT_PMINTEN] = SIM_KIND_PMINTEN,
		[VPERF_SLOT_PMOVS] = SIM_KIND_PMOVS,
		[VPERF_SLOT_PMSWINC] = SIM_KIND_PMSWINC,
		[VPERF_SLOT_PMSELR] = SIM_KIND_PMSELR,
		[VPERF_SLOT_PMCEID] = SIM_KIND_PMCEID,
		[VPERF_SLOT_PMCCNTR] = SIM_KIND_PMCCNTR,
		[VPERF_SLOT_PMXEVTYPER] = SIM_KIND_PMXEVTYPER,
		[VPERF_SLOT_PMXEVCNTR] = SIM_KIND_PMXEVCNTR,
		[VPERF_SLOT_PMZR] = SIM_KIND_PMZR,
		[VPERF_SLOT_PMUSERENR] = SIM_KIND_PMUSERENR,
		[VPERF_SLOT_PMMIR] = SIM_KIND_PMMIR,
		[VPERF_SLOT_PMEVCNTR] = SIM_KIND_PMEVCNTR,
		[VPERF_SLOT_PMEVTYPER] = SIM_KIND_PMEVTYPER,
		[VPERF_SLOT_PMCCFILTR] = SIM_KIND_PMCCFILTR,
		[VPERF_SLOT_PMICNTR] = SIM_KIND_PMICNTR,
		[VPERF_SLOT_PMICFILTR] = SIM_KIND_PMICFILTR,
		[VPERF_SLOT_PMUACR] = SIM_KIND_PMUACR,
	};
	unsigned int bad = 0;

	(void)state;
	for (unsigned int i = 0; i < VPERF_SR_COUNT; i++) {
		const struct vperf_sysreg_desc *d = &vperf_sysregs[i];
		const struct sim_arch_reg *r = sim_arch_reg(d->enc);
		bool spe_slot = d->slot >= VPERF_SLOT_SPE_PMSCR && d->slot <= VPERF_SLOT_SPE_BUFFER;
		unsigned int want_fam = kind_of_slot[d->slot] ? SIM_FAM_PMU
					: spe_slot	      ? SIM_FAM_SPE
					: r		      ? r->family
							      : 0;

		if (r && (r->kind != kind_of_slot[d->slot] || r->family != want_fam)) {
			printf("%s: model family %u kind %u, database slot %u\n", d->name,
			       r->family, r->kind, d->slot);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* SPE: no bit the model's SPE family keeps (every feature on: SPEv1p4, ERnd) is RES0 in the
 * database. Written as ~0 at EL2 and read back. */
static void test_spe_kept_bits_not_res0(void **state)
{
	struct sim_pe_config cfg;
	const struct sim_arch_reg *r;

	(void)state;
	sim_spe_default_config(&cfg, 5);
	cfg.pmsidr |= 1ull << 5; /* ERnd: PMSICR_EL1.ECOUNT exists */
	cfg.ecv = 1;		 /* FEAT_ECV: PMSCR_EL1.PCT[1] exists */
	cfg.hpmn0 = true;
	sim_model_init(&cfg);
	write_sysreg(6 | 3ull << 12, MDCR_EL2); /* EL1 owns the buffer */
	for (unsigned int i = 0; (r = sim_arch_reg_at(i)) != NULL; i++) {
		const struct vperf_sysreg_desc *d = vperf_sysreg_lookup(r->enc);
		uint64_t kept;

		if (!is_spe(r) || r->dir != SIM_DIR_RW || !d)
			continue;
		write_sysreg_enc(r->enc, ~0ull);
		kept = read_sysreg_enc(r->enc);
		if (kept & d->res0)
			fail_msg("%s: the model keeps %#llx, the database says RES0 %#llx", r->name,
				 (unsigned long long)kept, (unsigned long long)d->res0);
		write_sysreg_enc(r->enc, 0);
	}
}

/* vperf's field lists (vperf/pmu_regs.h, spe_regs.h, mdcr.h) as tables, named as written. */
#define REGISTERS_WITH_LISTS 59u
struct field {
	const char *name;
	uint64_t mask;
};
#define VROW(mask) { #mask, (uint64_t)(mask) },
#define VLIST(list)        \
	{                  \
		list(VROW) \
	}

static const struct field v_pmcr[] = VLIST(PMCR_EL0_FIELDS), v_cnt[] = VLIST(PMU_CNT_FIELDS),
			  v_swinc[] = VLIST(PMSWINC_EL0_FIELDS),
			  v_selr[] = VLIST(PMSELR_EL0_FIELDS),
			  v_userenr[] = VLIST(PMUSERENR_EL0_FIELDS),
			  v_evtyper[] = VLIST(PMEVTYPER_EL0_FIELDS),
			  v_ccfiltr[] = VLIST(PMCCFILTR_EL0_FIELDS),
			  v_icfiltr[] = VLIST(PMICFILTR_EL0_FIELDS),
			  v_pmscr[] = VLIST(PMSCR_EL1_FIELDS), v_pmscr2[] = VLIST(PMSCR_EL2_FIELDS),
			  v_pmsicr[] = VLIST(PMSICR_EL1_FIELDS),
			  v_pmsirr[] = VLIST(PMSIRR_EL1_FIELDS),
			  v_pmsfcr[] = VLIST(PMSFCR_EL1_FIELDS),
			  v_pmsevfr[] = VLIST(PMSEVFR_EL1_FIELDS),
			  v_pmslatfr[] = VLIST(PMSLATFR_EL1_FIELDS),
			  v_pmsidr[] = VLIST(PMSIDR_EL1_FIELDS),
			  v_pmbidr[] = VLIST(PMBIDR_EL1_FIELDS),
			  v_pmblimitr[] = VLIST(PMBLIMITR_EL1_FIELDS),
			  v_pmbptr[] = VLIST(PMBPTR_EL1_FIELDS),
			  v_pmbsr[] = VLIST(PMBSR_EL1_FIELDS), v_mdcr[] = VLIST(MDCR_EL2_FIELDS);

#define VRET(t) (*n = VPERF_ARRAY_SIZE(t), t)

static const struct field *vperf_pmu_fields(uint8_t slot, unsigned int *n)
{
	switch (slot) {
	case VPERF_SLOT_PMCR:
		return VRET(v_pmcr);
	case VPERF_SLOT_PMCNTEN:
	case VPERF_SLOT_PMINTEN:
	case VPERF_SLOT_PMOVS:
	case VPERF_SLOT_PMZR:
	case VPERF_SLOT_PMUACR:
		return VRET(v_cnt);
	case VPERF_SLOT_PMSWINC:
		return VRET(v_swinc);
	case VPERF_SLOT_PMSELR:
		return VRET(v_selr);
	case VPERF_SLOT_PMUSERENR:
		return VRET(v_userenr);
	case VPERF_SLOT_PMEVTYPER:
		return VRET(v_evtyper);
	case VPERF_SLOT_PMCCFILTR:
		return VRET(v_ccfiltr);
	case VPERF_SLOT_PMICFILTR:
		return VRET(v_icfiltr);
	default:
		return NULL;
	}
}

/* vperf's field list of a database line, NULL for none. */
static const struct field *vperf_fields(const struct vperf_sysreg_desc *d, unsigned int *n)
{
	static const struct {
		uint32_t enc;
		const struct field *f;
		unsigned int n;
	} by_enc[] = {
/* clang-format off */
#define BY_ENC(reg, t) { VPERF_ENC_##reg, t, VPERF_ARRAY_SIZE(t) },
		BY_ENC(PMSCR_EL1, v_pmscr) BY_ENC(PMSCR_EL2, v_pmscr2) BY_ENC(PMSICR_EL1, v_pmsicr)
		BY_ENC(PMSIRR_EL1, v_pmsirr) BY_ENC(PMSFCR_EL1, v_pmsfcr)
		BY_ENC(PMSEVFR_EL1, v_pmsevfr) BY_ENC(PMSNEVFR_EL1, v_pmsevfr)
		BY_ENC(PMSLATFR_EL1, v_pmslatfr) BY_ENC(PMSIDR_EL1, v_pmsidr)
		BY_ENC(PMBIDR_EL1, v_pmbidr) BY_ENC(PMBLIMITR_EL1, v_pmblimitr)
		BY_ENC(PMBPTR_EL1, v_pmbptr) BY_ENC(PMBSR_EL1, v_pmbsr) BY_ENC(MDCR_EL2, v_mdcr)
#undef BY_ENC
		/* clang-format on */
	};

	for (size_t i = 0; i < VPERF_ARRAY_SIZE(by_enc); i++)
		if (by_enc[i].enc == d->enc) {
			*n = by_enc[i].n;
			return by_enc[i].f;
		}
	*n = 0;
	return vperf_pmu_fields(d->slot, n);
}

static bool is_vperf_field(const struct field *v, unsigned int nv, uint64_t mask)
{
	for (unsigned int i = 0; i < nv; i++)
		if (v[i].mask == mask)
			return true;
	return false;
}

static bool is_model_field(const struct sim_reg_field *m, unsigned int nm, uint64_t mask)
{
	for (unsigned int i = 0; i < nm; i++)
		if (m[i].mask == mask)
			return true;
	return false;
}

static uint64_t model_union(const struct sim_reg_field *m, unsigned int nm)
{
	uint64_t u = 0;

	for (unsigned int i = 0; i < nm; i++)
		u |= m[i].mask;
	return u;
}

/* The differences of one register's two lists, printed; their number. */
static unsigned int compare_fields(const struct vperf_sysreg_desc *d, const struct field *v,
				   unsigned int nv, const struct sim_reg_field *m, unsigned int nm)
{
	uint64_t vu = 0, mu = model_union(m, nm);
	unsigned int bad = 0;

	for (unsigned int i = 0; i < nv; i++) {
		vu |= v[i].mask;
		if (!is_model_field(m, nm, v[i].mask)) {
			printf("%s: vperf's %s (%#llx) is no field of the model's\n", d->name,
			       v[i].name, (unsigned long long)v[i].mask);
			bad++;
		}
	}
	/* A field the model has and vperf has not: a later feature's, allowed where vperf's list
	 * names only some fields, so long as it takes no bit of vperf's fields or RES0 bits. */
	for (unsigned int i = 0; i < nm; i++)
		if (!is_vperf_field(v, nv, m[i].mask) && (m[i].mask & (vu | d->res0))) {
			printf("%s: the model's %s (%#llx) is no field of vperf's\n", d->name,
			       m[i].name, (unsigned long long)m[i].mask);
			bad++;
		}
	/* Where the database has RES0 bits, they and the model's fields are every bit, once. */
	if (d->res0 && (mu & d->res0 || (mu | d->res0) != ~0ull)) {
		printf("%s: database RES0 %#llx, the model's fields %#llx: not every bit once\n",
		       d->name, (unsigned long long)d->res0, (unsigned long long)mu);
		bad++;
	}
	return bad;
}

/* Every register both keep a field list for: each of vperf's fields is one of the model's, at the
 * same bits; each of the model's is one of vperf's, or a later feature's outside vperf's fields
 * and RES0 bits; RES0 and the model's fields cover the register. Every register vperf has a list
 * for, the model has one for. */
static void test_field_lists_match_model(void **state)
{
	unsigned int bad = 0, compared = 0;

	(void)state;
	for (unsigned int i = 0; i < VPERF_SR_COUNT; i++) {
		const struct vperf_sysreg_desc *d = &vperf_sysregs[i];
		const struct sim_arch_reg *r = sim_arch_reg(d->enc);
		unsigned int nv, nm = 0;
		const struct field *v = vperf_fields(d, &nv);
		const struct sim_reg_field *m = r ? sim_reg_fields(r, &nm) : NULL;

		if (!v)
			continue;
		if (!m) {
			printf("%s: vperf has a field list, the model none\n", d->name);
			bad++;
			continue;
		}
		bad += compare_fields(d, v, nv, m, nm);
		compared++;
	}
	printf("field lists compared: %u registers\n", compared);
	assert_int_equal(bad, 0);
	/* 31 types, PMCR, 6 SET/CLR halves, PMZR, PMUACR, PMSWINC, PMSELR, PMUSERENR, PMCCFILTR,
	 * PMICFILTR; 13 SPE registers (PMSCR_EL2 among them); MDCR_EL2. */
	assert_int_equal(compared, REGISTERS_WITH_LISTS);
}

/* The model's own lists: no two fields share a bit (also checked at compile time), and where the
 * model's table has RES0 bits for the register, RES0 and the fields are every bit. */
static void test_model_fields_cover_register(void **state)
{
	const struct sim_arch_reg *r;
	unsigned int lists = 0;

	(void)state;
	for (unsigned int i = 0; (r = sim_arch_reg_at(i)) != NULL; i++) {
		unsigned int nm;
		const struct sim_reg_field *m = sim_reg_fields(r, &nm);
		uint64_t sum = 0, u;

		if (!m)
			continue;
		lists++;
		for (unsigned int k = 0; k < nm; k++)
			sum += m[k].mask;
		u = model_union(m, nm);
		if (sum != u)
			fail_msg("%s: the model's fields overlap", r->name);
		if (r->res0 && ((u & r->res0) || (u | r->res0) != ~0ull))
			fail_msg("%s: RES0 %#llx and the model's fields %#llx are not every bit "
				 "once",
				 r->name, (unsigned long long)r->res0, (unsigned long long)u);
	}
	assert_int_equal(lists, REGISTERS_WITH_LISTS);
}

/* The mask of the model's field named name in r's list (0: none). */
static uint64_t model_field(const struct sim_arch_reg *r, const char *name)
{
	unsigned int nm;
	const struct sim_reg_field *m = sim_reg_fields(r, &nm);

	for (unsigned int i = 0; m && i < nm; i++)
		if (!strcmp(m[i].name, name))
			return m[i].mask;
	return 0;
}

/* What the model's SPE family keeps of a write of ~0 with every feature on is its field list,
 * but the fields it says it does not keep: PMBLIMITR_EL1.PMFZ (not modelled, docs/model.md),
 * PMBSR_EL1.MSS2 (a later version's); on SPEv1p4 the event filters
 * lose E[31:26] (RES0 from SPEv1p4, spe/spe_fields.h). So the lists are the model's behaviour. */
static void test_model_spe_keeps_its_fields(void **state)
{
	struct sim_pe_config cfg;
	const struct sim_arch_reg *r;
	unsigned int checked = 0;

	(void)state;
	sim_spe_default_config(&cfg, 5);
	cfg.pmsidr |= 1ull << 5 | 3ull << 16; /* ERnd, 16-bit counters: ECOUNT, MINLAT[15:0] */
	cfg.ecv = 1;			      /* FEAT_ECV: PMSCR_EL1.PCT[1] */
	cfg.hpmn0 = true;
	sim_model_init(&cfg);
	write_sysreg(6 | 3ull << 12, MDCR_EL2); /* EL1 owns the buffer */
	for (unsigned int i = 0; (r = sim_arch_reg_at(i)) != NULL; i++) {
		unsigned int nm;
		const struct sim_reg_field *m = sim_reg_fields(r, &nm);
		uint64_t want, kept;

		if (!m || !is_spe(r) || r->dir != SIM_DIR_RW)
			continue;
		want = model_union(m, nm) & ~model_field(r, "PMBLIMITR_PMFZ") &
		       ~model_field(r, "PMBSR_MSS2_MASK");
		if (r->enc == VPERF_ENC_PMSEVFR_EL1 || r->enc == VPERF_ENC_PMSNEVFR_EL1)
			want &= ~VPERF_GENMASK(31, 26);
		write_sysreg_enc(r->enc, ~0ull);
		kept = read_sysreg_enc(r->enc);
		write_sysreg_enc(r->enc, 0);
		if (kept != want)
			fail_msg("%s: the model keeps %#llx, its field list says %#llx", r->name,
				 (unsigned long long)kept, (unsigned long long)want);
		checked++;
	}
	assert_int_equal(checked, 10); /* PMSCR, PMSNEVFR ... PMBSR but the ID registers */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_database_matches_model),
		cmocka_unit_test(test_model_registers_in_database),
		cmocka_unit_test(test_dispatch_matches_slots),
		cmocka_unit_test(test_spe_kept_bits_not_res0),
		cmocka_unit_test(test_field_lists_match_model),
		cmocka_unit_test(test_model_fields_cover_register),
		cmocka_unit_test(test_model_spe_keeps_its_fields),
	};

	return cmocka_run_group_tests_name("sim_regs", tests, NULL, NULL);
}
