// SPDX-License-Identifier: MIT
/*
 * Stage 2 Translation faults on a guest's Profiling Buffer at every level the architecture
 * reports (Arm DDI 0487, ESR_ELx.ISS DFSC, which PMBSR_EL1.FSC follows; SPE 3.5.3): levels 0-3
 * (0b0001LL), level -1 (0b101011, FEAT_LPA2: a 52-bit stage 2 starts there) and level -2
 * (0b101010, FEAT_D128). Each is the hypervisor's to cure: the page is mapped through the ops
 * contract and profiling resumes with no trace in the guest, exactly as at level 3. The model
 * reports the level a VM's stage 2 is configured to fault at (sim_mem_set_s2_fault_level).
 */
#include "cmocka_wrap.h"
#include "vspe_util.h"

#define VMID0 1
#define PAGE  0x1000ull

static struct lx_spe lx;

/* The hypervisor takes back the page the write pointer is in and the next record faults at
 * stage 2 at `level`: vperf maps it again, the guest sees no event and loses no record. */
static void restart_at_level(int level, uint8_t fsc)
{
	struct hv_vcpu *vc;
	uint64_t ptr, ipa;

	vs_init(1, 0, 11);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, false), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_probe();
	sim_mem_set_s2_fault_level(VMID0, level);
	lx_start(&lx);
	lx_run(&lx, vc, 2000);
	ptr = sim_peek(0, VPERF_ENC_PMBPTR_EL1);
	ipa = V_BUF_IPA + ((ptr - V_BUF_VA) & ~(PAGE - 1));
	sim_mem_unmap_s2(VMID0, ipa, V_BUF_SIZE);
	assert_int_equal(sim_mem_translate_s2(VMID0, ipa, true).fsc, fsc);
	lx_run(&lx, vc, 20000);
	lx_stop(&lx);
	assert_int_equal(hv.vm[0].stats.spe_s2_fixed, 1);
	assert_int_equal(hv.vm[0].stats.spe_events, 0);
	assert_int_equal(lx.irqs, 0);
	assert_int_equal(lx.fatal, 0);
	assert_int_equal(lx_records(&lx), sim_spe_stats(0)->written);
	assert_true(lx_records(&lx) >= 50);
	assert_int_equal(sim_error_count(), 0);
	hv_leave(0);
}

static void test_level3(void **state)
{
	(void)state;
	restart_at_level(3, 0x07);
}

static void test_level0(void **state)
{
	(void)state;
	restart_at_level(0, 0x04);
}

/* FEAT_LPA2: Translation fault, level -1, FSC 0b101011. */
static void test_level_minus1(void **state)
{
	(void)state;
	restart_at_level(-1, 0x2b);
}

/* FEAT_D128: Translation fault, level -2, FSC 0b101010. */
static void test_level_minus2(void **state)
{
	(void)state;
	restart_at_level(-2, 0x2a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level3),
		cmocka_unit_test(test_level0),
		cmocka_unit_test(test_level_minus1),
		cmocka_unit_test(test_level_minus2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
