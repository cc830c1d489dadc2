// SPDX-License-Identifier: MIT
/*
 * Isolation between a trapped-partition guest and a direct-partition guest time-sliced on one
 * physical CPU, where the direct guest's untrapped registers reach the hardware the trapped guest
 * shares (bootargs iso=held|spin and iso=pmxev|sel31, iso_ms=duration; suite_iso.c has the
 * quiet/noisy pair).
 *
 * iso=held (the trapped guest) beside iso=spin (a direct guest in XENPMU_MODE_HV with fewer
 * counters, which leaves its PMU alone): every event counter of the held guest is enabled
 * (PMCNTENSET_EL0) and counts CPU_CYCLES at EL0 and EL1, with counting stopped by PMCR_EL0.E = 0
 * alone, and must read exactly what was written for the whole run (iso-held-exact). PMCR_EL0.E
 * stops the first counter range only: a hypervisor that runs the direct guest with
 * MDCR_EL2.HPMN = its N while MDCR_EL2.HPME = 1, and leaves the held guest's enables in the
 * hardware, puts counters [N, old HPMN) in the second range, enabled by HPME and PMCNTENSET_EL0,
 * and they count the direct guest's cycles (Arm DDI 0487 K.a, MDCR_EL2.HPMN, MDCR_EL2.HPME,
 * PMCR_EL0.E; the cross-VM leak of issue 41).
 *
 * iso=pmxev (the trapped guest) beside iso=sel31 (a direct guest that keeps PMSELR_EL0.SEL = 31,
 * the cycle counter, in the hardware): the trapped guest selects each of its counters with
 * PMSELR_EL0 and writes and reads it through PMXEVTYPER_EL0 and PMXEVCNTR_EL0; none of those
 * accesses may take an exception and each must reach the selected counter (iso-pmxev-no-undef).
 * The access pseudocode of PMXEVCNTR_EL0 and PMXEVTYPER_EL0 checks the hardware's PMSELR_EL0.SEL
 * before the MDCR_EL2.TPM trap: PMXEVCNTR_EL0 with SEL = 31 is UNDEFINED at EL1 with FEAT_FGT
 * (CONSTRAINED UNPREDICTABLE without) although the guest's own selection, which TPM traps, is a
 * counter it has. A hypervisor must not leave another guest's selection in the hardware for a
 * trapped guest. The direct guest must keep its own selection (iso-sel31-kept).
 */
#include "suite.h"

#define HELD_BASE ((uint64_t)5) /* counter i holds HELD_BASE + i */
#define PMXEV_PATTERN \
	((uint64_t)0x3c000000) /* counter i of round r gets PMXEV_PATTERN + r * 32 + i */

/* Switches seen by one round of a loop: the gaps inside its spin, or the round's PMU part (a few
 * accesses, trapped or not) taking longer than 2 ms: the guest was switched out there. The spin
 * (3 ms) is longer than a slice of the reference hypervisor (1 ms from the vCPU's last entry,
 * which every trapped access is), so that a round with traps still lets the other guest run and
 * sees it. */
static unsigned int spin_round(uint64_t round_start)
{
	unsigned int gaps = now() - round_start > ms_to_ticks(2);

	return gaps + spin_ms(3);
}

/* The rounds of a check beside the other guest. Its window of ms starts at the first switch seen,
 * not at the guest's own start: the other guest may start later (Xen unpauses dom0less domains one
 * after the other, and a loaded host may run one alone for a second), and a window it never ran
 * in tests nothing. No switch within WAIT_MS ends the run with none seen. */
#define WAIT_MS 30000

struct window {
	uint64_t start, end, give_up, ms;
	unsigned int switches;
};

static void window_begin(struct window *w, uint64_t ms)
{
	*w = (struct window){ .start = now(), .ms = ms };
	w->give_up = w->start + ms_to_ticks(WAIT_MS);
}

/* After a round that began at round_start: whether to run another. */
static bool window_next(struct window *w, uint64_t round_start)
{
	w->switches += spin_round(round_start);
	if (!w->end && w->switches)
		w->end = now() + ms_to_ticks(w->ms);
	return now() < (w->end ? w->end : w->give_up);
}

/* How long the guest waited for the other one, in ms (all of WAIT_MS when it never came). */
static uint64_t window_waited_ms(const struct window *w)
{
	uint64_t first = w->end ? w->end - ms_to_ticks(w->ms) : w->give_up;

	return (first - w->start) * 1000 / gi.freq;
}

/* The first counter that read another value than its own, and how often that happened. */
struct held {
	uint64_t bad, rounds, first_value;
	unsigned int first_counter;
};

static void held_check(struct held *h, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		uint64_t v = pmu_evcntr(i);

		if (v != HELD_BASE + i && !h->bad++) {
			h->first_counter = i;
			h->first_value = v;
		}
	}
	h->rounds++;
}

static void held(uint64_t ms)
{
	unsigned int n = pmu_n();
	struct held h = { 0 };
	struct window w;
	uint64_t t;

	if (!n) {
		result("iso-held-exact", SKIP, "N = 0: no event counter to hold");
		return;
	}
	pmu_quiesce(); /* PMCR_EL0.E = 0 */
	for (unsigned int i = 0; i < n; i++) {
		pmu_set_evtyper(i, EVT_CYCLES); /* EL0 and EL1: the other guest's EL1 too */
		pmu_set_evcntr(i, HELD_BASE + i);
	}
	write_sysreg(BIT(n) - 1, pmcntenset_el0);
	isb();
	window_begin(&w, ms);
	do {
		t = now();
		held_check(&h, n);
	} while (window_next(&w, t));
	held_check(&h, n);
	CHECK("iso-held-exact", !h.bad && w.switches,
	      "%lu of %lu reads of the %u stopped, enabled counters changed (the first: "
	      "counter %u read %lu, written %lu); %u switches in %lu ms, %lu ms waited",
	      h.bad, h.rounds * n, n, h.first_counter, h.first_value, HELD_BASE + h.first_counter,
	      w.switches, ms, window_waited_ms(&w));
	pmu_quiesce();
}

/* The direct guest of iso=held: runs its EL1 code without touching its PMU. */
static void spin(uint64_t ms)
{
	unsigned int gaps;

	pmu_quiesce();
	gaps = spin_ms(ms);
	printf("info: iso=spin: %lu ms without a PMU access, %u switches seen\n", ms, gaps);
}

/* One round of iso=pmxev: counter i selected, its type and value written and read through
 * PMXEV*, and read back directly. Returns the exceptions taken; *bad the mismatches. */
static unsigned int pmxev_round(unsigned int n, uint64_t round, uint64_t *esr, unsigned int *bad)
{
	unsigned int exc = 0;

	for (unsigned int i = 0; i < n; i++) {
		uint64_t want = PMXEV_PATTERN + round * 32 + i, cnt = 0, typ = 0, e = 0;
		unsigned int k;

		write_sysreg(i, pmselr_el0);
		isb();
		expect_begin();
		write_sysreg(EVT_SW_INCR, pmxevtyper_el0);
		write_sysreg(want, pmxevcntr_el0);
		isb();
		typ = read_sysreg(pmxevtyper_el0);
		cnt = read_sysreg(pmxevcntr_el0);
		k = expect_end(&e);
		if (k && !exc)
			*esr = e;
		exc += k;
		if (cnt != want || (typ & 0xffff) != EVT_SW_INCR || pmu_evcntr(i) != want)
			(*bad)++;
	}
	return exc;
}

static void pmxev(uint64_t ms)
{
	unsigned int n = pmu_n(), bad = 0, exc = 0;
	uint64_t esr = 0, rounds = 0, t;
	struct window w;

	if (!n) {
		result("iso-pmxev-no-undef", SKIP, "N = 0: no event counter to select");
		return;
	}
	pmu_quiesce();
	window_begin(&w, ms);
	do {
		t = now();
		exc += pmxev_round(n, rounds++, &esr, &bad);
	} while (window_next(&w, t));
	write_sysreg(0, pmselr_el0);
	CHECK("iso-pmxev-no-undef", !exc && !bad && w.switches,
	      "%u exceptions (the first: ESR %lx, EC %lu), %u wrong values in %lu rounds of "
	      "PMSELR_EL0 = 0..%u + PMXEVTYPER/PMXEVCNTR; %u switches in %lu ms, %lu ms waited",
	      exc, esr, (uint64_t)FIELD(esr, 31, 26), bad, rounds, n - 1, w.switches, ms,
	      window_waited_ms(&w));
	pmu_quiesce();
}

/* The direct guest of iso=pmxev: PMSELR_EL0.SEL = 31 in the hardware, read back each round. */
static void sel31(uint64_t ms)
{
	uint64_t rounds = 0, bad = 0, seen = 31, end;
	unsigned int switches = 0;

	pmu_quiesce();
	write_sysreg(31, pmselr_el0);
	isb();
	end = now() + ms_to_ticks(ms);
	while (now() < end) {
		uint64_t r = read_sysreg(pmselr_el0) & 31;

		if (r != 31) {
			if (!bad++)
				seen = r;
			write_sysreg(31, pmselr_el0);
		}
		rounds++;
		switches += spin_ms(1);
	}
	CHECK("iso-sel31-kept", !bad,
	      "PMSELR_EL0.SEL read %lu of %lu times as %lu, written 31; %u switches seen", bad,
	      rounds, seen, switches);
}

/* The modes of this file; false when iso= names none of them. */
bool iso_cross_tests(uint64_t ms)
{
	if (arg_is("iso", "held"))
		held(ms);
	else if (arg_is("iso", "spin"))
		spin(ms);
	else if (arg_is("iso", "pmxev"))
		pmxev(ms);
	else if (arg_is("iso", "sel31"))
		sel31(ms);
	else
		return false;
	return true;
}
