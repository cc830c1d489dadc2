// SPDX-License-Identifier: MIT
/*
 * The PMU overflow interrupt as the guest sees it: the PPI its device tree names (INTID 23 under
 * vperf), level-sensitive, asserted while PMCR_EL0.E and an overflow flag with its interrupt
 * enabled (Arm ARM D19 PMINTENSET_EL1, PMOVSSET_EL0); delivered through the (v)GIC exactly once
 * per overflow the handler clears, never while masked, never from a stale flag.
 */
#include "suite.h"

static volatile unsigned int irqs;
static volatile uint64_t last_ovs;
/* Non-zero: the handler reloads counter 0 on its overflow, `reload_period` events from the next. */
static volatile uint64_t reload_period;

static void pmu_irq(uint32_t intid)
{
	uint64_t ovs = read_sysreg(pmovsset_el0);

	(void)intid;
	last_ovs = ovs;
	/* As a sampling profiler does: what the counter counted since its wrap is kept. */
	if (reload_period && (ovs & 1))
		pmu_set_evcntr(0, (uint32_t)(pmu_evcntr(0) - reload_period));
	write_sysreg(ovs, pmovsclr_el0); /* drop the level before the EOI */
	isb();
	irqs++;
}

static void arm_swinc_overflow(uint64_t inten)
{
	pmu_quiesce();
	pmu_set_evtyper(0, EVT_SW_INCR);
	pmu_set_evcntr(0, 0xffffffffull);
	write_sysreg(inten, pmintenset_el1);
	write_sysreg(1, pmcntenset_el0);
	write_sysreg(PMCR_E, pmcr_el0);
	isb();
	irqs = 0;
	last_ovs = 0;
}

static void test_swinc_irq(void)
{
	bool got, extra;

	arm_swinc_overflow(1);
	write_sysreg(1, pmswinc_el0);
	got = wait_for(&irqs, 1, 20);
	extra = wait_for(&irqs, 2, 5);
	CHECK("irq-swinc-overflow", got && !extra && (last_ovs & 1),
	      "one interrupt (%u) on INTID %u, PMOVSSET %lx", irqs, gi.pmu_intid, last_ovs);
}

static void test_cycle_irq(void)
{
	bool got;

	pmu_quiesce();
	irqs = 0;
	last_ovs = 0;
	write_sysreg(~0ull - 200000, pmccntr_el0);
	write_sysreg(CYCLE_BIT, pmintenset_el1);
	write_sysreg(CYCLE_BIT, pmcntenset_el0);
	write_sysreg(PMCR_E | PMCR_LC, pmcr_el0);
	got = wait_for(&irqs, 1, 100);
	write_sysreg(CYCLE_BIT, pmcntenclr_el0);
	if (pmu_cycles_denied())
		CHECK("irq-cycle-overflow",
		      !got && !irqs && !(read_sysreg(pmovsset_el0) & CYCLE_BIT),
		      "CPU_CYCLES denied: no cycle counter overflow interrupt (%u), PMOVSSET %lx",
		      irqs, read_sysreg(pmovsset_el0));
	else
		CHECK("irq-cycle-overflow", got && irqs == 1 && (last_ovs & CYCLE_BIT),
		      "cycle counter overflow interrupt (%u), PMOVSSET %lx", irqs, last_ovs);
}

/* No interrupt while PMINTEN is clear, and none from a flag cleared before enabling it. */
static void test_masked(void)
{
	bool flag, quiet1, quiet2;

	arm_swinc_overflow(0);
	write_sysreg(1, pmswinc_el0);
	quiet1 = !wait_for(&irqs, 1, 5);
	flag = read_sysreg(pmovsset_el0) & 1;
	write_sysreg(1, pmovsclr_el0);
	write_sysreg(1, pmintenset_el1);
	quiet2 = !wait_for(&irqs, 1, 5);
	CHECK("irq-masked", quiet1 && flag && quiet2,
	      "flag without interrupt while PMINTEN clear; none after clearing it");
}

/* A flag set by the guest itself raises the line only once PMCR_EL0.E is set. */
static void test_enable_gate(void)
{
	bool quiet, got;

	pmu_quiesce();
	irqs = 0;
	write_sysreg(1, pmintenset_el1);
	write_sysreg(1, pmcntenset_el0);
	write_sysreg(1, pmovsset_el0);
	quiet = !wait_for(&irqs, 1, 5);
	write_sysreg(PMCR_E, pmcr_el0);
	got = wait_for(&irqs, 1, 20);
	CHECK("irq-pmcr-e-gate", quiet && got && irqs == 1,
	      "PMOVSSET write raises the interrupt only with PMCR_EL0.E (%u)", irqs);
}

/*
 * An event counter's overflow is recorded on the increment that wraps it (Arm DDI 0487 K.a I5.3,
 * PMCR_EL0.LP: "overflow on increment that causes unsigned overflow"), and with its PMINTENSET
 * bit set that flag is the interrupt request, whatever the event. So a loop that touches neither
 * the PMU nor the exception level gets one interrupt per period: counter 0 counts `event` from
 * -period with its interrupt on, reloaded by the handler; counter 1 counts the same event over
 * the same loop without one. QEMU derives CPU_CYCLES from its virtual clock and INST_RETIRED
 * from -icount and looks for the wrap from a timer; QEMU 10's timer fired one event short of it
 * and the overflow waited for the next PMU access or exception level change (docs/qemu.md).
 * Only under -icount, where that timer fires at the exact virtual time: on the host's clock its
 * latency (milliseconds on a loaded host) would decide the count. 32-bit counts (LP = 0).
 */
static void overflow_rate(const char *name, uint32_t event, uint64_t period, void (*run)(void))
{
	uint64_t total, due;

	pmu_quiesce();
	pmu_set_evtyper(0, event);
	pmu_set_evtyper(1, event);
	pmu_set_evcntr(0, (uint32_t)-period);
	irqs = 0;
	reload_period = period;
	write_sysreg(1, pmintenset_el1);
	write_sysreg(3, pmcntenset_el0);
	write_sysreg(PMCR_E, pmcr_el0);
	isb();
	run();
	write_sysreg(0, pmcr_el0);
	isb();
	total = pmu_evcntr(1);
	reload_period = 0;
	pmu_quiesce();
	due = total / period;
	/* A guest time-sliced with others runs only part of a time-bound loop */
	if (due < 10) {
		result(name, SKIP,
		       "event 0x%x: %lu events in the loop, fewer than 10 periods of %lu", event,
		       total, period);
		return;
	}
	CHECK(name, irqs + 1 >= due && irqs <= due + 1,
	      "event 0x%x: %u overflow interrupts over %lu events, %lu due at a period of %lu",
	      event, irqs, total, due, period);
}

/* 8 ms of CNTVCT_EL0: 8 M cycles at -icount shift=0 */
static void run_8ms(void)
{
	(void)spin_ms(8);
}

/* Some 2 M instructions */
static void run_400k_iterations(void)
{
	(void)workload(400000);
}

static bool event_offered(uint32_t event)
{
	return read_sysreg(pmceid0_el0) & BIT(event);
}

/* INST_RETIRED counts under -icount only: PMCEID0_EL0 offers it then (docs/qemu.md). */
static void test_overflow_rates(void)
{
	const char *why = NULL;

	if (pmu_n() < 2)
		why = "needs two event counters";
	else if (!event_offered(EVT_INST_RET))
		why = "no -icount (PMCEID0_EL0 does not offer INST_RETIRED): host-clock timing";
	else if (arg_u64("mux", 0) == 1)
		/* Both counters must count all the time; on one multiplexed slot they take
		 * turns, and where the rotation falls depends on every earlier switch (the WFI
		 * sleeps of the timer tests move it). */
		why = "one multiplexed slot (mux=1): the two counters take turns";
	if (why) {
		result("irq-rate-cycles", SKIP, "%s", why);
		result("irq-rate-insns", SKIP, "%s", why);
		return;
	}
	if (event_offered(EVT_CYCLES))
		overflow_rate("irq-rate-cycles", EVT_CYCLES, 200000, run_8ms);
	else
		result("irq-rate-cycles", SKIP, "PMCEID0_EL0 does not offer CPU_CYCLES");
	overflow_rate("irq-rate-insns", EVT_INST_RET, 100000, run_400k_iterations);
}

void irq_tests(void)
{
	if (!gi.pmu_intid || !gi.gicr) {
		result("irq-swinc-overflow", SKIP, "no PMU interrupt or GIC in the device tree");
		return;
	}
	irq_register(gi.pmu_intid, pmu_irq);
	gic_enable_ppi(gi.pmu_intid, true);
	irq_enable();
	test_swinc_irq();
	test_cycle_irq();
	test_masked();
	test_enable_gate();
	test_overflow_rates();
	pmu_quiesce();
}

void pmu_irq_install(void)
{
	irq_register(gi.pmu_intid, pmu_irq);
}

unsigned int pmu_irq_count(void);
unsigned int pmu_irq_count(void)
{
	return irqs;
}

void pmu_irq_reset(void);
void pmu_irq_reset(void)
{
	irqs = 0;
	last_ovs = 0;
}
