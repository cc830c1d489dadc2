/* SPDX-License-Identifier: MIT */
/*
 * The PMU family's internals shared by pmu.c (rules), pmu_regs.c (register semantics), pmu_count.c
 * (counting engine), pmu_fields.c (field rules) and pmu_sync.c (synchronization). Counter values
 * live in the register file.
 *
 * Why its files call each other (an include/call circle, on purpose): the family is one component
 * of the model, one unit of the PE that the Arm ARM's pseudocode describes as a whole, split into
 * files by subject only to keep each short. pmu.c is its entry (core/family.h) and calls the
 * counting engine, the field rules and the synchronization; they call back the field definitions
 * and the counter accessors, and the register semantics call the counting engine, which reads the
 * registers. Every call stays inside the family; nothing outside it is called back, and a layering
 * inside it would only put that one state behind a second interface.
 */
#ifndef VPERF_SIM_PMU_INTERNAL_H
#define VPERF_SIM_PMU_INTERNAL_H

#include <sim/arch_regs.h>
#include "../core/family.h"
#include "pmu_fields.h"

/* NUM_PMU_COUNTERS, and the range boundaries (MDCR_EL2.HPMN; PMCCR.EPMN, I5.3.47). */
unsigned int pmu_num(void);
unsigned int pmu_epmn(void);
unsigned int pmu_hpmn(unsigned int cpu);
/* Event counters that System register accesses at el can reach: HPMN at EL0/EL1, EPMN at EL2
 * (the third range is reachable at no Exception level, I5.3.47). */
unsigned int pmu_accessible(unsigned int cpu, unsigned int el);
/* Bits of PMCNTEN/PMINTEN/PMOVS/PMSWINC/PMZR an access at el reaches: counters [0,
 * accessible) and the cycle counter; the rest are RAZ/WI. */
uint64_t pmu_visible_mask(unsigned int cpu, unsigned int el);

uint64_t pmu_counter(unsigned int cpu, unsigned int n);
void pmu_set_counter(unsigned int cpu, unsigned int n, uint64_t val);
uint64_t pmu_evtyper(unsigned int cpu, unsigned int n);
void pmu_set_evtyper(unsigned int cpu, unsigned int n, uint64_t val);

/* Fields the configured PE implements (pmu_fields.c): the PMCR_EL0 bits that hold a value,
 * the PMEVTYPER<n> (cycle: PMCCFILTR) bits; MDCR_EL2 and PMCR_EL0 writes checked at EL2. */
uint64_t pmu_pmcr_writable(void);
uint64_t pmu_evtyper_writable(bool cycle);
uint64_t pmu_userenr_writable(void);
uint64_t pmu_icfiltr_writable(void);
/* PMUACR_EL1's bits (FEAT_PMUv3p9): P<n> of the implemented counters, C, F0 with ICNTR. */
uint64_t pmu_uacr_writable(void);
/* Is PMEVTYPER<n>_EL0.MT effective (FEAT_MTPMU enabled by MTPME, or the IMPLEMENTATION DEFINED
 * extension)? */
bool pmu_mt_effective(unsigned int cpu, uint64_t type);
uint64_t pmu_write_mdcr(unsigned int cpu, uint64_t val);
uint64_t pmu_write_pmcr_bits(unsigned int cpu, unsigned int el, uint64_t val);
/* The synchronization window (pmu_sync.c): an EL2 write of a counting control opens it, a
 * context synchronization event closes it; meanwhile EL2 counting may see the old values. */
void pmu_sync_before_write(unsigned int cpu, unsigned int el, uint32_t enc);
void pmu_sync_barrier(unsigned int cpu, enum sim_event_kind kind);
void pmu_sync_reset(unsigned int cpu);
uint64_t pmu_counting_reg(unsigned int cpu, unsigned int el, uint32_t enc);
/* FEAT_FGT (pmu_fgt.c): does HDFGRTR_EL2 (read) or HDFGWTR_EL2 trap this EL0/EL1 access to
 * EL2? And the registers' reset. */
bool pmu_fgt_traps(unsigned int cpu, const struct sim_arch_reg *reg, bool read);
/* FEAT_FGT2: HDFGRTR2_EL2.nPMICFILTR_EL0 = 0 makes the F0 bits read as zero at EL1 and EL0. */
bool pmu_fgt2_hides_f0(unsigned int cpu);
void pmu_fgt_reset(unsigned int cpu, const struct sim_pe_config *cfg);
uint64_t pmu_counting_type(unsigned int cpu, unsigned int el, unsigned int n);
/* Seeded garbage in the registers the architecture resets to UNKNOWN. */
void pmu_reset_unknown(unsigned int cpu);

/* PMCR_EL0.D's divider starts a new 64-cycle period (reset). */
void pmu_cycle_divider_reset(unsigned int cpu);
/* Add k to counter n (PMU_CYCLE_BIT: the cycle counter), setting its overflow flag on unsigned
 * overflow of the counter's width and feeding a CHAIN counter. */
void pmu_add(unsigned int cpu, unsigned int n, uint64_t k);
/* Does counter n count at el now (range enable, PMCNTENSET, filters, EL2 prohibition)? */
bool pmu_counts(unsigned int cpu, unsigned int n, unsigned int el);
/* Recompute the PMUIRQ line from PMOVSSET, PMINTENSET and the range enables. */
void pmu_update_irq(unsigned int cpu);

uint64_t pmu_read(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
		  uint64_t stored);
uint64_t pmu_write(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg, uint64_t old,
		   uint64_t val);
void pmu_step(unsigned int cpu, const struct sim_uop *op);

#endif
