/* SPDX-License-Identifier: MIT */
/* What vperf counted: per VM (vperf_vm_stats()) and per pCPU (events no VM is accountable for).
 * Zero when CONFIG_VPERF_STATS is off. Included by vperf/vperf.h. */
#ifndef VPERF_STATS_H
#define VPERF_STATS_H

#include <vperf/types.h>

struct vperf_stats {
	uint64_t traps;		  /* sysreg traps handled (emulated or UNDEF) */
	uint64_t undef;		  /* UNDEFs injected */
	uint64_t unknown_enc;	  /* accesses to encodings the database does not hold */
	uint64_t bad_value;	  /* guest writes with RES0 bits set or out-of-range values */
	uint64_t host_overflows;  /* PMU overflows of host counters passed to the host */
	uint64_t stray_overflows; /* overflow flags of counters nobody owns, cleared */
	uint64_t agent_overflows; /* PMUIRQs raised by the external agent's range [EPMN, N): its
				   * flags are not vperf's to clear, their interrupt enables are */
	uint64_t spurious_irqs;	  /* PMUIRQ entries on a pCPU without a PMUv3 (nothing read) */
	uint64_t misuse;	  /* API misuse by the hypervisor (a load without a put; per VM:
				   * vCPU MDCR_EL2 bits that are not the hypervisor's) */
	uint64_t refused;	  /* vperf_pcpu_init refused this pCPU: it cannot give an existing
				   * VM its policy (logged with the reason) */
	uint64_t spe_el3;	  /* vperf_pcpu_init found SPE whose buffer EL3 keeps (PMBIDR_EL1.P
				   * = 1 at EL2, MDCR_EL3.NSPB): no SPE here for vperf (logged) */
	uint64_t spe_events;	  /* Profiling Buffer events shown to the guest (virtual PMBSR) */
	uint64_t spe_s2_fixed;	  /* stage-2 faults on a guest's buffer mapped by the hypervisor */
	uint64_t spe_dl;	  /* of spe_events, those with data lost (PMBSR.DL) */
	uint64_t spe_live_puts;	  /* puts that drained a live buffer (the switch's full cost) */
	uint64_t spe_stray;	  /* PMBIRQs with no event, registers not the host's */
	uint64_t spe_bytes;	  /* bytes of records the hardware wrote into the guests' buffers:
				   * the write pointer's advance as vperf sees it (docs/vspe.md) */
};

#endif /* VPERF_STATS_H */
