/* SPDX-License-Identifier: MIT */
/*
 * The reference hypervisor's physical memory plan (QEMU virt: RAM from 0x40000000; -m 2G ends it
 * at 0xc0000000). Shared by the hypervisor and its UEFI loader (efi/efi_main.c), which reserves
 * these ranges in the firmware's memory map before it leaves boot services. Macros only: both
 * sides include it with their own integer types.
 */
#ifndef HYP_MEMPLAN_H
#define HYP_MEMPLAN_H

#define MAX_VMS		 4
#define HYP_LOAD_PA	 0x40080000ull /* hyp.lds: RAM base + the arm64 header's text_offset */
#define VM_RAM_PA(i)	 (0x50000000ull + (uint64_t)(i)*0x10000000ull) /* 256 MiB slots */
#define VM_RAM_MAX	 0x10000000ull
#define IMAGE_SLOT_PA(k) (0x90000000ull + (uint64_t)(k)*0x08000000ull) /* -device loader */
#define IMAGE_SLOT_SIZE	 0x08000000ull
#define NR_IMAGE_SLOTS	 4

#endif /* HYP_MEMPLAN_H */
