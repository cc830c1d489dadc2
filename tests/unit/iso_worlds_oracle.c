// SPDX-License-Identifier: MIT
/*
 * The oracle of test_isolation_worlds (iso_worlds.h): what vperf_pcpu_init and vperf_vm_init
 * must answer for each pCPU and VM of a drawn world, given what is up already, from vperf.h and
 * docs/vpmu.md alone (the ranges, the second range, SPE on every pCPU and one SPE ID view). A
 * result the API does not document, or an acceptance it forbids, fails the world (WF_REFUSAL).
 */
#include "iso_worlds.h"

#include <vperf/spe_regs.h>

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
void check_pcpu_rc(const struct w_cpu *c, int rc, const struct w_run *run, const struct world *w,
		   unsigned int cpu, struct w_result *res)
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

bool guest_buffer(const struct vperf_vm_config *cfg)
{
	return cfg->spe && cfg->spe_buffer != VPERF_SPE_BUF_EL2;
}

/* The pCPUs up with SPE differ in the bits idr_bits of PMSIDR_EL1 or bidr_bits of PMBIDR_EL1. */
bool spe_ids_vary(const struct w_run *run, const struct world *w, uint64_t idr_bits,
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

/* A pCPU up whose PMU has registers newer than a guest is shown that only FEAT_FGT2 traps with
 * MDCR_EL2.TPM = 0 (FEAT_PMUv3_ICNTR's PMICNTR_EL0, PMUv3p9's PMUACR_EL1 and PMZR_EL0:
 * docs/vpmu.md, "Newer PMU hardware"): a direct-partition guest would reach them untrapped. */
static bool newer_regs_untrappable(const struct w_run *run, const struct world *w)
{
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		const struct sim_pe_config *pe = &w->cpu[c].pe;

		if (run->cpu_up[c] && (pe->icntr || pe->pmuver >= 9) && !pe->fgt2)
			return true;
	}
	return false;
}

/* vperf_vm_init's result against vperf.h: ENODEV when no pCPU with a PMU (SPE) is up, EINVAL for
 * a policy the pCPUs cannot give; an accepted vPMU's N fits every first range up, and is not in
 * the first range where a host keeps it; a second-range VM's result is second_expected's. */
void check_vm_rc(const struct w_vm *m, int rc, const struct w_run *run, const struct world *w,
		 unsigned int v, struct w_result *res)
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
	if (rc == VPERF_OK && cfg->partition == VPERF_PART_DIRECT &&
	    cfg->pmu_mode != VPERF_PMU_OFF && newer_regs_untrappable(run, w))
		failed(res, WF_REFUSAL,
		       "VM %u accepted direct beside newer PMU registers no FEAT_FGT2 traps", v);
	if (cfg->partition == VPERF_PART_SECOND && rc != second_expected(cfg, run, w))
		failed(res, WF_REFUSAL, "VM %u (second range, N %u): %d, the oracle says %d", v,
		       cfg->nr_counters, rc, second_expected(cfg, run, w));
	if (cfg->partition != VPERF_PART_SECOND && rc == VPERF_OK &&
	    cfg->pmu_mode != VPERF_PMU_OFF && offer_up(run, w).any_first)
		failed(res, WF_REFUSAL, "VM %u accepted in the first range, which a host keeps", v);
}
