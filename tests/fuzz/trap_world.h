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

#endif
