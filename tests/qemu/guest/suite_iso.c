// SPDX-License-Identifier: MIT
/*
 * Isolation between two guests time-sliced on one physical CPU (bootargs iso=quiet in one,
 * iso=noisy in the other, iso_ms=duration). The noisy guest overflows counters, takes PMU
 * interrupts, resets its counters with PMCR_EL0.P/C and writes PMSWINC with every bit set, as
 * fast as it can, and selects counter 0 and counts SW_INCR on every counter; the quiet one counts
 * exactly and must see none of that: its SW_INCR count is exact, its cycle counter never goes
 * back, its stopped counter keeps its value and its event type, its PMSELR_EL0 keeps the cycle
 * counter selected, and no overflow flag or interrupt reaches it. Both run for the same wall
 * time, so they overlap. A FAIL prints the foreign value next to the guest's own.
 */
#include "suite.h"

/* What the quiet guest keeps in its stopped counter and selects; the noisy one writes others. */
#define QUIET_TYPE   (EVT_CYCLES | EVT_U)
#define QUIET_SELECT 31u /* the cycle counter */
#define NOISY_SELECT 0u

unsigned int pmu_irq_count(void);
void pmu_irq_reset(void);

static void quiet(uint64_t ms)
{
	unsigned int n = pmu_n(), gaps = 0;
	uint64_t k = 0, prev = 0, flags = 0, back = 0, keep = 0x5555aaaaull, end, last;
	uint64_t sel_bad = 0, sel_seen = QUIET_SELECT;

	pmu_quiesce();
	pmu_irq_reset();
	pmu_set_evtyper(0, EVT_SW_INCR);
	if (n > 1) {
		pmu_set_evcntr(n - 1, keep); /* stopped: must keep its value and type */
		pmu_set_evtyper(n - 1, QUIET_TYPE);
	}
	write_sysreg(QUIET_SELECT, pmselr_el0);
	write_sysreg(CYCLE_BIT | 1, pmcntenset_el0);
	write_sysreg(CYCLE_BIT | 1, pmintenset_el1);
	write_sysreg(PMCR_E | PMCR_LP | PMCR_LC, pmcr_el0);
	irq_enable();
	end = now() + ms_to_ticks(ms);
	last = now();
	for (uint64_t t = last; t < end; t = now()) {
		uint64_t c = read_sysreg(pmccntr_el0);

		gaps += t - last > gi.freq / 10000;
		last = t;
		write_sysreg(1, pmswinc_el0);
		k++;
		back += c < prev;
		prev = c;
		flags |= read_sysreg(pmovsset_el0);
		if (read_sysreg(pmselr_el0) != QUIET_SELECT) {
			sel_bad++;
			sel_seen = read_sysreg(pmselr_el0);
			write_sysreg(QUIET_SELECT, pmselr_el0);
		}
	}
	CHECK("iso-swinc-exact", pmu_evcntr(0) == k,
	      "counted %lu of %lu PMSWINC over %lu ms, %u "
	      "switches seen",
	      pmu_evcntr(0), k, ms, gaps);
	CHECK("iso-cycles-monotonic", !back, "%lu backward steps", back);
	CHECK("iso-stopped-kept", n < 2 || pmu_evcntr(n - 1) == keep, "counter %u %lx", n - 1,
	      pmu_evcntr(n - 1));
	CHECK("iso-types-kept", n < 2 || pmu_evtyper(n - 1) == QUIET_TYPE,
	      "PMEVTYPER%u_EL0 %lx, written %lx", n - 1, n < 2 ? 0 : pmu_evtyper(n - 1),
	      (uint64_t)QUIET_TYPE);
	CHECK("iso-pmselr-kept", !sel_bad, "PMSELR_EL0 read %lu times as %lu, written %u", sel_bad,
	      sel_seen, QUIET_SELECT);
	CHECK("iso-no-foreign-flags", !flags && !pmu_irq_count(),
	      "overflow flags %lx, PMU interrupts %u", flags, pmu_irq_count());
	pmu_quiesce();
}

static void noisy(uint64_t ms)
{
	unsigned int n = pmu_n();
	uint64_t overflows = 0, end;

	pmu_quiesce();
	pmu_irq_reset();
	for (unsigned int i = 0; i < n; i++)
		pmu_set_evtyper(i, EVT_SW_INCR);
	write_sysreg(BIT(n) - 1, pmcntenset_el0);
	write_sysreg(1, pmintenset_el1);
	irq_enable();
	end = now() + ms_to_ticks(ms);
	while (now() < end) {
		pmu_set_evcntr(0, 0xffffffffull);
		write_sysreg(PMCR_E, pmcr_el0);
		write_sysreg(~0ull, pmswinc_el0); /* overflows counter 0: one interrupt */
		write_sysreg(NOISY_SELECT, pmselr_el0);
		if (n > 1)
			pmu_set_evtyper(n - 1, EVT_SW_INCR);
		overflows++;
		write_sysreg(PMCR_E | PMCR_P | PMCR_C, pmcr_el0);
	}
	spin_ms(5); /* the last interrupt */
	CHECK("iso-noisy-irqs", pmu_irq_count() == overflows, "%u interrupts for %lu overflows",
	      pmu_irq_count(), overflows);
	pmu_quiesce();
}

void iso_tests(void)
{
	uint64_t ms = arg_u64("iso_ms", 300);

	if (arg_is("iso", "noisy"))
		noisy(ms);
	else
		quiet(ms);
}
