// SPDX-License-Identifier: MIT
/*
 * A minimal GICv3 driver for the payloads (GICv3 spec: GICD_CTLR ARE/EnableGrp1, GICR_WAKER,
 * the SGI_base frame's IGROUPR0/ISENABLER0/IPRIORITYR, the ICC_* System registers). Frames come
 * from the device tree; under a hypervisor the ICC_* accesses reach the virtual CPU interface.
 */
#include "guest.h"

#define GICD_CTLR	0x0000
#define GICR_WAKER	0x0014
#define GICR_SGI	0x10000
#define GICR_IGROUPR0	(GICR_SGI + 0x0080)
#define GICR_ISENABLER0 (GICR_SGI + 0x0100)
#define GICR_ICENABLER0 (GICR_SGI + 0x0180)
#define GICR_IPRIORITYR (GICR_SGI + 0x0400)
#define GICR_STRIDE	0x20000

#define MAX_CPUS 8

static void (*handlers[32])(uint32_t intid);
static uint64_t gicr_of[MAX_CPUS]; /* by MPIDR_EL1.Aff0 */

static uint64_t my_gicr(void)
{
	return gicr_of[read_sysreg(mpidr_el1) & (MAX_CPUS - 1)];
}

/* This CPU's redistributor: the frame whose GICR_TYPER affinity matches MPIDR_EL1 Aff0. */
static uint64_t find_gicr(void)
{
	uint64_t aff0 = read_sysreg(mpidr_el1) & 0xff;

	for (uint64_t f = gi.gicr;; f += GICR_STRIDE) {
		uint64_t typer = mmio_read64(f + 0x8);

		if (((typer >> 32) & 0xff) == aff0 || (typer & BIT(4)))
			return f;
	}
}

void gic_init(void)
{
	if (!gi.gicd || !gi.gicr)
		return;
	mmio_write32(gi.gicd + GICD_CTLR, 0x12); /* ARE, EnableGrp1 */
	gic_cpu_init();
}

/* This CPU's redistributor and CPU interface (every CPU, the boot one from gic_init). */
void gic_cpu_init(void)
{
	uint64_t gicr;

	if (!gi.gicd || !gi.gicr)
		return;
	gicr = find_gicr();
	gicr_of[read_sysreg(mpidr_el1) & (MAX_CPUS - 1)] = gicr;
	mmio_write32(gicr + GICR_WAKER, 0);
	while (mmio_read32(gicr + GICR_WAKER) & BIT(2))
		;
	mmio_write32(gicr + GICR_IGROUPR0, ~0u);
	for (unsigned int i = 0; i < 32; i += 4)
		mmio_write32(gicr + GICR_IPRIORITYR + i, 0x80808080u);
	write_sysreg(read_sysreg(S3_0_C12_C12_5) | 1, S3_0_C12_C12_5); /* ICC_SRE_EL1.SRE */
	isb();
	write_sysreg(0xff, S3_0_C4_C6_0); /* ICC_PMR_EL1: every priority passes */
	write_sysreg(0, S3_0_C12_C12_4);  /* ICC_CTLR_EL1: EOImode 0 */
	write_sysreg(1, S3_0_C12_C12_7);  /* ICC_IGRPEN1_EL1 */
	isb();
}

void gic_enable_ppi(uint32_t intid, bool on)
{
	if (my_gicr() && intid < 32)
		mmio_write32(my_gicr() + (on ? GICR_ISENABLER0 : GICR_ICENABLER0), 1u << intid);
}

uint32_t gic_ppi_state(uint32_t off)
{
	return my_gicr() ? mmio_read32(my_gicr() + GICR_SGI + off) : 0;
}

void irq_register(uint32_t intid, void (*fn)(uint32_t intid))
{
	if (intid < 32)
		handlers[intid] = fn;
}

/* Acknowledge (ICC_IAR1_EL1), run the handler, end (ICC_EOIR1_EL1), until nothing is pending. */
void irq_dispatch(void)
{
	for (;;) {
		uint32_t intid = (uint32_t)read_sysreg(S3_0_C12_C12_0);

		if (intid >= 1020)
			return;
		if (intid < 32 && handlers[intid])
			handlers[intid](intid);
		else
			printf("guest: unexpected interrupt %u\n", intid);
		write_sysreg(intid, S3_0_C12_C12_1);
		isb();
	}
}
