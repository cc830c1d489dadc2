/* SPDX-License-Identifier: MIT */
/*
 * A test hypervisor on the executable model: vperf linked in the way an EL2 hypervisor links it.
 * Guest MSR/MRS that trap reach vperf_handle_sysreg; vperf's ops drive the model (UNDEF, PC
 * advance); the model's GIC takes the physical PMUIRQ to EL2 after the instruction or micro-op
 * that raised it and this hypervisor hands it to vperf_handle_pmu_irq (PMBIRQ to
 * vperf_handle_spe_irq). Each vCPU's virtual PMU interrupt line is recorded and driven through
 * the model's GIC virtual CPU interface: list register 0 holds the vCPU's virtual PPI (pending
 * when the line rises, withdrawn if it drops before the guest took it, re-pended at the EOI
 * maintenance interrupt while the line is still high), saved and restored with the vCPU; its
 * virtual SPE interrupt line is recorded.
 *
 * VM i runs with VMID i + 1 and stage 2 on (HCR_EL2.VM); its RAM, when hv_vm_ram() gave it some,
 * is mapped at stage 2 lazily, by vperf's stage2_map op (or up front by the test).
 */
#ifndef VPERF_TEST_HV_H
#define VPERF_TEST_HV_H

#include <sim/model.h>
#include <vperf/vperf.h>

#define HV_MAX_VMS   8
#define HV_MAX_VCPUS 8

/* How the hypervisor puts a vCPU: as HV_LAZY_PUT says (the default), always eagerly
 * (vperf_vcpu_put), always lazily (vperf_vcpu_put_lazy) or each put by a seeded draw. */
enum hv_put { HV_PUT_ENV, HV_PUT_EAGER, HV_PUT_LAZY, HV_PUT_MIXED };

struct hv_vcpu {
	struct vperf_vcpu v;
	unsigned int cpu; /* the simulated pCPU it last ran on */
	bool irq_level;	  /* its virtual PMU interrupt line */
	unsigned int irq_raises;
	uint64_t lr;	       /* list register 0 while it is not loaded */
	unsigned int virqs;    /* virtual PMU interrupts its guest took */
	bool defer_eoi;	       /* its guest handler leaves the interrupt active (hv_guest_eoi) */
	bool in_handler;       /* ... and one is active now */
	bool clear_in_handler; /* its guest handler clears PMOVSSET as Linux's does */
	bool spe_irq_level;    /* its virtual SPE buffer interrupt line */
	unsigned int spe_irq_raises;
	uint32_t contextidr; /* its CONTEXTIDR_EL1 and CNTVOFF_EL2 while it is not loaded */
	uint64_t cntvoff;
	bool put_lazily; /* its last put was vperf_vcpu_put_lazy (a promise to keep) */
	enum hv_put put; /* its hypervisor's put policy */
};

/* A VM's RAM: [ipa, ipa + size) is backed by [pa, pa + size). */
struct hv_mem {
	uint64_t ipa, pa, size;
	unsigned int s2_maps; /* pages mapped by stage2_map */
};

struct hv {
	struct sim_pe_config model;
	struct vperf_pcpu pcpu[SIM_MAX_CPUS];
	struct vperf_vm vm[HV_MAX_VMS];
	struct hv_vcpu vcpu[HV_MAX_VCPUS];
	struct hv_mem mem[HV_MAX_VMS];
	struct hv_vcpu *running[SIM_MAX_CPUS];
	unsigned int not_mine;	    /* traps vperf left to the hypervisor */
	unsigned int pmu_irqs;	    /* physical PMUIRQs taken */
	unsigned int spe_irqs;	    /* physical PMBIRQs taken */
	uint64_t host_ovs;	    /* host overflow flags reported */
	unsigned int irq_burst;	    /* PMUIRQs taken in a row so far with the line left high */
	unsigned int max_irq_burst; /* most PMUIRQs taken in a row with the line left high */
	unsigned int undefs, pc_advances; /* the ops' decisions, for traps the harness delivers */
	int raw_el;			  /* guest_el() during hv_raw_trap(), else -1 */
	bool lazy_put;	    /* puts are vperf_vcpu_put_lazy, and a vCPU loaded on another pCPU after
			* one has that pCPU flushed first, as its hypervisor must (HV_LAZY_PUT=1) */
	bool mixed_put;	    /* with lazy_put: each put lazy or eager by a seeded draw, and no flush
			     * after an eager put, which promised nothing (HV_LAZY_PUT=2) */
	uint64_t put_draws; /* the draws' generator */
	char last_log[160]; /* vperf's last log line */
	unsigned int nr_logs; /* vperf's log lines so far */
	/* The level of vperf's last log line. */
	enum vperf_log_level last_log_level;
	/* A hypervisor that writes MDCR_EL2 itself (its pCPUs' hyp_writes_mdcr, vperf/vperf.h):
	 * after every load vperf_pcpu_mdcr(), after every put its own host value, the pCPU's
	 * host_mdcr with these bits of its own (e.g. nVHE KVM's EL1-owned Profiling Buffer). */
	uint64_t hyp_host_bits;
	/* MDCR_EL2 as each pCPU's last vperf_vcpu_load left it, before the hypervisor's write. */
	uint64_t mdcr_after_load[SIM_MAX_CPUS];
	/* A mutated switch for the model to catch: CONTEXTIDR_EL1 and CNTVOFF_EL2 switched before
	 * the put instead of after it (include/vperf/hyp.h, the order of a switch). */
	bool late_put;
	/* HCR_EL2.E2H of every pCPU from its bring-up (hv_pcpu_up, before vperf_pcpu_init): a VHE
	 * host, whose switch runs at EL2 with E2H = 1 (and the guest's TGE = 0, as VHE KVM's world
	 * switch). From HV_E2H=1 in the environment, or hv_set_e2h() before the init. */
	bool e2h;
};

/* HCR_EL2.E2H for the next hv_init*: 0 or 1, or -1 for the environment's HV_E2H (the default). */
void hv_set_e2h(int e2h);

extern struct hv hv;

/* The model configuration hv_init(NULL, ...) uses: sim_default_config with the PMU version of
 * the environment's HV_PMUVER (default 6, PMUv3p5), and FEAT_FGT when HV_FGT is 1. */
uint8_t hv_default_pmuver(void);
/* The core profile HV_PROFILE names (sim/profiles.h), NULL without one. */
struct sim_core_profile;
const struct sim_core_profile *hv_profile(void);
void hv_default_config(struct sim_pe_config *cfg);
/* vperf offers a direct-partition policy on hv.model (PMUv3p5; FEAT_FGT where MT may count). */
bool hv_direct_offered(void);

/* Model with cfg (NULL: hv_default_config), vperf with the hypervisor's ops, every pCPU initialised
 * with host_counters counters kept by the host. */
void hv_init(const struct sim_pe_config *cfg, unsigned int host_counters);
/* What a host's boot code does for the counters it keeps, [HPMN, N), after vperf_pcpu_init:
 * clears their enables, flags, types and values (they reset to UNKNOWN). hv_init does it; a test
 * that calls vperf_pcpu_init again with another partition calls it too. */
void hv_host_boot(unsigned int cpu);
/* The same on a heterogeneous system: CPU n is configured by cfgs[n] (sim_model_init_cpus);
 * hv.model is cfgs[0]. */
void hv_init_cpus(const struct sim_pe_config cfgs[SIM_MAX_CPUS], unsigned int host_counters);
/* The same, every pCPU's host profiling with its own EL2-owned buffer when host_spe. */
void hv_init_host_spe(const struct sim_pe_config *cfg, unsigned int host_counters, bool host_spe);
/* The same in two parts, for a test that draws its system: the model with a configuration of
 * its own per CPU (sim_model_init_cpus) and vperf_init, no pCPU initialised; then each pCPU
 * brought up when the test wants (vperf_pcpu_init's result; the host's boot, the GIC and
 * HCR_EL2 set up whatever it is). */
void hv_init_model(const struct sim_pe_config cfgs[SIM_MAX_CPUS]);
int hv_pcpu_up(unsigned int cpu, const struct vperf_pcpu_config *pcfg);
/* pCPU cpu, no vCPU loaded there, powers down as vperf.h asks (vperf_pcpu_down at EL2) and comes
 * back with its PMU and SPE registers UNKNOWN (sim_power_cycle); bringing it up again
 * (hv_pcpu_up, or vperf_pcpu_init) is the caller's. Leaves cpu current. */
void hv_power_down(unsigned int cpu);
/* vperf_init and every vperf_pcpu_init again on the same model, with no VM: what the pCPUs
 * probe (ID registers, PMCEID) may have been changed with sim_poke since hv_init. */
void hv_restart_vperf(unsigned int host_counters);
/* The ops hv_init gives vperf_init, for a test that starts vperf again on the same model (a
 * pCPU initialised after a VM). */
const struct vperf_hyp_ops *hv_ops(void);
/* VM i with a policy; returns vperf_vm_init's result. */
int hv_vm(unsigned int i, const struct vperf_vm_config *cfg);
/* Give VM i RAM at [ipa, ipa + size) backed by pa, mapped at stage 2 on demand. */
void hv_vm_ram(unsigned int i, uint64_t ipa, uint64_t pa, uint64_t size);
/* vCPU i of VM vm. */
struct hv_vcpu *hv_vcpu(unsigned int i, unsigned int vm);

/* Switch the simulated pCPU to the vCPU (put whoever runs there, switch the VMID, CONTEXTIDR_EL1
 * and CNTVOFF_EL2 (with SPE in the model), load it), guest at EL1. */
void hv_enter(struct hv_vcpu *vc, unsigned int cpu);
/* Put the vCPU running on cpu, if any. */
void hv_leave(unsigned int cpu);
/* vperf_vcpu_load of the vCPU on cpu at EL2 and nothing else (no put first, no bookkeeping): the
 * hypervisor's misuses of the API, which vperf must report. The current pCPU stays 0. */
void hv_load_raw(struct hv_vcpu *vc, unsigned int cpu);
/* Run micro-ops in the vCPU running on the current pCPU. */
void hv_run(const struct sim_uop *ops, size_t n);
/* Poll points with no guest work until an asserted PMUIRQ has been taken (the model delays it,
 * enum sim_irq_latency): what the guest sees once the interrupt has arrived. */
void hv_settle(void);
/* The guest ends the virtual PMU interrupt its handler left active (ICV_EOIR1_EL1). */
void hv_guest_eoi(struct hv_vcpu *vc);
/* n copies of one op. */
void hv_run_n(const struct sim_uop *op, unsigned int n);
/* Deliver a raw EC=0x18 syndrome from the vCPU running on the current pCPU, as if its code at
 * el had trapped, straight to vperf_handle_sysreg (no model trap rules): for fuzzing the entry. */
enum vperf_trap_result hv_raw_trap(uint64_t esr, uint64_t gprs[31], unsigned int el);

#endif
