// SPDX-License-Identifier: MIT
/*
 * What a PMU access costs a guest, measured from inside it the same way under any hypervisor
 * (bootargs cost=1; make validate). Under QEMU -icount shift=0 the virtual clock advances one
 * nanosecond per instruction executed at any Exception level, so the CNTVCT_EL0 ticks around a
 * loop of K accesses, scaled by CNTFRQ_EL0, count every instruction an access costs: the guest's
 * own, the trap, the hypervisor's handling, the return. An empty loop of the same shape is
 * subtracted; the least of REPS runs is kept, so that a timer tick of the host inside one run
 * does not count. Printed as "COST <name> <instructions per operation>" lines; the figures mean
 * instructions only under -icount shift=0 (without it they are nanoseconds of host time).
 */
#include "suite.h"

#define K    1000
#define REPS 5

enum cost_op {
	OP_NONE,
	OP_PMCCNTR_READ,
	OP_PMEVCNTR_READ,
	OP_PMEVTYPER_WRITE,
	OP_PMSWINC_WRITE,
	OP_PMOVSSET_READ,
};

static const char *const op_name[] = {
	[OP_PMCCNTR_READ] = "pmccntr-read",	  [OP_PMEVCNTR_READ] = "pmevcntr-read",
	[OP_PMEVTYPER_WRITE] = "pmevtyper-write", [OP_PMSWINC_WRITE] = "pmswinc-write",
	[OP_PMOVSSET_READ] = "pmovsset-read",
};

/* Instructions (under -icount shift=0) for a CNTVCT_EL0 interval. */
static uint64_t ticks_to_insns(uint64_t ticks)
{
	return ticks * 1000000000ull / gi.freq;
}

static __attribute__((noinline)) uint64_t loop(enum cost_op op)
{
	uint64_t sink = 0, t0 = now();

	for (unsigned int i = 0; i < K; i++) {
		switch (op) {
		case OP_PMCCNTR_READ:
			sink += read_sysreg(pmccntr_el0);
			break;
		case OP_PMEVCNTR_READ:
			sink += read_sysreg(pmevcntr0_el0);
			break;
		case OP_PMEVTYPER_WRITE:
			write_sysreg(EVT_SW_INCR, pmevtyper0_el0);
			break;
		case OP_PMSWINC_WRITE:
			/* counter 1: not enabled, so nothing overflows */
			write_sysreg(2, pmswinc_el0);
			break;
		case OP_PMOVSSET_READ:
			sink += read_sysreg(pmovsset_el0);
			break;
		default:
			__asm__ volatile("" : "+r"(sink));
			break;
		}
	}
	barrier();
	(void)sink;
	return now() - t0;
}

static uint64_t least(enum cost_op op)
{
	uint64_t best = ~0ull;

	for (unsigned int r = 0; r < REPS; r++) {
		uint64_t t = loop(op);

		best = t < best ? t : best;
	}
	return best;
}

/* Per operation, to a tenth of an instruction: "12.3". */
static void print_cost(const char *name, uint64_t ticks, uint64_t empty, unsigned int ops)
{
	uint64_t tenths = ticks > empty ? ticks_to_insns((ticks - empty) * 10) / ops : 0;

	printf("COST %s %lu.%lu\n", name, tenths / 10, tenths % 10);
}

static volatile unsigned int cost_irqs;

static void cost_irq(uint32_t intid)
{
	(void)intid;
	write_sysreg(1, pmovsclr_el0); /* drop the level before the EOI */
	isb();
	cost_irqs++;
}

/* K overflows of counter 0 (SW_INCR from 0xffffffff), each waited for; with irq set the
 * interrupt handles it, else the loop calls the handler itself: the difference is what taking
 * the interrupt costs (exception entry, the GIC, the hypervisor's injection). */
static __attribute__((noinline)) uint64_t overflow_loop(bool irq)
{
	uint64_t t0;

	write_sysreg(irq ? 1 : 0, pmintenset_el1);
	write_sysreg(irq ? 0 : 1, pmintenclr_el1);
	cost_irqs = 0;
	isb();
	t0 = now();
	for (unsigned int i = 0; i < K; i++) {
		write_sysreg(0xffffffffull, pmevcntr0_el0);
		write_sysreg(1, pmswinc_el0);
		isb();
		if (!irq)
			cost_irq(gi.pmu_intid);
		while (cost_irqs <= i)
			;
	}
	return now() - t0;
}

static void cost_overflow(void)
{
	uint64_t with = ~0ull, without = ~0ull;

	if (!gi.pmu_intid || !gi.gicr) {
		result("cost-overflow-irq", SKIP, "no PMU interrupt or GIC in the device tree");
		return;
	}
	irq_register(gi.pmu_intid, cost_irq);
	gic_enable_ppi(gi.pmu_intid, true);
	irq_enable();
	for (unsigned int r = 0; r < REPS; r++) {
		uint64_t a = overflow_loop(true), b = overflow_loop(false);

		with = a < with ? a : with;
		without = b < without ? b : without;
	}
	write_sysreg(~0ull, pmintenclr_el1);
	print_cost("overflow-irq", with, without, K);
	CHECK("cost-overflow-irq", cost_irqs == K, "%u of %u overflows taken as interrupts",
	      cost_irqs, K);
}

void cost_run(void)
{
	uint64_t empty;

	/* A hypervisor that gives no PMU, or no event counter (PMCR_EL0.N = 0, as Xen's own vPMU
	 * does: HPMN left at 0): nothing to measure, and the accesses below would be UNDEFINED. */
	if (!gi.has_pmu || !pmu_n()) {
		result("cost", SKIP, "PMU node %s, PMCR_EL0.N %u: no event counter to measure",
		       gi.has_pmu ? "present" : "absent", gi.has_pmu ? pmu_n() : 0);
		return;
	}
	pmu_quiesce();
	pmu_set_evtyper(0, EVT_SW_INCR);
	write_sysreg(CYCLE_BIT | 1, pmcntenset_el0);
	write_sysreg(PMCR_E | PMCR_LC, pmcr_el0);
	isb();
	(void)least(OP_NONE); /* warm: the hypervisor's lazy state, the caches of TCG */
	empty = least(OP_NONE);
	printf("COST clock %lu Hz, %u accesses a run, least of %u runs\n", gi.freq, K, REPS);
	for (unsigned int op = OP_PMCCNTR_READ; op <= OP_PMOVSSET_READ; op++) {
		(void)loop((enum cost_op)op);
		print_cost(op_name[op], least((enum cost_op)op), empty, K);
	}
	cost_overflow();
	result("cost", PASS, "%u accesses of each kind measured", K);
	pmu_quiesce();
}
