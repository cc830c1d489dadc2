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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_database_matches_model),
		cmocka_unit_test(test_model_registers_in_database),
		cmocka_unit_test(test_dispatch_matches_slots),
		cmocka_unit_test(test_spe_kept_bits_not_res0),
	};

	return cmocka_run_group_tests_name("sim_regs", tests, NULL, NULL);
}
