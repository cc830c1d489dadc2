// SPDX-License-Identifier: MIT
/*
 * Stage-2 translation per VM and the EL2 controls that make a guest a guest. Guest IPA layout
 * from Xen's public headers (xen/arch-arm.h): RAM at GUEST_RAM0_BASE, the GICv3 distributor and
 * redistributors at GUEST_GICV3_GICD_BASE / GUEST_GICV3_GICR0_BASE (left unmapped: emulated on
 * the data abort), and the PL011 at QEMU virt's 0x09000000 (unmapped and emulated, or mapped to
 * the real one with vmN.uart=pt).
 */
#include "hyp.h"

#include <xen/xen.h>

/* Stage-2 descriptors (Arm ARM D8.3.2): MemAttr [5:2] (0b1111 Normal write-back, 0b0001
 * Device-nGnRE), S2AP [7:6] = 0b11 read/write, SH [9:8] inner shareable, AF [10]. */
#define S2_TABLE  0x3ull
#define S2_BLOCK  0x1ull
#define S2_PAGE	  0x3ull
#define S2_NORMAL ((0xfull << 2) | (3ull << 6) | (3ull << 8) | BIT(10))
#define S2_DEVICE ((0x1ull << 2) | (3ull << 6) | BIT(10) | BIT(54))
#define SZ_2M	  0x200000ull
#define SZ_1G	  0x40000000ull

/* VTCR_EL2: T0SZ = 25 (39-bit IPA), SL0 = 1 (walk starts at level 1 with 4K pages), IRGN0 =
 * ORGN0 = 1, SH0 = 3, TG0 = 0 (4K), PS = 2 (40-bit PA), RES1 bit 31. */
#define VTCR_VALUE                                                                               \
	((1ull << 31) | (2ull << 16) | (3ull << 12) | (1ull << 10) | (1ull << 8) | (1ull << 6) | \
	 25ull)

/* HCR_EL2: VM (stage 2), SWIO, FMO/IMO/AMO (physical interrupts to EL2, virtual ones to the
 * guest), TWI (WFI blocks the vCPU, sched_wfi), TID3 (ID registers: vperf decides ID_AA64DFR0_EL1), TSC
 * (SMC is PSCI here), RW (EL1 is AArch64). */
#define HCR_VALUE \
	(BIT(0) | BIT(1) | BIT(3) | BIT(4) | BIT(5) | BIT(13) | BIT(18) | BIT(19) | BIT(31))

/* CPTR_EL2 (E2H = 0): RES1 bits [13:12] and [9:0], which include TZ (bit 8, trap SVE) and TSM
 * (bit 12, trap SME): their state is not switched. TFP = 0: FP/SIMD is switched with the vCPU. */
#define CPTR_VALUE 0x33ffull

/* CNTHCTL_EL2 (E2H = 0): EL1PCTEN = 1 (the physical counter is readable), EL1PCEN = 1 (the EL1
 * physical timer is the guest's: the host's slices run on CNTHP, and CNTP_CTL/CVAL are switched
 * with the vCPU like the virtual timer, vcpu.c). */
#define CNTHCTL_VALUE (BIT(0) | BIT(1))

struct s2_tables {
	uint64_t l1[512];
	uint64_t l2_low[512];
	uint64_t l3_uart[512];
	uint64_t l2_ram[512];
} __attribute__((aligned(4096)));

static struct s2_tables s2[MAX_VMS];

static void map_uart(struct s2_tables *t)
{
	uint64_t pa = 0x09000000;

	t->l1[0] = (uint64_t)(uintptr_t)t->l2_low | S2_TABLE;
	t->l2_low[pa / SZ_2M] = (uint64_t)(uintptr_t)t->l3_uart | S2_TABLE;
	t->l3_uart[(pa % SZ_2M) >> 12] = pa | S2_DEVICE | S2_PAGE;
}

void stage2_build(struct vm *vm)
{
	struct s2_tables *t = &s2[vm->id];
	uint64_t ram_ipa = GUEST_RAM0_BASE;

	t->l1[ram_ipa / SZ_1G] = (uint64_t)(uintptr_t)t->l2_ram | S2_TABLE;
	for (uint64_t off = 0; off < vm->cfg.mem; off += SZ_2M)
		t->l2_ram[(ram_ipa % SZ_1G + off) / SZ_2M] =
			(vm->ram_pa + off) | S2_NORMAL | S2_BLOCK;
	if (vm->cfg.uart_passthrough)
		map_uart(t);
	dsb(ishst);
	vm->s2_l1 = t->l1;
	vm->vttbr = (uint64_t)(uintptr_t)t->l1 | (uint64_t)(vm->id + 1) << 48; /* VMID */
}

void virt_init_el2(void)
{
	write_sysreg(VTCR_VALUE, vtcr_el2);
	write_sysreg(HCR_VALUE, hcr_el2);
	write_sysreg(CPTR_VALUE, cptr_el2);
	write_sysreg(CNTHCTL_VALUE, cnthctl_el2);
	write_sysreg(0, cntvoff_el2);
	write_sysreg(read_sysreg(midr_el1), vpidr_el2);
	isb();
	__asm__ volatile("tlbi alle1\n\tdsb ish" : : : "memory");
	isb();
}
