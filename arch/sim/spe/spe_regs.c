// SPDX-License-Identifier: MIT
/*
 * SPE registers as direct accesses see them: which bits a write keeps (RES0 and unimplemented
 * fields read as zero), PMBIDR_EL1.P, the ID register defaults and the sizes they define.
 */
#include "spe_internal.h"

uint64_t sim_spe_default_pmsidr(uint8_t pmsver)
{
	/* SPE 4.3.11: FE, FT and FL read as one; ArchInst: the model samples instructions (its
	 * micro-ops are architectural instructions); LDS: loads carry a Data Source packet;
	 * Interval 0b0000 (256); MaxSize 0b0110 (64 bytes, the largest record the model writes is
	 * 62 bytes); CountSize 0b0010 (12-bit saturating). */
	uint64_t idr = PMSIDR_FE | PMSIDR_FT | PMSIDR_FL | PMSIDR_ARCHINST | PMSIDR_LDS |
		       6ull << PMSIDR_MAXSIZE_SHIFT |
		       (uint64_t)PMSIDR_COUNTSIZE_12_SAT << PMSIDR_COUNTSIZE_SHIFT;

	if (pmsver >= 3) /* FEAT_SPE_FnE comes with SPEv1p2 */
		idr |= PMSIDR_FNE;
	if (pmsver >= 5) /* FEAT_SPE_FDS and FEAT_SPE_EFT need SPEv1p4 */
		idr |= PMSIDR_FDS | PMSIDR_EFT;
	return idr;
}

uint64_t sim_spe_default_pmbidr(void)
{
	return 0; /* SPE 4.3.1: Align 0b0000 (byte), F 0 (no hardware flag updates), P computed */
}

void sim_spe_default_config(struct sim_pe_config *cfg, uint8_t pmsver)
{
	sim_default_config(cfg);
	cfg->pmsver = pmsver;
	cfg->pmsidr = sim_spe_default_pmsidr(pmsver);
	cfg->pmbidr = sim_spe_default_pmbidr();
}

unsigned int spe_max_size(unsigned int cpu)
{
	return (unsigned int)VPERF_FIELD_GET(spe_idr(cpu), 15, 12);
}

unsigned int spe_align(unsigned int cpu)
{
	return (unsigned int)(sim_reg(cpu, SIM_ENC_PMBIDR_EL1) & PMBIDR_ALIGN_MASK);
}

/* Arm DDI 0487 K.a D18.2.3: 12- or 16-bit saturating counters, by PMSIDR_EL1.CountSize. */
uint32_t spe_counter_max(unsigned int cpu)
{
	return VPERF_FIELD_GET(spe_idr(cpu), 19, 16) == PMSIDR_COUNTSIZE_16_SAT ? 0xffffu : 0xfffu;
}

/* SPE 4.3.5 has PCT in bit [6] only; FEAT_ECV widens it to [7:6], whatever the SPE version
 * (ID_AA64MMFR0_EL1.ECV, Arm DDI 0487 D24.2.88: "Extends the PMSCR_EL1.PCT, PMSCR_EL2.PCT ...
 * fields"; CollectTimeStamp(), J1.1.1.55: "PCT<1> is RES0" without it). spe_ctl.c reads it. */
static uint64_t pmscr_mask(unsigned int cpu)
{
	uint64_t m = PMSCR_E0SPE | PMSCR_E1SPE | PMSCR_CX | PMSCR_PA | PMSCR_TS | PMSCR_PCT;

	return sim_cpu_config(cpu)->ecv ? m | PMSCR_PCT1 : m;
}

/* SPE 4.3.9 and the later fields (spe_internal.h): a field of an unimplemented feature is RES0. */
static uint64_t pmsfcr_mask(unsigned int cpu)
{
	uint64_t idr = spe_idr(cpu);
	uint64_t m = PMSFCR_FE | PMSFCR_FT | PMSFCR_FL | PMSFCR_B | PMSFCR_LD | PMSFCR_ST;

	if (idr & PMSIDR_FNE)
		m |= PMSFCR_FNE;
	if (idr & PMSIDR_FDS)
		m |= PMSFCR_FDS;
	if (idr & PMSIDR_EFT)
		m |= PMSFCR_FP | PMSFCR_SIMD |
		     VPERF_GENMASK(PMSFCR_MASK_SHIFT + 4, PMSFCR_MASK_SHIFT);
	return m;
}

/* The events PMSEVFR_EL1 and PMSNEVFR_EL1 can select on the model's SPE version (spe_fields.h):
 * a bit its Events packet does not define is RES0. */
uint64_t spe_filter_events(void)
{
	uint8_t v = sim_model_config()->pmsver;
	uint64_t m = SPE_FILTER_EVENTS;

	if (v >= 2)
		m |= SPE_FILTER_EVENTS_V1P1;
	if (v >= 3)
		m |= SPE_FILTER_EVENTS_V1P2;
	if (v >= 5)
		m = (m | SPE_FILTER_EVENTS_V1P4) & ~SPE_FILTER_RES0_V1P4;
	return m;
}

/* SPE 4.3.10: ECOUNT exists only when PMSIDR_EL1.ERnd is 1. */
static uint64_t pmsicr_mask(unsigned int cpu)
{
	return spe_idr(cpu) & PMSIDR_ERND ? PMSICR_COUNT_MASK | PMSICR_ECOUNT_MASK
					  : PMSICR_COUNT_MASK;
}

/* SPE 4.3.2: LIMIT, FM, E. FM values other than 0b00 are reserved before SPEv1p2, which defines
 * 0b10 (discard mode, D17.5.5); a reserved value is stored and behaves as 0b00. */
static uint64_t pmblimitr_mask(void)
{
	return PMBLIMITR_LIMIT_MASK | PMBLIMITR_FM_MASK | PMBLIMITR_E;
}

/* Arm DDI 0487 K.a D17.5.5: discard mode is PMBLIMITR_EL1.FM = 0b10 on a PE with SPEv1p2. */
bool spe_discard_mode(uint64_t limitr)
{
	uint64_t fm = VPERF_FIELD_GET(limitr, 2, PMBLIMITR_FM_SHIFT);

	return sim_model_config()->pmsver >= 3 && fm == PMBLIMITR_FM_DISCARD;
}

uint64_t spe_write_mask(unsigned int cpu, const struct sim_arch_reg *reg)
{
	switch (reg->enc) {
	case SIM_ENC_PMSCR_EL1:
	case SIM_ENC_PMSCR_EL2:
		return pmscr_mask(cpu);
	case SIM_ENC_PMSICR_EL1:
		return pmsicr_mask(cpu);
	case SIM_ENC_PMSIRR_EL1: /* SPE 4.3.12 */
		return PMSIRR_INTERVAL_MASK | PMSIRR_RND;
	case SIM_ENC_PMSFCR_EL1:
		return pmsfcr_mask(cpu);
	case SIM_ENC_PMSEVFR_EL1: /* SPE 4.3.8: events the filter supports */
	case SIM_ENC_PMSNEVFR_EL1:
		return spe_filter_events();
	case SIM_ENC_PMSLATFR_EL1: /* SPE 4.3.13: MINLAT as wide as the counters */
		return spe_counter_max(cpu);
	case SIM_ENC_PMBLIMITR_EL1:
		return pmblimitr_mask();
	case SIM_ENC_PMBSR_EL1: /* SPE 4.3.4: RES0 [63:32, 25:20] */
		return PMBSR_WRITABLE;
	case SIM_ENC_PMBPTR_EL1: /* SPE 4.3.3: PTR [63:0] */
	case SIM_ENC_PMSDSFR_EL1:
		return ~0ull;
	default:
		return 0;
	}
}

/* SPE 4.3.1 PMBIDR_EL1.P: one at Non-secure EL1 when MDCR_EL2.E2PB is 0b00 (the buffer is owned by
 * EL2), and at EL2 and Non-secure EL1 when MDCR_EL3.NSPB is 0b0x (sim_pe_spe_secure); the
 * model's firmware otherwise leaves NSPB = 0b11, so zero. */
static uint64_t pmbidr_value(unsigned int cpu, unsigned int el, uint64_t stored)
{
	uint64_t e2pb =
		VPERF_FIELD_GET(sim_reg(cpu, SIM_ENC_MDCR_EL2), 13, SIM_MDCR_EL2_E2PB_SHIFT);

	stored &= ~PMBIDR_P;
	if (sim_pe_spe_secure(cpu))
		return stored | PMBIDR_P;
	return el == 1 && e2pb == 0 ? stored | PMBIDR_P : stored;
}

/*
 * SPE 3.4.1, 3.6: after PSB CSYNC and a context synchronization event, a direct read observes the
 * indirect writes of the synchronized profiling operations; their bytes need not be in memory
 * yet (only a DSB completes them). After PSB CSYNC without one, "a direct read ... requires
 * explicit synchronization to observe an indirect write ... made by a profiling operation
 * synchronized by the PSB CSYNC": the model returns the value the register had at the PSB
 * CSYNC (or the software's own direct write since), so PSB CSYNC, DSB, read without the ISB
 * sees a stale pointer and no event.
 */
static uint64_t pmb_direct_read(unsigned int cpu, uint32_t enc)
{
	struct spe_cpu *st = spe_cpu(cpu);
	unsigned int i = enc == SIM_ENC_PMBSR_EL1;

	if (st->psb_await_cse && !st->dirty[i ? VR_PMBSR : VR_PMBPTR])
		return st->psb_snap[i];
	if (st->psb_visible)
		spe_process_synced(cpu);
	return sim_reg(cpu, enc);
}

uint64_t spe_read_value(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
			uint64_t stored)
{
	switch (reg->enc) {
	case SIM_ENC_PMBIDR_EL1:
		return pmbidr_value(cpu, el, stored);
	case SIM_ENC_PMBPTR_EL1:
	case SIM_ENC_PMBSR_EL1:
		return pmb_direct_read(cpu, reg->enc);
	default:
		return stored;
	}
}

/* SPE 4.2: PMBLIMITR_EL1.E resets to 0; every other control and buffer register to an
 * IMPLEMENTATION DEFINED value, which might be UNKNOWN. The model seeds garbage in their writable
 * bits (0 with reset_zero), so that software relying on zeros (a stray PMBSR_EL1.S, PMSCR_EL2
 * enables, a filter) is caught, at boot and after a power-down alike. Where EL3 keeps the buffer
 * (MDCR_EL3.NSPB, sim_pe_spe_secure), its firmware resets them: 0. */
void spe_reset_unknown(unsigned int cpu)
{
	static const uint32_t regs[] = {
		SIM_ENC_PMSCR_EL1,    SIM_ENC_PMSCR_EL2,    SIM_ENC_PMSICR_EL1,
		SIM_ENC_PMSIRR_EL1,   SIM_ENC_PMSFCR_EL1,   SIM_ENC_PMSEVFR_EL1,
		SIM_ENC_PMSLATFR_EL1, SIM_ENC_PMBPTR_EL1,   SIM_ENC_PMBLIMITR_EL1,
		SIM_ENC_PMBSR_EL1,    SIM_ENC_PMSNEVFR_EL1, SIM_ENC_PMSDSFR_EL1,
	};
	uint64_t idr = spe_idr(cpu);

	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		uint64_t mask = spe_write_mask(cpu, sim_arch_reg(regs[i]));

		if ((regs[i] == SIM_ENC_PMSNEVFR_EL1 && !(idr & PMSIDR_FNE)) ||
		    (regs[i] == SIM_ENC_PMSDSFR_EL1 && !(idr & PMSIDR_FDS)))
			continue;
		if (regs[i] == SIM_ENC_PMBLIMITR_EL1)
			mask &= ~PMBLIMITR_E;
		sim_set_reg(cpu, regs[i],
			    sim_model_config()->reset_zero || sim_pe_spe_secure(cpu)
				    ? 0
				    : sim_random(cpu) & mask);
	}
}
