// SPDX-License-Identifier: MIT
/*
 * The switch's short path (virt/vcpu.c vperf_vcpu_load): a vCPU of a VM without SPE whose
 * MDCR_EL2, HDFGRTR_EL2 and HDFGWTR_EL2 are in the pCPU's registers already is loaded without
 * load(), and that path too makes it the pCPU's loaded vCPU and the pCPU its own: a second load
 * without a put, of it or of another vCPU, is the hypervisor's bug and is reported as misuse
 * (counted in the pCPU's stats and logged), and vperf_pcpu_forget refuses the vCPU while it is
 * loaded (its state is in the hardware, not its shadow). Mutations tried: the short path not
 * setting pcpu->loaded, or not setting vcpu->pcpu.
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

/* VM 0 (HV, trapped, 4 counters, no SPE) with vCPUs a and b; every put lazy. a ran on pCPU 0 with
 * its counter 0 at 42 and was put: loaded there again it takes the short path. */
static int setup_short(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_HV, 4);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	hv.lazy_put = true;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVCNTR0_EL0, 42);
	hv_leave(0);
	return 0;
}

static unsigned long misuse(unsigned int cpu)
{
#ifdef CONFIG_VPERF_STATS
	return (unsigned long)hv.pcpu[cpu].stats.misuse;
#else
	(void)cpu;
	return 0;
#endif
}

/* a through the short path, then its checks: it is pCPU 0's loaded vCPU and pCPU 0 is its. */
static struct hv_vcpu *short_loaded(void)
{
	struct hv_vcpu *a = &hv.vcpu[0]; /* as setup_short left it (hv_vcpu() would init it) */

	hv_enter(a, 0);
	assert_ptr_equal(hv.pcpu[0].loaded, &a->v);
	assert_ptr_equal(a->v.pcpu, &hv.pcpu[0]);
	assert_int_equal(misuse(0), 0);
	hv.last_log[0] = '\0';
	return a;
}

/* Another vCPU loaded on pCPU 0 without a's put: misuse, logged. */
static void test_other_vcpu_loaded_over_short_path(void **state)
{
	(void)state;
	short_loaded();
	hv_load_raw(hv_vcpu(1, 0), 0);
	assert_non_null(strstr(hv.last_log, "without vcpu_put"));
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(misuse(0), 1);
#endif
}

/* The same with a vCPU b that ran on pCPU 0 before a (its registers are in place there too, so
 * that the short path would answer it): misuse, logged. Mutation tried: the short path's entry
 * not checking that the pCPU has no vCPU loaded. */
static void test_other_short_vcpu_loaded_over_short_path(void **state)
{
	struct hv_vcpu *b = hv_vcpu(1, 0);

	(void)state;
	hv_enter(b, 0);
	hv_leave(0);
	short_loaded();
	hv_load_raw(b, 0);
	assert_non_null(strstr(hv.last_log, "without vcpu_put"));
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(misuse(0), 1);
#endif
}

/* a loaded again on pCPU 1 without its put on pCPU 0: misuse, logged. */
static void test_short_loaded_vcpu_loaded_elsewhere(void **state)
{
	(void)state;
	short_loaded();
	hv_load_raw(&hv.vcpu[0], 1);
	assert_non_null(strstr(hv.last_log, "without vcpu_put"));
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(misuse(1), 1);
#endif
}

/* a loaded again on pCPU 0, where it still is (so that its registers are in place and the short
 * path would answer): misuse, logged. Mutation tried: the short path's entry not checking that
 * the vCPU and the pCPU are unloaded. */
static void test_short_loaded_vcpu_loaded_again(void **state)
{
	(void)state;
	short_loaded();
	hv_load_raw(&hv.vcpu[0], 0);
	assert_non_null(strstr(hv.last_log, "without vcpu_put"));
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(misuse(0), 1);
#endif
}

/* vperf_pcpu_forget of pCPU 0 under a: refused (misuse, logged), a keeps its counters. */
static void test_forget_refuses_short_loaded_vcpu(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	a = short_loaded();
	vperf_pcpu_forget(&hv.pcpu[0], &a->v);
	assert_non_null(strstr(hv.last_log, "pcpu_forget of a loaded vCPU"));
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(misuse(0), 1);
#endif
	assert_ptr_equal(hv.pcpu[0].pmu_owner, &a->v);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 42);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A load onto a pCPU that another vCPU has not been put from is the hypervisor's bug (the other
 * vCPU's counts would be lost): counted and logged. Resetting a loaded vCPU is refused, and its
 * state in the hardware stays. Kills "a load onto a pCPU another vCPU is still loaded on is not
 * reported" and "a loaded vCPU is reset under the hardware that holds its state".
 */
static void test_misuse_is_caught(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a, *b;

	(void)state;
	init_model(6, true, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 0);
	hv_enter(a, 0);
	guest_write(PMEVCNTR0_EL0, 42);
	assert_int_equal(vperf_vcpu_reset(&a->v), VPERF_EBUSY);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 42);
	hv.last_log[0] = '\0';
	hv_load_raw(b, 0);
	assert_non_null(strstr(hv.last_log, "without vcpu_put"));
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(hv.pcpu[0].stats.misuse, 1);
#endif
}

/*
 * With hyp_writes_mdcr the hypervisor writes its own host value after every put, which vperf
 * does not know (include/vperf/hyp.h, "MDCR_EL2 is shared"). An eager put whose MDCR_EL2 vperf
 * has no need to write (the host's HPME is the vCPU's: no host counters, a SELF guest; no
 * host_el1) leaves the register the vCPU's as vperf sees it, until the hypervisor's write: the
 * load back must not take that for the register's value and the short path with it, but write
 * the vCPU's MDCR_EL2 itself, as every full path does where its sequence needs it. Kills:
 * vperf_mdcr_handed not forgetting pcpu->cur_mdcr (MDCR_EL2 is the hypervisor's host value
 * when vperf_vcpu_load returns).
 */
static void test_hyp_mdcr_eager_put_forgotten(void **state)
{
	const struct vperf_pcpu_config pcfg = { .hyp_writes_mdcr = true };
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 0);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	hv_host_boot(0);
	hv.hyp_host_bits = MDCR_EL2_TDA;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVCNTR0_EL0, 42);
	assert_int_equal(hv.pcpu[0].host_mdcr & MDCR_EL2_HPME, a->v.mdcr & MDCR_EL2_HPME);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), hv.pcpu[0].host_mdcr | MDCR_EL2_TDA);
	hv_enter(a, 0);
	assert_int_equal(hv.mdcr_after_load[0], a->v.mdcr);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), a->v.mdcr);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 42);
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_other_vcpu_loaded_over_short_path, setup_short),
		cmocka_unit_test_setup(test_other_short_vcpu_loaded_over_short_path, setup_short),
		cmocka_unit_test_setup(test_short_loaded_vcpu_loaded_elsewhere, setup_short),
		cmocka_unit_test_setup(test_short_loaded_vcpu_loaded_again, setup_short),
		cmocka_unit_test_setup(test_forget_refuses_short_loaded_vcpu, setup_short),
		cmocka_unit_test(test_misuse_is_caught),
		cmocka_unit_test(test_hyp_mdcr_eager_put_forgotten),
	};

	return cmocka_run_group_tests_name("vcpu_load", tests, NULL, NULL);
}
