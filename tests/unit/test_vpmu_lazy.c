// SPDX-License-Identifier: MIT
/*
 * The lazy put (vperf_vcpu_put_lazy, docs/vpmu.md "Lazy put"): a trapped-partition vCPU's
 * counters stay parked in its pCPU's hardware after its put and are saved only when another
 * owner needs them. What must never happen: a value of one VM reaching another VM or the host,
 * or a vCPU losing or gaining counts, whoever comes in between (another vCPU, the host, a
 * migration, a blob save, a reset).
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

/* VM 0 and VM 1 (lazy_vms) */
static int setup_lazy(void **state)
{
	(void)state;
	lazy_vms(2);
	return 0;
}

/* Counter 0 counts cycles, 1 instructions, the cycle counter runs, interrupts enabled; each
 * counter starts from a value of its own (base), so a value seen elsewhere is recognisable. */
static void program(uint64_t base)
{
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMEVTYPER1_EL0, EV_INST);
	guest_write(PMEVCNTR0_EL0, base);
	guest_write(PMEVCNTR1_EL0, base + 1);
	guest_write(PMEVCNTR2_EL0, base + 2);
	guest_write(PMEVCNTR3_EL0, base + 3);
	guest_write(PMCCNTR_EL0, base + 4);
	guest_write(PMINTENSET_EL1, 0x80000003ull);
	guest_write(PMCNTENSET_EL0, 0x80000003ull);
	guest_write(PMCR_EL0, PMCR_E);
}

static uint64_t accesses(unsigned int cpu)
{
	return sim_cpu(cpu)->nr_reads + sim_cpu(cpu)->nr_writes;
}

/* Back on its pCPU with nobody in between: the put stops counting and takes the flags (one
 * write, one read), the load resumes (one write); nothing counted in between, nothing lost. */
static void test_back_untouched(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	program(1000);
	hv_run_n(&op3, 10);
	sim_clear_counts(0);
	hv_leave(0);
	assert_int_equal(sim_cpu(0)->nr_writes, 1);
	assert_int_equal(sim_cpu(0)->nr_reads, 1);
	assert_true(vperf_vcpu_parked(&a->v));
	assert_int_equal(hv.pcpu[0].pmu_owner, &a->v);
	write_sysreg(0x10, PMCNTENSET_EL0); /* the host's work between: not the guest's */
	sim_clear_counts(0);
	hv_enter(a, 0);
	assert_int_equal(accesses(0), 1);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1060);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1021);
	assert_int_equal(guest_read(PMEVCNTR2_EL0), 1002);
	assert_int_equal(guest_read(PMCCNTR_EL0), 1064);
	assert_false(vperf_vcpu_parked(&a->v));
	assert_int_equal(sim_error_count(), 0);
}

/* Another VM's vCPU loaded in between takes the counters: the parked state is saved into its
 * shadow first, the newcomer reads only its own values, and the first vCPU comes back with
 * exactly its counts. An idle newcomer (no PMU access) leaves it parked. */
static void test_other_vcpu_between(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 1), *idle = hv_vcpu(2, 1);

	(void)state;
	hv_enter(a, 0);
	program(1000);
	hv_run_n(&op3, 10);
	hv_enter(idle, 0);
	hv_run_n(&op3, 5);
	assert_true(vperf_vcpu_parked(&a->v));
	hv_enter(a, 0);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1060);
	hv_enter(b, 0);
	assert_true(vperf_vcpu_parked(&a->v)); /* until b's first PMU access */
	/* b never wrote its counters: the reset values, none of a's. */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_false(vperf_vcpu_parked(&a->v));
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR2_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR3_EL0), 0);
	assert_int_equal(guest_read(PMCCNTR_EL0), 0);
	program(5000);
	hv_run_n(&op3, 7);
	hv_enter(a, 0);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1090);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1031);
	assert_int_equal(guest_read(PMEVCNTR3_EL0), 1003);
	assert_int_equal(guest_read(PMCCNTR_EL0), 1094);
	hv_enter(b, 0);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 5021);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 5008);
	assert_int_equal(guest_read(PMCCNTR_EL0), 5025);
	assert_int_equal(sim_error_count(), 0);
}

/* The host between put and load: its own counter (4, second range) counts only its own work and
 * keeps its value; its overflow goes to the host and not to the parked vCPU, whose counters and
 * flags are untouched. */
static void test_host_between(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	write_sysreg(EV_INST, PMEVTYPER4_EL0);
	write_sysreg(0xffffffffull, PMEVCNTR4_EL0);
	write_sysreg(0x10, PMINTENSET_EL1);
	hv_enter(a, 0);
	program(1000);
	hv_run_n(&op3, 10);
	hv_leave(0);
	write_sysreg(0x10, PMCNTENSET_EL0); /* the host starts counting: HV, EL1 and EL0 */
	write_sysreg(read_sysreg(PMEVCNTR4_EL0) + 1, PMEVCNTR4_EL0); /* the host's use */
	assert_int_equal(read_sysreg(PMEVCNTR4_EL0), wide() ? 0x100000000ull : 0);
	hv_enter(a, 0);
	hv_run_n(&op3, 1);
	hv_settle();
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_false(a->irq_level);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1033);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1012);
	hv_leave(0);
	assert_int_equal(read_sysreg(PMEVCNTR4_EL0), (wide() ? 0x100000000ull : 0) + 1);
}

/* Migration: the pCPU it was parked on gives the state up (vperf_pcpu_flush there, the
 * hypervisor's part), the new pCPU restores it exactly; the old pCPU's copy is stale from then
 * on, whether the vCPU comes back to it or another vCPU takes it. */
static void test_migration_flushes(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 1);

	(void)state;
	hv_enter(a, 0);
	program(1000);
	hv_run_n(&op3, 10);
	hv_leave(0);
	hv_enter(a, 1); /* hv_enter flushes pCPU 0 first */
	assert_int_equal(hv.pcpu[0].stats.misuse + hv.pcpu[1].stats.misuse, 0);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1060);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1021);
	hv_leave(1);
	/* pCPU 0 still names a as its owner, with a's older counts in its hardware. */
	hv_enter(a, 0);
	hv_run_n(&op3, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1063);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1022);
	hv_leave(0);
	hv_enter(a, 1);
	hv_run_n(&op3, 1);
	hv_leave(1);
	hv_enter(b, 0); /* takes pCPU 0, where a's state is stale: nothing of it is saved */
	guest_write(PMCNTENSET_EL0, 1);
	hv_enter(a, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1066);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1023);
	assert_int_equal(sim_error_count(), 0);
}

/* The reference hypervisor's schedule (tests/qemu/hyp/sched.c): lazy while the vCPU stays on its
 * pCPU, eager when it is about to move, and no flush after an eager put (it promised nothing).
 * Parked idle (PMCR_EL0.E = 0), the vCPU is loaded again on the same pCPU and runs without a PMU
 * access, so its counters stay parked in the hardware through that run; the eager put that ends
 * it must save them: after it the vCPU is loadable anywhere, with its counts, and no misuse. */
static void test_parked_idle_then_eager_put(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint8_t blob[VPERF_VSPE_BLOB_SIZE];

	(void)state;
	hv_enter(a, 0);
	program(1000);
	hv_run_n(&op3, 10);
	guest_write(PMCR_EL0, 0); /* stopped: idle at the put, 1030 left in the hardware */
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&a->v));
	hv_enter(a, 0); /* idle: the load touches nothing, the counters stay parked */
	hv_run_n(&op3, 5);
	hv.lazy_put = false; /* it moves next: the eager put */
	hv_leave(0);
	assert_false(vperf_vcpu_parked(&a->v));
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_VPMU_BLOB_SIZE);
	sim_set_cpu(1); /* loaded there as that hypervisor does: no flush of pCPU 0 */
	vperf_vcpu_load(&a->v, &hv.pcpu[1]);
	hv.running[1] = a;
	a->cpu = 1;
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1030);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1011);
	assert_int_equal(guest_read(PMEVCNTR2_EL0), 1002);
	assert_int_equal(guest_read(PMCCNTR_EL0), 1034);
	assert_int_equal(hv.pcpu[0].stats.misuse + hv.pcpu[1].stats.misuse, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* The same idle run ended by a lazy put: the promise of the next load here holds again, so the
 * counters stay parked (the put reads none of them) and the next load finds them there. */
static void test_parked_idle_then_lazy_put(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	program(1000);
	hv_run_n(&op3, 10);
	guest_write(PMCR_EL0, 0);
	hv_leave(0);
	hv_enter(a, 0);
	hv_run_n(&op3, 5);
	sim_clear_counts(0);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&a->v));
	assert_int_equal(sim_cpu(0)->nr_reads, 0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1030);
	assert_int_equal(guest_read(PMCCNTR_EL0), 1034);
	assert_false(vperf_vcpu_parked(&a->v));
	assert_int_equal(hv.pcpu[0].stats.misuse, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* A load on another pCPU without the flush breaks the promise: counted as misuse, the counts
 * since the lazy put are lost (the shadow's older values), and the old pCPU never writes its
 * stale copy over the vCPU's state later. */
static void test_migration_without_flush(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 1);

	(void)state;
	hv_enter(a, 0);
	program(1000);
	hv_enter(b, 0);
	guest_read(PMCR_EL0); /* b takes the counters: a's state saved, its shadow holds 1000 */
	hv_enter(a, 0);
	hv_run_n(&op3, 10);
	hv_leave(0);
	hv.lazy_put = false; /* the hypervisor forgets its promise: no flush */
	sim_set_cpu(1);
	vperf_vcpu_load(&a->v, &hv.pcpu[1]);
	hv.running[1] = a;
	a->cpu = 1;
	/* Said at the load, before any PMU access of the guest's, and once. */
	assert_int_equal(hv.pcpu[1].stats.misuse, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1000);
	assert_int_equal(hv.pcpu[1].stats.misuse, 1);
	guest_write(PMEVCNTR0_EL0, 7);
	hv.lazy_put = true;
	hv_leave(1);
	hv_enter(b, 0); /* pCPU 0 still has a as owner: its stale copy must not be saved */
	guest_read(PMEVCNTR0_EL0);
	assert_true(vperf_vcpu_parked(&a->v)); /* on pCPU 1 */
	hv_enter(a, 0);			       /* the flush of pCPU 1 first, by the harness */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 7);
}

/* The same misuse in a run that makes no PMU access: said at the load all the same, once (one
 * count in the new pCPU's stats, one line at VPERF_LOG_ERR naming the missing flush), and not
 * again at the guest's next access (the acquire copes silently). Mutations tried: the log only
 * for a load without put ("misuse at load 3" in tests/mutate/mutations.txt), the line logged at
 * VPERF_LOG_NOTICE (a guest's mistake) instead. */
static void test_migration_without_flush_logged_at_load(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	unsigned int logs;

	(void)state;
	hv_enter(a, 0);
	program(1000);
	hv_run_n(&op3, 10);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&a->v));
	logs = hv.nr_logs;
	hv.last_log[0] = '\0';
	sim_set_cpu(1); /* no flush of pCPU 0 first */
	vperf_vcpu_load(&a->v, &hv.pcpu[1]);
	hv.running[1] = a;
	a->cpu = 1;
	hv_run_n(&op3, 5);
	assert_int_equal(hv.pcpu[1].stats.misuse, 1);
	assert_int_equal(hv.pcpu[0].stats.misuse, 0);
	assert_int_equal(hv.nr_logs, logs + 1);
	assert_int_equal(hv.last_log_level, VPERF_LOG_ERR);
	assert_non_null(strstr(hv.last_log, "without vperf_pcpu_flush"));
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(hv.pcpu[1].stats.misuse, 1);
	assert_int_equal(hv.nr_logs, logs + 1);
}

/* Save, restore and reset need the state in the shadow: VPERF_EBUSY while it is parked, the
 * exact counts after the flush. */
static void test_blob_and_reset_need_flush(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 0);
	uint8_t blob[VPERF_VSPE_BLOB_SIZE];

	(void)state;
	hv_enter(a, 0);
	program(1000);
	hv_run_n(&op3, 10);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_EBUSY);
	assert_int_equal(vperf_vcpu_reset(&a->v), VPERF_EBUSY);
	assert_int_equal(vperf_vcpu_restore(&a->v, blob, VPERF_VPMU_BLOB_SIZE), VPERF_EBUSY);
	vperf_pcpu_flush(&hv.pcpu[0]);
	assert_false(vperf_vcpu_parked(&a->v));
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_VPMU_BLOB_SIZE);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, VPERF_VPMU_BLOB_SIZE), VPERF_OK);
	hv_enter(b, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1030);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1011);
	assert_int_equal(guest_read(PMCCNTR_EL0), 1034);
	assert_int_equal(vperf_vcpu_reset(&a->v), VPERF_OK);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(guest_read(PMCCNTR_EL0), 0);
}

/* A flag raised before the lazy put: taken at the put, so the virtual line rises then (for the
 * vGIC to deliver at the next run) and the guest reads it after the load, once. */
static void test_flag_at_lazy_put(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config c = policy(VPERF_PMU_HV, 4);
	struct hv_vcpu *a;

	(void)state;
	hv_default_config(&cfg);
	cfg.pmuirq_latency = SIM_IRQ_AFTER_POLLS; /* still in flight at the put */
	cfg.pmuirq_polls = 100;
	hv_init(&cfg, 2);
	hv.lazy_put = true;
	assert_int_equal(hv_vm(0, &c), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	program(0xfffffff0ull);
	hv_run_n(&op3, 10);
	hv_leave(0);
	assert_true(a->irq_level);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	guest_write(PMOVSCLR_EL0, 1);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_false(a->irq_level);
}

/* The pCPU is reset and initialised again while a vCPU is parked on it, without the flush the
 * hypervisor owed it: the vCPU's counts since its put are lost, but it never resumes on what the
 * reset hardware holds (UNKNOWN values): it is restored from its shadow. */
static void test_pcpu_reset_while_parked(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 1);

	(void)state;
	hv_enter(a, 0);
	program(1000);
	hv_enter(b, 0);
	guest_read(PMCR_EL0); /* a saved: its shadow holds 1000 */
	hv_enter(a, 0);
	hv_run_n(&op3, 10);
	hv_leave(0);
	sim_poke(0, VPERF_ENC_PMEVCNTR0_EL0, 0xbad);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	hv_host_boot(0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1000);
}

/* A vCPU that granted its EL0 access (PMUSERENR_EL0) and was put lazily: the next vCPU's EL0
 * finds 0 in the hardware (a trap to its own EL1), and the grant is back when the first one
 * resumes. */
static void test_el0_grant_not_inherited(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 1);

	(void)state;
	hv_enter(a, 0);
	program(1000);
	guest_write(PMUSERENR_EL0, PMUSERENR_ER);
	hv_enter(b, 0);
	sim_set_el(0);
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL1);
	sim_set_el(1);
	hv_enter(a, 0);
	sim_set_el(0);
	assert_int_equal(guest_read(PMEVCNTR2_EL0), 1002);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
}

/* The same grant back on its pCPU with nobody in between (the load's quick resume leaves a vCPU
 * with a grant to the general path, which writes PMUSERENR_EL0): its EL0 reaches the counters
 * (trapped to EL2, not refused to EL1), with the counts it left; then put again, the grant
 * leaves with it. */
static void test_el0_grant_back_untouched(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	program(1000);
	guest_write(PMUSERENR_EL0, PMUSERENR_ER);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&a->v));
	assert_int_equal(read_sysreg(PMUSERENR_EL0), 0);
	hv_enter(a, 0);
	assert_int_equal(read_sysreg(PMUSERENR_EL0), PMUSERENR_ER);
	sim_set_el(0);
	assert_int_equal(guest_read(PMEVCNTR2_EL0), 1002);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	sim_set_el(1);
	hv_leave(0);
	assert_int_equal(read_sysreg(PMUSERENR_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* Only the trapped partition parks: an emulated vCPU moves its rotation point at every put, a
 * direct one copies its controls back, and XENPMU_MODE_ALL's counters go on counting: their
 * lazy put is an eager one (their state is in the shadow after it). */
static void test_only_trapped_parks(void **state)
{
	struct vperf_vm_config emu = policy(VPERF_PMU_HV, 4), all = policy(VPERF_PMU_ALL, 4);
	struct vperf_vm_config direct = policy(VPERF_PMU_HV, 4);
	struct hv_vcpu *v;

	(void)state;
	emu.partition = VPERF_PART_EMULATED;
	direct.partition = VPERF_PART_DIRECT;
	assert_int_equal(hv_vm(2, &emu), VPERF_OK);
	assert_int_equal(hv_vm(3, &all), VPERF_OK);
	assert_int_equal(hv_vm(4, &direct), VPERF_OK);
	for (unsigned int vm = 2; vm <= 4; vm++) {
		v = hv_vcpu(vm, vm);
		hv_enter(v, 0);
		program(1000);
		hv_leave(0);
		assert_false(vperf_vcpu_parked(&v->v));
		assert_int_equal(v->v.pmu.evcntr[2], 1002);
	}
	v = hv_vcpu(0, 0);
	hv_enter(v, 0);
	program(1000);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&v->v));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_back_untouched, setup_lazy),
		cmocka_unit_test_setup(test_other_vcpu_between, setup_lazy),
		cmocka_unit_test_setup(test_host_between, setup_lazy),
		cmocka_unit_test_setup(test_migration_flushes, setup_lazy),
		cmocka_unit_test_setup(test_parked_idle_then_eager_put, setup_lazy),
		cmocka_unit_test_setup(test_parked_idle_then_lazy_put, setup_lazy),
		cmocka_unit_test_setup(test_migration_without_flush, setup_lazy),
		cmocka_unit_test_setup(test_migration_without_flush_logged_at_load, setup_lazy),
		cmocka_unit_test_setup(test_blob_and_reset_need_flush, setup_lazy),
		cmocka_unit_test(test_flag_at_lazy_put),
		cmocka_unit_test_setup(test_only_trapped_parks, setup_lazy),
		cmocka_unit_test_setup(test_pcpu_reset_while_parked, setup_lazy),
		cmocka_unit_test_setup(test_el0_grant_not_inherited, setup_lazy),
		cmocka_unit_test_setup(test_el0_grant_back_untouched, setup_lazy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
