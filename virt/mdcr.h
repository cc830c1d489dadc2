/* SPDX-License-Identifier: MIT */
/* MDCR_EL2 as vperf composes, caches and writes it (mdcr.c); its fields: vperf/mdcr.h. */
#ifndef VPERF_VIRT_MDCR_H
#define VPERF_VIRT_MDCR_H

#include <arch/sysreg.h>
#include <vperf/mdcr.h>
#include <vperf/vperf.h>

/*
 * MDCR_EL2 (mdcr.c, the one file that decides its value). A vCPU's value is cached with the pCPU
 * and the configuration epoch it was computed for; every vperf_init, vperf_pcpu_init and
 * vperf_vm_init starts a new epoch.
 */
void vperf_mdcr_new_epoch(void);
extern uint32_t vperf_mdcr_epoch;
/* The host's MDCR_EL2 while no vCPU runs on pcpu (pcpu->hpmn and cfg set). */
uint64_t vperf_mdcr_host(const struct vperf_pcpu *pcpu);
/* False, logged, when the hypervisor's host_mdcr sets a field the PE does not implement. */
bool vperf_mdcr_host_ok(const struct vperf_pcpu *pcpu);
/* Recompute the loaded vCPU's MDCR_EL2 and write it if it changed: its trap state changed. */
void vperf_update_mdcr(struct vperf_vcpu *vcpu);
/* Write MDCR_EL2 (and remember it): the value differs from the pCPU's last one. */
void vperf_mdcr_write(struct vperf_pcpu *pcpu, uint64_t mdcr);

/* MDCR_EL2 = mdcr, written only when it differs from the last value; inline for the switch, the
 * write too (vperf_mdcr_write's). */
static inline void vperf_mdcr_set(struct vperf_pcpu *pcpu, uint64_t mdcr)
{
	if (pcpu->cur_mdcr != mdcr) {
		write_sysreg(mdcr, MDCR_EL2);
		pcpu->cur_mdcr = mdcr;
	}
}

/* pcpu->cur_mdcr when vperf does not know MDCR_EL2 (before its first write; with
 * hyp_writes_mdcr, after the hypervisor's own write at its exit): the next write is never
 * skipped. A value no MDCR_EL2 holds (RES0 fields set). */
#define VPERF_MDCR_UNKNOWN (~0ull)

/* VPERF_PART_SECOND: the MDCR_EL2_SECOND_FIELDS its PMCR_EL0 gives (HPME, HLP). */
uint64_t vperf_mdcr_second(const struct vperf_vcpu *vcpu);

/* Compute the loaded vCPU's MDCR_EL2 into vcpu->mdcr (and cache it), without writing it. */
void vperf_mdcr_compute(struct vperf_vcpu *vcpu);

/* At load, in two steps so that the vPMU can act between the value and its write (vcpu.c):
 * vcpu->mdcr is the value computed last time, when nothing it depends on changed since: the
 * same pCPU, no pCPU or VM (re)initialised (the epoch), and the vCPU's trap state (direct PMU,
 * direct SPE buffer), whose every change either recomputes it (vperf_update_mdcr) or marks it
 * stale (vperf_mdcr_stale); then it is written only when it differs from the pCPU's. Inline, on
 * every load's path. */
static inline void vperf_mdcr_refresh(struct vperf_vcpu *vcpu)
{
	if (vcpu->mdcr_pcpu != vcpu->pcpu || vcpu->mdcr_epoch != vperf_mdcr_epoch)
		vperf_mdcr_compute(vcpu);
}

static inline void vperf_mdcr_load(struct vperf_vcpu *vcpu)
{
	struct vperf_pcpu *pcpu = vcpu->pcpu;

	if (pcpu->cur_mdcr != vcpu->mdcr)
		vperf_mdcr_write(pcpu, vcpu->mdcr);
}

/*
 * The host gets its MDCR_EL2 back only where it matters at EL2: HPME (whether its counters
 * count), and E2PB when it owns a Profiling Buffer of its own (host_spe, saved: its buffer must
 * be EL2's again before it is restored). The vCPU's trap bits stay, as they act on EL1/EL0 only,
 * where an EL2 hypervisor runs no code of its own; a host that does (host_el1) gets its full
 * value back. Inline: the common put (a vCPU of a VM without SPE, HPME the host's) only
 * compares.
 */
static inline void vperf_mdcr_put(struct vperf_pcpu *pcpu)
{
	if (pcpu->cfg.host_el1 || ((pcpu->cur_mdcr ^ pcpu->host_mdcr) & MDCR_EL2_HPME) ||
	    pcpu->spe.host_saved)
		vperf_mdcr_set(pcpu, pcpu->host_mdcr);
}

/* After a put that wrote the host's MDCR_EL2 where it had to (vperf_mdcr_put): with
 * hyp_writes_mdcr the hypervisor writes its own host value next, which vperf does not know. */
static inline void vperf_mdcr_handed(struct vperf_pcpu *pcpu)
{
	if (pcpu->cfg.hyp_writes_mdcr)
		pcpu->cur_mdcr = VPERF_MDCR_UNKNOWN;
}

/* A lazy put's MDCR_EL2 (vcpu.c, no SPE): nothing to write before the hypervisor's own host value
 * with hyp_writes_mdcr (the guest's counters count nothing at EL2 meanwhile, NSH = 0), else
 * vperf_mdcr_put's. */
static inline void vperf_mdcr_put_lazy(struct vperf_pcpu *pcpu)
{
	if (pcpu->cfg.hyp_writes_mdcr) {
		pcpu->cur_mdcr = VPERF_MDCR_UNKNOWN;
		return;
	}
	vperf_mdcr_put(pcpu);
}

/* The quick load back's MDCR_EL2 (vcpu.c): with hyp_writes_mdcr the hypervisor writes it next,
 * vperf_pcpu_mdcr(), before the guest runs, and vperf_mdcr_put_lazy left cur_mdcr unknown,
 * which it stays (vperf's next write is not skipped); else vperf writes it when it differs. */
static inline void vperf_mdcr_load_quick(struct vperf_pcpu *pcpu, const struct vperf_vcpu *vcpu)
{
	if (!pcpu->cfg.hyp_writes_mdcr)
		vperf_mdcr_set(pcpu, vcpu->mdcr);
}

/* One of the vCPU's MDCR_EL2 inputs changed while it is not loaded (its trap state, e.g. at
 * put): its next load computes the value again instead of reusing the cached one. */
static inline void vperf_mdcr_stale(struct vperf_vcpu *vcpu)
{
	vcpu->mdcr_pcpu = NULL;
}

#endif /* VPERF_VIRT_MDCR_H */
