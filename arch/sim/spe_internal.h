/* SPDX-License-Identifier: MIT */
/*
 * The SPE family of the model, shared between its files (spe*.c): register fields, the per-CPU
 * state, and the functions each file gives the others.
 *
 * Field positions: SPE supplement section 4.3 for everything it describes; the fields added by
 * later versions (PMSFCR_EL1.{FnE, FDS, FP, SIMD, Bm, LDm, STm, FPm, SIMDm}, PMSIDR_EL1.{FnE,
 * FDS, EFT, FPF}, PMSLATFR_EL1.MINLAT[15:0] with 16-bit counters, PMBLIMITR_EL1.FM = 0b10 discard
 * mode, PMSCR_EL1.PCT[7]) from the Arm ARM register descriptions as published in Linux's
 * arch/arm64/tools/sysreg (FEAT_SPE_EFT/FDS series).
 */
#ifndef VPERF_SIM_SPE_INTERNAL_H
#define VPERF_SIM_SPE_INTERNAL_H

#include <sim/spe.h>

#include "model_family.h"

/* PMSCR_EL1 / PMSCR_EL2 (4.3.5, 4.3.7) */
#define PMSCR_E0SPE VPERF_BIT(0) /* PMSCR_EL2: E0HSPE */
#define PMSCR_E1SPE VPERF_BIT(1) /* PMSCR_EL2: E2SPE */
#define PMSCR_CX    VPERF_BIT(3)
#define PMSCR_PA    VPERF_BIT(4)
#define PMSCR_TS    VPERF_BIT(5)
#define PMSCR_PCT   VPERF_BIT(6)
#define PMSCR_PCT1  VPERF_BIT(7) /* PCT[1], FEAT_SPEv1p2 */

/* PMSICR_EL1 (4.3.10) */
#define PMSICR_COUNT_MASK   VPERF_GENMASK(31, 0)
#define PMSICR_ECOUNT_SHIFT 56
#define PMSICR_ECOUNT_MASK  VPERF_GENMASK(63, 56)

/* PMSIRR_EL1 (4.3.12) */
#define PMSIRR_RND	     VPERF_BIT(0)
#define PMSIRR_INTERVAL_MASK VPERF_GENMASK(31, 8)

/* PMSFCR_EL1 (4.3.9; D17.5) */
#define PMSFCR_FE	  VPERF_BIT(0)
#define PMSFCR_FT	  VPERF_BIT(1)
#define PMSFCR_FL	  VPERF_BIT(2)
#define PMSFCR_FNE	  VPERF_BIT(3)
#define PMSFCR_FDS	  VPERF_BIT(4)
#define PMSFCR_B	  VPERF_BIT(16)
#define PMSFCR_LD	  VPERF_BIT(17)
#define PMSFCR_ST	  VPERF_BIT(18)
#define PMSFCR_FP	  VPERF_BIT(19)
#define PMSFCR_SIMD	  VPERF_BIT(20)
#define PMSFCR_CTRL_SHIFT 16 /* {SIMD, FP, ST, LD, B} at [20:16] */
#define PMSFCR_MASK_SHIFT 48 /* {SIMDm, FPm, STm, LDm, Bm} at [52:48] */

/* PMSEVFR_EL1 / PMSNEVFR_EL1: the events a filter can select (supplement 3.2.3 CollectRecord:
 * events<63:48,31:24,15:12,7,5,3,1>). */
#define SPE_FILTER_EVENTS                                                                       \
	(VPERF_GENMASK(63, 48) | VPERF_GENMASK(31, 24) | VPERF_GENMASK(15, 12) | VPERF_BIT(7) | \
	 VPERF_BIT(5) | VPERF_BIT(3) | VPERF_BIT(1))

/* PMSIDR_EL1 (4.3.11) */
#define PMSIDR_FE		VPERF_BIT(0)
#define PMSIDR_FT		VPERF_BIT(1)
#define PMSIDR_FL		VPERF_BIT(2)
#define PMSIDR_ARCHINST		VPERF_BIT(3)
#define PMSIDR_LDS		VPERF_BIT(4)
#define PMSIDR_ERND		VPERF_BIT(5)
#define PMSIDR_FNE		VPERF_BIT(6)
#define PMSIDR_FDS		VPERF_BIT(7)
#define PMSIDR_INTERVAL_SHIFT	8
#define PMSIDR_MAXSIZE_SHIFT	12
#define PMSIDR_COUNTSIZE_SHIFT	16
#define PMSIDR_EFT		VPERF_BIT(26)
#define PMSIDR_FPF		VPERF_BIT(27)
#define PMSIDR_COUNTSIZE_12_SAT 2u
#define PMSIDR_COUNTSIZE_16_SAT 3u

/* PMBIDR_EL1 (4.3.1) */
#define PMBIDR_ALIGN_MASK VPERF_GENMASK(3, 0)
#define PMBIDR_P	  VPERF_BIT(4)
#define PMBIDR_F	  VPERF_BIT(5)

/* PMBLIMITR_EL1 (4.3.2) */
#define PMBLIMITR_E	     VPERF_BIT(0)
#define PMBLIMITR_FM_SHIFT   1
#define PMBLIMITR_FM_MASK    VPERF_GENMASK(2, 1)
#define PMBLIMITR_FM_DISCARD 2u /* D17.5.5, FEAT_SPEv1p2 */
#define PMBLIMITR_LIMIT_MASK VPERF_GENMASK(63, 12)

/* PMBSR_EL1 (4.3.4) */
#define PMBSR_EC_SHIFT 26
#define PMBSR_EC_MASK  VPERF_GENMASK(31, 26)
#define PMBSR_DL       VPERF_BIT(19)
#define PMBSR_EA       VPERF_BIT(18)
#define PMBSR_S	       VPERF_BIT(17)
#define PMBSR_COLL     VPERF_BIT(16)
#define PMBSR_MSS_MASK VPERF_GENMASK(15, 0)
#define PMBSR_EC_OTHER 0x00u
#define PMBSR_EC_S1_DA 0x24u
#define PMBSR_EC_S2_DA 0x25u
#define PMBSR_BSC_FULL 0x01u
#define PMBSR_WRITABLE (PMBSR_EC_MASK | PMBSR_DL | PMBSR_EA | PMBSR_S | PMBSR_COLL | PMBSR_MSS_MASK)

/* HCR_EL2 fields the SPE reads (Arm ARM HCR_EL2: VM [0], TGE [27]; not in facts.md). */
#define HCR_EL2_VM  VPERF_BIT(0)
#define HCR_EL2_TGE VPERF_BIT(27)

#define SPE_REC_MAX   256u /* the largest 2^MaxSize the model supports */
#define SPE_QUEUE_MAX 64u

/* The registers the profiling operation reads indirectly (3.6): it sees a direct write only
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
	bool synced;	/* synchronized by a PSB CSYNC (3.6) */
	uint64_t epoch; /* context synchronization events before it was generated */
	uint64_t limit; /* PMBLIMITR_EL1 as the profiling operation read it, once synced */
	bool flagged;	/* already reported as undrained at a context change */
};

/* A processed record (PMBPTR_EL1 advanced past it) whose writes to memory have not completed:
 * they complete at the latest at a DSB after the PSB CSYNC that synchronized it (3.6), or at a
 * DSB after a TLB maintenance operation (3.4.4). A record spans at most two pages. */
struct spe_flight {
	uint8_t bytes[SPE_REC_MAX];
	uint64_t va; /* PMBPTR_EL1 when it was processed: an aborted write's address */
	uint64_t pa[2];
	uint16_t len[2]; /* len[1] is 0 when the record fits in one page */
	uint16_t vmid;
	uint8_t owner;
	bool synced;
	bool flagged;
	bool dead; /* an external abort on an earlier write stopped the SPE (3.5.4) */
	uint64_t epoch;
};

struct spe_cpu {
	uint64_t view[VR_COUNT];
	bool dirty[VR_COUNT]; /* a direct write the profiling operation has not seen yet */
	uint64_t epoch;	      /* context synchronization events so far */
	bool psb_seen;	      /* a PSB CSYNC synchronized records not yet written */
	bool psb_visible;     /* ... and a context synchronization event followed it: their
			       * indirect writes are visible to direct reads (3.6) */
	bool coll_pending;    /* PMBSR_EL1.COLL set by a collision, not yet visible */
	bool psb_await_cse;   /* a PSB CSYNC with no context synchronization event since: direct
			       * reads of PMBPTR/PMBSR return their values at the PSB CSYNC (3.6) */
	uint64_t psb_snap[2]; /* PMBPTR_EL1, PMBSR_EL1 then */
	bool was_enabled;     /* StatisticalProfilingEnabled() at the previous operation */
	uint64_t slot;	      /* operations dispatched (one per cycle) */
	uint64_t busy_until;  /* the sampled operation in flight completes at this slot */
	uint64_t cntpct;      /* the physical count: cycles executed */
	uint64_t cntvoff;
	uint32_t contextidr[2]; /* [0]: CONTEXTIDR_EL1 (sim_spe_set_contextidr); EL2's is a
				 * register of the database */
	struct spe_qrec queue[SPE_QUEUE_MAX];
	unsigned int qhead, qlen;
	struct spe_flight flight[SPE_QUEUE_MAX];
	unsigned int fhead, flen;
	bool tlbi_pending;	/* a TLB maintenance operation not yet followed by a DSB (3.4.4) */
	enum sim_spe_wptr wptr; /* a broken 3.4.1 rule's outcome; SEED: the rules held */
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
	return sim_reg(cpu, VPERF_ENC_PMSIDR_EL1);
}

/* spe_regs.c: direct accesses. */
uint64_t spe_write_mask(unsigned int cpu, const struct vperf_sysreg_desc *d);
uint64_t spe_read_value(unsigned int cpu, unsigned int el, const struct vperf_sysreg_desc *d,
			uint64_t stored);
unsigned int spe_max_size(unsigned int cpu);
unsigned int spe_align(unsigned int cpu);
uint32_t spe_counter_max(unsigned int cpu);

/* spe_ctl.c: the view and the enable/collection pseudocode of 3.2.3, 3.3.1, 3.4.6. */
void spe_sync_view(unsigned int cpu);
uint64_t spe_view(unsigned int cpu, enum spe_vreg r);
void spe_indirect_write(unsigned int cpu, enum spe_vreg r, uint32_t enc, uint64_t val);
void spe_set_pmbsr(unsigned int cpu, uint64_t val);
unsigned int spe_owner(unsigned int cpu);
bool spe_buffer_enabled(unsigned int cpu);
bool spe_profiling_enabled(unsigned int cpu, unsigned int el);
bool spe_collect_ctx1(unsigned int cpu, unsigned int el);
bool spe_collect_ctx2(unsigned int cpu);
int spe_collect_timestamp(unsigned int cpu); /* 0 none, 1 virtual, 2 physical */
bool spe_collect_pa(unsigned int cpu);
bool spe_unpredictable_bool(unsigned int cpu);

/* spe_filter.c: SPECollectRecord (3.2.3, D17.5). */
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

/*
 * The model's sample record, in the terms of D18.2 and independent of vperf's codec
 * (virt/spe): which packets it has and their fields. spe_record.c fills it from a micro-op,
 * spe_packet.c writes it as bytes.
 */
#define SPE_MR_CTX1    VPERF_BIT(0) /* Context packet, INDEX 0: CONTEXTIDR_EL1 */
#define SPE_MR_CTX2    VPERF_BIT(1) /* Context packet, INDEX 1: CONTEXTIDR_EL2 */
#define SPE_MR_TGT     VPERF_BIT(2) /* Address, INDEX 1: branch target */
#define SPE_MR_DATA_VA VPERF_BIT(3) /* Address, INDEX 2 */
#define SPE_MR_DATA_PA VPERF_BIT(4) /* Address, INDEX 3 */
#define SPE_MR_XLAT    VPERF_BIT(5) /* Counter, INDEX 2: translation latency */
#define SPE_MR_DSRC    VPERF_BIT(6) /* Data Source packet */
#define SPE_MR_TS      VPERF_BIT(7) /* ends with a Timestamp packet, else with End */

/* D18.2.7 payload types the model produces, and their one-bit fields. */
enum spe_mop {
	SPE_MOP_OTHER,
	SPE_MOP_LDST_GP,
	SPE_MOP_LDST_SIMD_FP,
	SPE_MOP_LDST_EXT,
	SPE_MOP_BRANCH
};
#define SPE_MOPF_ST   VPERF_BIT(0) /* load/store: a store */
#define SPE_MOPF_COND VPERF_BIT(1) /* other, branch: conditional */
#define SPE_MOPF_FP   VPERF_BIT(2) /* other: floating-point (FEAT_SPE_FPF) */
#define SPE_MOPF_ASE  VPERF_BIT(3) /* other: Advanced SIMD (FEAT_SPE_FPF) */
#define SPE_MOPF_AR   VPERF_BIT(4) /* load/store extended: acquire/release */
#define SPE_MOPF_EXCL VPERF_BIT(5) /* ... exclusive */
#define SPE_MOPF_AT   VPERF_BIT(6) /* ... atomic */
#define SPE_MOPF_IND  VPERF_BIT(7) /* branch: indirect */

/* D18.2.6 event bits the model sets. */
#define SPE_EV_RETIRED	  1
#define SPE_EV_L1D_ACCESS 2
#define SPE_EV_L1D_REFILL 3
#define SPE_EV_TLB_ACCESS 4
#define SPE_EV_TLB_WALK	  5
#define SPE_EV_NOT_TAKEN  6
#define SPE_EV_MISPRED	  7
#define SPE_EV_ALIGNMENT  11

struct spe_maddr {
	uint64_t addr; /* bits [55:0] */
	uint8_t el;    /* instruction addresses: the EL */
	uint8_t ns;    /* instruction addresses and the data PA: NS */
	uint8_t tag;   /* data VA: bits [63:56] */
};

struct spe_mrec {
	uint32_t have; /* SPE_MR_*; the PC, Operation Type, Events and the total and issue
			* latency Counters are in every record */
	uint32_t ctx[2];
	struct spe_maddr pc, tgt, data_va, data_pa;
	uint8_t op;	     /* enum spe_mop */
	uint8_t opf;	     /* SPE_MOPF_* */
	uint8_t events_size; /* Events payload bytes: 1, 2, 4 or 8 */
	uint8_t dsrc_size;   /* Data Source payload bytes: 1 or 2 */
	uint64_t events;
	uint16_t cnt[3]; /* total, issue, translation latency */
	uint16_t dsrc;
	uint64_t ts;
};

/* spe_record.c: the sample record of an operation. */
uint64_t spe_op_events(unsigned int cpu, const struct sim_uop *op);
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
void spe_vmid_switch(unsigned int cpu, uint16_t old); /* spe.c, called by mem.c */

/* spe_ctx.c: a direct write of CONTEXTIDR_EL2 and the records it may still reach (3.6). */
void spe_contextidr2_written(unsigned int cpu, uint32_t val);

/* mem_tlb.c: forget every cached translation (sim_mem_reset). */
void sim_mem_tlb_reset(void);

/* spe_event.c: Profiling Buffer management events (3.5). */
void spe_event(unsigned int cpu, uint64_t pmbsr);
void spe_event_full(unsigned int cpu, bool dl);
void spe_event_fault(unsigned int cpu, unsigned int stage, uint8_t fsc, uint64_t addr, bool dl);
void spe_event_ext_abort(unsigned int cpu, unsigned int stage, uint8_t fsc, uint64_t addr,
			 bool partial);

/* spe_wptr.c: the write-pointer rules of 3.4.1. */
void spe_wptr_enabling(unsigned int cpu);
void spe_wptr_direct_limit(unsigned int cpu, uint64_t limitr);
bool spe_wptr_broken(unsigned int cpu, bool *past_limit);

/* spe_flight.c: processed records on their way to memory. */
void spe_flight_push(unsigned int cpu, const struct spe_qrec *q, uint64_t va, const uint64_t pa[2],
		     const uint16_t len[2]);
void spe_flight_sync(unsigned int cpu);
void spe_flight_land(unsigned int cpu, bool all);
bool spe_flight_flag(unsigned int cpu, unsigned int owner, uint16_t vmid);
void spe_flight_reset(unsigned int cpu);

#endif /* VPERF_SIM_SPE_INTERNAL_H */
