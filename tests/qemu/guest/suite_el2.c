// SPDX-License-Identifier: MIT
/*
 * EL2 probes: what the PE does at EL1 under MDCR_EL2 settings a hypervisor relies on, measured
 * on the PE itself, with no hypervisor. Only a payload entered at EL2 (bare-el2) runs them: its
 * head.S keeps an EL2 vector that answers HVC #0 (MDCR_EL2 writes, overflow flags and counters
 * at EL2) and records accesses MDCR_EL2 made trap. Arm DDI 0487 K.a: MDCR_EL2.HPMN splits the
 * event counters into a first range [0, HPMN), which EL1 and EL0 see and PMCR_EL0.E enables,
 * and a second range [HPMN, N) reserved for EL2, enabled by MDCR_EL2.HPME (D13.1, D24 MDCR_EL2,
 * PMCR_EL0, PMCNTENSET_EL0; I5.3.18, I5.3.21). Each probe restores HPMN = N.
 */
#include "suite.h"

extern volatile uint64_t entered_el2; /* head.S */

#define MDCR_TPMCR   BIT(5)
#define MDCR_HPME    BIT(7)
#define EC_SYSREG    0x18u
#define EL2_MDCR     0 /* the functions of head.S's el2_sync_lower */
#define EL2_TRAPPED  1
#define EL2_OVS	     2
#define EL2_CNTR_GET 3
#define EL2_CNTR_SET 4

static uint64_t el2_call(uint64_t fn, uint64_t a, uint64_t b)
{
	register uint64_t x0 __asm__("x0") = fn;
	register uint64_t x1 __asm__("x1") = a;
	register uint64_t x2 __asm__("x2") = b;

	__asm__ volatile("hvc #0" : "+r"(x0) : "r"(x1), "r"(x2) : "memory");
	return x0;
}

static unsigned int n_all; /* PMCR_EL0.N with HPMN = N: every counter */

static void set_hpmn(unsigned int hpmn, uint64_t extra)
{
	el2_call(EL2_MDCR, hpmn | extra, 0);
	isb();
}

/* MDCR_EL2.TPMCR: PMCR_EL0 accesses from EL1 trap to EL2 (EC 0x18), other PMU registers not. */
static void probe_tpmcr(void)
{
	uint64_t esr_pmcr, esr_cnten;

	el2_call(EL2_TRAPPED, 0, 0);
	set_hpmn(n_all, MDCR_TPMCR);
	(void)read_sysreg(pmcr_el0);
	esr_pmcr = el2_call(EL2_TRAPPED, 0, 0);
	(void)read_sysreg(pmcntenset_el0);
	esr_cnten = el2_call(EL2_TRAPPED, 0, 0);
	set_hpmn(n_all, 0);
	CHECK("el2-tpmcr", FIELD(esr_pmcr, 31, 26) == EC_SYSREG && !esr_cnten,
	      "PMCR_EL0 read trapped to EL2 (ESR %lx), PMCNTENSET_EL0 not (%lx)", esr_pmcr,
	      esr_cnten);
}

/* PMCR_EL0.P written at EL1 resets the first range only. */
static void probe_pmcr_p(void)
{
	unsigned int top = n_all - 1;
	uint64_t low, high;

	pmu_quiesce();
	pmu_set_evcntr(0, 777);
	el2_call(EL2_CNTR_SET, top, 12345);
	set_hpmn(top, 0);
	write_sysreg(PMCR_P, pmcr_el0);
	isb();
	set_hpmn(n_all, 0);
	low = pmu_evcntr(0);
	high = el2_call(EL2_CNTR_GET, top, 0);
	pmu_quiesce();
	CHECK("el2-pmcr-p-hpmn", low == 0 && high == 12345,
	      "PMCR.P at EL1 with HPMN = %u: counter 0 %lu (0), counter %u %lu (12345)", top, low,
	      top, high);
}

/* One access refused with an UNDEF (EC 0). */
#define UNDEFINED(stmt)                                \
	({                                             \
		uint64_t esr__;                        \
		expect_begin();                        \
		stmt;                                  \
		unsigned int n__ = expect_end(&esr__); \
		n__ == 1 && FIELD(esr__, 31, 26) == 0; \
	})

/* The enable, interrupt enable and overflow bits of PMCNTEN, PMINTEN and PMOVS at EL1. */
static uint64_t el1_bits(void)
{
	return read_sysreg(pmcntenset_el0) | read_sysreg(pmintenset_el1) |
	       read_sysreg(pmovsset_el0);
}

/*
 * With HPMN = hpmn, counter hpmn is EL2's (the first of its range): its PMCNTEN/PMINTEN/PMOVS
 * bits are RAZ/WI at EL1 (set beforehand, they read 0 and survive a clear of every bit), its
 * PMEVCNTR and PMEVTYPER are UNDEFINED and PMXEVCNTR selecting it is UNDEFINED with FEAT_FGT,
 * CONSTRAINED UNPREDICTABLE without (the project's QEMU: reads 0; PMXEVCNTR_EL0's access
 * pseudocode checks PMSELR_EL0.SEL first). Run at HPMN = N - 1 and, with FEAT_HPMN0, at
 * HPMN = 0, where EL1 has the cycle counter alone (a direct guest with no event counter).
 */
static void probe_hpmn_partition(const char *name, unsigned int hpmn)
{
	unsigned int top = hpmn;
	uint64_t hidden, kept, xev = 0, esr = 0;
	unsigned int xev_undef;
	bool undef;

	pmu_quiesce();
	write_sysreg(BIT(top), pmcntenset_el0);
	write_sysreg(BIT(top), pmintenset_el1);
	write_sysreg(BIT(top), pmovsset_el0);
	el2_call(EL2_CNTR_SET, top, 999);
	set_hpmn(hpmn, 0);
	hidden = el1_bits() & BIT(top);
	write_sysreg(~0ull, pmcntenclr_el0);
	write_sysreg(~0ull, pmintenclr_el1);
	write_sysreg(~0ull, pmovsclr_el0);
	undef = UNDEFINED((void)pmu_evcntr(top)) && UNDEFINED(pmu_set_evcntr(top, 1)) &&
		UNDEFINED(pmu_set_evtyper(top, EVT_SW_INCR));
	write_sysreg(top, pmselr_el0);
	isb();
	expect_begin();
	xev = read_sysreg(pmxevcntr_el0);
	xev_undef = expect_end(&esr);
	write_sysreg(0, pmselr_el0);
	set_hpmn(n_all, 0);
	kept = read_sysreg(pmcntenset_el0) & read_sysreg(pmintenset_el1) &
	       read_sysreg(pmovsset_el0) & BIT(top);
	pmu_quiesce();
	CHECK(name,
	      !hidden && kept && undef &&
		      ((xev_undef == 1 && FIELD(esr, 31, 26) == 0) || (!xev_undef && xev == 0)),
	      "counter %u of EL2 at EL1: bits %s, %s a clear; PMEVCNTR/PMEVTYPER %s; PMXEVCNTR %s "
	      "%lu",
	      top, hidden ? "visible" : "RAZ", kept ? "kept through" : "lost to",
	      undef ? "UNDEFINED" : "accessible", xev_undef ? "UNDEFINED" : "reads", xev);
}

/*
 * PMSWINC_EL0 at EL1 increments the first range only: with counter N - 1 EL2's (HPMN = N - 1,
 * HPME = 1 enabling it) and counting SW_INCR, a write of its bit leaves it alone, while counter
 * 0 beside it counts the same write.
 */
static void probe_pmswinc(void)
{
	unsigned int top = n_all - 1;
	uint64_t low, high;

	pmu_quiesce();
	pmu_set_evtyper(0, EVT_SW_INCR);
	pmu_set_evtyper(top, EVT_SW_INCR);
	write_sysreg(BIT(0) | BIT(top), pmcntenset_el0);
	write_sysreg(PMCR_E, pmcr_el0);
	set_hpmn(top, MDCR_HPME);
	write_sysreg(BIT(0) | BIT(top), pmswinc_el0);
	isb();
	set_hpmn(n_all, 0);
	low = pmu_evcntr(0);
	high = el2_call(EL2_CNTR_GET, top, 0);
	pmu_quiesce();
	CHECK("el2-pmswinc-hpmn", low == 1 && high == 0,
	      "PMSWINC at EL1 with HPMN = %u: counter 0 %lu (1), counter %u %lu (0)", top, low, top,
	      high);
}

static volatile unsigned int el2_irqs;

/* Overflow flags of EL2's range are cleared at EL2, where the guest's view cannot hide them. */
static void el2_irq(uint32_t intid)
{
	(void)intid;
	el2_call(EL2_OVS, ~0ull, 0);
	isb();
	el2_irqs++;
}

/*
 * The interrupt of a counter in EL2's range follows MDCR_EL2.HPME, not PMCR_EL0.E: raised with
 * HPME = 1 and PMCR.E = 0, not raised with HPME = 0 and PMCR.E = 1. Counter hpmn with
 * HPMN = hpmn, as probe_hpmn_partition.
 */
static void probe_hpme_irq(const char *name, unsigned int hpmn)
{
	unsigned int top = hpmn;
	bool raised, quiet;

	irq_register(gi.pmu_intid, el2_irq);
	pmu_quiesce();
	el2_irqs = 0;
	write_sysreg(BIT(top), pmintenset_el1);
	set_hpmn(hpmn, MDCR_HPME);
	el2_call(EL2_OVS, 0, BIT(top));
	raised = wait_for(&el2_irqs, 1, 20);
	set_hpmn(hpmn, 0);
	el2_irqs = 0;
	write_sysreg(PMCR_E, pmcr_el0);
	el2_call(EL2_OVS, 0, BIT(top));
	quiet = !wait_for(&el2_irqs, 1, 5);
	el2_call(EL2_OVS, ~0ull, 0);
	set_hpmn(n_all, 0);
	pmu_quiesce();
	pmu_irq_install();
	CHECK(name, raised && quiet,
	      "counter %u of EL2: interrupt with HPME=1 PMCR.E=0 %s, with HPME=0 PMCR.E=1 %s", top,
	      raised ? "raised" : "missing", quiet ? "none" : "raised");
}

void el2_probes(void)
{
	/* FEAT_HPMN0 (ID_AA64DFR0_EL1.HPMN0): MDCR_EL2.HPMN = 0 is legal, every event counter EL2's */
	bool hpmn0 = FIELD(read_sysreg(id_aa64dfr0_el1), 63, 60) != 0;

	if (!entered_el2)
		return;
	n_all = pmu_n();
	if (n_all < 2) {
		result("el2-tpmcr", SKIP, "PMCR_EL0.N = %u: no counter to reserve for EL2", n_all);
		return;
	}
	probe_tpmcr();
	probe_pmcr_p();
	probe_hpmn_partition("el2-hpmn-partition", n_all - 1);
	if (hpmn0)
		probe_hpmn_partition("el2-hpmn0-partition", 0);
	probe_pmswinc();
	if (gi.pmu_intid && gi.gicr) {
		probe_hpme_irq("el2-hpme-irq", n_all - 1);
		if (hpmn0)
			probe_hpme_irq("el2-hpmn0-irq", 0);
	}
}
