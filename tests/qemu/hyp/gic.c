// SPDX-License-Identifier: MIT
/*
 * The physical GICv3 (GICv3/v4 Architecture Specification, IHI 0069): distributor, the
 * redistributor of this CPU, and the EL2 view of the CPU interface. QEMU's virt GIC without EL3
 * has a single Security state (GICD_CTLR.DS = 1), so everything is Group 1 and acknowledged
 * through ICC_IAR1_EL1.
 */
#include "hyp.h"

#define GICD_CTLR	   0x0000
#define GICD_CTLR_RWP	   BIT(31)
#define GICD_CTLR_ARE	   BIT(4)
#define GICD_CTLR_GRP1	   BIT(1)
#define GICR_TYPER	   0x0008
#define GICR_TYPER_LAST	   BIT(4)
#define GICR_STRIDE	   0x20000 /* RD_base + SGI_base (no VLPI frames on QEMU's GICv3) */
#define GICR_WAKER	   0x0014
#define GICR_WAKER_SLEEP   BIT(1)
#define GICR_WAKER_ASLEEP  BIT(2)
#define GICR_SGI	   0x10000 /* SGI_base frame, 64 KiB after RD_base */
#define GICR_IGROUPR0	   (GICR_SGI + 0x0080)
#define GICR_ISENABLER0	   (GICR_SGI + 0x0100)
#define GICR_ICENABLER0	   (GICR_SGI + 0x0180)
#define GICR_IPRIORITYR(n) (GICR_SGI + 0x0400 + (n))
#define ICC_SRE_SRE	   BIT(0)
#define ICC_SRE_ENABLE	   BIT(3) /* ICC_SRE_EL2.Enable: EL1 may use ICC_SRE_EL1 */

static void gicd_wait_rwp(void)
{
	while (mmio_read32(hyp.gicd + GICD_CTLR) & GICD_CTLR_RWP)
		;
}

static void gicr_wake(void)
{
	uint32_t w = mmio_read32(this_pcpu()->gicr + GICR_WAKER);

	mmio_write32(this_pcpu()->gicr + GICR_WAKER, w & ~(uint32_t)GICR_WAKER_SLEEP);
	while (mmio_read32(this_pcpu()->gicr + GICR_WAKER) & GICR_WAKER_ASLEEP)
		;
}

void gic_ppi_enable(uint32_t intid, bool on)
{
	mmio_write32(this_pcpu()->gicr + (on ? GICR_ISENABLER0 : GICR_ICENABLER0), 1u << intid);
}

/* This CPU's redistributor: the frame whose GICR_TYPER.Affinity_Value [63:32] is our MPIDR's
 * Aff3.Aff2.Aff1.Aff0 (IHI 0069, 9.11.35), scanning up to the frame marked Last. */
static uint64_t gicr_find(void)
{
	uint64_t mpidr = read_sysreg(mpidr_el1);
	uint32_t aff = (uint32_t)((mpidr & 0xffffff) | (mpidr >> 32 & 0xff) << 24);

	for (uint64_t rd = hyp.gicr;; rd += GICR_STRIDE) {
		uint64_t typer = mmio_read64(rd + GICR_TYPER);

		if ((uint32_t)(typer >> 32) == aff)
			return rd;
		if (typer & GICR_TYPER_LAST)
			hyp_panic("no redistributor for MPIDR %lx", mpidr);
	}
}

/* The per-CPU half: redistributor, PPIs, the CPU interface. */
void gic_cpu_init(void)
{
	static const uint32_t ppis[] = { INTID_KICK,   INTID_PMU,    INTID_SPE,	  INTID_MAINT,
					 INTID_HYPTIM, INTID_VTIMER, INTID_PTIMER };

	this_pcpu()->gicr = gicr_find();
	gicr_wake();
	mmio_write32(this_pcpu()->gicr + GICR_IGROUPR0, ~0u);
	for (unsigned int i = 0; i < 32; i++)
		*(volatile uint8_t *)(this_pcpu()->gicr + GICR_IPRIORITYR(i)) = 0xa0;
	for (unsigned int i = 0; i < ARRAY_SIZE(ppis); i++)
		gic_ppi_enable(ppis[i], true);
	/* System register interface at EL2 and for EL1's virtual interface (ICC_SRE_EL2). */
	write_sysreg(ICC_SRE_SRE | ICC_SRE_ENABLE, icc_sre_el2);
	isb();
	write_sysreg(0xf0, icc_pmr_el1);
	write_sysreg(0, icc_bpr1_el1);
	write_sysreg(0, icc_ctlr_el1); /* EOImode 0: EOIR also deactivates */
	write_sysreg(1, icc_igrpen1_el1);
	isb();
}

void gic_init(void)
{
	mmio_write32(hyp.gicd + GICD_CTLR, 0);
	gicd_wait_rwp();
	mmio_write32(hyp.gicd + GICD_CTLR, GICD_CTLR_ARE | GICD_CTLR_GRP1);
	gicd_wait_rwp();
	gic_cpu_init();
}

/* SGI INTID_KICK to one pCPU (ICC_SGI1R_EL1: INTID [27:24], Aff1 [23:16] = 0, TargetList
 * [15:0] = 1 << Aff0; QEMU virt's CPUs are Aff0 = index): its exit makes it flush its vCPU's new
 * pending interrupts into list registers. */
void gic_kick(unsigned int pcpu)
{
	dsb(ish);
	write_sysreg((uint64_t)INTID_KICK << 24 | BIT(pcpu), icc_sgi1r_el1);
	isb();
}

uint32_t gic_ack(void)
{
	return (uint32_t)read_sysreg(icc_iar1_el1);
}

void gic_eoi(uint32_t intid)
{
	write_sysreg(intid, icc_eoir1_el1);
	isb();
}
