// SPDX-License-Identifier: MIT
/*
 * The guest's virtual PMU interrupt line across the lazy put (docs/vpmu.md, "Lazy put"): a level
 * computed from the guest's PMCR_EL0.E, PMINTENSET_EL1 and overflow flags (PMUIRQ is
 * level-sensitive, Arm DDI 0487 K.a I5.3.36-45), pushed to the vGIC when it changes. A change
 * that happens while the vCPU is not loaded is owed to it at its next load, and an overflow flag
 * a lazy put takes from the hardware raises the line at that put, whether or not the VM also has
 * a vSPE (its put goes through the full put, not the vPMU-only short one).
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <sim/spe.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

/* Counter 0 counts cycles from `start`, its interrupt enabled, the PMU enabled. */
static void cycles_from(uint64_t start)
{
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMEVCNTR0_EL0, start);
	guest_write(PMINTENSET_EL1, 1);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
}

/*
 * A parked vCPU (put lazily, its counters in pCPU 0's hardware) whose line goes up while it is
 * not loaded: counting stops at the put (PMCR_EL0.E = 0), but that write takes effect for the
 * counters only at the next context synchronization event (Arm DDI 0487 K.a, synchronization
 * of changes to System registers), so a counter at the edge may still overflow
 * after the put read the flags; the PMUIRQ for that late flag is taken on pCPU 0 after the put
 * (vperf_handle_pmu_irq), which moves the flag into the parked vCPU's shadow. The line must be
 * high at the vCPU's next load on pCPU 0, before its guest touches any PMU register, though that
 * load resumes the parked counters with no restore. Mutation tried: vperf_vpmu_load resuming a
 * parked vCPU whatever irq_dirty says (switch.c, "&& !s->irq_dirty" dropped): the line stays low.
 */
static void test_parked_line_change_pushed_at_load(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_HV, 4);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	hv.lazy_put = true;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	cycles_from(0);
	hv_run_n(&op3, 4);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&a->v));
	assert_false(a->irq_level);
	/* The late overflow: counter 0's flag in the hardware, its PMUIRQ taken at EL2. */
	sim_poke(0, VPERF_ENC_PMOVSSET_EL0, sim_peek(0, VPERF_ENC_PMOVSSET_EL0) | 1);
	sim_enter_el2(0);
	assert_true(vperf_handle_pmu_irq(&hv.pcpu[0]));
	sim_exit_el2(0);
	assert_false(a->irq_level); /* not loaded: nothing pushed for it yet */
	hv_enter(a, 0);
	assert_true(a->irq_level);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_int_equal(sim_error_count(), 0);
}

#ifdef CONFIG_VPERF_VSPE
/*
 * A VM with a vPMU and a vSPE, its overflow's PMUIRQ still in flight (the model takes it only
 * after many poll points) when it is put lazily: the put stops counting and takes the flag into
 * the shadow, the physical line drops, and the virtual line must go up at that put. Mutation
 * tried: vperf_vpmu_put's lazy branch not pushing the line when park() says so (switch.c,
 * "if (push) vperf_vpmu_update_irq(vcpu);" dropped): the line stays low through the put and the
 * next load, and the guest never takes its interrupt.
 */
static void test_lazy_put_with_vspe_raises_taken_flag(void **state)
{
	const struct vperf_vm_config spe = { .spe = true, .spe_buffer = VPERF_SPE_BUF_EL1_TRAPPED };
	struct vperf_vm_config cfg = spe;
	struct sim_pe_config pe;
	struct hv_vcpu *a;

	(void)state;
	sim_spe_default_config(&pe, 1);
	pe.pmuirq_latency = SIM_IRQ_AFTER_POLLS;
	pe.pmuirq_polls = 1000;
	hv_init(&pe, 2);
	hv.lazy_put = true;
	cfg.pmu_mode = VPERF_PMU_HV;
	cfg.nr_counters = 2;
	vperf_pmu_filter_allow_all(&cfg.filter);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	cycles_from(0xfffffff0ull);
	hv_run_n(&op3, 10);
	assert_true(sim_gic_pmuirq_delayed(0));
	assert_false(a->irq_level);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&a->v));
	assert_true(a->irq_level);
	hv_enter(a, 0);
	assert_true(a->irq_level);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_int_equal(sim_error_count(), 0);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parked_line_change_pushed_at_load),
#ifdef CONFIG_VPERF_VSPE
		cmocka_unit_test(test_lazy_put_with_vspe_raises_taken_flag),
#endif
	};

	return cmocka_run_group_tests_name("vpmu_irq_line", tests, NULL, NULL);
}
