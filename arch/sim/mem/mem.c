// SPDX-License-Identifier: MIT
/*
 * Simulated physical memory and two-stage translation (see sim/mem.h). Mappings live in one
 * open-addressing table keyed by (kind, VMID, input page); physical pages are mem_phys.c's. An
 * unmapped entry stays in the table as an invalid
 * descriptor, so lookups never need tombstones.
 */
#include <stdlib.h>
#include <string.h>

#include "mem_internal.h"

#define MAP_SLOTS 8192u /* powers of two */
#define VA_BITS	  48

enum map_kind { KIND_S1_EL10 = 1, KIND_S1_EL2, KIND_S2 };

struct map_entry {
	uint64_t page; /* input address >> 12 */
	uint64_t out;  /* output address >> 12 */
	uint16_t vmid;
	uint8_t kind; /* enum map_kind, 0 = free slot */
	uint8_t perm; /* SIM_PERM_*, 0 = invalid descriptor */
	int8_t abort; /* SIM_WALK_NO_ABORT, or the level of a walk external abort */
};

static struct map_entry maps[MAP_SLOTS];
static uint16_t vmids[SIM_MAX_CPUS];
/* sim_mem_set_s2_fault_level: up to S2_LEVELS VMIDs with a level other than 3. */
#define S2_LEVELS 16u
struct s2_level {
	uint16_t vmid;
	int8_t level;
	bool used;
};
static struct s2_level s2_levels[S2_LEVELS];
static sim_mem_vmid_listener vmid_listener;

void sim_mem_reset(void)
{
	static const struct map_entry no_map;

	vmid_listener = NULL;
	for (uint32_t i = 0; i < S2_LEVELS; i++)
		s2_levels[i].used = false;
	sim_mem_phys_reset();
	for (uint32_t i = 0; i < MAP_SLOTS; i++)
		maps[i] = no_map;
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		vmids[cpu] = 0;
	sim_mem_tlb_reset();
}

/* ---- translation tables ----------------------------------------------------------------- */

static enum map_kind s1_kind(enum sim_regime regime);

/* The slot holding (kind, vmid, page), or the free slot where it would go, or NULL if full. */
static struct map_entry *map_slot(enum map_kind kind, uint16_t vmid, uint64_t page)
{
	uint32_t i = sim_mem_hash(page, (uint32_t)kind << 16 | vmid, MAP_SLOTS);

	for (uint32_t n = 0; n < MAP_SLOTS; n++, i = (i + 1) & (MAP_SLOTS - 1)) {
		struct map_entry *e = &maps[i];

		if (!e->kind || (e->kind == kind && e->vmid == vmid && e->page == page))
			return e;
	}
	return NULL;
}

static const struct map_entry *map_find(enum map_kind kind, uint16_t vmid, uint64_t page)
{
	const struct map_entry *e = map_slot(kind, vmid, page);

	return e && e->kind ? e : NULL;
}

uint64_t sim_mem_pages_spanned(uint64_t addr, uint64_t size)
{
	uint64_t first = addr >> SIM_PAGE_SHIFT;
	uint64_t last = (addr + (size ? size - 1 : 0)) >> SIM_PAGE_SHIFT;

	return last - first + 1;
}

static int map_range(enum map_kind kind, uint16_t vmid, uint64_t in, uint64_t out, uint64_t size,
		     unsigned int perm)
{
	uint64_t n = sim_mem_pages_spanned(in, size);

	for (uint64_t i = 0; i < n; i++) {
		struct map_entry *e = map_slot(kind, vmid, (in >> SIM_PAGE_SHIFT) + i);

		if (!e)
			return VPERF_ENOSPC;
		if (!e->kind)
			e->abort = SIM_WALK_NO_ABORT;
		e->kind = (uint8_t)kind;
		e->vmid = vmid;
		e->page = (in >> SIM_PAGE_SHIFT) + i;
		e->out = (out >> SIM_PAGE_SHIFT) + i;
		e->perm = (uint8_t)(perm & SIM_PERM_RW);
	}
	return VPERF_OK;
}

int sim_mem_set_walk_abort(unsigned int stage, enum sim_regime regime, uint16_t vmid, uint64_t in,
			   uint64_t size, int level)
{
	enum map_kind kind = stage == 2 ? KIND_S2 : s1_kind(regime);
	uint64_t n = sim_mem_pages_spanned(in, size);

	if (stage == 1 && regime == SIM_REGIME_EL2)
		vmid = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t page = (in >> SIM_PAGE_SHIFT) + i;
		struct map_entry *e = map_slot(kind, vmid, page);

		if (!e)
			return VPERF_ENOSPC;
		if (!e->kind) /* an invalid descriptor carrying the mark */
			*e = (struct map_entry){ .page = page,
						 .vmid = vmid,
						 .kind = (uint8_t)kind };
		e->abort = (int8_t)level;
	}
	return VPERF_OK;
}

static void unmap_range(enum map_kind kind, uint16_t vmid, uint64_t in, uint64_t size)
{
	uint64_t n = sim_mem_pages_spanned(in, size);

	for (uint64_t i = 0; i < n; i++) {
		struct map_entry *e = map_slot(kind, vmid, (in >> SIM_PAGE_SHIFT) + i);

		if (e && e->kind)
			e->perm = 0; /* an invalid descriptor: a Translation fault */
	}
}

static enum map_kind s1_kind(enum sim_regime regime)
{
	return regime == SIM_REGIME_EL2 ? KIND_S1_EL2 : KIND_S1_EL10;
}

int sim_mem_map_s1(enum sim_regime regime, uint16_t vmid, uint64_t va, uint64_t ipa, uint64_t size,
		   unsigned int perm)
{
	return map_range(s1_kind(regime), regime == SIM_REGIME_EL2 ? 0 : vmid, va, ipa, size, perm);
}

void sim_mem_unmap_s1(enum sim_regime regime, uint16_t vmid, uint64_t va, uint64_t size)
{
	unmap_range(s1_kind(regime), regime == SIM_REGIME_EL2 ? 0 : vmid, va, size);
}

int sim_mem_map_s2(uint16_t vmid, uint64_t ipa, uint64_t pa, uint64_t size, unsigned int perm)
{
	return map_range(KIND_S2, vmid, ipa, pa, size, perm);
}

void sim_mem_unmap_s2(uint16_t vmid, uint64_t ipa, uint64_t size)
{
	unmap_range(KIND_S2, vmid, ipa, size);
}

void sim_mem_set_vmid(unsigned int cpu, uint16_t vmid)
{
	uint16_t old;

	if (cpu >= SIM_MAX_CPUS || vmids[cpu] == vmid)
		return;
	old = vmids[cpu];
	vmids[cpu] = vmid;
	if (vmid_listener)
		vmid_listener(cpu, old);
}

void sim_mem_set_vmid_listener(sim_mem_vmid_listener fn)
{
	vmid_listener = fn;
}

uint16_t sim_mem_vmid(unsigned int cpu)
{
	return cpu < SIM_MAX_CPUS ? vmids[cpu] : 0;
}

/* ---- translation -------------------------------------------------------------------------- */

/* Inside the input address range: the EL1&0 regime has the TTBR0 and TTBR1 halves, EL2
 * (without E2H) only the lower one, stage 2 the IPA space. */
static bool in_range(enum map_kind kind, uint64_t addr)
{
	uint64_t top = addr >> VA_BITS;

	return top == 0 || (kind == KIND_S1_EL10 && top == 0xffff);
}

void sim_mem_set_s2_fault_level(uint16_t vmid, int level)
{
	uint32_t free_slot = S2_LEVELS;

	for (uint32_t i = 0; i < S2_LEVELS; i++) {
		if (s2_levels[i].used && s2_levels[i].vmid == vmid) {
			s2_levels[i].level = (int8_t)level;
			return;
		}
		if (!s2_levels[i].used && free_slot == S2_LEVELS)
			free_slot = i;
	}
	if (free_slot < S2_LEVELS)
		s2_levels[free_slot] = (struct s2_level){ vmid, (int8_t)level, true };
}

/* The Translation fault of a page stage 2 of vmid does not map (sim_mem_set_s2_fault_level). */
static uint8_t s2_translation_fault(uint16_t vmid)
{
	int level = 3;

	for (uint32_t i = 0; i < S2_LEVELS; i++)
		if (s2_levels[i].used && s2_levels[i].vmid == vmid)
			level = s2_levels[i].level;
	if (level == -1)
		return SIM_FSC_TRANSLATION_LM1;
	if (level == -2)
		return SIM_FSC_TRANSLATION_LM2;
	return (uint8_t)SIM_FSC_TRANSLATION(level >= 0 && level <= 3 ? (unsigned int)level : 3u);
}

/* One stage: fills *out or returns the fault status code (0 = no fault). */
static uint8_t walk(enum map_kind kind, uint16_t vmid, uint64_t in, bool write, uint64_t *out)
{
	const struct map_entry *e;

	if (!in_range(kind, in))
		return SIM_FSC_TRANSLATION(0);
	e = map_find(kind, vmid, in >> SIM_PAGE_SHIFT);
	if (e && e->abort >= 0) /* which table level's fetch aborted: the mark, or the seed */
		return (uint8_t)SIM_FSC_WALK_EXT_ABORT(e->abort < SIM_WALK_LEVEL_SEED
							       ? (uint64_t)e->abort
							       : sim_random(sim_current_cpu()) % 4);
	if ((!e || !e->perm) && kind == KIND_S2)
		return s2_translation_fault(vmid);
	if (!e || !e->perm)
		return SIM_FSC_TRANSLATION(3);
	if (write && !(e->perm & SIM_PERM_W))
		return SIM_FSC_PERMISSION(3);
	if (!write && !(e->perm & SIM_PERM_R))
		return SIM_FSC_PERMISSION(3);
	*out = e->out << SIM_PAGE_SHIFT | (in & (SIM_PAGE_SIZE - 1));
	return 0;
}

struct sim_xlat sim_mem_translate_s2(uint16_t vmid, uint64_t ipa, bool write)
{
	struct sim_xlat x = { .ipa = ipa };

	x.fsc = walk(KIND_S2, vmid, ipa, write, &x.pa);
	x.fault = x.fsc ? 2 : 0;
	return x;
}

static bool stage2_on(unsigned int cpu)
{
	return (sim_reg(cpu, SIM_ENC_HCR_EL2) & SIM_HCR_EL2_VM) != 0;
}

static struct sim_xlat translate(unsigned int cpu, enum sim_regime regime, uint64_t va, bool write,
				 bool stage2)
{
	struct sim_xlat x = { 0 };
	uint16_t vmid = regime == SIM_REGIME_EL2 ? 0 : sim_mem_vmid(cpu);

	x.fsc = walk(s1_kind(regime), vmid, va, write, &x.ipa);
	if (x.fsc) {
		x.fault = 1;
		return x;
	}
	if (regime == SIM_REGIME_EL10 && stage2)
		return sim_mem_translate_s2(vmid, x.ipa, write);
	x.pa = x.ipa;
	return x;
}

struct sim_xlat sim_mem_translate(unsigned int cpu, enum sim_regime regime, uint64_t va, bool write)
{
	return translate(cpu, regime, va, write, stage2_on(cpu));
}

static uint64_t par_of(const struct sim_xlat *x, uint64_t out)
{
	if (x->fault)
		return SIM_PAR_F | (uint64_t)x->fsc << SIM_PAR_FST_SHIFT | SIM_PAR_RES1 |
		       (x->fault == 2 ? SIM_PAR_S : 0);
	return SIM_PAR_ATTR_WB | (out & SIM_PAR_PA_MASK) | SIM_PAR_RES1 | SIM_PAR_NS |
	       SIM_PAR_SH_INNER;
}

uint64_t sim_at_s1e1w(unsigned int cpu, uint64_t va)
{
	struct sim_xlat x = translate(cpu, SIM_REGIME_EL10, va, true, false);

	return par_of(&x, x.ipa);
}

uint64_t sim_at_s12e1w(unsigned int cpu, uint64_t va)
{
	struct sim_xlat x = sim_mem_translate(cpu, SIM_REGIME_EL10, va, true);

	return par_of(&x, x.pa);
}
