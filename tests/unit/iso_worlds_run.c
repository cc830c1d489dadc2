// SPDX-License-Identifier: MIT
/*
 * A world of test_isolation_worlds run (iso_worlds.h): brought up in its order (pCPUs, VMs, a
 * late pCPU), its schedule run shared (bursts of each vCPU's program, puts, migrations, the
 * hosts' code between vCPUs, power-downs), then each vCPU run alone on the same pCPUs with the
 * same puts (a second-range VM's in the trapped partition), and what each observes compared
 * (iso_prog.h): check_world, the whole property on one world.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iso_worlds.h"
#include "sched_util.h"

#define SPE_BUF	     0x4000ull /* bytes of buffer each session uses: never full in one world */
#define HOST_EL1_OPS 3	       /* instructions an EL1 host runs between vCPUs (host_el1) */

struct lx_spe lx_shared[W_MAX_VCPUS], lx_alone;
struct w_run shared_run, alone_run;

bool failed(struct w_result *res, enum w_fail f, const char *fmt, ...)
{
	va_list ap;

	if (res->fail)
		return true;
	res->fail = f;
	va_start(ap, fmt);
	vsnprintf(res->msg, sizeof(res->msg), fmt, ap);
	va_end(ap);
	return true;
}

static bool host_may_count(const struct vperf_vm_config *cfg)
{
	/* MDCR_EL2.HPME: the host's in HV, ALL and OFF, 0 in SELF (docs/vpmu.md). */
	return cfg->pmu_mode != VPERF_PMU_SELF;
}

/* Stage 1 and 2 of a VM whose guest owns a Profiling Buffer, mapped up front
 * (test_isolation_mixed says why). */
static void map_buffer(unsigned int v)
{
	hv_vm_ram(v, V_BUF_IPA, V_BUF_PA(v), V_BUF_SIZE);
	sim_mem_map_s1(SIM_REGIME_EL10, (uint16_t)(v + 1), V_BUF_VA, V_BUF_IPA, V_BUF_SIZE,
		       SIM_PERM_RW);
	sim_mem_map_s2((uint16_t)(v + 1), V_BUF_IPA, V_BUF_PA(v), V_BUF_SIZE, SIM_PERM_RW);
}

/* pCPU x up, and its host's own share of it; alone (only >= 0) only one the shared world
 * brought up, which must be accepted again. */
static void cpu_up(const struct world *w, struct w_run *run, unsigned int x, int only,
		   struct w_result *res)
{
	unsigned int cur = sim_current_cpu(); /* a vCPU may run there (a late pCPU) */
	int rc;

	if (!w->cpu[x].present || (only >= 0 && !shared_run.cpu_up[x]))
		return;
	rc = hv_pcpu_up(x, &w->cpu[x].pc);
	if (only < 0) {
		check_pcpu_rc(&w->cpu[x], rc, run, w, x, res);
		res->cpus_up += rc == VPERF_OK;
		res->cpus_refused += rc != VPERF_OK;
		if (w->cpu[x].pc.host_first_range) {
			res->first_up += rc == VPERF_OK;
			res->first_refused += rc != VPERF_OK;
		}
	} else if (rc != VPERF_OK) {
		failed(res, WF_REFUSAL, "pCPU %u refused alone (%d)", x, rc);
	}
	run->cpu_up[x] = rc == VPERF_OK;
	if (rc == VPERF_OK)
		host_start(w, x);
	sim_set_cpu(cur);
}

/* Bring the world up: the model, then pCPUs and VMs in the world's order (a late pCPU: later). Alone (only >= 0):
 * only that vCPU's VM, and only the pCPUs the shared world brought up. */
static void bring_up(const struct world *w, struct w_run *run, int only, struct w_result *res)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];

	memset(run, 0, sizeof(*run));
	for (unsigned int c = 0; c < SIM_MAX_CPUS; c++)
		if (c < w->nr_cpus)
			cfgs[c] = w->cpu[c].pe;
		else
			sim_spe_default_config(&cfgs[c], 1);
	hv_init_model(cfgs);
	hv.e2h |= w->e2h; /* HV_E2H=1 makes every world a VHE one */
	for (unsigned int k = 0; k < w->nr_order; k++) {
		unsigned int x = w->order[k] & ~W_ORDER_VM;

		if (w->order[k] & W_ORDER_VM) {
			const struct w_vm *m = &w->vm[x];
			int rc;

			if (!m->present || (only >= 0 && w->vcpu_vm[only] != x))
				continue;
			if (guest_buffer(&m->cfg))
				map_buffer(x);
			rc = hv_vm(x, &m->cfg);
			if (only < 0) {
				check_vm_rc(m, rc, run, w, x, res);
				res->vms_up += rc == VPERF_OK;
				res->vms_refused += rc != VPERF_OK;
				if (m->cfg.partition == VPERF_PART_SECOND &&
				    m->cfg.pmu_mode != VPERF_PMU_OFF) {
					res->second_up += rc == VPERF_OK;
					res->second_refused += rc != VPERF_OK;
				}
			}
			run->vm_up[x] = rc == VPERF_OK;
		} else if (w->late != x + 1) {
			cpu_up(w, run, x, only, res);
		}
	}
	sim_set_cpu(0);
}

static void prog_init(const struct world *w, struct w_run *run, unsigned int i, struct lx_spe *lx)
{
	struct iso_prog *p = &run->prog[i];
	const struct w_vm *m = &w->vm[w->vcpu_vm[i]];
	struct hv_vcpu *vc = hv_vcpu(i, w->vcpu_vm[i]);
	unsigned int flavour;

	vc->put = m->put;
	memset(p, 0, sizeof(*p));
	p->rng = w->seed * 0x9e3779b97f4a7c15ull + i + 1;
	p->vm = w->vcpu_vm[i];
	p->nr_counters = m->cfg.pmu_mode == VPERF_PMU_OFF ? 0 : m->cfg.nr_counters;
	p->wide = true;
	/* A quarter of the guests never touch their PMU, a quarter profile from their first
	 * step on, the others program it as they go. */
	flavour = (unsigned int)(sched_next(&p->rng) >> 32) % 4;
	p->quiet = flavour == 0 && !guest_buffer(&m->cfg);
	p->profiles = flavour == 1;
	if (guest_buffer(&m->cfg)) {
		*lx = (struct lx_spe){ .vm = p->vm, .size = SPE_BUF };
		p->lx = lx;
	}
}

/* An EL1 host's own code between vCPUs (host_el1), after the put: its instructions. */
static unsigned int host_el1_run(void)
{
	const struct sim_uop op = { .pc = 0x7000, .latency = 2, .type = SIM_UOP_OTHER };

	sim_set_el(1);
	for (unsigned int i = 0; i < HOST_EL1_OPS; i++)
		hv_run(&op, 1);
	sim_set_el(2);
	return HOST_EL1_OPS;
}

/* The vCPU running on cpu, if any, is about to be put. */
static void note_put(struct w_run *run, unsigned int cpu)
{
	if (hv.running[cpu]) {
		struct iso_prog *p = &run->prog[hv.running[cpu] - hv.vcpu];

		p->put_before[p->next_step] = true;
	}
}

/* vCPU i onto cpu: a vCPU running elsewhere is put there first (a migration). */
static void move_to(struct w_run *run, unsigned int i, unsigned int cpu, struct w_result *res)
{
	struct hv_vcpu *vc = &hv.vcpu[i];

	sim_set_cpu(cpu);
	if (hv.running[cpu] == vc)
		return;
	for (unsigned int c = 0; c < SIM_MAX_CPUS; c++)
		if (c != cpu && hv.running[c] == vc) {
			note_put(run, c);
			hv_leave(c);
		}
	if (run->prog[i].next_step && vc->cpu != cpu)
		res->migrations++;
	note_put(run, cpu);
	hv_enter(vc, cpu);
}

/* The late pCPU, in the shared run: where each vCPU's program had got to, for its run alone. */
static void late_up(const struct world *w, struct w_run *run, struct w_result *res)
{
	cpu_up(w, run, w->late - 1u, -1, res);
	res->lates += run->cpu_up[w->late - 1];
	run->late_seen = true;
	for (unsigned int i = 0; i < w->nr_vcpus; i++)
		run->late_step[i] = run->prog[i].next_step;
}

static bool active(const struct world *w, const struct w_run *run, unsigned int i)
{
	return w->vcpu_present[i] && run->vm_up[w->vcpu_vm[i]];
}

static void run_shared(const struct world *w, struct w_result *res)
{
	struct w_run *run = &shared_run;

	if (iso_trace)
		printf("  shared:\n");
	bring_up(w, run, -1, res);
	for (unsigned int i = 0; i < w->nr_vcpus; i++)
		if (active(w, run, i))
			prog_init(w, run, i, &lx_shared[i]);
	for (unsigned int k = 0; k < w->nr_slots; k++) {
		const struct w_slot *s = &w->slot[k];
		struct iso_prog *p = &run->prog[s->vcpu];
		const struct w_vm *m = &w->vm[w->vcpu_vm[s->vcpu]];
		uint64_t uops;

		if (w->late && k == w->late_at)
			late_up(w, run, res);
		if (!w->slot_present[k] || !active(w, run, s->vcpu) || !run->cpu_up[s->cpu] ||
		    p->next_step >= w->steps)
			continue;
		move_to(run, s->vcpu, s->cpu, res);
		uops = p->uops_run;
		for (unsigned int b = 0; b < s->burst && p->next_step < w->steps; b++) {
			p->cpu_at[p->next_step] = s->cpu;
			iso_step(p, &hv.vcpu[s->vcpu]);
			p->next_step++;
			res->steps++;
		}
		/* An EL1 host's first range counts every guest's EL1 and EL0 (its own switch
		 * would exclude them: docs/vpmu.md, "The second range"). */
		if (host_may_count(&m->cfg) || w->cpu[s->cpu].pc.host_first_range)
			run->host_uops[s->cpu] += p->uops_run - uops;
		if (s->leave) {
			note_put(run, s->cpu);
			hv_leave(s->cpu);
			vs_host_run(4); /* the host's own code, profiled into its own buffer */
			if (w->cpu[s->cpu].pc.host_el1)
				run->host_uops[s->cpu] += host_el1_run();
			if (s->down)
				power_down(w, s->cpu, res);
		}
	}
	/* The end: each vCPU with a session running stops it where it is or last ran. */
	for (unsigned int i = 0; i < w->nr_vcpus; i++) {
		struct iso_prog *p = &run->prog[i];

		if (!active(w, run, i) || !p->spe_on)
			continue;
		move_to(run, i, hv.vcpu[i].cpu, res);
		p->cpu_at[p->next_step] = (uint8_t)hv.vcpu[i].cpu;
		iso_finish(p);
	}
	for (unsigned int c = 0; c < SIM_MAX_CPUS; c++)
		hv_leave(c);
}

/* The world a second-range VM's vCPU runs alone in: the trapped partition, on the same pCPUs
 * whose hosts keep the second range instead (HPMN = N - host - agent >= the VM's N + 1). What a
 * guest observes does not depend on where vperf places its counters (docs/vpmu.md, "The second
 * range": every access is the trapped partition's, translated), so the reference is the
 * partition the second range's translation must agree with, not the second range itself (a
 * translation wrong the same way twice, such as the cycle counter's event, would hide there). */
static const struct world *alone_world(const struct world *w, unsigned int i, struct world *ref)
{
	const struct vperf_vm_config *cfg = &w->vm[w->vcpu_vm[i]].cfg;

	if (cfg->partition != VPERF_PART_SECOND || cfg->pmu_mode == VPERF_PMU_OFF)
		return w;
	*ref = *w;
	ref->vm[w->vcpu_vm[i]].cfg.partition = VPERF_PART_TRAPPED;
	for (unsigned int c = 0; c < w->nr_cpus; c++)
		ref->cpu[c].pc.host_first_range = ref->cpu[c].pc.host_el1 = false;
	return ref;
}

/* Alone: the same program, the same steps on the same pCPUs, the same puts. */
static void run_alone(const struct world *shared, unsigned int i, struct w_result *res)
{
	if (iso_trace)
		printf("  alone: vCPU %u\n", i);
	static struct world ref;
	const struct world *w = alone_world(shared, i, &ref);
	const struct iso_prog *sp = &shared_run.prog[i];
	struct iso_prog *p = &alone_run.prog[i];
	unsigned int n = sp->next_step, cpu;

	bring_up(w, &alone_run, (int)i, res);
	prog_init(w, &alone_run, i, &lx_alone);
	cpu = sp->cpu_at[0];
	for (unsigned int s = 0; s <= n; s++) {
		/* A late pCPU comes up where it came up in the shared run. */
		if (shared_run.late_seen && shared_run.late_step[i] == s)
			cpu_up(w, &alone_run, w->late - 1u, (int)i, res);
		if (s == 0)
			hv_enter(&hv.vcpu[i], cpu);
		if (s == n && !(p->lx && p->spe_on))
			break;
		if (sp->put_before[s]) {
			hv_leave(cpu);
			cpu = sp->cpu_at[s];
			hv_enter(&hv.vcpu[i], cpu);
		}
		if (s < n)
			iso_step(p, &hv.vcpu[i]);
		else
			iso_finish(p);
		p->next_step = s + 1;
	}
	hv_leave(cpu);
}

/* Every VM read one view of the common events in the shared run, whatever pCPUs its vCPUs ran
 * on (the events every pCPU counts, through its filter: docs/vpmu.md), even where the pCPUs'
 * own differ (draw_stalls). */
static void check_pmceid_views(const struct world *w, struct w_result *res)
{
	for (unsigned int i = 0; i < w->nr_vcpus; i++)
		for (unsigned int j = 0; j <= i; j++) {
			const char *diff;

			if (w->vcpu_vm[i] != w->vcpu_vm[j])
				continue;
			diff = iso_pmceid_view(&shared_run.prog[i], &shared_run.prog[j]);
			if (diff && failed(res, WF_OBS, "vCPUs %u and %u (VM %u): %s", j, i,
					   w->vcpu_vm[i], diff))
				return;
		}
}

/* The whole property on one world; res says how it went. */
void check_world(const struct world *w, struct w_result *res)
{
	memset(res, 0, sizeof(*res));
	run_shared(w, res);
	check_hosts(w, res);
	check_pmceid_views(w, res);
	for (unsigned int i = 0; i < w->nr_vcpus && !res->fail; i++) {
		const struct iso_prog *sp = &shared_run.prog[i];
		const char *diff;

		if (!active(w, &shared_run, i) || !sp->next_step)
			continue;
		res->vcpus++;
		res->second_vcpus += w->vm[w->vcpu_vm[i]].cfg.partition == VPERF_PART_SECOND &&
				     w->vm[w->vcpu_vm[i]].cfg.pmu_mode != VPERF_PMU_OFF;
		/* XENPMU_MODE_ALL counts everyone by its policy: not compared. */
		if (w->vm[w->vcpu_vm[i]].cfg.pmu_mode == VPERF_PMU_ALL)
			continue;
		run_alone(w, i, res);
		diff = iso_diff_obs(sp, &alone_run.prog[i]);
		if (diff) {
			failed(res, WF_OBS, "vCPU %u (VM %u): %s", i, w->vcpu_vm[i], diff);
			break;
		}
		if (sp->lx) {
			unsigned int n;

			diff = iso_diff_buffer(sp->lx, &lx_alone);
			if (diff) {
				failed(res, WF_BUFFER, "vCPU %u (VM %u): %s", i, w->vcpu_vm[i],
				       diff);
				break;
			}
			iso_own_records(sp->lx, &n);
			res->records += n;
		}
	}
}
