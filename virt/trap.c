// SPDX-License-Identifier: MIT
/*
 * The EC=0x18 trap entry: decode the syndrome once, look the encoding up in the register
 * database, and let one perform_access() do the GPR plumbing, UNDEF injection and PC advance.
 * Register handlers (one per database slot) arrive with the vPMU and vSPE modules; a slot
 * without a handler is UNDEF, which is the architectural outcome for a PMU the VM does not have
 * (XENPMU_MODE_OFF).
 */
#include "access.h"
#include "log.h"
#include "ops.h"

#include "vpmu/entry.h"
#include "vspe/entry.h"

#define VPMU(slot) [VPERF_SLOT_##slot] = VPERF_VPMU_ACCESS
#define VSPE(slot) [VPERF_SLOT_##slot] = VPERF_VSPE_ACCESS

/* Handler per database slot. NULL: UNDEF. */
static const vperf_access_fn slot_handlers[VPERF_SLOT_COUNT] = {
	VPMU(PMCR),	 VPMU(PMCNTEN),	  VPMU(PMINTEN),      VPMU(PMOVS),	VPMU(PMSWINC),
	VPMU(PMSELR),	 VPMU(PMCEID),	  VPMU(PMCCNTR),      VPMU(PMXEVTYPER), VPMU(PMXEVCNTR),
	VPMU(PMZR),	 VPMU(PMUSERENR), VPMU(PMMIR),	      VPMU(PMEVCNTR),	VPMU(PMEVTYPER),
	VPMU(PMCCFILTR), VSPE(SPE_PMSCR), VSPE(SPE_SAMPLING), VSPE(SPE_ID),	VSPE(SPE_BUFFER),
};

static enum vperf_trap_result undef(struct vperf_vcpu *vcpu)
{
	STAT_INC(&vcpu->vm->stats, undef);
	vperf_ops->inject_undef(vcpu->hv_vcpu);
	return VPERF_TRAP_UNDEF;
}

/* MRS of a write-only register or MSR of a read-only one is UNDEFINED (Arm DDI 0487 K.a, C5.2: the
 * register's accessibility pseudocode has no such direction). Hardware does not trap these; a
 * syndrome that claims one is treated as the instruction it names. */
static bool direction_exists(const struct vperf_sysreg_desc *desc, bool read)
{
	return (desc->access & (read ? VPERF_ACC_RO : VPERF_ACC_WO)) != 0;
}

enum vperf_trap_result vperf_perform_access(struct vperf_vcpu *vcpu,
					    const struct vperf_sysreg_desc *desc,
					    const struct vperf_esr_sysreg *a, uint64_t gprs[31],
					    vperf_access_fn fn)
{
	struct vperf_access acc = { .desc = desc, .enc = a->enc, .read = a->read, .val = 0 };

	if (!fn || !direction_exists(desc, a->read))
		return undef(vcpu);
	if (!a->read && a->rt != ESR_RT_XZR)
		acc.val = gprs[a->rt];
	if (!fn(vcpu, &acc))
		return undef(vcpu);
	if (a->read && a->rt != ESR_RT_XZR)
		gprs[a->rt] = acc.val;
	vperf_ops->advance_pc(vcpu->hv_vcpu);
	return VPERF_TRAP_HANDLED;
}

/* The full path: every access the fast path does not answer. Out of line, so that the fast
 * path's accesses pay for none of its frame. */
static enum vperf_trap_result __attribute__((noinline))
handle_full(struct vperf_vcpu *vcpu, uint64_t esr, uint64_t gprs[31])
{
	const struct vperf_sysreg_desc *desc;
	struct vperf_esr_sysreg a;

	if (!vperf_esr_decode_sysreg(esr, &a) || !vperf_sysreg_in_space(a.enc))
		return VPERF_TRAP_NOT_MINE;
	STAT_INC(&vcpu->vm->stats, traps);
	desc = vperf_sysreg_lookup_space(a.enc);
	if (!desc) {
		STAT_INC(&vcpu->vm->stats, unknown_enc);
		vperf_log_unknown_sysreg(vcpu->vm, &a);
		return undef(vcpu);
	}
	return vperf_perform_access(vcpu, desc, &a, gprs, slot_handlers[desc->slot]);
}

/* The fast path first (vpmu/fast.h, inline here), which answers the hottest accesses from the
 * syndrome; every access it leaves goes on to the full path (a tail call). */
enum vperf_trap_result vperf_handle_sysreg(struct vperf_vcpu *vcpu, uint64_t esr, uint64_t gprs[31])
{
	if (vperf_vpmu_fast_access(vcpu, esr, gprs))
		return VPERF_TRAP_HANDLED;
	return handle_full(vcpu, esr, gprs);
}
