// SPDX-License-Identifier: MIT
/*
 * vPMU behaviours an outside mutation audit changed without any test failing, each observed here
 * from where a guest, a tenant or the host sees it (Arm DDI 0487 K.a, I5.3 and D14.1): whose
 * overflow a PMUIRQ carries, PMSWINC's overflow and CHAIN rules, the fast path's syndrome decode,
 * RES0 check and statistics, EL0's PMUSERENR_EL0 rights, and the emulated partition's rotation.
 * Each test names the mutation of tests/mutate/mutations.txt it kills.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

static const struct sim_uop op1 = { .pc = 0x4000, .latency = 1, .type = SIM_UOP_OTHER };

static uint32_t evcntr_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7);
}

static uint32_t evtyper_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7);
}

/* ---- whose overflow a PMUIRQ carries (irq.c) ------------------------------------------------- */

/*
 * The cycle counter is the guest's, never the external agent's: the agent's range is [EPMN, N)
 * (PMCCR.EPMN, I5.3.47), and bit 31 is no counter of it. The guest's cycle counter overflows
 * twice with its interrupt enabled: both reach the guest, and the hardware's PMINTENSET_EL1.C is
 * still set (an agent mask that took bit 31 would clear it and the second overflow would never
 * interrupt).
 */
static void test_cycle_overflow_not_the_agents(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 1, .agent_counters = 1 };
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 0);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK); /* N = 6: EPMN = 5 */
	hv_host_boot(0);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	a->clear_in_handler = true;
	hv_enter(a, 0);
	guest_write(PMINTENSET_EL1, VPERF_BIT(31));
	guest_write(PMCNTENSET_EL0, VPERF_BIT(31));
	for (unsigned int round = 1; round <= 2; round++) {
		guest_write(PMCCNTR_EL0, ~0ull - 20);
		guest_write(PMCR_EL0, PMCR_E);
		/* PMUIRQ may come up to 255 poll points late (docs/model.md). */
		hv_run_n(&op1, 300);
		hv_settle();
		assert_int_equal(a->virqs, round);
	}
	assert_true(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & VPERF_BIT(31));
	assert_int_equal(guest_read(PMINTENSET_EL1), VPERF_BIT(31));
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(hv.pcpu[0].stats.agent_overflows, 0);
#endif
	assert_null(strstr(hv.last_log, "external agent"));
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A flag left on a pCPU by a vCPU that has moved on is not that vCPU's any more: its state and its
 * flags were taken at put, and it may have cleared them since, on another pCPU. vCPU A's counter
 * 0 overflows with no interrupt enabled on pCPU 0, A moves to pCPU 1 and clears the flag there;
 * then the host's counter 4 overflows on pCPU 0 (a VM without a vPMU runs there). The PMUIRQ is
 * the host's; A's stale flag on pCPU 0 is a stray, cleared, and A never sees it again.
 */
static void test_stale_flag_not_handed_to_moved_owner(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	const struct vperf_vm_config off = { .pmu_mode = VPERF_PMU_OFF };
	struct hv_vcpu *a, *b;

	(void)state;
	hv_init(NULL, 2); /* N = 6: guests [0, 4), the host [4, 6) */
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	assert_int_equal(hv_vm(1, &off), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_INST);
	guest_write(PMEVCNTR0_EL0, 0xfffffffbull);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op1, 20);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	hv_leave(0);
	assert_true(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & 1); /* left on pCPU 0 */
	hv_enter(a, 1);
	guest_write(PMOVSCLR_EL0, 1);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);

	/* The host counts cycles on its counter 4, one short of overflowing. */
	sim_set_cpu(0);
	sim_poke(0, VPERF_ENC_PMEVTYPER4_EL0, EV_CYCLES);
	sim_poke(0, VPERF_ENC_PMEVCNTR4_EL0, 0xfffffff0ull);
	sim_poke(0, VPERF_ENC_PMINTENSET_EL1, VPERF_BIT(4));
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, VPERF_BIT(4));
	hv_enter(b, 0);
	hv_run_n(&op1, 300);
	hv_settle();
	assert_true(hv.host_ovs & VPERF_BIT(4));
	assert_int_equal(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & 1, 0);
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(hv.pcpu[0].stats.stray_overflows, 1);
#endif
	hv_enter(a, 1);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_false(a->irq_level);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- PMSWINC (regs.c) -------------------------------------------------------------------------- */

/*
 * CHAIN (event 0x1E) on an odd counter counts the 32-bit overflow of the even counter below it
 * only while it is enabled itself (I5.3.21, the counter enables): a software increment that
 * overflows counter 0 leaves a disabled counter 1 alone, and bumps it once enabled.
 */
static void test_swinc_chain_needs_enabled_odd(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_SW_INCR);
	guest_write(PMEVTYPER1_EL0, EV_CHAIN);
	guest_write(PMEVCNTR0_EL0, 0xffffffffull);
	guest_write(PMEVCNTR1_EL0, 5);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0) & 0xffffffffull, 0);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 5);
	guest_write(PMEVCNTR0_EL0, 0xffffffffull);
	guest_write(PMCNTENSET_EL0, 2);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 6);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * On a PMUv3p5 PE event counters are 64 bits wide; with PMCR_EL0.LP = 0 their overflow is still
 * the carry out of bit 31 (I5.3.21, PMCR_EL0.LP), whatever bits [63:32] hold: a software
 * increment of 0x1_ffffffff raises the flag. With LP = 1 the same increment does not.
 */
static void test_swinc_32bit_overflow_of_wide_counter(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct sim_pe_config model;
	struct hv_vcpu *a;

	(void)state;
	hv_default_config(&model);
	model.pmuver = 6;
	hv_init(&model, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_SW_INCR);
	guest_write(PMEVCNTR0_EL0, 0x1ffffffffull);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0x200000000ull);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	guest_write(PMOVSCLR_EL0, 1);
	guest_write(PMEVCNTR0_EL0, 0x1ffffffffull);
	guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0x200000000ull);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- the fast path (fast.h) -------------------------------------------------------------------- */

/*
 * PMEVCNTR<n>_EL0 and PMEVTYPER<n>_EL0 name n as CRm[1:0]:op2 (their encodings in Arm DDI 0487
 * K.a, D24): n = 9 and n = 17 need both CRm bits. A PE with 20 counters, the host keeping 2, a
 * guest with 18: its type and counter writes for 9 and 17 land on physical counters 9 and 17 and
 * read back, on the fast path once the state is in the hardware, without touching 1 or 8.
 */
static void test_fast_path_high_counter_index(void **state)
{
	static const unsigned int idx[] = { 8, 9, 17 };
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 18);
	struct sim_pe_config model;
	struct hv_vcpu *a;

	(void)state;
	hv_default_config(&model);
	model.nr_counters = 20;
	hv_init(&model, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, 0); /* the state in the hardware: the fast path from here */
	for (unsigned int i = 0; i < 3; i++) {
		unsigned int n = idx[i];

		guest_msr(evtyper_enc(n), 0x10 + n);
		guest_msr(evcntr_enc(n), 1000 + n);
	}
	for (unsigned int i = 0; i < 3; i++) {
		unsigned int n = idx[i];

		assert_int_equal(hw_evtyper(n) & 0xffff, 0x10 + n);
		assert_int_equal(guest_mrs(evtyper_enc(n)), 0x10 + n);
		assert_int_equal(guest_mrs(evcntr_enc(n)), 1000 + n);
	}
	assert_int_equal(hw_evtyper(1) & 0xffff, 0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * PMSWINC_EL0 bits [63:31] are RES0 (I5.3, PMSWINC_EL0): a write with bit 31 set is counted and
 * logged as on the full path, and increments counter 0 all the same, with the state in the
 * hardware, where the fast path sees it first.
 */
static void test_fast_path_swinc_res0(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_SW_INCR);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMSWINC_EL0, VPERF_BIT(31) | 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 1);
	assert_int_equal(hv.vm[0].stats.bad_value, 1);
	assert_string_equal(hv.last_log, "vperf: guest wrote RES0 bits 0x80000000 of PMSWINC_EL0 "
					 "(value 0x80000001): ignored");
	assert_int_equal(sim_error_count(), 0);
}

/* Every trap vperf answers counts in the VM's statistics, on the fast path as on the full one:
 * five accesses the fast path answers are five traps. */
static void test_fast_path_counts_traps(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;
	uint64_t traps;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, 0);
	traps = hv.vm[0].stats.traps;
	(void)guest_read(PMCCNTR_EL0);
	(void)guest_read(PMEVCNTR1_EL0);
	(void)guest_read(PMOVSSET_EL0);
	guest_write(PMEVTYPER0_EL0, EV_INST);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(sim_guest_stats(0)->el2_traps >= 5, true);
	assert_int_equal(hv.vm[0].stats.traps, traps + 5);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The fast path's PMEVTYPER<n>_EL0 write (fast.h) programs the hardware as the full path
 * (filter.c) does. PMXEVTYPER_EL0 always takes the full path, PMEVTYPER1_EL0 the fast one once
 * the state is in the hardware: the two counters' hardware types must be equal for every type,
 * on a PE with and without EL3 (where NSK, NSU and M exist, I5.3.30), for a SELF VM and a
 * XENPMU_MODE_ALL one (NSH = !P), for an event the VM's filter denies and for SAMPLE_POP (0x4000,
 * an SPE event: denied to a VM without a vSPE, an event >= 64 judged apart from the common ones).
 * A denied event is excluded everywhere: the hardware gets P = U = 1 and no NS or M bit (with
 * EL3, NSK = NSU = 0 differ from P = U = 1: Non-secure EL1/EL0 not counted either). An allowed
 * type counting everywhere gets, with EL3, P = U = 1 (no Secure EL1/EL0) with NSK = NSU = 1
 * (the guest's own EL1/EL0), and NSH in XENPMU_MODE_ALL only.
 * Kills "the fast path's PMEVTYPER write in XENPMU_MODE_ALL drops NSH" and its relatives.
 */
static void fast_type_as_full(bool el3, enum vperf_pmu_mode mode)
{
	static const uint64_t types[] = {
		EV_CYCLES,	EV_CYCLES | P_BIT, EV_CYCLES | U_BIT, EV_CYCLES | P_BIT | U_BIT,
		EV_INST,	EV_INST | P_BIT,   EV_INST | U_BIT,   0x4000,
		0x4000 | U_BIT,
	};
	struct vperf_vm_config cfg = policy(mode, 2);
	uint64_t all = mode == VPERF_PMU_ALL ? NSH_BIT : 0, el3_pu = el3 ? P_BIT | U_BIT : 0;
	struct sim_pe_config model;

	hv_default_config(&model);
	model.el3 = el3;
	hv_init(&model, 2);
	vperf_pmu_filter_set(&cfg.filter, EV_INST, false);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMCR_EL0, 0); /* the state in the hardware: the fast path from here */
	guest_write(PMSELR_EL0, 0);
	for (unsigned int i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		guest_write(PMXEVTYPER_EL0, types[i]);
		guest_write(PMEVTYPER1_EL0, types[i]);
		assert_int_equal(hw_evtyper(1), hw_evtyper(0));
	}
	guest_write(PMEVTYPER1_EL0, EV_INST);
	assert_int_equal(hw_evtyper(1), P_BIT | U_BIT | EV_INST);
	guest_write(PMEVTYPER1_EL0, EV_CYCLES);
	assert_int_equal(hw_evtyper(1), el3_pu | (el3 ? NSK_BIT | NSU_BIT : 0) | all | EV_CYCLES);
	if (hv.model.pmuver >= 4) { /* evtCount[15:10] from PMUv3p1 */
		guest_write(PMEVTYPER1_EL0, 0x4000);
		assert_int_equal(hw_evtyper(1), P_BIT | U_BIT | 0x4000);
	}
	assert_int_equal(hv.vm[0].stats.bad_value, 0);
	assert_int_equal(sim_error_count(), 0);
}

static void test_fast_path_type_as_full_path(void **state)
{
	(void)state;
	fast_type_as_full(true, VPERF_PMU_SELF);
	fast_type_as_full(true, VPERF_PMU_ALL);
	fast_type_as_full(false, VPERF_PMU_SELF);
	fast_type_as_full(false, VPERF_PMU_ALL);
}

/* ---- EL0 and PMUSERENR_EL0 (regs.c, switch.c) ----------------------------------------------- */

/*
 * PMUSERENR_EL0.ER = 1 gives EL0 read access to the event counters and read/write access to
 * PMSELR_EL0 (I5.3, PMUSERENR_EL0.ER), with EN = 0: EL0 selects counter 1 and reads it through
 * PMXEVCNTR_EL0.
 */
static void test_el0_er_writes_pmselr(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVCNTR1_EL0, 77);
	guest_write(PMUSERENR_EL0, PMUSERENR_ER);
	sim_set_el(0);
	guest_write(PMSELR_EL0, 1);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	assert_int_equal(guest_read(PMSELR_EL0), 1);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 77);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	sim_set_el(1);
	assert_int_equal(guest_read(PMSELR_EL0), 1);
	assert_int_equal(hv.vm[0].stats.undef, 0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The EL0 grant is applied by the PE before any trap to EL2 (PMUSERENR_EL0), so it must be in the
 * hardware whenever the vCPU runs: put leaves 0 there for the next vCPU, and a vCPU resumed on the
 * hardware it left (nobody took its counters) gets its own value back, as a restored one does.
 */
static void test_resume_restores_el0_grant(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	const struct vperf_vm_config off = { .pmu_mode = VPERF_PMU_OFF };
	struct hv_vcpu *a, *b;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	assert_int_equal(hv_vm(1, &off), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMUSERENR_EL0, PMUSERENR_EN);
	hv_enter(b, 0);
	sim_set_el(0);
	(void)guest_read(PMCCNTR_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL1); /* b's EL0 has no grant */
	hv_enter(a, 0);
	assert_ptr_equal(hv.pcpu[0].pmu_owner, &a->v); /* resumed, not restored */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMUSERENR_EL0), PMUSERENR_EN);
	sim_set_el(0);
	(void)guest_read(PMCCNTR_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	assert_int_equal(hv.vm[0].stats.undef, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- the emulated partition's rotation (map.c) -------------------------------------------------- */

/*
 * Five counters on two slots, more than twice as many: each slice starts where the last one
 * stopped (the rotation point), so the placements cycle {0,1} {2,3} {4,0} {1,2} {3,4} and over
 * ten equal slices every counter counts in exactly four. Restarting the search for the next
 * rotation point from counter 0 would alternate {0,1} {2,3} and starve counter 4.
 */
static void test_rotation_five_on_two(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_EMULATED,
				       .nr_counters = 5,
				       .emu_slots = 2 };
	struct hv_vcpu *a;

	(void)state;
	vperf_pmu_filter_allow_all(&cfg.filter);
	hv_init(NULL, 1); /* N = 6: HPMN = 5 */
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	for (unsigned int n = 0; n < 5; n++)
		guest_msr(evtyper_enc(n), EV_INST);
	guest_write(PMCNTENSET_EL0, 0x1f);
	guest_write(PMCR_EL0, PMCR_E);
	hv_leave(0);
	for (unsigned int slice = 0; slice < 10; slice++) {
		hv_enter(a, 0);
		hv_run_n(&op1, 10);
		hv_leave(0);
	}
	hv_enter(a, 0);
	for (unsigned int n = 0; n < 5; n++)
		assert_int_equal(guest_mrs(evcntr_enc(n)), 40);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cycle_overflow_not_the_agents),
		cmocka_unit_test(test_stale_flag_not_handed_to_moved_owner),
		cmocka_unit_test(test_swinc_chain_needs_enabled_odd),
		cmocka_unit_test(test_swinc_32bit_overflow_of_wide_counter),
		cmocka_unit_test(test_fast_path_high_counter_index),
		cmocka_unit_test(test_fast_path_swinc_res0),
		cmocka_unit_test(test_fast_path_counts_traps),
		cmocka_unit_test(test_fast_path_type_as_full_path),
		cmocka_unit_test(test_el0_er_writes_pmselr),
		cmocka_unit_test(test_resume_restores_el0_grant),
		cmocka_unit_test(test_rotation_five_on_two),
	};

	return cmocka_run_group_tests_name("vpmu_audit", tests, NULL, NULL);
}
