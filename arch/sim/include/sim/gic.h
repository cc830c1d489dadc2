/* SPDX-License-Identifier: MIT */
/*
 * The model's GICv3: a minimal physical redistributor and CPU interface for the PPIs of one PE
 * (PMUIRQ, PMBIRQ, the maintenance interrupt), and the virtual CPU interface a hypervisor
 * drives through ICH_HCR_EL2, ICH_VMCR_EL2 and the list registers ICH_LR<n>_EL2.
 *
 * Interrupts are taken at the model's poll points (between micro-ops and after each guest
 * access): a physical PPI goes to the test hypervisor's handlers.irq at EL2, a virtual one to
 * handlers.guest_irq at EL1. What the handlers call to end an interrupt is below.
 *
 * Modelling choices (where the GIC architecture leaves freedom or the model simplifies):
 * - All physical PPIs have one priority and are Group 1; so an acknowledged interrupt whose
 *   priority has not been dropped blocks every other one (no preemption at EL2), and EL2 code
 *   runs with PSTATE.I set: nothing is taken while a handler runs at EL2.
 * - At most one physical interrupt is taken per poll point. A level interrupt deactivated
 *   while its line is still high is taken again at the next poll point, so an interrupt storm
 *   shows as one delivery per micro-op, and the guest gets no virtual interrupt meanwhile.
 * - Virtual Group 0 (vFIQ), vLPIs, NMIs, VCBPR and the ICH_HCR_EL2 trap bits are not modelled.
 * - ICH_VMCR_EL2 resets to the state of a guest whose GIC driver has initialised its CPU
 *   interface: VENG1 = 1, VPMR = 0xf0, VBPR1 = 3 (architecturally its reset is UNKNOWN).
 * - Among pending interrupts of equal priority the choice is IMPLEMENTATION DEFINED: the model
 *   picks one at random (sim_random), so a hypervisor may not rely on list register order.
 */
#ifndef VPERF_SIM_GIC_H
#define VPERF_SIM_GIC_H

#include <sim/model.h>

/* ---- ICH_LR<n>_EL2 (GICv3 specification Arm IHI 0069, ICH_LR<n>_EL2) ------------------------ */

#define SIM_LR_VINTID_MASK  0xffffffffull
#define SIM_LR_PINTID_SHIFT 32
#define SIM_LR_PINTID_MASK  (0x1fffull << SIM_LR_PINTID_SHIFT)
#define SIM_LR_EOI	    VPERF_BIT(41) /* HW = 0: maintenance interrupt when deactivated */
#define SIM_LR_PRIO_SHIFT   48
#define SIM_LR_PRIO_MASK    (0xffull << SIM_LR_PRIO_SHIFT)
#define SIM_LR_GROUP	    VPERF_BIT(60)
#define SIM_LR_HW	    VPERF_BIT(61)
#define SIM_LR_STATE_SHIFT  62
#define SIM_LR_PENDING_BIT  VPERF_BIT(62)
#define SIM_LR_ACTIVE_BIT   VPERF_BIT(63)

enum sim_lr_state {
	SIM_LR_INVALID = 0,
	SIM_LR_PENDING = 1,
	SIM_LR_ACTIVE = 2,
	SIM_LR_PENDING_ACTIVE = 3,
};

/* A Group 1 list register value; a HW-linked one names the physical INTID it deactivates. */
static inline uint64_t sim_lr_make(uint32_t vintid, uint8_t prio, enum sim_lr_state state)
{
	return (uint64_t)vintid | (uint64_t)prio << SIM_LR_PRIO_SHIFT | SIM_LR_GROUP |
	       (uint64_t)state << SIM_LR_STATE_SHIFT;
}

static inline uint64_t sim_lr_make_hw(uint32_t vintid, uint32_t pintid, uint8_t prio,
				      enum sim_lr_state state)
{
	return sim_lr_make(vintid, prio, state) | SIM_LR_HW |
	       ((uint64_t)pintid << SIM_LR_PINTID_SHIFT & SIM_LR_PINTID_MASK);
}

static inline enum sim_lr_state sim_lr_state(uint64_t lr)
{
	return (enum sim_lr_state)(lr >> SIM_LR_STATE_SHIFT);
}

static inline uint32_t sim_lr_vintid(uint64_t lr)
{
	return (uint32_t)(lr & SIM_LR_VINTID_MASK);
}

static inline uint32_t sim_lr_pintid(uint64_t lr)
{
	return (uint32_t)((lr & SIM_LR_PINTID_MASK) >> SIM_LR_PINTID_SHIFT);
}

static inline uint8_t sim_lr_prio(uint64_t lr)
{
	return (uint8_t)(lr >> SIM_LR_PRIO_SHIFT);
}

/* ---- other ICH_* fields ---------------------------------------------------------------------- */

#define SIM_ICH_HCR_EN		   VPERF_BIT(0)
#define SIM_ICH_HCR_UIE		   VPERF_BIT(1)
#define SIM_ICH_HCR_LRENPIE	   VPERF_BIT(2)
#define SIM_ICH_HCR_NPIE	   VPERF_BIT(3)
#define SIM_ICH_HCR_EOICOUNT_SHIFT 27
#define SIM_ICH_HCR_EOICOUNT_MASK  (0x1full << SIM_ICH_HCR_EOICOUNT_SHIFT)

#define SIM_ICH_MISR_EOI   VPERF_BIT(0)
#define SIM_ICH_MISR_U	   VPERF_BIT(1)
#define SIM_ICH_MISR_LRENP VPERF_BIT(2)
#define SIM_ICH_MISR_NP	   VPERF_BIT(3)

#define SIM_ICH_VMCR_VENG0	 VPERF_BIT(0)
#define SIM_ICH_VMCR_VENG1	 VPERF_BIT(1)
#define SIM_ICH_VMCR_VEOIM	 VPERF_BIT(9)
#define SIM_ICH_VMCR_VBPR1_SHIFT 18
#define SIM_ICH_VMCR_VPMR_SHIFT	 24

/* ICH_VTR_EL2 as the model reports it: ListRegs = nr_lrs - 1, 16-bit vINTIDs (IDbits 0),
 * 5 priority and preemption bits (PRIbits = PREbits = 4), nV4 = 1 (no GICv4), A3V = 1. */
#define SIM_ICH_VTR_PRIBITS 4u
#define SIM_ICH_VTR_PREBITS 4u
#define SIM_ICH_VTR_NV4	    VPERF_BIT(20)
#define SIM_ICH_VTR_A3V	    VPERF_BIT(21)

/* The maintenance interrupt's INTID (BSA/SBSA recommendation). */
#define SIM_GIC_MAINT_INTID 25u
/* Virtual INTIDs whose deliveries are counted one by one. */
#define SIM_GIC_NR_COUNTED 1024u

/* ---- the test hypervisor's side (EL2) -------------------------------------------------------- */

/* "GICR init": enable (or disable) a physical SGI/PPI (INTID < 32) on a CPU. All start disabled. */
void sim_gic_enable_ppi(unsigned int cpu, uint32_t intid, bool enable);

/* ICC_EOIR1_EL1 with EOImode 0: priority drop and deactivation of the running interrupt. */
void sim_gic_eoi(unsigned int cpu, uint32_t intid);
/* ICC_EOIR1_EL1 with EOImode 1: priority drop only; deactivate later, by sim_gic_deactivate
 * (ICC_DIR_EL1) or through a HW = 1 list register when the guest deactivates. */
void sim_gic_priority_drop(unsigned int cpu, uint32_t intid);
void sim_gic_deactivate(unsigned int cpu, uint32_t intid);

/* A poll point on the current CPU outside guest_run and guest accesses: take what is
 * pending now. */
void sim_gic_poll(unsigned int cpu);

/* ---- the guest's side (EL1, from handlers.guest_irq or guest code) --------------------------- */

/* ICV_EOIR1_EL1: drop the running virtual priority and, unless ICH_VMCR_EL2.VEOIM = 1,
 * deactivate the matching list register (and its pINTID when HW = 1). No match: EOIcount++. */
void sim_guest_eoi(unsigned int cpu, uint32_t vintid);
/* ICV_DIR_EL1 (VEOIM = 1 only): deactivate the matching list register. */
void sim_guest_dir(unsigned int cpu, uint32_t vintid);
/* ICV_PMR_EL1 and ICV_IGRPEN1_EL1: the guest's writes, which land in ICH_VMCR_EL2. */
void sim_guest_set_pmr(unsigned int cpu, uint8_t pmr);
void sim_guest_enable_grp1(unsigned int cpu, bool enable);
/* PSTATE.I of the guest at EL1: masks virtual interrupts only (physical ones go to EL2). */
void sim_guest_mask_irq(unsigned int cpu, bool masked);

/* ---- inspection ------------------------------------------------------------------------------ */

struct sim_gic_stats {
	uint64_t phys_taken[32];		 /* physical interrupts taken to EL2, by INTID */
	uint64_t virt_taken[SIM_GIC_NR_COUNTED]; /* virtual interrupts taken by the guest */
	uint64_t virt_taken_other;		 /* ... with vINTID >= SIM_GIC_NR_COUNTED */
	uint64_t guest_eois;			 /* sim_guest_eoi calls */
	uint64_t eoi_no_lr;	      /* guest EOI/DIR with no active LR: EOIcount incremented */
	uint64_t eoi_no_active;	      /* guest EOI with no active priority: ignored */
	uint64_t eoi_prio_mismatch;   /* active LR found, but not at the dropped priority */
	uint64_t hw_deactivations;    /* physical deactivations through a HW = 1 LR */
	uint64_t phys_deact_inactive; /* deactivation of an inactive physical interrupt */
};

const struct sim_gic_stats *sim_gic_stats(unsigned int cpu);
uint64_t sim_gic_phys_count(unsigned int cpu, uint32_t intid);
uint64_t sim_gic_virt_count(unsigned int cpu, uint32_t vintid);

/* Physical state of an SGI/PPI: pending (its line is high), active, and running (acknowledged,
 * priority not yet dropped). */
bool sim_gic_ppi_pending(unsigned int cpu, uint32_t intid);
bool sim_gic_ppi_active(unsigned int cpu, uint32_t intid);
bool sim_gic_ppi_running(unsigned int cpu, uint32_t intid);
/* PMUIRQ is asserted, enabled and not active, but not taken yet (its latency runs). */
bool sim_gic_pmuirq_delayed(unsigned int cpu);

/* List register n as stored (no access counted). */
uint64_t sim_gic_lr(unsigned int cpu, unsigned int n);
/* The virtual running priority (0xff: idle), from the model's active-priority bits. */
uint8_t sim_gic_virt_running_prio(unsigned int cpu);

#endif /* VPERF_SIM_GIC_H */
