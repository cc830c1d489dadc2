/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the project's own KVM selftests share (integrations/kvm/selftest.sh
 * builds them with KVM's selftest library of the same kernel source): a VM
 * of one vCPU with PMUv3, set up as a VMM would, and the guest's accessors.
 */
#ifndef VPERF_SELFTEST_H
#define VPERF_SELFTEST_H

#include <kvm_util.h>
#include <processor.h>
#include <test_util.h>
#include <ucall_common.h>
#include <vgic.h>
#include <perf/arm_pmuv3.h>

/* The cycle counter's bit in PMCNTENSET_EL0 and the other counter masks */
#define VPERF_CYCLE_BIT 31

struct vperf_test_vm {
	struct kvm_vm *vm;
	struct kvm_vcpu *vcpu;
	struct kvm_vcpu *other; /* with two vCPUs: the second, PMU interrupt set */
	int gic_fd;
};

/* The PMU interrupt on PPI irq, as for every vCPU of the VM */
static inline void vperf_vcpu_set_irq(struct kvm_vcpu *vcpu, uint64_t irq)
{
	struct kvm_device_attr attr = {
		.group = KVM_ARM_VCPU_PMU_V3_CTRL,
		.attr = KVM_ARM_VCPU_PMU_V3_IRQ,
		.addr = (uint64_t)&irq,
	};

	vcpu_ioctl(vcpu, KVM_SET_DEVICE_ATTR, &attr);
}

/*
 * A VM of nr_vcpus (1 or 2) vCPUs with PMUv3, their PMU interrupt on PPI
 * irq, a vGICv3, and the event filters KVM_ARM_VCPU_PMU_V3_FILTER gets (nr
 * of them, in order); the PMU's init is the caller's (vperf_vm_init_pmu(),
 * the first vCPU's).
 */
static inline void vperf_vm_add(struct vperf_test_vm *t, void *guest_code,
				const struct kvm_pmu_event_filter *filters, int nr, uint64_t irq,
				int nr_vcpus)
{
	struct kvm_vcpu_init init;
	struct kvm_device_attr attr = {
		.group = KVM_ARM_VCPU_PMU_V3_CTRL,
	};
	int i;

	t->vm = vm_create(nr_vcpus);
	vm_ioctl(t->vm, KVM_ARM_PREFERRED_TARGET, &init);
	init.features[0] |= 1 << KVM_ARM_VCPU_PMU_V3;
	t->vcpu = aarch64_vcpu_add(t->vm, 0, &init, guest_code);
	t->other = nr_vcpus > 1 ? aarch64_vcpu_add(t->vm, 1, &init, guest_code) : NULL;
	t->gic_fd = vgic_v3_setup(t->vm, nr_vcpus, 64);
	__TEST_REQUIRE(t->gic_fd >= 0, "Failed to create vgic-v3, skipping");

	vperf_vcpu_set_irq(t->vcpu, irq);
	if (t->other)
		vperf_vcpu_set_irq(t->other, irq);
	for (i = 0; i < nr; i++) {
		attr.attr = KVM_ARM_VCPU_PMU_V3_FILTER;
		attr.addr = (uint64_t)&filters[i];
		vcpu_ioctl(t->vcpu, KVM_SET_DEVICE_ATTR, &attr);
	}
}

/* KVM_ARM_VCPU_PMU_V3_INIT: the PMU's attributes are fixed from here on */
static inline void vperf_vm_init_pmu(struct vperf_test_vm *t)
{
	struct kvm_device_attr attr = {
		.group = KVM_ARM_VCPU_PMU_V3_CTRL,
		.attr = KVM_ARM_VCPU_PMU_V3_INIT,
	};

	vcpu_ioctl(t->vcpu, KVM_SET_DEVICE_ATTR, &attr);
}

/* Both, as a VMM that sets nothing else does */
static inline void vperf_vm_create_irq(struct vperf_test_vm *t, void *guest_code,
				       const struct kvm_pmu_event_filter *filters, int nr,
				       uint64_t irq)
{
	vperf_vm_add(t, guest_code, filters, nr, irq, 1);
	vperf_vm_init_pmu(t);
}

/* The same on PPI 23 (QEMU's) */
static inline void vperf_vm_create(struct vperf_test_vm *t, void *guest_code,
				   const struct kvm_pmu_event_filter *filters, int nr)
{
	vperf_vm_create_irq(t, guest_code, filters, nr, 23);
}

static inline void vperf_vm_free(struct vperf_test_vm *t)
{
	close(t->gic_fd);
	kvm_vm_free(t->vm);
}

/* Run the vCPU to its next ucall: a guest's assertion fails the test. */
static inline uint64_t vperf_vm_run(struct vperf_test_vm *t, struct ucall *uc)
{
	vcpu_run(t->vcpu);
	switch (get_ucall(t->vcpu, uc)) {
	case UCALL_ABORT:
		REPORT_GUEST_ASSERT(*uc);
		break;
	case UCALL_SYNC:
	case UCALL_DONE:
		break;
	default:
		TEST_FAIL("Unknown ucall %lu", uc->cmd);
	}
	return uc->cmd;
}

/*
 * The guest: counters 0 and 1 through their own registers (PMUv3), those
 * of enable (PMCNTENSET_EL0's bits) counting
 */
static inline void vperf_guest_program_on(uint64_t type0, uint64_t type1, uint64_t enable)
{
	write_sysreg(type0, pmevtyper0_el0);
	write_sysreg(type1, pmevtyper1_el0);
	write_sysreg(0, pmccfiltr_el0);
	write_sysreg(enable, pmcntenset_el0);
	/* Counting starts from zero */
	write_sysreg(ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C | ARMV8_PMU_PMCR_E, pmcr_el0);
	isb();
}

/* Both counters and the cycle counter */
static inline void vperf_guest_program(uint64_t type0, uint64_t type1)
{
	vperf_guest_program_on(type0, type1, BIT(0) | BIT(1) | BIT(VPERF_CYCLE_BIT));
}

/* Some time at EL1 for the cycle counters to count */
static inline void vperf_guest_spin(void)
{
	int i;

	for (i = 0; i < 100000; i++)
		asm volatile("nop");
	isb();
}

/* A busy wait of ticks of the generic timer's virtual count, no exit asked for */
static inline void vperf_guest_wait(uint64_t ticks)
{
	uint64_t start = read_sysreg(cntvct_el0);

	while (read_sysreg(cntvct_el0) - start < ticks)
		;
}

#endif /* VPERF_SELFTEST_H */
