// SPDX-License-Identifier: MIT
/*
 * What a switch between two guests costs, seen from inside them (bootargs switch=1 in both
 * guests of a pair on one pCPU; switch_ms=duration, default 400; make validate). Each guest
 * reads the physical counter CNTPCT_EL0 in a tight loop, so that a step much longer than one
 * iteration is a time the guest did not run, and records each such gap as the last count it
 * read before and the first after. CNTPCT_EL0 is one clock for both guests; CNTVCT_EL0 is not:
 * it reads the physical count less the VM's own CNTVOFF_EL2 (the Generic Timer, Arm DDI 0487
 * K.a D11.2; PhysicalCountInt() - CNTVOFF_EL2 as J1's CollectTimeStamp() computes the virtual
 * time). So tests/validate/extract.sh can lay the two guests' gaps on one time line: within a
 * gap of one guest where the other ran once, from the first guest's last read to the other's
 * first read is one switch, everything the hypervisor does between the two guests'
 * instructions, and likewise back. Under QEMU -icount shift=0 a count is a nanosecond
 * and a nanosecond an instruction, so a switch is counted in instructions at every Exception
 * level. Printed as "GAP <out> <in>" lines in counts, after "GAPS <frequency> <number>".
 *
 * Each guest keeps its PMU counting through the run (every counter it has, and the cycle
 * counter), so that a hypervisor that switches PMU state lazily has state to switch.
 */
#include "suite.h"

#define MAX_GAPS 2048u

static struct {
	uint64_t out, in;
} gaps[MAX_GAPS];

static uint64_t cntpct(void)
{
	isb();
	return read_sysreg(cntpct_el0);
}

/* Every counter the guest has counts CPU_CYCLES at EL1, and the cycle counter too. */
static void pmu_busy(void)
{
	unsigned int n;

	if (!pmu_is_v3())
		return;
	pmu_quiesce();
	n = pmu_n();
	for (unsigned int i = 0; i < n; i++)
		pmu_set_evtyper(i, EVT_CYCLES);
	write_sysreg(CYCLE_BIT | (BIT(n) - 1), pmcntenset_el0);
	write_sysreg(PMCR_E | PMCR_LC, pmcr_el0);
	isb();
}

/* The loop's own step between two reads: the least over its first iterations. Where the
 * hypervisor traps every CNTPCT_EL0 read to EL2 (CNTHCTL_EL2.EL1PCTEN 0, the Generic Timer; KVM
 * 6.12 does so in nVHE once the VMM has given the VM's physical counter an offset), each
 * iteration holds a trap, which is not a time the guest did not run. */
static uint64_t loop_step(void)
{
	uint64_t prev = cntpct(), least = UINT64_MAX;

	for (unsigned int i = 0; i < 64; i++) {
		uint64_t t = cntpct();

		if (t - prev < least)
			least = t - prev;
		prev = t;
	}
	return least;
}

/* A step of more than `gap` counts: one iteration more about 200 instructions under -icount
 * shift=0 (some 20 untrapped iterations of the loop), far less than a switch. */
static unsigned int record_gaps(uint64_t ticks, uint64_t gap)
{
	uint64_t prev = cntpct(), end = prev + ticks;
	unsigned int k = 0;

	for (;;) {
		uint64_t t = cntpct();

		if (t - prev > gap) {
			if (k < MAX_GAPS) {
				gaps[k].out = prev;
				gaps[k].in = t;
			}
			k++;
		}
		prev = t;
		if (t >= end)
			return k;
	}
}

void switch_cost_run(void)
{
	uint64_t ticks = ms_to_ticks(arg_u64("switch_ms", 400));
	uint64_t step, gap;
	unsigned int k;

	pmu_busy();
	step = loop_step();
	gap = step + gi.freq / 5000000u + 1; /* one iteration and 200 ns */
	k = record_gaps(ticks, gap);
	if (pmu_is_v3())
		pmu_quiesce();
	printf("GAPS %lu %u\n", gi.freq, k);
	for (unsigned int i = 0; i < k && i < MAX_GAPS; i++)
		printf("GAP %lu %lu\n", gaps[i].out, gaps[i].in);
	CHECK("cost-switch", k > 0,
	      "%u times away in %lu ms of CNTPCT_EL0 (the first %u recorded), one read every %lu "
	      "counts",
	      k, ticks / ms_to_ticks(1), MAX_GAPS, step);
}
