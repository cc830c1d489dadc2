/* SPDX-License-Identifier: MIT */
/*
 * Simulated memory's internals shared by mem.c (pages, maps, walks), mem_phys.c (physical pages)
 * and mem_tlb.c (the TLB).
 *
 * Why its files call each other (an include/call circle, on purpose): the family is one component
 * of the model, one unit of the PE that the Arm ARM's pseudocode describes as a whole, split into
 * files by subject only to keep each short. mem.c is its entry (core/family.h) and calls mem_phys.c
 * and mem_tlb.c to reset them; they call back its hash and walks (sim_mem_hash, sim_mem_translate).
 * Every call stays inside the family; nothing outside it is called back, and a layering inside it
 * would only put that one state behind a second interface.
 */
#ifndef VPERF_SIM_MEM_INTERNAL_H
#define VPERF_SIM_MEM_INTERNAL_H

#include <sim/mem.h>

#include "../core/family.h"

/* The tables' hash: a slot in [0, slots), slots a power of two (mem.c, mem_phys.c). */
static inline uint32_t sim_mem_hash(uint64_t page, uint32_t salt, uint32_t slots)
{
	uint64_t h = (page ^ ((uint64_t)salt << 40)) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) & (slots - 1);
}

/* The 4 KB pages [addr, addr + size) touches (mem.c). */
uint64_t sim_mem_pages_spanned(uint64_t addr, uint64_t size);

/* mem_phys.c: free every page and its abort flag (sim_mem_reset). */
void sim_mem_phys_reset(void);

/* mem_tlb.c: forget every cached translation (sim_mem_reset). */
void sim_mem_tlb_reset(void);

/* Told of every VTTBR_EL2.VMID change (sim_mem_set_vmid) with the VMID left behind. The SPE
 * family registers itself here at reset: memory stays below the SPE and never calls it by
 * name. sim_mem_reset() forgets the listener. */
typedef void (*sim_mem_vmid_listener)(unsigned int cpu, uint16_t old);
void sim_mem_set_vmid_listener(sim_mem_vmid_listener fn);

#endif /* VPERF_SIM_MEM_INTERNAL_H */
