/* SPDX-License-Identifier: MIT */
/* The guest payloads' runtime: boot information from the device tree, exceptions, EL0 calls,
 * interrupts, PSCI, and result reporting ("RESULT <test> PASS|FAIL|SKIP <detail>"). */
#ifndef GUEST_GUEST_H
#define GUEST_GUEST_H

#include "../lib/arm.h"
#include "../lib/lib.h"

struct guest_info {
	uint64_t dtb;
	bool has_pmu;	       /* an "arm,armv8-pmuv3" node */
	uint32_t pmu_intid;    /* its PPI as an INTID */
	uint32_t ptimer_intid; /* the EL1 physical timer's (non-secure) PPI, 0: none in the DT */
	uint32_t spe_intid; /* PMBIRQ: the "arm,statistical-profiling-extension-v1" PPI, 0: none */
	uint64_t gicd, gicr;
	uint64_t uart;
	bool psci_smc;	  /* PSCI conduit: /psci method = "smc" */
	bool under_vperf; /* root compatible "vperf,reference-guest" */
	unsigned int ncpus;
	const char *args; /* /chosen/bootargs */
	uint64_t freq;	  /* CNTFRQ_EL0 */
};

extern struct guest_info gi;

struct frame {
	uint64_t x[31];
	uint64_t elr, spsr, esr;
};

/* The payload's own entry, after the runtime is up. */
void payload_main(void);

/* dt.c */
int dt_parse(uint64_t dtb);

/* rt.c */
uint64_t now(void); /* CNTVCT_EL0 */
uint64_t ms_to_ticks(uint64_t ms);
void psci_off(void) __attribute__((noreturn));
/* PSCI_VERSION: a call the hypervisor (or firmware) answers, each one an exit under KVM */
uint64_t psci_version(void);
int64_t psci_cpu_on(uint64_t mpidr, uint64_t entry, uint64_t ctx);
void psci_cpu_off(void) __attribute__((noreturn));
void hyp_mark(uint64_t what, uint64_t iters, uint64_t label);
/* What the reference hypervisor counted for this vCPU and its VM (hyp/psci.c, HYP_TRAP_STATS). */
struct hyp_stats {
	uint64_t traps;	      /* MSR/MRS traps to EL2 */
	uint64_t loads;	      /* times the vCPU was loaded on a pCPU */
	uint64_t vperf_traps; /* the VM's vperf statistics: traps handled */
	uint64_t bad_value;   /* and writes of RES0 bits */
};
bool hyp_trap_stats(struct hyp_stats *st);
const char *arg_str(const char *key); /* value of key=value in bootargs, or NULL */
uint64_t arg_u64(const char *key, uint64_t dflt);
bool arg_is(const char *key, const char *val);
uint64_t el0_call(uint64_t (*fn)(uint64_t), uint64_t arg);
/* Exceptions taken while "expecting": recorded and the instruction skipped. */
void expect_begin(void);
unsigned int expect_end(uint64_t *esr);
void result(const char *name, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void suite_done(void) __attribute__((noreturn));
#define PASS		       0
#define FAIL		       1
#define SKIP		       2
#define CHECK(name, cond, ...) result(name, (cond) ? PASS : FAIL, __VA_ARGS__)

/* gic.c */
void gic_init(void);
void gic_cpu_init(void);
void gic_enable_ppi(uint32_t intid, bool on);
/* A register of this CPU's redistributor SGI_base frame (SGIs and PPIs, one bit each). */
#define GICR_ISPENDR0	0x0200
#define GICR_ISACTIVER0 0x0300
uint32_t gic_ppi_state(uint32_t off);
void irq_register(uint32_t intid, void (*fn)(uint32_t intid));
void irq_dispatch(void);

#endif /* GUEST_GUEST_H */
