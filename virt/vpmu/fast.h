/* SPDX-License-Identifier: MIT */
/*
 * The fast path (docs/performance.md), which the trap entry (../trap.c) tries first: the accesses a
 * perf-using guest makes all the time, from EL1, on a trapped-partition vPMU whose state is in this
 * pCPU's hardware, recognised from the syndrome itself (Rt masked out) and answered on the
 * spot: counter reads, PMOVSSET_EL0, PMSWINC_EL0 and PMEVTYPER<n>_EL0 writes. Everything else,
 * and every case where a check would refuse or count something (EL0 and its PMUSERENR_EL0 rights, a
 * counter at or above the guest's N, RES0 bits written as 1, a state not yet in the hardware, the
 * other partitions), returns false and the trap entry takes the full path (regs.c), which decides
 * it. It is a view of the full path, not a second implementation: the syndrome is decoded by the
 * full path's decoder (vperf/esr.h: the ISS of an exception from MSR, MRS or System instruction
 * execution, EC 0x18, in the ESR_EL2 description of Arm DDI 0487 K.a), a write's RES0 bits come
 * from the full path's rule (res0.h), and tests/unit/test_trap_fast_vs_full.c holds every answer
 * it gives against the full path's (../trap.h) from the same state.
 *
 * Inline, for the trap entry alone (its one includer): there the fast path costs no call and
 * no frame of its own, and an access it leaves goes on to the full path as a tail call. The
 * increment loop of PMSWINC_EL0 is out of line (swinc.c).
 */
#ifndef VPERF_VIRT_VPMU_FAST_H
#define VPERF_VIRT_VPMU_FAST_H

#include <arch/sysreg.h>
#include <vperf/esr.h>

#include "../log.h"
#include "../ops.h"
#include "filter.h"
#include "res0.h"
#include "vpmu.h"

/* PMEVCNTR<n>_EL0 / PMEVTYPER<n>_EL0 for every n: the syndrome's CRm[1:0] and Op2 (vperf/esr.h). */
#define ESR_PMEV_IDX (0x3u << ESR_ISS_CRM_SHIFT | 0x7u << ESR_ISS_OP2_SHIFT)

static inline bool fast_write(struct vperf_vcpu *vcpu, uint32_t key, uint64_t val, unsigned int n,
			      unsigned int el)
{
	if ((key & ~ESR_PMEV_IDX) == VPERF_ESR_SYSREG(VPERF_ENC_PMEVTYPER0_EL0, 0) &&
	    n < vcpu->vm->cfg.nr_counters &&
	    !(val & vpmu_res0(VPERF_SLOT_PMEVTYPER, vperf_sysregs[VPERF_SR_PMEVTYPER0_EL0].res0))) {
		/* write_evtyper() in the trapped partition: what a trapped guest keeps
		 * (vperf_vpmu_evtyper_keep), and its counter n is physical counter n. */
		vcpu->pmu.evtyper[n] = val & vperf_vpmu_type_trapped();
		write_pmevtyper(n, vpmu_hw_type_trapped(vcpu, vcpu->pmu.evtyper[n]));
		return true;
	}
	if (key == VPERF_ESR_SYSREG(VPERF_ENC_PMSWINC_EL0, 0))
		return vperf_vpmu_fast_swinc(vcpu, val, el);
	return false;
}

static inline bool fast_read(struct vperf_vcpu *vcpu, uint32_t key, uint64_t *val, unsigned int n)
{
	if (key == VPERF_ESR_SYSREG(VPERF_ENC_PMCCNTR_EL0, 1))
		*val = read_sysreg(PMCCNTR_EL0);
	else if ((key & ~ESR_PMEV_IDX) == VPERF_ESR_SYSREG(VPERF_ENC_PMEVCNTR0_EL0, 1) &&
		 n < vcpu->vm->cfg.nr_counters)
		*val = vpmu_counter_bits(read_pmevcntr(n));
	else if (key == VPERF_ESR_SYSREG(VPERF_ENC_PMOVSSET_EL0, 1))
		/* vperf_vpmu_ovs() in the trapped partition: guest bit n is physical bit n. */
		*val = vcpu->pmu.ovs | (read_sysreg(PMOVSSET_EL0) & vpmu_mask(vcpu));
	else
		return false;
	return true;
}

static inline bool vperf_vpmu_fast_access(struct vperf_vcpu *vcpu, uint64_t esr, uint64_t gprs[31])
{
	uint32_t key = (uint32_t)esr & ~ESR_RT_MASK;
	unsigned int rt = vperf_esr_sysreg_rt(esr), n = vperf_esr_pmev_index(esr);
	const struct vperf_hyp_ops *ops = vperf_ops; /* read once: two calls through it */
	uint64_t val = 0;
	unsigned int el;

	/* In the hardware means loaded (acquire at or after load, save at put): pcpu is set. */
	if (!vpmu_in_hw(vcpu) || vcpu->vm->cfg.partition != VPERF_PART_TRAPPED)
		return false;
	el = ops->guest_el(vcpu->hv_vcpu);
	if (el == 0)
		return false;
	if (key & 1u) {
		if (!fast_read(vcpu, key, &val, n))
			return false;
		if (rt != ESR_RT_XZR)
			gprs[rt] = val;
	} else if (!fast_write(vcpu, key, rt == ESR_RT_XZR ? 0 : gprs[rt], n, el)) {
		return false;
	}
	STAT_INC(&vcpu->vm->stats, traps);
	ops->advance_pc(vcpu->hv_vcpu);
	return true;
}

#endif /* VPERF_VIRT_VPMU_FAST_H */
