// SPDX-License-Identifier: GPL-2.0-only
/*
 * vperf_pmu_flush - a vCPU moved to another CPU finds its PMU as it left it
 *
 * A lazy put (either range of kvm-arm.vperf_range) leaves a vCPU's counters
 * parked in the PMU of the CPU it ran on; before the vCPU runs on another
 * CPU, KVM has that CPU flush them into vperf's copy (kvm_arch_vcpu_load(),
 * __kvm_vperf_vcpu_flush). The guest.sh run, which moves the vCPU threads
 * from a shell loop, meets a parked vCPU only by chance; here every move is
 * made at a known point, by the one thread that runs the vCPUs:
 *
 *  1. VM A's vCPU, its thread pinned to CPU 0, programs its PMU (SW_INCR on
 *     counters 0 and 1, the cycle counter, enables, an interrupt enable, an
 *     overflow flag set through PMOVSSET_EL0, PMSELR_EL0) and exits at a
 *     ucall: its counters stay parked in CPU 0. The thread moves to CPU 1,
 *     nothing runs on CPU 0 meanwhile, and A runs again.
 *  2. VM B's vCPU runs on CPU 1 (its first run takes CPU 1's counters from
 *     A, parked there since step 1), then A runs again on CPU 0.
 *  3. B moves to CPU 0, where A's counters are parked, then A back to CPU 1.
 *  4. With A parked in CPU 1, the thread moves to CPU 0 and takes CPU 1
 *     offline (its sysfs online file): KVM's teardown of CPU 1 must flush
 *     A there (patch 34), as the flush at the move can no longer reach it;
 *     A runs on CPU 0, then, CPU 1 back online, on CPU 1 again.
 *
 * At each run the guest checks that its PMU is exactly what it left (every
 * register it wrote, the SW_INCR counts, the flag; the cycle counter not
 * below its last value), then counts one more SW_INCR on each counter. A
 * missing flush loses the counts since the put (vperf restores the vCPU
 * from its stale copy elsewhere) and fails the guest's check at step 1;
 * a missing flush at CPU down fails it at step 4, where the test says so.
 * With kvm-arm.vperf=0 KVM's own emulation must pass the same.
 */
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include "vperf_selftest.h"

#define SW_INCR	 ARMV8_PMUV3_PERFCTR_SW_INCR
#define COUNTERS (BIT(0) | BIT(1) | BIT(VPERF_CYCLE_BIT))
/*
 * PMCR_EL0.LC (Arm DDI 0487 K.a, I5.3.21): the cycle counter's overflow is
 * recorded on the 64-bit wrap only, so no flag of its own during the test
 */
#define PMCR_LC BIT(6)

/* What a guest leaves in its PMU, all but the cycle count exact */
struct pmu_state {
	uint64_t pmcr, cnten, inten, ovs, selr, type0, type1, ccfiltr;
	uint64_t cnt0, cnt1, ccnt;
};

static void guest_read(struct pmu_state *s)
{
	isb();
	s->pmcr = read_sysreg(pmcr_el0);
	s->cnten = read_sysreg(pmcntenset_el0);
	s->inten = read_sysreg(pmintenset_el1);
	s->ovs = read_sysreg(pmovsset_el0);
	s->selr = read_sysreg(pmselr_el0);
	s->type0 = read_sysreg(pmevtyper0_el0);
	s->type1 = read_sysreg(pmevtyper1_el0);
	s->ccfiltr = read_sysreg(pmccfiltr_el0);
	s->cnt0 = read_sysreg(pmevcntr0_el0);
	s->cnt1 = read_sysreg(pmevcntr1_el0);
	s->ccnt = read_sysreg(pmccntr_el0);
}

/* The state left before the exit, and the one found after the next entry */
static void guest_check(const struct pmu_state *was, const struct pmu_state *now)
{
	GUEST_ASSERT_EQ(now->cnt0, was->cnt0);
	GUEST_ASSERT_EQ(now->cnt1, was->cnt1);
	GUEST_ASSERT_EQ(now->ovs, was->ovs);
	GUEST_ASSERT_EQ(now->cnten, was->cnten);
	GUEST_ASSERT_EQ(now->inten, was->inten);
	GUEST_ASSERT_EQ(now->pmcr, was->pmcr);
	GUEST_ASSERT_EQ(now->selr, was->selr);
	GUEST_ASSERT_EQ(now->type0, was->type0);
	GUEST_ASSERT_EQ(now->type1, was->type1);
	GUEST_ASSERT_EQ(now->ccfiltr, was->ccfiltr);
	GUEST_ASSERT(now->ccnt >= was->ccnt);
}

/*
 * Counter 0 counts incs SW_INCRs, counter 1 starts at base; the overflow
 * flag of counter `flag` (1 or the cycle counter's) is set, its interrupt
 * enable clear (no interrupt), counter 0's interrupt enable set. Then, at every run after a ucall, the
 * check and one SW_INCR on each counter.
 */
static void guest_code(uint64_t incs, uint64_t base, uint64_t flag)
{
	struct pmu_state was, now;
	uint64_t i, round;

	/* KVM's own emulation resets these to UNKNOWN values */
	write_sysreg(~0ul, pmcntenclr_el0);
	write_sysreg(~0ul, pmintenclr_el1);
	write_sysreg(~0ul, pmovsclr_el0);
	write_sysreg(SW_INCR, pmevtyper0_el0);
	write_sysreg(SW_INCR, pmevtyper1_el0);
	write_sysreg(0, pmccfiltr_el0);
	write_sysreg(ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C | ARMV8_PMU_PMCR_E | PMCR_LC, pmcr_el0);
	isb();
	write_sysreg(base, pmevcntr1_el0);
	write_sysreg(COUNTERS, pmcntenset_el0);
	write_sysreg(BIT(0), pmintenset_el1);
	write_sysreg(BIT(flag), pmovsset_el0);
	write_sysreg(1, pmselr_el0);
	isb();
	for (i = 0; i < incs; i++)
		write_sysreg(BIT(0), pmswinc_el0);
	vperf_guest_spin();
	guest_read(&was);
	GUEST_ASSERT_EQ(was.cnt0, incs);
	GUEST_ASSERT_EQ(was.cnt1, base);
	GUEST_ASSERT_EQ(was.ovs, BIT(flag));
	GUEST_ASSERT_EQ(was.cnten, COUNTERS);
	GUEST_ASSERT(was.ccnt);

	for (round = 0;; round++) {
		GUEST_SYNC6(round, was.cnt0, was.cnt1, was.ccnt, was.ovs, was.cnten);
		guest_read(&now);
		guest_check(&was, &now);
		/* Counting goes on where it was */
		write_sysreg(BIT(0) | BIT(1), pmswinc_el0);
		vperf_guest_spin();
		guest_read(&was);
		GUEST_ASSERT_EQ(was.cnt0, now.cnt0 + 1);
		GUEST_ASSERT_EQ(was.cnt1, now.cnt1 + 1);
	}
}

static void pin(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	TEST_ASSERT(!sched_setaffinity(0, sizeof(one), &one), "sched_setaffinity %d", cpu);
	TEST_ASSERT_EQ(sched_getcpu(), cpu);
}

/* Run the vCPU on cpu to its next ucall, the round-th: its check passed there */
static void run_on(struct vperf_test_vm *t, const char *name, int cpu, uint64_t round)
{
	struct ucall uc;

	pin(cpu);
	TEST_ASSERT(vperf_vm_run(t, &uc) == UCALL_SYNC, "%s: no ucall", name);
	TEST_ASSERT_EQ(uc.args[0], round);
	pr_info("flush: %s on CPU %d, round %lu: PMEVCNTR0 %lu, PMEVCNTR1 0x%lx, PMCCNTR %lu, "
		"PMOVSSET 0x%lx, PMCNTENSET 0x%lx\n",
		name, cpu, round, uc.args[1], uc.args[2], uc.args[3], uc.args[4], uc.args[5]);
}

/* Take a host CPU offline or bring it back (CONFIG_HOTPLUG_CPU) */
static void set_online(int cpu, bool on)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	TEST_ASSERT(fd >= 0, "open %s", path);
	TEST_ASSERT(write(fd, on ? "1" : "0", 1) == 1, "%s <- %d", path, on);
	close(fd);
}

/*
 * Run A on CPU 0 with CPU 1, where A is parked, offline; CPU 1 back online
 * before the verdict, so that a failure leaves the host's CPUs as they were.
 */
static void run_offline(struct vperf_test_vm *t, uint64_t round)
{
	struct ucall uc;
	uint64_t cmd;

	pin(0);
	set_online(1, false);
	vcpu_run(t->vcpu);
	set_online(1, true);
	cmd = get_ucall(t->vcpu, &uc);
	if (cmd == UCALL_ABORT) {
		pr_info("flush: A did not find its PMU as it left it in CPU 1, taken offline\n");
		REPORT_GUEST_ASSERT(uc);
	}
	TEST_ASSERT(cmd == UCALL_SYNC, "A: no ucall");
	TEST_ASSERT_EQ(uc.args[0], round);
	pr_info("flush: A on CPU 0, CPU 1 offline, round %lu: PMEVCNTR0 %lu, PMEVCNTR1 0x%lx, "
		"PMCCNTR %lu, PMOVSSET 0x%lx, PMCNTENSET 0x%lx\n",
		round, uc.args[1], uc.args[2], uc.args[3], uc.args[4], uc.args[5]);
}

static void vm_start(struct vperf_test_vm *t, uint64_t incs, uint64_t base, uint64_t flag)
{
	vperf_vm_create(t, guest_code, NULL, 0);
	vcpu_args_set(t->vcpu, 3, incs, base, flag);
}

int main(void)
{
	struct vperf_test_vm a, b;
	cpu_set_t cpus;

	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PMU_V3));
	TEST_ASSERT(!sched_getaffinity(0, sizeof(cpus), &cpus), "sched_getaffinity");
	__TEST_REQUIRE(CPU_ISSET(0, &cpus) && CPU_ISSET(1, &cpus), "needs host CPUs 0 and 1");

	/* 1: A parked in CPU 0, then run on CPU 1, nothing run on CPU 0 between */
	vm_start(&a, 7, 0x1000, 1);
	run_on(&a, "A", 0, 0);
	run_on(&a, "A", 1, 1);
	/* 2: B takes CPU 1's counters from A, which then runs on CPU 0 */
	vm_start(&b, 3, 0x2000, VPERF_CYCLE_BIT);
	run_on(&b, "B", 1, 0);
	run_on(&a, "A", 0, 2);
	/* 3: B moved to CPU 0, where A is parked; A back to CPU 1 */
	run_on(&b, "B", 0, 1);
	run_on(&a, "A", 1, 3);
	/* 4: CPU 1 offline with A parked there, A on CPU 0; CPU 1 back, A on it */
	run_offline(&a, 4);
	run_on(&a, "A", 1, 5);
	run_on(&b, "B", 1, 2);

	vperf_vm_free(&b);
	vperf_vm_free(&a);
	pr_info("vperf_pmu_flush: every move found the PMU as the vCPU left it\n");
	return 0;
}
