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

static void pmu_irq(uint32_t intid)
{
	uint64_t ovs = read_sysreg(pmovsset_el0);

	(void)intid;
	last_ovs = ovs;
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
