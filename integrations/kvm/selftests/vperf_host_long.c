// SPDX-License-Identifier: GPL-2.0-only
/*
 * vperf_host_long - the host's 64-bit event counters keep their 64-bit
 * overflow while a guest is loaded
 *
 * On FEAT_PMUv3p5 the host's PMU driver asks for 64-bit event counters
 * (PMCR_EL0.LP = 1, perf's "long" events, config1 bit 0). While vperf has a
 * first-range vCPU loaded, the host's counters lie above MDCR_EL2.HPMN,
 * where MDCR_EL2.HLP decides instead of PMCR_EL0.LP whether an overflow
 * is taken at bit 31 or bit 63 (Arm DDI 0487 K.a, I5.3.43): an HLP of 0
 * there gives the host an overflow interrupt every 2^32 events that its
 * driver never asked for. In VHE vperf keeps the vCPU loaded from
 * vcpu_load to vcpu_put, so every event the host counts on the vCPU's CPU
 * meanwhile is counted above HPMN.
 *
 * Two pinned CPU_CYCLES events of 64 bits on CPU 1 (the first takes the
 * cycle counter, whose overflow PMCR_EL0.LC governs, the second an event
 * counter), then a guest pinned to CPU 1 spins there for 10 s with no PMU
 * of its own. CPU 1's "arm-pmu" interrupts must not move. The test judges
 * only where an event reached 2^32 and was on the PMU all along ("host
 * long: judged"): otherwise no 32-bit overflow could have been seen.
 */
#include <linux/perf_event.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "vperf_selftest.h"

#define SPIN_SECONDS 10
#define HOST_CPU     1
#define NR_EVENTS    2

/*
 * The guest: one read of PMCR_EL0 (vperf must have the vCPU: selftest.sh
 * requires an access it answered), then SPIN_SECONDS of its virtual
 * counter at EL1, its counters disabled as they reset
 */
static void guest_code(void)
{
	uint64_t end = read_sysreg(cntvct_el0) + SPIN_SECONDS * read_sysreg(cntfrq_el0);

	GUEST_ASSERT(!(read_sysreg(pmcr_el0) & ARMV8_PMU_PMCR_E));

	while (read_sysreg(cntvct_el0) < end)
		asm volatile("nop");
	GUEST_DONE();
}

/* CPU cpu's count of the host's PMU interrupt (the "arm-pmu" line) */
static uint64_t pmu_irqs(int cpu)
{
	char line[1024];
	uint64_t n = 0;
	FILE *f = fopen("/proc/interrupts", "r");
	int i;

	TEST_ASSERT(f, "open /proc/interrupts");
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');

		if (!p || !strstr(line, "arm-pmu"))
			continue;
		for (i = 0, p++; i <= cpu; i++)
			n = strtoull(p, &p, 10);
		break;
	}
	fclose(f);
	return n;
}

/* A pinned, 64-bit CPU_CYCLES event on cpu, counting everything */
static int open_long_cycles(int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_RAW,
		.size = sizeof(attr),
		.config = ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
		.config1 = 1, /* "long": a 64-bit counter */
		.pinned = 1,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	int fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1, 0);

	TEST_ASSERT(fd >= 0, "perf_event_open on CPU %d", cpu);
	return fd;
}

int main(void)
{
	struct {
		uint64_t value, enabled, running;
	} r;
	struct vperf_test_vm t;
	int fds[NR_EVENTS], i, judged = 0;
	uint64_t before, after;
	struct ucall uc;
	cpu_set_t one;

	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PMU_V3));
	CPU_ZERO(&one);
	CPU_SET(HOST_CPU, &one);
	__TEST_REQUIRE(!sched_setaffinity(0, sizeof(one), &one), "needs host CPU %d", HOST_CPU);

	vperf_vm_create(&t, guest_code, NULL, 0);
	for (i = 0; i < NR_EVENTS; i++)
		fds[i] = open_long_cycles(HOST_CPU);
	before = pmu_irqs(HOST_CPU);
	TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_DONE, "the guest did not finish");
	after = pmu_irqs(HOST_CPU);

	for (i = 0; i < NR_EVENTS; i++) {
		TEST_ASSERT(read(fds[i], &r, sizeof(r)) == sizeof(r), "read event %d", i);
		pr_info("host long: event %d counted %lu (enabled %lu ns, running %lu ns)\n", i,
			r.value, r.enabled, r.running);
		if (r.value >> 32 && r.enabled == r.running)
			judged++;
		close(fds[i]);
	}
	vperf_vm_free(&t);
	if (!judged) {
		pr_info("host long: not judged, no event reached 2^32 on the PMU all along\n");
		return 0;
	}
	pr_info("host long: judged, %d events past 2^32\n", judged);
	TEST_ASSERT(after == before,
		    "host long: %lu overflow interrupts of the host's 64-bit counters on CPU %d",
		    after - before, HOST_CPU);
	pr_info("vperf_host_long: no overflow interrupt in the guest's %d s\n", SPIN_SECONDS);
	return 0;
}
