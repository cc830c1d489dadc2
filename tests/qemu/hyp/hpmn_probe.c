// SPDX-License-Identifier: MIT
/*
 * Does this PE enforce MDCR_EL2.HPMN at EL1? Measured at boot on each pCPU, before
 * vperf_pcpu_init(), which is told the answer (vperf_pcpu_config.hpmn_unenforced): the direct
 * partition isolates only where the hardware hides the second range from EL1 itself.
 *
 * Arm DDI 0487 K.a: with EL2 enabled, an EL1 access sees only the first range [0, HPMN)
 * (the MDCR_EL2.HPMN description, D24.2): PMCR_EL0.N reads HPMN; the bits of PMCNTENSET_EL0,
 * PMINTENSET_EL1 and PMOVSSET_EL0 for counters at or above HPMN are RAZ/WI; PMEVCNTR<n>_EL0
 * with n >= HPMN is UNDEFINED, and PMXEVCNTR_EL0 with PMSELR_EL0.SEL >= HPMN is UNDEFINED or
 * (CONSTRAINED UNPREDICTABLE) RAZ/WI (the PMU register descriptions of D24.5).
 *
 * The probe drops to EL1 in a stub (hpmn_stub.S) with HPMN = k = N - 1 and TPM = 0, writes all
 * ones to the three SET registers and reads them back, and reads and writes counter k through
 * PMSELR_EL0/PMXEVCNTR_EL0 after EL2 has put a known value in it. Enforced: PMCR_EL0.N reads k
 * at EL1, no bit at or above k sticks (read at EL1 and again at EL2), counter k reads 0 or is
 * UNDEFINED and keeps EL2's value. Debian's QEMU 7.2 and 10.0 leave the SET bits and counter k
 * reachable (docs/qemu.md); the project's QEMU (platform/qemu/patches) hides them.
 *
 * mutant=hpmn-unenforced runs the stub with HPMN = N (nothing hidden) while judging against
 * k: the probe then measures a PE that ignores HPMN, and vperf must refuse the direct partition.
 */
#include "hyp.h"

#define MDCR_HPMN_MASK 0x1full
#define SCTLR_EL1_RES1 0x30d00800ull /* MMU off, little endian */
#define HCR_RW	       BIT(31)
#define PROBE_MAGIC    0x5a5a5a5aull

struct hpmn_probe_out {
	uint64_t cnten, inten, ovs, evcntr, pmcr, exceptions;
};

void hpmn_probe_el1(struct hpmn_probe_out *out, uint64_t sel);

/* Counter k through the selector, at EL2 (which sees every counter). */
static uint64_t el2_evcntr(unsigned int k, bool write, uint64_t val)
{
	write_sysreg(k, pmselr_el0);
	isb();
	if (write)
		write_sysreg(val, pmxevcntr_el0);
	else
		val = read_sysreg(pmxevcntr_el0);
	return val;
}

static void pmu_clear_sets(void)
{
	write_sysreg(~0ull, pmcntenclr_el0);
	write_sysreg(~0ull, pmintenclr_el1);
	write_sysreg(~0ull, pmovsclr_el0);
	isb();
}

/* The stub's run: EL2's controls for it, put back after. */
static void run_stub(struct hpmn_probe_out *out, unsigned int k, unsigned int hpmn)
{
	uint64_t mdcr = read_sysreg(mdcr_el2), hcr = read_sysreg(hcr_el2);

	write_sysreg((mdcr & ~(MDCR_HPMN_MASK | BIT(5) | BIT(6))) | hpmn, mdcr_el2);
	write_sysreg(HCR_RW, hcr_el2);
	write_sysreg(SCTLR_EL1_RES1, sctlr_el1);
	isb();
	hpmn_probe_el1(out, k);
	write_sysreg(hcr, hcr_el2);
	write_sysreg(mdcr, mdcr_el2);
	isb();
}

/* True when the PE hides [k, N) from EL1 as the architecture says. */
bool hpmn_probe(void)
{
	unsigned int n = (unsigned int)FIELD(read_sysreg(pmcr_el0), 15, 11), k = n - 1;
	uint64_t hidden, cnten_el2, kept;
	struct hpmn_probe_out o = { 0 };
	bool enforced;

	if (n < 2) {
		hyp_log("HPMN probe: PMCR_EL0.N %u, no counter to hide: not enforced", n);
		return false;
	}
	hidden = (BIT(n) - 1) & ~(BIT(k) - 1);
	pmu_clear_sets();
	el2_evcntr(k, true, PROBE_MAGIC);
	run_stub(&o, k, hyp.mutant == MUT_HPMN_UNENFORCED ? n : k);
	cnten_el2 = read_sysreg(pmcntenset_el0);
	kept = el2_evcntr(k, false, 0);
	pmu_clear_sets();
	el2_evcntr(k, true, 0);
	write_sysreg(0, pmselr_el0);
	enforced = FIELD(o.pmcr, 15, 11) == k &&
		   !((o.cnten | o.inten | o.ovs | cnten_el2) & hidden) && o.evcntr != PROBE_MAGIC &&
		   kept == PROBE_MAGIC;
	hyp_log("HPMN probe at EL1 with HPMN %u of %u: PMCR_EL0.N %u, PMCNTENSET %lx, PMINTENSET "
		"%lx, PMOVSSET %lx, counter %u read %lx (%lu exceptions), kept %s: %s",
		k, n, (unsigned int)FIELD(o.pmcr, 15, 11), o.cnten, o.inten, o.ovs, k, o.evcntr,
		o.exceptions, kept == PROBE_MAGIC ? "yes" : "no",
		enforced ? "enforced" : "NOT enforced");
	return enforced;
}

/* hpmn_expect=0|1: the verdict on every pCPU's probe, at the end of the run. */
void hpmn_report(void)
{
	unsigned int enforced = 0;
	bool ok;

	if (hyp.hpmn_expect < 0)
		return;
	for (unsigned int c = 0; c < hyp.nr_pcpus; c++)
		enforced += hyp.pcpus[c].hpmn_enforced;
	ok = hyp.hpmn_expect ? enforced == hyp.nr_pcpus : !enforced;
	printf("RESULT host hpmn-probe %s HPMN enforced at EL1 on %u of %u pCPU (expected %s)\n",
	       ok ? "PASS" : "FAIL", enforced, hyp.nr_pcpus, hyp.hpmn_expect ? "all" : "none");
}
