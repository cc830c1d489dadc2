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
		[VPERF_FEAT_ID] = SIM_FEAT_ALWAYS,	 [VPERF_FEAT_PMUV3] = SIM_FEAT_PMUV3,
		[VPERF_FEAT_PMUV3P4] = SIM_FEAT_PMUV3P4, [VPERF_FEAT_PMUV3P9] = SIM_FEAT_PMUV3P9,
		[VPERF_FEAT_SPE] = SIM_FEAT_SPE,	 [VPERF_FEAT_SPEV1P2] = SIM_FEAT_SPEV1P2,
		[VPERF_FEAT_SPE_FDS] = SIM_FEAT_SPE_FDS, [VPERF_FEAT_GICV3] = SIM_FEAT_GICV3,
		[VPERF_FEAT_EL2] = SIM_FEAT_ALWAYS,
	};

	return map[f];
}

static bool is_spe(const struct sim_arch_reg *r)
{
	return r->trap == SIM_TRAP_TPMS || r->trap == SIM_TRAP_E2PB ||
	       r->enc == VPERF_ENC_PMBIDR_EL1;
}

/* Every database line is a model register with the same name, direction, trap, feature and
 * (outside SPE, whose bits the SPE family owns) RES0 bits. */
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
		    (!is_spe(r) && r->res0 != d->res0)) {
			printf("%s: model %s dir %u trap %u feat %u res0 %#llx, database dir %u "
			       "trap %u feat %u res0 %#llx\n",
			       d->name, r->name, r->dir, r->trap, r->feat,
			       (unsigned long long)r->res0, d->access, trap_of(d->trap),
			       feat_of(d->feat), (unsigned long long)d->res0);
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
		cmocka_unit_test(test_spe_kept_bits_not_res0),
	};

	return cmocka_run_group_tests_name("sim_regs", tests, NULL, NULL);
}
