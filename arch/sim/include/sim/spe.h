/* SPDX-License-Identifier: MIT */
/*
 * The SPE family of the executable model (SPE 2-5, Arm DDI 0487 K.a D17.5 and D18.2):
 * what tests and the demo use beyond the register seam and guest_run().
 *
 * The profiling operation is modelled as a separate observer (SPE 3.6): sample records wait in an
 * internal queue and are processed (PMBPTR_EL1 moved past them) when the model decides, at the
 * latest at a direct read of PMBPTR/PMBSR after the PSB CSYNC that synchronized them and a
 * context synchronization event; their bytes reach memory only at a DSB after that PSB CSYNC
 * (or after a TLBI, SPE 3.4.4). The indirect reads of the control registers
 * (PMSCR_ELx, PMSFCR/PMSEVFR/PMSNEVFR/PMSLATFR/PMSDSFR/PMSIRR_EL1, PMBLIMITR/PMBPTR/PMBSR_EL1,
 * MDCR_EL2, HCR_EL2) see a direct write only after a context synchronization event (an ISB, or
 * exception entry/return). Where the architecture leaves a choice the model takes the one most
 * likely to expose a hypervisor bug, or the one the seed picks.
 *
 * Records are written through the owning translation regime (SPE 3.4.2) with sim/mem.h and its
 * TLB; a stage 2 (VMID) or owning Exception level change with records of the old context not in
 * memory, and a record written through a stale cached translation, are reported with
 * sim_report_error().
 */
#ifndef VPERF_SIM_SPE_H
#define VPERF_SIM_SPE_H

#include <sim/mem.h>
#include <sim/model.h>

/* PMSIDR_EL1 for a PMSVer: FE, FT, FL, ArchInst, LDS, Interval 256, MaxSize 64 bytes, 12-bit
 * saturating counters; FnE from SPEv1p2 (PMSVer 3); FDS and EFT from SPEv1p4 (PMSVer 5). */
uint64_t sim_spe_default_pmsidr(uint8_t pmsver);
/* PMBIDR_EL1: Align 0 (byte), F 0, P 0 (the model computes P on every read). */
uint64_t sim_spe_default_pmbidr(void);
/* sim_default_config() plus SPE: the given PMSVer and the two default ID registers. */
void sim_spe_default_config(struct sim_pe_config *cfg, uint8_t pmsver);

/* The CONSTRAINED UNPREDICTABLE outcome when ProfilingBufferEnabled() turns FALSE with records
 * not yet written (SPE 3.6.1). */
enum sim_spe_unpred {
	SIM_SPE_UNPRED_SEED,	/* picked by the seed, per event */
	SIM_SPE_UNPRED_WRITE,	/* written to memory */
	SIM_SPE_UNPRED_DISCARD, /* silently discarded */
	SIM_SPE_UNPRED_DL,	/* discarded, with a buffer management event: DL=1, EC=0, BSC=0 */
};

/* When a processed record's bytes reach memory (SPE 3.6; arch/sim/spe/spe_flight.c). */
enum sim_spe_land {
	SIM_SPE_LAND_LATE, /* at the DSB that must complete them, not before (the default) */
	SIM_SPE_LAND_SEED, /* per record, the seed picks: at once, or late */
};

/* The CONSTRAINED UNPREDICTABLE outcome of a write pointer that broke the rules of SPE 3.4.1 when
 * profiling became enabled
 * (arch/sim/spe/spe_wptr.c); data loss and fault level are the seed's. */
enum sim_spe_wptr {
	SIM_SPE_WPTR_SEED,  /* picked by the seed, per enable */
	SIM_SPE_WPTR_WRITE, /* records written from PMBPTR_EL1 on, past the limit */
	SIM_SPE_WPTR_FULL,  /* buffer full event */
	SIM_SPE_WPTR_FAULT, /* stage 1 Translation fault at PMBPTR_EL1 */
};

struct sim_spe_options {
	unsigned int hold; /* records the SPU holds before it must write the oldest
				   * (1..64, default 16) */
	enum sim_spe_unpred unpred;
	enum sim_spe_land land;
	enum sim_spe_wptr wptr;
	bool async_ext_abort; /* external aborts reported asynchronously (SPE 3.5.4) */
};

/* The defaults (hold 16, SEED, LATE, SEED, synchronous external aborts); sim_model_init() restores
 * them. */
void sim_spe_default_options(struct sim_spe_options *o);
void sim_spe_set_options(const struct sim_spe_options *o);

/* State outside the register database that records collect: CONTEXTIDR_EL1/EL2 (D18.2.2) and
 * the generic timer (CNTPCT_EL0 counts the cycles of executed micro-ops; CNTVCT_EL0 is CNTPCT
 * minus CNTVOFF_EL2). */
void sim_spe_set_contextidr(unsigned int cpu, uint32_t el1, uint32_t el2);
void sim_spe_set_time(unsigned int cpu, uint64_t cntpct, uint64_t cntvoff);
/* FEAT_ECV_POFF's physical offset (CNTPOFF_EL2) and the controls that make it count for offset
 * physical time, CNTHCTL_EL2.ECV and SCR_EL3.ECVEn (ignored without EL3); all 0 at reset. */
void sim_spe_set_poff(unsigned int cpu, uint64_t cntpoff, bool cnthctl_ecv, bool scr_ecven);
/* Direct writes of CONTEXTIDR_EL1 and CNTVOFF_EL2, the guest's context, which a hypervisor
 * switches between vCPUs (the setters above only set up a test's starting values): a record not
 * yet synchronized by a PSB CSYNC reads the new value (SPE 3.6). At EL2, a write that changes
 * what such a record carries is reported with sim_report_error(): the switch ran before the put
 * that synchronizes the guest's records. */
void sim_spe_write_contextidr_el1(unsigned int cpu, uint32_t val);
void sim_spe_write_cntvoff(unsigned int cpu, uint64_t val);
uint32_t sim_spe_contextidr_el1(unsigned int cpu);
/* The same write and a read, as EL2 makes them by one of the guest's register's names (FEAT_VHE,
 * which the model's PE has; Arm DDI 0487 K.a, CONTEXTIDR_EL1 and CONTEXTIDR_EL12 in D24.2):
 * with HCR_EL2.E2H = 0 the name CONTEXTIDR_EL1 is the guest's register and CONTEXTIDR_EL12 is
 * UNDEFINED (reported with sim_report_error(), nothing written, 0 read); with E2H = 1
 * CONTEXTIDR_EL12 is the guest's register and CONTEXTIDR_EL1 reaches CONTEXTIDR_EL2. */
enum sim_ctx1_name { SIM_CTX1_BY_EL1, SIM_CTX1_BY_EL12 };
void sim_spe_el2_write_contextidr1(unsigned int cpu, enum sim_ctx1_name name, uint32_t val);
uint32_t sim_spe_el2_read_contextidr1(unsigned int cpu, enum sim_ctx1_name name);
uint64_t sim_spe_cntvoff(unsigned int cpu);

/* What the SPU did, independent of the PMU (the SAMPLE_* events are also signalled to it). */
struct sim_spe_stats {
	uint64_t pop;	    /* SAMPLE_POP: operations in the population while enabled */
	uint64_t feed;	    /* SAMPLE_FEED: sampled and not collided */
	uint64_t filtrate;  /* SAMPLE_FILTRATE: sampled and not removed by filtering */
	uint64_t collision; /* SAMPLE_COLLISION */
	uint64_t written;   /* records written to the Profiling Buffer (PMBPTR_EL1 moved past) */
	uint64_t landed;    /* ... whose bytes have reached memory */
	uint64_t discarded; /* records discarded after filtering (buffer event, disable, discard
			     * mode) */
	uint64_t dropped;   /* ... of which dropped because the buffer was disabled before they
			     * were synchronized (SPE 3.6.1: the discard outcomes) */
	uint64_t events;    /* Profiling Buffer management events */
};
const struct sim_spe_stats *sim_spe_stats(unsigned int cpu);
/* Records in the SPU's queue, not yet written. */
unsigned int sim_spe_pending(unsigned int cpu);
/* Records written (PMBPTR_EL1 moved past them) whose bytes have not reached memory yet. */
unsigned int sim_spe_in_flight(unsigned int cpu);

#endif /* VPERF_SIM_SPE_H */
