// SPDX-License-Identifier: MIT
/*
 * The virtual CPU interface: each vCPU's SGIs and PPIs reach it through the GICv3 list
 * registers (ICH_LR<n>_EL2: vINTID [31:0], Priority [55:48], Group [60], HW [61], State
 * [63:62]; GICv3, Arm IHI 0069). Level-sensitive lines (the vPMU's PPI 23, the virtual timer) are levels
 * kept here; a list register holding one asks for an EOI maintenance interrupt (bit 41, HW = 0)
 * so the line is resampled when the guest deactivates it.
 */
#include "hyp.h"

#define LR_STATE_SHIFT 62
#define LR_PENDING     (1ull << 62)
#define LR_GROUP1      BIT(60)
#define LR_EOI	       BIT(41)
#define LR_PRIO_SHIFT  48
#define ICH_HCR_EN     BIT(0)

#define LR_CASE(n)                                          \
	case n:                                             \
		if (write)                                  \
			write_sysreg(val, ich_lr##n##_el2); \
		else                                        \
			val = read_sysreg(ich_lr##n##_el2); \
		break;

static uint64_t lr_access(unsigned int n, bool write, uint64_t val)
{
	switch (n) {
		LR_CASE(0)
		LR_CASE(1)
		LR_CASE(2)
		LR_CASE(3)
		LR_CASE(4)
		LR_CASE(5)
		LR_CASE(6)
		LR_CASE(7)
		LR_CASE(8)
		LR_CASE(9)
		LR_CASE(10)
		LR_CASE(11)
		LR_CASE(12)
		LR_CASE(13)
		LR_CASE(14)
		LR_CASE(15)
	default:
		break;
	}
	return val;
}

static uint64_t lr_read(unsigned int n)
{
	return lr_access(n, false, 0);
}

static void lr_write(unsigned int n, uint64_t val)
{
	lr_access(n, true, val);
}

void vgic_init_hw(void)
{
	hyp.nr_lrs = (unsigned int)(read_sysreg(ich_vtr_el2) & 0x1f) + 1;
	if (hyp.nr_lrs > MAX_LRS)
		hyp.nr_lrs = MAX_LRS;
	for (unsigned int n = 0; n < hyp.nr_lrs; n++)
		lr_write(n, 0);
	write_sysreg(ICH_HCR_EN, ich_hcr_el2);
}

void vgic_vcpu_init(struct vcpu *v)
{
	static const struct vgic_cpu zero;

	v->gic = zero;
	v->gic.sleep = true;
	v->gic.group = 0;
	for (unsigned int i = 0; i < 32; i++)
		v->gic.prio[i] = 0xa0;
	v->gic.enabled = 0xffff; /* SGIs are always enabled in GICv3 as Linux expects */
}

/* A vCPU running on another pCPU sees a new interrupt at its next exit: make that exit now. */
static void kick(const struct vcpu *v)
{
	if (v->on_pcpu >= 0 && v->on_pcpu != (int)this_pcpu()->id)
		gic_kick((unsigned int)v->on_pcpu);
}

void vgic_set_level(struct vcpu *v, uint32_t intid, bool level)
{
	uint32_t bit = 1u << intid;

	if (level && !(v->gic.level & bit) && (v->gic.enabled & bit))
		kick(v);
	if (level)
		v->gic.level |= bit;
	else
		v->gic.level &= ~bit;
}

void vgic_raise_sgi(struct vcpu *v, uint32_t intid)
{
	v->gic.pending |= 1u << intid;
	kick(v);
}

/* A list register the guest finished with (state invalid): free it. Writing 0 also clears its
 * ICH_EISR_EL2 bit, which drops the maintenance interrupt. */
static void lr_retire(struct vcpu *v, unsigned int n)
{
	uint32_t intid = (uint32_t)v->gic.lr[n];

	lr_write(n, 0);
	v->gic.lr[n] = 0;
	v->gic.in_lr &= ~(1u << intid);
	if (intid == INTID_VTIMER || intid == INTID_PTIMER)
		timers_sync(v);
}

/* On every exit: which list registers did the guest finish (State = 0b00)? Their own State is
 * read rather than ICH_ELRSR_EL2, which does not count an LR with EOI = 1 as empty until its
 * maintenance condition (ICH_EISR_EL2) is cleared. */
void vgic_sync(struct vcpu *v)
{
	if (!v->gic.in_lr)
		return;
	for (unsigned int n = 0; n < hyp.nr_lrs; n++)
		if (v->gic.lr[n] && !(lr_read(n) >> LR_STATE_SHIFT))
			lr_retire(v, n);
}

/* A level line that dropped while its interrupt was only pending (not yet acknowledged) is
 * withdrawn, as a real distributor would: the guest must not take a stale PMU interrupt. */
static void withdraw_dropped(struct vcpu *v)
{
	uint32_t dropped = v->gic.in_lr & ~v->gic.level & 0xffff0000u;

	for (unsigned int n = 0; dropped && n < hyp.nr_lrs; n++) {
		uint32_t intid = (uint32_t)v->gic.lr[n];

		if (!v->gic.lr[n] || !(dropped & (1u << intid)))
			continue;
		if ((lr_read(n) >> LR_STATE_SHIFT) == 1)
			lr_retire(v, n);
	}
}

static bool lr_inject(struct vcpu *v, uint32_t intid)
{
	for (unsigned int n = 0; n < hyp.nr_lrs; n++) {
		uint64_t lr;

		if (v->gic.lr[n])
			continue;
		lr = LR_PENDING | LR_GROUP1 | (uint64_t)v->gic.prio[intid] << LR_PRIO_SHIFT | intid;
		if (intid >= 16)
			lr |= LR_EOI;
		lr_write(n, lr);
		if (intid == INTID_PMU)
			pmu_host_bench_mark(v, 0x101); /* PMUIRQ latency probe: LR written */
		v->gic.lr[n] = lr;
		v->gic.in_lr |= 1u << intid;
		v->gic.pending &= ~(1u << intid);
		v->gic.injected++;
		return true;
	}
	return false;
}

/* Before every entry: put what is pending and enabled into free list registers. */
void vgic_flush(struct vcpu *v)
{
	uint32_t want;

	if (v->gic.in_lr & ~v->gic.level & 0xffff0000u)
		withdraw_dropped(v);
	want = (v->gic.level | v->gic.pending) & v->gic.enabled & ~v->gic.in_lr;
	while (want) {
		uint32_t intid = (uint32_t)__builtin_ctz(want);

		if (!lr_inject(v, intid))
			break;
		want &= want - 1;
	}
}

void vgic_save(struct vcpu *v)
{
	for (unsigned int n = 0; n < hyp.nr_lrs; n++) {
		if (v->gic.lr[n]) {
			v->gic.lr[n] = lr_read(n);
			lr_write(n, 0);
		}
	}
	v->gic.vmcr = read_sysreg(ich_vmcr_el2);
	v->gic.ap0r0 = read_sysreg(ich_ap0r0_el2);
	v->gic.ap1r0 = read_sysreg(ich_ap1r0_el2);
}

void vgic_restore(struct vcpu *v)
{
	for (unsigned int n = 0; n < hyp.nr_lrs; n++)
		if (v->gic.lr[n])
			lr_write(n, v->gic.lr[n]);
	write_sysreg(v->gic.vmcr, ich_vmcr_el2);
	write_sysreg(v->gic.ap0r0, ich_ap0r0_el2);
	write_sysreg(v->gic.ap1r0, ich_ap1r0_el2);
}

/* ICC_SGI1R_EL1 (trapped): TargetList [15:0], INTID [27:24], Aff1 [23:16], IRM [40]. The VM's
 * vCPUs have Aff0 = index, Aff1..3 = 0. */
void vgic_sgi1r(struct vcpu *v, uint64_t val)
{
	uint32_t intid = (uint32_t)FIELD(val, 27, 24);
	bool all = FIELD(val, 40, 40) != 0;
	struct vm *vm = v->vm;

	if (!all && FIELD(val, 23, 16))
		return;
	for (unsigned int i = 0; i < vm->nr_vcpus; i++) {
		struct vcpu *t = &vm->vcpus[i];

		if ((all && t != v) || (!all && (val & BIT(i))))
			vgic_raise_sgi(t, intid);
	}
}

/* A list register of t as it stands: the hardware's copy while t is loaded on this pCPU, else
 * the one saved at its put (for a vCPU running on another pCPU, what was last written there). */
static uint64_t lr_state(const struct vcpu *t, unsigned int n)
{
	if (t->on_pcpu == (int)this_pcpu()->id)
		return lr_read(n);
	return t->gic.lr[n];
}

/* GICR_ISPENDR0 as a GICv3 would read it (GICv3 spec, GICR_ISPENDR0): an edge interrupt pending and not yet
 * in a list register, one whose list register is pending (State bit 0), and a level-sensitive
 * line while it is high (pending, or active and pending). */
uint32_t vgic_pending_mask(const struct vcpu *t)
{
	uint32_t p = t->gic.pending | (t->gic.level & 0xffff0000u);

	for (unsigned int n = 0; n < hyp.nr_lrs; n++)
		if (t->gic.lr[n] && (lr_state(t, n) >> LR_STATE_SHIFT) & 1)
			p |= 1u << (uint32_t)t->gic.lr[n];
	return p;
}

/* GICR_ISACTIVER0: the interrupts whose list register is active (State bit 1). */
uint32_t vgic_active_mask(const struct vcpu *t)
{
	uint32_t a = 0;

	for (unsigned int n = 0; n < hyp.nr_lrs; n++)
		if (t->gic.lr[n] && (lr_state(t, n) >> LR_STATE_SHIFT) & 2)
			a |= 1u << (uint32_t)t->gic.lr[n];
	return a;
}

/* What ends a WFI (Arm ARM D1.6.2 wake-up events): an interrupt pending and enabled at the
 * (virtual) GIC, whatever PSTATE.I says. */
bool vgic_wakeup_pending(const struct vcpu *t)
{
	return (vgic_pending_mask(t) & t->gic.enabled) != 0;
}
