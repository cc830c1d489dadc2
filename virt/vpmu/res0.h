/* SPDX-License-Identifier: MIT */
/*
 * The RES0 rule of the guest's PMU registers, one for both paths of the trap entry: the full path
 * (regs.c) counts and logs a write that sets one of these bits and ignores them; the fast path
 * (fast.h) leaves such a write to the full path. A RES0 bit written as 1 has no effect but
 * reading it back is UNKNOWN/0 (Arm DDI 0487 K.a, "RES0"); vperf keeps it 0.
 */
#ifndef VPERF_VIRT_VPMU_RES0_H
#define VPERF_VIRT_VPMU_RES0_H

#include "vpmu.h"

/*
 * The RES0 bits of a register of handler family slot as this VM's PEs have it: the database's
 * (db_res0, bits RES0 in every version), plus the fields of features vperf does not offer: for
 * an event type the event-number bits the PMU lacks (evtCount[15:10] before PMUv3p1,
 * PMEVTYPER<n>_EL0 in I5.3.30), for PMUSERENR_EL0 UEN, IR and TID (vpmu.h). Inline, with the
 * family a constant at the fast path's call: there it folds to one mask.
 */
static inline uint64_t vpmu_res0(enum vperf_slot slot, uint64_t db_res0)
{
	switch (slot) {
	case VPERF_SLOT_PMEVTYPER:
	case VPERF_SLOT_PMXEVTYPER:
		return db_res0 | (PMEVTYPER_EVT & ~vperf_vpmu_type_trapped());
	case VPERF_SLOT_PMUSERENR:
		return db_res0 | ~VPMU_USERENR_WRITABLE;
	default:
		return db_res0;
	}
}

/* The same for a register of the database. */
static inline uint64_t vpmu_res0_of(const struct vperf_sysreg_desc *desc)
{
	return vpmu_res0((enum vperf_slot)desc->slot, desc->res0);
}

#endif /* VPERF_VIRT_VPMU_RES0_H */
