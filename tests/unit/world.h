/* SPDX-License-Identifier: MIT */
/*
 * A world of test_isolation_worlds, drawn from a seed: the pCPUs (each its own model
 * configuration and vperf_pcpu_config), the VMs (each its own policy and put), their vCPUs, the
 * order in which pCPUs and VMs are brought up (interleaved), and a schedule (slots: a vCPU runs
 * some steps of its program on a pCPU, perhaps put after, and the pCPU perhaps powered down then). A shrink (struct w_shrink) removes
 * parts of a drawn world and simplifies policies; a seed and a shrink, printed as one string,
 * reproduce a world exactly (HV_WORLD=...).
 */
#ifndef VPERF_TEST_WORLD_H
#define VPERF_TEST_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hv.h"

#define W_MAX_CPUS  SIM_MAX_CPUS
#define W_MAX_VMS   6
#define W_MAX_VCPUS HV_MAX_VCPUS
#define W_MAX_SLOTS 128
#define W_STEPS	    16 /* program steps of a vCPU at most */

struct w_cpu {
	bool present;
	const char *profile; /* the core profile its PMU and SPE are (sim/profiles.h), or NULL */
	struct sim_pe_config pe;
	struct vperf_pcpu_config pc;
};

struct w_vm {
	bool present;
	struct vperf_vm_config cfg;
	enum hv_put put;
};

struct w_slot {
	uint8_t vcpu, cpu, burst;
	bool leave; /* put after the burst, then the host runs its own code there */
	bool down;  /* after the leave: the pCPU powers down and comes back (draw_downs) */
};

struct world {
	uint64_t seed;
	bool e2h; /* every pCPU's HCR_EL2.E2H: a VHE host (draw_e2h) */
	unsigned int nr_cpus, nr_vms, nr_vcpus, nr_order, nr_slots, steps;
	struct w_cpu cpu[W_MAX_CPUS];
	struct w_vm vm[W_MAX_VMS];
	uint8_t vcpu_vm[W_MAX_VCPUS];
	bool vcpu_present[W_MAX_VCPUS];
	uint8_t order[W_MAX_CPUS + W_MAX_VMS]; /* bring-up: a pCPU, or W_ORDER_VM | a VM */
	/* 1 + a pCPU that the bring-up skips, brought up before slot late_at instead, after
	 * vCPUs ran (hotplug); 0: none (draw_late). */
	uint8_t late, late_at;
	struct w_slot slot[W_MAX_SLOTS];
	bool slot_present[W_MAX_SLOTS];
};
#define W_ORDER_VM 0x80

/* What a shrink removed (bit n: pCPU, VM, vCPU, slot n) and simplified. */
struct w_shrink {
	uint32_t cpus, vms, vcpus;
	uint64_t slots[W_MAX_SLOTS / 64];
	unsigned int steps;		/* program steps, 0: as drawn */
	uint32_t vm_simple;		/* 4 bits per VM: W_SIMPLE_* */
	uint32_t cpu_simple;		/* 4 bits per pCPU: W_CPU_SIMPLE_* */
	uint64_t ups[W_MAX_SLOTS / 64]; /* slot n's power-down taken out */
};
enum {
	W_SIMPLE_NO_SPE = 1,  /* no vSPE */
	W_SIMPLE_EAGER = 2,   /* every put eager */
	W_SIMPLE_ALLOW = 4,   /* every event allowed, default virtual PPIs */
	W_SIMPLE_TRAPPED = 8, /* the trapped partition, all its counters its own (no emu_slots) */
	W_CPU_SIMPLE_NO_HOST_SPE = 1,
	W_CPU_SIMPLE_NO_AGENT = 2, /* no external agent's range */
	W_CPU_SIMPLE_ENFORCED = 4, /* hpmn_unenforced not declared */
	W_CPU_SIMPLE_FEATURES = 8, /* FEAT_FGT and FEAT_HPMN0 */
};

void world_draw(uint64_t seed, struct world *w);
void world_apply(struct world *w, const struct w_shrink *s);
/* "SEED" or "SEED:cpus=..,vms=..,vcpus=..,slots=..:..,steps=..,vs=..,cs=..[,ups=..:..]" (hex
 * masks). */
bool world_parse(const char *text, uint64_t *seed, struct w_shrink *s);
void world_format(char *buf, size_t len, uint64_t seed, const struct w_shrink *s);
/* The world in words, one line per pCPU, VM and bring-up, then the schedule. */
void world_describe(const struct world *w);

#endif
