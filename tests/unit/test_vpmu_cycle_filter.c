// SPDX-License-Identifier: MIT
/*
 * The cycle counter is filtered as CPU_CYCLES (event 0x11), as KVM does: a VM whose event filter
 * denies CPU_CYCLES sees 0x11 absent from PMCEID0_EL0 (I5.3.6) and its cycle counter counts
 * nothing, in the trapped, emulated and direct partitions (the direct one through FEAT_FGT's
 * PMCCFILTR_EL0 and PMEVTYPERn_EL0 traps, HDFGRTR_EL2 / HDFGWTR_EL2), whichever way it programs
 * PMCCFILTR_EL0 (directly or PMXEVTYPER_EL0 with SEL = 31) and across switches; it reads back the
 * PMCCFILTR_EL0 it wrote (include/vperf/vpmu.h, "a denied event counts nothing").
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>

#include "hv.h"

#define EV_CYCLES 0x11u
#define CCNT	  VPERF_BIT(31)
#define U_BIT	  VPERF_BIT(30)

static const struct sim_uop op3 = { .pc = 0x4000, .latency = 3, .type = SIM_UOP_OTHER };

/* FEAT_FGT, N = 6, the host keeps 2. VM p (0 trapped, 1 direct, 2 emulated) denies CPU_CYCLES;
 * VM 3 is trapped and allows every event. */
static void world(void)
{
	struct sim_pe_config cfg;

	hv_default_config(&cfg);
	if (cfg.pmuver < 6)
		cfg.pmuver = 6; /* the direct partition needs PMUv3p5 */
	cfg.fgt = true;
	hv_init(&cfg, 2);
	for (unsigned int p = 0; p < 4; p++) {
		struct vperf_vm_config vm = { .pmu_mode = VPERF_PMU_SELF,
					      .partition = (enum vperf_partition)(p % 3),
					      .nr_counters = 2 };

		vperf_pmu_filter_allow_all(&vm.filter);
		if (p < 3)
			vperf_pmu_filter_set(&vm.filter, EV_CYCLES, false);
		assert_int_equal(hv_vm(p, &vm), VPERF_OK);
	}
}

/* The guest enables its cycle counter at 0 for EL1 and EL0 and runs 18 cycles: what it reads. */
static uint64_t cycles_counted(bool through_pmxevtyper)
{
	if (through_pmxevtyper) {
		guest_write(PMSELR_EL0, 31);
		guest_write(PMXEVTYPER_EL0, 0);
		assert_int_equal(guest_read(PMXEVTYPER_EL0), 0);
	} else {
		guest_write(PMCCFILTR_EL0, 0);
		assert_int_equal(guest_read(PMCCFILTR_EL0), 0);
	}
	guest_write(PMCCNTR_EL0, 0);
	guest_write(PMCNTENSET_EL0, CCNT);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 6);
	return guest_read(PMCCNTR_EL0);
}

static void test_denied_cycles_count_nothing(void **state)
{
	(void)state;
	for (unsigned int p = 0; p < 3; p++)
		for (unsigned int x = 0; x < 2; x++) {
			struct hv_vcpu *vc;

			world();
			vc = hv_vcpu(0, p);
			hv_enter(vc, 0);
			assert_int_equal(guest_read(PMCEID0_EL0) & VPERF_BIT(EV_CYCLES), 0);
			assert_int_equal(cycles_counted(x), 0);
			assert_int_equal(sim_error_count(), 0);
		}
}

/* The same VM's cycle counter stays silent across a switch and a migration, while the VM that
 * allows CPU_CYCLES counts its own. */
static void test_denied_cycles_across_switches(void **state)
{
	(void)state;
	for (unsigned int p = 0; p < 3; p++) {
		struct hv_vcpu *vc, *ok;

		world();
		vc = hv_vcpu(0, p);
		ok = hv_vcpu(1, 3);
		hv_enter(vc, 0);
		assert_int_equal(cycles_counted(false), 0);
		hv_enter(ok, 0);
		assert_int_equal(guest_read(PMCEID0_EL0) & VPERF_BIT(EV_CYCLES),
				 VPERF_BIT(EV_CYCLES));
		assert_int_equal(cycles_counted(false), 18);
		hv_enter(vc, 0);
		hv_run_n(&op3, 6);
		assert_int_equal(guest_read(PMCCNTR_EL0), 0);
		guest_write(PMCCFILTR_EL0, U_BIT);
		assert_int_equal(guest_read(PMCCFILTR_EL0), U_BIT);
		hv_leave(0);
		hv_enter(vc, 1);
		hv_run_n(&op3, 6);
		assert_int_equal(guest_read(PMCCNTR_EL0), 0);
		assert_int_equal(guest_read(PMCCFILTR_EL0), U_BIT);
		assert_int_equal(sim_error_count(), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_denied_cycles_count_nothing),
		cmocka_unit_test(test_denied_cycles_across_switches),
	};

	return cmocka_run_group_tests_name("vpmu_cycle_filter", tests, NULL, NULL);
}
