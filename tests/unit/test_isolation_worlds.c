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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmocka_wrap.h"
#include "iso_prog.h"
#include "sched_util.h"
#include "vspe_util.h"
#include "world.h"

#include <arch/barrier.h>
#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>
#include <vperf/spe_regs.h>

#define WORLDS	     10000
#define SPE_BUF	     0x4000ull /* bytes of buffer each session uses: never full in one world */
#define HOST_EVENT   0x08      /* the host's counter: INST_RETIRED at EL1 and EL0 */
#define HOST_CYCLES  0x11      /* an EL1 host's second counter: CPU_CYCLES, as its PMCCNTR_EL0 */
#define HOST_EL1_OPS 3	       /* instructions an EL1 host runs between vCPUs (host_el1) */

/* Why a world failed, for the shrink to keep to the same kind of failure. */
enum w_fail {
	WF_NONE,
	WF_OBS,	    /* a vCPU observed something else than alone */
	WF_BUFFER,  /* a guest's SPE buffer differs, or holds another's record */
	WF_HOST,    /* a host's counter or buffer saw what it may not */
	WF_MODEL,   /* the model caught a hypervisor error, or an interrupt storm */
	WF_REFUSAL, /* a refusal the API does not document, or an acceptance it forbids */
	WF_CRASH,   /* the run stopped (an assertion of the harness, a signal) */
};

struct w_result {
	enum w_fail fail;
	char msg[320];
	/* For the summary. */
	unsigned int cpus_up, cpus_refused, vms_up, vms_refused, vcpus, migrations, steps, downs;
	unsigned int lates; /* late pCPUs brought up (draw_late) */
	uint64_t records, host_records;
	/* The second range: pCPUs whose host keeps the first range up and refused, VMs in it. */
	unsigned int first_up, first_refused, second_up, second_refused, second_vcpus;
};

struct w_run {
	struct iso_prog prog[W_MAX_VCPUS];
	bool cpu_up[W_MAX_CPUS], vm_up[W_MAX_VMS];
	uint64_t host_uops[W_MAX_CPUS]; /* instructions of vCPUs whose host may count them */
	/* The late pCPU came up (accepted or not) before each vCPU's step late_step[i]. */
	bool late_seen;
	unsigned int late_step[W_MAX_VCPUS];
};

static struct lx_spe lx_shared[W_MAX_VCPUS], lx_alone;
static struct w_run shared_run, alone_run;

static bool failed(struct w_result *res, enum w_fail f, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool failed(struct w_result *res, enum w_fail f, const char *fmt, ...)
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

/* What the VMs up ask of every pCPU's ranges (docs/vpmu.md, "The second range"): a first-range
 * VM (a vPMU in any other partition) a host that does not keep the first range; a second-range
 * VM a host that keeps it, enforces HPMN, and room for its N counters and its cycle counter in
 * [HPMN, EPMN), on PMUv3p5 or later. */
struct w_ranges {
	bool first;	       /* a vPMU VM up outside the second range */
	unsigned int second;   /* the most counters a second-range VM up uses (N + 1), or 0 */
	unsigned int counters; /* the most event counters (N, emu_slots) a vPMU VM up has */
};

static struct w_ranges ranges_up(const struct w_run *run, const struct world *w)
{
	struct w_ranges r = { 0 };

	for (unsigned int v = 0; v < w->nr_vms; v++) {
		const struct vperf_vm_config *cfg = &w->vm[v].cfg;

		if (!run->vm_up[v] || cfg->pmu_mode == VPERF_PMU_OFF)
			continue;
		if (cfg->nr_counters > r.counters)
			r.counters = cfg->nr_counters;
		if (cfg->emu_slots > r.counters)
			r.counters = cfg->emu_slots;
		if (cfg->partition != VPERF_PART_SECOND)
			r.first = true;
		else if (cfg->nr_counters + 1u > r.second)
			r.second = cfg->nr_counters + 1u;
	}
	return r;
}

/* The counters of the second range [HPMN, EPMN) of a pCPU whose host keeps the first range. */
static unsigned int second_room(const struct w_cpu *c, unsigned int cpu)
{
	unsigned int n = hv.pcpu[cpu].caps.nr_counters, used = c->pc.host_counters;

	used += c->pc.agent_counters;
	return n > used ? n - used : 0;
}

/* A pCPU the ranges of the VMs up forbid (vperf must refuse it). */
static const char *range_forbids(const struct w_cpu *c, const struct w_ranges *r, unsigned int cpu)
{
	unsigned int n = hv.pcpu[cpu].caps.nr_counters;
	unsigned int reserved = (unsigned int)c->pc.host_counters + c->pc.agent_counters;
	unsigned int hpmn = c->pc.host_first_range ? c->pc.host_counters : n - reserved;

	if (reserved <= n && hpmn < r->counters)
		return "its first range is smaller than a VM's counters";
	if (r->first && c->pc.host_first_range)
		return "its host keeps the first range, a VM's";
	if (r->second && !c->pc.host_first_range)
		return "its host keeps the second range, a VM's";
	if (r->second && (c->pc.hpmn_unenforced || second_room(c, cpu) < r->second))
		return "HPMN unenforced, or too few counters in its second range";
	if (r->second && c->pe.pmuver < 6)
		return "below PMUv3p5, and a VM is in the second range";
	return NULL;
}

/* vperf_pcpu_init's result against vperf.h: EINVAL when the host and agent ranges do not fit in
 * PMCR_EL0.N (as the PE reads it at EL2: EPMN with FEAT_PMUv3_EXTPMN) or leave HPMN = 0 without
 * FEAT_HPMN0 (HPMN is host_counters where the host keeps the first range) (or a pCPU that cannot
 * give an existing VM its policy: then VMs exist); never OK in those cases, nor where the
 * ranges of the VMs up forbid it. SPE whose buffer the firmware keeps is no SPE to vperf, and
 * counted. */
static void check_pcpu_rc(const struct w_cpu *c, int rc, const struct w_run *run,
			  const struct world *w, unsigned int cpu, struct w_result *res)
{
	unsigned int reserved = (unsigned int)c->pc.host_counters + c->pc.agent_counters;
	unsigned int n = hv.pcpu[cpu].caps.nr_counters;
	bool hpmn_zero = c->pc.host_first_range ? !c->pc.host_counters : reserved == n;
	bool misfit = reserved > n || (hpmn_zero && !c->pe.hpmn0);
	bool spe_el3 = c->pe.pmsver && c->pe.mdcr_el3_nspb_secure;
	struct w_ranges ranges = ranges_up(run, w);
	const char *forbid = range_forbids(c, &ranges, cpu);
	bool vms_exist = false;

	for (unsigned int v = 0; v < w->nr_vms; v++)
		vms_exist |= run->vm_up[v];

	if (rc == VPERF_OK && hv.pcpu[cpu].caps.e2h != hv.e2h)
		failed(res, WF_REFUSAL, "pCPU %u brought up with E2H %u, vperf found %u", cpu,
		       hv.e2h, hv.pcpu[cpu].caps.e2h);
	else if (hv.pcpu[cpu].caps.spe_el3 != spe_el3 || hv.pcpu[cpu].stats.spe_el3 != spe_el3 ||
		 (spe_el3 && hv.pcpu[cpu].caps.pmsver))
		failed(res, WF_REFUSAL,
		       "pCPU %u: SPE of the firmware's %u, vperf found %u (PMSVer %u)", cpu,
		       spe_el3, hv.pcpu[cpu].caps.spe_el3, hv.pcpu[cpu].caps.pmsver);
	else if (rc == VPERF_OK && misfit)
		failed(res, WF_REFUSAL, "pCPU %u accepted with %u reserved of N %u (HPMN0 %u)", cpu,
		       reserved, n, c->pe.hpmn0);
	else if (rc != VPERF_OK && !(rc == VPERF_EINVAL && (misfit || vms_exist)))
		failed(res, WF_REFUSAL, "pCPU %u refused (%d) for no documented reason", cpu, rc);
	else if (rc == VPERF_OK && forbid)
		failed(res, WF_REFUSAL, "pCPU %u accepted: %s", cpu, forbid);
}

static bool guest_buffer(const struct vperf_vm_config *cfg)
{
	return cfg->spe && cfg->spe_buffer != VPERF_SPE_BUF_EL2;
}

/* The pCPUs up with SPE differ in the bits idr_bits of PMSIDR_EL1 or bidr_bits of PMBIDR_EL1. */
static bool spe_ids_vary(const struct w_run *run, const struct world *w, uint64_t idr_bits,
			 uint64_t bidr_bits)
{
	const struct sim_pe_config *first = NULL;

	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		const struct sim_pe_config *pe = &w->cpu[c].pe;

		if (!run->cpu_up[c] || !pe->pmsver)
			continue;
		if (!first)
			first = pe;
		else if (((pe->pmsidr ^ first->pmsidr) & idr_bits) ||
			 ((pe->pmbidr ^ first->pmbidr) & bidr_bits))
			return true;
	}
	return false;
}

/* The pCPUs up with SPE differ in PMBIDR_EL1.Align [3:0] or F [5], or PMSIDR_EL1.MaxSize
 * [15:12] (SPE 4.3.1, 4.3.11): no one view a guest could be shown holds on all of them
 * (docs/vspe.md, "One SPE ID view"). */
static bool spe_ids_differ(const struct w_run *run, const struct world *w)
{
	return spe_ids_vary(run, w, 0xf000u, 0x2fu);
}

/* What the pCPUs up offer a second-range VM. */
struct w_offer {
	bool any, all_first, any_first, unenforced, aarch64_only, spe, host_spe;
	unsigned int pmuver, hpmn, room;
};

static struct w_offer offer_up(const struct w_run *run, const struct world *w)
{
	struct w_offer o = { .all_first = true, .spe = true, .host_spe = true, .pmuver = 15 };

	o.hpmn = o.room = 31;
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		const struct w_cpu *p = &w->cpu[c];
		unsigned int n = hv.pcpu[c].caps.nr_counters;
		unsigned int hpmn = p->pc.host_first_range
					    ? p->pc.host_counters
					    : n - p->pc.host_counters - p->pc.agent_counters;

		if (!run->cpu_up[c])
			continue;
		o.any = true;
		o.all_first &= p->pc.host_first_range;
		o.any_first |= p->pc.host_first_range;
		o.unenforced |= p->pc.hpmn_unenforced;
		o.aarch64_only |= !p->pe.aarch32_el0;
		o.spe &= p->pe.pmsver != 0 && !p->pe.mdcr_el3_nspb_secure;
		o.host_spe &= p->pc.host_spe;
		o.pmuver = p->pe.pmuver < o.pmuver ? p->pe.pmuver : o.pmuver;
		o.hpmn = hpmn < o.hpmn ? hpmn : o.hpmn;
		o.room = second_room(p, c) < o.room ? second_room(p, c) : o.room;
	}
	return o;
}

/* vperf_vm_init's result for a second-range VM, from vperf.h and docs/vpmu.md ("The second
 * range"), exactly: its vSPE as for every VM (no SPE on a pCPU up: ENODEV; profiled from outside
 * without host_spe everywhere, or a vSPE on pCPUs whose SPE record layout differs: EINVAL); OFF
 * accepted; ALL refused (not the trapped partition); no pCPU up: ENODEV; then EINVAL unless every
 * pCPU up keeps the first range for its host and enforces HPMN, some pCPU is AArch64-only (LC
 * RES1), every one is PMUv3p5 or later, N <= HPMN and N + 1 <= EPMN - HPMN everywhere. */
static int second_expected(const struct vperf_vm_config *cfg, const struct w_run *run,
			   const struct world *w)
{
	struct w_offer o = offer_up(run, w);

	if (cfg->spe && (!o.any || !o.spe))
		return VPERF_ENODEV;
	if (cfg->spe && cfg->spe_buffer == VPERF_SPE_BUF_EL2 && !o.host_spe)
		return VPERF_EINVAL;
	if (guest_buffer(cfg) &&
	    spe_ids_vary(run, w, PMSIDR_MAXSIZE | PMSIDR_FORMAT, PMBIDR_ALIGN | PMBIDR_F))
		return VPERF_EINVAL;
	if (cfg->pmu_mode == VPERF_PMU_OFF)
		return VPERF_OK;
	if (cfg->pmu_mode == VPERF_PMU_ALL)
		return VPERF_EINVAL;
	if (!o.any)
		return VPERF_ENODEV;
	if (!o.all_first || o.unenforced || !o.aarch64_only || o.pmuver < 6 ||
	    cfg->nr_counters > o.hpmn || cfg->nr_counters + 1u > o.room)
		return VPERF_EINVAL;
	return VPERF_OK;
}

/* vperf_vm_init's result against vperf.h: ENODEV when no pCPU with a PMU (SPE) is up, EINVAL for
 * a policy the pCPUs cannot give; an accepted vPMU's N fits every first range up, and is not in
 * the first range where a host keeps it; a second-range VM's result is second_expected's. */
static void check_vm_rc(const struct w_vm *m, int rc, const struct w_run *run,
			const struct world *w, unsigned int v, struct w_result *res)
{
	const struct vperf_vm_config *cfg = &m->cfg;
	bool any = false, spe_everywhere = true;
	unsigned int min_hpmn = 31;

	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		if (!run->cpu_up[c])
			continue;
		any = true;
		spe_everywhere &= w->cpu[c].pe.pmsver != 0 && !w->cpu[c].pe.mdcr_el3_nspb_secure;
		if (hv.pcpu[c].hpmn < min_hpmn)
			min_hpmn = hv.pcpu[c].hpmn;
	}
	if (rc != VPERF_OK && rc != VPERF_EINVAL && rc != VPERF_ENODEV) {
		failed(res, WF_REFUSAL, "VM %u refused with %d", v, rc);
		return;
	}
	if (rc == VPERF_ENODEV && any && !(cfg->spe && !spe_everywhere))
		failed(res, WF_REFUSAL, "VM %u: ENODEV with a PMU up", v);
	if (rc == VPERF_OK && cfg->pmu_mode != VPERF_PMU_OFF &&
	    (!any || cfg->nr_counters > min_hpmn || cfg->emu_slots > min_hpmn))
		failed(res, WF_REFUSAL, "VM %u accepted with N %u, first range %u", v,
		       cfg->nr_counters, any ? min_hpmn : 0);
	if (rc == VPERF_OK && cfg->spe && !spe_everywhere)
		failed(res, WF_REFUSAL, "VM %u accepted with SPE on a pCPU without", v);
	if (rc == VPERF_OK && guest_buffer(cfg) && spe_ids_differ(run, w))
		failed(res, WF_REFUSAL, "VM %u: a vSPE on pCPUs whose Align, F or MaxSize differ",
		       v);
	if (cfg->partition == VPERF_PART_SECOND && rc != second_expected(cfg, run, w))
		failed(res, WF_REFUSAL, "VM %u (second range, N %u): %d, the oracle says %d", v,
		       cfg->nr_counters, rc, second_expected(cfg, run, w));
	if (cfg->partition != VPERF_PART_SECOND && rc == VPERF_OK &&
	    cfg->pmu_mode != VPERF_PMU_OFF && offer_up(run, w).any_first)
		failed(res, WF_REFUSAL, "VM %u accepted in the first range, which a host keeps", v);
}

/* An EL1 host that keeps the first range (host_first_range): its counters [0, HPMN) count
 * instructions at EL1 and EL0, its second one CPU_CYCLES there as its cycle counter does
 * (PMCCFILTR_EL0 = 0), under its own PMCR_EL0.E (LC: 64 bits). */
static uint64_t host_first_type(unsigned int n)
{
	return n == 1 ? HOST_CYCLES : HOST_EVENT;
}

static void host_first_start(unsigned int c)
{
	unsigned int hpmn = hv.pcpu[c].hpmn;

	for (unsigned int n = 0; n < hpmn; n++)
		sim_poke(c, sched_evtyper(n), host_first_type(n));
	sim_poke(c, VPERF_ENC_PMCCFILTR_EL0, 0);
	sim_poke(c, VPERF_ENC_PMCNTENSET_EL0, (VPERF_BIT(hpmn) - 1) | VPERF_BIT(31));
	sim_poke(c, VPERF_ENC_PMCR_EL0, sim_peek(c, VPERF_ENC_PMCR_EL0) | PMCR_E | PMCR_LC);
}

/* The host's own share of a pCPU it brought up: its first counter counts instructions at EL1
 * and EL0, and its buffer profiles its EL2 code. */
static void host_start(const struct world *w, unsigned int c)
{
	unsigned int hpmn = hv.pcpu[c].hpmn;

	if (w->cpu[c].pc.host_first_range)
		host_first_start(c);
	else if (w->cpu[c].pc.host_counters) {
		sim_poke(c, sched_evtyper(hpmn), HOST_EVENT);
		sim_poke(c, VPERF_ENC_PMCNTENSET_EL0, VPERF_BIT(hpmn));
	}
	if (w->cpu[c].pc.host_spe)
		vs_host_spe_start(c);
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

/* The host's own state that a power-down loses: its counters' values (its types, enables and
 * buffer set up again by host_start), and where its buffer had got to. */
struct host_saved {
	uint64_t cnt[32], ptr;
};

static void host_save(const struct world *w, unsigned int c, struct host_saved *h)
{
	sim_set_cpu(c);
	for (unsigned int n = 0; n < 31; n++)
		h->cnt[n] = sim_peek(c, sched_evcntr(n));
	h->cnt[31] = sim_peek(c, VPERF_ENC_PMCCNTR_EL0);
	if (!w->cpu[c].pc.host_spe)
		return;
	/* As its driver stops a session: sampling off, its records in memory (SPE 3.6). */
	write_sysreg(0, PMSCR_EL2);
	isb();
	psb_csync();
	dsb_nsh();
	isb();
	h->ptr = read_sysreg(PMBPTR_EL1);
	write_sysreg(0, PMBLIMITR_EL1);
	isb();
}

/* Counters the host keeps (host_start): [0, HPMN) and the cycle counter for an EL1 host that
 * keeps the first range, counter HPMN for one with host_counters. */
static void host_restore(const struct world *w, unsigned int c, const struct host_saved *h)
{
	unsigned int hpmn = hv.pcpu[c].hpmn;

	host_start(w, c);
	if (w->cpu[c].pc.host_first_range) {
		for (unsigned int n = 0; n < hpmn; n++)
			sim_poke(c, sched_evcntr(n), h->cnt[n]);
		sim_poke(c, VPERF_ENC_PMCCNTR_EL0, h->cnt[31]);
	} else if (w->cpu[c].pc.host_counters) {
		sim_poke(c, sched_evcntr(hpmn), h->cnt[hpmn]);
	}
	if (w->cpu[c].pc.host_spe)
		vs_host_driver_start(c, h->ptr);
}

/* pCPU c, with no vCPU loaded, powers down and comes back: the host saves its own state, vperf
 * is told (vperf_pcpu_down), the PE loses its PMU and SPE state (sim_power_cycle), vperf is set
 * up again with the same configuration and the host restores its state. A vCPU parked there
 * finds its state again at its next load: the alone run, without power-downs, says what. */
static void power_down(const struct world *w, unsigned int c, struct w_result *res)
{
	struct host_saved h = { .ptr = 0 };
	int rc;

	host_save(w, c, &h);
	hv_power_down(c);
	rc = hv_pcpu_up(c, &w->cpu[c].pc);
	if (rc != VPERF_OK)
		failed(res, WF_REFUSAL, "pCPU %u refused when it came back from a power-down (%d)",
		       c, rc);
	host_restore(w, c, &h);
	res->downs++;
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

static const struct world *checked; /* the world check_hosts checks */

static bool host_record_ok(const struct vperf_spe_record *rec, void *ctx)
{
	const struct world *w = checked;
	uint64_t pc = rec->addr[VPERF_SPE_ADDR_PC].addr;

	(void)ctx;
	if (rec->addr[VPERF_SPE_ADDR_PC].el == 2)
		return true;
	/* A VM the host profiles from outside (VPERF_SPE_BUF_EL2): its own code. */
	for (unsigned int v = 0; v < w->nr_vms; v++)
		if (shared_run.vm_up[v] && w->vm[v].cfg.spe &&
		    w->vm[v].cfg.spe_buffer == VPERF_SPE_BUF_EL2 &&
		    pc >= 0x100000 + v * 0x10000ull && pc < 0x100000 + v * 0x10000ull + 0x1000)
			return true;
	return false;
}

/* An EL1 host's first range and cycle counter (host_first_start) after the world: still its own
 * (types, enables, PMCR_EL0.E, PMCCFILTR_EL0 as it set them), each instruction counter at the
 * instructions run at EL1 and EL0 on the pCPU (every guest's and its own), and PMCCNTR_EL0 at
 * its CPU_CYCLES counter's count (at least the instructions' without one). */
static void check_host_first(unsigned int c, struct w_result *res)
{
	unsigned int hpmn = hv.pcpu[c].hpmn;
	uint64_t want = shared_run.host_uops[c], cycles = sim_peek(c, VPERF_ENC_PMCCNTR_EL0);
	uint64_t en = (VPERF_BIT(hpmn) - 1) | VPERF_BIT(31);

	if ((sim_peek(c, VPERF_ENC_PMCNTENSET_EL0) & en) != en ||
	    !(sim_peek(c, VPERF_ENC_PMCR_EL0) & PMCR_E) || sim_peek(c, VPERF_ENC_PMCCFILTR_EL0))
		failed(res, WF_HOST,
		       "pCPU %u: the EL1 host's enables, PMCR_EL0.E or PMCCFILTR_EL0 "
		       "changed",
		       c);
	for (unsigned int n = 0; n < hpmn; n++) {
		uint64_t got = sim_peek(c, sched_evcntr(n));

		if (sim_peek(c, sched_evtyper(n)) != host_first_type(n))
			failed(res, WF_HOST, "pCPU %u: the EL1 host's type %u changed", c, n);
		else if (n != 1 && got != want)
			failed(res, WF_HOST,
			       "pCPU %u: the EL1 host's counter %u counted %llu, %llu instructions "
			       "ran at EL1 and EL0",
			       c, n, (unsigned long long)got, (unsigned long long)want);
		else if (n == 1 && got != cycles)
			failed(res, WF_HOST,
			       "pCPU %u: the EL1 host's PMCCNTR_EL0 %llu, its CPU_CYCLES counter "
			       "%llu",
			       c, (unsigned long long)cycles, (unsigned long long)got);
	}
	if (hpmn < 2 && cycles < want)
		failed(res, WF_HOST, "pCPU %u: the EL1 host's PMCCNTR_EL0 %llu, below %llu", c,
		       (unsigned long long)cycles, (unsigned long long)want);
}

static void check_hosts(const struct world *w, struct w_result *res)
{
	checked = w;
	if (sim_error_count())
		failed(res, WF_MODEL, "%u model errors, first on pCPU %u: %s", sim_error_count(),
		       sim_error_at(0)->cpu, sim_error_at(0)->what);
	if (hv.max_irq_burst > 1)
		failed(res, WF_MODEL, "%u PMUIRQs in a row with the line left high",
		       hv.max_irq_burst);
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		uint64_t n;

		if (!shared_run.cpu_up[c])
			continue;
		if (w->cpu[c].pc.host_first_range) {
			check_host_first(c, res);
		} else if (w->cpu[c].pc.host_counters) {
			n = sim_peek(c, sched_evcntr(hv.pcpu[c].hpmn));
			if (n != shared_run.host_uops[c])
				failed(res, WF_HOST,
				       "pCPU %u: the host's counter %u counted %llu, the VMs it "
				       "may "
				       "count ran %llu instructions there",
				       c, hv.pcpu[c].hpmn, (unsigned long long)n,
				       (unsigned long long)shared_run.host_uops[c]);
		}
		if (w->cpu[c].pc.host_spe) {
			unsigned int recs;
			const char *bad = vs_host_check(c, host_record_ok, NULL, &recs);

			if (bad)
				failed(res, WF_HOST, "pCPU %u: %s", c, bad);
			res->host_records += recs;
		}
	}
}

/* The whole property on one world; res says how it went. */
static void check_world(const struct world *w, struct w_result *res)
{
	memset(res, 0, sizeof(*res));
	run_shared(w, res);
	check_hosts(w, res);
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

/* ---- shrinking ------------------------------------------------------------------------------ */

static unsigned int shrink_runs;

/* The world of seed with shrink s, run in a child process (a harness assertion or a crash is a
 * failure of its own kind): its failure kind, message in msg. */
static enum w_fail try_world(uint64_t seed, const struct w_shrink *s, char *msg, size_t len)
{
	int fds[2], status;
	pid_t pid;
	struct world w;
	struct w_result res;
	ssize_t got;

	shrink_runs++;
	if (pipe(fds))
		return WF_NONE;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		world_draw(seed, &w);
		world_apply(&w, s);
		check_world(&w, &res);
		if (write(fds[1], &res, sizeof(res)) != (ssize_t)sizeof(res))
			_exit(126);
		_exit(0);
	}
	close(fds[1]);
	got = read(fds[0], &res, sizeof(res));
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (got != (ssize_t)sizeof(res) || !WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(msg, len, "the run stopped (status 0x%x)", status);
		return WF_CRASH;
	}
	snprintf(msg, len, "%s", res.msg);
	return res.fail;
}

/* Keep candidate c if its world still fails as f did. */
static bool keep(uint64_t seed, struct w_shrink *best, const struct w_shrink *c, enum w_fail f,
		 char *msg, size_t len)
{
	char m[320];

	if (try_world(seed, c, m, sizeof(m)) != f)
		return false;
	*best = *c;
	snprintf(msg, len, "%s", m);
	return true;
}

/* Remove what the failure does not need, one part at a time, until nothing more goes (at most
 * HV_SHRINK_RUNS runs, default 2000). */
static void shrink(uint64_t seed, const struct world *drawn, enum w_fail f, struct w_shrink *best,
		   char *msg, size_t len)
{
	unsigned int budget = (unsigned int)sched_env_u64("HV_SHRINK_RUNS", 2000);
	bool progress = true;

	shrink_runs = 0;
	while (progress && shrink_runs < budget) {
		struct w_shrink c;

		progress = false;
		for (unsigned int x = 0; x < drawn->nr_cpus && shrink_runs < budget; x++) {
			c = *best;
			c.cpus |= 1u << x;
			if (c.cpus != *&best->cpus && keep(seed, best, &c, f, msg, len))
				progress = true;
		}
		for (unsigned int x = 0; x < drawn->nr_vms && shrink_runs < budget; x++) {
			c = *best;
			c.vms |= 1u << x;
			if (c.vms != best->vms && keep(seed, best, &c, f, msg, len))
				progress = true;
		}
		for (unsigned int x = 0; x < drawn->nr_vcpus && shrink_runs < budget; x++) {
			c = *best;
			c.vcpus |= 1u << x;
			if (c.vcpus != best->vcpus && keep(seed, best, &c, f, msg, len))
				progress = true;
		}
		for (unsigned int st = 1; st < drawn->steps && shrink_runs < budget; st++) {
			c = *best;
			if (best->steps && st >= best->steps)
				break;
			c.steps = st;
			if (keep(seed, best, &c, f, msg, len)) {
				progress = true;
				break;
			}
		}
		/* Slots: halves, quarters, ... then one at a time. */
		for (unsigned int chunk = 64; chunk >= 1 && shrink_runs < budget; chunk /= 2)
			for (unsigned int k = 0; k < drawn->nr_slots && shrink_runs < budget;
			     k += chunk) {
				bool any = false;

				c = *best;
				for (unsigned int j = k; j < k + chunk && j < drawn->nr_slots;
				     j++) {
					any |= !(c.slots[j / 64] >> (j % 64) & 1);
					c.slots[j / 64] |= 1ull << (j % 64);
				}
				if (any && keep(seed, best, &c, f, msg, len))
					progress = true;
			}
		for (unsigned int k = 0; k < drawn->nr_slots && shrink_runs < budget; k++) {
			c = *best;
			c.ups[k / 64] |= 1ull << (k % 64);
			if (drawn->slot[k].down && c.ups[k / 64] != best->ups[k / 64] &&
			    keep(seed, best, &c, f, msg, len))
				progress = true;
		}
		for (unsigned int b = 0; b < 4 * W_MAX_VMS && shrink_runs < budget; b++) {
			c = *best;
			c.vm_simple |= 1u << b;
			if (b / 4 < drawn->nr_vms && c.vm_simple != best->vm_simple &&
			    keep(seed, best, &c, f, msg, len))
				progress = true;
		}
		for (unsigned int b = 0; b < 4 * W_MAX_CPUS && shrink_runs < budget; b++) {
			c = *best;
			c.cpu_simple |= 1u << b;
			if (b / 4 < drawn->nr_cpus && c.cpu_simple != best->cpu_simple &&
			    keep(seed, best, &c, f, msg, len))
				progress = true;
		}
	}
}

static void report_failure(uint64_t seed, const struct w_shrink *s0, const struct w_result *res)
{
	struct world w;
	struct w_shrink best = *s0;
	char msg[320], repro[200];

	snprintf(msg, sizeof(msg), "%s", res->msg);
	world_draw(seed, &w);
	world_apply(&w, s0);
	printf("seed %llu: the world fails: %s\n", (unsigned long long)seed, res->msg);
	world_describe(&w);
	if (sched_env_u64("HV_SHRINK", 1)) {
		shrink(seed, &w, res->fail, &best, msg, sizeof(msg));
		world_draw(seed, &w);
		world_apply(&w, &best);
		printf("shrunk in %u runs to:\n", shrink_runs);
		world_describe(&w);
	}
	world_format(repro, sizeof(repro), seed, &best);
	printf("reproduce: HV_WORLD=%s build/sim/tests/bin/test_isolation_worlds\n", repro);
	fail_msg("world %s: %s", repro, msg);
}

static void test_isolation_worlds(void **state)
{
	uint64_t first = sched_env_u64("HV_SEED0", 1), n = sched_env_u64("HV_SCHEDULES", WORLDS);
	const char *one = getenv("HV_WORLD");
	struct w_shrink s = { 0 };
	struct w_result res, sum = { 0 };
	unsigned int hv_direct_after_bigger = 0, vspe_mixed_ids = 0, second_worlds = 0,
		     vhe_spe_worlds = 0;

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
