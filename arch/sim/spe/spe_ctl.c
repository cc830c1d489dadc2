// SPDX-License-Identifier: MIT
/*
 * What the profiling operation reads: its view of the control registers, and the enable and
 * collection pseudocode of the SPE supplement on that view (ProfilingBufferOwner,
 * ProfilingBufferEnabled, StatisticalProfilingEnabled, CollectContextIDR1/2, CollectTimeStamp,
 * CollectPhysicalAddress). The model has EL2 and no EL3, and runs in Non-secure state: SCR_EL3.NS
 * is 1 and MDCR_EL3.NSPB behaves as 0b11, or 0b00 where the configuration's firmware keeps the
 * buffer (mdcr_el3_nspb_secure).
 */
#include "spe_internal.h"

static const uint32_t vreg_enc[VR_COUNT] = {
	[VR_PMSCR_EL1] = SIM_ENC_PMSCR_EL1,
	[VR_PMSCR_EL2] = SIM_ENC_PMSCR_EL2,
	[VR_PMSFCR] = SIM_ENC_PMSFCR_EL1,
	[VR_PMSEVFR] = SIM_ENC_PMSEVFR_EL1,
	[VR_PMSNEVFR] = SIM_ENC_PMSNEVFR_EL1,
	[VR_PMSLATFR] = SIM_ENC_PMSLATFR_EL1,
	[VR_PMSDSFR] = SIM_ENC_PMSDSFR_EL1,
	[VR_PMSIRR] = SIM_ENC_PMSIRR_EL1,
	[VR_PMBLIMITR] = SIM_ENC_PMBLIMITR_EL1,
	[VR_PMBPTR] = SIM_ENC_PMBPTR_EL1,
	[VR_PMBSR] = SIM_ENC_PMBSR_EL1,
	[VR_MDCR] = SIM_ENC_MDCR_EL2,
	[VR_HCR] = SIM_ENC_HCR_EL2,
};

/* SPE 3.6: a context synchronization event makes every earlier direct write observable by the
 * indirect reads of later profiling operations. Until then the model keeps the old values. */
void spe_sync_view(unsigned int cpu)
{
	struct spe_cpu *st = spe_cpu(cpu);

	for (unsigned int r = 0; r < VR_COUNT; r++) {
		st->view[r] = sim_reg(cpu, vreg_enc[r]);
		st->dirty[r] = false;
	}
}

uint64_t spe_view(unsigned int cpu, enum spe_vreg r)
{
	return spe_cpu(cpu)->view[r];
}

/* An indirect write by the profiling operation (PMBPTR_EL1, PMBSR_EL1). It does not affect a
 * direct write made after it in program order (SPE 3.6): while such a write is pending, only the
 * profiling operation's own view changes, and the next context synchronization event gives it
 * the directly written value. */
void spe_indirect_write(unsigned int cpu, enum spe_vreg r, uint32_t enc, uint64_t val)
{
	struct spe_cpu *st = spe_cpu(cpu);

	st->view[r] = val;
	if (!st->dirty[r])
		sim_set_reg(cpu, enc, val);
}

/* SPE 3.5: PMBIRQ is a level interrupt driven by PMBSR_EL1.S. */
void spe_set_pmbsr(unsigned int cpu, uint64_t val)
{
	spe_indirect_write(cpu, VR_PMBSR, SIM_ENC_PMBSR_EL1, val);
	sim_set_line(cpu, SIM_LINE_PMBIRQ, (sim_reg(cpu, SIM_ENC_PMBSR_EL1) & PMBSR_S) != 0);
}

/* SPE 3.4.6 ProfilingBufferOwner(): EL2 when MDCR_EL2.E2PB is 0b00, else Non-secure EL1. */
unsigned int spe_owner(unsigned int cpu)
{
	return VPERF_FIELD_GET(spe_view(cpu, VR_MDCR), 13, 12) == 0 ? 2 : 1;
}

/* SPE 3.4.6 ProfilingBufferEnabled(): PMBLIMITR_EL1.E == 1 and PMBSR_EL1.S == 0, the owning EL
 * uses AArch64, and its Security state is the current one: never in this Non-secure model
 * when firmware keeps the buffer for Secure state (MDCR_EL3.NSPB = 0b0x, SPE 3.4.2). */
bool spe_buffer_enabled(unsigned int cpu)
{
	if (sim_pe_spe_secure(cpu))
		return false;
	return (spe_view(cpu, VR_PMBLIMITR) & PMBLIMITR_E) && !(spe_view(cpu, VR_PMBSR) & PMBSR_S);
}

/* SPE 3.2.3 StatisticalProfilingEnabled() at el; also SPE 3.6: never at an EL higher than the
 * owner. */
bool spe_profiling_enabled(unsigned int cpu, unsigned int el)
{
	bool in_host = (spe_view(cpu, VR_HCR) & SIM_HCR_EL2_TGE) != 0;
	unsigned int owner = spe_owner(cpu);
	uint64_t el1 = spe_view(cpu, VR_PMSCR_EL1), el2 = spe_view(cpu, VR_PMSCR_EL2);

	if (!spe_buffer_enabled(cpu))
		return false;
	if (owner < el || (in_host && owner == 1))
		return false;
	switch (el) {
	case 2:
		return (el2 & PMSCR_E1SPE) != 0; /* E2SPE */
	case 1:
		return (el1 & PMSCR_E1SPE) != 0;
	case 0:
		return ((in_host ? el2 : el1) & PMSCR_E0SPE) != 0; /* E0HSPE or E0SPE */
	default:
		return false;
	}
}

/* SPE 3.3.1 CollectContextIDR1(). */
bool spe_collect_ctx1(unsigned int cpu, unsigned int el)
{
	if (el == 2 || (spe_view(cpu, VR_HCR) & SIM_HCR_EL2_TGE))
		return false;
	return (spe_view(cpu, VR_PMSCR_EL1) & PMSCR_CX) != 0;
}

/* SPE 3.3.1 CollectContextIDR2(): EL2 is implemented and the PE is in Non-secure state. */
bool spe_collect_ctx2(unsigned int cpu)
{
	return (spe_view(cpu, VR_PMSCR_EL2) & PMSCR_CX) != 0;
}

/* PMSCR_ELx.PCT as CollectTimeStamp() reads it (Arm DDI 0487 J1.1.1.55): PCT[1] exists with
 * FEAT_ECV only (the write mask drops it otherwise, and the pseudocode reads '0':PCT<0>); 0b10
 * is reserved, CONSTRAINED UNPREDICTABLE (Unpredictable_PMSCR_PCT): a seeded one of 0b00, 0b01
 * and 0b11 each time it is read. */
static unsigned int pct(unsigned int cpu, uint64_t pmscr)
{
	unsigned int v = (unsigned int)VPERF_FIELD_GET(pmscr, 7, 6);

	if (!sim_cpu_config(cpu)->ecv)
		return v & 1u;
	if (v != 2u)
		return v;
	if (spe_unpredictable_bool(cpu))
		return 1u;
	return spe_unpredictable_bool(cpu) ? 3u : 0u;
}

/* CollectTimeStamp() (SPE 3.3.1, with FEAT_ECV's guest physical time as Arm DDI 0487 J1.1.1.55
 * has it): PMSCR_EL2.PCT 0b00 gives virtual time, 0b01 physical time to EL2's buffer and the
 * EL1 owner's choice to EL1's, 0b11 offset physical time unless the EL1 owner asks for virtual;
 * the EL1 owner's 0b00 is virtual, 0b01 physical, 0b11 offset physical. The model has no VHE
 * (IsInHost() is false). */
int spe_collect_timestamp(unsigned int cpu)
{
	unsigned int owner = spe_owner(cpu), el1, el2;
	uint64_t pmscr1 = spe_view(cpu, VR_PMSCR_EL1), pmscr2 = spe_view(cpu, VR_PMSCR_EL2);

	if (!((owner == 2 ? pmscr2 : pmscr1) & PMSCR_TS))
		return SPE_TS_NONE;
	el2 = pct(cpu, pmscr2);
	el1 = pct(cpu, pmscr1);
	if (el2 == 0u)
		return SPE_TS_VIRTUAL;
	if (el2 == 3u)
		return owner == 1 && el1 == 0u ? SPE_TS_VIRTUAL : SPE_TS_OFFSET;
	if (owner == 2)
		return SPE_TS_PHYSICAL;
	return el1 == 0u ? SPE_TS_VIRTUAL : el1 == 1u ? SPE_TS_PHYSICAL : SPE_TS_OFFSET;
}

/* SPE 3.3.1 CollectPhysicalAddress(). */
bool spe_collect_pa(unsigned int cpu)
{
	uint64_t el1 = spe_view(cpu, VR_PMSCR_EL1), el2 = spe_view(cpu, VR_PMSCR_EL2);

	return (el2 & PMSCR_PA) && (spe_owner(cpu) == 2 || (el1 & PMSCR_PA));
}

/* ConstrainedUnpredictableBool(): the seed decides. */
bool spe_unpredictable_bool(unsigned int cpu)
{
	return (sim_random(cpu) >> 17) & 1;
}
