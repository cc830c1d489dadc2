/* SPDX-License-Identifier: MIT */
/*
 * The GIC family's per-CPU state, shared by its three parts: the ICH_* registers (gic.c), the
 * physical PPIs (gic_phys.c) and the virtual CPU interface (gic_virt.c). The list registers,
 * ICH_HCR_EL2 and ICH_VMCR_EL2 live in the register file; this is what has no register.
 *
 * Why its files call each other (an include/call circle, on purpose): the family is one component
 * of the model, one unit of the PE that the Arm ARM's pseudocode describes as a whole, split into
 * files by subject only to keep each short. gic.c is its entry (core/family.h) and calls gic_phys.c
 * and gic_virt.c to deliver and take interrupts; they call back its per-CPU state (gic_cpu) and the
 * list register accessors, and gic_virt.c calls gic_phys.c for a hardware deactivation. Every call
 * stays inside the family; nothing outside it is called back, and a layering inside it would only
 * put that one state behind a second interface.
 */
#ifndef VPERF_SIM_GIC_CPU_H
#define VPERF_SIM_GIC_CPU_H

#include <sim/gic.h>

#include "../core/family.h"

#define GIC_MAX_LRS 16u

struct gic_cpu {
	unsigned int nr_lrs;
	uint32_t enabled; /* physical SGI/PPI enables, by INTID (GICR_ISENABLER0) */
	uint32_t active;  /* physical active state (GICR_ISACTIVER0) */
	uint32_t running; /* acknowledged and priority not dropped (ICC_AP1R0_EL1, one level) */
	uint32_t vap1r;	  /* virtual active priorities, bit n = group priority n << 3 (ICH_AP1R0) */
	bool in_guest_irq;  /* the guest's IRQ handler runs: PSTATE.I = 1 at EL1 */
	bool guest_masked;  /* PSTATE.I the guest set itself */
	bool dup_reported;  /* a duplicate vINTID was already reported (until it goes away) */
	bool pmu_armed;	    /* PMUIRQ is asserted and its delivery delay is drawn */
	bool pmu_wait_trap; /* ... it waits for the guest's next trap to EL2 */
	uint32_t pmu_wait;  /* ... poll points left (a bound when waiting for a trap) */
	uint64_t pmu_traps; /* the guest's EL2 trap count when it was armed */
	struct sim_gic_stats stats;
};

struct gic_cpu *gic_cpu(unsigned int cpu);

/* List register n of the register file (no hooks, no counts). */
uint64_t gic_lr(unsigned int cpu, unsigned int n);
void gic_set_lr(unsigned int cpu, unsigned int n, uint64_t lr);

/* ICH_MISR_EL2, derived from list register state (IHI 0069). */
uint64_t gic_misr(unsigned int cpu);
/* Store the derived registers so that sim_peek sees current values too. */
void gic_sync(unsigned int cpu);

/* The physical side (gic_phys.c). */
bool gic_phys_take(unsigned int cpu);
bool gic_phys_deliverable(unsigned int cpu);
bool gic_phys_pending(unsigned int cpu);
void gic_phys_hw_deactivate(unsigned int cpu, uint32_t pintid);

/* The virtual side (gic_virt.c). */
bool gic_virt_take(unsigned int cpu);
/* A pending list register the virtual CPU interface may signal now (ISR_EL1.I at EL1). */
bool gic_virt_signalled(unsigned int cpu);

#endif /* VPERF_SIM_GIC_CPU_H */
