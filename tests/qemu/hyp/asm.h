/* SPDX-License-Identifier: MIT */
/* Constants shared by the hypervisor's assembly and C. */
#ifndef HYP_ASM_H
#define HYP_ASM_H

/* Stage-1 block descriptor bits (Arm ARM D8.3, VMSAv8-64 translation table format). */
#define PTE_BLOCK    0x1
#define PTE_ATTR(i)  ((i) << 2)
#define PTE_SH_INNER (3 << 8)
#define PTE_AF	     (1 << 10)
#define PTE_XN	     (1 << 54)

/* TCR_EL2 (E2H = 0): T0SZ = 25 (39-bit VA), IRGN0 = ORGN0 = 1 (WB WA), SH0 = 3 (inner
 * shareable), TG0 = 0 (4K), PS = 2 (40-bit PA), RES1 bits 31 and 23. */
#define TCR_EL2_VALUE ((1 << 31) | (1 << 23) | (2 << 16) | (3 << 12) | (1 << 10) | (1 << 8) | 25)

/* SCTLR_EL2: the RES1 bits of the E2H = 0 layout (0x30c50830), M (MMU), C and I (caches), SA
 * (stack alignment check). WXN, EE stay 0: little endian. */
#define SCTLR_EL2_VALUE (0x30c50830 | (1 << 0) | (1 << 2) | (1 << 3) | (1 << 12))

/* Offsets in struct vcpu_regs (vcpu.h). */
/* Stack of each secondary pCPU (head.S, sched.c). */
#define PCPU_STACK 16384

#define REGS_ELR  (31 * 8)
#define REGS_SPSR (32 * 8)
#define REGS_SIZE (34 * 8)

/* Exception kinds passed to hyp_trap(). */
#define TRAP_SYNC 0
#define TRAP_IRQ  1
#define TRAP_FIQ  2
#define TRAP_SERR 3

#endif /* HYP_ASM_H */
