// SPDX-License-Identifier: MIT
/*
 * What the pCPUs let a guest hold in its PMU registers: the guest-writable masks, derived from
 * what every initialised pCPU implements (the platform, ../platform.c) whenever it changes, and
 * cached, since the trap path reads them on every PMCR_EL0 and type access.
 */
#include <vperf/id_regs.h>

#include "vpmu.h"

static struct {
	uint64_t pmcr_writable, pmcr_direct_extra, type_direct[2];
} masks;

bool vperf_vpmu_wide;
uint64_t vperf_vpmu_counter_mask;
uint64_t vperf_vpmu_pmcr_fixed;
uint64_t vperf_vpmu_trapped_type;

static bool wide_counters(const struct vperf_platform *p)
{
	return p->any && p->min_pmuver >= ID_DFR0_PMUVER_V3P5;
}

/* Every initialised pCPU has AArch32 at EL0 (FEAT_AA32; vperf_pcpu_init probes
 * ID_AA64PFR0_EL1.EL0). */
static bool aarch32_everywhere(const struct vperf_platform *p)
{
	return p->any && !p->any_aarch64_only;
}

/*
 * PMCR_EL0 fields a guest may set (Arm DDI 0487 K.a, I5.3.21): E always; DP from PMUv3p1 (a PE
 * with EL2 has it from there; vperf does not look for EL3, which gives it to PMUv3p0 too); LP
 * only from PMUv3p5, RES0 before, so a guest on an older PE reads it as 0 and vperf never writes
 * it to the hardware. LC (long cycle counter: overflow at PMCCNTR_EL0[63:0] rather than [31:0])
 * and D (the cycle counter's divider, ignored with LC = 1) hold a value only with AArch32 at
 * EL0: offered where every pCPU has it, so that the hardware, not vperf, applies them; else
 * LC is RES1 to the guest and D RES0 (vperf_vpmu_pmcr_fixed). X (export bus) is not offered.
 * P and C are actions, N, IMP and IDCODE read-only.
 */
static uint64_t pmcr_writable(const struct vperf_platform *p)
{
	uint64_t w = PMCR_E;

	if (p->any && p->min_pmuver >= ID_DFR0_PMUVER_V3P1)
		w |= PMCR_DP;
	if (wide_counters(p))
		w |= PMCR_LP;
	if (aarch32_everywhere(p))
		w |= PMCR_LC | PMCR_D;
	return w;
}

/* What every guest's PMCR_EL0 reads, and the hardware gets, beside what the guest keeps: LC = 1
 * where some pCPU has no AArch32 at EL0. There LC is RES1; on the others it is R/W and resets
 * to an UNKNOWN value, and a 0 in the hardware would make the cycle counter overflow every
 * 2^32 cycles behind a guest that reads LC = 1 (I5.3.21, LC). */
static uint64_t pmcr_fixed(const struct vperf_platform *p)
{
	return aarch32_everywhere(p) ? 0 : PMCR_LC;
}

/*
 * What a direct-partition guest also holds in PMCR_EL0, since it writes the hardware's own
 * (I5.3.21), and so what vperf carries across a switch and accepts in a blob for it: X only
 * with an event export bus (RAZ/WI otherwise: kept in the shadow while the guest is trapped, it
 * would read back 1 there and 0 once the hardware has its state), FZO from PMUv3p7 (RES0
 * before); on every initialised pCPU. (D and LC, with AArch32 at EL0: pmcr_writable.)
 */
static uint64_t pmcr_direct_extra(const struct vperf_platform *p)
{
	uint64_t w = 0;

	if (p->any && !p->any_no_export)
		w |= PMCR_X;
	if (p->any && p->min_pmuver >= ID_DFR0_PMUVER_V3P7)
		w |= PMCR_FZO;
	return w;
}

/*
 * PMEVTYPER<n>_EL0.evtCount (I5.3.30): bits [9:0] on every PMUv3, bits [15:10] from PMUv3p1 only
 * (RES0 on PMUv3p0, whose hardware drops them). A type is judged by the event the hardware will
 * count, so every guest value is cut to this width first: on a PMUv3p0 PE event 0x2008 is event
 * 0x008, INST_RETIRED, whatever the filter says of 0x2008.
 */
static uint64_t event_number_mask(const struct vperf_platform *p)
{
	return p->any && p->min_pmuver >= ID_DFR0_PMUVER_V3P1 ? PMEVTYPER_EVT : VPERF_GENMASK(9, 0);
}

/*
 * The PMEVTYPER<n>_EL0 (cycle: PMCCFILTR_EL0) fields a direct-partition guest holds, since it
 * writes the hardware's own (I5.3.30, I5.3.2): P, U, NSH and the event number (bits [15:10]
 * from PMUv3p1), and NSK, NSU and M where every pCPU has EL3. The fields of later features (SH,
 * the Realm filters, thresholds) are not offered: vperf does not probe for them, and a restored
 * blob must not put into the hardware a field it may not implement, nor show the guest one
 * the hardware would then drop.
 */
static uint64_t type_direct(const struct vperf_platform *p, bool cycle)
{
	uint64_t w = PMEVTYPER_P | PMEVTYPER_U | PMEVTYPER_NSH;

	if (p->any && !p->any_no_el3)
		w |= PMEVTYPER_NSK | PMEVTYPER_NSU | PMEVTYPER_M;
	return cycle ? w : w | event_number_mask(p);
}

/* PMCR_EL0.X is RAZ/WI without an event export bus, which no ID register names (Arm DDI 0487
 * K.a, I5.3.21): set it and see whether it sticks, then put the host's value back. */
bool vperf_vpmu_probe_export_bus(uint64_t pmcr)
{
	bool sticks;

	write_sysreg(pmcr | PMCR_X, PMCR_EL0);
	sticks = (read_sysreg(PMCR_EL0) & PMCR_X) != 0;
	write_sysreg(pmcr, PMCR_EL0);
	return sticks;
}

void vperf_vpmu_derive_masks(void)
{
	const struct vperf_platform *p = vperf_platform();

	masks.pmcr_writable = pmcr_writable(p);
	vperf_vpmu_pmcr_fixed = pmcr_fixed(p);
	masks.pmcr_direct_extra = pmcr_direct_extra(p);
	masks.type_direct[0] = type_direct(p, false);
	masks.type_direct[1] = type_direct(p, true);
	vperf_vpmu_trapped_type = PMEVTYPER_P | PMEVTYPER_U | event_number_mask(p);
	vperf_vpmu_wide = wide_counters(p);
	vperf_vpmu_counter_mask = vperf_vpmu_wide ? ~0ull : 0xffffffffull;
}

uint64_t vperf_vpmu_pmcr_keep(const struct vperf_vcpu *vcpu)
{
	return masks.pmcr_writable | (vpmu_direct_vm(vcpu) ? masks.pmcr_direct_extra : 0);
}

uint64_t vperf_vpmu_type_direct(bool cycle)
{
	return masks.type_direct[cycle];
}
