// SPDX-License-Identifier: MIT
/*
 * Save/restore of a vCPU's vPMU state: a round trip that carries on counting on another host,
 * and bad blobs of every kind rejected with nothing applied.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"

#define W(i) (8 * (i))

static const struct sim_uop op2 = { .pc = 0x4000, .latency = 2, .type = SIM_UOP_OTHER };
static uint8_t blob[VPERF_VPMU_BLOB_SIZE];

/* A host whose PMU has version pmuver (0: the environment's, see hv.h). */
static void world_v(uint8_t pmuver)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 3 };
	struct sim_pe_config pe;

	hv_default_config(&pe);
	if (pmuver)
		pe.pmuver = pmuver;
	vperf_pmu_filter_allow_all(&cfg.filter);
	hv_init(&pe, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
}

static void world(void)
{
	world_v(0);
}

static bool wide(void)
{
	return hv.model.pmuver >= 6; /* 64-bit event counters and PMCR_EL0.LP: PMUv3p5 */
}

/* A guest with counters running, an overflow pending with its interrupt enabled. */
static struct hv_vcpu *busy_vcpu(void)
{
	struct hv_vcpu *a;

	world();
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, 0x11);
	guest_write(PMEVTYPER2_EL0, 0x08 | VPERF_BIT(31));
	guest_write(PMCNTENSET_EL0, 0x80000005ull);
	guest_write(PMUSERENR_EL0, PMUSERENR_ER);
	guest_write(PMSELR_EL0, 2);
	guest_write(PMCCFILTR_EL0, VPERF_BIT(31));
	guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
	hv_run_n(&op2, 10);
	guest_write(PMINTENSET_EL1, 1);
	guest_write(PMOVSSET_EL0, 1);
	hv_leave(0);
	return a;
}

static void test_round_trip(void **state)
{
	struct hv_vcpu *a = busy_vcpu(), *b;

	(void)state;
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_VPMU_BLOB_SIZE);
	world(); /* another host */
	b = hv_vcpu(1, 0);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
	hv_enter(b, 1);
	assert_true(b->irq_level); /* the pending overflow raises its line at the first load */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 20);
	assert_int_equal(guest_read(PMEVTYPER2_EL0), 0x08 | VPERF_BIT(31));
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0x80000005ull);
	assert_int_equal(guest_read(PMUSERENR_EL0), PMUSERENR_ER);
	assert_int_equal(guest_read(PMSELR_EL0), 2);
	assert_int_equal(guest_read(PMCCFILTR_EL0), VPERF_BIT(31));
	assert_int_equal(guest_read(PMCR_EL0) & (PMCR_E | PMCR_LP),
			 PMCR_E | (wide() ? PMCR_LP : 0));
	hv_run_n(&op2, 5);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	assert_int_equal(guest_read(PMEVCNTR2_EL0), 0); /* excluded EL1 */
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A state restored with its counters running counts from the vCPU's first load, before its guest
 * touches any PMU register (no access traps to bring it in): 5 ops of 2 cycles after the load,
 * the first read finds counter 0 (CPU_CYCLES, enabled, PMCR_EL0.E = 1) 10 above the saved 20.
 * Mutations tried: blob.c restoring the vPMU inactive ("s->active = false", or the save leaving
 * FLAG_ACTIVE out), so that counting starts only at the guest's first PMU access: it reads 20.
 */
static void test_restored_counts_from_first_load(void **state)
{
	struct hv_vcpu *a = busy_vcpu(), *b;

	(void)state;
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_VPMU_BLOB_SIZE);
	world(); /* another host */
	b = hv_vcpu(1, 0);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
	hv_enter(b, 1);
	hv_run_n(&op2, 5);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	assert_int_equal(sim_error_count(), 0);
}

static void test_busy_vcpu(void **state)
{
	struct hv_vcpu *a = busy_vcpu();

	(void)state;
	hv_enter(a, 0);
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_EBUSY);
	assert_int_equal(vperf_vcpu_restore(&a->v, blob, sizeof(blob)), VPERF_EBUSY);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob) - 1), VPERF_ENOSPC);
}

static void store64(unsigned int word, uint64_t v)
{
	for (unsigned int i = 0; i < 8; i++)
		blob[W(word) + i] = (uint8_t)(v >> (8 * i));
}

/* Re-seal the checksum (FNV-1a 64 of words 0-73) after editing a field. */
static void reseal(void)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (unsigned int i = 0; i < W(74); i++)
		h = (h ^ blob[i]) * 0x100000001b3ull;
	store64(74, h);
}

static void expect_rejected(struct hv_vcpu *b, size_t len)
{
	struct vperf_vpmu before = b->v.pmu;

	assert_int_equal(vperf_vcpu_restore(&b->v, blob, len), VPERF_EINVAL);
	assert_memory_equal(&before, &b->v.pmu, sizeof(before));
}

/* A direct-partition guest's types live in the hardware, so a blob may give it only the fields
 * the PE implements (Arm DDI 0487 K.a I5.3.2, I5.3.30): NSK with EL3, not the Realm filter RLH [20]
 * (FEAT_RME, which the model's PE lacks). Before, vperf took every field the architecture defines,
 * showed the guest RLH while trapped and lost it once the hardware held its state. */
static void test_direct_type_fields_by_pe(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_DIRECT,
				       .nr_counters = 3 };
	struct hv_vcpu *d;

	(void)state;
	world_v(6);
	/* A core profile without the direct partition, or whose MT may count: there the direct
	 * VM's types trap (FEAT_FGT) and hold the trapped partition's fields only. */
	if (!hv_direct_offered() || hv.model.mt)
		skip();
	vperf_pmu_filter_allow_all(&cfg.filter);
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
	d = hv_vcpu(1, 1);
	assert_int_equal(vperf_vcpu_save(&d->v, blob, sizeof(blob)), VPERF_VPMU_BLOB_SIZE);
	store64(9, VPERF_BIT(31) | VPERF_BIT(29)); /* PMCCFILTR_EL0: P, NSK (EL3) */
	reseal();
	assert_int_equal(vperf_vcpu_restore(&d->v, blob, sizeof(blob)), VPERF_OK);
	store64(9, VPERF_BIT(31) | VPERF_BIT(20)); /* P, RLH */
	reseal();
	expect_rejected(d, sizeof(blob));
}

/* A direct guest's PMUSERENR_EL0 holds EN, SW, CR and ER only: UEN, IR and TID (bits [6:4]) are
 * fields of PMUv3p9 and FEAT_PMUv3_ICNTR, which vperf does not probe for, so a blob holding one
 * is refused rather than written into a PE that may not implement it. */
static void test_direct_userenr_fields_by_pe(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_DIRECT,
				       .nr_counters = 3 };
	struct hv_vcpu *d;

	(void)state;
	world_v(7);
	if (!hv_direct_offered())
		skip(); /* a core profile without the direct partition */
	vperf_pmu_filter_allow_all(&cfg.filter);
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
	d = hv_vcpu(1, 1);
	assert_int_equal(vperf_vcpu_save(&d->v, blob, sizeof(blob)), VPERF_VPMU_BLOB_SIZE);
	store64(7, PMUSERENR_ER | PMUSERENR_EN);
	reseal();
	assert_int_equal(vperf_vcpu_restore(&d->v, blob, sizeof(blob)), VPERF_OK);
	for (unsigned int bit = 4; bit <= 6; bit++) {
		store64(7, PMUSERENR_EN | VPERF_BIT(bit));
		reseal();
		expect_rejected(d, sizeof(blob));
	}
}

/* Migration to a PMUv3p0 host: evtCount[15:10] exists from PMUv3p1 only (I5.3.30), so a type
 * whose event number needs those bits is refused there (event 0x2008 would count 0x008), and
 * the same type without them is accepted. */
static void test_restore_event_width(void **state)
{
	struct hv_vcpu *a, *b;
	uint8_t good[VPERF_VPMU_BLOB_SIZE];

	(void)state;
	world_v(4);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, 0x2008);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0x2008);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_save(&a->v, good, sizeof(good)), VPERF_VPMU_BLOB_SIZE);
	world_v(1);
	b = hv_vcpu(1, 0);
	memcpy(blob, good, sizeof(blob));
	expect_rejected(b, sizeof(blob));
	store64(11, 0x0008);
	reseal();
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
	assert_int_equal(sim_error_count(), 0);
}

/* Every single-byte corruption is caught (the checksum), and nothing is applied. */
static void test_every_byte_flip_rejected(void **state)
{
	struct hv_vcpu *a = busy_vcpu(), *b = hv_vcpu(1, 0);
	uint8_t good[VPERF_VPMU_BLOB_SIZE];

	(void)state;
	assert_int_equal(vperf_vcpu_save(&a->v, good, sizeof(good)), VPERF_VPMU_BLOB_SIZE);
	for (size_t i = 0; i < sizeof(good); i++) {
		memcpy(blob, good, sizeof(blob));
		blob[i] ^= (uint8_t)(1u << (i % 8));
		expect_rejected(b, sizeof(blob));
	}
	memcpy(blob, good, sizeof(blob));
	expect_rejected(b, sizeof(blob) - 8);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
}

struct bad_field {
	unsigned int word;
	uint64_t value;
	const char *why;
};

/* Well-formed, correctly summed blobs carrying values no guest could have produced. */
static const struct bad_field bad_fields[] = {
	{ 0, 0x554d504652455057ull, "magic" },
	{ 1, 2ull | 3ull << 32, "version" },
	{ 1, 1ull | 4ull << 32, "counter count of another VM" },
	{ 2, 608, "size" },
	{ 3, PMCR_E | VPERF_BIT(8), "PMCR RES0 bit" },
	{ 3, PMCR_P, "PMCR.P is an action, never state" },
	{ 4, VPERF_BIT(3), "PMCNTENSET beyond N" },
	{ 5, VPERF_BIT(30), "PMINTENSET beyond N" },
	{ 6, VPERF_BIT(32), "PMOVSSET RES0" },
	{ 7, 0x10, "PMUSERENR unknown bit" },
	{ 8, 32, "PMSELR out of range" },
	{ 9, VPERF_BIT(27), "PMCCFILTR NSH: not the guest's" },
	{ 11, VPERF_BIT(27) | 0x11, "PMEVTYPER0 NSH" },
	{ 14, 0x08, "PMEVTYPER3 beyond N" },
	{ 45, 1, "PMEVCNTR3 beyond N" },
	{ 73, 2, "unknown flag" },
};

static void test_bad_values_rejected(void **state)
{
	struct hv_vcpu *a = busy_vcpu(), *b = hv_vcpu(1, 0);
	uint8_t good[VPERF_VPMU_BLOB_SIZE];

	(void)state;
	assert_int_equal(vperf_vcpu_save(&a->v, good, sizeof(good)), VPERF_VPMU_BLOB_SIZE);
	for (size_t i = 0; i < sizeof(bad_fields) / sizeof(bad_fields[0]); i++) {
		memcpy(blob, good, sizeof(blob));
		store64(bad_fields[i].word, bad_fields[i].value);
		reseal();
		if (vperf_vcpu_restore(&b->v, blob, sizeof(blob)) != VPERF_EINVAL)
			fail_msg("accepted: %s", bad_fields[i].why);
	}
	/* The reseal helper itself is right: an unedited resealed blob is accepted. */
	memcpy(blob, good, sizeof(blob));
	reseal();
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
}

/* Migration to an older PMU: state only a PMUv3p5 guest can have (PMCR_EL0.LP, an event
 * counter above 32 bits) is refused on a PMUv3p4 host, and accepted once it fits. */
static void test_restore_on_older_pmu(void **state)
{
	struct hv_vcpu *a, *b;
	uint8_t good[VPERF_VPMU_BLOB_SIZE];

	(void)state;
	world_v(6);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, PMCR_LP);
	guest_write(PMEVCNTR1_EL0, 5);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_save(&a->v, good, sizeof(good)), VPERF_VPMU_BLOB_SIZE);
	world_v(5);
	b = hv_vcpu(1, 0);
	memcpy(blob, good, sizeof(blob));
	expect_rejected(b, sizeof(blob)); /* LP */
	store64(3, 0);			  /* PMCR_EL0 without LP */
	store64(43, 0x100000005ull);	  /* PMEVCNTR1 above 32 bits */
	reseal();
	expect_rejected(b, sizeof(blob));
	store64(43, 5);
	reseal();
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
	hv_enter(b, 0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 5);
	assert_int_equal(sim_error_count(), 0);
}

/* Bad input from outside: restoring a state with nothing pending into a vCPU whose line is high
 * lowers the line at the next load, as promised whatever the vGIC held; so does a reset. */
static void test_restore_lowers_line(void **state)
{
	struct hv_vcpu *a = busy_vcpu(), *quiet;

	(void)state;
	quiet = hv_vcpu(1, 0);
	assert_int_equal(vperf_vcpu_save(&quiet->v, blob, sizeof(blob)), VPERF_VPMU_BLOB_SIZE);
	hv_enter(a, 0);
	assert_true(a->irq_level);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_restore(&a->v, blob, sizeof(blob)), VPERF_OK);
	hv_enter(a, 0);
	assert_false(a->irq_level);
	hv_leave(0);
	a = busy_vcpu();
	hv_enter(a, 0);
	assert_true(a->irq_level);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_reset(&a->v), VPERF_OK);
	hv_enter(a, 0);
	assert_false(a->irq_level);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_busy_vcpu),
		cmocka_unit_test(test_restored_counts_from_first_load),
		cmocka_unit_test(test_every_byte_flip_rejected),
		cmocka_unit_test(test_bad_values_rejected),
		cmocka_unit_test(test_restore_on_older_pmu),
		cmocka_unit_test(test_restore_lowers_line),
		cmocka_unit_test(test_direct_type_fields_by_pe),
		cmocka_unit_test(test_direct_userenr_fields_by_pe),
		cmocka_unit_test(test_restore_event_width),
	};

	return cmocka_run_group_tests_name("vpmu_blob", tests, NULL, NULL);
}
