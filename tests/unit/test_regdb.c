// SPDX-License-Identifier: MIT
/* The register database: order, lookup, internal consistency, and every encoding and access
 * direction against the GNU assembler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"

#include <vperf/sysreg.h>

#include "regdb_asm.h"

static void test_sorted_and_unique(void **state)
{
	(void)state;
	for (size_t i = 1; i < VPERF_SR_COUNT; i++) {
		if (vperf_sysregs[i - 1].enc >= vperf_sysregs[i].enc)
			fail_msg("%s is not after %s", vperf_sysregs[i].name,
				 vperf_sysregs[i - 1].name);
	}
}

/* Lookup answers exactly the database's encodings, over the whole 16-bit space. */
static void test_lookup_exact(void **state)
{
	size_t found = 0;

	(void)state;
	for (uint32_t enc = 0; enc < (1u << 16); enc++) {
		const struct vperf_sysreg_desc *d = vperf_sysreg_lookup(enc);

		if (!d)
			continue;
		assert_int_equal(d->enc, enc);
		found++;
	}
	assert_int_equal(found, VPERF_SR_COUNT);
}

/* The dense index is a bijection of the PMU/SPE space onto [0, VPERF_SPACE_SIZE), and the
 * space lookup agrees with the binary search everywhere in it. */
static void test_space_index(void **state)
{
	static bool seen[VPERF_SPACE_SIZE];
	unsigned int in_space = 0;

	(void)state;
	vperf_sysreg_space_init();
	for (uint32_t enc = 0; enc < (1u << 16); enc++) {
		unsigned int i;

		if (!vperf_sysreg_in_space(enc))
			continue;
		i = vperf_space_index(enc);
		assert_in_range(i, 0, VPERF_SPACE_SIZE - 1);
		assert_false(seen[i]);
		seen[i] = true;
		in_space++;
		assert_ptr_equal(vperf_sysreg_lookup_space(enc), vperf_sysreg_lookup(enc));
	}
	assert_int_equal(in_space, VPERF_SPACE_SIZE);
}

static uint32_t decode_word(uint32_t w, bool *is_read)
{
	*is_read = (w >> 21) & 1;
	return VPERF_SYSREG_ENC((w >> 19) & 3, (w >> 16) & 7, (w >> 12) & 15, (w >> 8) & 15,
				(w >> 5) & 7);
}

static uint32_t next_word(FILE *f)
{
	unsigned char b[4];

	assert_int_equal(fread(b, 1, 4, f), 4);
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void expect_insn(FILE *f, const struct vperf_sysreg_desc *d, bool read)
{
	bool is_read;
	uint32_t enc = decode_word(next_word(f), &is_read);

	if (enc != d->enc || is_read != read)
		fail_msg("%s: database says S%u_%u_C%u_C%u_%u, assembler says S%u_%u_C%u_C%u_%u",
			 d->name, VPERF_ENC_OP0(d->enc), VPERF_ENC_OP1(d->enc),
			 VPERF_ENC_CRN(d->enc), VPERF_ENC_CRM(d->enc), VPERF_ENC_OP2(d->enc),
			 VPERF_ENC_OP0(enc), VPERF_ENC_OP1(enc), VPERF_ENC_CRN(enc),
			 VPERF_ENC_CRM(enc), VPERF_ENC_OP2(enc));
}

/* regdb.bin holds, in database order, `mrs x0, NAME` for readable and `msr NAME, x0` for
 * writable registers, assembled by name with --fatal-warnings (tests/unit/build.mk). */
static void test_matches_assembler(void **state)
{
	FILE *f = fopen(REGDB_BIN, "rb");
	unsigned char extra;

	(void)state;
	assert_non_null(f);
	for (size_t i = 0; i < VPERF_SR_COUNT; i++) {
		const struct vperf_sysreg_desc *d = &vperf_sysregs[i];

		if (!regdb_asm_known(d->name))
			continue;
		if (d->access & VPERF_ACC_RO)
			expect_insn(f, d, true);
		if (d->access & VPERF_ACC_WO)
			expect_insn(f, d, false);
	}
	assert_int_equal(fread(&extra, 1, 1, f), 0);
	fclose(f);
}

/* The registers binutils 2.40 cannot name, from the Arm DDI 0487 System register index:
 * PMZR_EL0 = S3_3_C9_C13_4 (write-only), PMSDSFR_EL1 = S3_0_C9_C10_4, PMICNTR_EL0 =
 * S3_3_C9_C4_0, PMICFILTR_EL0 = S3_3_C9_C6_0, PMUACR_EL1 = S3_0_C9_C14_4, HDFGRTR2_EL2 =
 * S3_4_C3_C1_0 (D24.2.68), HDFGWTR2_EL2 = S3_4_C3_C1_1. */
static void test_registers_unknown_to_binutils(void **state)
{
	(void)state;
	assert_int_equal(VPERF_ENC_PMZR_EL0, VPERF_SYSREG_ENC(3, 3, 9, 13, 4));
	assert_int_equal(vperf_sysregs[VPERF_SR_PMZR_EL0].access, VPERF_ACC_WO);
	assert_int_equal(VPERF_ENC_PMSDSFR_EL1, VPERF_SYSREG_ENC(3, 0, 9, 10, 4));
	assert_int_equal(VPERF_ENC_PMICNTR_EL0, VPERF_SYSREG_ENC(3, 3, 9, 4, 0));
	assert_int_equal(VPERF_ENC_PMICFILTR_EL0, VPERF_SYSREG_ENC(3, 3, 9, 6, 0));
	assert_int_equal(VPERF_ENC_PMUACR_EL1, VPERF_SYSREG_ENC(3, 0, 9, 14, 4));
	assert_int_equal(VPERF_ENC_HDFGRTR2_EL2, VPERF_SYSREG_ENC(3, 4, 3, 1, 0));
	assert_int_equal(VPERF_ENC_HDFGWTR2_EL2, VPERF_SYSREG_ENC(3, 4, 3, 1, 1));
	/* In the PMU space, so that a trapped access is vperf's to answer (UNDEF). */
	assert_true(vperf_sysreg_in_space(VPERF_ENC_PMICNTR_EL0));
	assert_true(vperf_sysreg_in_space(VPERF_ENC_PMICFILTR_EL0));
	assert_true(vperf_sysreg_in_space(VPERF_ENC_PMUACR_EL1));
	assert_false(vperf_sysreg_in_space(VPERF_SYSREG_ENC(3, 3, 9, 5, 0)));
}

static void test_event_counter_index(void **state)
{
	(void)state;
	for (size_t i = 0; i < VPERF_SR_COUNT; i++) {
		const struct vperf_sysreg_desc *d = &vperf_sysregs[i];
		unsigned int n;

		if (sscanf(d->name, "PMEVCNTR%u_EL0", &n) == 1 ||
		    sscanf(d->name, "PMEVTYPER%u_EL0", &n) == 1)
			assert_int_equal(vperf_pmev_index(d->enc), n);
	}
}

static bool prefixed(const char *name, const char *prefix)
{
	return !strncmp(name, prefix, strlen(prefix));
}

static bool suffixed(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n >= s && !strcmp(name + n - s, suffix);
}

/* The trap column follows the architecture's families: SPE 4.3 "Traps and
 * enables" (PMS* by TPMS, PMB* by E2PB, PMBIDR by nothing), PMU registers by TPM (PMCR also by
 * TPMCR), EL2 registers never a guest's. */
static unsigned int expected_trap(const char *name)
{
	/* _EL12: how EL2 names an EL1 register with HCR_EL2.E2H = 1, UNDEFINED below EL2
	 * (SPE 4.3.6 for PMSCR_EL12). */
	if (suffixed(name, "_EL2") || suffixed(name, "_EL12"))
		return VPERF_TRAP_EL2;
	if (!strcmp(name, "PMBIDR_EL1"))
		return VPERF_TRAP_NONE;
	if (prefixed(name, "PMB"))
		return VPERF_TRAP_E2PB;
	if (prefixed(name, "PMS") && suffixed(name, "_EL1")) /* not PMSWINC/PMSELR_EL0 */
		return VPERF_TRAP_TPMS;
	if (!strcmp(name, "PMCR_EL0"))
		return VPERF_TRAP_TPM_TPMCR;
	if (prefixed(name, "ID_"))
		return VPERF_TRAP_TID3;
	if (!strcmp(name, "MPIDR_EL1")) /* VMPIDR_EL2 answers EL1's reads, no trap */
		return VPERF_TRAP_NONE;
	if (!strcmp(name, "ISR_EL1")) /* the virtual interrupts answer EL1's reads, no trap */
		return VPERF_TRAP_NONE;
	return VPERF_TRAP_TPM;
}

static void test_trap_column(void **state)
{
	(void)state;
	for (size_t i = 0; i < VPERF_SR_COUNT; i++) {
		const struct vperf_sysreg_desc *d = &vperf_sysregs[i];

		if (d->trap != expected_trap(d->name))
			fail_msg("%s: trap %u, expected %u", d->name, d->trap,
				 expected_trap(d->name));
	}
}

/* Guest registers are in the space vperf answers for, EL2 and ID registers are not; handler
 * slots exist exactly for guest registers (ID_AA64PFR0_EL1, ID_AA64DFR1_EL1, ID_AA64MMFR0_EL1
 * and MPIDR_EL1 are only read at probe, never emulated, ISR_EL1 by EL2 for itself); reset values
 * respect RES0. */
static void test_space_slots_and_reset(void **state)
{
	(void)state;
	for (size_t i = 0; i < VPERF_SR_COUNT; i++) {
		const struct vperf_sysreg_desc *d = &vperf_sysregs[i];
		bool guest = d->trap != VPERF_TRAP_EL2 && d->trap != VPERF_TRAP_TID3 &&
			     d->enc != VPERF_ENC_MPIDR_EL1 && d->enc != VPERF_ENC_ISR_EL1;

		assert_int_equal(vperf_sysreg_in_space(d->enc), guest);
		assert_int_equal(d->slot != VPERF_SLOT_NONE,
				 d->trap != VPERF_TRAP_EL2 && d->enc != VPERF_ENC_ID_AA64PFR0_EL1 &&
					 d->enc != VPERF_ENC_ID_AA64MMFR0_EL1 &&
					 d->enc != VPERF_ENC_ID_AA64DFR1_EL1 &&
					 d->enc != VPERF_ENC_MPIDR_EL1 &&
					 d->enc != VPERF_ENC_ISR_EL1);
		assert_int_equal(d->reset & d->res0, 0);
		assert_true(d->access == VPERF_ACC_RW || d->access == VPERF_ACC_RO ||
			    d->access == VPERF_ACC_WO);
	}
}

/* The el0 column: exactly the EL0 registers of the guest's PMU (op1 = 3 in the space) have a rule
 * (an EL1 register is UNDEFINED at EL0 whatever PMUSERENR_EL0 says, Arm DDI 0487 K.a D24.5), and
 * the rules grant what PMUSERENR_EL0's description says: EN everything but a PMUSERENR_EL0 write,
 * SW PMSWINC_EL0, CR and ER reads only, ER both directions of PMSELR_EL0, IR the PMICNTR_EL0 read
 * only (FEAT_PMUv3_ICNTR). */
static void test_el0_column(void **state)
{
	const uint64_t en = 1, sw = 2, cr = 4, er = 8, ir = 0x20;

	(void)state;
	for (size_t i = 0; i < VPERF_SR_COUNT; i++) {
		const struct vperf_sysreg_desc *d = &vperf_sysregs[i];
		bool el0 = vperf_sysreg_in_space(d->enc) && VPERF_ENC_OP1(d->enc) == 3;

		if ((d->el0 != VPERF_EL0_NONE) != el0)
			fail_msg("%s: el0 rule %u", d->name, d->el0);
		if (d->el0 == VPERF_EL0_NONE)
			assert_false(vperf_el0_allows(d->el0, ~0ull, true));
		else if (d->el0 != VPERF_EL0_RO)
			assert_true(vperf_el0_allows(d->el0, en, d->access != VPERF_ACC_WO));
		assert_false(vperf_el0_allows(d->el0, 0, false));
	}
	assert_true(vperf_el0_allows(VPERF_EL0_RO, 0, true));
	assert_false(vperf_el0_allows(VPERF_EL0_RO, ~0ull, false));
	assert_true(vperf_el0_allows(VPERF_EL0_SW, sw, false));
	assert_true(vperf_el0_allows(VPERF_EL0_CR, cr, true));
	assert_false(vperf_el0_allows(VPERF_EL0_CR, cr | sw | er, false));
	assert_true(vperf_el0_allows(VPERF_EL0_ER, er, true));
	assert_false(vperf_el0_allows(VPERF_EL0_ER, er | sw | cr, false));
	assert_true(vperf_el0_allows(VPERF_EL0_ER_RW, er, false));
	assert_false(vperf_el0_allows(VPERF_EL0_EN, sw | cr | er, true));
	/* IR (FEAT_PMUv3_ICNTR) grants the PMICNTR_EL0 read alone: no write, no other register. */
	assert_true(vperf_el0_allows(VPERF_EL0_IR, ir, true));
	assert_false(vperf_el0_allows(VPERF_EL0_IR, ir | sw | cr | er, false));
	assert_false(vperf_el0_allows(VPERF_EL0_CR, ir, true));
	assert_false(vperf_el0_allows(VPERF_EL0_ER, ir, true));
	/* Only EN, SW, CR, ER and IR grant: UEN [4], TID [6] and bit 7 grant nothing. */
	assert_false(vperf_el0_allows(VPERF_EL0_EN, 0xd0, true));
	assert_false(vperf_el0_allows(VPERF_EL0_SW, 0xd0, false));
	assert_false(vperf_el0_allows(VPERF_EL0_IR, 0xd0, true));
	assert_int_equal(vperf_sysregs[VPERF_SR_PMSELR_EL0].el0, VPERF_EL0_ER_RW);
	assert_int_equal(vperf_sysregs[VPERF_SR_PMCCNTR_EL0].el0, VPERF_EL0_CR);
	assert_int_equal(vperf_sysregs[VPERF_SR_PMUSERENR_EL0].el0, VPERF_EL0_RO);
}

/* The pair column: each SET register has one CLR twin (its name with CLR for SET) of the same
 * family and RES0 bits; no other register is half of a pair. The PMEVCNTR<n> and PMEVTYPER<n>
 * lines agree with n = 0 but for the encoding. */
static void test_pair_column(void **state)
{
	unsigned int sets = 0;

	(void)state;
	for (size_t i = 0; i < VPERF_SR_COUNT; i++) {
		const struct vperf_sysreg_desc *d = &vperf_sysregs[i], *twin = NULL;
		char name[32];
		char *at;

		if (d->slot == VPERF_SLOT_PMEVTYPER || d->slot == VPERF_SLOT_PMEVCNTR) {
			const struct vperf_sysreg_desc *z =
				&vperf_sysregs[d->slot == VPERF_SLOT_PMEVTYPER
						       ? VPERF_SR_PMEVTYPER0_EL0
						       : VPERF_SR_PMEVCNTR0_EL0];

			assert_true(d->res0 == z->res0 && d->el0 == z->el0 && d->feat == z->feat &&
				    d->access == z->access && d->pair == VPERF_PAIR_NONE);
		}
		if (d->pair != VPERF_PAIR_SET) {
			at = strstr(d->name, "SET");
			assert_true(d->pair == VPERF_PAIR_CLR ? strstr(d->name, "CLR") != NULL
							      : !at || d->slot == VPERF_SLOT_NONE);
			continue;
		}
		sets++;
		snprintf(name, sizeof(name), "%s", d->name);
		at = strstr(name, "SET");
		assert_non_null(at);
		memcpy(at, "CLR", 3);
		for (size_t j = 0; j < VPERF_SR_COUNT; j++)
			if (!strcmp(vperf_sysregs[j].name, name))
				twin = &vperf_sysregs[j];
		assert_non_null(twin);
		assert_int_equal(twin->pair, VPERF_PAIR_CLR);
		assert_int_equal(twin->slot, d->slot);
		assert_true(twin->res0 == d->res0);
	}
	assert_int_equal(sets, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted_and_unique),
		cmocka_unit_test(test_lookup_exact),
		cmocka_unit_test(test_space_index),
		cmocka_unit_test(test_matches_assembler),
		cmocka_unit_test(test_registers_unknown_to_binutils),
		cmocka_unit_test(test_event_counter_index),
		cmocka_unit_test(test_trap_column),
		cmocka_unit_test(test_space_slots_and_reset),
		cmocka_unit_test(test_el0_column),
		cmocka_unit_test(test_pair_column),
	};

	return cmocka_run_group_tests_name("regdb", tests, NULL, NULL);
}
