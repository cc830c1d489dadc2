/* SPDX-License-Identifier: MIT */
/*
 * The simulated physical CPUs behind the sim accessor seam. Each has a register file holding
 * every register of the model's table (sim/arch_regs.h), counts of what vperf did to it (the
 * lazy-switch tests assert these), a short trace of the last accesses in program order (the
 * sequence tests read it), and an optional model hook that gives registers their architectural
 * behaviour.
 */
#ifndef VPERF_SIM_CPU_H
#define VPERF_SIM_CPU_H

#include <sim/arch_regs.h>

#define SIM_MAX_CPUS  8
#define SIM_TRACE_LEN 256

/* SIM_TLBI: a TLB maintenance instruction (sim/mem.h sim_tlbi). */
enum sim_event_kind { SIM_READ, SIM_WRITE, SIM_ISB, SIM_DSB_NSH, SIM_PSB_CSYNC, SIM_TLBI };

struct sim_event {
	enum sim_event_kind kind;
	uint32_t enc; /* for reads and writes */
	uint64_t val; /* value read or written */
};

/* The model's view of accesses. Any hook may be NULL: the register file then behaves as plain
 * storage. read gets the stored value and returns what the PE returns; write returns the value
 * to store (e.g. with read-only fields kept). */
struct sim_hooks {
	void *ctx;
	uint64_t (*read)(void *ctx, unsigned int cpu, uint32_t enc, uint64_t stored);
	uint64_t (*write)(void *ctx, unsigned int cpu, uint32_t enc, uint64_t old, uint64_t val);
	void (*barrier)(void *ctx, unsigned int cpu, enum sim_event_kind kind);
};

struct sim_cpu {
	uint64_t regs[SIM_NR_REGS]; /* by sim_arch_reg_slot() */
	uint64_t nr_reads, nr_writes, nr_barriers;
	uint64_t nr_unknown; /* accesses to encodings the model lacks: a vperf bug */
	struct sim_event trace[SIM_TRACE_LEN];
	uint64_t trace_len; /* events ever recorded; trace[] keeps the last SIM_TRACE_LEN */
};

/* Reset every simulated CPU: registers to 0, counters and traces cleared, hooks removed. */
void sim_reset(void);
/* Select the CPU the seam talks to (the "current physical CPU"). */
void sim_set_cpu(unsigned int cpu);
unsigned int sim_current_cpu(void);
struct sim_cpu *sim_cpu(unsigned int cpu);
void sim_set_hooks(const struct sim_hooks *hooks);

/* Backdoor access to the register file, bypassing counters, traces and hooks (test setup). */
void sim_poke(unsigned int cpu, uint32_t enc, uint64_t val);
uint64_t sim_peek(unsigned int cpu, uint32_t enc);

/* Forget counts and trace of one CPU, keep its registers. */
void sim_clear_counts(unsigned int cpu);
/* Event i (0 = oldest still kept) of the CPU's trace, or NULL. */
const struct sim_event *sim_trace_at(unsigned int cpu, uint64_t i);
/* The events the CPU's trace recorded since it held `since` events, as the sim_trace_at indexes
 * [*first, *end); false when the trace no longer keeps them all (or since is past its end). */
bool sim_trace_since(unsigned int cpu, uint64_t since, uint64_t *first, uint64_t *end);

void sim_barrier(enum sim_event_kind kind);

#endif /* VPERF_SIM_CPU_H */
