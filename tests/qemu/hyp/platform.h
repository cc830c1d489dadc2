/* SPDX-License-Identifier: MIT */
/*
 * What the reference hypervisor assumes of the platform: its physical memory plan (QEMU virt:
 * RAM from 0x40000000; -m 2G ends it at 0xc0000000) and the PPIs of its timers, PMU and SPE
 * (QEMU virt's, the SBSA's). Shared by the hypervisor and its UEFI loader (efi/efi_main.c),
 * which reserves the ranges in the firmware's memory map and checks the PPIs against the
 * firmware's device tree before it leaves boot services. Macros only: both sides include it
 * with their own integer types.
 */
#ifndef HYP_PLATFORM_H
#define HYP_PLATFORM_H

#define MAX_VMS		 4
#define HYP_LOAD_PA	 0x40080000ull /* hyp.lds: RAM base + the arm64 header's text_offset */
#define VM_RAM_PA(i)	 (0x50000000ull + (uint64_t)(i)*0x10000000ull) /* 256 MiB slots */
#define VM_RAM_MAX	 0x10000000ull
#define IMAGE_SLOT_PA(k) (0x90000000ull + (uint64_t)(k)*0x08000000ull) /* -device loader */
#define IMAGE_SLOT_SIZE	 0x08000000ull
#define NR_IMAGE_SLOTS	 4

/* INTIDs of the PPIs (GICv3, Arm IHI 0069: PPI n = INTID 16 + n). */
#define INTID_MAINT  25 /* GIC maintenance interrupt */
#define INTID_HYPTIM 26 /* EL2 physical timer (CNTHP) */
#define INTID_VTIMER 27 /* EL1 virtual timer (CNTV) */
#define INTID_PTIMER 30 /* EL1 physical timer (CNTP), the guest's too */
#define INTID_PMU    23
#define INTID_SPE    21 /* PMBIRQ: QEMU virt's /spe node, the SBSA's PPI 5 */

#endif /* HYP_PLATFORM_H */
