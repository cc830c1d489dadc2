// SPDX-License-Identifier: MIT
/*
 * What one guest, or the reset, leaves in the PMU hardware and another guest must not meet:
 *   - PMSELR_EL0: a direct-partition guest writes it untrapped, and it resets to UNKNOWN. The
 *     PMXEVCNTR_EL0 / PMXEVTYPER_EL0 access pseudocode (Arm DDI 0487 K.a, D24.5) makes a SEL that
 *     selects no self-hosted counter (SEL = 31 for PMXEVCNTR_EL0) UNDEFINED before MDCR_EL2.TPM
 *     is considered, so a trapped guest loaded after it would take an UNDEF at its own EL1 for
 *     an access its emulated PMU must answer (the model: arch/sim/pmu/pmu.c).
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"

#define EV_INST	  0x08u
#define EV_CYCLES 0x11u
#define U_BIT	  VPERF_BIT(30)

static const struct sim_uop op3 = { .pc = 0x4000, .latency = 3, .type = SIM_UOP_OTHER };

static struct vperf_vm_config policy(enum vperf_partition part, uint8_t nr)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = part,
				       .nr_counters = nr };

	vperf_pmu_filter_allow_all(&cfg.filter);
	return cfg;
}

static enum sim_access last(void)
{
	return sim_guest_stats(sim_current_cpu())->last;
}

static uint64_t hw_selr(unsigned int cpu)
{
	return sim_peek(cpu, VPERF_ENC_PMSELR_EL0);
}

/* N = 6, the host keeps 2. VM 0: direct with 2 counters (or none: only the cycle counter, MDCR_EL2.HPMN
 * = 0 with FEAT_HPMN0); VM 1: trapped with 3; VM 2: emulated with 3 counters in 2 slots; VM 3:
 * direct with 2, its types trapped through FEAT_FGT (INST_RETIRED denied). */
static void world(bool fgt, uint8_t direct_nr)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config vm;

	hv_default_config(&cfg);
	if (cfg.pmuver < 6)
		cfg.pmuver = 6; /* the direct partition needs PMUv3p5 */
	cfg.fgt = fgt;
	cfg.hpmn0 = true;
	hv_init(&cfg, 2);
	vm = policy(VPERF_PART_DIRECT, direct_nr);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	vm = policy(VPERF_PART_TRAPPED, 3);
	assert_int_equal(hv_vm(1, &vm), VPERF_OK);
	vm = policy(VPERF_PART_EMULATED, 3);
	vm.emu_slots = 2;
	assert_int_equal(hv_vm(2, &vm), VPERF_OK);
	if (fgt) {
		vm = policy(VPERF_PART_DIRECT, 2);
		vperf_pmu_filter_set(&vm.filter, EV_INST, false);
		assert_int_equal(hv_vm(3, &vm), VPERF_OK);
	}
}

/* The direct guest runs untrapped (after its first access) and leaves sel in the hardware. */
static void direct_leaves(struct hv_vcpu *d, unsigned int cpu, uint64_t sel)
{
	hv_enter(d, cpu);
	guest_write(PMCCFILTR_EL0, 0);
	guest_write(PMSELR_EL0, sel);
	assert_int_equal(hw_selr(cpu), sel);
}

/* A guest with the PMU of policy nr uses PMSELR/PMXEVCNTR/PMXEVTYPER: its own values, no UNDEF. */
static void guest_uses_selection(uint8_t nr)
{
	unsigned int n = nr ? nr - 1u : 0;

	guest_write(PMSELR_EL0, 31);
	guest_write(PMXEVTYPER_EL0, U_BIT);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	assert_int_equal(guest_read(PMXEVTYPER_EL0), U_BIT);
	assert_int_equal(guest_read(PMCCFILTR_EL0), U_BIT);
	if (!nr)
		return;
	guest_write(PMSELR_EL0, n);
	guest_write(PMXEVTYPER_EL0, EV_CYCLES);
	assert_int_not_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMXEVCNTR_EL0, 77);
	assert_int_not_equal(last(), SIM_ACC_UNDEF);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 77);
	assert_int_not_equal(last(), SIM_ACC_UNDEF);
	assert_int_equal(guest_read(PMXEVTYPER_EL0), EV_CYCLES);
	assert_int_equal(guest_read(PMSELR_EL0), n);
	guest_write(PMCNTENSET_EL0, VPERF_BIT(n));
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 4);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 77 + 12);
}

static void check_after_direct(bool fgt, uint8_t direct_nr, unsigned int victim_vm, uint64_t sel)
{
	struct hv_vcpu *d, *v;
	uint8_t nr;

	world(fgt, direct_nr);
	d = hv_vcpu(0, 0);
	v = hv_vcpu(1, victim_vm);
	nr = hv.vm[victim_vm].cfg.nr_counters;
	direct_leaves(d, 0, sel);
	hv_enter(v, 0);
	guest_uses_selection(nr);
	assert_int_equal(hv.undefs, 0);
	assert_int_equal(sim_error_count(), 0);
	/* And back: the direct guest finds its own selection again. */
	hv_enter(d, 0);
	assert_int_equal(guest_read(PMSELR_EL0), sel);
	assert_int_equal(sim_error_count(), 0);
}

/* SEL = 31 (the cycle counter: PMXEVCNTR_EL0 UNDEFINED) and SEL = 30 (no counter: both
 * UNDEFINED), left by a direct guest, with and without FEAT_FGT, under a trapped, an emulated
 * and a direct guest that still traps (its first access, MDCR_EL2.TPM = 1). */
static void test_direct_leaves_selection(void **state)
{
	static const uint64_t sels[] = { 31, 30, 6 };

	(void)state;
	for (unsigned int f = 0; f < 2; f++)
		for (size_t i = 0; i < VPERF_ARRAY_SIZE(sels); i++) {
			check_after_direct(f, 2, 1, sels[i]);
			check_after_direct(f, 2, 2, sels[i]);
		}
	check_after_direct(true, 2, 3, 31);
}

/* A direct VM with only the cycle counter (HPMN = 0, FEAT_HPMN0) selects it through SEL = 31,
 * the only selection it has for PMXEVTYPER_EL0 (PMCCFILTR_EL0). */
static void test_cycle_only_direct_leaves_31(void **state)
{
	(void)state;
	check_after_direct(true, 0, 1, 31);
	check_after_direct(false, 0, 2, 31);
}

/* PMSELR_EL0 resets to UNKNOWN: whatever the firmware left, the first trapped guest on a pCPU
 * reaches its emulation. */
static void test_reset_selection(void **state)
{
	struct hv_vcpu *v;

	(void)state;
	world(true, 2);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		sim_poke(cpu, VPERF_ENC_PMSELR_EL0, 31);
		sim_set_cpu(cpu);
		assert_int_equal(vperf_pcpu_init(&hv.pcpu[cpu],
						 &(struct vperf_pcpu_config){ .host_counters = 2 }),
				 VPERF_OK);
		hv_host_boot(cpu);
	}
	v = hv_vcpu(1, 1);
	hv_enter(v, 1);
	guest_uses_selection(3);
	assert_int_equal(hv.undefs, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* The direct guest moves: its selection goes with it, the pCPU it left is sanitised. */
static void test_direct_migrates(void **state)
{
	struct hv_vcpu *d, *v;

	(void)state;
	world(true, 2);
	d = hv_vcpu(0, 0);
	v = hv_vcpu(1, 1);
	direct_leaves(d, 0, 31);
	hv_leave(0);
	hv_enter(d, 1);
	assert_int_equal(guest_read(PMSELR_EL0), 31);
	hv_enter(v, 0);
	guest_uses_selection(3);
	assert_int_equal(hv.undefs, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* Every counter the external agent's (PMCCR.EPMN = 0, so MDCR_EL2.HPMN = 0 with FEAT_HPMN0):
 * no SEL passes PMXEVCNTR_EL0's first check, and only 31 passes PMXEVTYPER_EL0's, which a guest
 * with only the cycle counter uses to reach PMCCFILTR_EL0. */
static void test_no_self_hosted_counter(void **state)
{
	struct vperf_vm_config vm = policy(VPERF_PART_TRAPPED, 0);
	struct sim_pe_config cfg;
	struct hv_vcpu *v;

	(void)state;
	hv_default_config(&cfg);
	cfg.hpmn0 = true;
	cfg.extpmn = true;
	cfg.epmn = 0;
	hv_init(&cfg, 0); /* PMCR_EL0.N reads EPMN at EL2: the pCPU has no counter to split */
	assert_int_equal(hv.pcpu[0].epmn, 0);
	assert_int_equal(hv.pcpu[0].hpmn, 0);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	v = hv_vcpu(0, 0);
	hv_enter(v, 0);
	guest_uses_selection(0);
	guest_write(PMSELR_EL0, 0);
	guest_read(PMXEVCNTR_EL0);
	assert_int_equal(last(), SIM_ACC_UNDEF); /* N = 0: no counter to select */
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_leaves_selection),
		cmocka_unit_test(test_cycle_only_direct_leaves_31),
		cmocka_unit_test(test_reset_selection),
		cmocka_unit_test(test_direct_migrates),
		cmocka_unit_test(test_no_self_hosted_counter),
	};

	return cmocka_run_group_tests_name("vpmu_hw_leftovers", tests, NULL, NULL);
}
