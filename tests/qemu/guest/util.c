// SPDX-License-Identifier: MIT
/* Workloads and waiting, shared by the suite and the demo. Time is CNTVCT_EL0, which keeps
 * running while a hypervisor has the vCPU switched out: a long gap between two reads is a
 * switch. */
#include "suite.h"

uint64_t workload(uint64_t n)
{
	uint64_t acc = 1;

	for (uint64_t i = 0; i < n; i++) {
		acc = acc * 3 + i;
		barrier();
	}
	return acc;
}

unsigned int spin_ms(uint64_t ms)
{
	uint64_t start = now(), end = start + ms_to_ticks(ms), gap = gi.freq / 10000, last = start;
	unsigned int gaps = 0;

	for (uint64_t t = start; t < end; t = now()) {
		if (t - last > gap)
			gaps++;
		last = t;
	}
	return gaps;
}

bool wait_for(volatile unsigned int *count, unsigned int want, uint64_t ms)
{
	uint64_t end = now() + ms_to_ticks(ms);

	while (*count < want && now() < end)
		;
	return *count >= want;
}
