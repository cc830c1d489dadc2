// SPDX-License-Identifier: MIT
/*
 * A vCPU's EL1 state: reset to the Linux boot protocol's entry state, switched with the vCPU
 * (every EL1 System register a guest may own, FP/SIMD, the virtual timer), and exception
 * injection. With HCR_EL2.E2H = 0 the *_EL1 names at EL2 reach the EL1 registers themselves.
 */
#include "hyp.h"

#define SPSR_EL1H_MASKED 0x3c5ull      /* M = EL1h, D A I F set: the boot protocol's entry state */
#define SCTLR_EL1_RES1	 0x30d00800ull /* MMU and caches off */
#define SCTLR_EL1_SPAN	 BIT(23)
#define SPSR_PAN	 BIT(22)
#define CNTV_CTL_ENABLE	 BIT(0)
#define CNTV_CTL_IMASK	 BIT(1)
#define CNTV_CTL_ISTATUS BIT(2)

void vcpu_reset(struct vcpu *v, uint64_t entry, uint64_t x0)
{
	static const struct vcpu_regs zregs;
	static const struct el1_ctx zel1;
	static const struct fpsimd zfp;

	v->regs = zregs;
	v->regs.x[0] = x0;
	v->regs.elr = entry;
	v->regs.spsr = SPSR_EL1H_MASKED;
	v->el1 = zel1;
	v->el1.sctlr = SCTLR_EL1_RES1;
	v->fp = zfp;
	v->vtimer_hw_masked = false;
	v->ptimer_hw_masked = false;
	v->blocked = false;
	vgic_vcpu_init(v);
}

void vcpu_ctx_save(struct vcpu *v)
{
	struct el1_ctx *c = &v->el1;

	c->sctlr = read_sysreg(sctlr_el1);
	c->ttbr0 = read_sysreg(ttbr0_el1);
	c->ttbr1 = read_sysreg(ttbr1_el1);
	c->tcr = read_sysreg(tcr_el1);
	c->mair = read_sysreg(mair_el1);
	c->amair = read_sysreg(amair_el1);
	c->vbar = read_sysreg(vbar_el1);
	c->elr = read_sysreg(elr_el1);
	c->spsr = read_sysreg(spsr_el1);
	c->sp_el0 = read_sysreg(sp_el0);
	c->sp_el1 = read_sysreg(sp_el1);
	c->esr = read_sysreg(esr_el1);
	c->far = read_sysreg(far_el1);
	c->afsr0 = read_sysreg(afsr0_el1);
	c->afsr1 = read_sysreg(afsr1_el1);
	c->contextidr = read_sysreg(contextidr_el1);
	c->tpidr_el0 = read_sysreg(tpidr_el0);
	c->tpidr_el1 = read_sysreg(tpidr_el1);
	c->tpidrro = read_sysreg(tpidrro_el0);
	c->par = read_sysreg(par_el1);
	c->cpacr = read_sysreg(cpacr_el1);
	c->cntkctl = read_sysreg(cntkctl_el1);
	c->csselr = read_sysreg(csselr_el1);
	c->mdscr = read_sysreg(mdscr_el1);
	/* The virtual timer stops with its vCPU so it cannot fire for the next one. */
	c->cntv_ctl = read_sysreg(cntv_ctl_el0);
	c->cntv_cval = read_sysreg(cntv_cval_el0);
	write_sysreg(0, cntv_ctl_el0);
	c->cntp_ctl = read_sysreg(cntp_ctl_el0);
	c->cntp_cval = read_sysreg(cntp_cval_el0);
	write_sysreg(0, cntp_ctl_el0);
	fpsimd_save(&v->fp);
}

void vcpu_ctx_restore(struct vcpu *v)
{
	const struct el1_ctx *c = &v->el1;

	write_sysreg(v->vm->vttbr, vttbr_el2);
	write_sysreg(BIT(31) | v->id, vmpidr_el2); /* Aff0 = vCPU index; bit 31 RES1 */
	write_sysreg(c->sctlr, sctlr_el1);
	write_sysreg(c->ttbr0, ttbr0_el1);
	write_sysreg(c->ttbr1, ttbr1_el1);
	write_sysreg(c->tcr, tcr_el1);
	write_sysreg(c->mair, mair_el1);
	write_sysreg(c->amair, amair_el1);
	write_sysreg(c->vbar, vbar_el1);
	write_sysreg(c->elr, elr_el1);
	write_sysreg(c->spsr, spsr_el1);
	write_sysreg(c->sp_el0, sp_el0);
	write_sysreg(c->sp_el1, sp_el1);
	write_sysreg(c->esr, esr_el1);
	write_sysreg(c->far, far_el1);
	write_sysreg(c->afsr0, afsr0_el1);
	write_sysreg(c->afsr1, afsr1_el1);
	write_sysreg(c->contextidr, contextidr_el1);
	write_sysreg(c->tpidr_el0, tpidr_el0);
	write_sysreg(c->tpidr_el1, tpidr_el1);
	write_sysreg(c->tpidrro, tpidrro_el0);
	write_sysreg(c->par, par_el1);
	write_sysreg(c->cpacr, cpacr_el1);
	write_sysreg(c->cntkctl, cntkctl_el1);
	write_sysreg(c->csselr, csselr_el1);
	write_sysreg(c->mdscr, mdscr_el1);
	write_sysreg(v->vm->cfg.cntvoff, cntvoff_el2);
	write_sysreg(c->cntv_cval, cntv_cval_el0);
	write_sysreg(c->cntv_ctl, cntv_ctl_el0);
	write_sysreg(c->cntp_cval, cntp_cval_el0);
	write_sysreg(c->cntp_ctl, cntp_ctl_el0);
	/* The physical PPIs stay masked while this vCPU's timer lines are high (timers_sync). */
	gic_ppi_enable(INTID_VTIMER, !v->vtimer_hw_masked);
	gic_ppi_enable(INTID_PTIMER, !v->ptimer_hw_masked);
	fpsimd_restore(&v->fp);
}

/* A generic timer's output (Arm ARM D11.2.4): asserted while ENABLE && !IMASK && ISTATUS. */
static bool timer_line(uint64_t ctl)
{
	return (ctl & (CNTV_CTL_ENABLE | CNTV_CTL_IMASK | CNTV_CTL_ISTATUS)) ==
	       (CNTV_CTL_ENABLE | CNTV_CTL_ISTATUS);
}

/* The virtual line follows the timer; the physical PPI is masked while it is high (it would
 * fire again at once, the guest not having handled it yet) and unmasked as soon as it drops.
 * *hw_masked always equals the line's level in the vGIC, so an unchanged line costs nothing. */
static void timer_line_sync(struct vcpu *v, uint32_t intid, bool level, bool *hw_masked)
{
	if (level == *hw_masked)
		return;
	vgic_set_level(v, intid, level);
	*hw_masked = level;
	gic_ppi_enable(intid, !level);
}

/*
 * The guest's timers, resampled from the running vCPU's CNTV_CTL_EL0 and CNTP_CTL_EL0 at every
 * exit and before every entry, as KVM's and Xen's virtual timers do: a line follows its timer,
 * never a latched copy, so a guest that disables or masks its timer while the interrupt is
 * masked at its GIC gets no stale one.
 */
void timers_sync(struct vcpu *v)
{
	timer_line_sync(v, INTID_VTIMER, timer_line(read_sysreg(cntv_ctl_el0)),
			&v->vtimer_hw_masked);
	timer_line_sync(v, INTID_PTIMER, timer_line(read_sysreg(cntp_ctl_el0)),
			&v->ptimer_hw_masked);
}

/* A saved timer that fired (ISTATUS: CVAL <= the count: the virtual count, the physical one
 * less the VM's CNTVOFF_EL2, for the virtual timer) and whose output is enabled. */
static bool saved_timer_fires(uint64_t ctl, uint64_t cval, uint64_t count)
{
	return (ctl & (CNTV_CTL_ENABLE | CNTV_CTL_IMASK)) == CNTV_CTL_ENABLE && count >= cval;
}

/* Whether a vCPU blocked in WFI has an interrupt to take: one pending at its vGIC, or one of its
 * timers (stopped in the hardware while it is not loaded) expired with its PPI enabled. */
bool vcpu_wakeup(const struct vcpu *v)
{
	uint64_t count = read_sysreg(cntpct_el0);
	const struct el1_ctx *c = &v->el1;

	if (vgic_wakeup_pending(v))
		return true;
	if (v->on_pcpu >= 0)
		return false; /* loaded: its timer lines are in the vGIC (timers_sync) */
	return (saved_timer_fires(c->cntv_ctl, c->cntv_cval, count - v->vm->cfg.cntvoff) &&
		(v->gic.enabled & BIT(INTID_VTIMER))) ||
	       (saved_timer_fires(c->cntp_ctl, c->cntp_cval, count) &&
		(v->gic.enabled & BIT(INTID_PTIMER)));
}

/*
 * Take an UNDEFINED exception to EL1 as the hardware would (Arm ARM D1.10.2): ESR_EL1.EC = 0
 * (unknown reason), IL = 1; ELR_EL1 = the faulting instruction; SPSR_EL1 = its PSTATE; PC =
 * VBAR_EL1 + 0x000 (from EL1 with SP_EL0), 0x200 (EL1 with SP_EL1) or 0x400 (from EL0); new
 * PSTATE EL1h with D, A, I, F masked, PAN set unless SCTLR_EL1.SPAN. The vCPU is the running
 * one: its EL1 registers are live.
 */
void vcpu_inject_undef(struct vcpu *v)
{
	uint64_t spsr = v->regs.spsr;
	uint64_t mode = spsr & 0xf;
	uint64_t off = mode == 0 ? 0x400 : mode == 4 ? 0x000 : 0x200;
	uint64_t nspsr = SPSR_EL1H_MASKED;

	if (!(read_sysreg(sctlr_el1) & SCTLR_EL1_SPAN))
		nspsr |= SPSR_PAN;
	write_sysreg(BIT(25), esr_el1);
	write_sysreg(v->regs.elr, elr_el1);
	write_sysreg(spsr, spsr_el1);
	v->regs.elr = read_sysreg(vbar_el1) + off;
	v->regs.spsr = nspsr;
}
