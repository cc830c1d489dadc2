// SPDX-License-Identifier: MIT
/*
 * vperf_vcpu_multiplexed(): whether a put and load of the loaded vCPU would move anything on.
 * True only for a loaded vCPU of the emulated partition, its state in the hardware (not loaded
 * idle), with more enabled units (a counter alone, or a CHAIN pair) than its VM's slots; the
 * cycle counter takes no slot. A hypervisor that
 * puts only when it deschedules (KVM in VHE) puts and loads such a vCPU at its exits, and only
 * such a one: a false true costs every exit a switch, a false false starves counters.
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "sched_util.h"
#include "vpmu_util.h"

#define EV_INST	 0x08
#define EV_CHAIN 0x1e

static const struct sim_uop op1 = { .pc = 0x4000, .latency = 1, .type = SIM_UOP_OTHER };

static struct vperf_vm_config part_policy(enum vperf_partition part, uint8_t nr, uint8_t slots)
{
	struct vperf_vm_config cfg = {
		.pmu_mode = VPERF_PMU_SELF, .partition = part, .nr_counters = nr, .emu_slots = slots
	};

	vperf_pmu_filter_allow_all(&cfg.filter);
	return cfg;
}

static void set_type(unsigned int n, uint64_t event)
{
	guest_msr(VPERF_SYSREG_ENC(3, 3, 14, 12 + (n >> 3), n & 7), event);
}

/* VM 0: 4 counters on 2 slots (N = 6, the host keeps 2: HPMN 4). */
static int setup_two_slots(void **state)
{
	struct vperf_vm_config cfg = part_policy(VPERF_PART_EMULATED, 4, 2);

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	return 0;
}

/* vCPU 0 of VM 0, made by hv_vcpu() once (each call makes it anew). */
static bool muxed(void)
{
	return vperf_vcpu_multiplexed(&hv.vcpu[0].v);
}

/* As many enabled counters as slots: no; one more, enabled while the guest runs: yes, at once;
 * one disabled again: no. The cycle counter takes no slot. */
static void test_more_enabled_than_slots(void **state)
{
	(void)state;
	hv_vcpu(0, 0);
	assert_false(muxed()); /* never loaded */
	hv_enter(&hv.vcpu[0], 0);
	for (unsigned int n = 0; n < 4; n++)
		set_type(n, EV_INST);
	guest_write(PMCR_EL0, PMCR_E);
	assert_false(muxed());
	guest_write(PMCNTENSET_EL0, VPERF_BIT(31) | 0x3);
	assert_false(muxed());
	guest_write(PMCNTENSET_EL0, 0x4);
	assert_true(muxed());
	hv_run_n(&op1, 10);
	guest_write(PMCNTENCLR_EL0, 0x1);
	assert_false(muxed());
	guest_write(PMCNTENSET_EL0, 0x9);
	assert_true(muxed());
	assert_int_equal(sim_error_count(), 0);
}

/* Only while loaded with its state in the hardware: put, the placement is gone; loaded again
 * (here, or after a neighbour used the PMU) it says the same. Loaded idle (PMCR_EL0.E clear at
 * its put, no PMU access since), its put would save and move nothing: not multiplexed until its
 * first access brings the state in. */
static void test_only_while_loaded(void **state)
{
	struct vperf_vm_config other = part_policy(VPERF_PART_EMULATED, 2, 2);
	struct hv_vcpu *a = hv_vcpu(0, 0), *b;

	(void)state;
	assert_int_equal(hv_vm(1, &other), VPERF_OK);
	b = hv_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMCNTENSET_EL0, 0x7);
	guest_write(PMCR_EL0, PMCR_E);
	assert_true(muxed());
	hv_leave(0);
	assert_false(muxed());
	hv_enter(a, 0);
	assert_true(muxed());
	hv_enter(b, 0);
	guest_write(PMCNTENSET_EL0, 0x3);
	guest_write(PMCR_EL0, PMCR_E);
	assert_false(muxed());
	assert_false(vperf_vcpu_multiplexed(&b->v));
	hv_enter(a, 0);
	assert_true(muxed());
	guest_write(PMCR_EL0, 0);
	assert_true(muxed()); /* in the hardware until its put */
	hv_leave(0);
	hv_enter(a, 0);
	assert_false(muxed());
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0x7);
	assert_true(muxed());
	assert_int_equal(sim_error_count(), 0);
}

/* A CHAIN pair is one unit: on one slot it runs alone, chained in software, so the pair and
 * nothing else is not multiplexed; the pair and a third counter are. */
static void test_chain_pair_one_unit(void **state)
{
	struct vperf_vm_config cfg = part_policy(VPERF_PART_EMULATED, 4, 1);
	struct hv_vcpu *v;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	v = hv_vcpu(0, 0);
	hv_enter(v, 0);
	set_type(0, EV_INST);
	set_type(1, EV_CHAIN);
	set_type(2, EV_INST);
	guest_write(PMCNTENSET_EL0, 0x3);
	guest_write(PMCR_EL0, PMCR_E);
	assert_false(vperf_vcpu_multiplexed(&v->v));
	guest_write(PMCNTENSET_EL0, 0x4);
	assert_true(vperf_vcpu_multiplexed(&v->v));
	set_type(1, EV_INST); /* no pair now: three units on one slot */
	assert_true(vperf_vcpu_multiplexed(&v->v));
	guest_write(PMCNTENCLR_EL0, 0x6);
	assert_false(vperf_vcpu_multiplexed(&v->v));
	assert_int_equal(sim_error_count(), 0);
}

/* VM 0 with cfg, its counters of enables counting: its vCPU is not multiplexed. */
static void assert_never(const struct vperf_vm_config *cfg, uint64_t enables)
{
	struct hv_vcpu *v;

	assert_int_equal(hv_vm(0, cfg), VPERF_OK);
	v = hv_vcpu(0, 0);
	hv_enter(v, 0);
	guest_write(PMCNTENSET_EL0, enables);
	guest_write(PMCR_EL0, PMCR_E);
	assert_false(vperf_vcpu_multiplexed(&v->v));
	assert_int_equal(sim_error_count(), 0);
}

/* The other partitions never: every counter has its own physical counter. */
static void test_other_partitions_never(void **state)
{
	enum vperf_partition parts[] = { VPERF_PART_TRAPPED, VPERF_PART_DIRECT };

	(void)state;
	for (unsigned int i = 0; i < 2; i++) {
		struct vperf_vm_config cfg = part_policy(parts[i], 4, 0);

		hv_init(NULL, 2);
		if (parts[i] != VPERF_PART_DIRECT || hv_direct_offered())
			assert_never(&cfg, VPERF_BIT(31) | 0xf);
	}
}

/* The second range too: an EL1 host keeps the first range (6 counters, 2 the host's), the
 * guest's 2 counters above HPMN, each with its own. */
static void test_second_range_never(void **state)
{
	struct vperf_vm_config cfg = part_policy(VPERF_PART_SECOND, 2, 0);

	(void)state;
	el1_host_world();
	if (hv.model.pmuver < 6 || hv.model.aarch32_el0) {
		assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL); /* not offered: PMUv3p5, LC RES1 */
		return;
	}
	assert_never(&cfg, VPERF_BIT(31) | 0x3);
}

/* One drawn step of the guest: a type (CHAIN or not), enables set and cleared, PMCR_EL0.E; or no
 * PMU access at all (r's bits 13-14 zero), which leaves a vCPU that was idle at its put idle. */
static void draw_step(uint64_t r)
{
	if (!((r >> 13) & 3))
		return;
	set_type(r & 3, (r >> 2) & 1 ? EV_CHAIN : EV_INST);
	guest_write(PMCNTENSET_EL0, (r >> 3) & 0xf);
	guest_write(PMCNTENCLR_EL0, (r >> 7) & 0xf & ~((r >> 3) & 0xf));
	if ((r >> 11) & 1)
		guest_write(PMCR_EL0, (r >> 12) & 1 ? PMCR_E : 0);
	hv_run_n(&op1, 5);
}

/* The contract as a property: over drawn programs, N of 1 to 4 on 1 to 4 slots or the whole
 * first range (emu_slots 0), a put moves the rotation point exactly when
 * vperf_vcpu_multiplexed() said so just before it. */
static void test_put_moves_exactly_when_multiplexed(void **state)
{
	uint64_t rng = sched_env_u64("MUX_SEED", 1);
	unsigned int said[2] = { 0, 0 };

	(void)state;
	for (unsigned int world = 0; world < 60; world++) {
		struct vperf_vm_config cfg = part_policy(
			VPERF_PART_EMULATED, (uint8_t)(1 + world % 4), (uint8_t)(world / 4 % 5));
		struct hv_vcpu *v;

		hv_init(NULL, 2);
		assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
		v = hv_vcpu(0, 0);
		for (unsigned int step = 0; step < 40; step++) {
			uint8_t before;
			bool m;

			hv_enter(v, 0);
			draw_step(sched_next(&rng));
			m = vperf_vcpu_multiplexed(&v->v);
			before = v->v.pmu.rotate;
			hv_leave(0);
			said[m]++;
			assert_int_equal(v->v.pmu.rotate != before, m);
		}
		assert_int_equal(sim_error_count(), 0);
	}
	assert_true(said[0] > 100 && said[1] > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_more_enabled_than_slots, setup_two_slots),
		cmocka_unit_test_setup(test_only_while_loaded, setup_two_slots),
		cmocka_unit_test(test_chain_pair_one_unit),
		cmocka_unit_test(test_other_partitions_never),
		cmocka_unit_test(test_second_range_never),
		cmocka_unit_test(test_put_moves_exactly_when_multiplexed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
