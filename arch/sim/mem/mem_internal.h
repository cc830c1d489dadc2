/* SPDX-License-Identifier: MIT */
/* Simulated memory's internals shared by mem.c (pages, maps, walks) and mem_tlb.c (the TLB). */
#ifndef VPERF_SIM_MEM_INTERNAL_H
#define VPERF_SIM_MEM_INTERNAL_H

#include <sim/mem.h>

#include "../core/family.h"

/* mem_tlb.c: forget every cached translation (sim_mem_reset). */
void sim_mem_tlb_reset(void);

/* Told of every VTTBR_EL2.VMID change (sim_mem_set_vmid) with the VMID left behind. The SPE
 * family registers itself here at reset: memory stays below the SPE and never calls it by
 * name. sim_mem_reset() forgets the listener. */
typedef void (*sim_mem_vmid_listener)(unsigned int cpu, uint16_t old);
void sim_mem_set_vmid_listener(sim_mem_vmid_listener fn);

#endif /* VPERF_SIM_MEM_INTERNAL_H */
