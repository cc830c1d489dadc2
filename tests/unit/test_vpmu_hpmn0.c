// SPDX-License-Identifier: MIT
/*
 * HPMN = 0 (MDCR_EL2.HPMN, Arm DDI 0487 K.a, MDCR_EL2), allowed with FEAT_HPMN0 only, which the
 * executable model implements per PE: no event counter for a guest, or all of them the host's,
 * the guest keeping the cycle counter. A direct guest with no event counter runs untrapped with
 * HPMN = 0 itself, every event counter's bit of PMCNTEN, PMINTEN and PMOVS RAZ/WI at its EL1
 * (KVM's vpmu_counter_access asks this of its first VM); without FEAT_HPMN0 on every pCPU that
 * policy, and a host keeping every counter, are refused, and a pCPU without it initialised after
 * the VM runs the VM trapped with the host's HPMN. The model and the world are vpmu_fgt_util.h's.
 */
#include "cmocka_wrap.h"

#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "vpmu_fgt_util.h"

/* FEAT_HPMN0: the host keeps every counter (HPMN = 0) and a guest still has the cycle counter;
 * a direct guest with no event counter runs with HPMN = 0 itself, untrapped, where every event
 * counter's bit of PMCNTEN, PMINTEN and PMOVS is RAZ/WI at EL1 (counters at or above HPMN are
 * EL2's, MDCR_EL2.HPMN): the host's counters' bits are out of its reach. KVM's
 * vpmu_counter_access asks this of its first VM. */
static void test_hpmn0(void **state)
{
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 0, false);
	struct sim_pe_config cfg;
	struct hv_vcpu *a;
	uint64_t t;

	(void)state;
	model(&cfg);
	cfg.hpmn0 = true;
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	a = hv_vcpu(0, 0);
	start(a, 0);
	t = traps();
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMCCNTR_EL0), 30);
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	assert_int_equal(traps(), t);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & (MDCR_EL2_TPM | MDCR_EL2_HPMN_MASK), 0);
	guest_write(PMCNTENSET_EL0, 0xffff);
	guest_write(PMINTENSET_EL1, 0xffff);
	guest_write(PMOVSSET_EL0, 0xffff);
	assert_int_equal(guest_read(PMCNTENSET_EL0) & 0x7fffffffull, 0);
	assert_int_equal(guest_read(PMINTENSET_EL1), 0);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & 0x7fffffffull, 0);
	assert_int_equal(traps(), t);
	/* Every counter the host's: a trapped guest with the cycle counter only. */
	hv_init(&cfg, 6);
	assert_int_equal(hv.pcpu[0].hpmn, 0);
	vm = policy(VPERF_PART_TRAPPED, 0, false);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	a = hv_vcpu(0, 0);
	start(a, 0);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMCCNTR_EL0), 30);
	assert_int_equal(sim_error_count(), 0);
}

/* Without FEAT_HPMN0 on every pCPU, HPMN = 0 is refused: the direct guest with no event counter,
 * and a host keeping every counter. */
static void test_no_hpmn0(void **state)
{
	const struct vperf_pcpu_config all = { .host_counters = 6 };
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 0, false);
	struct sim_pe_config cfg;

	(void)state;
	model(&cfg);
	cfg.hpmn0 = true;
	cfg.cpus_without_hpmn0 = VPERF_BIT(1);
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &vm), VPERF_EINVAL);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &all), VPERF_EINVAL);
	sim_set_cpu(0);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &all), VPERF_OK);
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &vm), VPERF_EINVAL);
}

/* The pCPU without FEAT_HPMN0 initialised after the VM: the VM runs there trapped, with the
 * host's HPMN (the model reports an HPMN = 0 it does not allow), and untrapped elsewhere. */
static void test_pcpu_without_hpmn0_runs_trapped(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 0, false);
	struct sim_pe_config cfg;
	struct hv_vcpu *a;

	(void)state;
	model(&cfg);
	cfg.hpmn0 = true;
	cfg.cpus_without_hpmn0 = VPERF_BIT(1);
	hv_init(&cfg, 2);
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &pcfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 1);
	guest_write(PMCCNTR_EL0, 0);
	guest_write(PMCNTENSET_EL0, VPERF_BIT(31));
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMCCNTR_EL0), 30);
	assert_int_equal(mdcr_tpm(1), MDCR_EL2_TPM);
	assert_int_equal(sim_peek(1, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPMN_MASK, 4);
	hv_leave(1);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCCNTR_EL0), 30);
	assert_int_equal(mdcr_tpm(0), 0);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_hpmn0, setup),
		cmocka_unit_test_setup(test_no_hpmn0, setup),
		cmocka_unit_test_setup(test_pcpu_without_hpmn0_runs_trapped, setup),
	};

	return cmocka_run_group_tests_name("vpmu_hpmn0", tests, NULL, NULL);
}
