// SPDX-License-Identifier: MIT
/*
 * Where a vCPU's SPE state lives, and moving it (docs/vspe.md, "Switching"). The SPE supplement
 * (Arm DDI 0586A) is cited as "SPE <section>".
 *
 * Lazy: the state enters the hardware when the guest enables its buffer (a trapped PMBLIMITR_EL1
 * or PMBSR_EL1 write), stays there while the vCPU runs, and leaves it at put through the drain
 * sequence of SPE 3.6. A vCPU whose buffer is disabled at put is idle: its next load and put
 * cost no SPE register access. Every PMS* access traps (MDCR_EL2.TPMS), so the shadow holds
 * every control; only PMSICR_EL1 and PMBPTR_EL1, which the profiling operation changes, and the
 * hardware's PMBSR_EL1 are read back at put. The states and their transitions: the table at
 * struct vperf_vspe (vperf/vspe.h).
 */
#include <arch/barrier.h>
#include <arch/sysreg.h>

#include "../fgt.h"
#include "../log.h"
#include "../mdcr.h"
#include "../vm_config.h"
#include "action.h"
#include "hwctl.h"

enum vperf_spe_buffer vperf_vspe_buffer(const struct vperf_vm *vm)
{
	return vperf_vm_spe_buffer(vm);
}

/* SPE 4.2: PMBLIMITR_EL1.E resets to 0; the rest is IMPLEMENTATION DEFINED, vperf picks 0. With
 * PMBSR_EL1.S now 0 the virtual PMBIRQ, a level on it (SPE 3.5), drops: through
 * vperf_vspe_update_irq like any other change, from the level last pushed. */
void vperf_vspe_reset(struct vperf_vcpu *vcpu)
{
	static const struct vperf_vspe zero;
	bool pushed = vcpu->spe.irq_level;

	vcpu->spe = zero;
	vcpu->spe.irq_level = pushed;
	vperf_vspe_update_irq(vcpu);
}

/*
 * PMSCR_EL2 while a guest owns the buffer (SPE 4.3.7): E2SPE and E0HSPE are RES0 and TS is ignored
 * with E2PB != 0b00; PA and PCT are ANDed with the guest's own PMSCR_EL1.PA / PCT (SPE 3.3,
 * CollectPhysicalAddress, CollectTimeStamp), so the VM's policy decides whether host physical
 * addresses and physical time may reach its records; CX = 0, as CONTEXTIDR_EL2 is the host's.
 */
static uint64_t guest_pmscr_el2(const struct vperf_vm *vm)
{
	return (vm->cfg.spe_pa ? PMSCR_PA : 0) | (vm->cfg.spe_pct ? PMSCR_PCT : 0);
}

/* Control c of pcpu (the register NAME) made to hold val, written only when its record says
 * otherwise (hwctl.h). */
#define CTL_LOAD(pcpu, c, val, NAME)                        \
	do {                                                \
		uint64_t v_ = (val);                        \
		if (vperf_vspe_ctl_update((pcpu), (c), v_)) \
			write_sysreg(v_, NAME);             \
	} while (0)

/* The VM's PMSCR_EL2 and the vCPU's sampling controls: those the hardware does not hold
 * already (hwctl.h). */
static void load_controls(struct vperf_vcpu *vcpu)
{
	struct vperf_pcpu *pcpu = vcpu->pcpu;
	const uint64_t *r = vcpu->spe.reg;

	CTL_LOAD(pcpu, VSPE_CTL_PMSCR_EL2, guest_pmscr_el2(vcpu->vm), PMSCR_EL2);
	CTL_LOAD(pcpu, VSPE_CTL_PMSIRR, r[VPERF_VSPE_PMSIRR], PMSIRR_EL1);
	CTL_LOAD(pcpu, VSPE_CTL_PMSFCR, r[VPERF_VSPE_PMSFCR], PMSFCR_EL1);
	CTL_LOAD(pcpu, VSPE_CTL_PMSEVFR, r[VPERF_VSPE_PMSEVFR], PMSEVFR_EL1);
	CTL_LOAD(pcpu, VSPE_CTL_PMSLATFR, r[VPERF_VSPE_PMSLATFR], PMSLATFR_EL1);
	if (pcpu->caps.pmsver >= 3)
		CTL_LOAD(pcpu, VSPE_CTL_PMSNEVFR, r[VPERF_VSPE_PMSNEVFR], PMSNEVFR_EL1);
}

/*
 * Switch-in. MDCR_EL2 (the owning Exception level) and stage 2 are already
 * this vCPU's: the hypervisor switched stage 2 before load, and load wrote MDCR_EL2 first. No
 * ISB: the ERET into the guest is the context synchronization event after which the profiling
 * operation sees all of it (SPE 3.6); at EL2 nothing is sampled, EL2 being above the owner.
 * The controls the pCPU holds already are not written again (hwctl.h); the buffer, the
 * interval counter and the enables always are.
 */
void vperf_vspe_acquire(struct vperf_vcpu *vcpu)
{
	const uint64_t *r = vcpu->spe.reg;

	load_controls(vcpu);
	/* Opaque (SPE 4.3.10): the saved value resumes the interval where it stopped. */
	write_sysreg(r[VPERF_VSPE_PMSICR], PMSICR_EL1);
	/* The pointer before the limit: a buffer enabled first would, at any context
	 * synchronization in between, write at the previous owner's pointer. */
	write_sysreg(r[VPERF_VSPE_PMBPTR], PMBPTR_EL1);
	vcpu->spe.ptr_seen = r[VPERF_VSPE_PMBPTR];
	/* The guest's events live in its virtual PMBSR_EL1: the hardware one must have S clear,
	 * or the buffer would stay disabled and PMBIRQ asserted (SPE 3.5). Untrapped, the guest reads
	 * the hardware's: it holds the rest of the guest's value (S is 0 whenever direct). */
	write_sysreg(vcpu->spe.direct ? r[VPERF_VSPE_PMBSR] : 0, PMBSR_EL1);
	/* Enabled only while the virtual PMBSR_EL1.S is 0: a guest that has not yet served its
	 * event must not sample (SPE 3.5: S = 1 disables the buffer). */
	write_sysreg(vspe_buffer_on(vcpu) ? r[VPERF_VSPE_PMBLIMITR] : 0, PMBLIMITR_EL1);
	/* The sampling enables last: nothing is sampled into a half-restored state. */
	vspe_write_guest_pmscr(vcpu->pcpu, r[VPERF_VSPE_PMSCR]);
	vcpu->spe.in_hw = true;
	vcpu->spe.active = true;
}

/* Trapped mode: the hardware buffer follows the guest's, only while the rules hold. */
void vperf_vspe_apply_buffer(struct vperf_vcpu *vcpu)
{
	write_sysreg(vspe_buffer_on(vcpu) ? vcpu->spe.reg[VPERF_VSPE_PMBLIMITR] : 0, PMBLIMITR_EL1);
	vperf_vspe_try_direct(vcpu);
}

/* Untrapped, the guest wrote the hardware's PMB* directly: copy the controls back. Returns the
 * hardware's PMBSR_EL1, whose S, if set, is the caller's event to take. */
static uint64_t sync_from_hw(struct vperf_vcpu *vcpu)
{
	uint64_t *r = vcpu->spe.reg, pmbsr = read_sysreg(PMBSR_EL1);
	/* The guest's own fields; with an event pending (S), EC and MSS are the event's (SPE 3.5),
	 * not the guest's: they reach it only through vperf_vspe_guest_event, and a stage 2 fault
	 * vperf restarts itself leaves no trace. */
	uint64_t mine =
		pmbsr & PMBSR_S ? PMBSR_COLL | PMBSR_DL | PMBSR_EA : PMBSR_WRITABLE & ~PMBSR_S;

	r[VPERF_VSPE_PMBLIMITR] =
		read_sysreg(PMBLIMITR_EL1) & (PMBLIMITR_LIMIT | PMBLIMITR_FM | PMBLIMITR_E);
	r[VPERF_VSPE_PMBSR] = (r[VPERF_VSPE_PMBSR] & ~mine) | (pmbsr & mine);
	vcpu->spe.direct = false;
	vperf_mdcr_stale(vcpu);
	return pmbsr;
}

/*
 * A trapped PMB* write of an untrapped vCPU: FEAT_FGT's PMBSR_EL1 write trap (../fgt.c), or one
 * the hypervisor set (host_hdfgwtr). The shadow takes the hardware's controls and the vCPU counts
 * as trapped, so that regs.c emulates the write as in trapped mode and goes back to untrapped mode
 * when the rules allow. A hardware event still pending in PMBSR_EL1 (its PMBIRQ not yet taken)
 * survives a PMBPTR_EL1 or PMBLIMITR_EL1 write, which leaves PMBSR_EL1 as it is (SPE 3.5: only a
 * direct write of PMBSR_EL1 clears S): it is taken first, so that the write is emulated on top of
 * it. A PMBSR_EL1 write (of_pmbsr) overwrites it, as the guest's own write would have: a stage 2
 * fault of vperf's then recurs once the buffer runs again. Returns whether the vCPU was untrapped
 * (its MDCR_EL2 is then the caller's to update).
 * No PSB CSYNC before the reads: the trapped write stands for the guest's own MSR, which does not
 * synchronize the profiling operation either (SPE 3.6). A pointer update or event still in
 * flight reaches the hardware's PMBPTR_EL1/PMBSR_EL1 later, where PMBIRQ or the put's drain takes
 * it as for any trapped vCPU; an emulated PMBSR_EL1 write clears it as the guest's write would
 * have. A drain here would only make the guest's records visible earlier than untrapped.
 */
bool vperf_vspe_pause_direct(struct vperf_vcpu *vcpu, bool of_pmbsr)
{
	uint64_t pmbsr;

	if (!vcpu->spe.direct)
		return false;
	pmbsr = sync_from_hw(vcpu);
	if ((pmbsr & PMBSR_S) && !of_pmbsr)
		vperf_vspe_take_event(vcpu, pmbsr);
	return true;
}

static void leave_direct(struct vperf_vcpu *vcpu)
{
	if (!vcpu->spe.direct)
		return;
	sync_from_hw(vcpu);
	vperf_update_mdcr(vcpu);
}

/* The hardware's event was vperf's own stage 2 fault, cured with nothing lost (action.c): the
 * guest's PMBSR_EL1 as the action says, and S = 0 re-enables the buffer at the next context
 * synchronization event, the ERET into the guest. */
static void restart(struct vperf_vcpu *vcpu, const struct vperf_vspe_act *a)
{
	vcpu->spe.reg[VPERF_VSPE_PMBSR] = a->guest_pmbsr;
	write_sysreg(a->pmbsr, PMBSR_EL1);
}

/* The guest's own event: it leaves untrapped mode, as its PMBSR_EL1 is virtual until it clears
 * S. */
static void show(struct vperf_vcpu *vcpu, uint64_t event)
{
	leave_direct(vcpu);
	/* The hardware buffer stays off until the guest has served its event ... */
	write_sysreg(0, PMBLIMITR_EL1);
	/* ... and PMBIRQ, a level on PMBSR_EL1.S (SPE 3.5), drops now. */
	write_sysreg(0, PMBSR_EL1);
	vperf_vspe_guest_event(vcpu, event);
}

/* A stage 2 fault the action says vperf may cure: the page mapped through the ops contract. */
static enum vperf_vspe_s2 map_stage2(struct vperf_vcpu *vcpu)
{
	if (!vperf_vspe_fix_stage2(vcpu))
		return VSPE_S2_UNMAPPABLE;
	STAT_INC(&vcpu->vm->stats, spe_s2_fixed);
	return VSPE_S2_MAPPED;
}

/*
 * A hardware buffer management event of the vCPU whose state is in this pCPU's hardware
 * (SPE 3.5): taken at put, at PMBIRQ (irq.c) or when the guest reads PMBSR_EL1 (regs.c). What to
 * do is action.c's decision: a stage 2 fault is the hypervisor's, mapped and, with no data lost,
 * restarted with no trace in the guest; anything else moves into its virtual PMBSR_EL1, the
 * hardware buffer disabled and its PMBSR_EL1 cleared, so the physical line drops at once and the
 * virtual line stays high until the guest clears its PMBSR_EL1.S.
 */
void vperf_vspe_take_event(struct vperf_vcpu *vcpu, uint64_t pmbsr)
{
	struct vperf_vspe_act a = vperf_vspe_event_action(&vcpu->spe, pmbsr, VSPE_S2_UNTRIED);

	if (a.kind == VSPE_ACT_MAP)
		a = vperf_vspe_event_action(&vcpu->spe, pmbsr, map_stage2(vcpu));
	if (a.kind == VSPE_ACT_RESTART)
		restart(vcpu, &a);
	else
		show(vcpu, a.pmbsr);
}

/*
 * VPERF_SPE_BUF_EL1: with its buffer live and no event to show, the guest runs with E2PB = 0b11.
 * Not while its PMBSR_EL1 holds DL or EA: a stage 2 fault leaves them as they are when it loses
 * nothing (SPE 3.5), so in the hardware's PMBSR_EL1 they would make vperf take its own invisible
 * restart for a truncation or an external abort. Until then (and after an event, until it clears
 * PMBSR_EL1.S) it traps.
 */
static bool direct_ok(const struct vperf_vcpu *vcpu)
{
	/* A VM given the PMBSR_EL1 write trap (../fgt.c) keeps it or stays trapped: a pCPU
	 * initialised after it without FEAT_FGT runs it with E2PB = 0b10, as the type traps do. */
	if ((vcpu->vm->fgt_types & VPERF_FGT_PMBSR) && !vcpu->pcpu->caps.fgt)
		return false;
	return vperf_vspe_buffer(vcpu->vm) == VPERF_SPE_BUF_EL1 && vspe_buffer_on(vcpu) &&
	       !(vcpu->spe.reg[VPERF_VSPE_PMBSR] & (PMBSR_DL | PMBSR_EA));
}

void vperf_vspe_try_direct(struct vperf_vcpu *vcpu)
{
	if (vcpu->spe.direct || !vcpu->spe.in_hw || !direct_ok(vcpu))
		return;
	/* From now on the guest reads PMBSR_EL1 from the hardware: its value goes there (S = 0
	 * as the buffer is on; a collision the hardware flagged since stays flagged). */
	write_sysreg(vcpu->spe.reg[VPERF_VSPE_PMBSR] | (read_sysreg(PMBSR_EL1) & PMBSR_COLL),
		     PMBSR_EL1);
	vcpu->spe.direct = true;
	vperf_update_mdcr(vcpu);
}

/* The state of an active vCPU is restored right after MDCR_EL2 (vperf_vspe_load), still at EL2:
 * with E2PB = 0b11 from the first write, an untrapped vCPU costs one MDCR_EL2 write, not two. */
void vperf_vspe_before_mdcr(struct vperf_vcpu *vcpu)
{
	bool direct = vcpu->spe.active && direct_ok(vcpu);

	vperf_vspe_save_host(vcpu->pcpu);
	if (direct != vcpu->spe.direct)
		vperf_mdcr_stale(vcpu);
	vcpu->spe.direct = direct;
}

void vperf_vspe_load(struct vperf_vcpu *vcpu)
{
	if (vcpu->spe.active) {
		/* A restored live buffer (../blob.c): stage 2 is this VM's already, and the
		 * buffer is not yet enabled, so the mappings are in place before its first write. */
		if (vcpu->spe.prefault) {
			vcpu->spe.prefault = false;
			vperf_vspe_prefault(vcpu, vcpu->spe.reg[VPERF_VSPE_PMBPTR]);
		}
		vperf_vspe_acquire(vcpu);
		vperf_vspe_try_direct(vcpu);
	}
	if (vcpu->spe.irq_dirty)
		vperf_vspe_update_irq(vcpu);
}

/*
 * Switch-out, in two steps that mirror vperf_vspe_acquire. Sampling already stopped at the
 * exception to EL2: profiling is disabled above the owning Exception level (SPE 3.6), and that
 * exception was a context synchronization event.
 *
 * Drain: every record of the guest's profiling is in the guest's buffer, and the hardware's
 * PMBPTR_EL1 / PMBSR_EL1 say how far it got.
 */
static void drain(void)
{
	/* PSB CSYNC after that context synchronization event synchronizes the profiling
	 * operations of every instruction the guest executed (SPE 3.6). */
	psb_csync();
	/* The DSB completes their writes to the guest's buffer (SPE 3.6): none may reach memory
	 * after stage 2 and the VMID belong to another VM. */
	dsb_nsh();
	/* The ISB makes their indirect writes to PMBPTR_EL1 / PMBSR_EL1 visible to the direct
	 * reads that follow (SPE 3.6, SPE 3.4.1 "PSB CSYNC and a context synchronization
	 * event"). */
	isb();
}

/* Save: what the profiling operation changed goes to the shadow (an event it raised taken), and
 * the buffer and sampling are turned off for whoever runs next on this pCPU. */
static void save(struct vperf_vcpu *vcpu)
{
	uint64_t *r = vcpu->spe.reg, pmbsr;
	bool direct = vcpu->spe.direct;

	pmbsr = direct ? sync_from_hw(vcpu) : read_sysreg(PMBSR_EL1);
	if (pmbsr & PMBSR_S)
		vperf_vspe_take_event(vcpu, pmbsr);
	else
		r[VPERF_VSPE_PMBSR] |= pmbsr & PMBSR_COLL;
	r[VPERF_VSPE_PMBPTR] = read_sysreg(PMBPTR_EL1);
	vperf_vspe_saw_ptr(vcpu, r[VPERF_VSPE_PMBPTR]);
	/* Untrapped, the guest wrote PMBPTR/PMBLIMITR straight to the enabled hardware, which
	 * checks SPE 3.4.1 only when profiling becomes enabled: the next load enables this state
	 * again, so it is held to the rules now, as a trapped write is (and a blob of it restores). */
	if (direct && !(pmbsr & PMBSR_S) && vspe_buffer_on(vcpu))
		vperf_vspe_check_buffer(vcpu, r[VPERF_VSPE_PMBPTR]);
	/* ECOUNT only where the view has ERnd (regs.c): a pCPU with ERnd under a view without
	 * it sets bits the guest was told are RES0, and a blob of them would be refused. */
	r[VPERF_VSPE_PMSICR] =
		read_sysreg(PMSICR_EL1) & vperf_vspe_keep(&vcpu->pcpu->caps, VPERF_VSPE_PMSICR);
	/* Nothing of this guest samples or is written once it has left: buffer and sampling off
	 * for whoever runs next on this pCPU (whose owning EL may be EL2: E2PB = 0b00). */
	write_sysreg(0, PMBLIMITR_EL1);
	vspe_write_guest_pmscr(vcpu->pcpu, 0);
	/* The disable reaches the profiling operation (SPE 3.6) ... */
	isb();
	/* ... and whatever it still wrote when the buffer turned off (SPE 3.6.1 lets it write
	 * records it held) completes before the hypervisor switches stage 2 and MDCR_EL2. */
	dsb_nsh();
	vcpu->spe.in_hw = false;
	vcpu->spe.active = vspe_buffer_on(vcpu);
}

void vperf_vspe_put(struct vperf_vcpu *vcpu)
{
	if (!vcpu->spe.in_hw)
		return;
	STAT_INC(&vcpu->vm->stats, spe_live_puts);
	drain();
	save(vcpu);
}
