// SPDX-License-Identifier: MIT
/* PL011 output by polling (PrimeCell UART PL011 TRM: UARTDR at 0x00, UARTFR at 0x18, TXFF is
 * bit 5). QEMU's PL011 needs no baud or enable programming to transmit. */
#include "arm.h"
#include "lib.h"

#define UARTDR	    0x00
#define UARTFR	    0x18
#define UARTFR_TXFF BIT(5)

static uint64_t uart_base = 0x09000000; /* QEMU virt's PL011 until the DT says otherwise */

void uart_init(uint64_t base)
{
	uart_base = base;
}

void uart_putc(char c)
{
	while (mmio_read32(uart_base + UARTFR) & UARTFR_TXFF)
		;
	mmio_write32(uart_base + UARTDR, (uint32_t)(unsigned char)c);
}

void uart_puts(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			uart_putc('\r');
		uart_putc(*s);
	}
}
