/* SPDX-License-Identifier: MIT */
#ifndef QEMU_EFI_ACPI_H
#define QEMU_EFI_ACPI_H

/* A device tree written from the ACPI tables under rsdp (MADT, GTDT, SPCR: efi_acpi.c), in pool
 * memory; NULL when the tables are unusable. */
void *acpi_to_dt(const void *rsdp);

#endif /* QEMU_EFI_ACPI_H */
