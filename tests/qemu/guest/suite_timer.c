// SPDX-License-Identifier: MIT
/*
 * The virtual timer as a guest sees it through the (v)GIC: its PPI (INTID 27, the "arm,armv8-timer"
 * binding's third) is level-sensitive and follows the timer's output, asserted while
 * CNTV_CTL_EL0.ENABLE && !IMASK && ISTATUS (Arm ARM D11.2.4). A hypervisor that latches the line
 * when the timer fires delivers a stale interrupt after the guest disabled or masked its timer;
 * the redistributor's pending and active registers must show the interrupt's real state.
 * The EL1 physical timer the device tree lists must work too; and (min_share=P) the guest gets
 * its share of a pCPU whatever the slice.
 */
#include "suite.h"

#define VTIMER_INTID	 27
#define CNTV_CTL_ENABLE	 BIT(0)
#define CNTV_CTL_IMASK	 BIT(1)
#define CNTV_CTL_ISTATUS BIT(2)

static volatile unsigned int timer_irqs;
static volatile bool active_in_handler;

/* The handler stops the timer (the line drops) before its EOI. */
static void timer_irq(uint32_t intid)
{
	active_in_handler = gic_ppi_state(GICR_ISACTIVER0) & BIT(intid);
	write_sysreg(0, cntv_ctl_el0);
	isb();
	timer_irqs++;
}

static bool vtimer_pending(void)
{
	return gic_ppi_state(GICR_ISPENDR0) & BIT(VTIMER_INTID);
}

/* Fire the timer while its interrupt is masked at the GIC, then turn its output off with
 * ctl_off (0: disabled; ENABLE | IMASK: masked at the timer): pending while it fired, not once
 * off, and no interrupt when the GIC unmasks it. */
static bool stale_after(uint64_t ctl_off, bool *fired, bool *dropped)
{
	bool quiet;

	gic_enable_ppi(VTIMER_INTID, false);
	timer_irqs = 0;
	write_sysreg(now(), cntv_cval_el0);
	write_sysreg(CNTV_CTL_ENABLE, cntv_ctl_el0);
	isb();
	spin_ms(2); /* a hypervisor takes the physical interrupt meanwhile */
	*fired = vtimer_pending();
	write_sysreg(ctl_off, cntv_ctl_el0);
	isb();
	*dropped = !vtimer_pending();
	gic_enable_ppi(VTIMER_INTID, true);
	quiet = !wait_for(&timer_irqs, 1, 5);
	write_sysreg(0, cntv_ctl_el0);
	return quiet;
}

static volatile unsigned int ptimer_irqs;

static void ptimer_irq(uint32_t intid)
{
	(void)intid;
	write_sysreg(0, cntp_ctl_el0);
	isb();
	ptimer_irqs++;
}

/* The EL1 physical timer the device tree advertises works: its registers are accessible at EL1
 * and it interrupts once on its PPI (a hypervisor that traps them and answers UNDEF fails). */
static void ptimer_test(void)
{
	unsigned int undef;
	bool got;

	if (!gi.ptimer_intid) {
		result("ptimer-irq", SKIP, "no arm,armv8-timer physical PPI in the device tree");
		return;
	}
	irq_register(gi.ptimer_intid, ptimer_irq);
	gic_enable_ppi(gi.ptimer_intid, true);
	ptimer_irqs = 0;
	expect_begin();
	/* Already due: QEMU raises the line at the CTL write, not from a host timer a loaded host
	 * may run late. */
	write_sysreg(read_sysreg(cntpct_el0), cntp_cval_el0);
	write_sysreg(CNTV_CTL_ENABLE, cntp_ctl_el0);
	isb();
	undef = expect_end(NULL);
	got = !undef && wait_for(&ptimer_irqs, 1, 20);
	CHECK("ptimer-irq", got && !wait_for(&ptimer_irqs, 2, 5),
	      "CNTP_CVAL/CTL_EL0 %s, %u interrupts on INTID %u", undef ? "UNDEFINED" : "accessible",
	      ptimer_irqs, gi.ptimer_intid);
	gic_enable_ppi(gi.ptimer_intid, false);
	if (!undef)
		write_sysreg(0, cntp_ctl_el0);
}

/* Wait ms milliseconds in WFI (interrupts masked in PSTATE, the virtual timer's PPI enabled at
 * the GIC so that it ends the WFI); returns how many WFIs it took. */
unsigned int wfi_sleep_ms(uint64_t ms)
{
	unsigned int wfis = 0;

	irq_disable();
	gic_enable_ppi(VTIMER_INTID, true);
	write_sysreg(now() + ms_to_ticks(ms), cntv_cval_el0);
	write_sysreg(CNTV_CTL_ENABLE, cntv_ctl_el0);
	isb();
	while (!(read_sysreg(cntv_ctl_el0) & CNTV_CTL_ISTATUS)) {
		wfi();
		wfis++;
	}
	write_sysreg(0, cntv_ctl_el0);
	isb();
	gic_enable_ppi(VTIMER_INTID, false);
	irq_enable();
	return wfis;
}

/* WFI waits for an interrupt (Arm ARM D1.6.2, wake-up events): a loop of WFIs until the timer
 * fired 5 ms later runs a few times. A WFI may complete early (spurious wake-ups are allowed),
 * but one that never waits (a hypervisor that only yields the pCPU) completes thousands of
 * times. */
static void wfi_test(void)
{
	unsigned int wfis = wfi_sleep_ms(5);

	CHECK("wfi-blocks", wfis <= 10, "%u WFIs until the timer fired 5 ms later", wfis);
}

/*
 * stopped-across-wfi: counters enabled in PMCNTENSET_EL0 while PMCR_EL0.E = 0 do not count (Arm
 * DDI 0487 K.a, D13 and I5.3.21 PMCR_EL0.E: "affected counters are disabled and do not count",
 * the affected ones being the first range [0, MDCR_EL2.HPMN) and the cycle counter). Two WFI
 * sleeps of 3 ms make the vCPU exit to its hypervisor, whose host runs meanwhile: under nVHE KVM
 * with vperf's first range, the host's perf sets its own PMCR_EL0.E, which enables every counter
 * of the first range, so a put that stopped the guest's counters by PMCR_EL0.E alone lets them
 * count the host (integrations/kvm/mutants/pmcr-e-stop.patch). Then STOPPED_SPIN_MS of 1 ms spins,
 * the counters read before each: under VHE KVM the host's interrupts are taken with the vCPU
 * loaded, its PMCR_EL0 the guest's (the reads, trapped, bring the guest's state back into the
 * hardware, which vperf leaves out at the load of an idle vPMU), and a host perf that multiplexes
 * rotates its events every few ms (pmu_disable/pmu_enable): a PMU driver that sets E then makes
 * the guest's counters count its spin (integrations/kvm/mutants/vhe-driver-pmcr.patch). Every
 * count must still be 0.
 */
#define STOPPED_SPIN_MS 40

/* The counters of stopped_across_wfi_test that moved (bit 31: the cycle counter). */
static uint64_t stopped_moved(unsigned int n, uint64_t *first)
{
	uint64_t moved = 0;

	for (unsigned int i = 0; i < n; i++)
		if (pmu_evcntr(i)) {
			moved |= BIT(i);
			*first = *first ? *first : pmu_evcntr(i);
		}
	if (read_sysreg(pmccntr_el0))
		moved |= BIT(31);
	return moved;
}

void stopped_across_wfi_test(void)
{
	unsigned int n = pmu_n(), spins = 0;
	uint64_t enables = BIT(31), moved, first = 0;

	pmu_quiesce();
	for (unsigned int i = 0; i < n; i++) {
		pmu_set_evtyper(i, i & 1 ? EVT_INST_RET : EVT_CYCLES);
		pmu_set_evcntr(i, 0);
		enables |= BIT(i);
	}
	write_sysreg(0, pmccfiltr_el0);
	write_sysreg(0, pmccntr_el0);
	write_sysreg(0, pmcr_el0);
	write_sysreg(enables, pmcntenset_el0);
	isb();
	(void)wfi_sleep_ms(3);
	(void)wfi_sleep_ms(3);
	moved = stopped_moved(n, &first);
	for (; !moved && spins < STOPPED_SPIN_MS; spins++) {
		(void)spin_ms(1);
		moved = stopped_moved(n, &first);
	}
	CHECK("stopped-across-wfi", !moved,
	      "%u counters and PMCR_EL0.E = 0, two 3 ms WFI sleeps and %u of %u 1 ms spins: "
	      "moved 0x%lx (first moved count %lu, PMCCNTR_EL0 %lu)",
	      n, spins, STOPPED_SPIN_MS, moved, first, read_sysreg(pmccntr_el0));
	pmu_quiesce();
}

/*
 * el2-uncounted (bootargs nsh=1: a hypervisor that counts none of its own EL2 work into a guest's
 * counters whatever the guest's filters say; not vperf's XENPMU_MODE_ALL, nor a payload whose own
 * EL2 vector answers its HVCs, bare-el2): every event counter counts CPU_CYCLES and the cycle
 * counter cycles, at EL2 alone: P = 1 and U = 1 (EL1 and EL0 not counted) and NSH = 1 ("no
 * effect on filtering" of EL2: Arm DDI 0487 K.a, I5.3.2 PMCCFILTR_EL0.NSH and PMEVTYPER<n>_EL0.NSH),
 * enabled with PMCR_EL0.E = 1. This guest runs no EL2 of its own, so any count is the
 * hypervisor's: its exits (two 3 ms WFI sleeps, EL2_CALLS PSCI_VERSION calls, 10 ms of spinning
 * through the host's interrupts) run EL2 code with the guest's counters in the PMU. A hypervisor
 * that traps the types writes NSH = 0 itself; one that leaves them to the guest (vperf's direct
 * partition) keeps EL2 out by MDCR_EL2.HPMD, which prohibits counting at EL2 by the first range
 * (PMUv3p1), and HCCD, the cycle counter's (PMUv3p5); under VHE KVM the host kernel runs at EL2
 * between the exits with the guest's counters enabled (integrations/kvm/mutants/vhe-direct-el2.patch
 * clears both). Every count must be 0.
 */
#define EL2_CALLS 500

void el2_uncounted_test(void)
{
	unsigned int n = pmu_n();
	uint64_t enables = BIT(31), moved, first = 0;

	pmu_quiesce();
	for (unsigned int i = 0; i < n; i++) {
		pmu_set_evtyper(i, EVT_CYCLES | EVT_P | EVT_U | EVT_NSH);
		pmu_set_evcntr(i, 0);
		enables |= BIT(i);
	}
	write_sysreg(EVT_P | EVT_U | EVT_NSH, pmccfiltr_el0);
	write_sysreg(0, pmccntr_el0);
	write_sysreg(enables, pmcntenset_el0);
	write_sysreg(PMCR_E, pmcr_el0);
	isb();
	(void)wfi_sleep_ms(3);
	(void)wfi_sleep_ms(3);
	for (unsigned int i = 0; i < EL2_CALLS; i++)
		(void)psci_version();
	(void)spin_ms(10);
	write_sysreg(0, pmcr_el0);
	isb();
	moved = stopped_moved(n, &first);
	CHECK("el2-uncounted", !moved,
	      "%u counters and PMCCNTR_EL0 counting EL2 alone (P, U, NSH), two 3 ms WFI sleeps, "
	      "%u PSCI_VERSION calls, 10 ms: moved 0x%lx (first moved count %lu, PMCCNTR_EL0 %lu)",
	      n, EL2_CALLS, moved, first, read_sysreg(pmccntr_el0));
	pmu_quiesce();
}

void timer_tests(void)
{
	bool fired, dropped, quiet, got;

	if (!gi.gicr) {
		result("vtimer-irq-active", SKIP, "no GIC in the device tree");
		return;
	}
	irq_register(VTIMER_INTID, timer_irq);
	irq_enable();
	quiet = stale_after(0, &fired, &dropped);
	CHECK("vtimer-disabled-no-stale", fired && dropped && quiet,
	      "fired while masked at the GIC: pending %d; disabled: pending %d; unmasked: %u "
	      "interrupts",
	      fired, !dropped, timer_irqs);
	quiet = stale_after(CNTV_CTL_ENABLE | CNTV_CTL_IMASK, &fired, &dropped);
	CHECK("vtimer-imask-no-stale", fired && dropped && quiet,
	      "fired while masked at the GIC: pending %d; IMASK: pending %d; unmasked: %u "
	      "interrupts",
	      fired, !dropped, timer_irqs);
	timer_irqs = 0;
	active_in_handler = false;
	write_sysreg(now(), cntv_cval_el0);
	write_sysreg(CNTV_CTL_ENABLE, cntv_ctl_el0);
	got = wait_for(&timer_irqs, 1, 20);
	CHECK("vtimer-irq-active", got && !wait_for(&timer_irqs, 2, 5) && active_in_handler,
	      "one interrupt (%u), active in GICR_ISACTIVER0 while handled: %d", timer_irqs,
	      active_in_handler);
	gic_enable_ppi(VTIMER_INTID, false);
	write_sysreg(0, cntv_ctl_el0);
	ptimer_test();
	wfi_test();
}

/* min_share=P: over 50 ms of CNTVCT time this vCPU ran at least P % of it (time between two reads
 * of the counter further apart than 100 us was spent elsewhere: another guest or the
 * hypervisor). A scheduler whose switch outlasts its slice must still let every guest run. */
void share_test(void)
{
	uint64_t want = arg_u64("min_share", 0), gap = gi.freq / 10000, ran = 0, share;
	uint64_t start = now(), end = start + ms_to_ticks(50), last = start;

	for (uint64_t t = start; t < end; t = now()) {
		if (t - last <= gap)
			ran += t - last;
		last = t;
	}
	share = ran * 100 / (last - start);
	CHECK("slice-share", share >= want, "ran %lu %% of 50 ms (at least %lu %% wanted)", share,
	      want);
}
