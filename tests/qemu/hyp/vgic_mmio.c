// SPDX-License-Identifier: MIT
/*
 * The guest's GICv3 distributor and redistributors, emulated on stage-2 data aborts at Xen's
 * guest addresses (GUEST_GICV3_GICD_BASE, GUEST_GICV3_GICR0_BASE, xen/arch-arm.h). Guests get
 * SGIs and PPIs, affinity routing always on, one Security state. The distributor reports 32 SPIs
 * (GICD_TYPER.ITLinesNumber = 1) only so that Linux can request the PL011's interrupt
 * (VUART_SPI): every SPI register is RAZ/WI and no SPI is ever injected, since no emulated device
 * raises one (the PL011 is polled and its transmit FIFO never fills). Register offsets: GICv3
 * spec chapter 12 (GICD_*, GICR_*).
 */
#include "hyp.h"

#include <xen/xen.h>

#define GICD_SIZE	 GUEST_GICV3_GICD_SIZE
#define GICR_STRIDE	 0x20000ull /* RD_base + SGI_base, 64 KiB each */
#define GICR_SGI	 0x10000u
#define PIDR2		 0xffe8u
#define PIDR2_GICV3	 0x3bu		 /* ArchRev [7:4] = 3 */
#define GICD_CTLR_ARE_DS 0x50u		 /* ARE (bit 4) and DS (bit 6) read as one */
#define GICD_TYPER_VAL	 (9u << 19 | 1u) /* IDbits = 9: 10-bit INTIDs; ITLinesNumber = 1 */
#define IIDR_VAL	 0x0100043bu

static uint32_t gicd_ctlr[MAX_VMS];

static uint64_t gicd_read(const struct vm *vm, uint64_t off)
{
	switch (off) {
	case 0x0000:
		return gicd_ctlr[vm->id] | GICD_CTLR_ARE_DS;
	case 0x0004:
		return GICD_TYPER_VAL;
	case 0x0008:
		return IIDR_VAL;
	case PIDR2:
		return PIDR2_GICV3;
	default:
		return 0; /* SPI registers and the rest: RAZ */
	}
}

static uint64_t gicr_typer(const struct vcpu *t)
{
	bool last = t->id + 1 == t->vm->nr_vcpus;

	/* Affinity_Value [63:32] = Aff0 (the vCPU index), Processor_Number [23:8], Last [4]. */
	return (uint64_t)t->id << 32 | (uint64_t)t->id << 8 | (last ? BIT(4) : 0);
}

static uint64_t rd_read(const struct vcpu *t, uint64_t off)
{
	switch (off) {
	case 0x0004:
		return IIDR_VAL;
	case 0x0008:
		return gicr_typer(t);
	case 0x000c:
		return gicr_typer(t) >> 32;
	case 0x0014: /* WAKER: ChildrenAsleep follows ProcessorSleep at once */
		return t->gic.sleep ? (BIT(1) | BIT(2)) : 0;
	case PIDR2:
		return PIDR2_GICV3;
	default:
		return 0;
	}
}

static uint64_t sgi_read(const struct vcpu *t, uint64_t off, unsigned int size)
{
	const struct vgic_cpu *g = &t->gic;

	if (off >= 0x400 && off < 0x420) {
		uint64_t v = 0;

		for (unsigned int i = 0; i < size; i++)
			v |= (uint64_t)g->prio[off - 0x400 + i] << (8 * i);
		return v;
	}
	switch (off) {
	case 0x0080:
		return g->group;
	case 0x0100:
	case 0x0180:
		return g->enabled;
	case 0x0200:
	case 0x0280:
		return vgic_pending_mask(t);
	case 0x0300:
	case 0x0380:
		return vgic_active_mask(t);
	case 0x0c00:
		return 0xaaaaaaaau; /* SGIs: edge */
	default:
		return 0; /* ICFGR1 (PPIs level): RAZ */
	}
}

static void sgi_write(struct vcpu *t, uint64_t off, unsigned int size, uint32_t val)
{
	struct vgic_cpu *g = &t->gic;

	if (off >= 0x400 && off < 0x420) {
		for (unsigned int i = 0; i < size; i++)
			g->prio[off - 0x400 + i] = (uint8_t)(val >> (8 * i));
		return;
	}
	switch (off) {
	case 0x0080:
		g->group = val;
		break;
	case 0x0100:
		g->enabled |= val;
		break;
	case 0x0180:
		g->enabled &= ~val | 0xffffu; /* SGIs stay enabled */
		break;
	case 0x0200:
		g->pending |= val & 0xffffu;
		break;
	case 0x0280:
		g->pending &= ~val;
		break;
	default:
		break;
	}
}

static bool gicr_access(struct vcpu *v, uint64_t off, bool write, unsigned int size, uint64_t *val)
{
	uint64_t idx = off / GICR_STRIDE;
	struct vcpu *t;

	if (idx >= v->vm->nr_vcpus)
		return false;
	t = &v->vm->vcpus[idx];
	off %= GICR_STRIDE;
	if (off >= GICR_SGI) {
		if (write)
			sgi_write(t, off - GICR_SGI, size, (uint32_t)*val);
		else
			*val = sgi_read(t, off - GICR_SGI, size);
	} else if (write) {
		if (off == 0x0014)
			t->gic.sleep = (*val & BIT(1)) != 0;
	} else {
		*val = rd_read(t, off);
	}
	return true;
}

bool vgic_mmio(struct vcpu *v, uint64_t ipa, bool write, unsigned int size, uint64_t *val)
{
	if (ipa >= GUEST_GICV3_GICD_BASE && ipa < GUEST_GICV3_GICD_BASE + GICD_SIZE) {
		uint64_t off = ipa - GUEST_GICV3_GICD_BASE;

		if (write && off == 0)
			gicd_ctlr[v->vm->id] = (uint32_t)*val & 0x3u;
		else if (!write)
			*val = gicd_read(v->vm, off);
		return true;
	}
	if (ipa >= GUEST_GICV3_GICR0_BASE &&
	    ipa < GUEST_GICV3_GICR0_BASE + v->vm->nr_vcpus * GICR_STRIDE)
		return gicr_access(v, ipa - GUEST_GICV3_GICR0_BASE, write, size, val);
	return false;
}
