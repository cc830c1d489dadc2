// SPDX-License-Identifier: MIT
/*
 * Which PMU fields exist on the configured PE, written from the architecture text and not from
 * vperf's register database: PMCR_EL0 (I5.3.21), PMEVTYPER<n>_EL0 / PMCCFILTR_EL0 (I5.3.30,
 * I5.3.2) and MDCR_EL2 (its register description, Arm DDI 0487 K.a D24.3), and the
 * architecturally UNKNOWN reset of the PMU registers, which the model fills with seeded garbage.
 *
 * At EL2 a write that sets a field the PE does not have (RES0), or an HPMN value the
 * architecture makes CONSTRAINED UNPREDICTABLE, is a hypervisor error the model reports; the
 * field reads back as 0. A guest's own EL1 writes are simply masked.
 */
#include "pmu_internal.h"

static uint8_t pmuver(void)
{
	return sim_pmu_version();
}

/*
 * PMCR_EL0 (I5.3.21), for a PE with EL2: E always; D and LC only with AArch32 (FEAT_AA32, here
 * at EL0: aarch32_el0), RES0 and RES1 without; X only with an event export bus (RAZ/WI
 * otherwise); DP with EL3, or PMUv3p1 and EL2, or PMUv3p7; LP with PMUv3p5; FZO with PMUv3p7
 * (kept, freezing is not modelled).
 */
uint64_t pmu_pmcr_writable(void)
{
	const struct sim_pe_config *cfg = sim_model_config();
	uint64_t w = PMCR_E;

	if (cfg->aarch32_el0)
		w |= PMCR_D_BIT | PMU_LC;

	if (cfg->pmu_export_bus)
		w |= PMCR_X;
	if (cfg->el3 || pmuver() >= 4)
		w |= PMCR_DP;
	if (pmuver() >= 6)
		w |= PMCR_LP;
	if (pmuver() >= 7)
		w |= PMCR_FZO;
	return w;
}

/* PMCR_EL0 bits that are RES0 on this PE (X is RAZ/WI without an export bus: writing it is
 * allowed; P and C are actions). */
static uint64_t pmcr_res0(void)
{
	return ~(pmu_pmcr_writable() | PMCR_X | PMCR_P | PMCR_C | PMU_LC | VPERF_GENMASK(31, 11));
}

/* The filter fields every PMU filter register has (I5.3.30, I5.3.2, I5.3.32): P, U and NSH
 * (EL2 is implemented); NSK, NSU and M only with EL3; SH only with EL3 and FEAT_SEL2. */
static uint64_t filter_fields(void)
{
	const struct sim_pe_config *cfg = sim_model_config();
	uint64_t w = EVTYPER_P | EVTYPER_U | EVTYPER_NSH;

	if (cfg->el3)
		w |= EVTYPER_NSK | EVTYPER_NSU | EVTYPER_M;
	if (cfg->el3 && cfg->sel2)
		w |= EVTYPER_SH;
	return w;
}

/*
 * PMEVTYPER<n>_EL0 (I5.3.30) and PMCCFILTR_EL0 (I5.3.2): the filter fields; evtCount[15:10]
 * from PMUv3p1; MT (event counters only) with FEAT_MTPMU or an IMPLEMENTATION DEFINED
 * multi-threaded extension, RES0 otherwise ("if FEAT_MTPMU is not implemented, this field is
 * RES0" from Armv8.6). The threshold, edge, SME and Realm fields belong to features the model
 * does not have.
 */
uint64_t pmu_evtyper_writable(bool cycle)
{
	uint64_t w = filter_fields();

	if (cycle)
		return w;
	if (sim_model_config()->mtpmu != SIM_MTPMU_NONE)
		w |= EVTYPER_MT;
	return w | EVTYPER_EVT_LOW | (pmuver() >= 4 ? EVTYPER_EVT_HI : 0);
}

/* PMICFILTR_EL0 (I5.3.32): the filter fields; evtCount reads 0x0008 (INST_RETIRED), RO. */
uint64_t pmu_icfiltr_writable(void)
{
	return filter_fields();
}

uint64_t pmu_uacr_writable(void)
{
	return (VPERF_BIT(pmu_num()) - 1) | VPERF_BIT(PMU_CYCLE_BIT) |
	       (sim_pe_icntr() ? VPERF_BIT(PMU_ICNTR_BIT) : 0);
}

/*
 * MT is "ignored by the PE and treated as zero when FEAT_MTPMU is implemented and disabled"
 * (I5.3.30 MT): disabled by MDCR_EL3.MTPME = 0 where EL3 is implemented, else by
 * MDCR_EL2.MTPME = 0 (MDCR_EL2.MTPME exists only with FEAT_MTPMU and no EL3). The
 * IMPLEMENTATION DEFINED extension of earlier PEs has no such control.
 */
bool pmu_mt_effective(unsigned int cpu, uint64_t type)
{
	const struct sim_pe_config *cfg = sim_model_config();

	if (!(type & EVTYPER_MT) || cfg->mtpmu == SIM_MTPMU_NONE || !sim_pe_mt(cpu))
		return false;
	if (cfg->mtpmu == SIM_MTPMU_IMPDEF)
		return true;
	return cfg->el3 ? cfg->mdcr_el3_mtpme
			: (sim_reg(cpu, SIM_ENC_MDCR_EL2) & SIM_MDCR_EL2_MTPME);
}

/*
 * PMUSERENR_EL0: EN, SW, CR and ER on every PMUv3; UEN [4] and TID [6] only from PMUv3p9, IR
 * [5] only with FEAT_PMUv3_ICNTR (Arm DDI 0487, PMUSERENR_EL0): RES0 before.
 */
uint64_t pmu_userenr_writable(void)
{
	uint64_t w = pmuver() >= 9 ? 0x5full : 0xfull;

	return w | (sim_pe_icntr() ? PMUSERENR_IR : 0);
}

uint64_t sim_pmu_type_fields(bool cycle)
{
	return pmu_evtyper_writable(cycle);
}

/*
 * MDCR_EL2 fields present on the model's PE (MDCR_EL2 description): HPMN, TPMCR, TPM, HPME and the
 * debug traps TDE/TDA/TDOSA/TDRA always; E2PB and TPMS with SPE; HPMD with PMUv3p1; HCCD and HLP
 * with PMUv3p5; HPMFZO with PMUv3p7; TDCC with FEAT_FGT; HPMFZS with FEAT_SPEv1p2 (held, not
 * acted on: the model has no debug communications channel and does not freeze counters on a
 * buffer management event); MTPME with FEAT_MTPMU where EL3 is not implemented. No trace:
 * TTRF and E2TB are RES0.
 */
static uint64_t mdcr_fields(unsigned int cpu)
{
	uint64_t f = SIM_MDCR_EL2_HPMN_MASK | SIM_MDCR_EL2_TPMCR | SIM_MDCR_EL2_TPM |
		     SIM_MDCR_EL2_HPME | SIM_MDCR_EL2_TDE | SIM_MDCR_EL2_TDA | SIM_MDCR_EL2_TDOSA |
		     SIM_MDCR_EL2_TDRA;

	if (sim_model_config()->pmsver)
		f |= SIM_MDCR_EL2_E2PB_MASK | SIM_MDCR_EL2_TPMS;
	if (pmuver() >= 4)
		f |= SIM_MDCR_EL2_HPMD;
	if (pmuver() >= 6)
		f |= SIM_MDCR_EL2_HCCD | SIM_MDCR_EL2_HLP;
	if (pmuver() >= 7)
		f |= SIM_MDCR_EL2_HPMFZO;
	if (sim_pe_fgt(cpu))
		f |= SIM_MDCR_EL2_TDCC;
	if (sim_cpu_config(cpu)->pmsver >= 3)
		f |= SIM_MDCR_EL2_HPMFZS;
	if (sim_model_config()->mtpmu == SIM_MTPMU_FEAT && !sim_model_config()->el3)
		f |= SIM_MDCR_EL2_MTPME;
	return f;
}

/* MDCR_EL2.HPMN: 0 only with FEAT_HPMN0; above NUM_PMU_COUNTERS it is CONSTRAINED
 * UNPREDICTABLE (MDCR_EL2.HPMN description). Without FEAT_PMUv3 the field is RES0, so
 * 0 is the only right value there. */
static void check_hpmn(unsigned int cpu, uint64_t mdcr)
{
	uint64_t hpmn = mdcr & SIM_MDCR_EL2_HPMN_MASK;

	if (!pmuver()) {
		if (hpmn)
			sim_report_error(cpu, "MDCR_EL2.HPMN set on a PE without PMUv3 (RES0)");
		return;
	}
	if (hpmn == 0 && !sim_pe_hpmn0(cpu))
		sim_report_error(cpu, "MDCR_EL2.HPMN = 0 without FEAT_HPMN0 (CONSTRAINED "
				      "UNPREDICTABLE)");
	if (hpmn > pmu_num())
		sim_report_error(cpu, "MDCR_EL2.HPMN above PMCR_EL0.N (CONSTRAINED UNPREDICTABLE)");
}

uint64_t pmu_write_mdcr(unsigned int cpu, uint64_t val)
{
	if (val & ~mdcr_fields(cpu))
		sim_report_error(cpu, "EL2 write of MDCR_EL2 sets a field the PE does not "
				      "implement (RES0)");
	check_hpmn(cpu, val);
	return val & mdcr_fields(cpu);
}

uint64_t pmu_write_pmcr_bits(unsigned int cpu, unsigned int el, uint64_t val)
{
	if (el == 2 && (val & pmcr_res0()))
		sim_report_error(cpu, "EL2 write of PMCR_EL0 sets a field the PE does not "
				      "implement (RES0: LP before PMUv3p5, D without AArch32...)");
	return val & pmu_pmcr_writable();
}

/* Architecturally UNKNOWN at reset (I5.3: PMCNTENSET, PMINTENSET, PMOVSSET, PMSELR,
 * PMUSERENR, the counters and their types, PMCR_EL0 except E, which resets to 0): seeded
 * garbage, so that a hypervisor that relies on zeros, or leaves a stray enable or flag, is caught. MDCR_EL2 gets
 * HPMN = N (its Warm reset value) and the rest 0, the state a hypervisor's boot code leaves. */
static uint64_t garbage(unsigned int cpu, uint64_t mask)
{
	return sim_model_config()->reset_zero ? 0 : sim_random(cpu) & mask;
}

void pmu_reset_unknown(unsigned int cpu)
{
	/* F0 resets to 0 on a Warm reset (PMCNTENSET_EL0.F0, I5.3.18); the rest is UNKNOWN. */
	uint64_t bits = (VPERF_BIT(pmu_num()) - 1) | VPERF_BIT(PMU_CYCLE_BIT);
	uint64_t width = pmuver() >= 6 ? ~0ull : 0xffffffffull;

	sim_set_reg(cpu, SIM_ENC_MDCR_EL2, pmu_num());
	sim_set_reg(cpu, SIM_ENC_PMCNTENSET_EL0, garbage(cpu, bits));
	sim_set_reg(cpu, SIM_ENC_PMINTENSET_EL1, garbage(cpu, bits));
	sim_set_reg(cpu, SIM_ENC_PMOVSSET_EL0, garbage(cpu, bits));
	sim_set_reg(cpu, SIM_ENC_PMSELR_EL0, garbage(cpu, 0x1f));
	sim_set_reg(cpu, SIM_ENC_PMUSERENR_EL0, garbage(cpu, pmu_userenr_writable()));
	if (pmuver() >= 9)
		sim_set_reg(cpu, SIM_ENC_PMUACR_EL1, garbage(cpu, pmu_uacr_writable()));
	if (sim_pe_icntr()) {
		sim_set_reg(cpu, SIM_ENC_PMICNTR_EL0, garbage(cpu, ~0ull));
		sim_set_reg(cpu, SIM_ENC_PMICFILTR_EL0, garbage(cpu, pmu_icfiltr_writable()));
	}
	sim_set_reg(cpu, SIM_ENC_PMCR_EL0, garbage(cpu, pmu_pmcr_writable() & ~PMCR_E));
	sim_set_reg(cpu, SIM_ENC_PMCCNTR_EL0, garbage(cpu, ~0ull));
	sim_set_reg(cpu, SIM_ENC_PMCCFILTR_EL0, garbage(cpu, pmu_evtyper_writable(true)));
	for (unsigned int n = 0; n < pmu_num(); n++) {
		pmu_set_counter(cpu, n, garbage(cpu, width));
		pmu_set_evtyper(cpu, n, garbage(cpu, pmu_evtyper_writable(false)));
	}
}
