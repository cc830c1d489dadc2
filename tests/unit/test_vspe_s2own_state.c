// SPDX-License-Identifier: MIT
/*
 * What the PMBSR_EL1 write trap of an untrapped buffer (VPERF_SPE_BUF_EL1 with FEAT_FGT on every
 * pCPU, docs/vspe.md "FEAT_FGT") must leave as it was:
 * - the controls the guest wrote untrapped before it: its PMBLIMITR_EL1, written straight to the
 *   hardware with MDCR_EL2.E2PB = 0b11 (SPE 3.4.6), is what the profiling operation and its own
 *   reads see after a trapped PMBSR_EL1 write, not the value vperf held from before;
 * - the vPMU of a direct-partition VM whose only fine-grained trap is this one: its types are its
 *   own (a type written untrapped survives a put), and on a pCPU without FEAT_FGT, where the VM's
 *   buffer runs trapped, its PMU still runs untrapped (the type traps are not needed there).
 * The SPE supplement (Arm DDI 0586A) is cited as "SPE <section>".
 */
#include "cmocka_wrap.h"
#include "vspe_util.h"
#include <arch/sysreg.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#define PAGE	  0x1000ull
#define FGT_PMBSR (1ull << 25) /* HDFGWTR_EL2 field PMBSR_EL1 (Arm DDI 0487 K.a, D24.2) */

static struct lx_spe lx;

static void init(uint32_t without, uint64_t seed)
{
	struct sim_pe_config cfg;

	sim_spe_default_config(&cfg, 3);
	cfg.seed = seed;
	cfg.el2_trap_cycles = 0;
	cfg.fgt = true;
	cfg.cpus_without_fgt = without;
	hv_init(&cfg, 2);
}

static uint64_t traps(unsigned int cpu)
{
	return sim_guest_stats(cpu)->el2_traps;
}

static unsigned int e2pb(unsigned int cpu)
{
	return (unsigned int)V_MDCR_E2PB(sim_peek(cpu, VPERF_ENC_MDCR_EL2));
}

/*
 * Untrapped, the guest moves its limit down a page (no trap: only PMBSR_EL1 writes do), then
 * writes PMBSR_EL1 (trapped). The write is emulated on the hardware's state: the limit it reads
 * back, untrapped again, and the one the buffer stops at, are the new one, before and after a put.
 */
static void test_untrapped_limit_survives_trapped_write(void **state)
{
	const uint64_t limit = (V_BUF_VA + V_BUF_SIZE - PAGE) | V_PMBLIMITR_E;
	struct hv_vcpu *vc;
	uint64_t t;

	(void)state;
	init(0, 3);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	vs_run_loads(0, 257 * 2, 3);
	assert_int_equal(e2pb(0), 3);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2) & FGT_PMBSR, FGT_PMBSR);
	t = traps(0);
	guest_write(PMBLIMITR_EL1, limit);
	assert_int_equal(traps(0), t);
	guest_write(PMBSR_EL1, 0);
	assert_int_equal(traps(0), t + 1);
	assert_int_equal(e2pb(0), 3);
	assert_int_equal(guest_read(PMBLIMITR_EL1), limit);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1), limit);
	hv_leave(0);
	hv_enter(vc, 0);
	assert_int_equal(guest_read(PMBLIMITR_EL1), limit);
	assert_false(vc->spe_irq_level);
	assert_int_equal(sim_error_count(), 0);
}

/* VM 0: SPE with an untrapped buffer, a direct-partition vPMU of 2 counters whose filter allows
 * every event, created while every initialised pCPU has FEAT_FGT; pCPU 1 (without it)
 * initialised after. */
static void direct_vm_then_late_pcpu(void)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct vperf_vm_config cfg = { .spe = true,
				       .spe_buffer = VPERF_SPE_BUF_EL1,
				       .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_DIRECT,
				       .nr_counters = 2 };

	init(VPERF_BIT(1), 7);
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	vperf_pmu_filter_allow_all(&cfg.filter);
	assert_int_equal(vs_vm_cfg(0, &cfg, true), VPERF_OK);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &pcfg), VPERF_OK);
	sim_set_cpu(0);
}

/* Its types are the guest's own in the hardware: one written untrapped is there after a put. */
static void test_direct_types_survive_put(void **state)
{
	struct hv_vcpu *vc;
	uint64_t t;

	(void)state;
	direct_vm_then_late_pcpu();
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2) & FGT_PMBSR, FGT_PMBSR);
	guest_write(PMEVTYPER0_EL0, 0x11); /* the first touch traps */
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, 0);
	t = traps(0);
	guest_write(PMEVTYPER0_EL0, 0x08);
	assert_int_equal(traps(0), t);
	hv_leave(0);
	hv_enter(vc, 0);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0x08);
	assert_int_equal(sim_error_count(), 0);
}

/* On the pCPU without FEAT_FGT its buffer traps, its PMU does not. */
static void test_direct_pmu_on_pcpu_without_fgt(void **state)
{
	struct hv_vcpu *vc;
	uint64_t t;

	(void)state;
	direct_vm_then_late_pcpu();
	vc = hv_vcpu(0, 0);
	sim_set_cpu(1);
	hv_enter(vc, 1);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	vs_run_loads(0, 257 * 2, 3);
	assert_int_equal(e2pb(1), 2);
	guest_write(PMEVTYPER0_EL0, 0x11); /* the first touch traps */
	assert_int_equal(sim_peek(1, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, 0);
	t = traps(1);
	guest_write(PMEVTYPER1_EL0, 0x08);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0x11);
	assert_int_equal(traps(1), t);
	hv_leave(1);
	sim_set_cpu(0);
	assert_int_equal(sim_error_count(), 0);
}

/* A VM without SPE has no Profiling Buffer to trap, whatever buffer policy its configuration
 * names: it runs with HDFGWTR_EL2 as the host left it, the same as a VM whose buffer traps. */
static void test_no_trap_without_spe(void **state)
{
	const struct vperf_vm_config cfg = { .spe = false, .spe_buffer = VPERF_SPE_BUF_EL1 };

	(void)state;
	init(0, 9);
	assert_int_equal(vs_vm_cfg(0, &cfg, true), VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	for (unsigned int i = 0; i < 2; i++) {
		hv_enter(hv_vcpu(i, 0), 0);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0);
		hv_leave(0);
	}
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_untrapped_limit_survives_trapped_write),
		cmocka_unit_test(test_direct_types_survive_put),
		cmocka_unit_test(test_direct_pmu_on_pcpu_without_fgt),
		cmocka_unit_test(test_no_trap_without_spe),
	};

	return cmocka_run_group_tests_name("vspe_s2own_state", tests, NULL, NULL);
}
