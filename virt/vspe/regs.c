// SPDX-License-Identifier: MIT
/*
 * Emulation of the guest's SPE registers. MDCR_EL2.TPMS = 1 traps every PMS* access and
 * MDCR_EL2.E2PB = 0b10 every PMB* access (SPE 3.2.3 CheckStatisticalProfilingAccess, SPE 3.4.6
 * CheckProfilingBufferAccess). The shadow is the truth for every control; while the state is in the
 * hardware (the guest's buffer is enabled), each write is mirrored there (a sampling control
 * only when the hardware holds another value, hwctl.h), and PMSICR_EL1 and
 * PMBPTR_EL1, which the profiling operation changes, are read from there. PMBSR_EL1 is virtual: the
 * hardware's events reach it through vperf_vspe_take_event (switch.c). Field rules: SPE 4.3.
 */
#include <arch/sysreg.h>
#include <vperf/id_regs.h>

#include "../log.h"
#include "../mdcr.h"
#include "../ops.h"
#include "../vm_config.h"
#include "hwctl.h"

/* ID_AA64DFR0_EL1.PMSVer a VM with SPE sees: the hardware's, no more than any pCPU it may run on
 * has, at most SPEv1p2. */
unsigned int vperf_vspe_pmsver(uint64_t hw_dfr0)
{
	unsigned int v = (unsigned int)VPERF_FIELD_GET(hw_dfr0, 35, 32);

	if (v > vperf_vspe_min_pmsver())
		v = vperf_vspe_min_pmsver();
	return v > VSPE_MAX_PMSVER ? VSPE_MAX_PMSVER : v;
}

/* PMSIDR_EL1 (SPE 4.3.11) with only the fields the VM's SPE version defines: filters, ArchInst,
 * LDS, ERnd, Interval, MaxSize and CountSize, and FnE from SPEv1p2. Later features (FDS, EFT, ...)
 * are hidden: their registers are UNDEF here. The values are the platform's view, the same
 * whatever pCPU the vCPU is on (../platform.c, add_spe_ids), not caps' own: caps says only the
 * SPE version, which is the platform's lowest too. */
static uint64_t pmsidr_of(const struct vperf_pcpu_caps *caps)
{
	uint64_t keep = PMSIDR_FE | PMSIDR_FT | PMSIDR_FL | PMSIDR_ARCHINST | PMSIDR_LDS |
			PMSIDR_ERND | PMSIDR_INTERVAL | PMSIDR_MAXSIZE | PMSIDR_COUNTSIZE;

	if (vperf_vspe_pmsver(caps->dfr0) >= ID_DFR0_PMSVER_V1P2)
		keep |= PMSIDR_FNE;
	return vperf_vspe_pmsidr() & keep;
}

static uint64_t vm_pmsidr(const struct vperf_vcpu *vcpu)
{
	return pmsidr_of(&vcpu->pcpu->caps);
}

/* PMBIDR_EL1 (SPE 4.3.1) never traps; were a syndrome to claim it, the guest owns its buffer: P
 * = 0. Align and F of the platform's view, which every pCPU has (../platform.c). */
static uint64_t guest_pmbidr(void)
{
	return vperf_vspe_pmbidr() & (PMBIDR_ALIGN | PMBIDR_F);
}

/* The events PMSEVFR_EL1 and PMSNEVFR_EL1 select on the VM's SPE version (vperf/spe_regs.h: the
 * sets of SPEv1, SPEv1p1 and SPEv1p2, PMSEVFR_EL1_FIELDS). */

static uint64_t filter_events(const struct vperf_pcpu_caps *caps)
{
	unsigned int v = vperf_vspe_pmsver(caps->dfr0);

	return PMSEVFR_EVENTS | (v >= 2 ? PMSEVFR_EVENTS_V1P1 : 0) |
	       (v >= 3 ? PMSEVFR_EVENTS_V1P2 : 0);
}

/* The bits of each register a guest keeps on a PE with caps; the rest is RES0 for its SPE
 * version (SPE 4.3). PMSCR_EL1.PCT is [7:6] with FEAT_ECV, whatever the SPE version, and [6]
 * alone without it: ID_AA64MMFR0_EL1.ECV "Extends the PMSCR_EL1.PCT, PMSCR_EL2.PCT ... fields"
 * (Arm DDI 0487 D24.2.88), CollectTimeStamp() reads "PCT<1> is RES0" without FEAT_ECV
 * (J1.1.1.55). */
uint64_t vperf_vspe_keep(const struct vperf_pcpu_caps *caps, enum vperf_vspe_reg r)
{
	uint64_t idr = pmsidr_of(caps);

	switch (r) {
	case VPERF_VSPE_PMSCR: /* PCT[1] with FEAT_ECV */
		return PMSCR_E0SPE | PMSCR_E1SPE | PMSCR_CX | PMSCR_PA | PMSCR_TS | PMSCR_PCT |
		       (vperf_vspe_ecv(caps) ? PMSCR_PCT1 : 0);
	case VPERF_VSPE_PMSICR: /* ECOUNT only with ERnd */
		return PMSICR_COUNT | (idr & PMSIDR_ERND ? PMSICR_ECOUNT : 0);
	case VPERF_VSPE_PMSIRR:
		return PMSIRR_INTERVAL | PMSIRR_RND;
	case VPERF_VSPE_PMSFCR: /* each filter's enable where the view has the filter */
		return PMSFCR_B | PMSFCR_LD | PMSFCR_ST | (idr & PMSIDR_FE ? PMSFCR_FE : 0) |
		       (idr & PMSIDR_FT ? PMSFCR_FT : 0) | (idr & PMSIDR_FL ? PMSFCR_FL : 0) |
		       (idr & PMSIDR_FNE ? PMSFCR_FNE : 0);
	case VPERF_VSPE_PMSEVFR:
		return filter_events(caps);
	case VPERF_VSPE_PMSNEVFR: /* SPEv1p2 */
		return vperf_vspe_pmsver(caps->dfr0) >= ID_DFR0_PMSVER_V1P2 ? filter_events(caps)
									    : 0;
	case VPERF_VSPE_PMSLATFR: /* MINLAT as wide as the counters (SPE 4.3.13) */
		return (idr & PMSIDR_COUNTSIZE) == PMSIDR_COUNTSIZE_16 ? 0xffffu : 0xfffu;
	case VPERF_VSPE_PMBLIMITR:
		return PMBLIMITR_LIMIT | PMBLIMITR_FM | PMBLIMITR_E;
	case VPERF_VSPE_PMBSR:
		return PMBSR_WRITABLE;
	case VPERF_VSPE_PMBPTR:
	default:
		return ~0ull;
	}
}

/* The shadow of an encoding, or VPERF_VSPE_NR_REGS for one the VM does not have (UNDEF):
 * PMSDSFR_EL1 (FEAT_SPE_FDS). The trap entry has refused the registers of a feature the VM is
 * not shown already (PMSNEVFR_EL1 before SPEv1p2, PMSDSFR_EL1: the database's feature column). */
static enum vperf_vspe_reg reg_of(uint32_t enc)
{
	switch (enc) {
	case VPERF_ENC_PMSCR_EL1:
		return VPERF_VSPE_PMSCR;
	case VPERF_ENC_PMSICR_EL1:
		return VPERF_VSPE_PMSICR;
	case VPERF_ENC_PMSIRR_EL1:
		return VPERF_VSPE_PMSIRR;
	case VPERF_ENC_PMSFCR_EL1:
		return VPERF_VSPE_PMSFCR;
	case VPERF_ENC_PMSEVFR_EL1:
		return VPERF_VSPE_PMSEVFR;
	case VPERF_ENC_PMSLATFR_EL1:
		return VPERF_VSPE_PMSLATFR;
	case VPERF_ENC_PMSNEVFR_EL1:
		return VPERF_VSPE_PMSNEVFR; /* SPEv1p2: checked by the trap entry (../trap.c) */
	case VPERF_ENC_PMBPTR_EL1:
		return VPERF_VSPE_PMBPTR;
	case VPERF_ENC_PMBLIMITR_EL1:
		return VPERF_VSPE_PMBLIMITR;
	case VPERF_ENC_PMBSR_EL1:
		return VPERF_VSPE_PMBSR;
	default:
		return VPERF_VSPE_NR_REGS;
	}
}

static uint64_t read_reg(struct vperf_vcpu *vcpu, enum vperf_vspe_reg r)
{
	uint64_t hw;

	if (!vcpu->spe.in_hw)
		return *vspe_reg(vcpu, r);
	switch (r) {
	case VPERF_VSPE_PMSICR: /* the interval counter counts in the hardware; ECOUNT, which a
				 * pCPU with ERnd holds, only where the view has ERnd */
		return read_sysreg(PMSICR_EL1) & vperf_vspe_keep(&vcpu->pcpu->caps, r);
	case VPERF_VSPE_PMBPTR:
		hw = read_sysreg(PMBPTR_EL1);
		vperf_vspe_saw_ptr(vcpu, hw);
		return hw;
	case VPERF_VSPE_PMBSR:
		/* An event the PMBIRQ has not brought yet is taken now: the guest's to see, or a
		 * stage 2 fault of vperf's, restarted with no trace; a collision (COLL, SPE 3.1.4)
		 * sets the bit without an event. Untrapped, the hardware holds the guest's value
		 * (with FEAT_FGT the read traps so that vperf's own fault is never read, ../fgt.c). */
		hw = read_sysreg(PMBSR_EL1);
		if (hw & PMBSR_S)
			vperf_vspe_take_event(vcpu, hw);
		else if (!vcpu->spe.direct)
			*vspe_reg(vcpu, r) |= hw & PMBSR_COLL;
		return vcpu->spe.direct ? read_sysreg(PMBSR_EL1) : *vspe_reg(vcpu, r);
	case VPERF_VSPE_PMBLIMITR:
		/* Untrapped, the guest writes it directly: only a read trap of the hypervisor's own
		 * (host_hdfgrtr) brings its read here, and the hardware holds the value. */
		return vcpu->spe.direct ? read_sysreg(PMBLIMITR_EL1) : *vspe_reg(vcpu, r);
	default:
		return *vspe_reg(vcpu, r);
	}
}

/* A change of PMBPTR, PMBLIMITR or PMBSR: the rules of SPE 3.4.1 are checked when the buffer is
 * (re)enabled, on the pointer the hardware would start from (after a buffer full event, where it
 * stopped, not the shadow of the guest's last write), and the hardware follows, taking the state
 * in at the first enable. */
static void buffer_changed(struct vperf_vcpu *vcpu)
{
	uint64_t ptr = vspe_buffer_on(vcpu) ? vperf_vspe_ptr(vcpu) : 0;

	if (vspe_buffer_on(vcpu) && vperf_vspe_check_buffer(vcpu, ptr))
		vperf_vspe_prefault(vcpu, ptr);
	if (vcpu->spe.in_hw) {
		vperf_vspe_apply_buffer(vcpu);
	} else if (vspe_buffer_on(vcpu)) {
		vperf_vspe_acquire(vcpu);
		vperf_vspe_try_direct(vcpu);
	}
	vperf_vspe_update_irq(vcpu);
}

static bool is_buffer_reg(enum vperf_vspe_reg r)
{
	return r == VPERF_VSPE_PMBSR || r == VPERF_VSPE_PMBPTR || r == VPERF_VSPE_PMBLIMITR;
}

/* A PMS* write of a vCPU whose state is in the hardware: PMSCR_EL1 and PMSICR_EL1 as written,
 * a recorded control only when the hardware holds another value (hwctl.h). */
static void write_control(struct vperf_vcpu *vcpu, uint32_t enc, enum vperf_vspe_reg r)
{
	enum vspe_ctl c = vperf_vspe_ctl_of(r);
	uint64_t val = *vspe_reg(vcpu, r);

	if (c == VSPE_CTLS || vperf_vspe_ctl_update(vcpu->pcpu, c, val)) {
		if (r == VPERF_VSPE_PMSCR) /* named by the pCPU's HCR_EL2.E2H (vspe.h) */
			vspe_write_guest_pmscr(vcpu->pcpu, val);
		else
			write_sysreg_enc(enc, val);
	}
}

/* Untrapped (E2PB = 0b11), a PMB* write traps only by FEAT_FGT (../fgt.c: PMBSR_EL1, so that a
 * guest's write setting S is its own event whatever syndrome it names, SPE 3.5): the hardware
 * holds the guest's controls, which the shadow takes first (vperf_vspe_pause_direct); the write
 * is then emulated as a trapped one, the hardware following as it would have followed the
 * untrapped write, and the vCPU goes back to untrapped mode when its buffer stays live. */
static void write_reg(struct vperf_vcpu *vcpu, const struct vperf_access *acc,
		      enum vperf_vspe_reg r)
{
	uint64_t keep = vperf_vspe_keep(&vcpu->pcpu->caps, r);
	bool was_direct = is_buffer_reg(r) && vperf_vspe_pause_direct(vcpu, r == VPERF_VSPE_PMBSR);

	if (acc->val & ~keep) {
		STAT_INC(&vcpu->vm->stats, bad_value);
		vperf_log_bad_bits(vcpu->vm, acc->desc, acc->val, acc->val & ~keep);
	}
	*vspe_reg(vcpu, r) = acc->val & keep;
	switch (r) {
	case VPERF_VSPE_PMBSR:
		/* The hardware's event state was cleared when it moved here
		 * (vperf_vspe_take_event); a collision bit it set since is the guest's to clear. */
		if (vcpu->spe.in_hw)
			write_sysreg(0, PMBSR_EL1);
		buffer_changed(vcpu);
		break;
	case VPERF_VSPE_PMBPTR:
		if (vcpu->spe.in_hw) {
			write_sysreg(*vspe_reg(vcpu, r), PMBPTR_EL1);
			vcpu->spe.ptr_seen = *vspe_reg(vcpu, r);
		}
		buffer_changed(vcpu);
		break;
	case VPERF_VSPE_PMBLIMITR:
		buffer_changed(vcpu);
		break;
	default: /* PMSCR_EL1 and the sampling controls: the hardware takes them as written */
		if (vcpu->spe.in_hw)
			write_control(vcpu, acc->enc, r);
		break;
	}
	if (was_direct)
		vperf_update_mdcr(vcpu);
}

bool vperf_vspe_access(struct vperf_vcpu *vcpu, struct vperf_access *acc)
{
	enum vperf_vspe_reg r;

	/* Every SPE register is UNDEFINED at EL0 before any trap (SPE 3.2.3, SPE 3.4.6): a syndrome
	 * that says otherwise gets UNDEF. */
	if (!vspe_on(vcpu) || !vcpu->pcpu || vperf_ops->guest_el(vcpu->hv_vcpu) == 0)
		return false;
	if (acc->enc == VPERF_ENC_PMSIDR_EL1 || acc->enc == VPERF_ENC_PMBIDR_EL1) {
		acc->val = acc->enc == VPERF_ENC_PMSIDR_EL1 ? vm_pmsidr(vcpu) : guest_pmbidr();
		return true;
	}
	r = reg_of(acc->enc);
	if (r == VPERF_VSPE_NR_REGS)
		return false;
	if (acc->read)
		acc->val = read_reg(vcpu, r);
	else
		write_reg(vcpu, acc, r);
	return true;
}
