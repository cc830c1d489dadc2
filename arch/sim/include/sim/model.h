/* SPDX-License-Identifier: MIT */
/*
 * The executable architecture model: one or more simulated PEs with PMUv3, SPE and a GICv3
 * virtual CPU interface, behind the sim accessor seam (sim/cpu.h). Guest code in tests is C that
 * calls guest_mrs / guest_msr / guest_run at EL1 or EL0; the model applies the architected trap
 * and UNDEF rules and, when an access traps to EL2, builds ESR_EL2 exactly as hardware does and
 * calls the EL2 handler the test hypervisor registered.
 *
 * The model is adversarial: where the architecture allows a choice, it takes the one most
 * likely to expose a hypervisor bug, driven by the seed (docs/model.md).
 */
#ifndef VPERF_SIM_MODEL_H
#define VPERF_SIM_MODEL_H

#include <sim/cpu.h>
#include <sim/arch_regs.h>

/* ---- configuration ---------------------------------------------------------------------- */

struct sim_pe_config {
	uint8_t pmuver;	     /* ID_AA64DFR0_EL1.PMUVer: 1 = v3, 4 = v3p1, 5 = v3p4, 6 = v3p5 ... */
	uint8_t nr_counters; /* PMCR_EL0.N, 0..31 */
	bool hpmn0;	     /* FEAT_HPMN0 */
	bool fgt;	     /* FEAT_FGT: HDFGRTR_EL2 / HDFGWTR_EL2 (ID_AA64MMFR0_EL1.FGT = 1) */
	uint32_t cpus_without_fgt;   /* a heterogeneous system: the CPUs (bit n: CPU n) that lack */
	uint32_t cpus_without_hpmn0; /* FEAT_FGT / FEAT_HPMN0 although fgt / hpmn0 is set */
	bool extpmn;		     /* FEAT_PMUv3_EXTPMN: PMCCR.EPMN/EPME (I5.3.47) */
	uint8_t epmn;		     /* PMCCR.EPMN, the external agent's range is [epmn, N) */
	bool epme;		     /* PMCCR.EPME: the third range counts */
	uint8_t pmsver;		     /* ID_AA64DFR0_EL1.PMSVer, 0 = no SPE */
	uint64_t pmsidr;	     /* PMSIDR_EL1 */
	uint64_t pmbidr;	     /* PMBIDR_EL1 */
	uint64_t seed;		     /* the adversary's choices */
	uint32_t el2_trap_cycles;    /* cycles (and instructions) executed at EL2 per trap taken, so
				   * that counting at EL2 is observable */
	uint8_t nr_lrs;		     /* ICH_VTR_EL2.ListRegs + 1, 1..16 */
	bool el3;		     /* EL3 is implemented (PMEVTYPER NSK/NSU/M, PMCR_EL0.DP) */
	bool aarch32_el0;   /* AArch32 at EL0 (FEAT_AA32, ID_AA64PFR0_EL1.EL0 = 0b0010): PMCR_EL0.LC
			   * and D hold a value, LC = 0 overflows the cycle counter at 32 bits */
	bool mdcr_el3_spme; /* MDCR_EL3.SPME: event counting allowed at EL3 and in Secure state */
	bool pmu_export_bus; /* PMCR_EL0.X is implemented (else RAZ/WI) */
	/* The PMUv3p1 stall events it implements, advertised in PMCEID1_EL0: bit 0 STALL_FRONTEND
	 * (0x23), bit 1 STALL_BACKEND (0x24). The model's core never stalls, so they count
	 * nothing; pCPUs that differ here are big.LITTLE clusters with other common events. */
	uint8_t stall_events;
	bool reset_zero; /* registers that reset to UNKNOWN start as 0 instead of seeded garbage
			  * (model unit tests that reason from a clean state) */
	uint32_t el2_exit_cycles; /* cycles at EL2 after a trap handler, before its ERET (0: none):
				   * EL2 execution inside the PMU's synchronization window */
	uint8_t pmuirq_latency;	  /* enum sim_irq_latency: when an asserted PMUIRQ is taken */
	uint16_t pmuirq_polls;	  /* AFTER_POLLS / AFTER_TRAP: poll points it waits (at most) */
	/* Newer hardware (docs/model.md, "What the model enforces for the PMU"): */
	bool icntr; /* FEAT_PMUv3_ICNTR (with pmuver >= 9): PMICNTR_EL0, PMICFILTR_EL0,
			      * counter index 32 (F0); ID_AA64DFR1_EL1.PMICNTR = 1 */
	bool fgt2;  /* FEAT_FGT2 (with fgt): HDFGRTR2_EL2 / HDFGWTR2_EL2, MMFR0.FGT = 2 */
	bool mt;    /* MPIDR_EL1.MT = 1: a multithreaded core, whose other thread runs
			      * sim_run_sibling()'s ops */
	uint32_t cpus_without_mt; /* the CPUs (bit n: CPU n) that are not threads although mt */
	uint8_t mtpmu;		  /* enum sim_mtpmu: ID_AA64DFR0_EL1.MTPMU */
	bool mdcr_el3_mtpme;	  /* MDCR_EL3.MTPME (firmware's; with EL3 and FEAT_MTPMU) */
	bool sel2;		  /* FEAT_SEL2 (with el3): Secure EL2, PMEVTYPER<n>.SH */
	/* Firmware (with el3 and SPE): MDCR_EL3.NSPB = 0b00, EL3 keeps the Profiling Buffer for
	 * Secure state (SPE 3.4.2). PMBIDR_EL1.P reads 1 at EL2 and Non-secure EL1; every other
	 * SPE register access there that no EL2 trap takes first traps to EL3 (SPE 4.3), which
	 * the model reports as an error (sim_report_error), the access UNDEFINED; SPE never
	 * samples in Non-secure state (ProfilingBufferEnabled, SPE 3.4.6). */
	bool mdcr_el3_nspb_secure;
	uint8_t ecv; /* ID_AA64MMFR0_EL1.ECV: 1 FEAT_ECV (PMSCR_EL1/EL2.PCT[1]), 2 FEAT_ECV_POFF
		      * (and CNTPOFF_EL2, CNTHCTL_EL2.ECV, SCR_EL3.ECVEn: sim_spe_set_poff) */
};

/* ID_AA64DFR0_EL1.MTPMU [51:48] (a signed field, its description in D24.2): */
enum sim_mtpmu {
	SIM_MTPMU_NONE,	  /* 0b1111: no multi-threaded PMU extension, PMEVTYPER<n>.MT RES0 */
	SIM_MTPMU_FEAT,	  /* 0b0001: FEAT_MTPMU, MT enabled by MDCR_EL3/MDCR_EL2.MTPME */
	SIM_MTPMU_IMPDEF, /* 0b0000: before Armv8.6, an IMPLEMENTATION DEFINED MT extension,
			   * MT always effective */
};

/* When the GIC takes PMUIRQ once its line is high (the architecture bounds no latency; a level
 * interrupt whose line drops before it is taken is never taken). SEEDED, the default, draws
 * one of the others per assertion: immediately, after 1-16 more poll points (guest ops or
 * accesses), at the first poll after the guest's next trap to EL2 (at most 64 polls), or
 * 16-255 polls late, across vCPU switches. */
enum sim_irq_latency {
	SIM_IRQ_SEEDED,
	SIM_IRQ_IMMEDIATE,
	SIM_IRQ_AFTER_POLLS,
	SIM_IRQ_AFTER_TRAP,
};

/* The defaults: PMUv3p5, 6 counters, EL3, no SPE, 4 list registers, 20 EL2 cycles per trap. */
void sim_default_config(struct sim_pe_config *cfg);

/* Reset every simulated CPU (sim_reset) and give each the configuration: ID registers,
 * PMCR_EL0.N, PMSIDR/PMBIDR, ICH_VTR_EL2, and the model's hooks on the register files. */
void sim_model_init(const struct sim_pe_config *cfg);
/* The same with a configuration of its own for each CPU (a heterogeneous system: other PMU and
 * SPE versions, counter counts, features per CPU); the current CPU is 0 afterwards. */
void sim_model_init_cpus(const struct sim_pe_config cfgs[SIM_MAX_CPUS]);
/* The current CPU's configuration (sim_current_cpu()), and that of CPU cpu. */
const struct sim_pe_config *sim_model_config(void);
const struct sim_pe_config *sim_cpu_config(unsigned int cpu);
/* The current PE's PMUv3 version, ID_AA64DFR0_EL1.PMUVer, with 0xF (an IMPLEMENTATION DEFINED PMU, no
 * PMUv3) read as 0: every version comparison of the model goes through it. */
uint8_t sim_pmu_version(void);
/* Does simulated CPU cpu implement FEAT_FGT / FEAT_HPMN0 (the configuration and its
 * per-CPU exceptions)? */
bool sim_pe_fgt(unsigned int cpu);
bool sim_pe_hpmn0(unsigned int cpu);
/* FEAT_FGT2 on cpu; FEAT_PMUv3_ICNTR on the current CPU. */
bool sim_pe_fgt2(unsigned int cpu);
/* MPIDR_EL1.MT on cpu: a thread of a multithreaded core. */
bool sim_pe_mt(unsigned int cpu);
/* cpu's firmware keeps SPE's Profiling Buffer for Secure state (mdcr_el3_nspb_secure, with EL3
 * and SPE). */
bool sim_pe_spe_secure(unsigned int cpu);
bool sim_pe_icntr(void);

/* ---- execution state --------------------------------------------------------------------- */

/* The Exception level the current CPU executes guest code at (0 or 1); EL2 while a handler runs. */
void sim_set_el(unsigned int el);
unsigned int sim_el(void);
/* During a trap to EL2: the Exception level the trapped access came from (SPSR_EL2.M). */
unsigned int sim_trap_el(void);

/* A model-detected hypervisor error (wrong sequence, a trap left undecided, a clobbered GPR,
 * a record written into another VM's memory...). Tests assert there are none, or exactly the
 * expected one. */
struct sim_error {
	unsigned int cpu;
	const char *what;
};
unsigned int sim_error_count(void);
const struct sim_error *sim_error_at(unsigned int i);
void sim_report_error(unsigned int cpu, const char *what);

/* ---- EL2: the test hypervisor's entry points -------------------------------------------------- */

/* Called for a guest access that traps to EL2 (EC=0x18), with the guest's x0..x30. The handler
 * must decide: sim_advance_pc() (emulated) or sim_inject_undef() (UNDEF). */
typedef void (*sim_sysreg_trap_fn)(void *ctx, unsigned int cpu, uint64_t esr, uint64_t gprs[31]);
/* Called for a physical interrupt taken to EL2 (HCR_EL2.IMO = 1), with its INTID. */
typedef void (*sim_irq_fn)(void *ctx, unsigned int cpu, uint32_t intid);
/* Called for a virtual interrupt the guest takes (the guest's IRQ handler), with its INTID. */
typedef void (*sim_virq_fn)(void *ctx, unsigned int cpu, uint32_t intid);

struct sim_handlers {
	void *ctx;
	sim_sysreg_trap_fn sysreg_trap;
	sim_irq_fn irq;
	sim_virq_fn guest_irq;
};
void sim_set_handlers(const struct sim_handlers *h);

/* An exception to EL2 and its return (an interrupt handler, a trap): the core switches EL,
 * charges the EL2 cycles and marks both as context synchronization events. */
void sim_enter_el2(unsigned int cpu);
void sim_exit_el2(unsigned int cpu);

/* What the hypervisor's ops call during a trap on the current CPU. */
void sim_advance_pc(void);
void sim_inject_undef(void);

/* ---- guest code ------------------------------------------------------------------------------ */

enum sim_access {
	SIM_ACC_OK,	  /* performed at the guest's EL */
	SIM_ACC_UNDEF,	  /* UNDEFINED at the guest's EL (or UNDEF injected by EL2) */
	SIM_ACC_TRAP_EL1, /* trapped to the guest's own EL1 (EL0 access disabled by EL1) */
	SIM_ACC_TRAP_EL2, /* trapped to EL2 and emulated there */
};

struct sim_guest_stats {
	enum sim_access last;
	uint64_t last_esr; /* ESR_EL2 of the last trap to EL2 */
	uint64_t undefs, el1_traps, el2_traps;
};

/* MRS/MSR executed by the guest on the current CPU at sim_el(). An access that is UNDEF or
 * trapped to EL1 reads 0. */
uint64_t guest_mrs(uint32_t enc);
void guest_msr(uint32_t enc, uint64_t val);
/* The same with Rt = 31, XZR: MRS discards the value, MSR writes zero (ESR_EL2.ISS.Rt = 31). */
void guest_mrs_xzr(uint32_t enc);
void guest_msr_xzr(uint32_t enc);
/* Guest code in tests names registers as vperf's seam does (VPERF_ENC_<name>: include
 * <arch/sysreg.h>); the model itself never uses those names (sim/arch_regs.h). */
#define guest_read(name)       guest_mrs(VPERF_ENC_##name)
#define guest_write(name, val) guest_msr(VPERF_ENC_##name, (val))
const struct sim_guest_stats *sim_guest_stats(unsigned int cpu);

/* ---- micro-operations -------------------------------------------------------------------------- */

enum sim_uop_type {
	SIM_UOP_OTHER, /* integer ALU and anything unclassified */
	SIM_UOP_LOAD,
	SIM_UOP_STORE,
	SIM_UOP_BRANCH, /* branch or exception return */
};

enum sim_uop_flags {
	SIM_UOP_L1D_REFILL = 1u << 0, /* the access missed L1D */
	SIM_UOP_TLB_REFILL = 1u << 1, /* the access missed the TLB */
	SIM_UOP_MISPRED = 1u << 2,    /* branch mispredicted */
	SIM_UOP_TAKEN = 1u << 3,      /* branch taken */
	SIM_UOP_COND = 1u << 4,	      /* conditional branch */
	SIM_UOP_INDIRECT = 1u << 5,   /* indirect branch */
	SIM_UOP_SIMD = 1u << 6,	      /* Advanced SIMD / SVE operation */
	SIM_UOP_FP = 1u << 7,	      /* floating-point operation */
	SIM_UOP_ATOMIC = 1u << 8,     /* atomic load/store */
	SIM_UOP_EXCL = 1u << 9,	      /* load/store exclusive */
	SIM_UOP_ACQREL = 1u << 10,    /* acquire/release */
	SIM_UOP_SW_INCR = 1u << 11,   /* not an op: the guest wrote PMSWINC (internal) */
};

struct sim_uop {
	uint64_t pc;
	uint64_t vaddr;	     /* load/store: virtual address; branch: target */
	uint64_t paddr;	     /* load/store: physical address, for SPE's PA packet (0: = vaddr) */
	uint32_t latency;    /* total latency in cycles, >= 1: the op's CPU_CYCLES */
	uint16_t issue_lat;  /* cycles from dispatch to issue */
	uint16_t xlat_lat;   /* translation latency of a load/store */
	uint8_t type;	     /* enum sim_uop_type */
	uint8_t size_log2;   /* access size, bytes = 1 << size_log2 */
	uint8_t data_source; /* SPE Data Source packet value of a load */
	uint8_t pad;
	uint32_t flags; /* enum sim_uop_flags */
};

/* Execute ops at sim_el() on the current CPU: counters count, SPE samples, interrupts are
 * taken between ops (to EL2, or to the guest's handler). */
void guest_run(const struct sim_uop *ops, size_t n);
/* Execute ops in Secure state at el (0, 1: Secure EL0/EL1; 3: EL3) on the current CPU, as a
 * TrustZone OS or the firmware would while a vCPU is loaded: only the PMU sees them (no
 * interrupt is taken, SPE does not sample). Needs cfg.el3. */
void sim_run_secure(unsigned int el, const struct sim_uop *ops, size_t n);
/* The other thread of the current CPU's core (cfg.mt) executes ops at Non-secure el (0, 1):
 * only the PMU sees them, through counters whose PMEVTYPER<n>_EL0.MT is effective (I5.3.30 MT:
 * "count events from any PE with the same affinity at level 1 and above"). Needs cfg.mt. */
void sim_run_sibling(unsigned int el, const struct sim_uop *ops, size_t n);
/* The current CPU executes in Secure state (inside sim_run_secure). */
bool sim_secure(void);
/* An EL2 write of MDCR_EL2, PMCR_EL0 or PMCNTEN is not yet synchronized for counting (no ISB,
 * exception entry or return since): EL2 execution may still be counted with the old values. */
bool sim_pmu_window_open(unsigned int cpu);

/* ---- families: the PMU, SPE and GIC parts of the model (arch/sim/core/family.h) -------------- */

/* Architectural events the PMU counts (Arm DDI 0487 K.a D14 / SPE 2.6). */
enum sim_pmu_event {
	SIM_EV_SW_INCR = 0x00,
	SIM_EV_L1D_CACHE_REFILL = 0x03,
	SIM_EV_L1D_CACHE = 0x04,
	SIM_EV_INST_RETIRED = 0x08,
	SIM_EV_BR_MIS_PRED = 0x10,
	SIM_EV_CPU_CYCLES = 0x11,
	SIM_EV_MEM_ACCESS = 0x13,
	SIM_EV_CHAIN = 0x1e,
	SIM_EV_STALL_FRONTEND = 0x23, /* PMUv3p1: advertised by stall_events, never counted */
	SIM_EV_STALL_BACKEND = 0x24,
	SIM_EV_LD_SPEC = 0x70,
	SIM_EV_ST_SPEC = 0x71,
	SIM_EV_SAMPLE_POP = 0x4000,
	SIM_EV_SAMPLE_FEED = 0x4001,
	SIM_EV_SAMPLE_FILTRATE = 0x4002,
	SIM_EV_SAMPLE_COLLISION = 0x4003,
};

/* Count n occurrences of an event on the current CPU at the current EL (used by SPE for the
 * SAMPLE_* events). */
void sim_pmu_event(enum sim_pmu_event ev, uint64_t n);

/* The CPU powered down and came back (a PSCI power-down state, or offline and online again):
 * its PMU and SPE registers are UNKNOWN again (seeded garbage, PMBLIMITR_EL1.E 0) and MDCR_EL2
 * is as its boot code leaves it, as at the model's reset; SPE records still in flight are lost,
 * reported as an error (the software drains them first: PSB CSYNC, DSB). The GIC's virtual CPU
 * interface is not reset (the hypervisor's to save, not vperf's). */
void sim_power_cycle(unsigned int cpu);

/* Physical interrupt lines (level) of the current CPU, recomputed by their families. */
enum sim_line { SIM_LINE_PMUIRQ, SIM_LINE_PMBIRQ, SIM_NR_LINES };
void sim_set_line(unsigned int cpu, enum sim_line line, bool level);
bool sim_line(unsigned int cpu, enum sim_line line);
/* The PMEVTYPER<n>_EL0 (cycle: PMCCFILTR_EL0) fields the configured PE implements (I5.3.30,
 * I5.3.2): what an EL2 or untrapped write keeps. */
uint64_t sim_pmu_type_fields(bool cycle);
/* INTID of each physical line (PMUIRQ 23, PMBIRQ 21 by default). */
uint32_t sim_line_intid(enum sim_line line);

/* Deterministic pseudo-random numbers from the seed (xorshift64*), per CPU. */
uint64_t sim_random(unsigned int cpu);

#endif /* VPERF_SIM_MODEL_H */
