// SPDX-License-Identifier: GPL-2.0-only
/*
 * vperf_pmu_view - the PMU a VMM reads through ONE_REG is the guest's
 *
 * The VMM lowers ID_AA64DFR0_EL1.PMUVer by one before the first run and
 * leaves ID_DFR0_EL1.PerfMon as KVM made it. A guest programs its PMU
 * (SW_INCR seven times on counter 0, CPU_CYCLES on counter 1 and the
 * cycle counter, an interrupt enable, an overflow flag, PMSELR_EL0,
 * PMUSERENR_EL0), stops it and reports every register and the ID
 * registers: the PMU registers' ONE_REG ids must read the same, and
 * so must the ID registers, whose PMU fields must describe one PMU:
 * PerfMon the PMUVer the guest reads (in PerfMon's encoding), PMICNTR of
 * ID_AA64DFR1_EL1 0 (vperf gives no instruction counter). Then the VMM
 * writes PMEVCNTR0_EL0, PMSELR_EL0 and PMUSERENR_EL0 and the guest must
 * read those values. With kvm-arm.vperf=1 (vperf's blob in the register
 * list) the ids are vperf's state: a write of PMCNTENCLR_EL0 sets the
 * enables to its value, as a write back of what was read. With
 * kvm-arm.vperf=0 the ids are KVM's own emulation, whose PerfMon is not
 * lowered with PMUVer (printed, not judged) and whose CLR clears bits.
 * With kvm-arm.vperf_spe=1 in the host's command line, a VM whose PMU
 * interrupt is the SPE one's (PPI 21) is one vperf refuses: its KVM_RUN
 * must fail with EINVAL, each time, instead of running on KVM's own PMU.
 * A VM with EL2 (kvm-arm.mode=nested) must be refused: this kernel lets
 * no VMM create one.
 */
#include <linux/bitfield.h>

#include "vperf_host.h"
#include "vperf_selftest.h"

#ifndef KVM_REG_ARM_VPERF_BLOB
#define KVM_REG_ARM_VPERF_BLOB_BASE 0x0100
#define KVM_REG_ARM_VPERF_BLOB(n)   KVM_REG_ARM_FW_REG(KVM_REG_ARM_VPERF_BLOB_BASE + (n))
#endif

#define SW_INCR	   ARMV8_PMUV3_PERFCTR_SW_INCR
#define CPU_CYCLES ARMV8_PMUV3_PERFCTR_CPU_CYCLES
#define REG(name)  KVM_ARM64_SYS_REG(SYS_##name)

static void guest_code(void)
{
	int i;

	vperf_guest_program(SW_INCR, CPU_CYCLES);
	write_sysreg(BIT(1), pmintenset_el1);
	write_sysreg(BIT(2), pmovsset_el0);
	write_sysreg(1, pmselr_el0);
	write_sysreg(ARMV8_PMU_USERENR_EN, pmuserenr_el0);
	for (i = 0; i < 7; i++)
		write_sysreg(BIT(0), pmswinc_el0);
	vperf_guest_spin();
	write_sysreg(0, pmcr_el0); /* stopped: the counts hold */
	isb();
	GUEST_SYNC6(read_sysreg(pmcr_el0), read_sysreg(pmcntenset_el0), read_sysreg(pmintenset_el1),
		    read_sysreg(pmovsset_el0), read_sysreg(pmuserenr_el0), read_sysreg(pmselr_el0));
	GUEST_SYNC6(read_sysreg(pmevtyper0_el0), read_sysreg(pmevtyper1_el0),
		    read_sysreg(pmccfiltr_el0), read_sysreg(pmevcntr0_el0),
		    read_sysreg(pmevcntr1_el0), read_sysreg(pmccntr_el0));
	GUEST_SYNC3(read_sysreg_s(SYS_ID_AA64DFR0_EL1), read_sysreg_s(SYS_ID_DFR0_EL1),
		    read_sysreg_s(SYS_ID_AA64DFR1_EL1));
	/* What the VMM wrote meanwhile */
	GUEST_SYNC4(read_sysreg(pmevcntr0_el0), read_sysreg(pmselr_el0), read_sysreg(pmuserenr_el0),
		    read_sysreg(pmcntenset_el0));
	GUEST_DONE();
}

static const char *const names[][6] = {
	{ "PMCR_EL0", "PMCNTENSET_EL0", "PMINTENSET_EL1", "PMOVSSET_EL0", "PMUSERENR_EL0",
	  "PMSELR_EL0" },
	{ "PMEVTYPER0_EL0", "PMEVTYPER1_EL0", "PMCCFILTR_EL0", "PMEVCNTR0_EL0", "PMEVCNTR1_EL0",
	  "PMCCNTR_EL0" },
	{ "ID_AA64DFR0_EL1", "ID_DFR0_EL1", "ID_AA64DFR1_EL1" },
};

static const uint64_t ids[][6] = {
	{ REG(PMCR_EL0), REG(PMCNTENSET_EL0), REG(PMINTENSET_EL1), REG(PMOVSSET_EL0),
	  REG(PMUSERENR_EL0), REG(PMSELR_EL0) },
	{ REG(PMEVTYPERn_EL0(0)), REG(PMEVTYPERn_EL0(1)), REG(PMCCFILTR_EL0), REG(PMEVCNTRn_EL0(0)),
	  REG(PMEVCNTRn_EL0(1)), REG(PMCCNTR_EL0) },
	{ REG(ID_AA64DFR0_EL1), REG(ID_DFR0_EL1), REG(ID_AA64DFR1_EL1) },
};

/* The guest's report k: each value it read must be what ONE_REG reads */
static void check_report(struct vperf_test_vm *t, int k, int nr)
{
	struct ucall uc;
	uint64_t val;
	int i;

	TEST_ASSERT(vperf_vm_run(t, &uc) == UCALL_SYNC, "no report %d", k);
	for (i = 0; i < nr; i++) {
		vcpu_get_reg(t->vcpu, ids[k][i], &val);
		pr_info("view: %s guest 0x%lx, ONE_REG 0x%lx\n", names[k][i], uc.args[i], val);
		TEST_ASSERT(val == uc.args[i], "%s: the guest read 0x%lx, ONE_REG 0x%lx",
			    names[k][i], uc.args[i], val);
	}
	if (k == 1)
		TEST_ASSERT_EQ(uc.args[3], 7);
}

/* PerfMon of the PMUVer p (ID_DFR0_EL1: PMUv3 is 3 there, later versions the same) */
static uint64_t perfmon_of(uint64_t p)
{
	return p == ID_AA64DFR0_EL1_PMUVer_IMP ? ID_DFR0_EL1_PerfMon_PMUv3 : p;
}

/* The ID registers' PMU fields describe one PMU, with vperf */
static void check_ids(struct vperf_test_vm *t, bool vperf)
{
	uint64_t dfr0, aa32, dfr1, pmuver, perfmon;

	vcpu_get_reg(t->vcpu, REG(ID_AA64DFR0_EL1), &dfr0);
	vcpu_get_reg(t->vcpu, REG(ID_DFR0_EL1), &aa32);
	vcpu_get_reg(t->vcpu, REG(ID_AA64DFR1_EL1), &dfr1);
	pmuver = FIELD_GET(ID_AA64DFR0_EL1_PMUVer_MASK, dfr0);
	perfmon = FIELD_GET(ID_DFR0_EL1_PerfMon_MASK, aa32);
	pr_info("view: PMUVer %lu, PerfMon %lu (ID_DFR0_EL1 0x%lx), PMICNTR %lu\n", pmuver, perfmon,
		aa32, FIELD_GET(ID_AA64DFR1_EL1_PMICNTR_MASK, dfr1));
	if (!vperf)
		return;
	TEST_ASSERT(!FIELD_GET(ID_AA64DFR1_EL1_PMICNTR_MASK, dfr1), "PMICNTR shown");
	if (!aa32) {
		pr_info("view: ID_DFR0_EL1 RAZ (no AArch32): no PerfMon to judge\n");
		return;
	}
	TEST_ASSERT(perfmon == perfmon_of(pmuver), "PerfMon %lu, PMUVer %lu: two PMUs", perfmon,
		    pmuver);
	pr_info("view: one PMU in the ID registers\n");
}

/* PMUVer one lower than KVM offers, PerfMon left as KVM made it */
static void lower_pmuver(struct vperf_test_vm *t)
{
	uint64_t dfr0, pmuver;

	vcpu_get_reg(t->vcpu, REG(ID_AA64DFR0_EL1), &dfr0);
	pmuver = FIELD_GET(ID_AA64DFR0_EL1_PMUVer_MASK, dfr0);
	if (pmuver <= ID_AA64DFR0_EL1_PMUVer_V3P1)
		return;
	dfr0 &= ~ID_AA64DFR0_EL1_PMUVer_MASK;
	dfr0 |= FIELD_PREP(ID_AA64DFR0_EL1_PMUVer_MASK, pmuver - 1);
	vcpu_set_reg(t->vcpu, REG(ID_AA64DFR0_EL1), dfr0);
	pr_info("view: the VMM lowered PMUVer to %lu\n", pmuver - 1);
}

static bool vperf_in_list(struct kvm_vcpu *vcpu)
{
	struct kvm_reg_list *list = vcpu_get_reg_list(vcpu);
	bool found = false;
	uint64_t i;

	for (i = 0; i < list->n; i++)
		found |= list->reg[i] == KVM_REG_ARM_VPERF_BLOB(0);
	free(list);
	return found;
}

/* The VMM's writes, as the guest reads them */
static void check_writes(struct vperf_test_vm *t, bool vperf)
{
	uint64_t enables = BIT(0) | BIT(VPERF_CYCLE_BIT);
	struct ucall uc;

	vcpu_set_reg(t->vcpu, REG(PMEVCNTRn_EL0(0)), 1000);
	vcpu_set_reg(t->vcpu, REG(PMSELR_EL0), 3);
	vcpu_set_reg(t->vcpu, REG(PMUSERENR_EL0), 0);
	vcpu_set_reg(t->vcpu, REG(PMCNTENCLR_EL0), enables);
	TEST_ASSERT(vperf_vm_run(t, &uc) == UCALL_SYNC, "no report of the writes");
	pr_info("view: after the VMM's writes PMEVCNTR0 %lu, PMSELR %lu, PMUSERENR 0x%lx, "
		"PMCNTENSET 0x%lx\n",
		uc.args[0], uc.args[1], uc.args[2], uc.args[3]);
	TEST_ASSERT_EQ(uc.args[0], 1000);
	TEST_ASSERT_EQ(uc.args[1], 3);
	TEST_ASSERT_EQ(uc.args[2], 0);
	/* vperf: the value, whole; KVM's own: the bits cleared (its others UNKNOWN at reset) */
	if (vperf)
		TEST_ASSERT_EQ(uc.args[3], enables);
	else
		TEST_ASSERT_EQ(uc.args[3] & (enables | BIT(1)), BIT(1));
	pr_info("view: the VMM's writes reached the guest\n");
}

/* A VM vperf refuses fails its KVM_RUN, the first and the next */
static void check_refused(void)
{
	struct vperf_test_vm t;
	int i, ret;

	vperf_vm_create_irq(&t, guest_code, NULL, 0, 21);
	for (i = 0; i < 2; i++) {
		ret = __vcpu_run(t.vcpu);
		TEST_ASSERT(ret == -1 && errno == EINVAL,
			    "KVM_RUN of a VM vperf refuses: %d, errno %d", ret, errno);
	}
	vperf_vm_free(&t);
	pr_info("view: a VM vperf refuses (PMU and SPE on PPI 21): KVM_RUN EINVAL\n");
}

/*
 * A VM with EL2 (kvm-arm.mode=nested on a CPU with FEAT_NV2): its guest
 * hypervisor's MDCR_EL2 would partition the PMU for its own guests, which
 * vperf does not emulate. This kernel lets no VMM create one (its
 * KVM_VCPU_MAX_FEATURES leaves KVM_ARM_VCPU_HAS_EL2 out), so vperf needs
 * no refusal of its own: the test fails where a VMM gets one, which a
 * kernel that exposes nested virtualization must meet with vperf refusing
 * such a VM.
 */
static void check_nested(void)
{
	struct kvm_vm *vm = vm_create(1);
	struct kvm_vcpu_init init;
	struct kvm_vcpu *vcpu;
	int ret;

	vm_ioctl(vm, KVM_ARM_PREFERRED_TARGET, &init);
	init.features[0] |= BIT(KVM_ARM_VCPU_PMU_V3) | BIT(KVM_ARM_VCPU_HAS_EL2);
	vcpu = __vm_vcpu_add(vm, 0);
	ret = __vcpu_ioctl(vcpu, KVM_ARM_VCPU_INIT, &init);
	TEST_ASSERT(ret == -1 && errno == ENOENT, "a VM with EL2 under vperf: %d, errno %d", ret,
		    errno);
	kvm_vm_free(vm);
	pr_info("view: no VM with EL2 on this host (KVM_ARM_VCPU_INIT: ENOENT)\n");
}

int main(void)
{
	struct vperf_test_vm t;
	struct ucall uc;
	bool vperf;

	TEST_REQUIRE(kvm_has_cap(KVM_CAP_ARM_PMU_V3));

	vperf_vm_create(&t, guest_code, NULL, 0);
	vperf = vperf_in_list(t.vcpu);
	pr_info("view: the PMU registers are %s\n", vperf ? "vperf's" : "KVM's own");
	lower_pmuver(&t);
	check_report(&t, 0, 6);
	check_report(&t, 1, 6);
	check_report(&t, 2, 3);
	check_ids(&t, vperf);
	check_writes(&t, vperf);
	TEST_ASSERT(vperf_vm_run(&t, &uc) == UCALL_DONE, "not done");
	vperf_vm_free(&t);
	vperf_cmdline_read();
	if (vperf && vperf_cmdline_has("kvm-arm.vperf_spe=1"))
		check_refused();
	if (vperf)
		check_nested();
	pr_info("vperf_pmu_view: ONE_REG reads and writes the guest's PMU\n");
	return 0;
}
