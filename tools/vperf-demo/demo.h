/* SPDX-License-Identifier: MIT */
/* vperf-demo's two halves: the vPMU story (demo.c) and each tenant's SPE session (demo_spe.c). */
#ifndef VPERF_DEMO_H
#define VPERF_DEMO_H

#include <stdbool.h>
#include <stdint.h>

#include <sim/model.h>

/* Tenant i's buffer mapped at both stages (VMID i + 1). */
void demo_spe_map(unsigned int i);
/* In the loaded tenant: program and enable SPE as arm_spe_pmu does. */
void demo_spe_start(void);
/* In the loaded tenant: stop, decode and print its profile; true when every record is its own. */
bool demo_spe_report(unsigned int i, const char *name, uint64_t code);
/* Where demo_spe_report leaves each tenant's raw buffer ("DIR/guest-A.spe"); NULL: nowhere. */
extern const char *demo_spe_dir;
/* Every record the model wrote was decoded from a tenant's buffer, none discarded. */
bool demo_spe_nothing_lost(void);

#endif
