// SPDX-License-Identifier: MIT
/*
 * Tests that need a second CPU (a device tree with two or more): CPU 1 is started with PSCI
 * CPU_ON, sets up its redistributor and CPU interface, and spins on memory with interrupts
 * enabled, so that it makes no exit of its own to a hypervisor. CPU 0 sends it SGI 1 through
 * ICC_SGI1R_EL1 (GICv3: INTID [27:24], Aff1 [23:16], TargetList [15:0]): the interrupt must
 * arrive while CPU 1 keeps running, which under a hypervisor means that the pCPU running vCPU 1
 * was made to exit (a kick), not that it waited for its next slice or exit (the configuration
 * smp-kick has 2 s slices; the wait is 500 ms, long enough for a host under load).
 */
#include "suite.h"

#define SGI_TEST 1u

extern char secondary_entry[];
void secondary_main(void);

static uint8_t cpu1_stack[16384] __attribute__((aligned(16)));
static volatile unsigned int cpu1_ready, cpu1_stop, cpu1_sgis;

static void sgi_handler(uint32_t intid)
{
	(void)intid;
	cpu1_sgis++;
}

void secondary_main(void)
{
	gic_cpu_init();
	irq_enable();
	cpu1_ready = 1;
	while (!cpu1_stop)
		barrier();
	irq_disable();
	psci_cpu_off();
}

void smp_tests(void)
{
	uint64_t top = (uint64_t)(uintptr_t)(cpu1_stack + sizeof(cpu1_stack));
	int64_t on;
	bool ready, got;

	if (gi.ncpus < 2)
		return;
	irq_register(SGI_TEST, sgi_handler);
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
}
