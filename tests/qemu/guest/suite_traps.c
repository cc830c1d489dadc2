// SPDX-License-Identifier: MIT
/*
 * What the guest's PMU accesses cost in traps to EL2, counted by the reference hypervisor
 * (hyp_trap_stats), and the event filter as a guest meets it.
 *
 *   direct=1    the direct partition (docs/vpmu.md, "Direct"): counter reads and writes,
 *               PMCNTEN, PMOVS, PMINTEN and PMSELR/PMXEVCNTR accesses take no trap (one per load
 *               at most: the first PMU access after a load brings the state in); PMEVTYPER
 *               writes trap exactly when the VM has an event filter (deny=, FEAT_FGT) and
 *               never otherwise.
 *   deny=E      the VM's filter denies event E (the hypervisor's vm0.deny=E): PMEVTYPER<n>_EL0
 *               reads back E as written, PMCEID does not offer it, and its counter counts
 *               nothing (docs/vpmu.md, "Policy"; Arm DDI 0487 K.a I5.3.30).
 *   hypstats=1  the hypervisor is not the reference one but answers its trap count call (Xen
 *               with vperf-guest-stats, docs/integration/xen.md); not answered: FAIL.
 *   trapstats=1 the trapped partition: every access to the highest counter the guest has
 *               (n >= 8 with more than 8 counters: beyond the 3 bits of CRm[1:0]:Op2's low
 *               half, on vperf's fast path) traps once and is counted once by vperf; PMSWINC
 *               written with a RES0 bit counts as a bad value and still increments.
 */
#include "suite.h"

#define ACCESSES    1000
#define TYPE_WRITES 100
#define SWINC_RES0  BIT(31) /* PMSWINC_EL0 bit 31: RES0 (bits [30:0] are P<m>) */

enum burst {
	B_EVCNTR_RD,
	B_EVCNTR_WR,
	B_CCNTR_RD,
	B_XEVCNTR_RD,
	B_CNTEN,
	B_OVS,
	B_INTEN,
	B_TYPER_WR
};

static void burst(enum burst what, unsigned int k)
{
	uint64_t sink = 0;

	for (unsigned int i = 0; i < k; i++) {
		switch (what) {
		case B_EVCNTR_RD:
			sink += read_sysreg(pmevcntr0_el0);
			break;
		case B_EVCNTR_WR:
			write_sysreg(i, pmevcntr0_el0);
			break;
		case B_CCNTR_RD:
			sink += read_sysreg(pmccntr_el0);
			break;
		case B_XEVCNTR_RD:
			write_sysreg(0, pmselr_el0);
			sink += read_sysreg(pmxevcntr_el0);
			break;
		case B_CNTEN:
			write_sysreg(1, pmcntenset_el0);
			sink += read_sysreg(pmcntenset_el0);
			break;
		case B_OVS:
			write_sysreg(1, pmovsclr_el0);
			sink += read_sysreg(pmovsset_el0);
			break;
		case B_INTEN:
			write_sysreg(1, pmintenclr_el1);
			sink += read_sysreg(pmintenset_el1);
			break;
		default: /* B_TYPER_WR */
			write_sysreg(EVT_SW_INCR, pmevtyper0_el0);
			break;
		}
	}
	barrier();
	(void)sink;
}

/* The traps one burst took beyond what its loads explain: the first PMU access after a load
 * traps (it brings the state in), one load each, and one more for a load just before the burst
 * (after the last access, before the hypervisor's count was read). */
static uint64_t burst_traps(enum burst what, unsigned int k, uint64_t *traps, uint64_t *loads)
{
	struct hyp_stats s0, s1;
	uint64_t t, l;

	hyp_trap_stats(&s0);
	burst(what, k);
	hyp_trap_stats(&s1);
	t = s1.traps - s0.traps;
	l = s1.loads - s0.loads;
	*traps += t;
	*loads += l;
	return t > l + 1 ? t - l - 1 : 0;
}

static void direct_tests(void)
{
	static const enum burst counters[] = { B_EVCNTR_RD, B_EVCNTR_WR, B_CCNTR_RD, B_XEVCNTR_RD };
	static const enum burst controls[] = { B_CNTEN, B_OVS, B_INTEN };
	uint64_t traps = 0, loads = 0, excess = 0, typer = 0, t_loads = 0;
	bool filter = arg_str("deny") != NULL;

	pmu_quiesce();
	for (unsigned int i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		excess += burst_traps(counters[i], ACCESSES, &traps, &loads);
	CHECK("direct-counters-untrapped", !excess,
	      "%lu traps in %u PMEVCNTR0/PMCCNTR/PMXEVCNTR accesses, %lu loads meanwhile", traps,
	      4 * ACCESSES, loads);
	traps = loads = excess = 0;
	for (unsigned int i = 0; i < sizeof(controls) / sizeof(controls[0]); i++)
		excess += burst_traps(controls[i], ACCESSES, &traps, &loads);
	CHECK("direct-controls-untrapped", !excess,
	      "%lu traps in %u PMCNTEN/PMOVS/PMINTEN SET+CLR accesses, %lu loads meanwhile", traps,
	      6 * ACCESSES, loads);
	burst_traps(B_TYPER_WR, TYPE_WRITES, &typer, &t_loads);
	CHECK("direct-evtyper-traps",
	      filter ? typer >= TYPE_WRITES && typer <= TYPE_WRITES + t_loads + 1
		     : typer <= t_loads + 1,
	      "%lu traps in %u PMEVTYPER0 writes, %lu loads (%s: %s)", typer, TYPE_WRITES, t_loads,
	      filter ? "an event filter" : "every event allowed", filter ? "each traps" : "none");
	pmu_quiesce();
}

/* PMCEID0_EL0 bit e for common event e < 0x20, PMCEID0_EL0[63:32] for 0x4000 + e. */
static bool pmceid_offers(uint32_t e)
{
	uint64_t id = e < 0x20 ? read_sysreg(pmceid0_el0) : read_sysreg(pmceid1_el0);

	return e < 0x40 && (id >> (e & 0x1f)) & 1;
}

static void deny_test(uint32_t e)
{
	uint64_t typ = EVT_U | e, back, count, swinc;

	pmu_quiesce();
	pmu_set_evtyper(0, EVT_SW_INCR);
	pmu_set_evtyper(1, typ);
	back = pmu_evtyper(1);
	write_sysreg(3, pmcntenset_el0);
	write_sysreg(PMCR_E | PMCR_LP, pmcr_el0);
	isb();
	workload(20000);
	write_sysreg(1, pmswinc_el0);
	isb();
	count = pmu_evcntr(1);
	swinc = pmu_evcntr(0);
	CHECK("deny-event", back == typ && !count && swinc == 1 && !pmceid_offers(e),
	      "event %x: PMEVTYPER1 reads %lx (wrote %lx), counted %lu over 20000 iterations, "
	      "PMCEID %s it; SW_INCR beside it counted %lu",
	      e, back, typ, count, pmceid_offers(e) ? "offers" : "hides", swinc);
	pmu_quiesce();
}

/* The trapped partition: each access to counter hi is one trap, counted once by vperf. */
static void fast_path_test(void)
{
	unsigned int hi = pmu_n() - 1;
	struct hyp_stats s0, s1;
	uint64_t k = TYPE_WRITES, sink = 0;

	pmu_quiesce();
	hyp_trap_stats(&s0);
	for (uint64_t i = 0; i < k; i++) {
		sink += pmu_evcntr(hi);
		pmu_set_evtyper(hi, EVT_SW_INCR);
	}
	hyp_trap_stats(&s1);
	CHECK("fast-path-stats",
	      s1.traps - s0.traps == 2 * k && s1.vperf_traps - s0.vperf_traps == 2 * k,
	      "PMEVCNTR%u reads + PMEVTYPER%u writes: %lu, %lu traps, %lu counted by vperf", hi, hi,
	      2 * k, s1.traps - s0.traps, s1.vperf_traps - s0.vperf_traps);
	write_sysreg(BIT(hi), pmcntenset_el0);
	write_sysreg(PMCR_E | PMCR_LP, pmcr_el0);
	hyp_trap_stats(&s0);
	for (uint64_t i = 0; i < 10; i++)
		write_sysreg(SWINC_RES0 | BIT(hi), pmswinc_el0);
	hyp_trap_stats(&s1);
	CHECK("swinc-res0-counted",
	      s1.bad_value - s0.bad_value == 10 && s1.vperf_traps - s0.vperf_traps == 10 &&
		      pmu_evcntr(hi) == 10,
	      "10 PMSWINC writes with bit 31 set: bad-value +%lu, vperf traps +%lu, counter %u "
	      "at %lu",
	      s1.bad_value - s0.bad_value, s1.vperf_traps - s0.vperf_traps, hi, pmu_evcntr(hi));
	(void)sink;
	pmu_quiesce();
}

void trap_tests(void)
{
	struct hyp_stats st;

	if (!arg_str("direct") && !arg_str("deny") && !arg_str("trapstats"))
		return;
	if (!hyp_trap_stats(&st)) {
		/* hypstats=1: the hypervisor was meant to answer (Xen's vperf-guest-stats). */
		if (arg_is("hypstats", "1"))
			result("trap-stats", FAIL, "hypstats=1 but the hypervisor does not answer");
		else
			result("trap-stats", SKIP, "not under the reference hypervisor");
		return;
	}
	if (arg_is("direct", "1"))
		direct_tests();
	if (arg_str("deny"))
		deny_test((uint32_t)arg_u64("deny", 0));
	if (arg_is("trapstats", "1"))
		fast_path_test();
}
