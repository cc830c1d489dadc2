// SPDX-License-Identifier: MIT
/*
 * Bad input from outside (issue 15): policies that are not policies, interrupts where no PMU is,
 * an external agent's interrupt, and state the direct partition must carry across a switch.
 * Each test failed on the code before its fix. Defects 6 and 7 are in test_fdt.c and
 * test_trap.c, 9-11 in test_vpmu_emulated.c and test_vpmu_blob.c.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"

static const struct sim_uop op1 = { .pc = 0x4000, .latency = 1, .type = SIM_UOP_OTHER };

static struct vperf_vm_config policy(enum vperf_pmu_mode mode, enum vperf_partition part,
				     uint8_t nr)
{
	struct vperf_vm_config cfg = { .pmu_mode = mode, .partition = part, .nr_counters = nr };

	vperf_pmu_filter_allow_all(&cfg.filter);
	return cfg;
}

/* Defect 1: a partition value outside the enum is refused, whatever the mode. */
static void test_partition_out_of_enum(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, VPERF_PART_TRAPPED, 2);
	int bad = VPERF_PART_EMULATED + 1;

	(void)state;
	hv_init(NULL, 2);
	memcpy(&cfg.partition, &bad, sizeof(bad));
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
	cfg.pmu_mode = VPERF_PMU_OFF;
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
}

/* Defect 3: an OFF VM with an impossible counter count is refused, and an OFF VM has no vPMU
 * state to save or restore (the restore shifted 1 by N). */
static void test_off_vm_counts_and_blob(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_OFF, VPERF_PART_TRAPPED, 200);
	static uint8_t blob[VPERF_VPMU_BLOB_SIZE];
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
	cfg.nr_counters = 31;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	memset(blob, 0, sizeof(blob));
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_ENODEV);
	assert_int_equal(vperf_vcpu_restore(&a->v, blob, sizeof(blob)), VPERF_ENODEV);
}

/* Defect 2: a PMUIRQ entry on a pCPU without a PMUv3 reads nothing (its registers are UNDEFINED
 * at EL2; the model reports any access). */
static void test_irq_without_pmu(void **state)
{
	struct sim_pe_config model;

	(void)state;
	sim_default_config(&model);
	model.pmuver = 0;
	hv_init(&model, 0);
	assert_false(vperf_handle_pmu_irq(&hv.pcpu[0]));
	assert_int_equal(sim_error_count(), 0);
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(hv.pcpu[0].stats.spurious_irqs, 1);
#endif
}

/* Defect 4: the external agent's counter overflows with its interrupt enabled. vperf may not
 * clear the agent's flag, but the line must drop (no storm); reported once, counted. */
static void test_agent_overflow_no_storm(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 1, .agent_counters = 1 };
	struct vperf_vm_config cfg = policy(VPERF_PMU_OFF, VPERF_PART_TRAPPED, 0);

	(void)state;
	hv_init(NULL, 0);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK); /* N = 6: EPMN = 5 */
	hv_host_boot(0);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	/* The agent counts instructions on counter 5, one short of overflowing. */
	sim_poke(0, VPERF_ENC_PMEVTYPER5_EL0, 0x08);
	sim_poke(0, VPERF_ENC_PMEVCNTR5_EL0, 0xffffffffffffffffull);
	sim_poke(0, VPERF_ENC_PMINTENSET_EL1, VPERF_BIT(5));
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, VPERF_BIT(5));
	hv_enter(hv_vcpu(0, 0), 0);
	/* The model delivers PMUIRQ up to 255 poll points late (docs/model.md): run past that. */
	hv_run_n(&op1, 300);
	assert_true(hv.pmu_irqs >= 1);
	assert_int_equal(hv.max_irq_burst, 1);
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(hv.pcpu[0].stats.agent_overflows, 1);
#endif
	assert_non_null(strstr(hv.last_log, "external agent"));
	/* The agent's flag, counter, type and enable are still its own. */
	assert_true(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & VPERF_BIT(5));
	assert_true(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & VPERF_BIT(5));
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVTYPER5_EL0), 0x08);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVCNTR5_EL0), 300 - 1); /* wrapped at the first */
}

static struct hv_vcpu *direct_vcpu(unsigned int i, unsigned int vm)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, VPERF_PART_DIRECT, 2);

	assert_int_equal(hv_vm(vm, &cfg), VPERF_OK);
	return hv_vcpu(i, vm);
}

/* Defect 5: PMSELR_EL0 of a direct-partition vCPU is its own in the hardware: written by its
 * trapped access and restored at its load, never another VM's. */
static void test_direct_pmselr(void **state)
{
	struct hv_vcpu *a, *b;

	(void)state;
	hv_init(NULL, 2);
	a = direct_vcpu(0, 0);
	b = direct_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, 0); /* trapped: A's state enters the hardware, untrapped after */
	guest_write(PMSELR_EL0, 1);
	guest_write(PMXEVCNTR_EL0, 0x1234);
	hv_enter(b, 0);
	guest_write(PMSELR_EL0, 0); /* B's first access traps: its write must reach hardware */
	assert_int_equal(guest_read(PMSELR_EL0), 0);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 0);
	hv_enter(a, 0);
	(void)guest_read(PMCR_EL0); /* trapped again after the switch */
	assert_int_equal(guest_read(PMSELR_EL0), 1);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 0x1234);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* Defect 8: what the hardware keeps of a direct guest's PMCR_EL0 (X, FZO) and PMUSERENR_EL0
 * ([6:4]) survives a put and a load. The model is a PMUv3p7 PE with an event export bus, so that
 * it implements X and FZO (I5.3.21); D is RES0 on a PE without AArch32, as the model is. */
static void test_direct_keeps_hw_fields(void **state)
{
	const uint64_t pmcr = PMCR_E | VPERF_BIT(4) | VPERF_BIT(9);
	struct sim_pe_config model;
	struct hv_vcpu *a, *b;
	uint64_t userenr;

	(void)state;
	hv_default_config(&model);
	model.pmuver = 7;
	model.pmu_export_bus = true;
	hv_init(&model, 2);
	a = direct_vcpu(0, 0);
	b = direct_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, pmcr);
	guest_write(PMUSERENR_EL0, 0x7f);
	userenr = guest_read(PMUSERENR_EL0); /* what the model keeps of [6:0] */
	assert_true(userenr & 0x70);
	assert_int_equal(guest_read(PMCR_EL0) & pmcr, pmcr);
	hv_enter(b, 0);
	(void)guest_read(PMCR_EL0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCR_EL0) & pmcr, pmcr);
	assert_int_equal(guest_read(PMUSERENR_EL0), userenr);
}

/* Found by the trap fuzzer: PMCR_EL0.X is RAZ/WI without an event export bus (I5.3.21), so a
 * direct guest reads it as 0 whether its write reached the hardware or, while a pending overflow
 * flag keeps the vCPU trapped, only vperf's shadow; vperf probes each pCPU for the bus. */
static void test_direct_x_without_export_bus(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2); /* the model's default PE: no event export bus */
	a = direct_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMOVSSET_EL0, 1); /* a flag: the vCPU stays trapped */
	guest_write(PMCR_EL0, VPERF_BIT(4));
	assert_int_equal(guest_read(PMCR_EL0) & VPERF_BIT(4), 0);
	hv_leave(0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCR_EL0) & VPERF_BIT(4), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* Found by the trap fuzzer: a direct-partition guest's EL0 access to a counter beyond its N is
 * UNDEFINED, also after a load that left it trapped (it was then a trap to its own EL1). */
static void test_direct_el0_beyond_n(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	a = direct_vcpu(0, 0); /* N = 2, first range 4 */
	for (unsigned int run = 0; run < 2; run++) {
		hv_enter(a, 0); /* trapped: never used, or idle at its last put */
		sim_set_el(0);
		(void)guest_read(PMEVCNTR3_EL0);
		assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
		sim_set_el(1);
		(void)guest_read(PMCR_EL0);
		hv_leave(0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partition_out_of_enum),
		cmocka_unit_test(test_off_vm_counts_and_blob),
		cmocka_unit_test(test_irq_without_pmu),
		cmocka_unit_test(test_agent_overflow_no_storm),
		cmocka_unit_test(test_direct_pmselr),
		cmocka_unit_test(test_direct_keeps_hw_fields),
		cmocka_unit_test(test_direct_el0_beyond_n),
		cmocka_unit_test(test_direct_x_without_export_bus),
	};

	return cmocka_run_group_tests_name("vpmu_badinput", tests, NULL, NULL);
}
