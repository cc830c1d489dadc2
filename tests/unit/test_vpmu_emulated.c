// SPDX-License-Identifier: MIT
/*
 * The emulated partition: the guest's counters are shadows placed on the VM's physical slots
 * while it runs. Exact when its enabled counters fit; multiplexed round robin, one slice per
 * load, when they do not; the physical placement is invisible to the guest.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/esr.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

static const struct sim_uop op1 = { .pc = 0x4000, .latency = 1, .type = SIM_UOP_OTHER };

/* N = 6, the host keeps 2: VM 0 is emulated with 4 counters on 2 physical slots. */
static int setup_emulated(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_EMULATED,
				       .nr_counters = 4,
				       .emu_slots = 2 };

	(void)state;
	vperf_pmu_filter_allow_all(&cfg.filter);
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	return 0;
}

static void program(unsigned int enabled)
{
	for (unsigned int n = 0; n < 4; n++)
		guest_msr(VPERF_SYSREG_ENC(3, 3, 14, 12, n), 0x08); /* INST_RETIRED */
	guest_write(PMCNTENSET_EL0, enabled);
	guest_write(PMCR_EL0, PMCR_E);
}

static uint64_t counter(unsigned int n)
{
	return guest_mrs(VPERF_SYSREG_ENC(3, 3, 14, 8, n));
}

/* The whole first range as slots (emu_slots = 0) with every one of them in use, placed when the
 * counters are enabled and again by a full restore: the guest's counters land on [0, HPMN) and
 * count exactly; the host's counter 4 is never touched. */
static void test_whole_first_range(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_EMULATED,
				       .nr_counters = 4 };
	struct hv_vcpu *v;

	(void)state;
	vperf_pmu_filter_allow_all(&cfg.filter);
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
	v = hv_vcpu(1, 1);
	sim_poke(0, VPERF_ENC_PMEVCNTR4_EL0, 1234);
	hv_enter(v, 0);
	program(0xf);
	hv_leave(0);
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMCR_EL0, PMCR_E); /* another vCPU takes the hardware meanwhile */
	hv_enter(v, 0);		       /* a full restore places all four at once */
	hv_run_n(&op1, 10);
	for (unsigned int n = 0; n < 4; n++)
		assert_int_equal(counter(n), 10);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVCNTR4_EL0), 1234);
	assert_int_equal(sim_error_count(), 0);
}

static void test_policy(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_EMULATED,
				       .nr_counters = 5 };

	(void)state;
	/* Counters at or above HPMN (4) are UNDEFINED at EL1 before any trap: N <= HPMN. */
	assert_int_equal(hv_vm(1, &cfg), VPERF_EINVAL);
	cfg.nr_counters = 4;
	cfg.emu_slots = 5;
	assert_int_equal(hv_vm(1, &cfg), VPERF_EINVAL);
}

/* Two enabled counters on two slots: exact, on physical counters the guest cannot name. */
static void test_fits_exact(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	program(0xa); /* counters 1 and 3 */
	hv_run_n(&op1, 10);
	assert_int_equal(counter(1), 10);
	assert_int_equal(counter(3), 10);
	assert_int_equal(counter(0), 0);
	/* They run on physical counters 0 and 1, the VM's slots. */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & 0xf, 0x3);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVCNTR0_EL0), 10);
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0xa);
	hv_leave(0);
	hv_enter(a, 0);
	hv_run_n(&op1, 5);
	assert_int_equal(counter(1), 15);
	assert_int_equal(counter(3), 15);
}

/* Four enabled counters on two slots: each load runs a different half; over an even number of
 * equal slices every counter counts exactly half the work. */
static void test_multiplexed(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint64_t total = 0;

	(void)state;
	hv_enter(a, 0);
	program(0xf);
	hv_leave(0);
	for (int slice = 0; slice < 4; slice++) {
		hv_enter(a, 0);
		hv_run_n(&op1, 10);
		hv_leave(0);
	}
	hv_enter(a, 0);
	for (unsigned int n = 0; n < 4; n++) {
		assert_int_equal(counter(n), 20);
		total += counter(n);
	}
	assert_int_equal(total, 80);
	assert_int_equal(sim_error_count(), 0);
}

/* A counter enabled while running takes a free slot at once; without one it waits its turn. */
static void test_enable_while_running(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	program(0x1);
	hv_run_n(&op1, 3);
	guest_write(PMCNTENSET_EL0, 0x4);
	hv_run_n(&op1, 3);
	guest_write(PMCNTENSET_EL0, 0x8); /* no slot left */
	hv_run_n(&op1, 3);
	assert_int_equal(counter(0), 9);
	assert_int_equal(counter(2), 6);
	assert_int_equal(counter(3), 0);
}

/* Overflow on a placed counter reaches the guest under its own number. */
static void test_overflow_mapped(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVTYPER3_EL0, 0x08);
	guest_write(PMEVCNTR3_EL0, 0xfffffffeull);
	guest_write(PMINTENSET_EL1, 0x8);
	guest_write(PMCNTENSET_EL0, 0x8);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op1, 3);
	hv_settle();
	assert_true(a->irq_level);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0x8);
	guest_write(PMOVSCLR_EL0, 0x8);
	assert_false(a->irq_level);
	assert_int_equal(hv.max_irq_burst, 1);
}

/* The rotation point is the vCPU's own. A multiplexed guest run in slices (its own
 * loads and puts) observes exactly the same whether or not a neighbour touches the PMU between
 * its slices (which decides whether its hardware state is resumed or restored). */
static void slices(bool neighbour, uint64_t out[4])
{
	struct vperf_vm_config other = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 2 };
	struct hv_vcpu *a, *b;

	setup_emulated(NULL);
	vperf_pmu_filter_allow_all(&other.filter);
	assert_int_equal(hv_vm(1, &other), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	for (unsigned int slice = 0; slice < 5; slice++) {
		hv_enter(a, 0);
		if (slice == 0)
			program(0x3); /* two counters on two slots: exact */
		if (slice == 1)
			guest_write(PMCNTENSET_EL0, 0xc); /* four: multiplexed from now on */
		hv_run_n(&op1, 10);
		hv_leave(0);
		if (neighbour) {
			hv_enter(b, 0);
			(void)guest_read(PMCR_EL0);
			hv_leave(0);
		}
	}
	hv_enter(a, 0);
	for (unsigned int n = 0; n < 4; n++)
		out[n] = counter(n);
	hv_leave(0);
}

static void test_rotation_is_the_vcpus_own(void **state)
{
	uint64_t alone[4], beside[4];

	(void)state;
	slices(false, alone);
	slices(true, beside);
	for (unsigned int n = 0; n < 4; n++)
		assert_int_equal(beside[n], alone[n]);
	/* Slices 0-1 count on 0 and 1; from slice 2 on the rotation alternates halves. */
	assert_int_equal(alone[0] + alone[1] + alone[2] + alone[3], 20 + 20 + 3 * 20);
	assert_int_equal(sim_error_count(), 0);
}

/* Bad input from outside: a disabled counter gives its slot back; a counter enabled afterwards
 * counts, at once and after a switch. */
static void test_disable_frees_slot(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_EMULATED,
				       .nr_counters = 2,
				       .emu_slots = 1 };
	struct hv_vcpu *a;

	(void)state;
	vperf_pmu_filter_allow_all(&cfg.filter);
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
	a = hv_vcpu(0, 1);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, 0x08);
	guest_write(PMEVTYPER1_EL0, 0x08);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMCNTENSET_EL0, 0x1);
	hv_run_n(&op1, 4);
	guest_write(PMCNTENCLR_EL0, 0x1);
	guest_write(PMCNTENSET_EL0, 0x2);
	hv_run_n(&op1, 5);
	assert_int_equal(counter(0), 4);
	assert_int_equal(counter(1), 5);
	hv_leave(0);
	hv_enter(a, 0);
	hv_run_n(&op1, 5);
	assert_int_equal(counter(0), 4);
	assert_int_equal(counter(1), 10);
}

/* Bad input from outside: before PMUv3p5 a counter waiting for a slot is 32 bits wide like the
 * hardware's, and vperf's own blob of it restores. */
static void test_32bit_shadow(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_EMULATED,
				       .nr_counters = 2,
				       .emu_slots = 1 };
	struct sim_pe_config model;
	static uint8_t blob[VPERF_VPMU_BLOB_SIZE];
	struct hv_vcpu *a;

	(void)state;
	sim_default_config(&model);
	model.pmuver = 5; /* PMUv3p4: 32-bit event counters */
	hv_init(&model, 2);
	vperf_pmu_filter_allow_all(&cfg.filter);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMCNTENSET_EL0, 0x3); /* counter 1 has no slot: a shadow */
	guest_write(PMEVCNTR1_EL0, 0x100000005ull);
	guest_write(PMEVCNTR0_EL0, 0x100000007ull);
	assert_int_equal(counter(1), 5);
	assert_int_equal(counter(0), 7);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_VPMU_BLOB_SIZE);
	assert_int_equal(vperf_vcpu_restore(&a->v, blob, sizeof(blob)), VPERF_OK);
	hv_enter(a, 0);
	assert_int_equal(counter(1), 5);
}

static uint32_t evcntr_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7);
}

static uint32_t evtyper_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7);
}

/*
 * Five counters on two slots, more than twice as many: each slice starts where the last one
 * stopped (the rotation point), so the placements cycle {0,1} {2,3} {4,0} {1,2} {3,4} and over
 * ten equal slices every counter counts in exactly four. Restarting the search for the next
 * rotation point from counter 0 would alternate {0,1} {2,3} and starve counter 4.
 */
static void test_rotation_five_on_two(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_EMULATED,
				       .nr_counters = 5,
				       .emu_slots = 2 };
	struct hv_vcpu *a;

	(void)state;
	vperf_pmu_filter_allow_all(&cfg.filter);
	hv_init(NULL, 1); /* N = 6: HPMN = 5 */
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	for (unsigned int n = 0; n < 5; n++)
		guest_msr(evtyper_enc(n), EV_INST);
	guest_write(PMCNTENSET_EL0, 0x1f);
	guest_write(PMCR_EL0, PMCR_E);
	hv_leave(0);
	for (unsigned int slice = 0; slice < 10; slice++) {
		hv_enter(a, 0);
		hv_run_n(&op1, 10);
		hv_leave(0);
	}
	hv_enter(a, 0);
	for (unsigned int n = 0; n < 5; n++)
		assert_int_equal(guest_mrs(evcntr_enc(n)), 40);
	assert_int_equal(sim_error_count(), 0);
}

static uint64_t popcount(uint64_t v)
{
	uint64_t n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/*
 * An emulated guest runs on at most its emu_slots physical counters, whether its counters are
 * enabled together or one by one while it runs; a physical counter handed from a disabled guest
 * counter to the next has only the new counter's interrupt enable (PMINTENSET_EL1, I5.3.38).
 * Kills "a counter an emulated guest enables while it runs takes a physical counter beyond its
 * slots" and "an emulated guest counter disabled leaves its interrupt enable on its physical
 * counter".
 */
static void test_emulated_slots_and_enables(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 4);
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	cfg.partition = VPERF_PART_EMULATED;
	cfg.emu_slots = 2;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMINTENSET_EL1, 1);
	guest_write(PMCNTENSET_EL0, 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & 0xf, 1);
	guest_write(PMCNTENCLR_EL0, 1);
	guest_write(PMCNTENSET_EL0, 2); /* counter 1, no interrupt: on the freed counter */
	assert_int_equal(popcount(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & 0xf), 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & 0xf, 0);
	guest_write(PMCNTENSET_EL0, 4);
	guest_write(PMCNTENSET_EL0, 8);
	guest_write(PMCNTENSET_EL0, 1);
	assert_int_equal(popcount(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & 0xf), 2);
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0xf);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_policy, setup_emulated),
		cmocka_unit_test_setup(test_whole_first_range, setup_emulated),
		cmocka_unit_test_setup(test_fits_exact, setup_emulated),
		cmocka_unit_test_setup(test_multiplexed, setup_emulated),
		cmocka_unit_test_setup(test_enable_while_running, setup_emulated),
		cmocka_unit_test_setup(test_overflow_mapped, setup_emulated),
		cmocka_unit_test(test_rotation_is_the_vcpus_own),
		cmocka_unit_test_setup(test_disable_frees_slot, setup_emulated),
		cmocka_unit_test(test_32bit_shadow),
		cmocka_unit_test(test_rotation_five_on_two),
		cmocka_unit_test(test_emulated_slots_and_enables),
	};

	return cmocka_run_group_tests_name("vpmu_emulated", tests, NULL, NULL);
}
