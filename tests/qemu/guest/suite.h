/* SPDX-License-Identifier: MIT */
/* The guest-side PMU conformance suite: register tests (suite.c), overflow and interrupt
 * tests (suite_irq.c), isolation between time-sliced guests (suite_iso.c), EL2 probes of the PE
 * itself when entered at EL2 (suite_el2.c). */
#ifndef GUEST_SUITE_H
#define GUEST_SUITE_H

#include "pmu.h"

/* Busy work the counters can see: n iterations of a dependent add chain. */
uint64_t workload(uint64_t n);
/* Spin for ms milliseconds of CNTVCT time; returns how many gaps longer than 100 us it saw
 * (time the vCPU was not running: a hypervisor switched it out). */
unsigned int spin_ms(uint64_t ms);
bool wait_for(volatile unsigned int *count, unsigned int want, uint64_t ms);

void irq_tests(void);
/* Give the PMU interrupt back to suite_irq.c's handler (after a test took it over). */
void pmu_irq_install(void);
void el2_probes(void);
void iso_tests(void);
/* iso=held|spin|pmxev|sel31 (suite_iso_cross.c); false for another iso= */
bool iso_cross_tests(uint64_t ms);
void timer_tests(void);
void share_test(void);
/* stopped-across-wfi (suite_timer.c): enabled counters under PMCR_EL0.E = 0 stay 0 across WFI exits. */
void stopped_across_wfi_test(void);
/* kept-across-wfi (suite_kept.c): the PMU state a guest wrote reads the same after WFI
 * sleeps. */
void kept_across_wfi_test(void);
/* el2-uncounted (suite_timer.c, bootargs nsh=1): counters filtered to EL2 alone count nothing. */
void el2_uncounted_test(void);
void smp_tests(void);
void mux_tests(void);
void spe_tests(void);
void trap_tests(void);
void el0_tests(void);
/* bootargs cost=1: COST lines, what each PMU access costs the guest (cost.c) */
void cost_run(void);
void switch_cost_run(void);
unsigned int wfi_sleep_ms(uint64_t ms);

#endif /* GUEST_SUITE_H */
