// SPDX-License-Identifier: MIT
/*
 * The GIC family of the model: the ICH_* registers' behaviour, the derived status registers,
 * reset, and the poll point that takes physical and virtual interrupts. See sim/gic.h for the
 * modelling choices; gic_phys.c and gic_virt.c hold the two sides.
 *
 * Sources: the GICv3/v4 architecture specification (Arm IHI 0069), the ICH_* register
 * descriptions cited by name below (IHI 0069, ICH_LR<n>_EL2 for the list register layout); QEMU's
 * hw/intc/arm_gicv3_cpuif.c was read as a second reading of the same rules (no code taken).
 */
#include "gic_cpu.h"

/* ICH_HCR_EL2 bits the model keeps: En, UIE, LRENPIE, NPIE, VGrp{0,1}{E,D}IE [7:0], TC, TALL0,
 * TALL1, TSEI, TDIR [14:10], EOIcount [31:27]; the rest is RES0 (IHI 0069, ICH_HCR_EL2). */
#define ICH_HCR_KEEP (VPERF_GENMASK(7, 0) | VPERF_GENMASK(14, 10) | SIM_ICH_HCR_EOICOUNT_MASK)
/* ICH_VMCR_EL2: VENG0, VENG1, VCBPR, VEOIM, VBPR1, VBPR0, VPMR (IHI 0069, ICH_VMCR_EL2). */
#define ICH_VMCR_KEEP                                                                  \
	(SIM_ICH_VMCR_VENG0 | SIM_ICH_VMCR_VENG1 | VPERF_BIT(4) | SIM_ICH_VMCR_VEOIM | \
	 VPERF_GENMASK(31, 18))
/* Priority bits an LR and VPMR hold with 5 implemented bits (PRIbits = 4): [7:3]. */
#define PRIO_IMPL 0xf8u
/* LR bits that are RES0: [47:45] and [59:56] (no FEAT_GICv3_NMI); with HW = 0, pINTID holds
 * only EOI at bit 41 (IHI 0069, ICH_LR<n>_EL2). */
#define LR_RES0	    (VPERF_GENMASK(47, 45) | VPERF_GENMASK(59, 56))
#define LR_HW0_RES0 (VPERF_GENMASK(44, 42) | VPERF_GENMASK(40, 32))
#define VMCR_DEFAULT \
	(SIM_ICH_VMCR_VENG1 | 3ull << SIM_ICH_VMCR_VBPR1_SHIFT | 0xf0ull << SIM_ICH_VMCR_VPMR_SHIFT)

static struct gic_cpu gics[SIM_MAX_CPUS];

struct gic_cpu *gic_cpu(unsigned int cpu)
{
	return &gics[cpu % SIM_MAX_CPUS];
}

uint64_t gic_lr(unsigned int cpu, unsigned int n)
{
	return sim_reg(cpu, sim_enc_ich_lr(n));
}

void gic_set_lr(unsigned int cpu, unsigned int n, uint64_t lr)
{
	sim_set_reg(cpu, sim_enc_ich_lr(n), lr);
}

/* ---- derived registers ----------------------------------------------------------------------- */

/* ICH_ELRSR_EL2 (IHI 0069): LR n is empty when State = 0 and no EOI maintenance is owed. */
static uint64_t gic_elrsr(unsigned int cpu)
{
	uint64_t v = 0;

	for (unsigned int n = 0; n < gic_cpu(cpu)->nr_lrs; n++) {
		uint64_t lr = gic_lr(cpu, n);

		if (sim_lr_state(lr) == SIM_LR_INVALID && ((lr & SIM_LR_HW) || !(lr & SIM_LR_EOI)))
			v |= VPERF_BIT(n);
	}
	return v;
}

/* ICH_EISR_EL2 (IHI 0069): deactivated software LRs that asked for an EOI maintenance. */
static uint64_t gic_eisr(unsigned int cpu)
{
	uint64_t v = 0;

	for (unsigned int n = 0; n < gic_cpu(cpu)->nr_lrs; n++) {
		uint64_t lr = gic_lr(cpu, n);

		if (sim_lr_state(lr) == SIM_LR_INVALID && !(lr & SIM_LR_HW) && (lr & SIM_LR_EOI))
			v |= VPERF_BIT(n);
	}
	return v;
}

static unsigned int lrs_in_state(unsigned int cpu, bool (*pred)(enum sim_lr_state))
{
	unsigned int count = 0;

	for (unsigned int n = 0; n < gic_cpu(cpu)->nr_lrs; n++)
		if (pred(sim_lr_state(gic_lr(cpu, n))))
			count++;
	return count;
}

static bool is_valid(enum sim_lr_state s)
{
	return s != SIM_LR_INVALID;
}

static bool is_pending(enum sim_lr_state s)
{
	return s == SIM_LR_PENDING;
}

/* ICH_MISR_EL2 (IHI 0069): which maintenance conditions hold. The enable bits of ICH_HCR_EL2
 * sit at the same positions as the conditions they enable in bits [7:4]. */
uint64_t gic_misr(unsigned int cpu)
{
	uint64_t hcr = sim_reg(cpu, SIM_ENC_ICH_HCR_EL2);
	uint64_t vmcr = sim_reg(cpu, SIM_ENC_ICH_VMCR_EL2);
	uint64_t v = gic_eisr(cpu) ? SIM_ICH_MISR_EOI : 0;

	if ((hcr & SIM_ICH_HCR_UIE) && lrs_in_state(cpu, is_valid) < 2)
		v |= SIM_ICH_MISR_U;
	if ((hcr & SIM_ICH_HCR_LRENPIE) && (hcr & SIM_ICH_HCR_EOICOUNT_MASK))
		v |= SIM_ICH_MISR_LRENP;
	if ((hcr & SIM_ICH_HCR_NPIE) && lrs_in_state(cpu, is_pending) == 0)
		v |= SIM_ICH_MISR_NP;
	if (vmcr & SIM_ICH_VMCR_VENG0)
		v |= hcr & VPERF_BIT(4); /* VGrp0E */
	else
		v |= hcr & VPERF_BIT(5); /* VGrp0D */
	if (vmcr & SIM_ICH_VMCR_VENG1)
		v |= hcr & VPERF_BIT(6); /* VGrp1E */
	else
		v |= hcr & VPERF_BIT(7); /* VGrp1D */
	return v;
}

void gic_sync(unsigned int cpu)
{
	sim_set_reg(cpu, SIM_ENC_ICH_ELRSR_EL2, gic_elrsr(cpu));
	sim_set_reg(cpu, SIM_ENC_ICH_EISR_EL2, gic_eisr(cpu));
	sim_set_reg(cpu, SIM_ENC_ICH_MISR_EL2, gic_misr(cpu));
}

/* ---- register behaviour ---------------------------------------------------------------------- */

static bool is_lr(uint32_t enc)
{
	return SIM_ENC_OP1(enc) == 4 && SIM_ENC_CRN(enc) == 12 &&
	       (SIM_ENC_CRM(enc) == 12 || SIM_ENC_CRM(enc) == 13);
}

static uint64_t vtr_value(unsigned int nr_lrs)
{
	return (uint64_t)(nr_lrs - 1) | (uint64_t)SIM_ICH_VTR_PREBITS << 26 |
	       (uint64_t)SIM_ICH_VTR_PRIBITS << 29 | SIM_ICH_VTR_NV4 | SIM_ICH_VTR_A3V;
}

static void gic_reset(unsigned int cpu, const struct sim_pe_config *cfg)
{
	static const struct gic_cpu zero;
	struct gic_cpu *g = gic_cpu(cpu);
	unsigned int n = cfg->nr_lrs;

	*g = zero;
	g->nr_lrs = n < 1 ? 1 : n > GIC_MAX_LRS ? GIC_MAX_LRS : n;
	sim_set_reg(cpu, SIM_ENC_ICH_VTR_EL2, vtr_value(g->nr_lrs));
	sim_set_reg(cpu, SIM_ENC_ICH_VMCR_EL2, VMCR_DEFAULT);
	gic_sync(cpu);
}

/* An LR beyond ICH_VTR_EL2.ListRegs is not implemented: its encoding is UNDEFINED (IHI 0069,
 * ICH_LR<n>_EL2 configuration). */
static bool lr_exists(unsigned int cpu, uint32_t enc)
{
	if (sim_lr_index(enc) < gic_cpu(cpu)->nr_lrs)
		return true;
	sim_report_error(cpu, "ICH_LR<n>_EL2 with n > ICH_VTR_EL2.ListRegs accessed (UNDEF)");
	return false;
}

/* ISR_EL1.I [7] (Arm DDI 0487 K.a, ISR_EL1): an IRQ is pending, the one the PE would take
 * there: at EL1 with HCR_EL2.IMO = 1 a virtual one (a pending list register the virtual CPU
 * interface may signal), else an enabled physical one, pending whatever latency the model
 * draws for taking it (gic_phys.c). The other fields (FIQ, SError) are not modelled: 0. */
static uint64_t isr_value(unsigned int cpu, unsigned int el)
{
	bool imo = (sim_reg(cpu, SIM_ENC_HCR_EL2) & SIM_HCR_EL2_IMO) != 0;
	bool pending = el < 2 && imo ? gic_virt_signalled(cpu) : gic_phys_pending(cpu);

	return pending ? SIM_ISR_EL1_I : 0;
}

static uint64_t gic_read(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
			 uint64_t stored)
{
	switch (reg->enc) {
	case SIM_ENC_ICH_ELRSR_EL2:
		return gic_elrsr(cpu);
	case SIM_ENC_ICH_EISR_EL2:
		return gic_eisr(cpu);
	case SIM_ENC_ICH_MISR_EL2:
		return gic_misr(cpu);
	case SIM_ENC_ICH_VTR_EL2:
		return vtr_value(gic_cpu(cpu)->nr_lrs);
	case SIM_ENC_ISR_EL1:
		return isr_value(cpu, el);
	default:
		if (is_lr(reg->enc) && !lr_exists(cpu, reg->enc))
			return 0;
		return stored;
	}
}

/* The pending state of a HW interrupt lives in the physical GIC, so an LR must not hold it as
 * pending and active with HW = 1 (IHI 0069, ICH_LR<n>_EL2.HW; Linux commit 3d6e77ad1489
 * "KVM: arm/arm64: vgic-v3: Do not use Active+Pending state for a HW interrupt"). */
static uint64_t lr_sanitize(unsigned int cpu, uint64_t lr)
{
	lr &= ~(LR_RES0 | (uint64_t)(~PRIO_IMPL & 0xffu) << SIM_LR_PRIO_SHIFT);
	if (!(lr & SIM_LR_HW))
		lr &= ~LR_HW0_RES0;
	else if (sim_lr_state(lr) == SIM_LR_PENDING_ACTIVE)
		sim_report_error(cpu, "ICH_LR<n>_EL2 written pending+active with HW = 1");
	return lr;
}

/* VBPR0/VBPR1 below their minimum read as the minimum (5 preemption bits: 2 and 3). */
static uint64_t vmcr_sanitize(uint64_t v)
{
	uint64_t bpr0 = VPERF_FIELD_GET(v, 23, 21), bpr1 = VPERF_FIELD_GET(v, 20, 18);
	uint64_t pmr = VPERF_FIELD_GET(v, 31, 24) & PRIO_IMPL;

	v &= ICH_VMCR_KEEP & ~VPERF_GENMASK(31, 18);
	return v | pmr << 24 | (bpr0 < 2 ? 2 : bpr0) << 21 | (bpr1 < 3 ? 3 : bpr1) << 18;
}

static uint64_t gic_write(unsigned int cpu, unsigned int el, const struct sim_arch_reg *reg,
			  uint64_t old, uint64_t val)
{
	(void)el;
	switch (reg->enc) {
	case SIM_ENC_ICH_HCR_EL2:
		val &= ICH_HCR_KEEP;
		break;
	case SIM_ENC_ICH_VMCR_EL2:
		val = vmcr_sanitize(val);
		break;
	default:
		if (!is_lr(reg->enc))
			return val;
		if (!lr_exists(cpu, reg->enc))
			return old;
		val = lr_sanitize(cpu, val);
		break;
	}
	/* Store now so the derived registers see the new value; the register file stores the
	 * same value again on return. */
	sim_set_reg(cpu, reg->enc, val);
	gic_sync(cpu);
	return val;
}

/* ---- the poll point -------------------------------------------------------------------------- */

/* Physical interrupts first: they target EL2, above the guest. If the one just taken is
 * deliverable again (a storm), the guest does not get to run, nor take virtual interrupts,
 * before the next poll point. */
static void gic_poll(unsigned int cpu)
{
	if (cpu != sim_current_cpu() || sim_el() >= 2)
		return;
	if (gic_phys_take(cpu) && gic_phys_deliverable(cpu))
		return;
	for (unsigned int i = 0; i < GIC_MAX_LRS && gic_virt_take(cpu); i++)
		;
}

void sim_gic_poll(unsigned int cpu)
{
	gic_poll(cpu);
}

const struct sim_family sim_gic_family = {
	.name = "gic",
	.reset = gic_reset,
	.read = gic_read,
	.write = gic_write,
	.poll = gic_poll,
};

/* ---- inspection ------------------------------------------------------------------------------ */

const struct sim_gic_stats *sim_gic_stats(unsigned int cpu)
{
	return &gic_cpu(cpu)->stats;
}

uint64_t sim_gic_phys_count(unsigned int cpu, uint32_t intid)
{
	return intid < 32 ? gic_cpu(cpu)->stats.phys_taken[intid] : 0;
}

uint64_t sim_gic_virt_count(unsigned int cpu, uint32_t vintid)
{
	return vintid < SIM_GIC_NR_COUNTED ? gic_cpu(cpu)->stats.virt_taken[vintid] : 0;
}

uint64_t sim_gic_lr(unsigned int cpu, unsigned int n)
{
	return n < GIC_MAX_LRS ? gic_lr(cpu, n) : 0;
}
