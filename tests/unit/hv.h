/* SPDX-License-Identifier: MIT */
/*
 * A test hypervisor on the executable model: vperf linked in the way an EL2 hypervisor links it.
 * Guest MSR/MRS that trap reach vperf_handle_sysreg; vperf's ops drive the model (UNDEF, PC
 * advance); the model's GIC takes the physical PMUIRQ to EL2 after the instruction or micro-op
 * that raised it and this hypervisor hands it to vperf_handle_pmu_irq;
 * each vCPU's virtual PMU interrupt line is recorded.
 */
#ifndef VPERF_TEST_HV_H
#define VPERF_TEST_HV_H

#include <sim/model.h>
#include <vperf/vperf.h>

#define HV_MAX_VMS   8
#define HV_MAX_VCPUS 8

struct hv_vcpu {
	struct vperf_vcpu v;
	unsigned int cpu; /* the simulated pCPU it last ran on */
	bool irq_level;	  /* its virtual PMU interrupt line */
	unsigned int irq_raises;
};

struct hv {
	struct sim_pe_config model;
	struct vperf_pcpu pcpu[SIM_MAX_CPUS];
	struct vperf_vm vm[HV_MAX_VMS];
	struct hv_vcpu vcpu[HV_MAX_VCPUS];
	struct hv_vcpu *running[SIM_MAX_CPUS];
	unsigned int not_mine;	    /* traps vperf left to the hypervisor */
	unsigned int pmu_irqs;	    /* physical PMUIRQs taken */
	uint64_t host_ovs;	    /* host overflow flags reported */
	unsigned int irq_burst;	    /* PMUIRQs taken in a row so far with the line left high */
	unsigned int max_irq_burst; /* most PMUIRQs taken in a row with the line left high */
	unsigned int undefs, pc_advances; /* the ops' decisions, for traps the harness delivers */
	int raw_el;			  /* guest_el() during hv_raw_trap(), else -1 */
	char last_log[160];		  /* vperf's last log line */
};

extern struct hv hv;

/* Model with cfg (NULL: defaults), vperf with the hypervisor's ops, every pCPU initialised
 * with host_counters counters kept by the host. */
void hv_init(const struct sim_pe_config *cfg, unsigned int host_counters);
/* VM i with a policy; returns vperf_vm_init's result. */
int hv_vm(unsigned int i, const struct vperf_vm_config *cfg);
/* vCPU i of VM vm. */
struct hv_vcpu *hv_vcpu(unsigned int i, unsigned int vm);

/* Switch the simulated pCPU to the vCPU (put whoever runs there, load it), guest at EL1. */
void hv_enter(struct hv_vcpu *vc, unsigned int cpu);
/* Put the vCPU running on cpu, if any. */
void hv_leave(unsigned int cpu);
/* Run micro-ops in the vCPU running on the current pCPU. */
void hv_run(const struct sim_uop *ops, size_t n);
/* n copies of one op. */
void hv_run_n(const struct sim_uop *op, unsigned int n);
/* Deliver a raw EC=0x18 syndrome from the vCPU running on the current pCPU, as if its code at
 * el had trapped, straight to vperf_handle_sysreg (no model trap rules): for fuzzing the entry. */
enum vperf_trap_result hv_raw_trap(uint64_t esr, uint64_t gprs[31], unsigned int el);

#endif
