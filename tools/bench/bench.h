/* SPDX-License-Identifier: MIT */
/*
 * vperf-bench: what vperf costs, counted on the simulated PE (docs/performance.md). A small
 * hypervisor of its own (harness.c) links vperf the way an EL2 hypervisor does; the scenarios
 * count traps per guest PMU operation (ops.c), System register accesses per vCPU switch
 * (switch.c) and, under callgrind, instructions per trapped access and per switch (cg.c), next
 * to two baselines on the same seam (naive.c): a switch that saves everything and an emulation
 * that traps everything.
 *
 * Output is one tab-separated cell per line: table, row, column, value (tools/bench/bench.sh
 * renders the tables).
 */
#ifndef VPERF_BENCH_H
#define VPERF_BENCH_H

#include <sim/model.h>
#include <sim/profiles.h>
#include <vperf/vperf.h>

#define BENCH_CPUS  2
#define BENCH_VCPUS 3
/* The PE of every scenario: the model's default (PMUv3p5, N = 6), the host keeps 2 counters. */
#define BENCH_PE_COUNTERS   6
#define BENCH_HOST_COUNTERS 2
/* The guest's counters in the operation and instruction scenarios: the whole first range. */
#define BENCH_GUEST_COUNTERS 4
/* The second-range mode (VPERF_PART_SECOND) on a PE of its own: N = 10, the host (at EL1,
 * host_first_range and host_el1) keeps [0, 5) and the cycle counter, so that a guest with 4
 * counters fits (N <= HPMN, and N + 1 counters in [HPMN, N)). */
#define BENCH_SECOND_PE_COUNTERS   10
#define BENCH_SECOND_HOST_COUNTERS 5
/* The naive switch saves every counter the architecture allows: a PE with N = 31. */
#define BENCH_NAIVE_COUNTERS 31

/* A vPMU mode: a partition (every enum vperf_partition value) and a PMU policy. */
struct bench_mode {
	enum vperf_partition part;
	enum vperf_pmu_mode pmu;
	const char *name;
	/* The hypervisor writes MDCR_EL2 itself at every entry and exit, as nVHE KVM does
	 * (vperf_pcpu_config.hyp_writes_mdcr): writes of its own, not counted as vperf's. */
	bool hyp_mdcr;
};
extern const struct bench_mode bench_modes[];
extern const unsigned int bench_nr_modes;

/* ---- harness.c: the hypervisor ----------------------------------------------------------- */

struct bench_vcpu {
	struct vperf_vcpu v;
	unsigned int cpu;
};

/* What changed on the simulated PEs since bench_clear(), summed over every pCPU. */
struct bench_count {
	uint64_t reads, writes; /* System register accesses through the seam */
	uint64_t mdcr;		/* of which MDCR_EL2 writes */
	uint64_t traps;		/* guest accesses trapped to EL2 and emulated */
	uint64_t undefs;	/* guest accesses that were UNDEFINED */
};

/* The core profile bench_init's PE takes its PMU from (sim/profiles.h), NULL: the default PE. */
extern const struct sim_core_profile *bench_profile;
/* The model (pe_counters, default or bench_profile's otherwise) and vperf on every pCPU, the
 * host keeping host_counters; traps go to vperf. For mode m in the second range (m may be
 * NULL), the PE and the host of BENCH_SECOND_*. */
void bench_init(const struct bench_mode *m, uint8_t pe_counters, uint8_t host_counters);
/* The same with a model configuration of the caller's (SPE scenarios). */
void bench_init_cfg(const struct sim_pe_config *cfg, uint8_t host_counters);
struct vperf_pcpu *bench_pcpu(unsigned int cpu);
/* The benchmark's one VM with mode m and nr_counters; returns vperf_vm_init's result. */
int bench_vm(const struct bench_mode *m, uint8_t nr_counters);
/* The same with a whole policy of the caller's. */
int bench_vm_cfg(const struct vperf_vm_config *cfg);
struct bench_vcpu *bench_vcpu(unsigned int i);
/* Put whoever runs on cpu (if anyone else) and load vc there; the guest runs at EL1. */
void bench_enter(struct bench_vcpu *vc, unsigned int cpu);
void bench_leave(unsigned int cpu);
/* Traps go to the always-trap emulation (naive.c) instead; every PMU access traps. */
void bench_use_emulation(void);
void bench_clear(void);
void bench_count(struct bench_count *c);
/* Only the traps since bench_clear() (any number of accesses in between). */
uint64_t bench_traps(void);
/* The ops vperf calls (their costs are the hypervisor's, not vperf's: named bench_op_*). */
extern const struct vperf_hyp_ops bench_hyp_ops;
const char *bench_err_name(int err);

/* ---- guest.c: what guests do --------------------------------------------------------------- */

uint32_t bench_evcntr_enc(unsigned int n);
uint32_t bench_evtyper_enc(unsigned int n);
/* Program n counters and the cycle counter the way Linux perf does, and start counting. */
void bench_guest_program(unsigned int n);

/* One guest PMU operation (ops.c). */
struct bench_op {
	const char *name;
	void (*run)(unsigned int n); /* n: the guest's counter count */
	unsigned int accesses;	     /* register accesses; 0: n + 1 */
};
extern const struct bench_op bench_ops[];
extern const unsigned int bench_nr_ops;
/* Operation i in a loaded vCPU whose PMU is programmed and live; m NULL: the emulation. Returns
 * vperf_vm_init's result (the counts are valid only for VPERF_OK). */
int bench_op_measure(const struct bench_mode *m, unsigned int i, struct bench_count *c);
/* Guest register accesses of operation i. */
unsigned int bench_op_accesses(unsigned int i);
/* Set up what bench_op_measure measures in: the loaded, live vCPU (or the emulation). */
int bench_op_setup(const struct bench_mode *m);

/* ---- switch.c: vcpu_put + vcpu_load ------------------------------------------------------------ */

enum bench_case {
	BENCH_IDLE,    /* two vCPUs that never touched the PMU */
	BENCH_SAME,    /* an active vCPU back on the same pCPU, nobody used the PMU meanwhile */
	BENCH_OTHER,   /* an active vCPU after another active vCPU used the PMU */
	BENCH_MIGRATE, /* an active vCPU moved to the other pCPU */
	BENCH_NR_CASES
};
extern const char *const bench_case_names[BENCH_NR_CASES];

/* Set up case c for mode m (NULL: the naive full save) with n guest counters; returns
 * vperf_vm_init's result. */
int bench_switch_setup(const struct bench_mode *m, uint8_t n, enum bench_case c);
/* One switch of the case (put + load), alternating between the case's vCPUs or pCPUs. */
void bench_switch_step(void);
/* Accesses of one switch, in the steady state. */
int bench_switch_measure(const struct bench_mode *m, uint8_t n, enum bench_case c,
			 struct bench_count *out);

/* ---- naive.c: the baselines ---------------------------------------------------------------------- */

struct naive_pmu {
	uint64_t evcntr[VPERF_PMU_MAX_COUNTERS], evtyper[VPERF_PMU_MAX_COUNTERS];
	uint64_t ccntr, ccfiltr, cnten, inten, ovs, userenr, selr, pmcr;
};
/* Save / restore every PMU register of a 31-counter PE, unconditionally. */
void naive_vcpu_put(struct naive_pmu *p);
void naive_vcpu_load(const struct naive_pmu *p);
/* The always-trap emulation: every guest register is a shadow, every access a lookup. */
enum vperf_trap_result naive_handle_sysreg(uint64_t esr, uint64_t gprs[31]);
void naive_emul_reset(void);

/* ---- cg.c: the measured loops run under callgrind --------------------------------------------- */

void bench_callgrind(void);
/* The loop callgrind zeroes before and dumps after (--zero-before / --dump-after). */
void bench_cg_measure(void (*fn)(unsigned int), unsigned int arg, unsigned int iterations);

/* ---- spe.c: the vSPE's switch, its PMBIRQ entry, records lost -------------------------------- */

/* Cells: SPE accesses and barriers per switch, records lost over 10^6 switches. */
void bench_spe_counts(void);
/* The callgrind loops of the vSPE switch and PMBIRQ entry (manifest lines, as cg.c). */
void bench_spe_callgrind(void);
/* cg.c: one manifest line. */
void bench_cg_manifest(const char *table, const char *row, const char *col, uint64_t calls);

/* ---- main.c ---------------------------------------------------------------------------------------- */

/* One table cell: table, row, column, value. */
void bench_cell(const char *table, const char *row, const char *col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* fn(m, column) for trapped/SELF and trapped/HV on each core profile make bench measures
 * (bench_profile set meanwhile; main.c). */
void bench_profiles(void (*fn)(const struct bench_mode *m, const char *col));

#endif /* VPERF_BENCH_H */
