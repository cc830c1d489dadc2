// SPDX-License-Identifier: MIT
/*
 * The EC=0x18 trap entry: decode the syndrome once, look the encoding up in the register
 * database, and let one perform_access() do the GPR plumbing, UNDEF injection and PC advance.
 * Register handlers (one per database slot) arrive with the vPMU and vSPE modules; a slot
 * without a handler is UNDEF, which is the architectural outcome for a PMU the VM does not have
 * (XENPMU_MODE_OFF).
 */
#include <vperf/id_regs.h>

#include "access.h"
#include "log.h"
#include "ops.h"
#include "trap.h"

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

/* A version field of the ID_AA64DFR0_EL1 the VM is shown (vperf_vcpu_id_dfr0), asked with a
 * hardware value that has every version: what the VM is shown is then vperf's and the
 * platform's limits alone. */
static unsigned int shown_version(const struct vperf_vcpu *vcpu, uint64_t mask, unsigned int shift)
{
	uint64_t all = (uint64_t)ID_DFR0_PMUVER_V3P9 << ID_DFR0_PMUVER_SHIFT | ID_DFR0_PMSVER_MASK;

	return (unsigned int)((vperf_vcpu_id_dfr0(vcpu, all) & mask) >> shift);
}

/*
 * The database's feature column, evaluated once for every register handler: a register of a
 * feature the VM's ID registers do not show is UNDEFINED to it (Arm DDI 0487 K.a, each register's
 * accessibility pseudocode in D24.5: "if !IsFeatureImplemented(...) then UNDEFINED"). PMMIR_EL1
 * exists from PMUv3p4 (ID_AA64DFR0_EL1.PMUVer), PMZR_EL0 and PMUACR_EL1 from PMUv3p9, above the
 * PMUv3p5 a VM is shown; PMSNEVFR_EL1 from SPEv1p2 (PMSVer); PMICNTR_EL0 and PMICFILTR_EL0
 * (FEAT_PMUv3_ICNTR, ID_AA64DFR1_EL1) and PMSDSFR_EL1 (FEAT_SPE_FDS, PMSIDR_EL1.FDS) are never
 * shown (vperf_vcpu_id_dfr1, vspe/regs.c). PMUv3 and SPE themselves: whether the VM has a vPMU
 * or a vSPE is its family's handler's to say.
 */
static bool feature_shown(const struct vperf_vcpu *vcpu, enum vperf_sysreg_feat feat)
{
	switch (feat) {
	case VPERF_FEAT_PMUV3P4:
		return shown_version(vcpu, ID_DFR0_PMUVER_MASK, ID_DFR0_PMUVER_SHIFT) >=
		       ID_DFR0_PMUVER_V3P4;
	case VPERF_FEAT_PMUV3P9:
		return shown_version(vcpu, ID_DFR0_PMUVER_MASK, ID_DFR0_PMUVER_SHIFT) >=
		       ID_DFR0_PMUVER_V3P9;
	case VPERF_FEAT_SPEV1P2:
		return shown_version(vcpu, ID_DFR0_PMSVER_MASK, ID_DFR0_PMSVER_SHIFT) >=
		       ID_DFR0_PMSVER_V1P2;
	case VPERF_FEAT_PMUV3_ICNTR:
	case VPERF_FEAT_SPE_FDS:
		return false;
	default:
		return true;
	}
}

enum vperf_trap_result vperf_perform_access(struct vperf_vcpu *vcpu,
					    const struct vperf_sysreg_desc *desc,
					    const struct vperf_esr_sysreg *a, uint64_t gprs[31],
					    vperf_access_fn fn)
{
	struct vperf_access acc = { .desc = desc, .enc = a->enc, .read = a->read, .val = 0 };

	if (!fn || !direction_exists(desc, a->read) || !feature_shown(vcpu, desc->feat))
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
 * path's accesses pay for none of its frame; external, so that a test can hold the fast path's
 * every answer against it (trap.h). */
enum vperf_trap_result __attribute__((noinline))
vperf_handle_sysreg_full(struct vperf_vcpu *vcpu, uint64_t esr, uint64_t gprs[31])
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
	return vperf_handle_sysreg_full(vcpu, esr, gprs);
}
