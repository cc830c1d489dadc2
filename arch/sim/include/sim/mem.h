/* SPDX-License-Identifier: MIT */
/*
 * Simulated physical memory and address translation, for the SPE Profiling Buffer (SPE
 * SPE 3.4) and for the hypervisor's own translations (AT S1E1W / PAR_EL1).
 *
 * - Physical memory is sparse: 4 KB pages come into existence on the first write and read as
 *   zero before. A page range can be marked to return an external abort on write (SPE 3.5.4).
 * - Stage 1 maps VA -> IPA with read/write permissions, one map per translation regime: the
 *   EL2 regime, and an EL1&0 regime per VMID (a VM's stage 1 tables are its own; the model
 *   selects them with the current VMID, as a hypervisor switches TTBR0/1_EL1 with VTTBR_EL2).
 * - Stage 2 maps IPA -> PA per VMID; it applies to the EL1&0 regime when HCR_EL2.VM is 1.
 * - The current VMID (VTTBR_EL2.VMID, which is not in the register database) is set per CPU
 *   with sim_mem_set_vmid(). Like any direct write, it is seen by the SPE's translations as soon
 *   as it is made: the model takes the new value whenever the architecture allows it (SPE 3.6.1).
 *
 * A missing page is a Translation fault at level 3; an address outside the 48-bit VA (or IPA)
 * space is a Translation fault at level 0; a write without write permission is a Permission
 * fault at level 3. Fault status codes are those of ESR_ELx.DFSC, PMBSR_EL1.FSC (SPE supplement
 * SPE 4.3.4) and PAR_EL1.FST.
 */
#ifndef VPERF_SIM_MEM_H
#define VPERF_SIM_MEM_H

#include <sim/cpu.h>

#define SIM_PAGE_SHIFT 12
#define SIM_PAGE_SIZE  (1ull << SIM_PAGE_SHIFT)

enum sim_regime {
	SIM_REGIME_EL10, /* Non-secure EL1&0, stage 1 per VMID, stage 2 when HCR_EL2.VM = 1 */
	SIM_REGIME_EL2,	 /* Non-secure EL2, stage 1 only */
};

#define SIM_PERM_R  1u
#define SIM_PERM_W  2u
#define SIM_PERM_RW (SIM_PERM_R | SIM_PERM_W)

/* Fault status codes (SPE 4.3.4, PMBSR_EL1.FSC; the same as ESR_ELx.DFSC). */
#define SIM_FSC_ADDR_SIZE(level)   (0x00u + (level))
#define SIM_FSC_TRANSLATION(level) (0x04u + (level))
#define SIM_FSC_ACCESS_FLAG(level) (0x08u + (level))
#define SIM_FSC_PERMISSION(level)  (0x0cu + (level))
#define SIM_FSC_SYNC_EXT_ABORT	   0x10u /* synchronous external abort on write */
#define SIM_FSC_ASYNC_EXT_ABORT	   0x11u /* asynchronous external abort on write */
#define SIM_FSC_ALIGNMENT	   0x21u
/* Translation faults at the levels before 0 (Arm DDI 0487, ESR_ELx.ISS DFSC, which PMBSR_EL1.FSC
 * follows; the SPE supplement's 4.3.4 list leaves these values reserved "for a future version"):
 * 0b101011 level -1 (FEAT_LPA2: a 52-bit stage 2 with 4 KB granules starts at level -1),
 * 0b101010 level -2 (FEAT_D128). */
#define SIM_FSC_TRANSLATION_LM1 0x2bu
#define SIM_FSC_TRANSLATION_LM2 0x2au
/* synchronous external abort on a translation table walk at a level 0..3 */
#define SIM_FSC_WALK_EXT_ABORT(level)  (0x14u + (level))
#define SIM_FSC_IS_WALK_EXT_ABORT(fsc) (((fsc)&0x3cu) == 0x14u)

/* PAR_EL1 (64-bit format, Arm DDI 0487 K.a D24.2.142): F [0]; on success SH [8:7], NS [9], RES1
 * [11], PA [47:12], ATTR [63:56]; on a fault FST [6:1], PTW [8], S [9], RES1 [11]. */
#define SIM_PAR_F	  VPERF_BIT(0)
#define SIM_PAR_FST_SHIFT 1
#define SIM_PAR_FST_MASK  VPERF_GENMASK(6, 1)
#define SIM_PAR_PTW	  VPERF_BIT(8)
#define SIM_PAR_S	  VPERF_BIT(9)
#define SIM_PAR_NS	  VPERF_BIT(9)
#define SIM_PAR_RES1	  VPERF_BIT(11)
#define SIM_PAR_SH_INNER  (3ull << 7)
#define SIM_PAR_PA_MASK	  VPERF_GENMASK(47, 12)
#define SIM_PAR_ATTR_WB	  (0xffull << 56)

/* The result of a translation. */
struct sim_xlat {
	uint64_t ipa;  /* stage 1 output (the input address itself for the EL2 regime) */
	uint64_t pa;   /* final output */
	uint8_t fault; /* 0: none, 1: stage 1 fault, 2: stage 2 fault */
	uint8_t fsc;   /* SIM_FSC_* when fault != 0 */
};

/* Forget every mapping, page and abort mark; every CPU's VMID becomes 0. sim_model_init() calls
 * it (through the SPE family's reset). */
void sim_mem_reset(void);

/* Map or unmap [va, va + size) page by page (addresses and size are rounded out to pages).
 * Returns VPERF_OK, or VPERF_ENOSPC when the model's translation table is full. */
int sim_mem_map_s1(enum sim_regime regime, uint16_t vmid, uint64_t va, uint64_t ipa, uint64_t size,
		   unsigned int perm);
void sim_mem_unmap_s1(enum sim_regime regime, uint16_t vmid, uint64_t va, uint64_t size);
int sim_mem_map_s2(uint16_t vmid, uint64_t ipa, uint64_t pa, uint64_t size, unsigned int perm);
void sim_mem_unmap_s2(uint16_t vmid, uint64_t ipa, uint64_t size);

/* The current VMID of a CPU (what VTTBR_EL2.VMID selects). */
void sim_mem_set_vmid(unsigned int cpu, uint16_t vmid);
uint16_t sim_mem_vmid(unsigned int cpu);

/* A privileged write (or read) access to va in a regime on a CPU: stage 1, then stage 2 when
 * the regime is EL1&0 and HCR_EL2.VM is 1, with the CPU's current VMID. */
struct sim_xlat sim_mem_translate(unsigned int cpu, enum sim_regime regime, uint64_t va,
				  bool write);
/* Stage 2 alone, for the hypervisor (IPA -> PA of a VM). */
struct sim_xlat sim_mem_translate_s2(uint16_t vmid, uint64_t ipa, bool write);

/*
 * The SPE's translations are cached (SPE 3.4.4): a per-CPU TLB of combined stage 1 +
 * stage 2 entries, filled by the Profiling Buffer's writes. A cached entry keeps being used after
 * the tables change, until a TLB maintenance instruction that covers it is followed by a DSB on
 * the CPU that issued it. Using an entry whose stage 2 part (or, for the EL2 regime, whose stage
 * 1) no longer matches the tables is reported as a hypervisor error; the record still goes to
 * the old PA. The instructions (inner shareable, so every CPU's TLB), on the current CPU:
 *   SIM_TLBI_VMALLS12E1IS  stage 1 and stage 2 entries of the current VMID
 *   SIM_TLBI_VMALLE1IS     stage 1 entries of the current VMID, combined ones included
 *   SIM_TLBI_IPAS2E1IS     stage 2 only entries of an IPA (arg) of the current VMID: combined
 *                          entries need not go (the model keeps them), so a stage 2 change needs
 *                          TLBI VMALLE1IS as well, after a DSB (as KVM's
 *                          __kvm_tlb_flush_vmid_ipa does)
 *   SIM_TLBI_ALLE2IS       every EL2 regime entry
 */
enum sim_tlbi_op {
	SIM_TLBI_VMALLS12E1IS,
	SIM_TLBI_VMALLE1IS,
	SIM_TLBI_IPAS2E1IS,
	SIM_TLBI_ALLE2IS,
};
void sim_tlbi(enum sim_tlbi_op op, uint64_t arg);
/* The Profiling Buffer's write translation, through the TLB. */
struct sim_xlat sim_mem_translate_cached(unsigned int cpu, enum sim_regime regime, uint64_t va);
/* A DSB after a TLB maintenance instruction: the invalidated entries go, on every CPU. */
void sim_mem_tlb_complete(void);
/* Entries of a CPU's TLB that are valid (for tests). */
unsigned int sim_mem_tlb_entries(unsigned int cpu);

/* AT S1E1W and AT S12E1W on a CPU: the PAR_EL1 value the instruction leaves (PAR_EL1 is not a
 * database register, so the value is returned). S1E1W gives the IPA; S12E1W the PA. */
uint64_t sim_at_s1e1w(unsigned int cpu, uint64_t va);
uint64_t sim_at_s12e1w(unsigned int cpu, uint64_t va);

/* Mark the walks that translate [in, in + size) to end in an external abort (SPE 3.5.4: "including
 * an external abort on a translation table walk"): stage 1 of a regime (vmid for EL1&0) or, with
 * stage = 2, stage 2 of vmid. The abort is at table level 0..3, or at a level the seed picks on
 * each walk when level is SIM_WALK_LEVEL_SEED; SIM_WALK_NO_ABORT clears the mark. The mark is
 * independent of the mapping (map and unmap keep it). */
#define SIM_WALK_NO_ABORT   (-1)
#define SIM_WALK_LEVEL_SEED 4
int sim_mem_set_walk_abort(unsigned int stage, enum sim_regime regime, uint16_t vmid, uint64_t in,
			   uint64_t size, int level);

/* The level at which vmid's stage 2 walk finds the invalid descriptor of a page it does not map
 * (default 3: the tables down to level 3 exist). -1 and -2 model a stage 2 of FEAT_LPA2 (52-bit
 * IPA, starting at level -1) or FEAT_D128 whose hypervisor unmapped a whole region and freed its
 * tables: the Translation fault is reported at level -1 (FSC 0b101011) or -2 (0b101010). Levels
 * 0..3 report 0b0001LL. */
void sim_mem_set_s2_fault_level(uint16_t vmid, int level);

/* Mark [pa, pa + size) to signal an external abort on write (or clear the mark). */
void sim_mem_set_abort(uint64_t pa, uint64_t size, bool abort);
bool sim_mem_aborts(uint64_t pa);

/* Physical memory. A write to a page marked to abort writes nothing to that page and returns
 * false; unwritten memory reads as zero. */
bool sim_mem_write(uint64_t pa, const void *src, size_t n);
void sim_mem_read(uint64_t pa, void *dst, size_t n);

#endif /* VPERF_SIM_MEM_H */
