// SPDX-License-Identifier: MIT
/*
 * Micro-op workload generators: see sim/workload.h for the kinds, the cache and TLB model and
 * the counts a caller can derive. Each loop body is a small state machine that emits one op at
 * a time, so a stream split over several fill calls equals one long fill.
 */
#include <sim/workload.h>

#define MIX_CHASE_PC   0x000u
#define MIX_BRANCHY_PC 0x100u
#define MIX_STORES_PC  0x200u
#define INSN	       4u
#define BLOCK_BYTES    (3u * INSN) /* cmp; b.cond; add */

/* splitmix64 (Steele, Lea, Flood): one 64-bit state, any seed is fine, including 0. */
static uint64_t wl_random(struct sim_wl *wl)
{
	uint64_t z = (wl->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static bool chance(struct sim_wl *wl, uint32_t permille)
{
	return wl_random(wl) % 1000u < permille;
}

/* ---- cache and TLB --------------------------------------------------------------------------- */

/* Look tag up in an LRU array kept most-recent first; true on a hit. A miss evicts the last. */
static bool lru_touch(uint64_t *ways, unsigned int n, uint64_t tag)
{
	unsigned int i = 0;
	bool hit;

	while (i < n - 1 && ways[i] != tag + 1)
		i++;
	hit = ways[i] == tag + 1;
	for (; i > 0; i--)
		ways[i] = ways[i - 1];
	ways[0] = tag + 1;
	return hit;
}

/* A load or store at va: sets the refill flags, the translation latency, and returns the
 * access latency. */
static uint32_t access_memory(struct sim_wl *wl, struct sim_uop *op, uint64_t va, bool store)
{
	uint64_t line = va / SIM_WL_LINE;
	bool tlb_hit = lru_touch(wl->tlb, SIM_WL_TLB_ENTRIES, va / SIM_WL_PAGE);
	bool l1_hit = lru_touch(wl->l1d[line % SIM_WL_L1D_SETS], SIM_WL_L1D_WAYS, line);

	op->xlat_lat = (uint16_t)(SIM_WL_LAT_XLAT + (tlb_hit ? 0 : SIM_WL_LAT_WALK));
	op->flags |= (tlb_hit ? 0 : SIM_UOP_TLB_REFILL) | (l1_hit ? 0 : SIM_UOP_L1D_REFILL);
	op->data_source = (uint8_t)(l1_hit ? SIM_WL_DS_L1D : SIM_WL_DS_DRAM);
	/* Stores retire into the store buffer: their refill does not stall the op. */
	if (store)
		return SIM_WL_LAT_ALU;
	return l1_hit ? SIM_WL_LAT_L1D_HIT : SIM_WL_LAT_L1D_HIT + SIM_WL_LAT_MEMORY;
}

static void mem_op(struct sim_wl *wl, struct sim_uop *op, uint64_t va, bool store)
{
	uint32_t access;

	op->type = store ? SIM_UOP_STORE : SIM_UOP_LOAD;
	op->size_log2 = 3;
	op->vaddr = va;
	op->paddr = wl->cfg.pa_base ? wl->cfg.pa_base + (va - wl->cfg.va_base) : 0;
	op->issue_lat = (uint16_t)(wl_random(wl) % 4u);
	access = access_memory(wl, op, va, store);
	op->latency = op->issue_lat + op->xlat_lat + access;
}

static void alu_op(struct sim_uop *op, uint64_t pc)
{
	op->pc = pc;
	op->type = SIM_UOP_OTHER;
	op->latency = SIM_WL_LAT_ALU;
}

static void branch_op(struct sim_uop *op, uint64_t pc, uint64_t target, bool taken, bool miss)
{
	op->pc = pc;
	op->type = SIM_UOP_BRANCH;
	op->vaddr = target;
	op->flags = SIM_UOP_COND | (taken ? SIM_UOP_TAKEN : 0) | (miss ? SIM_UOP_MISPRED : 0);
	op->latency = SIM_WL_LAT_ALU + (miss ? SIM_WL_LAT_MISPRED : 0);
}

/* ---- loop bodies: each returns true when its iteration ends ---------------------------------- */

static uint64_t code_base(const struct sim_wl *wl, enum sim_wl_kind kind)
{
	static const uint32_t offset[] = { MIX_CHASE_PC, MIX_BRANCHY_PC, MIX_STORES_PC };

	return wl->cfg.code_base + (wl->cfg.kind == SIM_WL_MIX ? offset[kind] : 0);
}

static bool chase_step(struct sim_wl *wl, struct sim_uop *op)
{
	uint64_t pc = code_base(wl, SIM_WL_CHASE);

	if (wl->step == 0) {
		op->pc = pc;
		mem_op(wl, op, wl->chase_base + wl->chase_idx * SIM_WL_LINE, false);
		/* Full period over 2^k nodes: a = 1 mod 4, c odd (Hull-Dobell). */
		wl->chase_idx = (wl->chase_a * wl->chase_idx + wl->chase_c) % wl->chase_nodes;
	} else if (wl->step == 1) {
		alu_op(op, pc + INSN);
	} else {
		branch_op(op, pc + 2 * INSN, pc, true, false);
	}
	return wl->step++ == 2;
}

static bool stores_step(struct sim_wl *wl, struct sim_uop *op)
{
	uint64_t pc = code_base(wl, SIM_WL_STORES);

	if (wl->step == 0) {
		op->pc = pc;
		mem_op(wl, op, wl->store_base + wl->store_off, true);
		wl->store_off = (wl->store_off + 8) % wl->store_size;
	} else if (wl->step == 1) {
		alu_op(op, pc + INSN);
	} else {
		branch_op(op, pc + 2 * INSN, pc, true, false);
	}
	return wl->step++ == 2;
}

/* Block b: cmp at +0, b.cond at +4 to the next block, add at +8 (skipped when taken). */
static bool branchy_step(struct sim_wl *wl, struct sim_uop *op)
{
	uint64_t pc = code_base(wl, SIM_WL_BRANCHY), blk = pc + wl->block * BLOCK_BYTES;
	bool taken;

	if (wl->block == SIM_WL_BRANCHY_BLOCKS) {
		branch_op(op, blk, pc, true, false);
		wl->block = 0;
		return true;
	}
	if (wl->step == 0) {
		alu_op(op, blk);
		wl->step = 1;
	} else if (wl->step == 1) {
		taken = chance(wl, wl->cfg.taken_permille);
		branch_op(op, blk + INSN, blk + BLOCK_BYTES, taken,
			  chance(wl, wl->cfg.mispred_permille));
		wl->step = taken ? 0 : 2;
		wl->block += taken;
	} else {
		alu_op(op, blk + 2 * INSN);
		wl->step = 0;
		wl->block++;
	}
	return false;
}

/* MIX chooses each iteration's kind: CHASE with weight 2, BRANCHY and STORES with 1 each. */
static unsigned int next_kind(struct sim_wl *wl)
{
	static const unsigned int kinds[] = { SIM_WL_CHASE, SIM_WL_CHASE, SIM_WL_BRANCHY,
					      SIM_WL_STORES };

	if (wl->cfg.kind != SIM_WL_MIX)
		return wl->cfg.kind;
	return kinds[wl_random(wl) % 4u];
}

/* ---- the API --------------------------------------------------------------------------------- */

static void count(struct sim_wl_counts *c, const struct sim_uop *op)
{
	bool br = op->type == SIM_UOP_BRANCH;

	c->ops++;
	c->loads += op->type == SIM_UOP_LOAD;
	c->stores += op->type == SIM_UOP_STORE;
	c->branches += br;
	c->others += op->type == SIM_UOP_OTHER;
	c->cond_branches += br && (op->flags & SIM_UOP_COND);
	c->taken += br && (op->flags & SIM_UOP_TAKEN);
	c->mispredicts += br && (op->flags & SIM_UOP_MISPRED);
	c->l1d_refills += (op->flags & SIM_UOP_L1D_REFILL) != 0;
	c->tlb_refills += (op->flags & SIM_UOP_TLB_REFILL) != 0;
	c->cycles += op->latency;
}

void sim_wl_tally(const struct sim_uop *ops, size_t n, struct sim_wl_counts *out)
{
	static const struct sim_wl_counts zero;

	*out = zero;
	for (size_t i = 0; i < n; i++)
		count(out, &ops[i]);
}

void sim_wl_next(struct sim_wl *wl, struct sim_uop *op)
{
	static const struct sim_uop none;
	bool done;

	*op = none;
	if (wl->kind == SIM_WL_CHASE)
		done = chase_step(wl, op);
	else if (wl->kind == SIM_WL_STORES)
		done = stores_step(wl, op);
	else
		done = branchy_step(wl, op);
	if (done) {
		wl->step = 0;
		wl->kind = next_kind(wl);
	}
	count(&wl->counts, op);
}

void sim_wl_fill(struct sim_wl *wl, struct sim_uop *ops, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sim_wl_next(wl, &ops[i]);
}

const struct sim_wl_counts *sim_wl_counts(const struct sim_wl *wl)
{
	return &wl->counts;
}

void sim_wl_default_config(struct sim_wl_config *cfg, enum sim_wl_kind kind, uint64_t seed)
{
	const struct sim_wl_config defaults = {
		.kind = kind,
		.seed = seed,
		.va_base = 0x10000000,
		.va_size = 64 * 1024,
		.pa_base = 0x80000000,
		.code_base = 0x400000,
		.taken_permille = 500,
		.mispred_permille = 50,
	};

	*cfg = defaults;
}

static bool config_valid(const struct sim_wl_config *c)
{
	uint64_t min = c->kind == SIM_WL_MIX ? 2 * SIM_WL_PAGE : SIM_WL_PAGE;

	return c->kind <= SIM_WL_MIX && c->va_base % SIM_WL_PAGE == 0 && c->va_size >= min &&
	       (c->va_size & (c->va_size - 1)) == 0 && c->va_base + c->va_size > c->va_base &&
	       c->code_base % INSN == 0 && c->taken_permille <= 1000 && c->mispred_permille <= 1000;
}

/* The chase's permutation: multiplier a = 4k + 1 (k >= 1, so not a plain stride), odd c and
 * the starting node, all from the seed. */
static void chase_init(struct sim_wl *wl, uint64_t base, uint64_t size)
{
	wl->chase_base = base;
	wl->chase_nodes = size / SIM_WL_LINE;
	wl->chase_a = 4 * (1 + wl_random(wl) % (wl->chase_nodes / 4 - 1)) + 1;
	wl->chase_c = 2 * (wl_random(wl) % (wl->chase_nodes / 2)) + 1;
	wl->chase_idx = wl_random(wl) % wl->chase_nodes;
}

bool sim_wl_init(struct sim_wl *wl, const struct sim_wl_config *cfg)
{
	static const struct sim_wl zero;
	uint64_t half;

	*wl = zero;
	if (!config_valid(cfg))
		return false;
	wl->cfg = *cfg;
	wl->rng = cfg->seed;
	half = cfg->kind == SIM_WL_MIX ? cfg->va_size / 2 : cfg->va_size;
	chase_init(wl, cfg->va_base, half);
	wl->store_base = cfg->kind == SIM_WL_MIX ? cfg->va_base + half : cfg->va_base;
	wl->store_size = half;
	wl->kind = next_kind(wl);
	return true;
}
