// SPDX-License-Identifier: MIT
/*
 * The model's FEAT_FGT traps of the SPE registers (arch/sim/spe/spe_fgt.c): for every SPE register,
 * every bit of HDFGRTR_EL2 / HDFGWTR_EL2 set alone (and, for the one bit of inverted sense,
 * nPMSNEVFR_EL1, clear alone), at EL1 with MDCR_EL2.TPMS = 0 and E2PB = 0b11 so that only the
 * fine-grained trap can trap: the access traps to EL2 with EC 0x18 exactly when the bit names it
 * in that direction, on a PE with FEAT_FGT; never on a PE of the same system without it; EL0
 * stays UNDEFINED and an MSR to a read-only register stays UNDEFINED, before any trap. The bit
 * positions are written out here from the descriptions of the two registers in Arm DDI 0487 K.a
 * (D24.2), not taken from the model.
 */
#include "cmocka_wrap.h"
#include "sim_spe_util.h"

#define NPMSNEVFR 62 /* 0 traps, in both registers */

struct reg {
	const char *name;
	uint32_t enc;
	int rbit, wbit; /* HDFGRTR_EL2 / HDFGWTR_EL2 bit; -1: none traps that direction */
	bool ro;
};

static const struct reg regs[] = {
	{ "PMBLIMITR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 10, 0), 23, 23, false },
	{ "PMBPTR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 10, 1), 24, 24, false },
	{ "PMBSR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 10, 3), 25, 25, false },
	{ "PMSCR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 9, 0), 26, 26, false },
	{ "PMSEVFR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 9, 5), 27, 27, false },
	{ "PMSFCR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 9, 4), 28, 28, false },
	{ "PMSICR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 9, 2), 29, 29, false },
	{ "PMSIDR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 9, 7), 30, -1, true },
	{ "PMSIRR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 9, 3), 31, 31, false },
	{ "PMSLATFR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 9, 6), 32, 32, false },
	{ "PMSNEVFR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 9, 1), NPMSNEVFR, NPMSNEVFR, false },
	{ "PMBIDR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 10, 7), 63, -1, true },
	/* FEAT_SPE_FDS: trapped by FEAT_FGT2's registers only */
	{ "PMSDSFR_EL1", VPERF_SYSREG_ENC(3, 0, 9, 10, 4), -1, -1, false },
};

/* The value of a trap register with only `bit` in its trapping state (-1: none): nPMSNEVFR_EL1
 * set (not trapping) unless it is the bit under test. */
static uint64_t only(int bit)
{
	uint64_t none = 1ull << NPMSNEVFR;

	if (bit < 0)
		return none;
	return bit == NPMSNEVFR ? 0 : none | 1ull << bit;
}

static void init(void)
{
	struct sim_pe_config cfg;

	sim_spe_default_config(&cfg, 5); /* SPEv1p4: every register of the list exists */
	cfg.seed = 3;
	cfg.fgt = true;
	cfg.cpus_without_fgt = 1u << 1;
	t_init_cfg(&cfg);
}

static void set_traps(uint64_t rtr, uint64_t wtr)
{
	write_sysreg(rtr, HDFGRTR_EL2);
	write_sysreg(wtr, HDFGWTR_EL2);
}

/* One access at el on the current CPU; true if it trapped to EL2 (the syndrome checked), false if
 * performed; UNDEFINED fails unless undef is expected. */
static bool traps(const struct reg *r, unsigned int el, bool read, bool undef)
{
	unsigned int before = t_hyp.traps;
	const struct sim_guest_stats *gs = sim_guest_stats(sim_current_cpu());

	write_sysreg(MDCR_EL2_E2PB_EL1, MDCR_EL2); /* TPMS = 0, E2PB = 0b11 */
	sim_set_el(el);
	if (read)
		(void)guest_mrs(r->enc);
	else
		guest_msr(r->enc, 0);
	sim_set_el(1);
	if (undef) {
		assert_int_equal(gs->last, SIM_ACC_UNDEF);
		return false;
	}
	if (gs->last == SIM_ACC_TRAP_EL2) {
		assert_int_equal(t_hyp.traps, before + 1);
		assert_int_equal(gs->last_esr >> 26, 0x18);
		assert_int_equal(gs->last_esr & 1, read);
		return true;
	}
	assert_int_equal(gs->last, SIM_ACC_OK);
	return false;
}

static void one_register(const struct reg *r, bool fgt)
{
	for (int rd = 0; rd < 2; rd++) {
		int want = rd ? r->rbit : r->wbit;
		bool undef = r->ro && !rd;

		for (int bit = 0; bit < 64; bit++) {
			uint64_t v = only(bit);
			bool got;

			set_traps(rd ? v : only(-1), rd ? only(-1) : v);
			got = traps(r, 1, rd, undef);

			if (got != (fgt && !undef && bit == want))
				fail_msg("%s %s bit %d fgt %d: trapped %d", r->name,
					 rd ? "read" : "write", bit, fgt, got);
			/* EL0: UNDEFINED before any fine-grained trap (SPE 3.2.3, 3.4.6). */
			(void)traps(r, 0, rd, true);
		}
	}
}

/* CPU 0 has FEAT_FGT: each bit traps its register and direction only. */
static void test_each_bit(void **state)
{
	(void)state;
	init();
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(regs); i++)
		one_register(&regs[i], true);
	assert_int_equal(sim_error_count(), 0);
}

/* CPU 1 of the same system has none (HDFGRTR_EL2 / HDFGWTR_EL2 do not exist there): nothing
 * traps but by MDCR_EL2, whatever the model's storage of the two registers holds. */
static void test_no_fgt_cpu(void **state)
{
	(void)state;
	init();
	sim_set_cpu(1);
	sim_poke(1, VPERF_ENC_HDFGRTR_EL2, ~0ull & ~(1ull << NPMSNEVFR));
	sim_poke(1, VPERF_ENC_HDFGWTR_EL2, ~0ull & ~(1ull << NPMSNEVFR));
	write_sysreg(1, HCR_EL2);
	sim_set_el(1);
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(regs); i++)
		for (int rd = 0; rd < 2; rd++)
			assert_false(traps(&regs[i], 1, rd, regs[i].ro && !rd));
	assert_int_equal(t_hyp.traps, 0);
	sim_set_cpu(0);
}

/* The fine-grained traps change nothing when MDCR_EL2 traps already: the same EC 0x18, once. */
static void test_with_mdcr_traps(void **state)
{
	const struct reg *pmbsr = &regs[2];
	unsigned int before;

	(void)state;
	init();
	set_traps(only(-1), only(25));
	write_sysreg(MDCR_EL2_E2PB_EL1_TRAP, MDCR_EL2);
	before = t_hyp.traps;
	guest_msr(pmbsr->enc, 0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	assert_int_equal(t_hyp.traps, before + 1);
	/* Reads stay the hardware's with only the write bit set and E2PB = 0b11. */
	write_sysreg(MDCR_EL2_E2PB_EL1, MDCR_EL2);
	(void)guest_mrs(pmbsr->enc);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_OK);
	assert_int_equal(t_hyp.traps, before + 1);
}

/* Reset with EL3 (the highest Exception level): the SPE fields are UNKNOWN, seeded garbage, and
 * only the fields that exist get any (HDFGWTR_EL2 bit 30 is RES0; nPMSNEVFR_EL1 needs FnE, SPEv1p2);
 * with reset_zero, or without SPE, none. The PMU's fields [22:12], 57, 58 are the PMU family's. */
static void test_reset_unknown(void **state)
{
	const uint64_t pmu = VPERF_GENMASK(22, 12) | VPERF_BIT(57) | VPERF_BIT(58);
	const uint64_t spe_r = VPERF_GENMASK(32, 23) | VPERF_BIT(63);
	const uint64_t spe_w = VPERF_GENMASK(32, 23) & ~VPERF_BIT(30);

	(void)state;
	for (uint8_t v = 0; v <= 5; v++) {
		uint64_t seen_r = 0, seen_w = 0;

		for (uint64_t seed = 1; seed <= 32; seed++) {
			struct sim_pe_config cfg;

			sim_spe_default_config(&cfg, v);
			cfg.seed = seed;
			cfg.fgt = true;
			sim_model_init(&cfg);
			seen_r |= sim_peek(0, VPERF_ENC_HDFGRTR_EL2) & ~pmu;
			seen_w |= sim_peek(0, VPERF_ENC_HDFGWTR_EL2) & ~pmu;
			cfg.reset_zero = true;
			sim_model_init(&cfg);
			assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2) & ~pmu, 0);
			assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2) & ~pmu, 0);
		}
		if (!v) {
			assert_int_equal(seen_r | seen_w, 0);
			continue;
		}
		assert_int_equal(seen_r, spe_r | (v >= 3 ? 1ull << NPMSNEVFR : 0));
		assert_int_equal(seen_w, spe_w | (v >= 3 ? 1ull << NPMSNEVFR : 0));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_bit),
		cmocka_unit_test(test_no_fgt_cpu),
		cmocka_unit_test(test_with_mdcr_traps),
		cmocka_unit_test(test_reset_unknown),
	};

	return cmocka_run_group_tests_name("sim_spe_fgt", tests, NULL, NULL);
}
