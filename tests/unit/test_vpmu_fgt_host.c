// SPDX-License-Identifier: MIT
/*
 * The hypervisor's own HDFGRTR_EL2 / HDFGWTR_EL2 beside vperf's fine-grained PMU traps, on the
 * executable model with FEAT_FGT (arch/sim/pmu/pmu_fgt.c): vperf owns the PMU fields of both from
 * a vCPU's load to its put, so the host's values must come back whole, cost no write when nothing
 * changes, and never reach a PE without the registers (Arm DDI 0487 K.a, HDFGRTR_EL2; the guest's
 * traps: test_vpmu_fgt.c; the shared world: vpmu_fgt_util.h):
 *   - the hypervisor's own HDFGRTR_EL2 / HDFGWTR_EL2 come back at every put, eager or lazy, its
 *     PMU traps in both registers or in one alone;
 *   - the first load after pcpu_init writes both (they reset to UNKNOWN); from then on each is
 *     written only when its own value changes, the load and the switch's fast path comparing
 *     each register on its own;
 *   - without FEAT_FGT host values are refused; a pCPU without FEAT_FGT refuses the policy, or,
 *     initialised after the VM, runs it trapped.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <vperf/fgt.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "vpmu_fgt_util.h"

/* The hypervisor's own values (debug traps, and a PMU trap of its own) while no vCPU runs. */
static void test_host_values_survive(void **state)
{
	const uint64_t rtr = 0x3f | HDFG_PMCCNTR, wtr = 0x3f | HDFGWTR_PMCR;
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = rtr,
						.host_hdfgwtr = wtr };
	struct hv_vcpu *a = hv_vcpu(0, 0), *c = hv_vcpu(2, 2);
	uint64_t t;

	(void)state;
	sim_poke(0, VPERF_ENC_HDFGRTR_EL2, rtr);
	sim_poke(0, VPERF_ENC_HDFGWTR_EL2, wtr);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	start(a, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0x3f | HDFGRTR_TYPES);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f | HDFGWTR_TYPES);
	t = traps();
	guest_write(PMCR_EL0, PMCR_E);
	guest_read(PMCCNTR_EL0);
	assert_int_equal(traps(), t);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	start(c, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0x3f);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	assert_int_equal(sim_error_count(), 0);
}

/* The same host values across a lazy put of a trapped vCPU, which parks its counters and
 * takes the short path: the host's PMU fields come back there too, and the vCPU's own values
 * at its load. */
static void test_host_values_survive_lazy_put(void **state)
{
	const uint64_t rtr = 0x3f | HDFG_PMCCNTR, wtr = 0x3f | HDFGWTR_PMCR;
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = rtr,
						.host_hdfgwtr = wtr };
	struct hv_vcpu *b = hv_vcpu(1, 1);

	(void)state;
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	hv.lazy_put = true;
	start(b, 0);
	guest_write(PMCR_EL0, PMCR_E);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0x3f);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&b->v));
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	hv_enter(b, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0x3f);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
	assert_int_equal(sim_error_count(), 0);
}

/* The host's PMU traps in one register only, the other's PMU fields clear: the lazy put must
 * still see that the host sets PMU fields and put both registers back. */
static void host_pmu_traps_in_one_register(uint64_t rtr, uint64_t wtr)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = rtr,
						.host_hdfgwtr = wtr };
	struct hv_vcpu *b = hv_vcpu(1, 1);

	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	hv.lazy_put = true;
	for (int i = 0; i < 2; i++) {
		start(b, 0);
		guest_write(PMCR_EL0, PMCR_E);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr & ~HDFGRTR_VPERF_MASK);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr & ~HDFGWTR_VPERF_MASK);
		hv_leave(0);
		assert_true(vperf_vcpu_parked(&b->v));
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	}
	assert_int_equal(sim_error_count(), 0);
}

static void test_host_read_traps_survive_lazy_put(void **state)
{
	(void)state;
	host_pmu_traps_in_one_register(0x3f | HDFG_PMCCNTR | HDFGRTR_PMCEIDN, 0x3f);
}

static void test_host_write_traps_survive_lazy_put(void **state)
{
	(void)state;
	host_pmu_traps_in_one_register(0x3f, 0x3f | HDFGWTR_PMCR | HDFGWTR_PMSWINC);
}

/* Without FEAT_FGT the registers do not exist: host values are refused, none is written. */
static void test_no_fgt_host_values_refused(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2, .host_hdfgwtr = 1 };
	/* Either register alone: HDFGRTR_EL2 exists with FEAT_FGT only, as HDFGWTR_EL2 does (Arm
	 * DDI 0487 K.a, HDFGRTR_EL2). Mutation tried: vperf_fgt_host_ok (fgt.c) checking
	 * host_hdfgwtr alone: the read register's value is accepted and later written. */
	const struct vperf_pcpu_config rcfg = { .host_counters = 2, .host_hdfgrtr = HDFG_PMCCNTR };
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 2, true);

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_EINVAL);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &rcfg), VPERF_EINVAL);
	assert_non_null(strstr(hv.last_log, "without FEAT_FGT"));
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &vm), VPERF_EINVAL); /* no filter without FGT */
	vm = policy(VPERF_PART_TRAPPED, 2, true);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED);
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0); /* no HDFG*TR_EL2 access (the model's UNDEF) */
}

/* One pCPU without FEAT_FGT: the policy is refused; a pCPU without it initialised after the VM
 * runs the VM trapped, the filter holding, and never writes the registers it lacks. */
static void test_pcpu_without_fgt(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 2, true);
	struct sim_pe_config cfg;
	struct hv_vcpu *a;
	uint64_t t;

	(void)state;
	model(&cfg);
	cfg.cpus_without_fgt = VPERF_BIT(1);
	hv_init(&cfg, 2);
	assert_false(hv.pcpu[1].caps.fgt);
	assert_int_equal(hv_vm(0, &vm), VPERF_EINVAL);
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &pcfg), VPERF_OK);
	sim_set_cpu(0);
	a = hv_vcpu(0, 0);
	program(a, 1);
	assert_int_equal(mdcr_tpm(1), MDCR_EL2_TPM);
	t = traps();
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(traps(), t + 2);
	hv_leave(1);
	hv_enter(a, 0); /* migrated to a pCPU with FGT: untrapped there */
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(mdcr_tpm(0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* Writes of HDFGRTR_EL2 and HDFGWTR_EL2 by vperf on cpu since its trace held `since` events. */
static unsigned int fgt_writes(unsigned int cpu, uint64_t since)
{
	uint64_t first, end;
	unsigned int n = 0;

	assert_true(sim_trace_since(cpu, since, &first, &end));
	for (uint64_t i = first; i < end; i++) {
		const struct sim_event *e = sim_trace_at(cpu, i);

		if (e->kind == SIM_WRITE &&
		    (e->enc == VPERF_ENC_HDFGRTR_EL2 || e->enc == VPERF_ENC_HDFGWTR_EL2))
			n++;
	}
	return n;
}

/* The PE resets the trap bits to UNKNOWN (the model seeds what firmware left): the first load
 * after pcpu_init writes the vCPU's values even where they equal what vperf last wrote before. */
static void test_first_load_clears_firmware_traps(void **state)
{
	struct hv_vcpu *c = hv_vcpu(2, 2);
	uint64_t t;

	(void)state;
	assert_int_not_equal(
		sim_peek(0, VPERF_ENC_HDFGRTR_EL2) | sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0);
	start(c, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0);
	t = traps();
	guest_write(PMEVTYPER0_EL0, CPU_CYCLES);
	guest_write(PMCCFILTR_EL0, 0);
	guest_read(PMCEID0_EL0);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMSELR_EL0, 0);
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(traps(), t);
	assert_int_equal(sim_error_count(), 0);
}

/* Each register on its own: the host's read traps have no PMU field (a VM runs with them as
 * they are), its write traps do (a VM runs without them). Back from a put, the load must see
 * that HDFGWTR_EL2 differs although HDFGRTR_EL2 does not. */
static void test_load_compares_each_register(void **state)
{
	const uint64_t rtr = 0x3f, wtr = 0x3f | HDFGWTR_PMCR | HDFG_PMEVTYPERN;
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = rtr,
						.host_hdfgwtr = wtr };
	struct hv_vcpu *c = hv_vcpu(2, 2);
	uint64_t t;

	(void)state;
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	for (int i = 0; i < 2; i++) {
		start(c, 0);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f);
		t = traps();
		guest_write(PMCR_EL0, PMCR_E);
		guest_write(PMEVTYPER0_EL0, CPU_CYCLES);
		assert_int_equal(traps(), t);
		hv_leave(0);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	}
	assert_int_equal(sim_error_count(), 0);
}

/* The switch fast path (a load that writes nothing) compares each register too: the host sets
 * PMU fields in one register only, and a trapped VM in XENPMU_MODE_HV keeps MDCR_EL2.HPME, so an
 * eager put leaves MDCR_EL2 and the other register as the VM runs with them and changes that one
 * alone. Loaded again on the same pCPU, the VM must not run with the host's value of it. */
static void fast_load_after_put_of_one_register(uint64_t rtr, uint64_t wtr)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = rtr,
						.host_hdfgwtr = wtr };
	struct vperf_vm_config vm = { .pmu_mode = VPERF_PMU_HV,
				      .partition = VPERF_PART_TRAPPED,
				      .nr_counters = 2 };
	struct hv_vcpu *d = hv_vcpu(3, 3);
	uint64_t mdcr;

	vperf_pmu_filter_allow_all(&vm.filter);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	assert_int_equal(hv_vm(3, &vm), VPERF_OK);
	for (int i = 0; i < 2; i++) {
		start(d, 0);
		guest_write(PMCR_EL0, PMCR_E);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr & ~HDFGRTR_VPERF_MASK);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr & ~HDFGWTR_VPERF_MASK);
		mdcr = sim_peek(0, VPERF_ENC_MDCR_EL2);
		hv_leave(0);
		assert_false(vperf_vcpu_parked(&d->v));
		assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), mdcr);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	}
	assert_int_equal(sim_error_count(), 0);
}

static void test_fast_load_compares_hdfgrtr(void **state)
{
	(void)state;
	fast_load_after_put_of_one_register(0x3f | HDFG_PMCCNTR, 0x3f);
}

static void test_fast_load_compares_hdfgwtr(void **state)
{
	(void)state;
	fast_load_after_put_of_one_register(0x3f, 0x3f | HDFGWTR_PMCR);
}

/* Written only where the value changes: loads and puts of a VM with no fine-grained trap of its
 * own, the host's values outside the PMU fields, touch neither register after the first load;
 * a VM whose types trap costs one write of each at its load and at its put. */
static void test_written_only_when_changed(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = 0x3f,
						.host_hdfgwtr = 0x3f };
	struct hv_vcpu *a = hv_vcpu(0, 0), *c = hv_vcpu(2, 2);
	uint64_t since;

	(void)state;
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	since = sim_cpu(0)->trace_len;
	hv_enter(c, 0);
	assert_int_equal(fgt_writes(0, since), 2);
	for (int i = 0; i < 3; i++) {
		since = sim_cpu(0)->trace_len;
		hv_leave(0);
		assert_int_equal(fgt_writes(0, since), 0);
		since = sim_cpu(0)->trace_len;
		hv_enter(c, 0);
		assert_int_equal(fgt_writes(0, since), 0);
	}
	hv_leave(0);
	for (int i = 0; i < 2; i++) {
		since = sim_cpu(0)->trace_len;
		hv_enter(a, 0);
		assert_int_equal(fgt_writes(0, since), 2);
		since = sim_cpu(0)->trace_len;
		hv_leave(0);
		assert_int_equal(fgt_writes(0, since), 2);
	}
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0x3f);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_host_values_survive, setup),
		cmocka_unit_test_setup(test_host_values_survive_lazy_put, setup),
		cmocka_unit_test_setup(test_host_read_traps_survive_lazy_put, setup),
		cmocka_unit_test_setup(test_host_write_traps_survive_lazy_put, setup),
		cmocka_unit_test_setup(test_no_fgt_host_values_refused, setup),
		cmocka_unit_test_setup(test_pcpu_without_fgt, setup),
		cmocka_unit_test_setup(test_first_load_clears_firmware_traps, setup),
		cmocka_unit_test_setup(test_load_compares_each_register, setup),
		cmocka_unit_test_setup(test_fast_load_compares_hdfgrtr, setup),
		cmocka_unit_test_setup(test_fast_load_compares_hdfgwtr, setup),
		cmocka_unit_test_setup(test_written_only_when_changed, setup),
	};

	return cmocka_run_group_tests_name("vpmu_fgt_host", tests, NULL, NULL);
}
