// SPDX-License-Identifier: MIT
/*
 * kept-across-wfi: the PMU state a guest wrote reads back the same after WFI sleeps. Its counters
 * hold values of their own, enabled with PMCR_EL0.E = 0 (they do not count: Arm DDI 0487 K.a,
 * I5.3.21 PMCR_EL0.E), with their types, interrupt enables and filters; each WFI sleep is an exit
 * after which the guest's hypervisor may run anything on the CPU, or let the CPU idle. A CPU that
 * idles in a power-down state loses its PMU context (PSCI DEN0022, 5.4 CPU_SUSPEND: a power-down
 * state loses the core's context), so a hypervisor that left the vCPU's counters in the PMU at
 * its exit (a lazy put) must save them before the CPU powers down: under protected KVM, whose
 * hypervisor relays the host's PSCI calls, integrations/kvm/mutants/suspend-not-flushed.patch
 * does not. The suite reads every register before the sleeps and after them: each must read as
 * it did.
 */
#include "suite.h"

#define KEPT_SLEEPS 12

struct kept {
	uint64_t pmcr, cnten, inten, ccfilt, ccnt, evcnt[31], evtype[31];
};

static void kept_read(struct kept *k, unsigned int n)
{
	k->pmcr = read_sysreg(pmcr_el0);
	k->cnten = read_sysreg(pmcntenset_el0);
	k->inten = read_sysreg(pmintenset_el1);
	k->ccfilt = read_sysreg(pmccfiltr_el0);
	k->ccnt = read_sysreg(pmccntr_el0);
	for (unsigned int i = 0; i < n; i++) {
		k->evcnt[i] = pmu_evcntr(i);
		k->evtype[i] = pmu_evtyper(i);
	}
}

/* differ: the register's name if it reads otherwise after the sleeps, with both values. */
static const char *differ(const char *name, uint64_t a, uint64_t b, uint64_t *was, uint64_t *now)
{
	*was = a;
	*now = b;
	return a != b ? name : NULL;
}

/* The first register that reads otherwise, or NULL. */
static const char *kept_moved(const struct kept *a, const struct kept *b, unsigned int n,
			      uint64_t *was, uint64_t *now)
{
	const char *m;

	if ((m = differ("PMCR_EL0", a->pmcr, b->pmcr, was, now)) ||
	    (m = differ("PMCNTENSET_EL0", a->cnten, b->cnten, was, now)) ||
	    (m = differ("PMINTENSET_EL1", a->inten, b->inten, was, now)) ||
	    (m = differ("PMCCFILTR_EL0", a->ccfilt, b->ccfilt, was, now)) ||
	    (m = differ("PMCCNTR_EL0", a->ccnt, b->ccnt, was, now)))
		return m;
	for (unsigned int i = 0; i < n; i++)
		if ((m = differ("a PMEVCNTR<n>_EL0", a->evcnt[i], b->evcnt[i], was, now)) ||
		    (m = differ("a PMEVTYPER<n>_EL0", a->evtype[i], b->evtype[i], was, now)))
			return m;
	return NULL;
}

void kept_across_wfi_test(void)
{
	unsigned int n = pmu_n();
	uint64_t enables = BIT(31), was = 0, now = 0;
	struct kept before, after;
	const char *moved;

	pmu_quiesce();
	for (unsigned int i = 0; i < n; i++) {
		pmu_set_evtyper(i, (i & 1 ? EVT_INST_RET : EVT_CYCLES) | (i & 2 ? EVT_U : 0));
		pmu_set_evcntr(i, 0x40000000u + (i << 20) + 0x1234);
		enables |= BIT(i);
	}
	write_sysreg(EVT_U, pmccfiltr_el0);
	write_sysreg(0x12345678, pmccntr_el0);
	write_sysreg(0, pmcr_el0);
	write_sysreg(enables, pmcntenset_el0);
	write_sysreg(enables, pmintenset_el1);
	isb();
	kept_read(&before, n);
	for (unsigned int s = 0; s < KEPT_SLEEPS; s++)
		(void)wfi_sleep_ms(3);
	kept_read(&after, n);
	moved = kept_moved(&before, &after, n, &was, &now);
	if (moved)
		result("kept-across-wfi", FAIL,
		       "%u counters and PMCCNTR_EL0 at values of their own, PMCR_EL0.E = 0, %u WFI "
		       "sleeps of 3 ms: %s read 0x%lx before, 0x%lx after",
		       n, KEPT_SLEEPS, moved, was, now);
	else
		result("kept-across-wfi", PASS,
		       "%u counters and PMCCNTR_EL0 at values of their own, PMCR_EL0.E = 0, %u WFI "
		       "sleeps of 3 ms: every register read the same",
		       n, KEPT_SLEEPS);
	write_sysreg(enables, pmintenclr_el1);
	pmu_quiesce();
}
