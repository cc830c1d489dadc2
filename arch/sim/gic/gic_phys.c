// SPDX-License-Identifier: MIT
/*
 * The physical side of the model's GIC for one PE: its SGIs/PPIs as a redistributor holds
 * them (enable, active) and a CPU interface takes them (acknowledge, priority drop,
 * deactivation), with the PPIs driven by level lines: PMUIRQ and PMBIRQ from their families,
 * the maintenance interrupt from the virtual CPU interface.
 *
 * Rules (GICv3 spec, Arm IHI 0069): a level-sensitive interrupt is pending while its line is
 * high (interrupt handling and prioritization: level-sensitive interrupts), so one still
 * asserted when it is deactivated is taken again; HCR_EL2.IMO = 1 routes physical IRQs to EL2
 * (Arm DDI 0487 K.a, HCR_EL2.IMO); ICC_CTLR_EL1.EOImode = 1 splits priority drop (ICC_EOIR1_EL1)
 * from deactivation (ICC_DIR_EL1), and deactivating an interrupt whose priority was not dropped is
 * UNPREDICTABLE (ICC_DIR_EL1); a HW = 1 list register deactivates its pINTID when the guest
 * deactivates the virtual interrupt (ICH_LR<n>_EL2.HW).
 */
#include "gic_cpu.h"

static uint32_t ppi_bit(uint32_t intid)
{
	return intid < 32 ? 1u << intid : 0;
}

/* The level of each physical line, by INTID. */
static uint32_t pending_lines(unsigned int cpu)
{
	uint32_t p = 0;
	uint64_t hcr = sim_reg(cpu, SIM_ENC_ICH_HCR_EL2);

	if (sim_line(cpu, SIM_LINE_PMUIRQ))
		p |= ppi_bit(sim_line_intid(SIM_LINE_PMUIRQ));
	if (sim_line(cpu, SIM_LINE_PMBIRQ))
		p |= ppi_bit(sim_line_intid(SIM_LINE_PMBIRQ));
	/* The maintenance interrupt is asserted while ICH_HCR_EL2.En = 1 and a condition in
	 * ICH_MISR_EL2 holds (IHI 0069, ICH_MISR_EL2). */
	if ((hcr & SIM_ICH_HCR_EN) && gic_misr(cpu))
		p |= ppi_bit(SIM_GIC_MAINT_INTID);
	return p;
}

static uint32_t candidates(unsigned int cpu)
{
	const struct gic_cpu *g = gic_cpu(cpu);

	if (!(sim_reg(cpu, SIM_ENC_HCR_EL2) & SIM_HCR_EL2_IMO) || g->running)
		return 0;
	return pending_lines(cpu) & g->enabled & ~g->active;
}

/* Draw when a newly asserted PMUIRQ will be taken (enum sim_irq_latency). */
static void arm_pmu_delay(unsigned int cpu, struct gic_cpu *g)
{
	const struct sim_pe_config *cfg = sim_model_config();
	unsigned int mode = cfg->pmuirq_latency;
	uint64_t r = sim_random(cpu);

	g->pmu_armed = true;
	g->pmu_wait_trap = false;
	g->pmu_traps = sim_guest_stats(cpu)->el2_traps;
	if (mode == SIM_IRQ_SEEDED)
		mode = SIM_IRQ_IMMEDIATE + (unsigned int)(r & 3);
	switch (mode) {
	case SIM_IRQ_IMMEDIATE:
		g->pmu_wait = 0;
		break;
	case SIM_IRQ_AFTER_POLLS:
		g->pmu_wait = cfg->pmuirq_polls ? cfg->pmuirq_polls : 1 + (uint32_t)(r >> 8 & 15);
		break;
	case SIM_IRQ_AFTER_TRAP:
		g->pmu_wait_trap = true;
		g->pmu_wait = cfg->pmuirq_polls ? cfg->pmuirq_polls : 64;
		break;
	default: /* late: across switches */
		g->pmu_wait = 16 + (uint32_t)(r >> 8 & 0xef);
		break;
	}
}

/* Is PMUIRQ, a candidate at this poll point, held back? Each held poll point counts. */
static bool pmu_delayed(unsigned int cpu)
{
	struct gic_cpu *g = gic_cpu(cpu);

	if (!g->pmu_armed)
		arm_pmu_delay(cpu, g);
	if (g->pmu_wait_trap && sim_guest_stats(cpu)->el2_traps != g->pmu_traps)
		g->pmu_wait = 0;
	if (!g->pmu_wait)
		return false;
	g->pmu_wait--;
	return true;
}

/* The candidates this poll point may take: an asserted PMUIRQ waits out its latency; a line
 * that dropped forgets it (the next assertion draws again). */
static uint32_t takeable(unsigned int cpu)
{
	uint32_t set = candidates(cpu), pmu = ppi_bit(sim_line_intid(SIM_LINE_PMUIRQ));

	if (!(set & pmu)) {
		if (!(gic_cpu(cpu)->active & pmu))
			gic_cpu(cpu)->pmu_armed = false;
		return set;
	}
	return pmu_delayed(cpu) ? set & ~pmu : set;
}

/* An enabled physical interrupt is pending for the CPU interface to signal (ISR_EL1.I at EL2):
 * whatever the latency drawn for taking it, which is the PE's (the architecture bounds none). */
bool gic_phys_pending(unsigned int cpu)
{
	return candidates(cpu) != 0;
}

bool sim_gic_pmuirq_delayed(unsigned int cpu)
{
	return (candidates(cpu) & ppi_bit(sim_line_intid(SIM_LINE_PMUIRQ))) != 0;
}

/* Still signalled after a take (a storm): a PMUIRQ waiting out its latency is not. */
bool gic_phys_deliverable(unsigned int cpu)
{
	const struct gic_cpu *g = gic_cpu(cpu);
	uint32_t set = candidates(cpu);

	if (g->pmu_armed && g->pmu_wait)
		set &= ~ppi_bit(sim_line_intid(SIM_LINE_PMUIRQ));
	return set != 0;
}

/* Equal priorities: which one the CPU interface presents is IMPLEMENTATION DEFINED, so pick
 * one at random. */
static uint32_t pick(unsigned int cpu, uint32_t set)
{
	unsigned int n = (unsigned int)__builtin_popcount(set);
	unsigned int k = (unsigned int)(sim_random(cpu) % n);

	while (k--)
		set &= set - 1;
	return (uint32_t)__builtin_ctz(set);
}

static void call_el2_handler(unsigned int cpu, uint32_t intid)
{
	const struct sim_handlers *h = sim_model_handlers();

	/* The exception returns to the EL it was taken from (SPSR_EL2.M), EL0 or EL1. */
	sim_enter_el2(cpu);
	if (h->irq)
		h->irq(h->ctx, cpu, intid);
	else
		sim_report_error(cpu, "physical interrupt taken to EL2 with no handler");
	sim_exit_el2(cpu);
}

/* Acknowledge (ICC_IAR1_EL1) the interrupt the CPU interface signals and run the handler. */
bool gic_phys_take(unsigned int cpu)
{
	struct gic_cpu *g = gic_cpu(cpu);
	uint32_t set = takeable(cpu), intid;

	if (!set)
		return false;
	intid = pick(cpu, set);
	if (intid == sim_line_intid(SIM_LINE_PMUIRQ))
		g->pmu_armed = false;
	g->active |= ppi_bit(intid);
	g->running |= ppi_bit(intid);
	g->stats.phys_taken[intid]++;
	call_el2_handler(cpu, intid);
	return true;
}

static bool known(unsigned int cpu, uint32_t intid)
{
	if (intid < 32)
		return true;
	sim_report_error(cpu, "EOI or deactivation of an INTID the model has no state for");
	return false;
}

static void deactivate(unsigned int cpu, uint32_t intid)
{
	struct gic_cpu *g = gic_cpu(cpu);

	if (!(g->active & ppi_bit(intid)))
		g->stats.phys_deact_inactive++;
	g->active &= ~ppi_bit(intid);
}

/* Priority drop of the running interrupt; an EOI naming another one is UNPREDICTABLE. */
static bool drop(unsigned int cpu, uint32_t intid)
{
	struct gic_cpu *g = gic_cpu(cpu);

	if (!known(cpu, intid))
		return false;
	if (!(g->running & ppi_bit(intid))) {
		sim_report_error(cpu, "physical EOI of an interrupt that is not running");
		return false;
	}
	g->running &= ~ppi_bit(intid);
	return true;
}

void sim_gic_eoi(unsigned int cpu, uint32_t intid)
{
	if (drop(cpu, intid))
		deactivate(cpu, intid);
}

void sim_gic_priority_drop(unsigned int cpu, uint32_t intid)
{
	drop(cpu, intid);
}

void sim_gic_deactivate(unsigned int cpu, uint32_t intid)
{
	if (!known(cpu, intid))
		return;
	if (gic_cpu(cpu)->running & ppi_bit(intid))
		sim_report_error(cpu, "physical deactivation before priority drop (UNPREDICTABLE)");
	deactivate(cpu, intid);
}

/* The guest deactivated a HW = 1 virtual interrupt. A physical interrupt that is no longer
 * active was deactivated by the hypervisor too: the guest's deactivation may then end a later
 * activation the hypervisor is handling, so the model reports it. */
void gic_phys_hw_deactivate(unsigned int cpu, uint32_t pintid)
{
	struct gic_cpu *g = gic_cpu(cpu);

	g->stats.hw_deactivations++;
	if (!known(cpu, pintid))
		return;
	if (g->running & ppi_bit(pintid))
		sim_report_error(cpu, "HW-linked deactivation before the physical priority drop");
	if (!(g->active & ppi_bit(pintid)))
		sim_report_error(cpu, "HW-linked deactivation of an inactive physical interrupt");
	deactivate(cpu, pintid);
}

void sim_gic_enable_ppi(unsigned int cpu, uint32_t intid, bool enable)
{
	struct gic_cpu *g = gic_cpu(cpu);

	if (enable)
		g->enabled |= ppi_bit(intid);
	else
		g->enabled &= ~ppi_bit(intid);
}

bool sim_gic_ppi_pending(unsigned int cpu, uint32_t intid)
{
	return (pending_lines(cpu) & ppi_bit(intid)) != 0;
}

bool sim_gic_ppi_active(unsigned int cpu, uint32_t intid)
{
	return (gic_cpu(cpu)->active & ppi_bit(intid)) != 0;
}

bool sim_gic_ppi_running(unsigned int cpu, uint32_t intid)
{
	return (gic_cpu(cpu)->running & ppi_bit(intid)) != 0;
}
