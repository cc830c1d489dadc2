// SPDX-License-Identifier: MIT
/*
 * The direct partition on the executable model (which enforces MDCR_EL2.HPMN as the
 * architecture says): after its first access the guest touches its counters with no trap; the
 * hardware shows it N counters; an overflow makes it trap until it has seen and cleared its
 * flags; switches and migration keep its state; the host's counters are never reached.
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

static struct vperf_vm_config direct(uint8_t nr)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_DIRECT,
				       .nr_counters = nr };

	vperf_pmu_filter_allow_all(&cfg.filter);
	return cfg;
}

/* N = 6, the host keeps 2: VM 0 is direct with 2 counters. */
static int setup_direct(void **state)
{
	struct vperf_vm_config cfg = direct(2);

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	return 0;
}

static uint64_t traps(void)
{
	return sim_guest_stats(sim_current_cpu())->el2_traps;
}

static void test_policy_needs_enforcing_hardware(void **state)
{
	struct vperf_vm_config cfg = direct(2);
	struct sim_pe_config old;

	(void)state;
	vperf_pmu_filter_set(&cfg.filter, 0x08, false);
	assert_int_equal(hv_vm(1, &cfg), VPERF_EINVAL); /* a filter cannot be enforced */
	cfg = direct(0);
	assert_int_equal(hv_vm(1, &cfg), VPERF_EINVAL);
	sim_default_config(&old);
	old.pmuver = 5; /* PMUv3p4: no HCCD, 32-bit counters */
	hv_init(&old, 2);
	cfg = direct(2);
	assert_int_equal(hv_vm(1, &cfg), VPERF_EINVAL);
}

/* A pCPU that does not enforce MDCR_EL2.HPMN at EL1 (QEMU 7.2, vperf_pcpu_config
 * .hpmn_unenforced) would hand the host's counters to a direct guest: refused, while the
 * trapped partition, which isolates in software, is still given. The pCPU comes up before any
 * VM (after setup's direct VM 0 it is itself refused: test_pcpu_bringup.c). */
static void test_direct_refused_on_unenforced_hpmn(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2, .hpmn_unenforced = true };
	const struct vperf_pcpu_config host2 = { .host_counters = 2 };
	struct vperf_vm_config cfg = direct(2);

	(void)state;
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &host2), VPERF_OK);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &pcfg), VPERF_OK);
	sim_set_cpu(0);
	assert_int_equal(hv_vm(1, &cfg), VPERF_EINVAL);
	cfg.partition = VPERF_PART_TRAPPED;
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
}

/* One trap to bring the state in, then none; N and the range come from the hardware. */
static void test_untrapped_after_first_touch(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint64_t t;

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, 0x11);
	assert_int_equal(traps(), 1);
	t = traps();
	guest_write(PMEVTYPER1_EL0, 0x08);
	guest_write(PMCNTENSET_EL0, 0xffffffffull);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 10);
	assert_int_equal((guest_read(PMCR_EL0) & PMCR_N_MASK) >> PMCR_N_SHIFT, 2);
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0x80000003ull);
	guest_read(PMEVCNTR2_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	assert_int_equal(traps(), t);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & (MDCR_EL2_TPM | MDCR_EL2_HPMN_MASK), 2);
}

/* Put while untrapped, the vCPU loads trapped again (MDCR_EL2.TPM), not with the untrapped
 * MDCR_EL2 cached since it became direct (virt/mdcr.c): idle at its put, it is not brought back
 * into the hardware at load, so it traps until its next access. */
static void test_put_untrapped_loads_trapped(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, 0x11);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, 0);
	hv_leave(0);
	hv_enter(a, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, MDCR_EL2_TPM);
	assert_int_equal(traps(), 1);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0x11);
	assert_int_equal(traps(), 2);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, 0);
}

/* PMCR_EL0.P from the guest resets its counters only: the hardware limits it to [0, HPMN). */
static void test_reset_limited_by_hardware(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	sim_poke(0, VPERF_ENC_PMEVCNTR4_EL0, 44);
	hv_enter(a, 0);
	guest_write(PMEVCNTR1_EL0, 11);
	guest_write(PMCR_EL0, PMCR_P);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVCNTR4_EL0), 44);
}

/* Overflow: the flags move to the shadow, the guest traps while it reads and clears them, then
 * runs untrapped again. */
static void test_overflow_round_trip(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint64_t t;

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, 0x08);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMINTENSET_EL1, 1);
	guest_write(PMEVCNTR0_EL0, 0xfffffffeull);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 4);
	hv_settle(); /* the model delays PMUIRQ by a seeded latency */
	assert_true(a->irq_level);
	assert_int_equal(hv.max_irq_burst, 1);
	t = traps();
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_int_equal(traps(), t + 1);
	guest_write(PMOVSCLR_EL0, 1);
	assert_false(a->irq_level);
	t = traps();
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0x100000002ull);
	assert_int_equal(traps(), t);
}

/* Switches and a migration keep the state the guest wrote straight into the hardware. */
static void test_switch_and_migrate(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVTYPER1_EL0, 0x11 | VPERF_BIT(27)); /* NSH: the guest sees what it wrote */
	guest_write(PMCNTENSET_EL0, 2);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 5);
	hv_enter(b, 0);
	guest_write(PMEVTYPER1_EL0, 0x08);
	guest_write(PMCNTENSET_EL0, 2);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 7);
	hv_leave(0);
	hv_enter(a, 1);
	hv_run_n(&op3, 5);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 30); /* EL2 trap cycles never counted */
	assert_int_equal(guest_read(PMEVTYPER1_EL0), 0x11 | VPERF_BIT(27));
	hv_enter(b, 1);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 7);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The direct partition cannot enforce an event filter (the guest programs the hardware): a
 * filter that denies any event, an extended common event (0x4000-0x403F, D14.1) included, makes
 * the policy EINVAL. Kills "the direct partition given to a VM whose filter denies an event of
 * 0x4000-0x403F".
 */
static void test_direct_refuses_any_denied_event(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);

	(void)state;
	init_model(6, true, 2);
	cfg.partition = VPERF_PART_DIRECT;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	vperf_pmu_filter_set(&cfg.filter, 0x4004, false);
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
	vperf_pmu_filter_allow_all(&cfg.filter);
	vperf_pmu_filter_set(&cfg.filter, 0x8000, false); /* allow_other */
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
}

/*
 * A direct guest's untrapped PMXEVCNTR_EL0 uses the hardware's PMSELR_EL0: the selection it wrote
 * untrapped goes with it across a put, and comes back into the hardware when another direct
 * guest's selection was there meanwhile. Kills "PMSELR_EL0 a direct guest wrote untrapped is lost
 * at put" and "a direct guest's untrapped PMXEV* use the previous owner's PMSELR_EL0".
 */
static void test_direct_selection_follows_the_guest(void **state)
{
	struct vperf_vm_config cfg = direct(2);
	struct hv_vcpu *a, *b;
	uint64_t traps;

	(void)state;
	init_model(6, true, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMEVCNTR0_EL0, 100); /* traps: the state comes in, then no more traps */
	traps = sim_guest_stats(0)->el2_traps;
	guest_write(PMEVCNTR1_EL0, 200);
	guest_write(PMSELR_EL0, 1);
	assert_int_equal(sim_guest_stats(0)->el2_traps, traps); /* untrapped */
	hv_leave(0);
	hv_enter(b, 0);
	guest_write(PMSELR_EL0, 0);
	guest_write(PMEVCNTR0_EL0, 5);
	hv_leave(0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMSELR_EL0), 1);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 200);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 200);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * Fields a direct guest holds only where every PE has them: PMCR_EL0.D needs AArch32 (RES0 on
 * this AArch64-only PE, I5.3.21), PMEVTYPER NSK, NSU and M need EL3 (RES0 without, I5.3.30). While
 * it traps (an overflow flag it has not cleared keeps it trapped) it reads them back as 0.
 * Kills "a direct guest keeps PMCR_EL0.D on a PE without AArch32" and "a direct guest keeps
 * PMEVTYPER NSK/NSU/M on a PE without EL3".
 */
static void test_direct_keeps_only_implemented_fields(void **state)
{
	struct vperf_vm_config cfg = direct(2);
	struct hv_vcpu *a;
	uint64_t traps;

	(void)state;
	init_model(6, false, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMOVSSET_EL0, 1); /* a flag: it stays trapped */
	traps = sim_guest_stats(0)->el2_traps;
	guest_write(PMCR_EL0, PMCR_D);
	assert_int_equal(guest_read(PMCR_EL0) & PMCR_D, 0);
	guest_write(PMEVTYPER0_EL0, NSK_BIT | NSU_BIT | M_BIT | U_BIT | EV_INST);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), U_BIT | EV_INST);
	assert_int_equal(sim_guest_stats(0)->el2_traps, traps + 4);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A PMUIRQ that carries only the host's overflow is not the guest's business: a direct guest (HV
 * mode: the host's counters count while it runs) stays untrapped, and sees no flag and no
 * interrupt. Kills "a PMUIRQ with none of the owner's flags ... takes a direct guest out of its
 * untrapped run".
 */
static void test_host_overflow_leaves_direct_guest_untrapped(void **state)
{
	struct vperf_vm_config cfg = direct(2);
	struct hv_vcpu *a;
	uint64_t traps;

	(void)state;
	init_model(6, true, 2);
	cfg.pmu_mode = VPERF_PMU_HV;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	sim_poke(0, VPERF_ENC_PMEVTYPER4_EL0, EV_CYCLES);
	sim_poke(0, VPERF_ENC_PMEVCNTR4_EL0, 0xfffffff0ull);
	sim_poke(0, VPERF_ENC_PMINTENSET_EL1, VPERF_BIT(4));
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, VPERF_BIT(4));
	hv_enter(a, 0);
	guest_write(PMCR_EL0, 0); /* its first access: then untrapped */
	traps = sim_guest_stats(0)->el2_traps;
	hv_run_n(&op3, 100);
	hv_settle();
	assert_true(hv.host_ovs & VPERF_BIT(4));
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(sim_guest_stats(0)->el2_traps, traps);
	assert_int_equal(a->virqs, 0);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_policy_needs_enforcing_hardware, setup_direct),
		cmocka_unit_test_setup(test_direct_refused_on_unenforced_hpmn, setup_direct),
		cmocka_unit_test_setup(test_untrapped_after_first_touch, setup_direct),
		cmocka_unit_test_setup(test_reset_limited_by_hardware, setup_direct),
		cmocka_unit_test_setup(test_put_untrapped_loads_trapped, setup_direct),
		cmocka_unit_test_setup(test_overflow_round_trip, setup_direct),
		cmocka_unit_test_setup(test_switch_and_migrate, setup_direct),
		cmocka_unit_test(test_direct_refuses_any_denied_event),
		cmocka_unit_test(test_direct_selection_follows_the_guest),
		cmocka_unit_test(test_direct_keeps_only_implemented_fields),
		cmocka_unit_test(test_host_overflow_leaves_direct_guest_untrapped),
	};

	return cmocka_run_group_tests_name("vpmu_direct", tests, NULL, NULL);
}
