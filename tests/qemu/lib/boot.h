/* SPDX-License-Identifier: MIT */
/* Boot code shared by the hypervisor's and the guests' head.S. */
#ifndef VPERF_QEMU_BOOT_H
#define VPERF_QEMU_BOOT_H

#ifdef __ASSEMBLER__
/* sp = \stack_top, then zero [__bss_start, __bss_end) (8-byte aligned by the linker scripts).
 * Clobbers x1, x2; the next instruction runs with a clean .bss. */
.macro boot_stack_and_bss stack_top
	adrp	x1, \stack_top
	add	x1, x1, :lo12:\stack_top
	mov	sp, x1
	adrp	x1, __bss_start
	add	x1, x1, :lo12:__bss_start
	adrp	x2, __bss_end
	add	x2, x2, :lo12:__bss_end
9001:	cmp	x1, x2
	b.hs	9002f
	str	xzr, [x1], #8
	b	9001b
9002:
.endm
#endif

#endif
