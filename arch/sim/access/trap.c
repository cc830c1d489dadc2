// SPDX-License-Identifier: MIT
/*
 * The guest side of the model: MRS/MSR executed at EL0/EL1 (guest_mrs, guest_msr), the rules
 * common to every register, the family's own trap and UNDEF rules, and a trap to EL2 with the
 * syndrome hardware builds, handed to the test hypervisor's handler; and the micro-op loop
 * (guest_run). Arm DDI 0487 K.a: D1.3 (exceptions to EL2), D24.2 (ESR_EL2). See sim/model.h.
 */
#include <sim/arch_regs.h>

#include "../core/pe.h"

/* ESR_EL2 for a trapped MSR/MRS, built here and not with vperf's encoder, so that a wrong
 * decoder cannot agree with a wrong encoder (D24.2.40, ISS for EC 0x18). */
static uint64_t build_esr(uint32_t enc, unsigned int rt, bool read)
{
	uint64_t iss = (uint64_t)SIM_ENC_OP0(enc) << 20 | (uint64_t)SIM_ENC_OP2(enc) << 17 |
		       (uint64_t)SIM_ENC_OP1(enc) << 14 | (uint64_t)SIM_ENC_CRN(enc) << 10 |
		       (uint64_t)rt << 5 | (uint64_t)SIM_ENC_CRM(enc) << 1 | (read ? 1u : 0u);

	return 0x18ull << 26 | 1ull << 25 | iss;
}

static bool gprs_kept(const uint64_t *before, const uint64_t *after, unsigned int rt, bool read)
{
	for (unsigned int i = 0; i < 31; i++)
		if (before[i] != after[i] && !(read && i == rt))
			return false;
	return true;
}

/* Rt of a trapped access: 31 (XZR) for the XZR forms; for a write of zero, XZR half the time
 * (what a compiler emits for `msr reg, xzr`); otherwise a random GPR. */
static unsigned int pick_rt(unsigned int cpu, bool xzr, bool read, uint64_t val)
{
	if (xzr || (!read && val == 0 && (sim_random(cpu) & 1)))
		return 31;
	return (unsigned int)(sim_random(cpu) % 31);
}

static enum sim_access trap_to_el2(unsigned int cpu, const struct sim_arch_reg *r, bool read,
				   uint64_t *val, bool xzr)
{
	const struct sim_handlers *h = sim_model_handlers();
	struct sim_pe *pe = sim_pe(cpu);
	unsigned int rt = pick_rt(cpu, xzr, read, *val);
	uint64_t gprs[31], before[31];
	unsigned int guest_el = pe->el;

	for (unsigned int i = 0; i < 31; i++)
		gprs[i] = before[i] = sim_random(cpu);
	if (!read && rt != 31)
		gprs[rt] = before[rt] = *val;
	pe->stats.last_esr = build_esr(r->enc, rt, read);
	pe->trap_el = guest_el;
	pe->decision = SIM_PE_UNDECIDED;
	pe->decisions = 0;
	sim_enter_el2(cpu);
	if (h->sysreg_trap)
		h->sysreg_trap(h->ctx, cpu, pe->stats.last_esr, gprs);
	sim_exit_el2(cpu);
	if (pe->decisions != 1)
		sim_report_error(cpu, "trap handled with no or several PC decisions");
	if (!gprs_kept(before, gprs, rt, read))
		sim_report_error(cpu, "trap handler changed a GPR other than the MRS target");
	if (pe->decision != SIM_PE_ADVANCED)
		return SIM_ACC_UNDEF;
	pe->stats.el2_traps++;
	if (read)
		*val = rt == 31 ? 0 : gprs[rt]; /* MRS to XZR: the value is discarded */
	return SIM_ACC_TRAP_EL2;
}

/* Rules common to all registers, before the family's own: an unallocated or unimplemented
 * encoding, an EL2 register at EL0/EL1 and an ID register (MPIDR_EL1 too) at EL0 are UNDEFINED;
 * HCR_EL2.TID3 traps ID register reads from EL1. */
static enum sim_access common_check(unsigned int cpu, unsigned int el, const struct sim_arch_reg *r)
{
	if (!r || !sim_implemented(r->enc) || r->trap == SIM_TRAP_EL2_ONLY)
		return SIM_ACC_UNDEF;
	if (r->enc == SIM_ENC_MPIDR_EL1 && el == 0)
		return SIM_ACC_UNDEF;
	if (r->trap == SIM_TRAP_TID3) {
		if (el == 0)
			return SIM_ACC_UNDEF;
		return sim_reg(cpu, SIM_ENC_HCR_EL2) & SIM_HCR_EL2_TID3 ? SIM_ACC_TRAP_EL2
									: SIM_ACC_OK;
	}
	return SIM_ACC_OK;
}

/* An EL1 read of MPIDR_EL1 returns VMPIDR_EL2 while EL2 is enabled (MPIDR_EL1 description).
 * The model has no VMPIDR_EL2: the value is that of a hypervisor that shows every vCPU as the
 * first PE of a single-threaded core, the same on every physical CPU. */
#define GUEST_VMPIDR VPERF_BIT(31)

static void count(struct sim_pe *pe, enum sim_access acc)
{
	if (acc == SIM_ACC_UNDEF)
		pe->stats.undefs++;
	if (acc == SIM_ACC_TRAP_EL1)
		pe->stats.el1_traps++;
	pe->stats.last = acc;
}

/* A guest's SPE access that no EL2 trap took first, on a PE whose firmware keeps the buffer
 * (sim_spe_el3_trap): it traps to EL3, which the model does not run. What firmware does with it
 * is its own (inject UNDEF, panic): reported as an error, the access UNDEFINED. A hypervisor
 * avoids it with MDCR_EL2.TPMS = 1 and E2PB = 0b00: then only PMBIDR_EL1 reaches the PE. */
static bool el3_trap(unsigned int cpu, const struct sim_arch_reg *r)
{
	if (!sim_spe_el3_trap(cpu, r))
		return false;
	sim_report_error(cpu, "guest SPE access trapped to EL3 (MDCR_EL3.NSPB: EL3 keeps the "
			      "Profiling Buffer), not to EL2 (MDCR_EL2.TPMS, E2PB)");
	return true;
}

/* xzr: the instruction names XZR as Rt (MSR writes zero, MRS discards the value). */
static enum sim_access guest_access(uint32_t enc, bool read, uint64_t *val, bool xzr)
{
	unsigned int cpu = sim_current_cpu(), el = sim_pe(cpu)->el;
	const struct sim_arch_reg *r = sim_arch_reg(enc);
	const struct sim_family *f = sim_family_of(r);
	enum sim_access acc = common_check(cpu, el, r);

	/* MRS of a write-only or MSR of a read-only register is not an instruction at all: it is
	 * UNDEFINED before any trap is considered. */
	if (acc == SIM_ACC_OK && !sim_has_dir(enc, read))
		acc = SIM_ACC_UNDEF;
	if (acc == SIM_ACC_OK && f && f->check)
		acc = f->check(cpu, el, r, read);
	if (acc == SIM_ACC_OK && el3_trap(cpu, r))
		acc = SIM_ACC_UNDEF;
	if (acc == SIM_ACC_TRAP_EL2)
		acc = trap_to_el2(cpu, r, read, val, xzr);
	else if (acc == SIM_ACC_OK && read && enc == SIM_ENC_MPIDR_EL1)
		*val = GUEST_VMPIDR;
	else if (acc == SIM_ACC_OK && read)
		*val = f && f->read ? f->read(cpu, el, r, sim_reg(cpu, enc)) : sim_reg(cpu, enc);
	else if (acc == SIM_ACC_OK)
		sim_set_reg(cpu, enc,
			    f && f->write ? f->write(cpu, el, r, sim_reg(cpu, enc), *val) : *val);
	count(sim_pe(cpu), acc);
	sim_families_poll(cpu);
	return acc;
}

uint64_t guest_mrs(uint32_t enc)
{
	uint64_t val = 0; /* stays 0 when the read is UNDEF or trapped to EL1 */

	guest_access(enc, true, &val, false);
	return val;
}

void guest_msr(uint32_t enc, uint64_t val)
{
	guest_access(enc, false, &val, false);
}

void guest_mrs_xzr(uint32_t enc)
{
	uint64_t val = 0;

	guest_access(enc, true, &val, true);
}

void guest_msr_xzr(uint32_t enc)
{
	uint64_t val = 0;

	guest_access(enc, false, &val, true);
}

/* ---- execution ------------------------------------------------------------------------------- */

/* Secure state runs only count (the PMU's prohibition rules); SPE and the GIC do not see it. */
void sim_run_secure(unsigned int el, const struct sim_uop *ops, size_t n)
{
	unsigned int cpu = sim_current_cpu(), saved = sim_pe(cpu)->el;

	if (!sim_model_config()->el3) {
		sim_report_error(cpu, "Secure state run on a PE without EL3");
		return;
	}
	sim_pe(cpu)->el = el;
	sim_pe(cpu)->secure = true;
	for (size_t i = 0; i < n; i++)
		sim_pmu_family.step(cpu, &ops[i]);
	sim_pe(cpu)->secure = false;
	sim_pe(cpu)->el = saved;
}

void guest_run(const struct sim_uop *ops, size_t n)
{
	unsigned int cpu = sim_current_cpu();

	for (size_t i = 0; i < n; i++) {
		sim_families_step(cpu, &ops[i]);
		sim_families_poll(cpu);
	}
}
