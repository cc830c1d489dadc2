/* SPDX-License-Identifier: MIT */
/*
 * Micro-op workloads for the model: deterministic streams of struct sim_uop that look like
 * real code, from a seed, with every event they contain counted so that PMU and SPE tests can
 * assert exact numbers.
 *
 * A generator owns a small cache and TLB model that decides L1D_REFILL, TLB_REFILL and the
 * latencies; its own PRNG (splitmix64 of the seed) decides branch outcomes and address order,
 * so a stream depends on nothing but its configuration. Nothing is allocated: the generator is
 * a plain struct the caller provides (about 5 KiB).
 *
 * Kinds (each a loop whose body is listed; PCs repeat over a small code region):
 * - CHASE: pointer chasing, "ldr x0, [x0]; subs x1, x1, #1; b.ne loop": a LOAD of 8 bytes,
 *   an OTHER, a taken conditional BRANCH back to code_base. The loads visit one 64-byte line
 *   per node over a full-period permutation of the working set (nodes = va_size / 64), the
 *   same cyclic order every pass.
 * - BRANCHY: SIM_WL_BRANCHY_BLOCKS blocks of "cmp; b.cond skip; add; skip:" then a taken
 *   loop branch. Each b.cond is taken with taken_permille / 1000 and mispredicted with
 *   mispred_permille / 1000; a taken b.cond skips its add. The loop branch never mispredicts.
 * - STORES: a store stream, "str x2, [x0], #8; subs; b.ne": sequential 8-byte STOREs from
 *   va_base that wrap at va_size, an OTHER and a taken loop BRANCH.
 * - MIX: a seeded choice per loop iteration: CHASE on the low half of the region
 *   (weight 2), BRANCHY (weight 1), STORES on the high half (weight 1), each at its own PC.
 *
 * Cache and TLB: L1D of SIM_WL_L1D_SETS x SIM_WL_L1D_WAYS lines of 64 bytes (32 KiB), LRU,
 * write-allocate, indexed by VA; a fully associative LRU TLB of SIM_WL_TLB_ENTRIES 4 KiB pages
 * (reach 128 KiB). Both start cold. Hence, for W = va_size and n generated loads/stores:
 * - CHASE:  l1d_refills = min(n, W/64) when W <= 32 KiB, else n (a cyclic order over more
 *           lines than a set holds misses every time under LRU); tlb_refills = W/4096 once
 *           n >= W/64 when W <= 128 KiB.
 * - STORES: l1d_refills = ceil(n/8), capped at W/64 when W <= 32 KiB; tlb_refills =
 *           ceil(n/512), capped at W/4096 when W <= 128 KiB.
 * Everything else (and these too) is in sim_wl_counts(), equal to sim_wl_tally() of the ops.
 */
#ifndef VPERF_SIM_WORKLOAD_H
#define VPERF_SIM_WORKLOAD_H

#include <sim/model.h>

#define SIM_WL_LINE	      64u
#define SIM_WL_PAGE	      4096u
#define SIM_WL_L1D_SETS	      128u
#define SIM_WL_L1D_WAYS	      4u
#define SIM_WL_L1D_SIZE	      (SIM_WL_L1D_SETS * SIM_WL_L1D_WAYS * SIM_WL_LINE)
#define SIM_WL_TLB_ENTRIES    32u
#define SIM_WL_BRANCHY_BLOCKS 4u

/* Latencies in cycles. A load takes issue + translation + access; a TLB refill adds the walk
 * to the translation; a mispredicted branch adds the flush penalty. */
#define SIM_WL_LAT_ALU	   1u
#define SIM_WL_LAT_L1D_HIT 4u
#define SIM_WL_LAT_MEMORY  120u
#define SIM_WL_LAT_XLAT	   1u
#define SIM_WL_LAT_WALK	   30u
#define SIM_WL_LAT_MISPRED 14u

/* SPE Data Source values a load carries (the encoding Arm Neoverse cores and Linux's
 * arm_spe decoder use: 0x0 L1D, 0xe DRAM; Data Source packets are IMPLEMENTATION DEFINED,
 * SPE supplement / Arm DDI 0487 K.a D18.2). */
#define SIM_WL_DS_L1D  0x0u
#define SIM_WL_DS_DRAM 0xeu

enum sim_wl_kind { SIM_WL_CHASE, SIM_WL_BRANCHY, SIM_WL_STORES, SIM_WL_MIX };

struct sim_wl_config {
	enum sim_wl_kind kind;
	uint64_t seed;
	uint64_t va_base;	   /* data region: 4 KiB aligned */
	uint64_t va_size;	   /* power of two, >= 4 KiB (>= 8 KiB for MIX) */
	uint64_t pa_base;	   /* paddr = pa_base + (vaddr - va_base); 0: paddr left 0 */
	uint64_t code_base;	   /* loop code: 4-byte aligned; MIX uses 0x400 bytes from it */
	uint32_t taken_permille;   /* BRANCHY */
	uint32_t mispred_permille; /* BRANCHY */
};

struct sim_wl_counts {
	uint64_t ops, loads, stores, branches, others;
	uint64_t cond_branches, taken, mispredicts;
	uint64_t l1d_refills, tlb_refills;
	uint64_t cycles; /* sum of latency */
};

/* Internal state; read it only through the functions below. */
struct sim_wl {
	struct sim_wl_config cfg;
	uint64_t rng;
	unsigned int kind;  /* the kind of the loop iteration being generated */
	unsigned int step;  /* position in its body */
	unsigned int block; /* BRANCHY: current block */
	uint64_t chase_idx, chase_a, chase_c, chase_nodes, chase_base;
	uint64_t store_off, store_base, store_size;
	uint64_t l1d[SIM_WL_L1D_SETS][SIM_WL_L1D_WAYS]; /* line number + 1, MRU first; 0 empty */
	uint64_t tlb[SIM_WL_TLB_ENTRIES];		/* page number + 1, MRU first; 0 empty */
	struct sim_wl_counts counts;
};

/* A configuration of the kind with sensible values: 64 KiB at 0x10000000 (PA 0x80000000),
 * code at 0x400000, 50 % taken, 5 % mispredicted. */
void sim_wl_default_config(struct sim_wl_config *cfg, enum sim_wl_kind kind, uint64_t seed);

/* Start a generator; false (and nothing usable) for an invalid configuration. */
bool sim_wl_init(struct sim_wl *wl, const struct sim_wl_config *cfg);
/* The next op, and n ops into an array. */
void sim_wl_next(struct sim_wl *wl, struct sim_uop *op);
void sim_wl_fill(struct sim_wl *wl, struct sim_uop *ops, size_t n);
/* What was generated so far. */
const struct sim_wl_counts *sim_wl_counts(const struct sim_wl *wl);

/* Count the events in any op array (the same way the generators count theirs). */
void sim_wl_tally(const struct sim_uop *ops, size_t n, struct sim_wl_counts *out);

#endif /* VPERF_SIM_WORKLOAD_H */
