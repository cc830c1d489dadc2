// SPDX-License-Identifier: MIT
/*
 * Tests that need a second CPU (a device tree with two or more): CPU 1 is started with PSCI
 * CPU_ON, sets up its redistributor and CPU interface, and spins on memory with interrupts
 * enabled, so that it makes no exit of its own to a hypervisor. CPU 0 sends it SGI 1 through
 * ICC_SGI1R_EL1 (GICv3: INTID [27:24], Aff1 [23:16], TargetList [15:0]): the interrupt must
 * arrive while CPU 1 keeps running, which under a hypervisor means that the pCPU running vCPU 1
 * was made to exit (a kick), not that it waited for its next slice or exit (the configuration
 * smp-kick has 2 s slices; the wait is 500 ms, long enough for a host under load).
 *
 * With a PMUv3, CPU 1 sets PMCR_EL0.E before its CPU_OFF, and CPU 0 starts it a second time:
 * CPU_ON powers the core up, so its PMCR_EL0.E must read 0 again ("On a Warm reset, this field
 * resets to '0'", Arm DDI 0487 K.a I5.3.21): the hypervisor resets the vCPU's PMU, not only its
 * general-purpose state.
 *
 * CPU 1 also reads PMCEID0/1_EL0 at its start: a vCPU is shown the common events of the machine,
 * the same on every vCPU whichever pCPU runs it, even where the pCPUs' own differ (big.LITTLE
 * clusters; the project's QEMU's -cpu max,pmu-clusters=2 makes CPU 0 and CPU 1 differ).
 */
#include "suite.h"

#define SGI_TEST 1u

extern char secondary_entry[];
void secondary_main(void);

static uint8_t cpu1_stack[16384] __attribute__((aligned(16)));
static volatile unsigned int cpu1_ready, cpu1_stop, cpu1_sgis;
/* The PMCR_EL0.E part: set_e before the first CPU_OFF; the second start reads PMCR_EL0. */
static volatile unsigned int cpu1_set_e, cpu1_second, cpu1_read;
static volatile uint64_t cpu1_pmcr;
static volatile uint64_t cpu1_pmceid[2];

#define PSCI_ALREADY_ON (-4)

static void sgi_handler(uint32_t intid)
{
	(void)intid;
	cpu1_sgis++;
}

void secondary_main(void)
{
	if (cpu1_second) {
		cpu1_pmcr = read_sysreg(pmcr_el0);
		cpu1_read = 1;
		psci_cpu_off();
	}
	if (cpu1_set_e) {
		/* A first PMU access, which a hypervisor may trap to hand the vCPU its counters
		 * (the direct partition): the reads after it are the vCPU's own, untrapped there. */
		(void)read_sysreg(pmcr_el0);
		cpu1_pmceid[0] = read_sysreg(pmceid0_el0);
		cpu1_pmceid[1] = read_sysreg(pmceid1_el0);
	}
	gic_cpu_init();
	/* Enabled in CPU 1's redistributor (GICR_ISENABLER0): QEMU's GICv3 leaves an SGI
	 * disabled until then, as Xen's and KVM's virtual ones do; only the reference
	 * hypervisor's vGIC has them always enabled. */
	gic_enable_ppi(SGI_TEST, true);
	irq_enable();
	cpu1_ready = 1;
	while (!cpu1_stop)
		barrier();
	irq_disable();
	if (cpu1_set_e) {
		write_sysreg(read_sysreg(pmcr_el0) | PMCR_E, pmcr_el0);
		isb();
	}
	psci_cpu_off();
}

/* CPU 1 started again once its CPU_OFF is done (CPU_ON answers ALREADY_ON until then). */
static void test_cpu_on_pmu_reset(uint64_t top)
{
	uint64_t end = now() + ms_to_ticks(1000);
	int64_t on;

	cpu1_second = 1;
	do
		on = psci_cpu_on(1, (uint64_t)(uintptr_t)secondary_entry, top);
	while (on == PSCI_ALREADY_ON && now() < end);
	CHECK("cpu-on-pmu-reset", !on && wait_for(&cpu1_read, 1, 1000) && !(cpu1_pmcr & PMCR_E),
	      "CPU_ON %ld; PMCR_EL0 %lx at CPU 1's second start, E set before its CPU_OFF", on,
	      cpu1_pmcr);
}

void smp_tests(void)
{
	uint64_t top = (uint64_t)(uintptr_t)(cpu1_stack + sizeof(cpu1_stack));
	int64_t on;
	bool ready, got;

	if (gi.ncpus < 2)
		return;
	irq_register(SGI_TEST, sgi_handler);
	cpu1_set_e = gi.has_pmu && pmu_is_v3();
	on = psci_cpu_on(1, (uint64_t)(uintptr_t)secondary_entry, top);
	ready = !on && wait_for(&cpu1_ready, 1, 1000);
	if (ready) {
		write_sysreg((uint64_t)SGI_TEST << 24 | BIT(1), S3_0_C12_C11_5); /* ICC_SGI1R_EL1 */
		isb();
	}
	got = ready && wait_for(&cpu1_sgis, 1, 500);
	cpu1_stop = 1;
	CHECK("sgi-cross-cpu", got && cpu1_sgis == 1,
	      "CPU_ON %ld, CPU 1 ready %d, SGI %u taken by the spinning CPU 1 %u times in 500 ms",
	      on, ready, SGI_TEST, cpu1_sgis);
	if (ready && cpu1_set_e)
		CHECK("pmceid-every-cpu",
		      cpu1_pmceid[0] == read_sysreg(pmceid0_el0) &&
			      cpu1_pmceid[1] == read_sysreg(pmceid1_el0),
		      "PMCEID0/1_EL0 %lx %lx on CPU 1, %lx %lx on CPU 0", cpu1_pmceid[0],
		      cpu1_pmceid[1], read_sysreg(pmceid0_el0), read_sysreg(pmceid1_el0));
	if (ready && cpu1_set_e)
		test_cpu_on_pmu_reset(top);
}
