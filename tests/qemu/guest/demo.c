// SPDX-License-Identifier: MIT
/*
 * The demo guest (`make run`): measures its own workload with its vPMU the way perf would:
 * cycles (PMCCNTR_EL0), instructions (INST_RETIRED; QEMU counts it under -icount), SW_INCR
 * marks, and periodic overflow interrupts of the cycle counter reloaded by its handler
 * (sampling; QEMU 7.2 detects event-counter overflows of CPU_CYCLES late, the cycle counter's on
 * time). Bootargs: name=..., work=alu|mem, iters=N, period=cycles.
 */
#include "suite.h"

static volatile unsigned int samples;
static uint64_t period;

static void sample_irq(uint32_t intid)
{
	uint64_t ovs = read_sysreg(pmovsset_el0);

	(void)intid;
	if (ovs & CYCLE_BIT) {
		write_sysreg(read_sysreg(pmccntr_el0) - period,
			     pmccntr_el0); /* re-arm, as perf does */
		samples++;
	}
	write_sysreg(ovs, pmovsclr_el0);
	isb();
}

static uint64_t mem_walk(uint64_t n)
{
	static uint64_t buf[8192];
	uint64_t acc = 0;

	for (uint64_t i = 0; i < n; i++) {
		buf[(i * 97) % 8192] += i;
		acc += buf[(i * 31) % 8192];
	}
	return acc;
}

static void word(char *dst, size_t cap, const char *src)
{
	size_t i = 0;

	for (; src && src[i] && src[i] != ' ' && i + 1 < cap; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

void payload_main(void)
{
	char name[32];
	uint64_t iters = arg_u64("iters", 2000000), marks = 0, cyc, ins, swinc;
	bool mem = arg_is("work", "mem");

	period = arg_u64("period", 1000000);
	word(name, sizeof(name), arg_str("name"));
	if (!gi.has_pmu) {
		printf("DEMO %s: no PMU in the device tree\n", name);
		return;
	}
	pmu_quiesce();
	irq_register(gi.pmu_intid, sample_irq);
	gic_enable_ppi(gi.pmu_intid, true);
	pmu_set_evtyper(0, EVT_INST_RET);
	pmu_set_evtyper(1, EVT_SW_INCR);
	write_sysreg(0 - period, pmccntr_el0);
	write_sysreg(CYCLE_BIT, pmintenset_el1);
	write_sysreg(CYCLE_BIT | 3, pmcntenset_el0);
	irq_enable();
	write_sysreg(PMCR_E | PMCR_LC | PMCR_LP, pmcr_el0);
	for (uint64_t done = 0; done < iters; done += iters / 100) {
		if (mem)
			mem_walk(iters / 100);
		else
			workload(iters / 100);
		write_sysreg(BIT(1), pmswinc_el0); /* one mark per 1% of the work */
		marks++;
	}
	write_sysreg(0, pmcr_el0);
	isb();
	ins = pmu_evcntr(0), swinc = pmu_evcntr(1);
	cyc = samples * period + (read_sysreg(pmccntr_el0) + period); /* counted from -period */
	printf("DEMO %s: %s x%lu: cycles %lu, instructions %lu, sw_incr %lu/%lu\n", name,
	       mem ? "memory" : "alu", iters, cyc, ins, swinc, marks);
	printf("DEMO %s: cycle-overflow samples %u every %lu cycles (expected %lu)\n", name,
	       samples, period, cyc / period);
	CHECK("demo-swinc-exact", swinc == marks, "%lu of %lu", swinc, marks);
	CHECK("demo-samples", samples + 1 >= cyc / period && samples <= cyc / period + 1,
	      "%u samples for %lu cycles", samples, cyc);
}
