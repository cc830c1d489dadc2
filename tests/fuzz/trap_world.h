/* SPDX-License-Identifier: MIT */
/*
 * The trap fuzzer's world (trap_world.c): what an input decodes to (the PE, the host's and the
 * agent's ranges, the VMs, the ops of the schedule), setting it up on the model, and the checks
 * that hold after every step whatever the guests do.
 */
#ifndef VPERF_TRAP_WORLD_H
#define VPERF_TRAP_WORLD_H

#include "../unit/hv.h"

#define MAX_VMS	  3
#define MAX_VCPUS 4
#define MAX_OPS	  64
#define MAX_OBS	  1024

enum op_kind { OP_ENTER, OP_LEAVE, OP_ACCESS, OP_RAW, OP_RUN, OP_IRQ, OP_ROUNDTRIP, OP_RESET };

struct op {
	uint8_t kind, vcpu, cpu, el, read, rt;
	uint32_t enc;
	uint64_t a, b;
};

struct world {
	struct sim_pe_config model;
	struct vperf_pcpu_config pcfg;
	struct vperf_vm_config vm[MAX_VMS];
	unsigned int nr_vms, nr_vcpus, vm_of[MAX_VCPUS];
	bool agent_flag; /* the agent's first counter has overflowed, its interrupt enabled */
	bool cpu1_late;	 /* pCPU 1 comes up at the schedule's first op on it (trap_cpu_up) */
	bool up[2];	 /* which of the schedule's two pCPUs are up */
	struct op ops[MAX_OPS];
	unsigned int nr_ops;
};

extern struct world world;

/* Decode an input into world; false for a world no PE could have (its ranges do not fit). */
bool trap_decode(const uint8_t *data, size_t size);
/* The model, vperf and the VMs of world, on a fresh test hypervisor (tests/unit/hv.c). */
void trap_init_world(void);
/* No model error, no interrupt storm, the host's and the agent's registers as the host left
 * them. */
void trap_check_world(void);
/* pCPU cpu up if it is not yet: vperf_pcpu_init, the host's boot, counters and SPE buffer. */
void trap_cpu_up(unsigned int cpu);

/* trap_spe.c: the vSPE part of the world. */
/* A PE with SPE for two of the eight PE choices of the first byte; true if so. */
bool trap_spe_pe(uint8_t b);
/* VM v's SPE policy from its partition byte (only on a PE with SPE). */
void trap_spe_vm(uint8_t p, struct vperf_vm_config *c, unsigned int v);
bool trap_spe_policy_valid(const struct vperf_vm_config *c);
/* After the pCPUs, before the VMs: buffers, the host's buffer, the model's choices fixed. */
void trap_spe_init(void);
/* The host's buffer on a pCPU that came up late (its vperf_pcpu_init done). */
void trap_spe_cpu_up(unsigned int cpu);
void trap_spe_vcpu(struct hv_vcpu *vc, unsigned int i);
/* Where VM vm's code runs (0 without SPE). */
uint64_t trap_spe_pc(unsigned int vm);
/* A guest MSR value as the harness lets it through. */
uint64_t trap_spe_guest_value(uint32_t enc, uint64_t val);
/* The guest's SPE driver: start (a & 1) or stop, which reads PMBPTR_EL1 and PMBSR_EL1. */
void trap_spe_driver(uint64_t a, uint64_t seen[2]);
/* No record of a VM's operation outside its own buffer (or, profiled from outside, the host's
 * with its id); no model error. */
void trap_spe_check_records(void);

#endif
