// SPDX-License-Identifier: MIT
/*
 * The model's SPE registers: the trap matrix (every SPE register x EL0/EL1 x MDCR_EL2.TPMS x
 * MDCR_EL2.E2PB x read/write, with the exact ESR_EL2), the bits each register keeps, PMBIDR_EL1.P,
 * the ID registers from the configuration, the PMBIRQ level, a buffer firmware keeps for
 * Secure state (MDCR_EL3.NSPB), and the registers a reset or a power-down (sim_power_cycle)
 * leaves: UNKNOWN, seeded garbage (SPE 4.2). Expected values come from the
 * SPE 3.2.3 / SPE 3.4.6 (CheckStatisticalProfilingAccess, CheckProfilingBufferAccess) and
 * SPE 4.3 (register layouts), written out here by hand.
 */
#include <string.h>

#include "cmocka_wrap.h"
#include "sim_spe_util.h"

enum kind {
	SAMPLING, /* PMS*: TPMS */
	BUFFER,	  /* PMBLIMITR/PMBPTR/PMBSR: E2PB<0> */
	PMBIDR,	  /* never trapped */
	EL2ONLY,  /* PMSCR_EL2 */
};

struct reg {
	const char *name;
	uint8_t op0, op1, crn, crm, op2;
	enum kind kind;
	bool ro;
};

/* Encodings from the SPE supplement Table 7; PMSNEVFR_EL1 (3,0,9,9,1) and PMSDSFR_EL1
 * (3,0,9,10,4) from the System register index of Arm DDI 0487 K.a. */
static const struct reg regs[] = {
	{ "PMSCR_EL1", 3, 0, 9, 9, 0, SAMPLING, false },
	{ "PMSNEVFR_EL1", 3, 0, 9, 9, 1, SAMPLING, false },
	{ "PMSICR_EL1", 3, 0, 9, 9, 2, SAMPLING, false },
	{ "PMSIRR_EL1", 3, 0, 9, 9, 3, SAMPLING, false },
	{ "PMSFCR_EL1", 3, 0, 9, 9, 4, SAMPLING, false },
	{ "PMSEVFR_EL1", 3, 0, 9, 9, 5, SAMPLING, false },
	{ "PMSLATFR_EL1", 3, 0, 9, 9, 6, SAMPLING, false },
	{ "PMSIDR_EL1", 3, 0, 9, 9, 7, SAMPLING, true },
	{ "PMBLIMITR_EL1", 3, 0, 9, 10, 0, BUFFER, false },
	{ "PMBPTR_EL1", 3, 0, 9, 10, 1, BUFFER, false },
	{ "PMBSR_EL1", 3, 0, 9, 10, 3, BUFFER, false },
	{ "PMSDSFR_EL1", 3, 0, 9, 10, 4, SAMPLING, false },
	{ "PMBIDR_EL1", 3, 0, 9, 10, 7, PMBIDR, true },
	{ "PMSCR_EL2", 3, 4, 9, 9, 0, EL2ONLY, false },
};

static uint32_t enc_of(const struct reg *r)
{
	return VPERF_SYSREG_ENC(r->op0, r->op1, r->crn, r->crm, r->op2);
}

static enum sim_access expected(const struct reg *r, unsigned int el, bool tpms, unsigned int e2pb,
				bool read)
{
	if (r->kind == EL2ONLY || el == 0)
		return SIM_ACC_UNDEF;
	if (r->ro && !read)
		return SIM_ACC_UNDEF;
	if (r->kind == SAMPLING && tpms)
		return SIM_ACC_TRAP_EL2;
	if (r->kind == BUFFER && !(e2pb & 1))
		return SIM_ACC_TRAP_EL2;
	return SIM_ACC_OK;
}

/* ESR_EL2 for EC 0x18 (D24.2.40), Rt as the model chose it. */
static uint64_t esr_for(const struct reg *r, unsigned int rt, bool read)
{
	uint64_t iss = (uint64_t)r->op0 << 20 | (uint64_t)r->op2 << 17 | (uint64_t)r->op1 << 14 |
		       (uint64_t)r->crn << 10 | (uint64_t)rt << 5 | (uint64_t)r->crm << 1 |
		       (read ? 1u : 0u);

	return 0x18ull << 26 | 1ull << 25 | iss;
}

static void access_once(const struct reg *r, unsigned int el, bool tpms, unsigned int e2pb,
			bool read)
{
	enum sim_access want = expected(r, el, tpms, e2pb, read);
	unsigned int traps = t_hyp.traps;
	const struct sim_guest_stats *gs = sim_guest_stats(0);
	uint64_t v = 0;

	write_sysreg((uint64_t)e2pb << 12 | (tpms ? MDCR_EL2_TPMS : 0), MDCR_EL2);
	sim_set_el(el);
	if (read)
		v = guest_mrs(enc_of(r));
	else
		guest_msr(enc_of(r), 0);
	sim_set_el(1);
	if (gs->last != want)
		fail_msg("%s el%u tpms %d e2pb %u %s: access %d, expected %d", r->name, el, tpms,
			 e2pb, read ? "read" : "write", gs->last, want);
	assert_int_equal(t_hyp.traps, traps + (want == SIM_ACC_TRAP_EL2));
	if (want == SIM_ACC_TRAP_EL2) {
		unsigned int rt = (unsigned int)((gs->last_esr >> 5) & 31);

		assert_int_equal(gs->last_esr, esr_for(r, rt, read));
		if (read)
			assert_int_equal(v, 0x5a);
	}
	if (want == SIM_ACC_UNDEF && read)
		assert_int_equal(v, 0);
}

/* Every SPE register x EL0/EL1 x TPMS x E2PB (0b00, 0b10, 0b11) x read/write. */
static void test_trap_matrix(void **state)
{
	static const unsigned int e2pbs[] = { 0, 2, 3 };
	unsigned int n = 0;

	(void)state;
	t_init(5, 1); /* SPEv1p4: every register of the list exists */
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(regs); i++)
		for (unsigned int el = 0; el < 2; el++)
			for (int tpms = 0; tpms < 2; tpms++)
				for (size_t e = 0; e < VPERF_ARRAY_SIZE(e2pbs); e++)
					for (int rd = 0; rd < 2; rd++, n++)
						access_once(&regs[i], el, tpms, e2pbs[e], rd);
	assert_int_equal(n, 14 * 2 * 2 * 3 * 2);
	assert_int_equal(sim_error_count(), 0);
}

/* Registers of later SPE versions do not exist on SPEv1: UNDEFINED at EL1 even with TPMS. */
static void test_absent_registers_undef(void **state)
{
	const uint32_t encs[] = { VPERF_SYSREG_ENC(3, 0, 9, 9, 1),
				  VPERF_SYSREG_ENC(3, 0, 9, 10, 4) };

	(void)state;
	t_init(1, 1);
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(encs); i++) {
		for (int tpms = 0; tpms < 2; tpms++) {
			write_sysreg(MDCR_EL2_E2PB_EL1 | (tpms ? MDCR_EL2_TPMS : 0), MDCR_EL2);
			assert_int_equal(guest_mrs(encs[i]), 0);
			assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
		}
	}
	assert_int_equal(t_hyp.traps, 0);
	/* And without SPE at all, PMSCR_EL1 is UNDEFINED too. */
	{
		struct sim_pe_config cfg;

		sim_default_config(&cfg);
		t_init_cfg(&cfg);
		guest_write(PMSCR_EL1, T_PMSCR_E1SPE);
		assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	}
}

struct mask_case {
	uint32_t enc;
	uint8_t pmsver;
	uint64_t kept; /* what a write of all ones reads back */
};

/* SPE 4.3.x field layouts; later fields per spe_internal.h's sources. */
static const struct mask_case masks[] = {
	/* PMSCR_EL1: PCT[6] TS[5] PA[4] CX[3] E1SPE[1] E0SPE[0]; PCT[7] with FEAT_ECV only, not
	 * with SPEv1p2 (test_sim_spe_pct.c) */
	{ VPERF_ENC_PMSCR_EL1, 1, 0x7b },
	{ VPERF_ENC_PMSCR_EL1, 3, 0x7b },
	/* PMSICR_EL1: COUNT[31:0] (ECOUNT only with ERnd) */
	{ VPERF_ENC_PMSICR_EL1, 1, 0xffffffffull },
	/* PMSIRR_EL1: INTERVAL[31:8] RND[0] */
	{ VPERF_ENC_PMSIRR_EL1, 1, 0xffffff01ull },
	/* PMSFCR_EL1: ST LD B [18:16], FL FT FE [2:0]; FnE[3] (SPEv1p2); FDS[4], FP/SIMD [20:19],
	 * Bm..SIMDm [52:48] (SPEv1p4 defaults: FDS, EFT) */
	{ VPERF_ENC_PMSFCR_EL1, 1, 0x70007ull },
	{ VPERF_ENC_PMSFCR_EL1, 3, 0x7000full },
	{ VPERF_ENC_PMSFCR_EL1, 5, 0x001f0000001f001full },
	/* PMSEVFR_EL1: E[63:48,31:24,15:12,7,5,3,1]; SPEv1p1 E[11], E[18:17]; SPEv1p2 E[6]
	 * (D18.2.6; test_vspe_version_regs.c has every version) */
	{ VPERF_ENC_PMSEVFR_EL1, 1, 0xffff0000ff00f0aaull },
	{ VPERF_ENC_PMSNEVFR_EL1, 3, 0xffff0000ff06f8eaull },
	/* PMSLATFR_EL1: MINLAT[11:0] with 12-bit counters */
	{ VPERF_ENC_PMSLATFR_EL1, 1, 0xfffull },
	/* PMBLIMITR_EL1: LIMIT[63:12] FM[2:1] E[0] */
	{ VPERF_ENC_PMBLIMITR_EL1, 1, 0xfffffffffffff007ull },
	/* PMBPTR_EL1: PTR[63:0] */
	{ VPERF_ENC_PMBPTR_EL1, 1, ~0ull },
	/* PMBSR_EL1: EC[31:26] DL[19] EA[18] S[17] COLL[16] MSS[15:0] */
	{ VPERF_ENC_PMBSR_EL1, 1, 0xfc0fffffull },
	{ VPERF_ENC_PMSDSFR_EL1, 5, ~0ull },
};

static void test_write_masks(void **state)
{
	(void)state;
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(masks); i++) {
		t_init(masks[i].pmsver, 1);
		guest_msr(masks[i].enc, ~0ull);
		assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_OK);
		if (guest_mrs(masks[i].enc) != masks[i].kept)
			fail_msg("case %zu: read %#llx, expected %#llx", i,
				 (unsigned long long)guest_mrs(masks[i].enc),
				 (unsigned long long)masks[i].kept);
	}
	/* PMSCR_EL2 at EL2: the same layout as PMSCR_EL1 (SPE 4.3.7). */
	t_init(1, 1);
	write_sysreg(~0ull, PMSCR_EL2);
	assert_int_equal(read_sysreg(PMSCR_EL2), 0x7b);
	assert_int_equal(sim_error_count(), 0);
}

/* With PMSIDR_EL1.ERnd = 1, PMSICR_EL1.ECOUNT [63:56] exists (SPE 4.3.10). */
static void test_pmsicr_ecount(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	sim_spe_default_config(&cfg, 1);
	cfg.pmsidr |= 1ull << 5; /* ERnd */
	t_init_cfg(&cfg);
	guest_write(PMSICR_EL1, ~0ull);
	assert_int_equal(guest_read(PMSICR_EL1), 0xff000000ffffffffull);
}

/* SPE 4.3.1: PMBIDR_EL1.P reads as one at Non-secure EL1 when MDCR_EL2.E2PB == 0b00, zero when
 * EL1 owns the buffer and at EL2; PMBIDR_EL1 is never trapped. */
static void test_pmbidr_p(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	sim_spe_default_config(&cfg, 1);
	cfg.pmbidr = 0x3; /* Align = doubleword */
	t_init_cfg(&cfg);
	write_sysreg(MDCR_EL2_E2PB_EL2 | MDCR_EL2_TPMS, MDCR_EL2);
	assert_int_equal(guest_read(PMBIDR_EL1), 0x13);
	write_sysreg(MDCR_EL2_E2PB_EL1_TRAP, MDCR_EL2);
	assert_int_equal(guest_read(PMBIDR_EL1), 0x03);
	write_sysreg(MDCR_EL2_E2PB_EL1, MDCR_EL2);
	assert_int_equal(guest_read(PMBIDR_EL1), 0x03);
	write_sysreg(MDCR_EL2_E2PB_EL2, MDCR_EL2);
	assert_int_equal(read_sysreg(PMBIDR_EL1), 0x03);
	assert_int_equal(t_hyp.traps, 0);
}

/* One access of r at EL1 where the firmware keeps the buffer: what a PE without NSPB does
 * (expected()), but an access no EL2 trap took traps to EL3 instead: UNDEFINED for the guest,
 * one more model error. */
static void el3_access_once(const struct reg *r, bool tpms, unsigned int e2pb, bool read,
			    unsigned int *errors)
{
	enum sim_access want = expected(r, 1, tpms, e2pb, read);
	bool el3 = want == SIM_ACC_OK && r->kind != PMBIDR;
	uint64_t v = 0;

	write_sysreg((uint64_t)e2pb << 12 | (tpms ? MDCR_EL2_TPMS : 0), MDCR_EL2);
	if (read)
		v = guest_mrs(enc_of(r));
	else
		guest_msr(enc_of(r), 1);
	*errors += el3;
	if (sim_guest_stats(0)->last != (el3 ? SIM_ACC_UNDEF : want) ||
	    sim_error_count() != *errors)
		fail_msg("%s tpms %d e2pb %u %s: access %d, %u errors", r->name, tpms, e2pb,
			 read ? "read" : "write", sim_guest_stats(0)->last, sim_error_count());
	if (r->kind == PMBIDR && read)
		assert_int_equal(v, 0x13);
}

/* Firmware keeps the buffer for Secure state (MDCR_EL3.NSPB = 0b00, SPE 3.4.2): PMBIDR_EL1.P
 * reads 1 at EL2 and at Non-secure EL1 whatever E2PB (SPE 4.3.1). Every other SPE register,
 * from EL2 or from EL1 when no MDCR_EL2 trap takes it first, traps to EL3 (SPE 4.3, "Traps and
 * enables"; the order of SPE 3.2.3 and 3.4.6): the model reports each as an error and makes the
 * access UNDEFINED, reads 0, writes nothing. */
static void test_el3_keeps_buffer(void **state)
{
	static const unsigned int e2pbs[] = { 0, 2, 3 };
	struct sim_pe_config cfg;
	unsigned int errors = 0;

	(void)state;
	sim_spe_default_config(&cfg, 5);
	cfg.pmbidr = 0x3;
	cfg.mdcr_el3_nspb_secure = true;
	t_init_cfg(&cfg);
	assert_int_equal(sim_error_count(), 0); /* MDCR_EL2 and HCR_EL2 are no SPE registers */
	assert_int_equal(read_sysreg(PMBIDR_EL1), 0x13);
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(regs); i++)
		for (int tpms = 0; tpms < 2; tpms++)
			for (size_t e = 0; e < VPERF_ARRAY_SIZE(e2pbs); e++)
				for (int rd = 0; rd < 2; rd++)
					el3_access_once(&regs[i], tpms, e2pbs[e], rd, &errors);
	/* At EL2 every SPE register but PMBIDR_EL1 traps to EL3. */
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(regs); i++) {
		if (regs[i].kind == PMBIDR)
			continue;
		sim_poke(0, enc_of(&regs[i]), 0x1000);
		assert_int_equal(read_sysreg_enc(enc_of(&regs[i])), 0);
		if (!regs[i].ro)
			write_sysreg_enc(enc_of(&regs[i]), 0x2000);
		assert_int_equal(sim_peek(0, enc_of(&regs[i])), 0x1000);
		errors += regs[i].ro ? 1 : 2;
		assert_int_equal(sim_error_count(), errors);
	}
}

/* ... and SPE never samples in Non-secure state (ProfilingBufferEnabled, SPE 3.4.6: the owner's
 * Security state is not the current one), whatever the buffer registers hold, for an EL1 or an
 * EL2 owner (MDCR_EL2.E2PB 0b11, 0b00): the same set-up samples with NSPB = 0b11. */
static void test_el3_buffer_never_samples(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	for (unsigned int k = 0; k < 4; k++) {
		bool secure = k & 1, el2 = k & 2;

		sim_spe_default_config(&cfg, 1);
		cfg.mdcr_el3_nspb_secure = secure;
		t_init_cfg(&cfg);
		sim_poke(0, VPERF_ENC_PMBPTR_EL1, T_BUF_VA);
		sim_poke(0, VPERF_ENC_PMBLIMITR_EL1, T_BUF_LIMIT | T_PMBLIMITR_E);
		sim_poke(0, VPERF_ENC_PMSIRR_EL1, T_INTERVAL_1);
		sim_poke(0, VPERF_ENC_PMSCR_EL1, T_PMSCR_E1SPE);
		sim_poke(0, VPERF_ENC_PMSCR_EL2, T_PMSCR_E1SPE); /* E2SPE */
		write_sysreg(el2 ? MDCR_EL2_E2PB_EL2 : MDCR_EL2_E2PB_EL1, MDCR_EL2);
		isb();
		sim_set_el(el2 ? 2 : 1);
		t_one_record();
		sim_set_el(1);
		t_drain();
		if (!secure) {
			assert_true(sim_spe_stats(0)->pop > 0);
			continue;
		}
		assert_int_equal(sim_spe_stats(0)->pop, 0);
		assert_int_equal(sim_spe_stats(0)->written, 0);
		assert_false(sim_line(0, SIM_LINE_PMBIRQ));
		assert_int_equal(sim_error_count(), 0);
	}
}

/* The ID registers come from the configuration; the default ones (sim/spe.h) are: FE FT FL
 * ArchInst LDS, Interval 256, MaxSize 64 bytes, 12-bit counters (0x26001f); FnE from PMSVer 3
 * (bit 6); FDS (bit 7) and EFT (bit 26) from PMSVer 5. ID_AA64DFR0_EL1.PMSVer follows. */
static void test_id_registers(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	assert_int_equal(sim_spe_default_pmsidr(1), 0x2601full);
	assert_int_equal(sim_spe_default_pmsidr(3), 0x2605full);
	assert_int_equal(sim_spe_default_pmsidr(5), 0x40260dfull);
	assert_int_equal(sim_spe_default_pmbidr(), 0);
	sim_spe_default_config(&cfg, 3);
	cfg.pmsidr = 0x37306ull; /* 16-bit counters, MaxSize 128, Interval 768, FL FT */
	t_init_cfg(&cfg);
	assert_int_equal(guest_read(PMSIDR_EL1), 0x37306ull);
	assert_int_equal((guest_read(ID_AA64DFR0_EL1) >> 32) & 0xf, 3);
	/* 16-bit counters: PMSLATFR_EL1.MINLAT is 16 bits wide. */
	guest_write(PMSLATFR_EL1, ~0ull);
	assert_int_equal(guest_read(PMSLATFR_EL1), 0xffff);
}

/* SPE 3.5: PMBIRQ is a level driven by PMBSR_EL1.S: a direct write of S = 1 asserts it, S = 0
 * deasserts it. */
static void test_pmbirq_level(void **state)
{
	(void)state;
	t_init(1, 1);
	assert_false(sim_line(0, SIM_LINE_PMBIRQ));
	guest_write(PMBSR_EL1, T_PMBSR_S);
	assert_true(sim_line(0, SIM_LINE_PMBIRQ));
	guest_write(PMBSR_EL1, T_PMBSR_COLL);
	assert_false(sim_line(0, SIM_LINE_PMBIRQ));
	write_sysreg(T_PMBSR_S | T_PMBSR_DL, PMBSR_EL1);
	assert_true(sim_line(0, SIM_LINE_PMBIRQ));
	assert_int_equal(sim_line_intid(SIM_LINE_PMBIRQ), 21);
}

/* ---- reset and power-down ------------------------------------------------------------------ */

/* A model with SPEv1p4 (every register of the list exists) and the seed, the registers that
 * reset to UNKNOWN values as seeded garbage (reset_zero off); secure: firmware keeps the buffer
 * (MDCR_EL3.NSPB = 0b00). */
static void unknown_init(uint64_t seed, bool secure)
{
	struct sim_pe_config cfg;

	sim_spe_default_config(&cfg, 5);
	cfg.seed = seed;
	cfg.reset_zero = false;
	cfg.mdcr_el3_nspb_secure = secure;
	sim_model_init(&cfg);
	sim_set_cpu(0);
}

/* The control and buffer registers as a reset or a power-down leaves them (SPE 4.2):
 * PMBLIMITR_EL1.E is 0, and PMBIRQ is the level PMBSR_EL1.S drives (SPE 3.5). OR-ed into seen[]
 * (one entry a register of regs[]); *s_high / *s_low: a PMBSR_EL1.S of 1 / 0 was found. */
static void check_reset_values(uint64_t seen[], bool *s_high, bool *s_low)
{
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(regs); i++) {
		uint64_t v = sim_peek(0, enc_of(&regs[i]));

		if (regs[i].ro)
			continue;
		seen[i] |= v;
		if (enc_of(&regs[i]) == VPERF_ENC_PMBLIMITR_EL1)
			assert_int_equal(v & T_PMBLIMITR_E, 0);
	}
	if (sim_peek(0, VPERF_ENC_PMBSR_EL1) & T_PMBSR_S) {
		assert_true(sim_line(0, SIM_LINE_PMBIRQ));
		*s_high = true;
	} else {
		assert_false(sim_line(0, SIM_LINE_PMBIRQ));
		*s_low = true;
	}
}

/* Every register but the ID ones (and PMBLIMITR_EL1.E) resets to an IMPLEMENTATION DEFINED value
 * that may be UNKNOWN (SPE 4.2): the model's seeded garbage, not zeros, so that software relying
 * on zeros (a stray PMBSR_EL1.S, PMSCR_EL2's enables, a filter) is caught. A reset that leaves
 * PMBSR_EL1.S set asserts PMBIRQ (SPE 3.5). */
static void test_reset_unknown(void **state)
{
	uint64_t seen[VPERF_ARRAY_SIZE(regs)] = { 0 };
	bool s_high = false, s_low = false;

	(void)state;
	for (uint64_t seed = 1; seed <= 16; seed++) {
		unknown_init(seed, false);
		check_reset_values(seen, &s_high, &s_low);
		assert_int_equal(sim_error_count(), 0);
	}
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(regs); i++)
		if (!regs[i].ro && !seen[i])
			fail_msg("%s reset to 0 with every seed", regs[i].name);
	assert_true(s_high && s_low);
}

/* A power-down (sim_power_cycle) loses what the software wrote: the registers are UNKNOWN again
 * (SPE 4.2), here written to 0 and PMBSR_EL1.S to 1 (PMBIRQ high) before each one, and PMBIRQ
 * follows the PMBSR_EL1.S it leaves (SPE 3.5). */
static void test_power_cycle_unknown(void **state)
{
	uint64_t seen[VPERF_ARRAY_SIZE(regs)] = { 0 };
	bool s_high = false, s_low = false;

	(void)state;
	unknown_init(7, false);
	for (unsigned int n = 0; n < 16; n++) {
		uint64_t others = 0;

		for (size_t i = 0; i < VPERF_ARRAY_SIZE(regs); i++)
			if (!regs[i].ro)
				sim_poke(0, enc_of(&regs[i]), 0);
		write_sysreg(T_PMBSR_S, PMBSR_EL1);
		assert_true(sim_line(0, SIM_LINE_PMBIRQ));
		sim_power_cycle(0);
		check_reset_values(seen, &s_high, &s_low);
		for (size_t i = 0; i < VPERF_ARRAY_SIZE(regs); i++)
			if (!regs[i].ro && enc_of(&regs[i]) != VPERF_ENC_PMBSR_EL1)
				others |= sim_peek(0, enc_of(&regs[i]));
		assert_true(others != 0);
	}
	assert_true(s_high && s_low);
	assert_int_equal(sim_error_count(), 0);
}

/* Where firmware keeps the buffer for Secure state (MDCR_EL3.NSPB = 0b00), it resets the SPE
 * registers at boot and at every power-up: the model leaves 0 in them, and no stray
 * PMBSR_EL1.S drives PMBIRQ in Non-secure state. */
static void test_el3_buffer_reset(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		unknown_init(seed, true);
		for (unsigned int cycle = 0; cycle < 2; cycle++) {
			for (size_t i = 0; i < VPERF_ARRAY_SIZE(regs); i++)
				if (!regs[i].ro)
					assert_int_equal(sim_peek(0, enc_of(&regs[i])), 0);
			assert_false(sim_line(0, SIM_LINE_PMBIRQ));
			sim_power_cycle(0);
		}
		assert_int_equal(sim_error_count(), 0);
	}
}

/* A record not yet in memory at a power-down is lost with the SPU (SPE 3.6: the software drains
 * the buffer first, PSB CSYNC then DSB): the model reports it, whether the record is still
 * queued or already processed (PMBPTR_EL1 past it) but not written. Drained: no report. */
static void test_power_cycle_records_lost(void **state)
{
	(void)state;
	for (unsigned int k = 0; k < 3; k++) {
		t_init(1, 1);
		t_guest_start(T_BUF_VA, T_BUF_LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1);
		t_one_record();
		if (k == 1) { /* processed, in flight: no DSB */
			isb();
			psb_csync();
			isb();
			assert_int_equal(read_sysreg(PMBPTR_EL1), T_BUF_VA + T_LOAD_REC_LEN);
			assert_int_equal(sim_spe_pending(0), 0);
			assert_true(sim_spe_in_flight(0) > 0);
		} else if (k == 2) {
			t_drain();
			assert_int_equal(sim_spe_pending(0) + sim_spe_in_flight(0), 0);
		} else {
			assert_true(sim_spe_pending(0) > 0);
		}
		assert_int_equal(sim_error_count(), 0);
		sim_power_cycle(0);
		assert_int_equal(sim_error_count(), k < 2 ? 1 : 0);
		if (k < 2)
			assert_non_null(strstr(sim_error_at(0)->what, "power-down"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trap_matrix),
		cmocka_unit_test(test_absent_registers_undef),
		cmocka_unit_test(test_write_masks),
		cmocka_unit_test(test_pmsicr_ecount),
		cmocka_unit_test(test_pmbidr_p),
		cmocka_unit_test(test_id_registers),
		cmocka_unit_test(test_pmbirq_level),
		cmocka_unit_test(test_el3_keeps_buffer),
		cmocka_unit_test(test_el3_buffer_never_samples),
		cmocka_unit_test(test_reset_unknown),
		cmocka_unit_test(test_power_cycle_unknown),
		cmocka_unit_test(test_el3_buffer_reset),
		cmocka_unit_test(test_power_cycle_records_lost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
