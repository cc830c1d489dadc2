// SPDX-License-Identifier: MIT
/*
 * Each guest's PL011 at QEMU virt's address (0x09000000), emulated so that two guests sharing
 * the one physical UART print whole lines, each prefixed with its VM ("[vm1] ..."), instead of
 * interleaved characters. Enough of the PrimeCell PL011 for polled output and for Linux's probe:
 * UARTDR, UARTFR (transmit FIFO always empty), the interrupt mask, and the peripheral and
 * PrimeCell identification registers (PL011 TRM, 3.3).
 */
#include "hyp.h"

#define UARTDR	    0x000
#define UARTFR	    0x018
#define UARTFR_TXFE BIT(7)
#define UARTFR_RXFE BIT(4)
#define UARTIMSC    0x038

static const uint8_t ids[8] = { 0x11, 0x10, 0x14, 0x00, 0x0d, 0xf0, 0x05, 0xb1 };
static uint32_t imsc[MAX_VMS];

void vuart_flush(struct vm *vm)
{
	if (!vm->line_len)
		return;
	vm->line[vm->line_len] = '\0';
	printf("[vm%u] %s\n", vm->id, vm->line);
	vm->line_len = 0;
}

static void vuart_putc(struct vm *vm, char c)
{
	if (c == '\r')
		return;
	if (c == '\n') {
		if (!vm->line_len)
			vm->line[vm->line_len++] = ' ';
		vuart_flush(vm);
		return;
	}
	vm->line[vm->line_len++] = c;
	if (vm->line_len == sizeof(vm->line) - 1)
		vuart_flush(vm);
}

bool vuart_mmio(struct vcpu *v, bool write, uint64_t off, uint64_t *val)
{
	struct vm *vm = v->vm;

	if (write) {
		if (off == UARTDR)
			vuart_putc(vm, (char)*val);
		else if (off == UARTIMSC)
			imsc[vm->id] = (uint32_t)*val;
		return true;
	}
	if (off == UARTFR)
		*val = UARTFR_TXFE | UARTFR_RXFE;
	else if (off == UARTIMSC)
		*val = imsc[vm->id];
	else if (off >= 0xfe0)
		*val = ids[(off - 0xfe0) / 4];
	else
		*val = 0;
	return true;
}
