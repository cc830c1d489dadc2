// SPDX-License-Identifier: MIT
/*
 * The lazy put of a VM with SPE (vperf_vcpu_put_lazy, docs/vpmu.md "Lazy put"): its vPMU may
 * park, but its vSPE is put as by vperf_vcpu_put: the buffer drained and off, sampling off,
 * nothing of the guest live in the hardware for whoever runs next.
 */
#include "cmocka_wrap.h"
#include "vspe_util.h"

#include <vperf/pmu_regs.h>

static struct lx_spe lx;

static void test_lazy_put_with_spe(void **state)
{
	struct vperf_vm_config plain = { .pmu_mode = VPERF_PMU_OFF };
	const struct sim_uop op = {
		.pc = 0x1000, .vaddr = 0x2000, .latency = 4, .type = SIM_UOP_LOAD, .size_log2 = 3
	};
	struct hv_vcpu *a, *c;
	uint64_t written;

	(void)state;
	vs_init(1, 0, 3);
	hv.lazy_put = true;
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(hv_vm(1, &plain), VPERF_OK);
	a = hv_vcpu(0, 0);
	c = hv_vcpu(1, 1);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE, .pmscr = V_PMSCR_E1SPE | V_PMSCR_E0SPE };
	hv_enter(a, 0);
	guest_write(PMCNTENSET_EL0, 1); /* its vPMU in the hardware too: it parks */
	guest_write(PMCR_EL0, PMCR_E);
	lx_start(&lx);
	lx_run(&lx, a, 1000);
	hv_enter(c, 0);
	assert_true(vperf_vcpu_parked(&a->v));
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0);
	assert_int_equal(sim_spe_pending(0), 0);
	written = sim_spe_stats(0)->written;
	for (unsigned int i = 0; i < 2000; i++)
		guest_run(&op, 1);
	assert_int_equal(sim_spe_stats(0)->written, written);
	hv_enter(a, 0);
	lx_stop(&lx);
	assert_int_equal(lx_records(&lx), written);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lazy_put_with_spe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
