// SPDX-License-Identifier: GPL-2.0-only
/*
 * vperf_pmu_filter - KVM_ARM_VCPU_PMU_V3_FILTER as the guest sees it
 *
 * An unmodified VMM restricts the events a guest may count with KVM's
 * event filter. With kvm-arm.vperf=1 the filter must become vperf's at
 * EL2; with kvm-arm.vperf=0 KVM's own emulation applies it: the guest must
 * see the same either way. In three VMs a guest counts CPU_CYCLES (0x11)
 * on event counter 0 and with the cycle counter, which counts CPU_CYCLES,
 * and three SW_INCR (0x00) on counter 1:
 *   no filter             every counter counts, PMCEID0_EL0 shows 0x11
 *   DENY 0x11             counter 0 and the cycle counter read 0, PMCEID0
 *                         hides 0x11, the guest reads back the type it
 *                         wrote; SW_INCR, which stays allowed, counts 3
 *   ALLOW 0x11, the rest  counter 0 and the cycle counter count, PMCEID0
 *   denied                shows 0x11
 * (KVM's emulation counts SW_INCR whatever the filter says, vperf does not:
 * the third VM's counter 1 is only printed.)
 */
#include "vperf_selftest.h"

#define CPU_CYCLES ARMV8_PMUV3_PERFCTR_CPU_CYCLES
#define SW_INCR	   ARMV8_PMUV3_PERFCTR_SW_INCR

static void guest_code(void)
{
	uint64_t pmceid0 = read_sysreg(pmceid0_el0);
	int i;

	vperf_guest_program(CPU_CYCLES, SW_INCR);
	vperf_guest_spin();
	for (i = 0; i < 3; i++)
		write_sysreg(BIT(1), pmswinc_el0);
	isb();
	write_sysreg(0, pmcr_el0);
	isb();
	GUEST_SYNC6(pmceid0, read_sysreg(pmevcntr0_el0), read_sysreg(pmevcntr1_el0),
		    read_sysreg(pmccntr_el0), read_sysreg(pmevtyper0_el0), 0);
	GUEST_DONE();
}

struct counts {
	uint64_t pmceid0, cntr0, cntr1, ccntr, typer0;
};

static struct counts run(const char *name, const struct kvm_pmu_event_filter *filters, int nr)
{
	struct vperf_test_vm t;
	struct counts c;
	struct ucall uc;

	vperf_vm_create(&t, guest_code, filters, nr);
	TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_SYNC, "no counts");
	c.pmceid0 = uc.args[0];
	c.cntr0 = uc.args[1];
	c.cntr1 = uc.args[2];
	c.ccntr = uc.args[3];
	c.typer0 = uc.args[4];
	TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_DONE, "not done");
	vperf_vm_free(&t);
	pr_info("%s: PMCEID0 0x%lx, PMEVCNTR0 (0x11) %lu, PMEVCNTR1 (SW_INCR) %lu, PMCCNTR %lu\n",
		name, c.pmceid0, c.cntr0, c.cntr1, c.ccntr);
	return c;
}

int main(void)
{
	const struct kvm_pmu_event_filter deny = {
		.base_event = CPU_CYCLES,
		.nevents = 1,
		.action = KVM_PMU_EVENT_DENY,
	};
	const struct kvm_pmu_event_filter allow = {
		.base_event = CPU_CYCLES,
		.nevents = 1,
		.action = KVM_PMU_EVENT_ALLOW,
	};
	struct counts c;

	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PMU_V3));

	c = run("no filter", NULL, 0);
	TEST_ASSERT(c.pmceid0 & BIT(CPU_CYCLES), "0x11 not in PMCEID0");
	TEST_ASSERT(c.cntr0 && c.ccntr, "cycles not counted: %lu %lu", c.cntr0, c.ccntr);
	TEST_ASSERT_EQ(c.cntr1, 3);

	c = run("deny 0x11", &deny, 1);
	TEST_ASSERT(!(c.pmceid0 & BIT(CPU_CYCLES)), "denied 0x11 in PMCEID0");
	TEST_ASSERT_EQ(c.cntr0, 0);
	TEST_ASSERT_EQ(c.ccntr, 0);
	TEST_ASSERT_EQ(c.typer0 & 0xffff, CPU_CYCLES);
	TEST_ASSERT_EQ(c.cntr1, 3);

	c = run("allow 0x11 only", &allow, 1);
	TEST_ASSERT(c.pmceid0 & BIT(CPU_CYCLES), "allowed 0x11 not in PMCEID0");
	TEST_ASSERT(c.cntr0 && c.ccntr, "allowed cycles not counted: %lu %lu", c.cntr0, c.ccntr);

	pr_info("vperf_pmu_filter: the filter held\n");
	return 0;
}
