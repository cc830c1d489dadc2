/* SPDX-License-Identifier: MIT */
/* The guest's SPE: register names, fields, and the sampling helpers of suite_spe.c that the
 * isolation probes (suite_spe_iso.c) share. SPE supplement (Arm DDI 0586A) sections as "SPE x.y". */
#ifndef GUEST_SPE_H
#define GUEST_SPE_H

#include "suite.h"

/* SPE registers in the generic spelling any assembler takes; RD/WR expand the name first. */
#define PMSCR	    s3_0_c9_c9_0
#define PMSICR	    s3_0_c9_c9_2
#define PMSIRR	    s3_0_c9_c9_3
#define PMSFCR	    s3_0_c9_c9_4
#define PMSLATFR    s3_0_c9_c9_6
#define PMSIDR	    s3_0_c9_c9_7
#define PMBLIMITR   s3_0_c9_c10_0
#define PMBPTR	    s3_0_c9_c10_1
#define PMBSR	    s3_0_c9_c10_3
#define PMBIDR	    s3_0_c9_c10_7
#define RD(r)	    read_sysreg(r)
#define WR(v, r)    write_sysreg(v, r)
#define psb_csync() __asm__ volatile("hint #17" : : : "memory")

#define PMSCR_E1SPE   BIT(1)
#define PMSCR_CX      BIT(3) /* SPE 4.3.5: CONTEXTIDR_EL1 in Context packets */
#define PMBLIMITR_E   BIT(0)
#define PMBSR_S	      BIT(17)
#define PMBSR_DL      BIT(19)
#define PMBSR_EC(v)   FIELD(v, 31, 26)
#define PMBSR_BSC(v)  FIELD(v, 5, 0)
#define BSC_FULL      1u
#define BUF_IRQ	      0x42000000ull /* 8 KiB: full, re-armed */
#define BUF_DRAIN     0x42100000ull /* 64 KiB: a few records, drained */
#define BUF_LAZY      0x42200000ull /* 1 MiB the CPU never touches: beyond vperf's prefault */
#define SPE_V1_PMSIDR 0xfff3full    /* FE FT FL ArchInst LDS ERnd, Interval, MaxSize, CountSize */

#define SPE_INTERVAL 4096u /* PMSIRR_EL1.INTERVAL: QEMU's minimum (PMSIDR_EL1.Interval 8) */

/* What spe_start() writes to PMSIRR_EL1 and PMSCR_EL1 (SPE_INTERVAL, PMSCR_E1SPE unless a test
 * changes them). */
extern uint64_t spe_interval, spe_pmscr;
/* Sample EL1 into [ptr, limit) / stop sampling and drain the records in flight (SPE 3.6). */
void spe_start(uint64_t ptr, uint64_t limit);
void spe_stop(void);
/* spe=1 iso=quiet|noisy: two guests' SPE kept apart (suite_spe_iso.c). */
void spe_iso_tests(void);

#endif /* GUEST_SPE_H */
