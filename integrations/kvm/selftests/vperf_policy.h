/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A VM's vperf policy for our tests (patch 42): the series' attribute
 * KVM_ARM_VCPU_PMU_V3_VPERF set and read through a vCPU, and what the
 * host's kernel parameters make a new VM's policy and let a VMM ask for.
 */
#ifndef VPERF_POLICY_H
#define VPERF_POLICY_H

#include "vperf_host.h"
#include "vperf_selftest.h"

/* The series' UAPI (the tests build with the unpatched source's headers) */
#ifndef KVM_ARM_VCPU_PMU_V3_VPERF
#define KVM_ARM_VCPU_PMU_V3_VPERF 0x100
struct kvm_arm_vperf_policy {
	__u8 partition;
	__u8 emu_slots;
	__u8 mode;
	__u8 spe;
	__u8 reserved[12];
};

#define KVM_ARM_VPERF_PARTITION_TRAPPED	 0
#define KVM_ARM_VPERF_PARTITION_DIRECT	 1
#define KVM_ARM_VPERF_PARTITION_EMULATED 2
#define KVM_ARM_VPERF_MODE_SELF		 0
#define KVM_ARM_VPERF_MODE_HV		 1
#endif

/* KVM_SET_DEVICE_ATTR of the policy through vcpu: 0 or its errno */
static inline int vperf_policy_set_on(struct kvm_vcpu *vcpu, struct kvm_arm_vperf_policy *p)
{
	struct kvm_device_attr attr = {
		.group = KVM_ARM_VCPU_PMU_V3_CTRL,
		.attr = KVM_ARM_VCPU_PMU_V3_VPERF,
		.addr = (uint64_t)p,
	};

	return __vcpu_ioctl(vcpu, KVM_SET_DEVICE_ATTR, &attr) ? errno : 0;
}

static inline int vperf_policy_set(struct vperf_test_vm *t, struct kvm_arm_vperf_policy *p)
{
	return vperf_policy_set_on(t->vcpu, p);
}

static inline struct kvm_arm_vperf_policy vperf_policy_get(struct vperf_test_vm *t)
{
	struct kvm_arm_vperf_policy p;
	struct kvm_device_attr attr = {
		.group = KVM_ARM_VCPU_PMU_V3_CTRL,
		.attr = KVM_ARM_VCPU_PMU_V3_VPERF,
		.addr = (uint64_t)&p,
	};

	vcpu_ioctl(t->vcpu, KVM_GET_DEVICE_ATTR, &attr);
	return p;
}

/* kvm-arm.vperf_<name>'s value on the command line: its index in values, 0 absent */
static inline uint8_t vperf_policy_param(const char *name, const char *const *values, int nr)
{
	char word[64];
	int i;

	for (i = 1; i < nr; i++) {
		snprintf(word, sizeof(word), "kvm-arm.vperf_%s=%s", name, values[i]);
		if (vperf_cmdline_has(word))
			return i;
	}
	return 0;
}

/* What the kernel's parameters make a new VM's policy */
static inline struct kvm_arm_vperf_policy vperf_policy_default(bool vhe)
{
	static const char *const partitions[] = { "trapped", "direct", "emulated" };
	static const char *const modes[] = { "self", "hv" };
	struct kvm_arm_vperf_policy p = {
		.partition = vperf_policy_param("partition", partitions, 3),
		.mode = vhe ? KVM_ARM_VPERF_MODE_HV : vperf_policy_param("mode", modes, 2),
		.spe = vperf_cmdline_has("kvm-arm.vperf_spe=1"),
	};
	char word[64];
	int n;

	for (n = 1; n < 32; n++) {
		snprintf(word, sizeof(word), "kvm-arm.vperf_emu_slots=%d", n);
		if (vperf_cmdline_has(word))
			p.emu_slots = n;
	}
	return p;
}

/* What kvm-arm.vperf_vmm=... lets a VMM ask for beyond the default */
static inline bool vperf_vmm_may(const char *what)
{
	return vperf_cmdline_lists("kvm-arm.vperf_vmm=", what);
}

#endif
