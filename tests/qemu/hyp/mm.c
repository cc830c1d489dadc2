// SPDX-License-Identifier: MIT
/*
 * Stage-2 translation per VM and the EL2 controls that make a guest a guest. Guest IPA layout
 * from Xen's public headers (xen/arch-arm.h): RAM at GUEST_RAM0_BASE, the GICv3 distributor and
 * redistributors at GUEST_GICV3_GICD_BASE / GUEST_GICV3_GICR0_BASE (left unmapped: emulated on
 * the data abort), and the PL011 at QEMU virt's 0x09000000 (unmapped and emulated, or mapped to
 * the real one with vmN.uart=pt).
 *
 * RAM is mapped in 2 MiB blocks, all at creation, or (vmN.s2=lazy) in 4 KiB pages, each on the
 * first stage 2 fault that touches it: the guest's own accesses (trap.c) or its Profiling Buffer's, which vperf
 * maps through the stage2_map op (spe.c). s2_scrub=N takes every block of the lazy VMs away again
 * every N slices, as a hypervisor reclaiming or dirty-logging memory does, so that a Linux guest,
 * whose perf zeroes its buffer before SPE writes it, still sees its buffer fault.
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
	uint64_t l3_ram[VM_RAM_MAX / SZ_2M][512]; /* a lazy VM's pages */
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
			vm->cfg.s2_lazy ? (uint64_t)(uintptr_t)t->l3_ram[off / SZ_2M] | S2_TABLE
					: (vm->ram_pa + off) | S2_NORMAL | S2_BLOCK;
	if (vm->cfg.uart_passthrough)
		map_uart(t);
	dsb(ishst);
	vm->s2_l1 = t->l1;
	vm->vttbr = (uint64_t)(uintptr_t)t->l1 | (uint64_t)(vm->id + 1) << 48; /* VMID */
}

/* The page of RAM holding ipa mapped, if ipa is the VM's RAM (false otherwise; a VM mapped at
 * creation has it already). An entry that was invalid needs no TLB maintenance: a TLB holds no
 * entry that faults (Arm DDI 0487 K.a, D8); the DSB makes the entry visible to the walks of
 * every observer, the Profiling Buffer's included. *now: it was not mapped before. */
bool stage2_map_ram(struct vm *vm, uint64_t ipa, bool *now)
{
	uint64_t off = ipa - GUEST_RAM0_BASE;
	uint64_t *e;

	*now = false;
	if (ipa < GUEST_RAM0_BASE || off >= vm->cfg.mem)
		return false;
	if (!vm->cfg.s2_lazy)
		return true;
	e = &s2[vm->id].l3_ram[off / SZ_2M][(off % SZ_2M) >> 12];
	if (!*e) {
		*e = (vm->ram_pa + (off & ~0xfffull)) | S2_NORMAL | S2_PAGE;
		dsb(ishst);
		*now = true;
	}
	return true;
}

/* Every page of a lazy VM taken away (s2_scrub): break, then invalidate the stage 1 and 2
 * entries of every VMID at EL1&0 on every PE (TLBI ALLE1IS, Arm DDI 0487 K.a D8), the
 * Profiling Buffer's cached translations with them (SPE 3.4.4). Returns the pages removed. */
unsigned int stage2_unmap_ram(struct vm *vm)
{
	unsigned int n = 0;

	for (uint64_t b = 0; b < vm->cfg.mem / SZ_2M; b++)
		for (unsigned int i = 0; i < 512; i++)
			if (s2[vm->id].l3_ram[b][i]) {
				s2[vm->id].l3_ram[b][i] = 0;
				n++;
			}
	dsb(ishst);
	__asm__ volatile("tlbi alle1is\n\tdsb ish" : : : "memory");
	isb();
	return n;
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
