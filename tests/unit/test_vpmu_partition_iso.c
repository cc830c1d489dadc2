// SPDX-License-Identifier: MIT
/*
 * A direct-partition vCPU runs with MDCR_EL2.HPMN = its N, lower than the pCPU's first range
 * [0, hpmn): counters [N, hpmn) are then in the second range, enabled by MDCR_EL2.HPME and
 * PMCNTENSET_EL0, not by PMCR_EL0.E (Arm DDI 0487, MDCR_EL2.HPMN; PMCR_EL0.E, "first range
 * only"). In XENPMU_MODE_HV, HPME stays 1 for the host's counters, so a counter the previous
 * owner of the first range left enabled there (stopped only by PMCR_EL0.E = 0 at its put, eager
 * or lazy) would count the direct guest and the EL2 code before its ERET: the previous owner
 * would read another VM's events and take overflows they caused. These tests are that world:
 * PMCR_EL0.N = 8, the host keeps 2 counters (hpmn = 6), and a direct HV VM with N = 2 runs
 * after an owner with more counters.
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

enum { VM_TRAPPED, VM_DIRECT, VM_DIRECT5, VM_EMULATED, VM_ALL, VM_TRAPPED2, VM_DIRECT_SELF };

static struct vperf_vm_config in(enum vperf_partition part, enum vperf_pmu_mode mode, uint8_t n)
{
	struct vperf_vm_config cfg = policy(mode, n);

	cfg.partition = part;
	return cfg;
}

static void model(struct sim_pe_config *cfg)
{
	hv_default_config(cfg);
	cfg->pmuver = 6; /* the direct partition needs PMUv3p5 */
	cfg->nr_counters = 8;
}

static void vms(void)
{
	const struct vperf_vm_config c[] = {
		[VM_TRAPPED] = in(VPERF_PART_TRAPPED, VPERF_PMU_HV, 6),
		[VM_DIRECT] = in(VPERF_PART_DIRECT, VPERF_PMU_HV, 2),
		[VM_DIRECT5] = in(VPERF_PART_DIRECT, VPERF_PMU_HV, 5),
		[VM_EMULATED] = in(VPERF_PART_EMULATED, VPERF_PMU_HV, 6),
		[VM_ALL] = in(VPERF_PART_TRAPPED, VPERF_PMU_ALL, 6),
		[VM_TRAPPED2] = in(VPERF_PART_TRAPPED, VPERF_PMU_SELF, 2),
		[VM_DIRECT_SELF] = in(VPERF_PART_DIRECT, VPERF_PMU_SELF, 2),
	};

	for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(c); i++)
		assert_int_equal(hv_vm(i, &c[i]), VPERF_OK);
}

static int setup_world(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	model(&cfg);
	hv_init(&cfg, 2);
	assert_int_equal(hv.pcpu[0].hpmn, 6);
	vms();
	return 0;
}

/* The owner's counter 5 counts instructions from 5, with its overflow interrupt enabled. */
static void program_counter5(uint64_t val)
{
	guest_write(PMEVTYPER5_EL0, EV_INST);
	guest_write(PMEVCNTR5_EL0, val);
	guest_write(PMINTENSET_EL1, VPERF_BIT(5));
	guest_write(PMCNTENSET_EL0, VPERF_BIT(5));
	guest_write(PMCR_EL0, PMCR_E);
}

/* The direct VM, never having touched its PMU, runs 100 instructions on pCPU 0 after owner,
 * put lazily or not; then the owner is back there. */
static void direct_runs_between(struct hv_vcpu *owner, bool lazy)
{
	struct hv_vcpu *d = hv_vcpu(7, VM_DIRECT);

	hv.lazy_put = lazy;
	hv_leave(0);
	assert_int_equal(vperf_vcpu_parked(&owner->v), lazy);
	hv.lazy_put = false;
	hv_enter(d, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPMN_MASK, 2);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPME, MDCR_EL2_HPME);
	hv_run_n(&op3, 100);
	hv_settle();
	hv_leave(0);
	hv_enter(owner, 0);
}

static void owner_unchanged(bool lazy)
{
	struct hv_vcpu *t = hv_vcpu(0, VM_TRAPPED);

	hv_enter(t, 0);
	program_counter5(5);
	direct_runs_between(t, lazy);
	assert_int_equal(guest_read(PMEVCNTR5_EL0), 5); /* 105: the direct guest's 100 */
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(t->irq_raises, 0);
	/* And it counts again, its own work: an evicted owner is restored, enables included. */
	hv_run_n(&op3, 100);
	assert_int_equal(guest_read(PMEVCNTR5_EL0), 105);
	assert_int_equal(sim_error_count(), 0);
}

static void test_eager_owner_unchanged(void **state)
{
	(void)state;
	owner_unchanged(false);
}

static void test_lazy_owner_unchanged(void **state)
{
	(void)state;
	owner_unchanged(true);
}

/* Counter 5 two instructions... 16 below a 32-bit overflow: the direct guest's work would raise
 * its flag and, through the physical PMUIRQ, the owner's virtual interrupt. */
static void owner_not_interrupted(bool lazy)
{
	struct hv_vcpu *t = hv_vcpu(0, VM_TRAPPED);

	hv_enter(t, 0);
	program_counter5(0xfffffff0ull);
	direct_runs_between(t, lazy);
	assert_int_equal(t->irq_raises, 0);
	assert_false(t->irq_level);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR5_EL0), 0xfffffff0ull);
	assert_int_equal(sim_error_count(), 0);
}

static void test_eager_owner_not_interrupted(void **state)
{
	(void)state;
	owner_not_interrupted(false);
}

static void test_lazy_owner_not_interrupted(void **state)
{
	(void)state;
	owner_not_interrupted(true);
}

/* A direct owner with 5 counters (its counter 4 left enabled at its put) and an emulated one
 * (whose guest counters sit on any physical counter of the first range): the same. */
static void test_direct_owner_unchanged(void **state)
{
	struct hv_vcpu *o = hv_vcpu(0, VM_DIRECT5);

	(void)state;
	hv_enter(o, 0);
	guest_write(PMEVTYPER4_EL0, EV_INST);
	guest_write(PMEVCNTR4_EL0, 7);
	guest_write(PMCNTENSET_EL0, VPERF_BIT(4));
	guest_write(PMCR_EL0, PMCR_E);
	direct_runs_between(o, false);
	assert_int_equal(guest_read(PMEVCNTR4_EL0), 7);
	assert_int_equal(sim_error_count(), 0);
}

static void test_emulated_owner_unchanged(void **state)
{
	struct hv_vcpu *o = hv_vcpu(0, VM_EMULATED);

	(void)state;
	hv_enter(o, 0);
	for (unsigned int n = 0; n < 6; n++) {
		guest_msr(VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7), EV_INST);
		guest_msr(VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7), 10 * n);
	}
	guest_write(PMCNTENSET_EL0, 0x3f);
	guest_write(PMCR_EL0, PMCR_E);
	direct_runs_between(o, false);
	for (unsigned int n = 0; n < 6; n++)
		assert_int_equal(guest_mrs(VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7)),
				 10 * n);
	assert_int_equal(sim_error_count(), 0);
}

/* The boundary: a direct vCPU whose N is one below the first range (N = 5, hpmn = 6) moves only
 * counter 5, the owner's last, to the second range: it is evicted like the others. */
static void test_direct_one_below_range(void **state)
{
	struct hv_vcpu *t = hv_vcpu(0, VM_TRAPPED), *d = hv_vcpu(6, VM_DIRECT5);

	(void)state;
	hv_enter(t, 0);
	program_counter5(5);
	hv_leave(0);
	hv_enter(d, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPMN_MASK, 5);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPME, MDCR_EL2_HPME);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & VPERF_BIT(5), 0);
	hv_run_n(&op3, 100);
	hv_settle();
	hv_leave(0);
	hv_enter(t, 0);
	assert_int_equal(guest_read(PMEVCNTR5_EL0), 5); /* 105: the direct guest's 100 */
	assert_int_equal(sim_error_count(), 0);
}

/* What the eviction leaves in [N, hpmn) while the direct guest runs: nobody's counters, so
 * nothing enabled, no interrupt enable, no flag (the owner's are in its shadow). The owner's
 * counter 2 (= N, the first one moved) enabled, its counter 5 enabled and overflowed (the flag
 * still in the hardware at its put: its interrupt was off), counter 4's interrupt enabled: the
 * physical counter 5 does not move under the direct guest, and the owner back finds its flag,
 * its values, and no interrupt for counter 4. Found by mutation testing: each of the eviction's
 * three clears dropped, or counter N spared, passed every other test (the owner, restored from
 * its shadow, never sees what its old hardware counters did). */
static void test_evicted_range_quiet(void **state)
{
	const uint64_t range = 0x3c; /* [2, 6) */
	struct hv_vcpu *t = hv_vcpu(0, VM_TRAPPED), *d = hv_vcpu(7, VM_DIRECT);
	uint64_t cnt5, hw5;

	(void)state;
	hv_enter(t, 0);
	guest_write(PMEVTYPER2_EL0, EV_INST);
	guest_write(PMEVTYPER5_EL0, EV_INST);
	guest_write(PMEVCNTR5_EL0, 0xfffffff0ull);
	guest_write(PMINTENSET_EL1, VPERF_BIT(4));
	guest_write(PMCNTENSET_EL0, VPERF_BIT(2) | VPERF_BIT(5));
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 32);
	cnt5 = guest_read(PMEVCNTR5_EL0);
	assert_int_equal(guest_read(PMOVSSET_EL0), VPERF_BIT(5));
	hv_leave(0);
	hv_enter(d, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & range, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & range, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & range, 0);
	hw5 = sim_peek(0, VPERF_ENC_PMEVCNTR5_EL0);
	hv_run_n(&op3, 100);
	hv_settle();
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVCNTR5_EL0), hw5);
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(hv.pcpu[0].stats.stray_overflows, 0);
#endif
	hv_leave(0);
	hv_enter(t, 0);
	assert_int_equal(guest_read(PMEVCNTR5_EL0), cnt5);
	assert_int_equal(guest_read(PMOVSSET_EL0), VPERF_BIT(5));
	assert_int_equal(t->irq_raises, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* XENPMU_MODE_ALL profiles everyone: its counters keep counting across switches, the direct
 * guest's work included, in the second range as in the first. Not an eviction case. */
static void test_all_owner_keeps_counting(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, VM_ALL);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVTYPER1_EL0, EV_INST);
	guest_write(PMCNTENSET_EL0, VPERF_BIT(1));
	program_counter5(5);
	direct_runs_between(a, false);
	/* And each of the owner's own traps since: it counts EL2 too (one instruction). */
	assert_int_equal(guest_read(PMEVCNTR5_EL0), 5 + 100 + 1);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 100 + 2);
	assert_int_equal(sim_error_count(), 0);
}

/* An owner whose counters all lie below the direct VM's N keeps its hardware copy: the direct
 * VM's load evicts nothing (no register access but MDCR_EL2), and the owner back resumes. */
static void test_small_owner_kept(void **state)
{
	struct hv_vcpu *t = hv_vcpu(0, VM_TRAPPED2), *d = hv_vcpu(7, VM_DIRECT);

	(void)state;
	hv_enter(t, 0);
	guest_write(PMEVTYPER1_EL0, EV_INST);
	guest_write(PMCNTENSET_EL0, VPERF_BIT(1));
	guest_write(PMCR_EL0, PMCR_E);
	hv_leave(0);
	sim_clear_counts(0);
	hv_enter(d, 0);
	assert_int_equal(sim_cpu(0)->nr_reads, 0);
	assert_int_equal(sim_cpu(0)->nr_writes, 1); /* MDCR_EL2 */
	assert_ptr_equal(hv.pcpu[0].pmu_owner, &t->v);
	hv_run_n(&op3, 100);
	hv_leave(0);
	hv_enter(t, 0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* A direct vCPU in XENPMU_MODE_SELF runs with HPME = 0: the second range, [N, HPMN) with it,
 * does not count, so nothing is evicted and the owner back resumes its hardware copy. */
static void test_self_direct_evicts_nothing(void **state)
{
	struct hv_vcpu *t = hv_vcpu(0, VM_TRAPPED), *d = hv_vcpu(7, VM_DIRECT_SELF);

	(void)state;
	hv_enter(t, 0);
	program_counter5(5);
	hv_leave(0);
	hv_enter(d, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPMN_MASK, 2);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPME, 0);
	assert_ptr_equal(hv.pcpu[0].pmu_owner, &t->v);
	hv_run_n(&op3, 100);
	hv_leave(0);
	hv_enter(t, 0);
	assert_int_equal(guest_read(PMEVCNTR5_EL0), 5);
	assert_int_equal(sim_error_count(), 0);
}

/* The switch itself runs at EL2 inside the window of its own writes (el2_exit_cycles): a
 * direct owner's counter 4 typed to count EL2 cycles (NSH, which a direct guest may set: in its
 * first range MDCR_EL2.HPMD keeps EL2 out) must not count the EL2 tail of the next vCPU's load
 * once HPMN moves it to the second range, where HPMD does not apply. */
static void test_el2_tail_not_counted(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	model(&cfg);
	cfg.el2_exit_cycles = 50;
	/* The window counts EL2 with the old or the new values, one draw per window: seeds enough
	 * for both. */
	for (uint64_t seed = 1; seed <= 16; seed++) {
		struct hv_vcpu *o, *d;

		cfg.seed = seed;
		hv_init(&cfg, 2);
		vms();
		o = hv_vcpu(0, VM_DIRECT5);
		d = hv_vcpu(7, VM_DIRECT);
		hv_enter(o, 0);
		guest_write(PMEVTYPER4_EL0, EV_CYCLES | NSH_BIT);
		guest_write(PMEVCNTR4_EL0, 7);
		guest_write(PMCNTENSET_EL0, VPERF_BIT(4));
		guest_write(PMCR_EL0, PMCR_E);
		hv_leave(0);
		/* The direct VM's load as a hypervisor's switch runs it: in an exception to EL2. */
		sim_enter_el2(0);
		d->cpu = 0;
		vperf_vcpu_load(&d->v, &hv.pcpu[0]);
		hv.running[0] = d;
		sim_exit_el2(0);
		sim_set_el(1);
		hv_leave(0);
		hv_enter(o, 0);
		assert_int_equal(guest_read(PMEVCNTR4_EL0), 7);
		assert_int_equal(sim_error_count(), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_eager_owner_unchanged, setup_world),
		cmocka_unit_test_setup(test_lazy_owner_unchanged, setup_world),
		cmocka_unit_test_setup(test_eager_owner_not_interrupted, setup_world),
		cmocka_unit_test_setup(test_lazy_owner_not_interrupted, setup_world),
		cmocka_unit_test_setup(test_direct_owner_unchanged, setup_world),
		cmocka_unit_test_setup(test_emulated_owner_unchanged, setup_world),
		cmocka_unit_test_setup(test_direct_one_below_range, setup_world),
		cmocka_unit_test_setup(test_evicted_range_quiet, setup_world),
		cmocka_unit_test_setup(test_all_owner_keeps_counting, setup_world),
		cmocka_unit_test_setup(test_small_owner_kept, setup_world),
		cmocka_unit_test_setup(test_self_direct_evicts_nothing, setup_world),
		cmocka_unit_test(test_el2_tail_not_counted),
	};

	return cmocka_run_group_tests_name("vpmu_partition_iso", tests, NULL, NULL);
}
