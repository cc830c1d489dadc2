// SPDX-License-Identifier: MIT
/*
 * Isolation at scale, PMU and SPE together: VMs with a vSPE (guest-owned buffer, PMB* trapped
 * and untrapped) and PMU-only VMs (self-counting, counted by the host, an SMP VM) share two
 * pCPUs under seeded schedules: switches at random points, migrations, interrupts; between
 * guests the host profiles its own EL2 code into its own buffer on each pCPU. Every vCPU
 * runs its own seeded program: PMU accesses, its own code, and SPE sessions started, run and
 * stopped as Linux's arm_spe_pmu driver does. What it observes must equal what the same program
 * observes running alone: every PMU and SPE register value it reads, and every byte its
 * profiling buffer holds. A record of one VM in another's buffer, a record lost or written
 * twice, a sampling interval or register carried across a switch, all change what some vCPU
 * observes; a guest record in the host's buffer breaks its "all at EL2". The host's counter
 * must count exactly the instructions of the VM it may see.
 *
 * The SPE vCPUs enable no PMU overflow interrupt: a PMUIRQ taken at EL2 is a return to an
 * enabled state, which with PMSICR_EL1 at zero reloads the interval without a sample (SPE
 * 3.1.1), and its latency is the model's seeded choice, drawn differently in a world with other
 * vCPUs. On hardware too any exception to EL2 may move later samples by one operation.
 *
 * HV_SCHEDULES=n runs n schedules (default SCHEDULES), from HV_SEED0 (default 1): make soak runs
 * 10^6 in slices. HV_PMSVER picks the SPE version of the PE (default 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "iso_prog.h"
#include "sched_util.h"
#include "vspe_util.h"

#include <vperf/pmu_regs.h>
#include <vperf/spe_rec.h>

#define NR_VCPUS  6
#define NR_VMS	  5
#define STEPS	  32
#define SCHEDULES 10000
#define SPE_BUF	  0x4000ull /* bytes of buffer each session uses: never full in one schedule */

/* vCPU i belongs to VM vm_of[i]. VM 0: SPE with PMB* trapped (E2PB 0b10); VM 1: SPE with the
 * buffer untrapped once live (E2PB 0b11); VM 2: counted by the host (HV); VM 3: two vCPUs;
 * VM 4: the emulated partition, 4 counters on 2 slots, and SPE trapped. */
static const unsigned int vm_of[NR_VCPUS] = { 0, 1, 2, 3, 3, 4 };
static const uint8_t vm_counters[NR_VMS] = { 2, 3, 2, 3, 4 };
static const uint8_t vm_slots[NR_VMS] = { 0, 0, 0, 0, 2 };
static const enum vperf_pmu_mode vm_mode[NR_VMS] = { VPERF_PMU_SELF, VPERF_PMU_SELF, VPERF_PMU_HV,
						     VPERF_PMU_SELF, VPERF_PMU_SELF };
static const enum vperf_partition vm_part[NR_VMS] = { VPERF_PART_TRAPPED, VPERF_PART_TRAPPED,
						      VPERF_PART_TRAPPED, VPERF_PART_TRAPPED,
						      VPERF_PART_EMULATED };
static const bool vm_spe[NR_VMS] = { true, true, false, false, true };
static const enum vperf_spe_buffer vm_buf[NR_VMS] = { VPERF_SPE_BUF_EL1_TRAPPED, VPERF_SPE_BUF_EL1,
						      VPERF_SPE_BUF_DEFAULT, VPERF_SPE_BUF_DEFAULT,
						      VPERF_SPE_BUF_EL1_TRAPPED };
/* One driver state per vCPU and run: the shared run's and the one alone run's. */
static struct lx_spe lx_shared[NR_VCPUS], lx_alone;

static uint8_t pmsver(void)
{
	const char *v = getenv("HV_PMSVER");

	return v && *v ? (uint8_t)strtoul(v, NULL, 0) : 1;
}

/* The model's seed is the schedule's: each schedule starts from other UNKNOWN reset values and
 * other synchronization choices. Every SPE VM's buffer is mapped at stage 2 up front: a stage 2
 * fault on it is recovered only when vperf takes its PMBIRQ, whose latency is the model's
 * choice, and records sampled meanwhile are not written, alone or not (test_vspe_hostile and
 * test_vspe_switch cover those). */
static void init_world(uint64_t seed, struct iso_prog *progs, struct lx_spe *lx)
{
	vs_init_host(pmsver(), seed);
	for (unsigned int v = 0; v < NR_VMS; v++) {
		struct vperf_vm_config cfg = { .pmu_mode = vm_mode[v],
					       .partition = vm_part[v],
					       .nr_counters = vm_counters[v],
					       .emu_slots = vm_slots[v],
					       .spe = vm_spe[v],
					       .spe_buffer = vm_buf[v] };

		vperf_pmu_filter_allow_all(&cfg.filter);
		if (vm_spe[v]) {
			hv_vm_ram(v, V_BUF_IPA, V_BUF_PA(v), V_BUF_SIZE);
			assert_int_equal(sim_mem_map_s1(SIM_REGIME_EL10, (uint16_t)(v + 1),
							V_BUF_VA, V_BUF_IPA, V_BUF_SIZE,
							SIM_PERM_RW),
					 VPERF_OK);
			assert_int_equal(sim_mem_map_s2((uint16_t)(v + 1), V_BUF_IPA, V_BUF_PA(v),
							V_BUF_SIZE, SIM_PERM_RW),
					 VPERF_OK);
		}
		assert_int_equal(hv_vm(v, &cfg), VPERF_OK);
	}
	for (unsigned int i = 0; i < NR_VCPUS; i++) {
		memset(&progs[i], 0, sizeof(progs[i]));
		progs[i].rng = seed * 0x9e3779b97f4a7c15ull + i + 1;
		progs[i].vm = vm_of[i];
		progs[i].nr_counters = vm_counters[vm_of[i]];
		hv_vcpu(i, vm_of[i]);
		if (vm_spe[vm_of[i]] && lx) {
			lx[i] = (struct lx_spe){ .vm = vm_of[i], .size = SPE_BUF };
			progs[i].lx = &lx[i];
		}
	}
	/* The host counts instructions at EL1/EL0 on counter 4 of both pCPUs. */
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		sim_poke(cpu, VPERF_ENC_PMEVTYPER4_EL0, 0x08);
		sim_poke(cpu, VPERF_ENC_PMCNTENSET_EL0, 0x10);
	}
}

/* Alone: the same program with the same runs, on one pCPU that nobody else uses. */
static void run_alone(uint64_t seed, unsigned int i, const bool *put_before, struct iso_prog *out)
{
	static struct iso_prog progs[NR_VCPUS];
	struct lx_spe *lx = vm_spe[vm_of[i]] ? &lx_alone : NULL;

	init_world(seed, progs, NULL);
	if (lx) {
		lx_alone = (struct lx_spe){ .vm = vm_of[i], .size = SPE_BUF };
		progs[i].lx = lx;
	}
	hv_enter(&hv.vcpu[i], 0);
	for (unsigned int s = 0; s < STEPS; s++) {
		if (put_before[s]) {
			hv_leave(0);
			hv_enter(&hv.vcpu[i], 0);
		}
		iso_step(&progs[i], &hv.vcpu[i]);
	}
	iso_finish(&progs[i]);
	hv_leave(0);
	*out = progs[i];
}

/* The vCPU running on cpu, if any, is about to be put. */
static void note_put(struct iso_prog *progs, unsigned int cpu)
{
	if (hv.running[cpu]) {
		struct iso_prog *p = &progs[hv.running[cpu] - hv.vcpu];

		p->put_before[p->next_step] = true;
	}
}

static void run_shared(uint64_t seed, struct iso_prog *progs)
{
	uint64_t sched = seed ^ 0xa5a5a5a5a5a5a5a5ull;
	unsigned int done = 0;

	init_world(seed, progs, lx_shared);
	while (done < NR_VCPUS) {
		uint64_t r = sched_next(&sched);
		unsigned int i = (unsigned int)(r % NR_VCPUS), cpu = (unsigned int)(r >> 8 & 1);
		unsigned int burst = 1 + (unsigned int)((r >> 16) % 3);
		struct iso_prog *p = &progs[i];

		if (p->next_step == STEPS || hv.running[cpu ^ 1] == &hv.vcpu[i])
			continue;
		if (hv.running[cpu] != &hv.vcpu[i])
			note_put(progs, cpu);
		hv_enter(&hv.vcpu[i], cpu);
		for (unsigned int s = 0; s < burst && p->next_step < STEPS; s++, p->next_step++)
			iso_step(p, &hv.vcpu[i]);
		if (p->next_step == STEPS) {
			iso_finish(p);
			done++;
		}
		if (r >> 20 & 1) {
			note_put(progs, cpu);
			hv_leave(cpu);
			vs_host_run(8); /* the host's own code, profiled into its own buffer */
		}
	}
	hv_leave(0);
	hv_leave(1);
}

static unsigned int own_records(const struct lx_spe *lx, uint64_t seed, unsigned int i)
{
	unsigned int n;
	const char *bad = iso_own_records(lx, &n);

	if (bad)
		fail_msg("seed %llu vcpu %u: %s", (unsigned long long)seed, i, bad);
	return n;
}

static void check_schedule(uint64_t seed, uint64_t *records, uint64_t *host_records)
{
	static struct iso_prog shared[NR_VCPUS], alone;
	uint64_t hv_vm_uops = 0;

	run_shared(seed, shared);
	if (sim_error_count())
		fail_msg("seed %llu: %u model errors, first: %s", (unsigned long long)seed,
			 sim_error_count(), sim_error_at(0)->what);
	assert_true(hv.max_irq_burst <= 1);
	/* Every record in the host's buffers is of its own code, at EL2 (vs_host_records checks);
	 * none of a guest's, whose sampling put must have turned off. */
	*host_records += vs_host_records(0) + vs_host_records(1);
	for (unsigned int i = 0; i < NR_VCPUS; i++)
		if (vm_mode[vm_of[i]] == VPERF_PMU_HV)
			hv_vm_uops += shared[i].uops_run;
	/* The host's counter saw exactly the HV VM's instructions, on whichever pCPU they ran. */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVCNTR4_EL0) +
				 sim_peek(1, VPERF_ENC_PMEVCNTR4_EL0),
			 hv_vm_uops);
	for (unsigned int i = 0; i < NR_VCPUS; i++) {
		run_alone(seed, i, shared[i].put_before, &alone);
		const char *diff = iso_diff_obs(&shared[i], &alone);

		if (diff)
			fail_msg("seed %llu vcpu %u: %s", (unsigned long long)seed, i, diff);
		if (shared[i].lx) {
			diff = iso_diff_buffer(shared[i].lx, &lx_alone);
			if (diff)
				fail_msg("seed %llu vcpu %u: %s", (unsigned long long)seed, i,
					 diff);
			*records += own_records(shared[i].lx, seed, i);
		}
	}
}

static void test_isolation_mixed_schedules(void **state)
{
	uint64_t first = sched_env_u64("HV_SEED0", 1), n = sched_env_u64("HV_SCHEDULES", SCHEDULES);
	uint64_t records = 0, host_records = 0;

	(void)state;
	for (uint64_t seed = first; seed < first + n; seed++)
		check_schedule(seed, &records, &host_records);
	print_message("%llu schedules from seed %llu, PMSVer %u: %llu guest SPE records, each in "
		      "its VM's buffer, as alone; %llu host records, all the host's\n",
		      (unsigned long long)n, (unsigned long long)first, pmsver(),
		      (unsigned long long)records, (unsigned long long)host_records);
	/* The schedules profiled something: a run with no record would prove nothing of SPE. */
	assert_true(records >= n);
	assert_true(host_records > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isolation_mixed_schedules),
	};

	return cmocka_run_group_tests_name("isolation_mixed", tests, NULL, NULL);
}
