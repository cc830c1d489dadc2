// SPDX-License-Identifier: MIT
/*
 * Isolation as a property: several VMs' vCPUs and the host share two pCPUs under seeded random
 * schedules (switches at random points, migrations, interrupts). Every vCPU runs its own seeded
 * random PMU program; what it observes (every value it reads, its virtual interrupt line) must
 * equal what the same program observes running alone. The host's counter must count exactly the
 * guest work that the policies let it see.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "sched_util.h"

#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"

#define NR_VCPUS  7
#define NR_VMS	  6
#define STEPS	  40
#define MAX_OBS	  2048
#define SCHEDULES 2000

/* vCPU i belongs to VM vm_of[i]; VMs 0, 1, 3, 4 and 5 are SELF, VM 2 is HV (the host counts it);
 * VM 3 has the direct partition, VMs 4 and 5 the emulated one (VM 4 on the whole first range, so
 * its counts are exact; VM 5 with 4 counters on 2 slots, multiplexed), the others the trapped
 * one. */
static const unsigned int vm_of[NR_VCPUS] = { 0, 0, 1, 2, 3, 4, 5 };
static const uint8_t vm_counters[NR_VMS] = { 4, 2, 3, 2, 3, 4 };
static const uint8_t vm_slots[NR_VMS] = { 0, 0, 0, 0, 0, 2 };
static const enum vperf_pmu_mode vm_mode[NR_VMS] = {
	VPERF_PMU_SELF, VPERF_PMU_SELF, VPERF_PMU_HV, VPERF_PMU_SELF, VPERF_PMU_SELF, VPERF_PMU_SELF
};
static const enum vperf_partition vm_part[NR_VMS] = { VPERF_PART_TRAPPED,  VPERF_PART_TRAPPED,
						      VPERF_PART_TRAPPED,  VPERF_PART_DIRECT,
						      VPERF_PART_EMULATED, VPERF_PART_EMULATED };
static const uint16_t events[] = { 0x00, 0x03, 0x04, 0x08, 0x10, 0x11, 0x13 };

struct program {
	uint64_t rng;
	unsigned int next_step;
	uint64_t obs[MAX_OBS];
	unsigned int nr_obs;
	uint64_t uops_run;
	unsigned int puts_before[STEPS + 1]; /* its runs ended (vcpu_put) before step s */
};

static void observe(struct program *p, uint64_t v)
{
	if (p->nr_obs < MAX_OBS)
		p->obs[p->nr_obs++] = v;
}

static void run_uops(struct program *p, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		uint64_t r = sched_next(&p->rng);
		struct sim_uop op = {
			.pc = 0x8000 + (r & 0xff0),
			.vaddr = 0x100000 + (r >> 20 & 0xfff8),
			.latency = 1 + (uint32_t)(r >> 8 & 7),
			.type = (uint8_t)(r >> 12 & 3),
			.flags = (uint32_t)(r >> 16 & (SIM_UOP_L1D_REFILL | SIM_UOP_MISPRED)),
		};

		hv_run(&op, 1);
		p->uops_run++;
	}
}

/* The virtual line is observed once a pending PMUIRQ has been taken (its latency is the
 * model's choice, hv_settle), and only at half the steps: at the others a delayed interrupt
 * may still be in flight when the schedule switches vCPUs. */
static void read_all(struct program *p, unsigned int nr, const struct hv_vcpu *vc, bool settle)
{
	for (unsigned int n = 0; n < nr; n++)
		observe(p, guest_mrs(sched_evcntr(n)));
	observe(p, guest_read(PMCCNTR_EL0));
	observe(p, guest_read(PMOVSSET_EL0));
	observe(p, guest_read(PMCNTENSET_EL0));
	if (!settle)
		return;
	hv_settle();
	observe(p, vc->irq_level);
}

/* One step of the vCPU's program: the random choices come from its own generator only, so the
 * program is the same whatever the schedule. */
static void step(struct program *p, unsigned int nr, const struct hv_vcpu *vc)
{
	uint64_t r = sched_next(&p->rng);
	unsigned int n = (unsigned int)(r >> 8) % nr;

	switch (r % 8) {
	case 0:
		guest_msr(sched_evtyper(n),
			  events[(r >> 16) % (sizeof(events) / sizeof(events[0]))] |
				  (r >> 24 & 1 ? VPERF_BIT(30) : 0));
		break;
	case 1:
		guest_write(PMCNTENSET_EL0, r >> 32);
		guest_write(PMINTENSET_EL1, r >> 40);
		guest_write(PMCR_EL0, PMCR_E | (r >> 20 & 1 ? PMCR_LP : 0));
		break;
	case 2:
		guest_msr(sched_evcntr(n), r >> 20 & 1 ? 0xfffffff0ull + (r >> 24 & 0xf) : r >> 40);
		break;
	case 3:
		guest_write(PMSWINC_EL0, r >> 32);
		break;
	case 4:
		guest_write(PMOVSCLR_EL0, r >> 32);
		guest_write(PMCR_EL0, (r >> 38 & 3 ? PMCR_E : 0) | (r >> 36 & 1 ? PMCR_P : 0) |
					      (r >> 37 & 1 ? PMCR_C : 0));
		break;
	case 5:
		guest_write(PMCNTENCLR_EL0, r >> 44);
		break;
	default:
		run_uops(p, 1 + (unsigned int)(r >> 16 & 15));
		break;
	}
	read_all(p, nr, vc, r >> 63);
}

/* The model's seed is the schedule's: each schedule starts from other UNKNOWN reset values and
 * other synchronization choices.
 * The direct partition needs PMUv3p5 (vperf refuses it before): VM 3 is trapped there; with
 * FEAT_FGT in the model (HV_FGT=1) it denies BR_MIS_PRED, so its type accesses trap by FGT. */
static void init_world(uint64_t seed, struct program *progs)
{
	struct sim_pe_config pe;

	hv_default_config(&pe);
	pe.seed = seed;
	/* EL2 work after each handler, inside the synchronization window its writes opened: the
	 * guests' counters must not see it whichever way the model synchronizes. */
	pe.el2_exit_cycles = 7;
	hv_init(&pe, 2);
	for (unsigned int v = 0; v < NR_VMS; v++) {
		struct vperf_vm_config cfg = { .pmu_mode = vm_mode[v],
					       .partition = vm_part[v],
					       .nr_counters = vm_counters[v],
					       .emu_slots = vm_slots[v] };

		if (cfg.partition == VPERF_PART_DIRECT && !hv_direct_offered())
			cfg.partition = VPERF_PART_TRAPPED;

		vperf_pmu_filter_allow_all(&cfg.filter);
		/* With FEAT_FGT (HV_FGT=1) the direct VM has a filter: its types trap by FGT. */
		if (cfg.partition == VPERF_PART_DIRECT && pe.fgt)
			vperf_pmu_filter_set(&cfg.filter, 0x10, false);
		assert_int_equal(hv_vm(v, &cfg), VPERF_OK);
	}
	for (unsigned int i = 0; i < NR_VCPUS; i++) {
		memset(&progs[i], 0, sizeof(progs[i]));
		progs[i].rng = seed * 0x9e3779b97f4a7c15ull + i + 1;
		hv_vcpu(i, vm_of[i]);
	}
	/* The host counts instructions at EL1/EL0 on counter 4 of both pCPUs. */
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		sim_poke(cpu, VPERF_ENC_PMEVTYPER4_EL0, 0x08);
		sim_poke(cpu, VPERF_ENC_PMCNTENSET_EL0, 0x10);
	}
}

/* Alone: the same program with the same runs (a multiplexed vCPU's slices are its runs), on one
 * pCPU that nobody else uses. */
static void run_alone(uint64_t seed, unsigned int i, const unsigned int *puts_before,
		      struct program *out)
{
	struct program progs[NR_VCPUS];

	init_world(seed, progs);
	hv_enter(&hv.vcpu[i], 0);
	for (unsigned int s = 0; s < STEPS; s++) {
		for (unsigned int k = 0; k < puts_before[s]; k++) {
			hv_leave(0);
			hv_enter(&hv.vcpu[i], 0);
		}
		step(&progs[i], vm_counters[vm_of[i]], &hv.vcpu[i]);
	}
	hv_leave(0);
	*out = progs[i];
}

/* The vCPU running on cpu, if any, is about to be put. */
static void note_put(struct program *progs, unsigned int cpu)
{
	if (hv.running[cpu]) {
		struct program *p = &progs[hv.running[cpu] - hv.vcpu];

		p->puts_before[p->next_step]++;
	}
}

static void run_shared(uint64_t seed, struct program *progs)
{
	uint64_t sched = seed ^ 0xa5a5a5a5a5a5a5a5ull;
	unsigned int done = 0;

	init_world(seed, progs);
	while (done < NR_VCPUS) {
		uint64_t r = sched_next(&sched);
		unsigned int i = (unsigned int)(r % NR_VCPUS), cpu = (unsigned int)(r >> 8 & 1);
		/* 0: the run ends before any PMU access (the vCPU exits for something else), so
		 * a load that resumes nothing meets the put after it. */
		unsigned int burst = (unsigned int)((r >> 16) % 4);

		if (progs[i].next_step == STEPS || (hv.running[cpu ^ 1] == &hv.vcpu[i]))
			continue;
		if (hv.running[cpu] != &hv.vcpu[i])
			note_put(progs, cpu);
		hv_enter(&hv.vcpu[i], cpu);
		for (unsigned int s = 0; s < burst && progs[i].next_step < STEPS;
		     s++, progs[i].next_step++)
			step(&progs[i], vm_counters[vm_of[i]], &hv.vcpu[i]);
		if (progs[i].next_step == STEPS)
			done++;
		if (r >> 20 & 1) {
			note_put(progs, cpu);
			hv_leave(cpu);
		}
	}
	hv_leave(0);
	hv_leave(1);
}

static void check_schedule(uint64_t seed)
{
	static struct program shared[NR_VCPUS], alone;
	uint64_t hv_vm_uops = 0;

	run_shared(seed, shared);
	if (sim_error_count())
		fail_msg("seed %llu: %u model errors, first: %s", (unsigned long long)seed,
			 sim_error_count(), sim_error_at(0)->what);
	assert_true(hv.max_irq_burst <= 1);
	/* The harness keeps every promise of a lazy put: vperf must never see a broken one. */
	if (hv.pcpu[0].stats.misuse + hv.pcpu[1].stats.misuse)
		fail_msg("seed %llu: vperf counted %llu misuse (a vCPU loaded elsewhere than where "
			 "a lazy put parked it, or without a put)",
			 (unsigned long long)seed,
			 (unsigned long long)(hv.pcpu[0].stats.misuse + hv.pcpu[1].stats.misuse));
	for (unsigned int i = 0; i < NR_VCPUS; i++)
		if (vm_mode[vm_of[i]] == VPERF_PMU_HV)
			hv_vm_uops += shared[i].uops_run;
	/* The host's counter saw exactly the HV VM's instructions, on whichever pCPU they ran. */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVCNTR4_EL0) +
				 sim_peek(1, VPERF_ENC_PMEVCNTR4_EL0),
			 hv_vm_uops);
	for (unsigned int i = 0; i < NR_VCPUS; i++) {
		run_alone(seed, i, shared[i].puts_before, &alone);
		assert_int_equal(alone.nr_obs, shared[i].nr_obs);
		for (unsigned int k = 0; k < alone.nr_obs; k++)
			if (alone.obs[k] != shared[i].obs[k])
				fail_msg("seed %llu vcpu %u: observation %u is 0x%llx shared, "
					 "0x%llx "
					 "alone",
					 (unsigned long long)seed, i, k,
					 (unsigned long long)shared[i].obs[k],
					 (unsigned long long)alone.obs[k]);
	}
}

/* HV_SCHEDULES=n in the environment runs n (fewer on other PMU versions, more in make soak),
 * from seed HV_SEED0 (default 1). */
static void test_isolation_random_schedules(void **state)
{
	uint64_t first = sched_env_u64("HV_SEED0", 1), n = sched_env_u64("HV_SCHEDULES", SCHEDULES);

	(void)state;
	for (uint64_t seed = first; seed < first + n; seed++)
		check_schedule(seed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isolation_random_schedules),
	};

	return cmocka_run_group_tests_name("vpmu_isolation", tests, NULL, NULL);
}
