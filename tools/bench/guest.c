// SPDX-License-Identifier: MIT
/* What the guests do: program the PMU the way Linux perf does (armv8pmu_enable_event). */
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "bench.h"

uint32_t bench_evcntr_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7);
}

uint32_t bench_evtyper_enc(unsigned int n)
{
	return VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7);
}

/* Cycles, instructions, L1D accesses and refills, as `perf stat` asks for them. */
static const uint64_t events[] = { 0x11, 0x08, 0x04, 0x03 };

void bench_guest_program(unsigned int n)
{
	uint64_t mask = (VPERF_BIT(n) - 1) | VPERF_BIT(VPERF_CYCLE_IDX);

	for (unsigned int i = 0; i < n; i++) {
		guest_msr(bench_evtyper_enc(i), events[i % VPERF_ARRAY_SIZE(events)]);
		guest_msr(bench_evcntr_enc(i), 0);
	}
	guest_write(PMCCFILTR_EL0, 0);
	guest_write(PMCCNTR_EL0, 0);
	guest_write(PMINTENSET_EL1, mask);
	guest_write(PMCNTENSET_EL0, mask);
	guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
}
