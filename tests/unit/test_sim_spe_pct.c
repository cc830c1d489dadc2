// SPDX-License-Identifier: MIT
/*
 * The model's PMSCR_EL1.PCT / PMSCR_EL2.PCT and the timestamp they choose. PCT is bit [6] in the
 * SPE supplement (SPE 4.3.5, 4.3.7); FEAT_ECV, not an SPE version, makes it [7:6]:
 * ID_AA64MMFR0_EL1.ECV = 0b0001 "Extends the PMSCR_EL1.PCT, PMSCR_EL2.PCT ... fields" (Arm DDI
 * 0487 D24.2.88), and CollectTimeStamp() (J1.1.1.55) reads '0':PCT<0> ("PCT<1> is RES0") without
 * it, takes 0b10 as reserved, and 0b11 as offset physical time: CNTPCT minus CNTPOFF_EL2 with
 * FEAT_ECV_POFF, CNTHCTL_EL2.ECV = 1 and, with EL3, SCR_EL3.ECVEn = 1, else minus 0 (D3.3 gives
 * the same physical offset to trace). PMSCR_EL2.PCT = 0b11 makes an EL1 owner's physical time
 * offset physical; 0b01 leaves the EL1 owner's choice. Expected values are written out here.
 */
#include "cmocka_wrap.h"
#include "sim_spe_util.h"
#include "spe_internal.h"

#define PCT(v) ((uint64_t)(v) << 6)
#define POFF   100u
#define VOFF   300u
#define NOW    (1000u + 256u + 20u) /* CNTPCT after the fillers and the load (20 cycles) */

/* A PE with SPE version pmsver and ID_AA64MMFR0_EL1.ECV = ecv, EL3 or not, the seed. */
static void init(uint8_t pmsver, uint8_t ecv, bool el3, uint64_t seed)
{
	struct sim_pe_config cfg;

	sim_spe_default_config(&cfg, pmsver);
	cfg.ecv = ecv;
	cfg.el3 = el3;
	cfg.seed = seed;
	cfg.el2_trap_cycles = 0;
	t_init_cfg(&cfg);
}

/* The timestamp of one load record EL1 takes with PMSCR_EL2.PCT = el2 and PMSCR_EL1.PCT = el1
 * (TS in PMSCR_EL1, the owner's), CNTPOFF_EL2 = POFF under CNTHCTL_EL2.ECV = ecv_on and
 * SCR_EL3.ECVEn = ecven, CNTVOFF_EL2 = VOFF. */
static uint64_t timestamp(unsigned int el2, unsigned int el1, bool ecv_on, bool ecven)
{
	struct sim_uop ld = t_load(0x400000, 0x12345678, 20);
	uint8_t got[T_LOAD_REC_LEN + 8];
	uint64_t ts = 0;

	write_sysreg(PCT(el2), PMSCR_EL2);
	t_guest_start(T_BUF_VA, T_BUF_LIMIT, T_PMSCR_E1SPE | T_PMSCR_TS | PCT(el1), 0,
		      T_INTERVAL_1);
	sim_spe_set_time(0, 1000, VOFF);
	sim_spe_set_poff(0, POFF, ecv_on, ecven);
	t_run_sampling(&t_filler, 256, &ld);
	sim_guest_spe_disable_and_drain();
	t_buf_read(0, got, sizeof(got));
	assert_int_equal(got[T_LOAD_REC_LEN - 1], 0x71); /* a Timestamp packet, not End */
	for (unsigned int i = 8; i > 0; i--)
		ts = ts << 8 | got[T_LOAD_REC_LEN - 1 + i];
	return ts;
}

/* Bit [7] is a field with FEAT_ECV whatever the SPE version, and RES0 without it even on
 * SPEv1p2: a write of all ones keeps it on SPEv1 with ECV, not on SPEv1p2 without (both
 * registers). Breaks: the model's old rule (pmscr_mask keeping bit 7 from SPEv1p2 on) fails
 * both halves. */
static void test_pct1_with_ecv_only(void **state)
{
	(void)state;
	init(1, 1, true, 1);
	guest_write(PMSCR_EL1, ~0ull);
	assert_int_equal(guest_read(PMSCR_EL1), 0xfb);
	write_sysreg(~0ull, PMSCR_EL2);
	assert_int_equal(read_sysreg(PMSCR_EL2), 0xfb);
	init(3, 0, true, 1);
	guest_write(PMSCR_EL1, ~0ull);
	assert_int_equal(guest_read(PMSCR_EL1), 0x7b);
	write_sysreg(~0ull, PMSCR_EL2);
	assert_int_equal(read_sysreg(PMSCR_EL2), 0x7b);
	assert_int_equal(sim_error_count(), 0);
}

struct ts_case {
	unsigned int el2, el1;
	uint64_t want;
};

/* Each combination of the two PCTs an EL1 owner can meet, with the offset in force (FEAT_ECV_POFF,
 * CNTHCTL_EL2.ECV, SCR_EL3.ECVEn). Breaks: the old "any non-zero PCT is physical" gives NOW for
 * the three offset rows. */
static void test_guest_physical_time(void **state)
{
	static const struct ts_case cases[] = {
		{ 0, 0, NOW - VOFF }, { 0, 1, NOW - VOFF }, { 0, 3, NOW - VOFF },
		{ 1, 0, NOW - VOFF }, { 1, 1, NOW },	    { 1, 3, NOW - POFF },
		{ 3, 0, NOW - VOFF }, { 3, 1, NOW - POFF }, { 3, 3, NOW - POFF },
	};

	(void)state;
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(cases); i++) {
		uint64_t ts;

		init(1, 2, true, 1);
		ts = timestamp(cases[i].el2, cases[i].el1, true, true);
		if (ts != cases[i].want)
			fail_msg(
				"PMSCR_EL2.PCT %u, PMSCR_EL1.PCT %u: timestamp %llu, expected %llu",
				cases[i].el2, cases[i].el1, (unsigned long long)ts,
				(unsigned long long)cases[i].want);
		assert_int_equal(sim_error_count(), 0);
	}
}

/* The physical offset is CNTPOFF_EL2 only with FEAT_ECV_POFF, CNTHCTL_EL2.ECV = 1 and, where EL3
 * is implemented, SCR_EL3.ECVEn = 1: otherwise offset physical time is the physical count.
 * Breaks: spe_physical_offset ignoring CNTHCTL_EL2.ECV, or SCR_EL3.ECVEn, or ECV_POFF. */
static void test_offset_needs_its_controls(void **state)
{
	(void)state;
	init(1, 1, true, 1); /* FEAT_ECV without CNTPOFF_EL2 */
	assert_int_equal(timestamp(1, 3, true, true), NOW);
	init(1, 2, true, 1);
	assert_int_equal(timestamp(1, 3, false, true), NOW);
	init(1, 2, true, 1);
	assert_int_equal(timestamp(1, 3, true, false), NOW);
	init(1, 2, false, 1); /* no EL3: no SCR_EL3.ECVEn to ask */
	assert_int_equal(timestamp(1, 3, true, false), NOW - POFF);
	assert_int_equal(sim_error_count(), 0);
}

/* An owning EL2 (MDCR_EL2.E2PB = 0b00) takes its own PMSCR_EL2: 0b00 virtual (not in a VHE host),
 * 0b01 physical, 0b11 offset physical. CollectTimeStamp() as the model reads it after an ISB.
 * Breaks: spe_collect_timestamp giving an owning EL2 physical time for PCT = 0b11. */
static void test_owner_el2(void **state)
{
	static const int want[4] = { SPE_TS_VIRTUAL, SPE_TS_PHYSICAL, 0, SPE_TS_OFFSET };

	(void)state;
	for (unsigned int pct = 0; pct < 4; pct++) {
		if (pct == 2)
			continue;
		init(1, 2, true, 1);
		write_sysreg(0, MDCR_EL2); /* E2PB = 0b00: EL2 owns the buffer */
		write_sysreg(T_PMSCR_TS | PCT(pct), PMSCR_EL2);
		isb();
		assert_int_equal(spe_collect_timestamp(0), want[pct]);
		assert_int_equal(sim_error_count(), 0);
	}
}

/* Without FEAT_ECV a PMSCR_EL1.PCT of 0b10 is '0':PCT<0>: virtual time, as PCT[1] is RES0 (and
 * dropped by the write). Breaks: the old "any non-zero PCT" reading of a stored bit 7. */
static void test_no_ecv_bit7_ignored(void **state)
{
	(void)state;
	init(3, 0, true, 1);
	assert_int_equal(timestamp(1, 2, true, true), NOW - VOFF);
	assert_int_equal(sim_error_count(), 0);
}

/* With FEAT_ECV, 0b10 is reserved (CONSTRAINED UNPREDICTABLE, a non-reserved value): over seeds
 * the model gives virtual, physical and offset physical time, never anything else. */
static void test_reserved_pct(void **state)
{
	bool seen[3] = { false, false, false };

	(void)state;
	for (uint64_t seed = 1; seed <= 24; seed++) {
		uint64_t ts;

		init(1, 2, true, seed);
		ts = timestamp(1, 2, true, true);
		assert_true(ts == NOW - VOFF || ts == NOW || ts == NOW - POFF);
		seen[ts == NOW - VOFF ? 0 : ts == NOW ? 1 : 2] = true;
		assert_int_equal(sim_error_count(), 0);
	}
	assert_true(seen[0] && seen[1] && seen[2]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pct1_with_ecv_only),
		cmocka_unit_test(test_guest_physical_time),
		cmocka_unit_test(test_offset_needs_its_controls),
		cmocka_unit_test(test_owner_el2),
		cmocka_unit_test(test_no_ecv_bit7_ignored),
		cmocka_unit_test(test_reserved_pct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
