/* SPDX-License-Identifier: MIT */
/*
 * The physical interrupts' entry points of the vperf API (vperf/vperf.h includes it): the
 * hypervisor's PMUIRQ and PMBIRQ handlers call them on the CPU that took the interrupt, and only
 * on VPERF_SPE_IRQ_HOST may its own SPE driver touch the SPE registers.
 */
#ifndef VPERF_IRQ_H
#define VPERF_IRQ_H

#include <vperf/config.h>
#include <vperf/types.h>

struct vperf_pcpu;

#ifdef CONFIG_VPERF_VPMU
/* Physical PMUIRQ entry on the calling CPU. Overflow flags of host counters are cleared and
 * handed to ops->host_pmu_overflow; those of the vCPU owning the first range move to its
 * virtual PMOVSSET and raise its virtual PPI. Returns true if any flag was handled. With
 * host_first_range the host's flags are left to its EL1 driver (the line stays up meanwhile). */
bool vperf_handle_pmu_irq(struct vperf_pcpu *pcpu);
#else
static inline bool vperf_handle_pmu_irq(struct vperf_pcpu *pcpu)
{
	(void)pcpu;
	return false;
}
#endif

/* Whose physical PMBIRQ it was. HOST is 0, so a caller that tests the result as a truth value
 * leaves the SPE registers alone in both guest cases. */
enum vperf_spe_irq {
	/* No guest's SPE state is in this pCPU's hardware: the host's own buffer (or nobody's).
	 * The host serves it; vperf touched nothing. */
	VPERF_SPE_IRQ_HOST = 0,
	/* The loaded guest's buffer event, taken: a stage-2 fault mapped and profiling resumed, or
	 * the event moved into its virtual PMBSR and its virtual PPI raised; the hardware PMBSR_EL1
	 * is clear, the line low. */
	VPERF_SPE_IRQ_GUEST = 1,
	/* A guest's SPE state is live in the hardware but PMBSR_EL1.S is clear, or the host's
	 * buffer is saved around a loaded vCPU with vSPE: no event (taken already, or spurious;
	 * counted as spe_stray). The SPE registers are not the host's: it must not touch them. A
	 * host event saved at load raises PMBIRQ again at put. */
	VPERF_SPE_IRQ_GUEST_NONE = 2,
};

#ifdef CONFIG_VPERF_VSPE
/* Physical PMBIRQ entry on the calling CPU: classify it (enum vperf_spe_irq) and take the loaded
 * guest's event. Only on VPERF_SPE_IRQ_HOST may the host touch the SPE registers. */
enum vperf_spe_irq vperf_handle_spe_irq(struct vperf_pcpu *pcpu);
#else
static inline enum vperf_spe_irq vperf_handle_spe_irq(struct vperf_pcpu *pcpu)
{
	(void)pcpu;
	return VPERF_SPE_IRQ_HOST;
}
#endif

#endif /* VPERF_IRQ_H */
