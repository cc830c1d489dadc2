// SPDX-License-Identifier: MIT
/*
 * The TLB behind the Profiling Buffer's writes (SPE 3.4.4; see sim/mem.h).
 *
 * "Translations might be cached in a TLB. TLB maintenance operations ... operate on these cached
 * translations." The model caches every successful translation of a buffer write as a combined
 * stage 1 + stage 2 entry and keeps using it, whatever happens to the tables, until a TLBI that
 * covers it is completed by a DSB: a remap without TLB maintenance then sends records to the old
 * physical page. Before the DSB an invalidated entry may still be used (the TLBI is not complete),
 * and the model does use it. Faults are not cached (an invalid descriptor is never cached).
 */
#include "mem_internal.h"

#define TLB_ENTRIES 16u

struct tlb_entry {
	bool valid;
	bool doomed; /* covered by a TLBI not yet completed by a DSB */
	bool stage2; /* filled with HCR_EL2.VM = 1 */
	bool stale;  /* reported as used after the tables changed */
	uint8_t regime;
	uint16_t vmid;
	uint64_t page; /* VA >> 12 */
	uint64_t ipa;  /* stage 1 output, page aligned */
	uint64_t pa;   /* final output, page aligned */
};

static struct tlb_entry tlbs[SIM_MAX_CPUS][TLB_ENTRIES];

static bool stage2_on(unsigned int cpu)
{
	return (sim_reg(cpu, SIM_ENC_HCR_EL2) & SIM_HCR_EL2_VM) != 0;
}

static uint16_t regime_vmid(unsigned int cpu, enum sim_regime regime)
{
	return regime == SIM_REGIME_EL2 ? 0 : sim_mem_vmid(cpu);
}

static struct tlb_entry *lookup(unsigned int cpu, enum sim_regime regime, uint64_t va)
{
	uint16_t vmid = regime_vmid(cpu, regime);
	bool s2 = regime == SIM_REGIME_EL10 && stage2_on(cpu);

	for (unsigned int i = 0; i < TLB_ENTRIES; i++) {
		struct tlb_entry *e = &tlbs[cpu][i];

		if (e->valid && e->regime == regime && e->vmid == vmid && e->stage2 == s2 &&
		    e->page == va >> SIM_PAGE_SHIFT)
			return e;
	}
	return NULL;
}

/* An invalid entry, else one the seed picks. */
static struct tlb_entry *victim(unsigned int cpu)
{
	for (unsigned int i = 0; i < TLB_ENTRIES; i++)
		if (!tlbs[cpu][i].valid)
			return &tlbs[cpu][i];
	return &tlbs[cpu][sim_random(cpu) % TLB_ENTRIES];
}

static void fill(unsigned int cpu, enum sim_regime regime, uint64_t va, const struct sim_xlat *x)
{
	struct tlb_entry *e = victim(cpu);

	e->valid = true;
	e->doomed = false;
	e->stale = false;
	e->stage2 = regime == SIM_REGIME_EL10 && stage2_on(cpu);
	e->regime = (uint8_t)regime;
	e->vmid = regime_vmid(cpu, regime);
	e->page = va >> SIM_PAGE_SHIFT;
	e->ipa = x->ipa & ~(SIM_PAGE_SIZE - 1);
	e->pa = x->pa & ~(SIM_PAGE_SIZE - 1);
}

/* The hypervisor's part of a cached entry no longer matches the tables: stage 2 for the EL1&0
 * regime (a guest's own stale stage 1 is the guest's business), stage 1 for the EL2 regime. */
static bool stale_for_hyp(unsigned int cpu, const struct tlb_entry *e)
{
	struct sim_xlat now;

	if (e->regime == SIM_REGIME_EL2) {
		now = sim_mem_translate(cpu, SIM_REGIME_EL2, e->page << SIM_PAGE_SHIFT, true);
		return now.fault || (now.pa & ~(SIM_PAGE_SIZE - 1)) != e->pa;
	}
	if (!e->stage2)
		return false;
	now = sim_mem_translate_s2(e->vmid, e->ipa, true);
	return now.fault || (now.pa & ~(SIM_PAGE_SIZE - 1)) != e->pa;
}

struct sim_xlat sim_mem_translate_cached(unsigned int cpu, enum sim_regime regime, uint64_t va)
{
	struct tlb_entry *e;
	struct sim_xlat x;
	uint64_t off = va & (SIM_PAGE_SIZE - 1);

	cpu %= SIM_MAX_CPUS;
	e = lookup(cpu, regime, va);
	if (!e) {
		x = sim_mem_translate(cpu, regime, va, true);
		if (!x.fault)
			fill(cpu, regime, va, &x);
		return x;
	}
	if (!e->stale && stale_for_hyp(cpu, e)) {
		e->stale = true;
		sim_report_error(cpu, "SPE record written through a stale cached translation: the "
				      "tables changed without TLBI + DSB (SPE 3.4.4)");
	}
	x = (struct sim_xlat){ .ipa = e->ipa | off, .pa = e->pa | off };
	return x;
}

static bool covers(const struct tlb_entry *e, enum sim_tlbi_op op, uint16_t vmid)
{
	switch (op) {
	case SIM_TLBI_VMALLS12E1IS:
	case SIM_TLBI_VMALLE1IS:
		return e->regime == SIM_REGIME_EL10 && e->vmid == vmid;
	case SIM_TLBI_ALLE2IS:
		return e->regime == SIM_REGIME_EL2;
	case SIM_TLBI_IPAS2E1IS: /* stage 2 only entries: the model holds none */
	default:
		return false;
	}
}

/* Inner shareable: every CPU's TLB. The SPE family sees the instruction as a barrier event and
 * completes it at the next DSB on this CPU (sim_mem_tlb_complete). */
void sim_tlbi(enum sim_tlbi_op op, uint64_t arg)
{
	uint16_t vmid = sim_mem_vmid(sim_current_cpu());

	(void)arg;
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		for (unsigned int i = 0; i < TLB_ENTRIES; i++)
			if (tlbs[cpu][i].valid && covers(&tlbs[cpu][i], op, vmid))
				tlbs[cpu][i].doomed = true;
	sim_barrier(SIM_TLBI);
}

void sim_mem_tlb_complete(void)
{
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		for (unsigned int i = 0; i < TLB_ENTRIES; i++)
			if (tlbs[cpu][i].doomed)
				tlbs[cpu][i].valid = tlbs[cpu][i].doomed = false;
}

void sim_mem_tlb_reset(void)
{
	static const struct tlb_entry none;

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		for (unsigned int i = 0; i < TLB_ENTRIES; i++)
			tlbs[cpu][i] = none;
}

unsigned int sim_mem_tlb_entries(unsigned int cpu)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < TLB_ENTRIES; i++)
		n += tlbs[cpu % SIM_MAX_CPUS][i].valid;
	return n;
}
