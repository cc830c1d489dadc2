// SPDX-License-Identifier: MIT
/*
 * Isolation on drawn worlds: each seed draws a whole system (world.h: pCPUs each with its own
 * PMU/SPE version, counters, features and host split; VMs each with its own XENPMU mode,
 * partition, N, event filter, vSPE policy, virtual PPIs and put; their vCPUs; the order pCPUs and
 * VMs are brought up in, interleaved) and a schedule on it (bursts of program steps of a vCPU on a
 * pCPU, puts, migrations with the flush a lazy put asks for, the host's own code between
 * vCPUs, power-downs of a pCPU after a put: vperf_pcpu_down, the PE's PMU and SPE reset to UNKNOWN
 * values, vperf_pcpu_init again, the host's own state saved and restored around it). Every vCPU runs its own seeded program (iso_prog.h, the wider instruction set); what
 * it observes must equal what the same program observes alone: in a world with the same pCPUs,
 * brought up in the same order around its VM, where it is the only vCPU, run on the same
 * sequence of pCPUs with the same puts (a pCPU's width or version legitimately shows). The
 * hosts' counters must count exactly what the policies let them see, the hosts' buffers hold
 * only what they may profile, and each refusal of vperf_pcpu_init / vperf_vm_init must be one
 * the API documents (vperf.h); a refused pCPU or VM is then not used.
 *
 * A failing world is shrunk (pCPUs, VMs, vCPUs, program steps and schedule slots removed,
 * policies simplified, each candidate run in a child process, kept while it fails the same way)
 * and printed with the string that reproduces it: HV_WORLD=<that string>.
 *
 * HV_SCHEDULES=n runs n worlds (default WORLDS) from HV_SEED0 (default 1): make soak runs 10^6
 * in slices. A vCPU of a VM in XENPMU_MODE_ALL counts the others by its policy: only what the
 * others observe is compared there.
 *
 * This file holds the cmocka entry points and the summary; the oracle, the hosts, the runs and
 * the shrink are in iso_worlds_*.c (iso_worlds.h), the worlds in world.c (world.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmocka_wrap.h"
#include "iso_worlds.h"
#include "sched_util.h"

#define WORLDS 10000

/* A direct VM up on pCPUs up whose common events differ (PMCEID0/1_EL0: the stall events of
 * draw_stalls, SPE's SAMPLE_* events): it must still read one view (check_pmceid_views). */
static bool direct_on_mixed_events(const struct world *w)
{
	bool direct = false, mixed = false;
	int first = -1;

	for (unsigned int v = 0; v < w->nr_vms; v++)
		direct |= shared_run.vm_up[v] && w->vm[v].cfg.partition == VPERF_PART_DIRECT &&
			  w->vm[v].cfg.pmu_mode != VPERF_PMU_OFF;
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		if (!shared_run.cpu_up[c])
			continue;
		if (first < 0)
			first = (int)c;
		for (unsigned int i = 0; i < 2; i++)
			mixed |= hv.pcpu[c].caps.pmceid[i] != hv.pcpu[first].caps.pmceid[i];
	}
	return direct && mixed;
}

/* What the draws of world_hyp.c put in the summary: worlds with a PMUv3p9 pCPU up, those with
 * an instruction counter, those with a direct VM up on one (FEAT_FGT2 everywhere, or refused);
 * worlds with a VM up whose hypervisor writes MDCR_EL2 itself, and those whose hypervisor gives
 * vperf debug or fine-grained traps of its own. */
struct hyp_counts {
	unsigned int v3p9, icntr, direct_v3p9, hyp, own;
};

static void count_hyp(const struct world *w, struct hyp_counts *k)
{
	bool v3p9 = false, icntr = false, direct = false, hyp = false, own = false, vms = false;

	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		if (!shared_run.cpu_up[c])
			continue;
		v3p9 |= w->cpu[c].pe.pmuver == 9;
		icntr |= w->cpu[c].pe.icntr;
		hyp |= w->cpu[c].pc.hyp_writes_mdcr;
		own |= w->cpu[c].pc.host_mdcr || w->cpu[c].pc.host_hdfgrtr ||
		       w->cpu[c].pc.host_hdfgwtr;
	}
	for (unsigned int v = 0; v < w->nr_vms; v++) {
		vms |= shared_run.vm_up[v];
		direct |= shared_run.vm_up[v] && w->vm[v].cfg.partition == VPERF_PART_DIRECT &&
			  w->vm[v].cfg.pmu_mode != VPERF_PMU_OFF;
	}
	k->v3p9 += v3p9;
	k->icntr += icntr;
	k->direct_v3p9 += v3p9 && direct;
	k->hyp += hyp && vms;
	k->own += own && vms;
}

static void test_isolation_worlds(void **state)
{
	uint64_t first = sched_env_u64("HV_SEED0", 1), n = sched_env_u64("HV_SCHEDULES", WORLDS);
	const char *one = getenv("HV_WORLD");
	struct w_shrink s = { 0 };
	struct w_result res, sum = { 0 };
	unsigned int hv_direct_after_bigger = 0, vspe_mixed_ids = 0, second_worlds = 0,
		     vhe_spe_worlds = 0, direct_mixed_events = 0;
	struct hyp_counts hyp = { 0 };

	(void)state;
	setvbuf(stdout, NULL, _IOLBF, 0);
	iso_trace = sched_env_u64("HV_TRACE", 0) != 0;
	if (one && *one) {
		assert_true(world_parse(one, &first, &s));
		n = 1;
	}
	for (uint64_t seed = first; seed < first + n; seed++) {
		struct world w;

		world_draw(seed, &w);
		world_apply(&w, &s);
		check_world(&w, &res);
		if (one && *one)
			world_describe(&w);
		if (res.fail)
			report_failure(seed, &s, &res);
		sum.cpus_up += res.cpus_up;
		sum.cpus_refused += res.cpus_refused;
		sum.vms_up += res.vms_up;
		sum.vms_refused += res.vms_refused;
		sum.vcpus += res.vcpus;
		sum.migrations += res.migrations;
		sum.downs += res.downs;
		sum.lates += res.lates;
		sum.steps += res.steps;
		sum.records += res.records;
		sum.host_records += res.host_records;
		sum.first_up += res.first_up;
		sum.first_refused += res.first_refused;
		sum.second_up += res.second_up;
		sum.second_refused += res.second_refused;
		sum.second_vcpus += res.second_vcpus;
		for (unsigned int c = 0; c < w.nr_cpus; c++)
			if (w.cpu[c].present && w.cpu[c].pc.host_first_range) {
				second_worlds++;
				break;
			}
		/* A VHE world with a vSPE VM up: vperf names its PMSCR_EL1 PMSCR_EL12. */
		for (unsigned int v = 0; v < w.nr_vms && w.e2h; v++)
			if (shared_run.vm_up[v] && w.vm[v].cfg.spe) {
				vhe_spe_worlds++;
				break;
			}
		/* A VM with a vSPE up beside pCPUs whose ArchInst, LDS, ERnd, Interval or CountSize
		 * differ (world.c, draw_spe_ids; FnE differs with the PMSVer): the configurations
		 * vperf's one view covers. */
		for (unsigned int v = 0; v < w.nr_vms; v++)
			if (shared_run.vm_up[v] && guest_buffer(&w.vm[v].cfg) &&
			    spe_ids_vary(&shared_run, &w, 0xf0f38u, 0)) {
				vspe_mixed_ids++;
				break;
			}
		direct_mixed_events += direct_on_mixed_events(&w);
		count_hyp(&w, &hyp);
		for (unsigned int a = 0; a < w.nr_vms; a++)
			for (unsigned int b = 0; b < w.nr_vms; b++)
				if (shared_run.vm_up[a] && shared_run.vm_up[b] &&
				    w.vm[a].cfg.partition == VPERF_PART_DIRECT &&
				    w.vm[a].cfg.pmu_mode == VPERF_PMU_HV &&
				    w.vm[b].cfg.partition == VPERF_PART_TRAPPED &&
				    w.vm[b].cfg.nr_counters > w.vm[a].cfg.nr_counters) {
					hv_direct_after_bigger++;
					a = b = W_MAX_VMS;
				}
	}
	print_message("%llu worlds from seed %llu: %u pCPUs up, %u refused; %u VMs up, %u refused; "
		      "%u vCPUs compared with their runs alone, %u steps, %u migrations; %llu "
		      "guest SPE records, %llu host records; %u worlds with a direct HV VM beside "
		      "a trapped VM with more counters; %u with a vSPE VM on pCPUs whose SPE "
		      "ArchInst, LDS, ERnd, Interval or CountSize differ\n",
		      (unsigned long long)n, (unsigned long long)first, sum.cpus_up,
		      sum.cpus_refused, sum.vms_up, sum.vms_refused, sum.vcpus, sum.steps,
		      sum.migrations, (unsigned long long)sum.records,
		      (unsigned long long)sum.host_records, hv_direct_after_bigger, vspe_mixed_ids);
	print_message("VHE: %u worlds with HCR_EL2.E2H = 1 and a vSPE VM up\n", vhe_spe_worlds);
	print_message("common events: %u worlds with a direct VM up on pCPUs whose PMCEID0/1_EL0 "
		      "differ\n",
		      direct_mixed_events);
	print_message(
		"newer PMU: %u worlds with a PMUv3p9 pCPU up, %u with an instruction counter, "
		"%u with a direct VM up on a PMUv3p9 pCPU\n",
		hyp.v3p9, hyp.icntr, hyp.direct_v3p9);
	print_message("hypervisor: %u worlds with VMs up whose hypervisor writes MDCR_EL2 itself, "
		      "%u whose hypervisor has debug or fine-grained traps of its own\n",
		      hyp.hyp, hyp.own);
	print_message(
		"power-downs: %u of a pCPU after a put (vperf_pcpu_down, the PE's PMU and SPE "
		"reset, vperf_pcpu_init again); %u pCPUs brought up late, after vCPUs ran\n",
		sum.downs, sum.lates);
	print_message("second range: %u worlds with an EL1 host keeping the first range: %u such "
		      "pCPUs up, %u refused; %u second-range VMs with a vPMU up, %u refused; %u "
		      "of their vCPUs compared with their runs alone (trapped)\n",
		      second_worlds, sum.first_up, sum.first_refused, sum.second_up,
		      sum.second_refused, sum.second_vcpus);
	printf("%llu worlds\n", (unsigned long long)n);
}

/* The reproduction string gives back the shrink it was printed from, and a world with every
 * pCPU removed runs nothing and fails nothing (the shrink's removals are real). */
static void test_world_string(void **state)
{
	const struct w_shrink s = { .cpus = 0x5,
				    .vms = 0x21,
				    .vcpus = 0x80,
				    .slots = { 0xfedcba9876543210ull, 0x1ull },
				    .steps = 7,
				    .vm_simple = 0x123456,
				    .cpu_simple = 0x89abcdef,
				    .ups = { 0x8000000000000001ull, 0x42ull } };
	struct w_shrink back, none = { .cpus = 0xff };
	struct world w;
	struct w_result res;
	uint64_t seed;
	char text[200];

	(void)state;
	world_format(text, sizeof(text), 12345678901ull, &s);
	assert_true(world_parse(text, &seed, &back));
	assert_int_equal(seed, 12345678901ull);
	assert_int_equal(back.cpus, s.cpus);
	assert_int_equal(back.vms, s.vms);
	assert_int_equal(back.vcpus, s.vcpus);
	assert_int_equal(back.slots[0], s.slots[0]);
	assert_int_equal(back.slots[1], s.slots[1]);
	assert_int_equal(back.steps, s.steps);
	assert_int_equal(back.vm_simple, s.vm_simple);
	assert_int_equal(back.cpu_simple, s.cpu_simple);
	assert_int_equal(back.ups[0], s.ups[0]);
	assert_int_equal(back.ups[1], s.ups[1]);
	assert_true(world_parse("42", &seed, &back));
	assert_int_equal(seed, 42);
	assert_false(world_parse("42:cpus=1", &seed, &back));
	assert_true(world_parse("42:cpus=1,vms=0,vcpus=0,slots=0:0,steps=0,vs=0,cs=0", &seed,
				&back)); /* a string from before power-downs were drawn */
	assert_int_equal(back.ups[0] | back.ups[1], 0);
	world_draw(42, &w);
	world_apply(&w, &none);
	check_world(&w, &res);
	assert_int_equal(res.fail, WF_NONE);
	assert_int_equal(res.cpus_up + res.steps, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_world_string),
		cmocka_unit_test(test_isolation_worlds),
	};

	return cmocka_run_group_tests_name("isolation_worlds", tests, NULL, NULL);
}
