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
#include "sched_util.h"
#include "vspe_util.h"

#include <vperf/pmu_regs.h>
#include <vperf/spe_rec.h>

#define NR_VCPUS  6
#define NR_VMS	  5
#define STEPS	  32
#define MAX_OBS	  1024
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
static const uint16_t events[] = { 0x00, 0x03, 0x04, 0x08, 0x10, 0x11, 0x13 };

struct program {
	uint64_t rng;
	unsigned int next_step;
	uint64_t obs[MAX_OBS];
	unsigned int nr_obs;
	uint64_t uops_run;
	bool spe_on;		    /* an SPE session is running */
	bool put_before[STEPS + 1]; /* its run ended (vcpu_put) before step s */
	struct lx_spe *lx;	    /* its guest driver's state, for an SPE VM */
};

/* One driver state per vCPU and run: the shared run's and the one alone run's. */
static struct lx_spe lx_shared[NR_VCPUS], lx_alone;

static void observe(struct program *p, uint64_t v)
{
	if (p->nr_obs < MAX_OBS)
		p->obs[p->nr_obs++] = v;
}

/* The vCPU's own code, at PCs of its VM only (V_LOOP_PC is the SPE loop's, far above). */
static void run_uops(struct program *p, unsigned int vm, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		uint64_t r = sched_next(&p->rng);
		struct sim_uop op = {
			.pc = 0x100000 + vm * 0x10000ull + (r & 0xff0),
			.vaddr = 0x100000 + (r >> 20 & 0xfff8),
			.latency = 1 + (uint32_t)(r >> 8 & 7),
			.type = (uint8_t)(r >> 12 & 3),
			.flags = (uint32_t)(r >> 16 & (SIM_UOP_L1D_REFILL | SIM_UOP_MISPRED)),
		};

		hv_run(&op, 1);
		p->uops_run++;
	}
}

/* The virtual PMU line is observed once a pending PMUIRQ has been taken (its latency is the
 * model's choice, hv_settle), and only at some steps: at the others a delayed interrupt may still
 * be in flight when the schedule switches vCPUs. */
static void read_all(struct program *p, unsigned int nr, const struct hv_vcpu *vc, bool settle)
{
	for (unsigned int n = 0; n < nr; n++)
		observe(p, guest_mrs(sched_evcntr(n)));
	observe(p, guest_read(PMCCNTR_EL0));
	observe(p, guest_read(PMOVSSET_EL0));
	if (p->lx) {
		observe(p, guest_read(PMBPTR_EL1));
		observe(p, guest_read(PMBSR_EL1));
		observe(p, guest_read(PMSCR_EL1));
		observe(p, guest_read(PMSICR_EL1));
	}
	if (!settle)
		return;
	hv_settle();
	observe(p, vc->irq_level);
}

/* An SPE step: start a session, run the profiled loop, or stop the session and keep what the
 * buffer holds (lx_stop: disable, drain, read up to PMBPTR_EL1). */
static void spe_step(struct program *p, struct hv_vcpu *vc, uint64_t r)
{
	unsigned int n = 50 + (unsigned int)(r >> 16 & 255);

	switch (r % 4) {
	case 0:
		if (!p->spe_on) {
			p->lx->pmscr = V_PMSCR_E1SPE | (r >> 8 & 1 ? V_PMSCR_E0SPE : 0) |
				       (r >> 9 & 1 ? V_PMSCR_CX : 0);
			lx_start(p->lx);
			p->spe_on = true;
		}
		break;
	case 3:
		if (p->spe_on) {
			lx_stop(p->lx);
			p->spe_on = false;
		}
		break;
	default:
		lx_run(p->lx, vc, n);
		p->uops_run += n;
		break;
	}
}

/* One step of the vCPU's program: the random choices come from its own generator only, so the
 * program is the same whatever the schedule. */
static void step(struct program *p, unsigned int vm, struct hv_vcpu *vc)
{
	uint64_t r = sched_next(&p->rng);
	unsigned int nr = vm_counters[vm], n = (unsigned int)(r >> 8) % nr;

	switch (r % 8) {
	case 0:
		guest_msr(sched_evtyper(n),
			  events[(r >> 16) % (sizeof(events) / sizeof(events[0]))] |
				  (r >> 24 & 1 ? VPERF_BIT(30) : 0));
		break;
	case 1:
		guest_write(PMCNTENSET_EL0, r >> 32);
		guest_write(PMINTENSET_EL1, p->lx ? 0 : r >> 40);
		guest_write(PMCR_EL0, PMCR_E | (r >> 20 & 1 ? PMCR_LP : 0));
		break;
	case 2:
		guest_msr(sched_evcntr(n), r >> 20 & 1 ? 0xfffffff0ull + (r >> 24 & 0xf) : r >> 40);
		break;
	case 3:
		guest_write(PMSWINC_EL0, r >> 32);
		break;
	case 4:
	case 5:
	case 6:
		if (p->lx)
			spe_step(p, vc, r >> 3);
		else if (r % 8 == 6)
			run_uops(p, vm, 1 + (unsigned int)(r >> 16 & 15));
		else
			guest_write(PMOVSCLR_EL0, r >> 32);
		break;
	default:
		run_uops(p, vm, 1 + (unsigned int)(r >> 16 & 15));
		break;
	}
	read_all(p, nr, vc, r >> 63);
}

/* The end of the program: a running session is stopped, so its buffer is complete. */
static void finish(struct program *p)
{
	if (p->lx && p->spe_on) {
		lx_stop(p->lx);
		p->spe_on = false;
	}
}

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
static void init_world(uint64_t seed, struct program *progs, struct lx_spe *lx)
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
static void run_alone(uint64_t seed, unsigned int i, const bool *put_before, struct program *out)
{
	static struct program progs[NR_VCPUS];
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
		step(&progs[i], vm_of[i], &hv.vcpu[i]);
	}
	finish(&progs[i]);
	hv_leave(0);
	*out = progs[i];
}

/* The vCPU running on cpu, if any, is about to be put. */
static void note_put(struct program *progs, unsigned int cpu)
{
	if (hv.running[cpu]) {
		struct program *p = &progs[hv.running[cpu] - hv.vcpu];

		p->put_before[p->next_step] = true;
	}
}

static void run_shared(uint64_t seed, struct program *progs)
{
	uint64_t sched = seed ^ 0xa5a5a5a5a5a5a5a5ull;
	unsigned int done = 0;

	init_world(seed, progs, lx_shared);
	while (done < NR_VCPUS) {
		uint64_t r = sched_next(&sched);
		unsigned int i = (unsigned int)(r % NR_VCPUS), cpu = (unsigned int)(r >> 8 & 1);
		unsigned int burst = 1 + (unsigned int)((r >> 16) % 3);
		struct program *p = &progs[i];

		if (p->next_step == STEPS || hv.running[cpu ^ 1] == &hv.vcpu[i])
			continue;
		if (hv.running[cpu] != &hv.vcpu[i])
			note_put(progs, cpu);
		hv_enter(&hv.vcpu[i], cpu);
		for (unsigned int s = 0; s < burst && p->next_step < STEPS; s++, p->next_step++)
			step(p, vm_of[i], &hv.vcpu[i]);
		if (p->next_step == STEPS) {
			finish(p);
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

/* Every record in the buffer is the VM's own: decodable, its PC in the VM's code. */
static unsigned int own_records(const struct lx_spe *lx, uint64_t seed, unsigned int i)
{
	uint64_t code = 0x100000 + lx->vm * 0x10000ull;
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	unsigned int n = 0;

	vperf_spe_iter_init(&it, lx->data, lx->len);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		uint64_t pc = rec.addr[VPERF_SPE_ADDR_PC].addr;

		if (pc != V_LOOP_PC(lx->vm) && (pc < code || pc >= code + 0x1000))
			fail_msg("seed %llu vcpu %u: a record of PC 0x%llx in VM %u's buffer",
				 (unsigned long long)seed, i, (unsigned long long)pc, lx->vm);
		n++;
	}
	if (it.nerrors)
		fail_msg("seed %llu vcpu %u: %u undecodable bytes in the buffer",
			 (unsigned long long)seed, i, it.nerrors);
	return n;
}

static void same_buffer(const struct lx_spe *shared, const struct lx_spe *alone, uint64_t seed,
			unsigned int i)
{
	own_records(shared, seed, i);
	if (shared->len != alone->len || memcmp(shared->data, alone->data, shared->len))
		fail_msg("seed %llu vcpu %u: its buffer holds %zu bytes shared, %zu alone%s",
			 (unsigned long long)seed, i, shared->len, alone->len,
			 shared->len == alone->len ? ", not the same" : "");
	if (shared->irqs || shared->spurious || shared->fatal)
		fail_msg("seed %llu vcpu %u: %u buffer interrupts, %u spurious, %u fatal",
			 (unsigned long long)seed, i, shared->irqs, shared->spurious,
			 shared->fatal);
}

static void check_schedule(uint64_t seed, uint64_t *records, uint64_t *host_records)
{
	static struct program shared[NR_VCPUS], alone;
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
		if (alone.nr_obs != shared[i].nr_obs)
			fail_msg("seed %llu vcpu %u: %u observations shared, %u alone",
				 (unsigned long long)seed, i, shared[i].nr_obs, alone.nr_obs);
		for (unsigned int k = 0; k < alone.nr_obs; k++)
			if (alone.obs[k] != shared[i].obs[k])
				fail_msg("seed %llu vcpu %u: observation %u is 0x%llx shared, "
					 "0x%llx alone",
					 (unsigned long long)seed, i, k,
					 (unsigned long long)shared[i].obs[k],
					 (unsigned long long)alone.obs[k]);
		if (shared[i].lx) {
			same_buffer(shared[i].lx, &lx_alone, seed, i);
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
