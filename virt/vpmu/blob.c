// SPDX-License-Identifier: MIT
/*
 * The vPMU's words of a vCPU's blob (3-73, the layout: ../blob.c): saved from the shadow, checked
 * on restore against what the guest could have left, applied. Without CONFIG_VPERF_VPMU every
 * VM's PMU is OFF (vperf_vm_init refuses any other mode), its words stay 0, and ../blob.c checks
 * that they are.
 */
#include "../blob_layout.h"
#include "vpmu.h"

void vperf_vpmu_blob_fill(const struct vperf_vcpu *vcpu, uint64_t *w)
{
	const struct vperf_vpmu *s = &vcpu->pmu;
	const uint64_t regs[8] = { s->pmcr,    s->cnten, s->inten,   s->ovs,
				   s->userenr, s->selr,	 s->ccfiltr, s->ccntr };

	for (unsigned int i = 0; i < 8; i++)
		w[W_REGS + i] = regs[i];
	for (unsigned int n = 0; n < VPERF_PMU_MAX_COUNTERS; n++) {
		w[W_TYPES + n] = s->evtyper[n];
		w[W_COUNTERS + n] = s->evcntr[n];
	}
	w[W_FLAGS] = s->active ? FLAG_ACTIVE : 0;
}

/* Values a guest could have left: the same masks the register emulation applies. */
bool vperf_vpmu_blob_ok(const struct vperf_vcpu *vcpu, const uint64_t *w)
{
	uint64_t mask = vpmu_mask(vcpu);
	uint64_t width = vperf_vpmu_wide_counters() ? ~0ull : 0xffffffffull;
	unsigned int nr = vcpu->vm->cfg.nr_counters;

	if ((w[W_REGS] & ~vperf_vpmu_pmcr_keep(vcpu)) || (w[W_REGS + 1] & ~mask) ||
	    (w[W_REGS + 2] & ~mask) || (w[W_REGS + 3] & ~mask) ||
	    (w[W_REGS + 4] & ~vpmu_userenr_keep(vcpu)) || w[W_REGS + 5] > 31 ||
	    (w[W_REGS + 6] & ~vperf_vpmu_evtyper_keep(vcpu, VPERF_CYCLE_IDX)))
		return false;
	for (unsigned int n = 0; n < VPERF_PMU_MAX_COUNTERS; n++) {
		uint64_t type = w[W_TYPES + n], count = w[W_COUNTERS + n];

		if (n >= nr ? type || count
			    : (type & ~vperf_vpmu_evtyper_keep(vcpu, n)) || (count & ~width))
			return false;
	}
	return true;
}

/* The interrupt line is pushed at the next load, whatever the destination's vGIC holds
 * (vperf_vpmu_reset sets irq_dirty). */
void vperf_vpmu_blob_apply(struct vperf_vcpu *vcpu, const uint64_t *w)
{
	struct vperf_vpmu *s = &vcpu->pmu;

	vperf_vpmu_reset(vcpu);
	s->pmcr = w[W_REGS];
	s->cnten = w[W_REGS + 1];
	s->inten = w[W_REGS + 2];
	s->ovs = w[W_REGS + 3];
	vpmu_set_userenr(s, w[W_REGS + 4]);
	s->selr = w[W_REGS + 5];
	s->ccfiltr = w[W_REGS + 6];
	s->ccntr = w[W_REGS + 7];
	for (unsigned int n = 0; n < VPERF_PMU_MAX_COUNTERS; n++) {
		s->evtyper[n] = w[W_TYPES + n];
		s->evcntr[n] = w[W_COUNTERS + n];
	}
	s->active = w[W_FLAGS] & FLAG_ACTIVE;
}
