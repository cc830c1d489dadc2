/* SPDX-License-Identifier: MIT */
/*
 * The SPE family of the model, shared between its files (spe/spe*.c): the per-CPU state and the
 * functions each file gives the others. Register and packet fields: spe_fields.h.
 *
 * Why its files call each other (an include/call circle, on purpose): the family is one component
 * of the model, one unit of the PE that the Arm ARM's pseudocode describes as a whole, split into
 * files by subject only to keep each short. spe.c is its entry (core/family.h) and calls the
 * buffer, control, sampling and write-pointer parts; they call back its per-CPU state (spe_cpu) and
 * options, and the buffer calls the event and flight parts, which read the controls. Every call
 * stays inside the family; nothing outside it is called back, and a layering inside it would only
 * put that one state behind a second interface.
 */
#ifndef VPERF_SIM_SPE_INTERNAL_H
#define VPERF_SIM_SPE_INTERNAL_H

#include <sim/spe.h>

#include "../core/family.h"
#include "spe_fields.h"

#define SPE_REC_MAX   256u /* the largest 2^MaxSize the model supports */
#define SPE_QUEUE_MAX 64u

/* The registers the profiling operation reads indirectly (SPE 3.6): it sees a direct write only
 * after a context synchronization event. */
enum spe_vreg {
	VR_PMSCR_EL1,
	VR_PMSCR_EL2,
	VR_PMSFCR,
	VR_PMSEVFR,
	VR_PMSNEVFR,
	VR_PMSLATFR,
	VR_PMSDSFR,
	VR_PMSIRR,
	VR_PMBLIMITR,
	VR_PMBPTR,
	VR_PMBSR,
	VR_MDCR,
	VR_HCR,
	VR_COUNT
};

/* A sample record waiting in the SPU to be written to the Profiling Buffer. */
struct spe_qrec {
	uint8_t bytes[SPE_REC_MAX];
	uint16_t len;
	uint16_t vmid;	/* the VMID current when the operation was sampled */
	uint8_t owner;	/* the owning Exception level then */
	bool synced;	/* synchronized by a PSB CSYNC (SPE 3.6) */
	uint64_t epoch; /* context synchronization events before it was generated */
	uint64_t limit; /* PMBLIMITR_EL1 as the profiling operation read it, once synced */
	bool flagged;	/* already reported as undrained at a context change */
};

/* A processed record (PMBPTR_EL1 advanced past it) whose writes to memory have not completed:
 * they complete at the latest at a DSB after the PSB CSYNC that synchronized it (SPE 3.6), or at a
 * DSB after a TLB maintenance operation (SPE 3.4.4). A record spans at most two pages. */
struct spe_flight {
	uint8_t bytes[SPE_REC_MAX];
	uint64_t va; /* PMBPTR_EL1 when it was processed: an aborted write's address */
	uint64_t pa[2];
	uint16_t len[2]; /* len[1] is 0 when the record fits in one page */
	uint16_t vmid;
	uint8_t owner;
	bool synced;
	bool flagged;
	bool dead; /* an external abort on an earlier write stopped the SPE (SPE 3.5.4) */
	uint64_t epoch;
};

struct spe_cpu {
	uint64_t view[VR_COUNT];
	bool dirty[VR_COUNT]; /* a direct write the profiling operation has not seen yet */
	uint64_t epoch;	      /* context synchronization events so far */
	bool psb_seen;	      /* a PSB CSYNC synchronized records not yet written */
	bool psb_visible;     /* ... and a context synchronization event followed it: their
			       * indirect writes are visible to direct reads (SPE 3.6) */
	bool coll_pending;    /* PMBSR_EL1.COLL set by a collision, not yet visible */
	bool psb_await_cse;   /* a PSB CSYNC with no context synchronization event since: direct
			       * reads of PMBPTR/PMBSR return their values at the PSB CSYNC (SPE
			       * 3.6) */
	uint64_t psb_snap[2]; /* PMBPTR_EL1, PMBSR_EL1 then */
	bool was_enabled;     /* StatisticalProfilingEnabled() at the previous operation */
	uint64_t slot;	      /* operations dispatched (one per cycle) */
	uint64_t busy_until;  /* the sampled operation in flight completes at this slot */
	uint64_t busy_epoch;  /* ... and was sampled in this epoch */
	uint64_t cntpct;      /* the physical count: cycles executed */
	uint64_t cntvoff;
	uint64_t cntpoff; /* CNTPOFF_EL2, CNTHCTL_EL2.ECV, SCR_EL3.ECVEn (sim_spe_set_poff) */
	bool cnthctl_ecv, scr_ecven;
	uint32_t contextidr[2]; /* [0]: CONTEXTIDR_EL1 (sim_spe_set_contextidr); EL2's is a
				 * register of the database */
	struct spe_qrec queue[SPE_QUEUE_MAX];
	unsigned int qhead, qlen;
	struct spe_flight flight[SPE_QUEUE_MAX];
	unsigned int fhead, flen;
	bool tlbi_pending;	      /* a TLBI not yet followed by a DSB (SPE 3.4.4) */
	enum sim_spe_wptr wptr;	      /* outcome of a broken SPE 3.4.1 rule; SEED: none */
	enum sim_spe_wptr wptr_early; /* the same, seen at a direct PMBLIMITR_EL1 write */
	bool dl_ptr_valid;	      /* a management event with DL = 1 left PMBPTR_EL1 = dl_ptr */
	uint64_t dl_ptr;
	struct sim_spe_stats stats;
};

extern struct spe_cpu spe_cpus[SIM_MAX_CPUS];
extern struct sim_spe_options spe_options;

static inline struct spe_cpu *spe_cpu(unsigned int cpu)
{
	return &spe_cpus[cpu % SIM_MAX_CPUS];
}

static inline uint64_t spe_idr(unsigned int cpu)
{
	return sim_reg(cpu, SIM_ENC_PMSIDR_EL1);
}

/* spe_fgt.c: does HDFGRTR_EL2 (read) or HDFGWTR_EL2 trap this EL1 access to EL2 (FEAT_FGT)? */
bool spe_fgt_traps(unsigned int cpu, const struct sim_arch_reg *reg, bool read);
/* Reset: the SPE fields of both registers (after the PMU family wrote its own). */
void spe_fgt_reset(unsigned int cpu, const struct sim_pe_config *cfg);

/* spe_regs.c: direct accesses. */
uint64_t spe_write_mask(unsigned int cpu, const struct sim_arch_reg *reg);
/* Every control and buffer register UNKNOWN (seeded garbage), PMBLIMITR_EL1.E 0 (SPE 4.2). */
void spe_reset_unknown(unsigned int cpu);
uint64_t spe_read_value(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
			uint64_t stored);
unsigned int spe_max_size(unsigned int cpu);
unsigned int spe_align(unsigned int cpu);
uint32_t spe_counter_max(unsigned int cpu);
uint64_t spe_filter_events(void);
bool spe_discard_mode(uint64_t limitr);

/* spe_ctl.c: the view and the enable/collection pseudocode of SPE 3.2.3, 3.3.1, 3.4.6. */
void spe_sync_view(unsigned int cpu);
uint64_t spe_view(unsigned int cpu, enum spe_vreg r);
void spe_indirect_write(unsigned int cpu, enum spe_vreg r, uint32_t enc, uint64_t val);
void spe_set_pmbsr(unsigned int cpu, uint64_t val);
unsigned int spe_owner(unsigned int cpu);
bool spe_buffer_enabled(unsigned int cpu);
bool spe_profiling_enabled(unsigned int cpu, unsigned int el);
bool spe_collect_ctx1(unsigned int cpu, unsigned int el);
bool spe_collect_ctx2(unsigned int cpu);
/* What CollectTimeStamp() collects: nothing, CNTPCT - CNTVOFF_EL2, CNTPCT, or CNTPCT minus the
 * physical offset (FEAT_ECV's guest physical time, spe_physical_offset()). */
enum { SPE_TS_NONE, SPE_TS_VIRTUAL, SPE_TS_PHYSICAL, SPE_TS_OFFSET };
int spe_collect_timestamp(unsigned int cpu);
uint64_t spe_physical_offset(unsigned int cpu);
bool spe_collect_pa(unsigned int cpu);
bool spe_unpredictable_bool(unsigned int cpu);

/* spe_filter.c: SPECollectRecord (SPE 3.2.3, Arm DDI 0487 K.a D17.5). */
struct spe_filter_in {
	uint64_t pmsfcr, pmsevfr, pmsnevfr, pmslatfr, pmsdsfr, pmsidr;
	uint64_t events;  /* the record's Events packet */
	uint32_t latency; /* total latency */
	uint8_t flags;	  /* SPE_OPF_* */
	bool has_ds;	  /* a Data Source packet */
	uint8_t ds;	  /* its value */
};
#define SPE_OPF_B    VPERF_BIT(0) /* flags in PMSFCR_EL1 {SIMD, FP, ST, LD, B} order */
#define SPE_OPF_LD   VPERF_BIT(1)
#define SPE_OPF_ST   VPERF_BIT(2)
#define SPE_OPF_FP   VPERF_BIT(3)
#define SPE_OPF_SIMD VPERF_BIT(4)
bool spe_collect_record(unsigned int cpu, const struct spe_filter_in *in);
uint8_t spe_op_flags(const struct sim_uop *op);

/* spe_record.c: the sample record of an operation. */
void spe_build_record(unsigned int cpu, unsigned int el, const struct sim_uop *op,
		      struct spe_mrec *rec);

/* spe_packet.c: the record as packets (D18.2), in the order Context, PC, Operation Type,
 * Events, Counters, branch target, data VA, data PA, Data Source, then Timestamp or End.
 * Returns the length, or 0 if cap is too small. */
size_t spe_mrec_encode(const struct spe_mrec *rec, uint8_t *buf, size_t cap);

/* spe_sample.c: the sample population, interval counter and collisions. */
void spe_step(unsigned int cpu, const struct sim_uop *op);

/* spe_buffer.c: the queue of records and the Profiling Buffer. */
void spe_enqueue(unsigned int cpu, const uint8_t *bytes, size_t len);
void spe_psb_csync(unsigned int cpu);
void spe_process_synced(unsigned int cpu);
void spe_dsb(unsigned int cpu);
void spe_buffer_disabling(unsigned int cpu);
void spe_discard_queue(unsigned int cpu);
void spe_context_change(unsigned int cpu, unsigned int owner, uint16_t vmid, const char *what);

/* spe_ctx.c: a direct write of CONTEXTIDR_EL2 and the records it may still reach (SPE 3.6). */
void spe_contextidr2_written(unsigned int cpu, uint32_t val);

/* spe_event.c: Profiling Buffer management events (SPE 3.5). */
void spe_event(unsigned int cpu, uint64_t pmbsr);
void spe_event_full(unsigned int cpu, bool dl);
void spe_event_fault(unsigned int cpu, unsigned int stage, uint8_t fsc, uint64_t addr, bool dl);
void spe_event_ext_abort(unsigned int cpu, unsigned int stage, uint8_t fsc, uint64_t addr,
			 bool partial);

/* spe_wptr.c: the write-pointer rules of SPE 3.4.1. */
void spe_wptr_enabling(unsigned int cpu);
void spe_wptr_direct_limit(unsigned int cpu, uint64_t limitr);
bool spe_wptr_broken(unsigned int cpu, bool *past_limit);

/* spe_flight.c: processed records on their way to memory. */
void spe_flight_push(unsigned int cpu, const struct spe_qrec *q, uint64_t va, const uint64_t pa[2],
		     const uint16_t len[2]);
void spe_flight_sync(unsigned int cpu);
void spe_flight_land(unsigned int cpu, bool all);
bool spe_flight_flag(unsigned int cpu, unsigned int owner, uint16_t vmid);

#endif /* VPERF_SIM_SPE_INTERNAL_H */
