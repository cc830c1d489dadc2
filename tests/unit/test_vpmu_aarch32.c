// SPDX-License-Identifier: MIT
/*
 * PMCR_EL0.LC on PEs with AArch32 at EL0 (the model's cfg.aarch32_el0): there LC is R/W and
 * decides whether the cycle counter overflows when PMCCNTR_EL0[31:0] or [63:0] wraps (Arm DDI
 * 0487 K.a I5.3.21, LC; RES1 on an AArch64-only PE). A guest must read back the LC it wrote,
 * its cycle counter must overflow where that LC says, in the trapped, emulated and direct
 * partitions and across switches; where some pCPU is AArch64-only, LC is RES1 for every guest
 * and the hardware gets LC = 1 everywhere.
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>

#include "hv.h"

#define CCNT VPERF_BIT(31)

static const struct sim_uop op3 = { .pc = 0x4000, .latency = 3, .type = SIM_UOP_OTHER };

static struct vperf_vm_config policy(enum vperf_partition part)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = part,
				       .nr_counters = 2 };

	vperf_pmu_filter_allow_all(&cfg.filter);
	return cfg;
}

/* N = 6, the host keeps 2; CPU n has AArch32 at EL0 when bit n of aarch32 is set. VM p is in
 * partition p (trapped, direct, emulated). */
static void world(unsigned int aarch32)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		hv_default_config(&cfgs[cpu]);
		if (cfgs[cpu].pmuver < 6)
			cfgs[cpu].pmuver = 6; /* the direct partition needs PMUv3p5 */
		cfgs[cpu].aarch32_el0 = (aarch32 >> cpu) & 1;
	}
	hv_init_cpus(cfgs, 2);
	for (unsigned int p = 0; p < 3; p++) {
		struct vperf_vm_config vm = policy((enum vperf_partition)p);

		assert_int_equal(hv_vm(p, &vm), VPERF_OK);
	}
}

static uint64_t hw_pmcr(unsigned int cpu)
{
	return sim_peek(cpu, VPERF_ENC_PMCR_EL0);
}

/* The guest counts cycles from 2^32 - 16 for 18 cycles: does its cycle counter overflow? */
static bool wraps_at_32(void)
{
	bool ovf;

	guest_write(PMCNTENSET_EL0, CCNT);
	guest_write(PMCCNTR_EL0, 0xfffffff0ull);
	hv_run_n(&op3, 6);
	assert_int_equal(guest_read(PMCCNTR_EL0), 0x100000002ull);
	ovf = guest_read(PMOVSSET_EL0) & CCNT;
	guest_write(PMOVSCLR_EL0, CCNT);
	return ovf;
}

/* On a PE with AArch32 at EL0, in each partition: LC reads back as written, is what the
 * hardware holds while the guest runs, and decides the cycle counter's overflow. */
static void test_lc_is_the_guests(void **state)
{
	(void)state;
	for (unsigned int p = 0; p < 3; p++) {
		struct hv_vcpu *vc;

		world(~0u);
		vc = hv_vcpu(0, p);
		hv_enter(vc, 0);
		guest_write(PMCR_EL0, PMCR_E | PMCR_LC);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_LC, PMCR_LC);
		assert_int_equal(hw_pmcr(0) & PMCR_LC, PMCR_LC);
		assert_false(wraps_at_32());
		guest_write(PMCR_EL0, PMCR_E);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_LC, 0);
		assert_int_equal(hw_pmcr(0) & PMCR_LC, 0);
		assert_true(wraps_at_32());
		assert_int_equal(sim_error_count(), 0);
	}
}

/* LC survives a switch, both ways, and a migration; the next guest gets its own. */
static void test_lc_across_switches(void **state)
{
	(void)state;
	for (unsigned int p = 0; p < 3; p++) {
		struct hv_vcpu *a, *b;

		world(~0u);
		a = hv_vcpu(0, p);
		b = hv_vcpu(1, 0);
		hv_enter(a, 0);
		guest_write(PMCR_EL0, PMCR_E | PMCR_LC);
		hv_enter(b, 0);
		guest_write(PMCR_EL0, PMCR_E);
		assert_int_equal(hw_pmcr(0) & PMCR_LC, 0);
		hv_enter(a, 0);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_LC, PMCR_LC);
		assert_int_equal(hw_pmcr(0) & PMCR_LC, PMCR_LC);
		assert_false(wraps_at_32());
		hv_leave(0);
		hv_enter(a, 1);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_LC, PMCR_LC);
		assert_false(wraps_at_32());
		hv_enter(b, 0);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_LC, 0);
		assert_true(wraps_at_32());
		assert_int_equal(sim_error_count(), 0);
	}
}

/* One pCPU AArch64-only (CPU 1): LC is RES1 for every guest, and a pCPU with AArch32 gets LC =
 * 1 in the hardware whatever the guest writes, so that its cycle counter never overflows at 32
 * bits behind the guest's back. */
static void test_lc_res1_on_mixed_platform(void **state)
{
	(void)state;
	for (unsigned int p = 0; p < 3; p++) {
		struct hv_vcpu *vc;

		world(~0u & ~2u);
		vc = hv_vcpu(0, p);
		hv_enter(vc, 0);
		guest_write(PMCR_EL0, PMCR_E);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_LC, PMCR_LC);
		assert_int_equal(hw_pmcr(0) & PMCR_LC, PMCR_LC);
		assert_false(wraps_at_32());
		hv_leave(0);
		hv_enter(vc, 1);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_LC, PMCR_LC);
		assert_false(wraps_at_32());
		assert_int_equal(sim_error_count(), 0);
	}
}

/* D (the cycle counter's divider, with LC = 0) is the guest's too where LC is: the hardware
 * counts once every 64 cycles for it; RES0 on a platform with an AArch64-only pCPU. */
static void test_d_follows_lc(void **state)
{
	(void)state;
	for (unsigned int p = 0; p < 3; p++) {
		struct hv_vcpu *vc;

		world(~0u);
		vc = hv_vcpu(0, p);
		hv_enter(vc, 0);
		guest_write(PMCNTENSET_EL0, CCNT);
		guest_write(PMCCNTR_EL0, 0);
		guest_write(PMCR_EL0, PMCR_E | PMCR_D);
		assert_int_equal(guest_read(PMCR_EL0) & (PMCR_D | PMCR_LC), PMCR_D);
		hv_run_n(&op3, 64); /* 192 cycles */
		assert_int_equal(guest_read(PMCCNTR_EL0), 3);
		world(~0u & ~2u);
		vc = hv_vcpu(0, p);
		hv_enter(vc, 0);
		guest_write(PMCR_EL0, PMCR_E | PMCR_D);
		assert_int_equal(guest_read(PMCR_EL0) & (PMCR_D | PMCR_LC), PMCR_LC);
		assert_int_equal(sim_error_count(), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lc_is_the_guests),
		cmocka_unit_test(test_lc_across_switches),
		cmocka_unit_test(test_lc_res1_on_mixed_platform),
		cmocka_unit_test(test_d_follows_lc),
	};

	return cmocka_run_group_tests_name("vpmu_aarch32", tests, NULL, NULL);
}
