// SPDX-License-Identifier: MIT
/*
 * The VM's event filter (virt/vpmu/filter.c; include/vperf/vpmu.h): its ranges (a bit for each
 * common event 0x00-0x3F and extended common event 0x4000-0x403F, allow_other for the rest; D14.1),
 * PMCEID0/1_EL0 showing only what the PE has and the filter allows (I5.3.6-7), the SAMPLE_*
 * events hidden from a VM without SPE.
 *
 * The cycle counter is filtered as CPU_CYCLES (event 0x11), as KVM does: a VM whose event filter
 * denies CPU_CYCLES sees 0x11 absent from PMCEID0_EL0 (I5.3.6) and its cycle counter counts
 * nothing, in the trapped, emulated and direct partitions (the direct one through FEAT_FGT's
 * PMCCFILTR_EL0 and PMEVTYPERn_EL0 traps, HDFGRTR_EL2 / HDFGWTR_EL2), whichever way it programs
 * PMCCFILTR_EL0 (directly or PMXEVTYPER_EL0 with SEL = 31) and across switches; it reads back the
 * PMCCFILTR_EL0 it wrote (include/vperf/vpmu.h, "a denied event counts nothing").
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <vperf/esr.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

#define CCNT VPERF_BIT(31)

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

/*
 * The filter has a bit for each common event 0x00-0x3F (allow[0]) and each extended common event
 * 0x4000-0x403F (allow[1]); everything else, IMPLEMENTATION DEFINED events included, follows
 * allow_other. PMCEID1_EL0 bits [31:0] are events 0x20-0x3F: a PE that implements 0x23 and 0x24
 * shows the guest only 0x24 when its filter denies 0x23 (and nothing the PE lacks). A denied
 * type reaches the hardware excluded from every EL the guest could count (P = U = 1, NSK = NSU
 * = 0 on this PE with EL3); an allowed one counts the guest's EL1 and EL0 (NSK = NSU = 1).
 * Kills "PMCEID1_EL0 judges common events 0x20-0x3F by the filter's allow_other", "PMCEID
 * lists events the hardware does not implement", "events 0x4000-0x403F judged by allow_other"
 * and "IMPLEMENTATION DEFINED events ... count although the filter denies other events".
 */
static void test_filter_ranges(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 4);
	const uint64_t denied = P_BIT | U_BIT, allowed = P_BIT | U_BIT | NSK_BIT | NSU_BIT;
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	/* The PEs implement events 0x23 and 0x24 (vperf_pcpu_init reads PMCEID). */
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		sim_poke(cpu, VPERF_ENC_PMCEID1_EL0, VPERF_BIT(3) | VPERF_BIT(4));
	hv_restart_vperf(2);
	vperf_pmu_filter_set(&cfg.filter, 0x23, false);
	vperf_pmu_filter_set(&cfg.filter, 0x4004, false);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCEID1_EL0), VPERF_BIT(4));

	guest_write(PMEVTYPER0_EL0, 0x4004);
	guest_write(PMEVTYPER1_EL0, 0x4005);
	assert_int_equal(hw_evtyper(0), denied | 0x4004);
	assert_int_equal(hw_evtyper(1), allowed | 0x4005);

	/* allow_other = 0: an IMPLEMENTATION DEFINED event (0xC0) is denied, 0x4005 is not. */
	hv_leave(0);
	cfg = policy(VPERF_PMU_SELF, 4);
	vperf_pmu_filter_set(&cfg.filter, 0xc0, false);
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
	hv_enter(hv_vcpu(1, 1), 0);
	guest_write(PMEVTYPER0_EL0, 0xc0);
	guest_write(PMEVTYPER1_EL0, 0x4005);
	assert_int_equal(hw_evtyper(0), denied | 0xc0);
	assert_int_equal(hw_evtyper(1), allowed | 0x4005);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0xc0); /* the guest reads what it wrote */
	assert_int_equal(sim_error_count(), 0);
}

/* On a PE with SPE, a VM without SPE sees no SAMPLE_* event in PMCEID0 (bits 35:32, events
 * 0x4000-0x4003, I5.3.6), and a counter programmed with one counts at no Exception level. */
static void test_sample_events_hidden_without_spe(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config c0 = policy(VPERF_PMU_SELF, 3);

	(void)state;
	hv_default_config(&cfg);
	cfg.pmsver = 1;
	cfg.pmsidr = 0x64; /* what sim_spe_default_config gives: an interval of 256 */
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &c0), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCEID0_EL0) & VPERF_GENMASK(35, 32),
			 VPERF_GENMASK(35, 32));
	assert_int_equal(guest_read(PMCEID0_EL0) & VPERF_GENMASK(35, 32), 0);
	guest_write(PMEVTYPER0_EL0, 0x4000);
	/* evtCount[15:10] is RES0 before PMUv3p1 (I5.3.30): there the type reads as event 0. */
	assert_int_equal(guest_read(PMEVTYPER0_EL0), cfg.pmuver >= 4 ? 0x4000 : 0);
	assert_int_equal(hw_evtyper(0) & (P_BIT | U_BIT), P_BIT | U_BIT);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_denied_cycles_count_nothing),
		cmocka_unit_test(test_denied_cycles_across_switches),
		cmocka_unit_test(test_filter_ranges),
		cmocka_unit_test(test_sample_events_hidden_without_spe),
	};

	return cmocka_run_group_tests_name("vpmu_filter", tests, NULL, NULL);
}
