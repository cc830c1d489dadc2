// SPDX-License-Identifier: MIT
/*
 * A host that writes PMCR_EL0 between a put and the next load (host_writes_pmcr, vperf/vperf.h;
 * docs/vpmu.md "Lazy put"): nVHE KVM, whose EL1 perf sets PMCR_EL0.E whenever it enables its own
 * events. PMCR_EL0.E enables every counter of the first range [0, MDCR_EL2.HPMN) (Arm DDI 0487
 * K.a, I5.3.21), so a put that stopped the guest's counters by E alone would let them count the
 * host's EL1 work. The behaviours that must hold, each on every world of worlds[] and on the PMU
 * version of the environment (HV_PMUVER: make test's pmu-versions), with the test that fails
 * when it breaks:
 *
 *   1. Lazy put (parked) and eager put (the hardware copy a resume takes back): the host's E = 1
 *      and EL1 work between put and load move none of the guest's counters, and the guest reads
 *      after the load exactly what it had at the put (test_parked_does_not_count_host,
 *      test_eager_copy_does_not_count_host).
 *   2. The resume gives the guest its own PMCR_EL0 (E = 0 stays 0 under the host's E = 1) and
 *      exactly its own enables and interrupt enables (test_stopped_guest_stays_stopped,
 *      test_enables_back_exactly).
 *   3. No guest bit is left in PMCNTENSET_EL0 / PMINTENSET_EL1 while the host runs, and a flag
 *      the guest took before the put survives the host clearing every flag (Linux's PMU
 *      interrupt handler does) (test_flag_survives_host_clear).
 *   4. The host's own counters at and above HPMN keep their enables, interrupt enables and
 *      counting (test_host_counters_untouched).
 *   5. XENPMU_MODE_ALL does not park and keeps counting across its put (test_all_keeps_counting).
 *   6. Under a hypervisor that writes MDCR_EL2 itself too (nVHE KVM), the load back to the parked
 *      counters writes three PMU registers and no MDCR_EL2 of its own (test_hyp_mdcr_round_trip).
 *   7. The emulated partition's resume enables the slots its counters are placed on, not its
 *      guest-numbered counters (test_emulated_resume_enables_slots).
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

#define CYCLE_BIT VPERF_BIT(31)

/* The worlds: N counters on every pCPU, the host keeping host of them, guests of nr counters. */
static const struct {
	uint8_t n, host, nr;
} worlds[] = { { 6, 2, 4 }, { 4, 1, 3 }, { 10, 3, 7 }, { 3, 1, 1 } };

#define NR_WORLDS (sizeof(worlds) / sizeof(worlds[0]))

static const struct sim_uop host_op = { .pc = 0x7000, .latency = 2, .type = SIM_UOP_OTHER };

/* World k: every pCPU an nVHE KVM host (host_el1, host_writes_pmcr; hyp_writes_mdcr if asked); VM 0 HV trapped, VM 1
 * XENPMU_MODE_ALL, both nr counters; the PMUIRQ taken after polls polls (0: at once). */
static void init_world_hyp(unsigned int k, unsigned int polls, bool hyp_writes_mdcr)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];
	const struct vperf_pcpu_config pcfg = { .host_counters = worlds[k].host,
						.host_el1 = true,
						.host_writes_pmcr = true,
						.hyp_writes_mdcr = hyp_writes_mdcr };
	struct vperf_vm_config hvc = policy(VPERF_PMU_HV, worlds[k].nr);
	struct vperf_vm_config all = policy(VPERF_PMU_ALL, worlds[k].nr);

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		hv_default_config(&cfgs[cpu]);
		cfgs[cpu].nr_counters = worlds[k].n;
		cfgs[cpu].pmuirq_latency = polls ? SIM_IRQ_AFTER_POLLS : SIM_IRQ_IMMEDIATE;
		cfgs[cpu].pmuirq_polls = (uint16_t)polls;
	}
	hv_init_model(cfgs);
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		assert_int_equal(hv_pcpu_up(cpu, &pcfg), VPERF_OK);
	sim_set_cpu(0);
	assert_int_equal(hv_vm(0, &hvc), VPERF_OK);
	assert_int_equal(hv_vm(1, &all), VPERF_OK);
}

static void init_world(unsigned int k, unsigned int polls)
{
	init_world_hyp(k, polls, false);
}

static uint32_t evcntr_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7);
}

static uint32_t evtyper_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7);
}

/* The guest's counters: counter 0 CPU_CYCLES, the last one INST_RETIRED, the cycle counter; each
 * from a value of its own, enabled with their interrupts, PMCR_EL0.E = e. */
static uint64_t guest_program(unsigned int nr, uint64_t base, bool e)
{
	uint64_t bits = VPERF_BIT(0) | VPERF_BIT(nr - 1) | CYCLE_BIT;

	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	if (nr > 1)
		guest_msr(evtyper_enc(nr - 1), EV_INST);
	for (unsigned int n = 0; n < nr; n++)
		guest_msr(evcntr_enc(n), base + n);
	guest_write(PMCCNTR_EL0, base + 30);
	guest_write(PMINTENSET_EL1, bits);
	guest_write(PMCNTENSET_EL0, bits);
	guest_write(PMCR_EL0, e ? PMCR_E : 0);
	return bits;
}

static uint64_t guest_mask(unsigned int nr)
{
	return (VPERF_BIT(nr) - 1) | CYCLE_BIT;
}

/* The physical counters of the guest (counter n is physical counter n), the cycle counter last. */
static void snapshot(unsigned int nr, uint64_t v[32])
{
	for (unsigned int n = 0; n < nr; n++)
		v[n] = hw_counter(n);
	v[31] = sim_peek(0, VPERF_ENC_PMCCNTR_EL0);
}

/* The host between put and load: PMCR_EL0.E = 1 (hv_switch.c wrote it after the put, as KVM and its
 * perf do; set again here at EL1 where it has its own PMCR_EL0) and its EL1 code. */
static void host_runs(void)
{
	assert_true(sim_peek(0, VPERF_ENC_PMCR_EL0) & PMCR_E);
	sim_set_el(1);
	hv_run_n(&host_op, 9);
	sim_set_el(2);
}

/* Behaviour 1: put (lazy or eager), the host, the load back; nothing of the guest's moved. */
static void round_trip_does_not_count_host(enum hv_put put)
{
	for (unsigned int k = 0; k < NR_WORLDS; k++) {
		unsigned int nr = worlds[k].nr;
		uint64_t at_put[32] = { 0 }, before_load[32] = { 0 }, mask = guest_mask(nr);
		struct hv_vcpu *a;

		init_world(k, 0);
		a = hv_vcpu(0, 0);
		a->put = put;
		hv_enter(a, 0);
		guest_program(nr, 1000, true);
		hv_run_n(&op3, 10);
		hv_leave(0);
		assert_int_equal(vperf_vcpu_parked(&a->v), put == HV_PUT_LAZY);
		assert_int_equal(hv.pcpu[0].pmu_owner, &a->v);
		/* Behaviour 3: nothing of the guest's enabled while the host runs. */
		assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & mask, 0);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & mask, 0);
		snapshot(nr, at_put);
		host_runs();
		snapshot(nr, before_load);
		assert_memory_equal(at_put, before_load, sizeof(at_put));
		hv_enter(a, 0);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), at_put[0]);
		assert_int_equal(guest_read(PMCCNTR_EL0), at_put[31]);
		if (nr > 1)
			assert_int_equal(guest_mrs(evcntr_enc(nr - 1)), at_put[nr - 1]);
		/* ... and it counts again: its enables and PMCR_EL0.E are back. */
		hv_run_n(&op3, 5);
		assert_true(guest_read(PMEVCNTR0_EL0) >= at_put[0] + 15);
		assert_int_equal(sim_error_count(), 0);
	}
}

static void test_parked_does_not_count_host(void **state)
{
	(void)state;
	round_trip_does_not_count_host(HV_PUT_LAZY);
}

static void test_eager_copy_does_not_count_host(void **state)
{
	(void)state;
	round_trip_does_not_count_host(HV_PUT_EAGER);
}

/* Behaviour 6 (cost): under a hypervisor that also writes MDCR_EL2 itself (hyp_writes_mdcr, nVHE
 * KVM), the load back to the parked counters writes the guest's PMCR_EL0 and its two enables and
 * nothing else (no MDCR_EL2 of vperf's: the hypervisor's write is the only one), reads nothing,
 * and the counts are exact. Fails if the load takes the full path (mdcr_in_place, ../virt/vcpu.c). */
static void test_hyp_mdcr_round_trip(void **state)
{
	(void)state;
	for (unsigned int k = 0; k < NR_WORLDS; k++) {
		unsigned int nr = worlds[k].nr;
		uint64_t at_put[32] = { 0 };
		struct hv_vcpu *a;

		init_world_hyp(k, 0, true);
		a = hv_vcpu(0, 0);
		a->put = HV_PUT_LAZY;
		hv_enter(a, 0);
		guest_program(nr, 1000, true);
		hv_run_n(&op3, 10);
		hv_leave(0);
		snapshot(nr, at_put);
		host_runs();
		sim_clear_counts(0);
		hv_enter(a, 0);
		assert_int_equal(sim_cpu(0)->nr_reads, 0);
		assert_int_equal(sim_cpu(0)->nr_writes,
				 4); /* the hypervisor's MDCR_EL2, then ours */
		assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), a->v.mdcr);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), at_put[0]);
		assert_int_equal(guest_read(PMCCNTR_EL0), at_put[31]);
		assert_int_equal(sim_error_count(), 0);
	}
}

/* Behaviour 2: the guest stopped its counters (E = 0, enables set); the host's E = 1 between put
 * and load must not start them after the resume either. */
static void test_stopped_guest_stays_stopped(void **state)
{
	(void)state;
	for (unsigned int k = 0; k < NR_WORLDS; k++) {
		unsigned int nr = worlds[k].nr;
		struct hv_vcpu *a;
		uint64_t v0, c0;

		init_world(k, 0);
		a = hv_vcpu(0, 0);
		a->put = HV_PUT_LAZY;
		hv_enter(a, 0);
		guest_program(nr, 1000, true);
		hv_run_n(&op3, 10);
		guest_write(PMCR_EL0, 0);
		v0 = guest_read(PMEVCNTR0_EL0);
		c0 = guest_read(PMCCNTR_EL0);
		hv_leave(0);
		host_runs();
		hv_enter(a, 0);
		hv_run_n(&op3, 10);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), v0);
		assert_int_equal(guest_read(PMCCNTR_EL0), c0);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_E, 0);
		assert_int_equal(sim_error_count(), 0);
	}
}

/* Behaviour 2: after the resume the hardware holds exactly the guest's enables and interrupt
 * enables (not the ones it cleared, not more), in both puts. */
static void test_enables_back_exactly(void **state)
{
	(void)state;
	for (unsigned int k = 0; k < NR_WORLDS; k++) {
		for (int lazy = 0; lazy < 2; lazy++) {
			unsigned int nr = worlds[k].nr;
			uint64_t mask = guest_mask(nr), bits;
			struct hv_vcpu *a;

			init_world(k, 0);
			a = hv_vcpu(0, 0);
			a->put = lazy ? HV_PUT_LAZY : HV_PUT_EAGER;
			hv_enter(a, 0);
			bits = guest_program(nr, 1000, true);
			guest_write(PMINTENCLR_EL1, VPERF_BIT(0)); /* the interrupts differ */
			hv_leave(0);
			host_runs();
			hv_enter(a, 0);
			guest_read(PMCR_EL0); /* the eager put's idle-free state: acquired */
			assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & mask, bits);
			assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & mask,
					 bits & ~VPERF_BIT(0));
			assert_true(sim_peek(0, VPERF_ENC_PMCR_EL0) & PMCR_E);
		}
	}
}

/* Behaviour 3: a flag raised just before the put (its PMUIRQ still in flight) is the guest's
 * after the load, though the host cleared every flag in between as Linux's handler does; its
 * interrupt enable is off while the host runs. */
static void test_flag_survives_host_clear(void **state)
{
	(void)state;
	for (unsigned int k = 0; k < NR_WORLDS; k++) {
		unsigned int nr = worlds[k].nr;
		struct hv_vcpu *a;

		init_world(k, 100);
		a = hv_vcpu(0, 0);
		a->put = HV_PUT_LAZY;
		hv_enter(a, 0);
		guest_program(nr, 0xfffffff0ull, true);
		hv_run_n(&op3, 10);
		hv_leave(0);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & guest_mask(nr), 0);
		write_sysreg(~0ull & 0x1ffffffffull, PMOVSCLR_EL0); /* the host's handler */
		host_runs();
		hv_enter(a, 0);
		hv_settle();
		assert_true(guest_read(PMOVSSET_EL0) & VPERF_BIT(0));
		assert_true(a->irq_level);
	}
}

/* Behaviour 4: the host's counters [HPMN, N - agent) keep their enables and interrupt enables
 * through every put and load, and count its EL1 work between. */
static void test_host_counters_untouched(void **state)
{
	(void)state;
	for (unsigned int k = 0; k < NR_WORLDS; k++) {
		for (int lazy = 0; lazy < 2; lazy++) {
			uint64_t host, before;
			struct hv_vcpu *a;

			init_world(k, 0);
			host = VPERF_BIT(hv.pcpu[0].hpmn);
			sim_poke(0, evtyper_enc(hv.pcpu[0].hpmn), EV_INST);
			write_sysreg(host, PMCNTENSET_EL0);
			write_sysreg(host, PMINTENSET_EL1);
			a = hv_vcpu(0, 0);
			a->put = lazy ? HV_PUT_LAZY : HV_PUT_EAGER;
			hv_enter(a, 0);
			guest_program(worlds[k].nr, 1000, true);
			hv_run_n(&op3, 3);
			hv_leave(0);
			assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & host, host);
			assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & host, host);
			before = hw_counter(hv.pcpu[0].hpmn);
			host_runs();
			assert_int_equal(hw_counter(hv.pcpu[0].hpmn), before + 9);
			hv_enter(a, 0);
			guest_read(PMCR_EL0);
			assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & host, host);
			assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & host, host);
		}
	}
}

/* Behaviour 5: a XENPMU_MODE_ALL vCPU is not parked and its counters keep counting while the
 * host runs (its policy: it profiles everything). */
static void test_all_keeps_counting(void **state)
{
	(void)state;
	for (unsigned int k = 0; k < NR_WORLDS; k++) {
		struct hv_vcpu *p;
		uint64_t before;

		init_world(k, 0);
		p = hv_vcpu(0, 1);
		p->put = HV_PUT_LAZY;
		hv_enter(p, 0);
		guest_program(worlds[k].nr, 1000, true);
		hv_leave(0);
		assert_false(vperf_vcpu_parked(&p->v));
		assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & VPERF_BIT(0), 1);
		before = hw_counter(0);
		host_runs();
		assert_true(hw_counter(0) > before);
	}
}

/* Behaviour 7: an emulated vCPU (4 counters on 2 slots) counting on its counters 2 and 3, put
 * eagerly, back after the host ran: its resume (vperf_vpmu_resume_enables) enables the two slots
 * they were placed on, so counter 2 counts again. */
static void test_emulated_resume_enables_slots(void **state)
{
	struct vperf_vm_config emu = policy(VPERF_PMU_SELF, 4);
	uint64_t placed, lanes = VPERF_BIT(4) - 1, v2;
	struct hv_vcpu *e;

	(void)state;
	emu.partition = VPERF_PART_EMULATED;
	emu.emu_slots = 2;
	init_world(0, 0);
	assert_int_equal(hv_vm(2, &emu), VPERF_OK);
	e = hv_vcpu(0, 2);
	e->put = HV_PUT_EAGER;
	hv_enter(e, 0);
	guest_msr(evtyper_enc(2), EV_INST);
	guest_msr(evtyper_enc(3), EV_INST);
	guest_write(PMCNTENSET_EL0, VPERF_BIT(2) | VPERF_BIT(3));
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 5);
	placed = sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & lanes;
	assert_int_equal(__builtin_popcountll(placed), 2);
	hv_leave(0);
	host_runs();
	hv_enter(e, 0);
	v2 = guest_mrs(evcntr_enc(2));
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & lanes, placed);
	hv_run_n(&op3, 5);
	assert_true(guest_mrs(evcntr_enc(2)) > v2);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parked_does_not_count_host),
		cmocka_unit_test(test_eager_copy_does_not_count_host),
		cmocka_unit_test(test_stopped_guest_stays_stopped),
		cmocka_unit_test(test_enables_back_exactly),
		cmocka_unit_test(test_flag_survives_host_clear),
		cmocka_unit_test(test_host_counters_untouched),
		cmocka_unit_test(test_all_keeps_counting),
		cmocka_unit_test(test_hyp_mdcr_round_trip),
		cmocka_unit_test(test_emulated_resume_enables_slots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
