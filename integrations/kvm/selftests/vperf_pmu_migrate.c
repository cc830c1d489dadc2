// SPDX-License-Identifier: GPL-2.0-only
/*
 * vperf_pmu_migrate - a vCPU's PMU state migrated through ONE_REG
 *
 * An unmodified VMM migrates a vCPU by saving every register
 * KVM_GET_REG_LIST names and writing them into a new vCPU. A guest counts
 * (five SW_INCR on counter 0, CPU_CYCLES on counter 1 and the cycle
 * counter, PMSELR_EL0 1) and stops at a ucall; every register of the list
 * but the core ones (the new guest runs its own code) is saved and
 * written into a second VM, in the list's order, and into a third, in the
 * reverse order: both guests must read the state the first one left,
 * before writing any PMU register, and count on from it (the sixth
 * SW_INCR reads 6). With kvm-arm.vperf=1 vperf's blob
 * (KVM_REG_ARM_VPERF_BLOB) must be in the list and carry it, in both
 * orders, KVM's PMU registers being written too. Then a corrupted blob (a
 * counter changed, its checksum not) must fail KVM_RUN with EINVAL and
 * leave the vCPU as it was: the blob reads the same, and the guest's
 * counter 0 still reads 6. Each save runs on another CPU than the one the
 * vCPU ran on, where a lazy put (kvm-arm.vperf_range=second) left its
 * counters: KVM must still find them.
 * With kvm-arm.vperf=0 (no blob) KVM's own PMU registers carry it, but
 * not exactly: KVM takes a write of PMCNTENSET_EL0 or PMCNTENCLR_EL0
 * through ONE_REG as the guest's, setting or clearing the bits it names
 * in a copy whose reset value is UNKNOWN, so the list's order (CLR after
 * SET) loses the enables and the reverse order keeps them among bits of
 * the reset value; that is checked as such, and the counters only in the
 * reverse order.
 */
#include <sched.h>

#include "vperf_selftest.h"

#ifndef KVM_REG_ARM_VPERF_BLOB
#define KVM_REG_ARM_VPERF_BLOB_BASE  0x0100
#define KVM_REG_ARM_VPERF_BLOB_WORDS 86
#define KVM_REG_ARM_VPERF_BLOB(n)    KVM_REG_ARM_FW_REG(KVM_REG_ARM_VPERF_BLOB_BASE + (n))
#endif
/* The blob's word of PMEVCNTR0_EL0 (vperf's virt/blob.c) */
#define BLOB_WORD_EVCNTR0 42

#define SW_INCR	   ARMV8_PMUV3_PERFCTR_SW_INCR
#define CPU_CYCLES ARMV8_PMUV3_PERFCTR_CPU_CYCLES
#define COUNTERS   (BIT(0) | BIT(1) | BIT(VPERF_CYCLE_BIT))

static void guest_count(void)
{
	int i;

	vperf_guest_program(SW_INCR, CPU_CYCLES);
	write_sysreg(1, pmselr_el0);
	for (i = 0; i < 5; i++)
		write_sysreg(BIT(0), pmswinc_el0);
	vperf_guest_spin();
	GUEST_SYNC6(read_sysreg(pmevcntr0_el0), read_sysreg(pmevcntr1_el0),
		    read_sysreg(pmccntr_el0), 0, 0, 0);
	GUEST_DONE();
}

/* The migrated guest: what it finds, then one more SW_INCR */
static void guest_check(void)
{
	GUEST_SYNC6(read_sysreg(pmcr_el0), read_sysreg(pmcntenset_el0), read_sysreg(pmselr_el0),
		    read_sysreg(pmevtyper0_el0), read_sysreg(pmevtyper1_el0), 0);
	GUEST_SYNC6(read_sysreg(pmevcntr0_el0), read_sysreg(pmevcntr1_el0),
		    read_sysreg(pmccntr_el0), 0, 0, 0);
	write_sysreg(BIT(0), pmswinc_el0);
	isb();
	GUEST_SYNC1(read_sysreg(pmevcntr0_el0));
	GUEST_SYNC1(read_sysreg(pmevcntr0_el0));
	GUEST_DONE();
}

/* The CPUs the test may run on */
static cpu_set_t cpus;

/*
 * Move the test off the CPU the vCPU just ran on (when it has another):
 * a lazy put left the vCPU's counters in that CPU's PMU.
 */
static void move_away(void)
{
	int ran = sched_getcpu(), cpu;
	cpu_set_t one;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (cpu == ran || !CPU_ISSET(cpu, &cpus))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		TEST_ASSERT(!sched_setaffinity(0, sizeof(one), &one), "sched_setaffinity");
		pr_info("reading on CPU %d, the vCPU ran on CPU %d\n", sched_getcpu(), ran);
		return;
	}
}

struct saved {
	struct kvm_reg_list *list;
	uint64_t *val;
	int blob_words;
};

/* The registers a VMM migrates: all but the core ones, U32 or U64 */
static bool migrated(uint64_t id)
{
	uint64_t size = id & KVM_REG_SIZE_MASK;

	return (id & KVM_REG_ARM_COPROC_MASK) != KVM_REG_ARM_CORE &&
	       (size == KVM_REG_SIZE_U32 || size == KVM_REG_SIZE_U64);
}

static bool is_blob(uint64_t id)
{
	return id >= KVM_REG_ARM_VPERF_BLOB(0) &&
	       id < KVM_REG_ARM_VPERF_BLOB(KVM_REG_ARM_VPERF_BLOB_WORDS);
}

static void save(struct kvm_vcpu *vcpu, struct saved *s)
{
	uint64_t i;

	s->list = vcpu_get_reg_list(vcpu);
	s->val = calloc(s->list->n, sizeof(*s->val));
	s->blob_words = 0;
	for (i = 0; i < s->list->n; i++) {
		if (!migrated(s->list->reg[i]))
			continue;
		vcpu_get_reg(vcpu, s->list->reg[i], &s->val[i]);
		s->blob_words += is_blob(s->list->reg[i]);
	}
}

static void restore(struct kvm_vcpu *vcpu, const struct saved *s, bool reverse)
{
	uint64_t k, i;
	int ret;

	for (k = 0; k < s->list->n; k++) {
		i = reverse ? s->list->n - 1 - k : k;
		if (!migrated(s->list->reg[i]))
			continue;
		ret = __vcpu_set_reg(vcpu, s->list->reg[i], s->val[i]);
		TEST_ASSERT(!ret, "KVM_SET_ONE_REG 0x%llx: errno %d", s->list->reg[i], errno);
	}
}

static void read_blob(struct kvm_vcpu *vcpu, uint64_t *w)
{
	int i;

	for (i = 0; i < KVM_REG_ARM_VPERF_BLOB_WORDS; i++)
		vcpu_get_reg(vcpu, KVM_REG_ARM_VPERF_BLOB(i), &w[i]);
}

static void write_blob(struct kvm_vcpu *vcpu, const uint64_t *w)
{
	int i;

	for (i = 0; i < KVM_REG_ARM_VPERF_BLOB_WORDS; i++)
		vcpu_set_reg(vcpu, KVM_REG_ARM_VPERF_BLOB(i), w[i]);
}

/* A refused blob fails KVM_RUN and changes nothing: the vCPU runs on. */
static void test_corrupt_blob(struct vperf_test_vm *t)
{
	uint64_t before[KVM_REG_ARM_VPERF_BLOB_WORDS];
	uint64_t bad[KVM_REG_ARM_VPERF_BLOB_WORDS];
	uint64_t after[KVM_REG_ARM_VPERF_BLOB_WORDS];
	struct ucall uc;
	int ret;

	move_away();
	read_blob(t->vcpu, before);
	memcpy(bad, before, sizeof(bad));
	bad[BLOB_WORD_EVCNTR0] = 1000;
	write_blob(t->vcpu, bad);
	ret = __vcpu_run(t->vcpu);
	TEST_ASSERT(ret == -1 && errno == EINVAL, "KVM_RUN with a corrupted blob: %d, errno %d",
		    ret, errno);
	read_blob(t->vcpu, after);
	TEST_ASSERT(!memcmp(before, after, sizeof(after)), "the refused blob changed the vCPU");
	TEST_ASSERT(vperf_vm_run(t, &uc) == UCALL_SYNC, "no counter");
	TEST_ASSERT_EQ(uc.args[0], 6);
	pr_info("corrupted blob refused: KVM_RUN EINVAL, the vCPU unchanged\n");
}

static void check_migrated(const struct saved *s, const uint64_t *src, bool reverse, bool corrupt)
{
	const char *order = reverse ? "reverse" : "list";
	struct vperf_test_vm t;
	struct ucall uc;

	vperf_vm_create(&t, guest_check, NULL, 0);
	restore(t.vcpu, s, reverse);

	TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_SYNC, "no state");
	TEST_ASSERT(uc.args[0] & ARMV8_PMU_PMCR_E, "PMCR_EL0 0x%lx", uc.args[0]);
	if (!s->blob_words) {
		pr_info("KVM's own registers in the %s order: PMCNTENSET_EL0 0x%lx\n", order,
			uc.args[1]);
		TEST_ASSERT_EQ(uc.args[1] & COUNTERS, reverse ? COUNTERS : 0);
		if (!reverse) {
			vperf_vm_free(&t);
			return;
		}
	} else {
		TEST_ASSERT_EQ(uc.args[1], COUNTERS);
	}
	TEST_ASSERT_EQ(uc.args[2], 1);
	TEST_ASSERT_EQ(uc.args[3] & 0xffff, SW_INCR);
	TEST_ASSERT_EQ(uc.args[4] & 0xffff, CPU_CYCLES);

	TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_SYNC, "no counters");
	pr_info("%s order: PMEVCNTR0 %lu (saved %lu), PMEVCNTR1 %lu (saved %lu), PMCCNTR %lu "
		"(saved %lu)\n",
		order, uc.args[0], src[0], uc.args[1], src[1], uc.args[2], src[2]);
	TEST_ASSERT_EQ(uc.args[0], src[0]);
	TEST_ASSERT(uc.args[1] >= src[1] && uc.args[2] >= src[2], "the cycle counts went back");

	TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_SYNC, "no increment");
	TEST_ASSERT_EQ(uc.args[0], src[0] + 1);

	if (corrupt)
		test_corrupt_blob(&t);
	else
		TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_SYNC, "no counter");
	TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_DONE, "not done");
	vperf_vm_free(&t);
}

int main(void)
{
	struct vperf_test_vm t;
	uint64_t src[3];
	struct saved s;
	struct ucall uc;

	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PMU_V3));
	TEST_ASSERT(!sched_getaffinity(0, sizeof(cpus), &cpus), "sched_getaffinity");

	vperf_vm_create(&t, guest_count, NULL, 0);
	TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_SYNC, "no counts");
	memcpy(src, uc.args, sizeof(src));
	TEST_ASSERT_EQ(src[0], 5);
	TEST_ASSERT(src[1] && src[2], "no cycles: %lu %lu", src[1], src[2]);
	move_away();
	save(t.vcpu, &s);
	pr_info("saved %llu registers, %d of them vperf's blob\n", s.list->n, s.blob_words);
	TEST_ASSERT(!s.blob_words || s.blob_words == KVM_REG_ARM_VPERF_BLOB_WORDS,
		    "a part of the blob listed: %d words", s.blob_words);
	vperf_vm_free(&t);

	check_migrated(&s, src, false, s.blob_words);
	check_migrated(&s, src, true, false);
	if (s.blob_words)
		pr_info("vperf blob: %d words migrated\n", s.blob_words);
	pr_info("vperf_pmu_migrate: the counters went on from the saved values\n");
	return 0;
}
