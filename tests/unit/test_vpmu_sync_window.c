// SPDX-License-Identifier: MIT
/*
 * The synchronization window of the counting controls with the event types in it (docs/model.md,
 * arch/sim/pmu/pmu_sync.c): after an EL2 write and until the next context synchronization event,
 * counting may still read the old PMEVTYPER<n>_EL0 / PMCCFILTR_EL0, enables and MDCR_EL2. A
 * switch from a XENPMU_MODE_ALL vCPU, whose types count EL2 (NSH = 1, HPMD = 0), to a SELF vCPU
 * runs EL2 code after the load (here the handler's tail, el2_exit_cycles) before the ERET: it
 * must not count into the SELF vCPU's restored counters.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

/* VM 0 ALL, VM 1 SELF, both counting cycles on counter 0 and the cycle counter; the SELF vCPU
 * is switched in inside an exception to EL2 with a 10-cycle tail. */
static void switch_from_all(uint64_t seed)
{
	struct vperf_vm_config all = policy(VPERF_PMU_ALL, 2), self = policy(VPERF_PMU_SELF, 2);
	struct sim_pe_config cfg;
	struct hv_vcpu *a, *b;
	uint64_t cnt, cyc;

	hv_default_config(&cfg);
	cfg.seed = seed;
	cfg.el2_exit_cycles = 10;
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &all), VPERF_OK);
	assert_int_equal(hv_vm(1, &self), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	hv_enter(b, 0);
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMCCFILTR_EL0, 0);
	guest_write(PMCNTENSET_EL0, 1 | VPERF_BIT(31));
	guest_write(PMEVCNTR0_EL0, 1000);
	guest_write(PMCCNTR_EL0, 5000);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 4);
	cnt = guest_read(PMEVCNTR0_EL0);
	cyc = guest_read(PMCCNTR_EL0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMCCFILTR_EL0, 0);
	guest_write(PMCNTENSET_EL0, 1 | VPERF_BIT(31));
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 4);
	/* The switch back, as a hypervisor makes it: in an exception to EL2. */
	sim_enter_el2(0);
	hv_enter(b, 0);
	sim_set_el(2); /* hv_enter returns at EL1; the switch is still at EL2 until the ERET */
	sim_exit_el2(0);
	sim_set_el(1);
	/* Its reads trap (entry cycles at EL2, which it never counts): exactly what it left,
	 * whichever values the window gave the tail. */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), cnt);
	assert_int_equal(guest_read(PMCCNTR_EL0), cyc);
	assert_int_equal(sim_error_count(), 0);
}

static void test_switch_from_all_in_window(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 16; seed++)
		switch_from_all(seed);
}

/* The model itself: an EL2 write of a type that stops counting EL2 (NSH 1 -> 0) leaves the EL2
 * cycles up to the next context synchronization event counted or not, by the seed; before it
 * (the entry's cycles) they count, after it (the next entry) they do not. */
static void test_model_type_in_window(void **state)
{
	unsigned int tail_counted = 0, seeds = 16;

	(void)state;
	for (uint64_t seed = 1; seed <= seeds; seed++) {
		struct sim_pe_config cfg;
		uint64_t n, v;

		hv_default_config(&cfg);
		cfg.seed = seed;
		cfg.el2_exit_cycles = 10;
		hv_init(&cfg, 0);
		n = read_sysreg(PMCR_EL0) >> 11 & 31;
		write_sysreg(n, MDCR_EL2); /* HPMN = N, HPMD = 0: counter 0 may count EL2 */
		write_sysreg(NSH_BIT | P_BIT | U_BIT | EV_CYCLES, PMEVTYPER0_EL0);
		write_sysreg(0, PMEVCNTR0_EL0);
		write_sysreg(1, PMCNTENSET_EL0);
		write_sysreg(PMCR_E, PMCR_EL0);
		sim_enter_el2(0); /* 20 cycles at EL2, counted */
		write_sysreg(P_BIT | U_BIT | EV_CYCLES, PMEVTYPER0_EL0);
		sim_exit_el2(0); /* the 10-cycle tail: old type or new */
		v = read_sysreg(PMEVCNTR0_EL0);
		assert_true(v == 20 || v == 30);
		tail_counted += v == 30;
		sim_enter_el2(0); /* the new type from here on */
		sim_exit_el2(0);
		assert_int_equal(read_sysreg(PMEVCNTR0_EL0), v);
	}
	assert_true(tail_counted > 0 && tail_counted < seeds);
}

/* The synchronization window in XENPMU_MODE_ALL, which counts EL2: the privileged guest stops
 * its cycle counting (PMCR_EL0.E = 0); the EL2 cycles after vperf's write and before the ERET
 * count or not (the model draws it; both happen over the seeds), as the instructions after an
 * MSR without ISB may on bare metal. Either way the value is one of the two and stays put from
 * the ERET on: no barrier is needed for what the guest can observe. In SELF and HV the guest's
 * counters never count EL2 (NSH = 0, HPMD), so the window cannot show at all (the isolation
 * schedules run with it). */
static void test_all_sync_window(void **state)
{
	unsigned int tail_counted = 0, seeds = 24;

	(void)state;
	for (uint64_t seed = 1; seed <= seeds; seed++) {
		struct vperf_vm_config all = policy(VPERF_PMU_ALL, 2);
		struct sim_pe_config cfg;
		uint64_t v;

		hv_default_config(&cfg);
		cfg.seed = seed;
		cfg.el2_exit_cycles = 10; /* entry: 20 cycles before the handler, exit: 10 after */
		hv_init(&cfg, 2);
		assert_int_equal(hv_vm(2, &all), VPERF_OK);
		hv_enter(hv_vcpu(0, 2), 0);
		guest_write(PMEVTYPER0_EL0, EV_CYCLES);
		guest_write(PMCNTENSET_EL0, 1);
		guest_write(PMCR_EL0, PMCR_E);
		guest_write(PMEVCNTR0_EL0, 0); /* its exit tail counts: 10 */
		hv_run_n(&op3, 2);	       /* 6 */
		guest_write(PMCR_EL0, 0);      /* entry 20, then E = 0, then the tail: 10 or 0 */
		v = guest_read(PMEVCNTR0_EL0);
		assert_true(v == 36 || v == 46);
		tail_counted += v == 46;
		hv_run_n(&op3, 4);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), v);
		assert_int_equal(sim_error_count(), 0);
	}
	assert_true(tail_counted > 0 && tail_counted < seeds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_type_in_window),
		cmocka_unit_test(test_switch_from_all_in_window),
		cmocka_unit_test(test_all_sync_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
