// SPDX-License-Identifier: MIT
/*
 * Synchronous exceptions from a guest, by ESR_EL2.EC (Arm ARM D24.2.40): WFI/WFE (0x01), HVC
 * (0x16), trapped SMC (0x17), MSR/MRS (0x18: vperf first, then what the hypervisor itself traps),
 * SVE (0x19), stage-2 instruction aborts (0x20) and data aborts (0x24: RAM of a lazy VM, mapped
 * then, and the emulated GIC and PL011).
 */
#include "hyp.h"

#include <xen/xen.h>

#define EC_WFX	    0x01
#define EC_HVC64    0x16
#define EC_SMC64    0x17
#define EC_SYSREG   0x18
#define EC_SVE	    0x19
#define EC_IABT	    0x20
#define EC_DABT	    0x24
#define XEN_HVC_IMM 0xea1 /* Xen's hypercall immediate (XEN_HYPERCALL_TAG) */
#define XEN_ENOSYS  38

/* ID registers trapped by HCR_EL2.TID3: op0 = 3, op1 = 0, CRn = 0, CRm = 1..7 (Arm ARM D19.1). */
// clang-format off
/* Its layout of these macros is not stable from one run to the next. */
#define ID_CASE(crm, op2) \
	case (crm) * 8 + (op2): \
		return read_sysreg(S3_0_C0_C##crm##_##op2);
#define ID_ROW(crm) \
	ID_CASE(crm, 0) ID_CASE(crm, 1) ID_CASE(crm, 2) ID_CASE(crm, 3) \
	ID_CASE(crm, 4) ID_CASE(crm, 5) ID_CASE(crm, 6) ID_CASE(crm, 7)
// clang-format on

static uint64_t read_id_reg(unsigned int crm, unsigned int op2)
{
	switch (crm * 8 + op2) {
		ID_ROW(1)
		ID_ROW(2)
		ID_ROW(3)
		ID_ROW(4)
		ID_ROW(5)
		ID_ROW(6)
		ID_ROW(7)
	default:
		return 0;
	}
}

/* What a guest sees in the ID registers: vperf decides ID_AA64DFR0_EL1 (PMUVer, PMSVer) and
 * ID_AA64DFR1_EL1 (no instruction counter); SVE
 * and SME are hidden because their state is not switched here. */
static uint64_t guest_id_reg(struct vcpu *v, unsigned int crm, unsigned int op2)
{
	uint64_t val = read_id_reg(crm, op2);

	if (crm == 5 && op2 == 0)
		return vperf_vcpu_id_dfr0(&v->vperf, val);
	if (crm == 5 && op2 == 1)
		return vperf_vcpu_id_dfr1(&v->vperf, val);
	if (crm == 4 && op2 == 0)
		return val & ~(0xfull << 32); /* ID_AA64PFR0_EL1.SVE */
	if (crm == 4 && op2 == 1)
		return val & ~(0xfull << 24); /* ID_AA64PFR1_EL1.SME */
	/* Pointer authentication is hidden too: its keys (APIAKeyLo_EL1, ...) are not switched,
	 * and with HCR_EL2.APK = API = 0 their accesses and the enabled PAC instructions trap here.
	 * Linux uses it whenever the ID registers offer it. */
	if (crm == 6 && op2 == 1)
		return val & ~(0xffull << 24 | 0xffull << 4); /* ISAR1: GPI, GPA, API, APA */
	if (crm == 6 && op2 == 2)
		return val & ~(0xffull << 8); /* ID_AA64ISAR2_EL1: APA3, GPA3 */
	return val;
}

static struct vcpu *undef(struct vcpu *v)
{
	vcpu_inject_undef(v);
	return v;
}

static struct vcpu *sysreg_other(struct vcpu *v, uint64_t esr)
{
	unsigned int op0 = FIELD(esr, 21, 20), op2 = FIELD(esr, 19, 17), op1 = FIELD(esr, 16, 14);
	unsigned int crn = FIELD(esr, 13, 10), rt = FIELD(esr, 9, 5), crm = FIELD(esr, 4, 1);
	bool read = esr & 1;
	uint64_t val = rt == 31 ? 0 : v->regs.x[rt];

	if (op0 == 3 && op1 == 0 && crn == 0 && crm >= 1 && read) {
		if (rt != 31)
			v->regs.x[rt] = guest_id_reg(v, crm, op2);
	} else if (op0 == 3 && op1 == 0 && crn == 12 && crm == 11 && op2 == 5 && !read) {
		vgic_sgi1r(v, val); /* ICC_SGI1R_EL1 */
	} else if (op0 == 3 && op1 == 0 && crn == 12 && crm == 11 && (op2 == 6 || op2 == 7)) {
		/* ICC_ASGI1R_EL1, ICC_SGI0R_EL1: no Group 0 / other Security state: ignored */
	} else {
		hyp_log("vm%u: UNDEF for sysreg S%u_%u_C%u_C%u_%u (%s)", v->vm->id, op0, op1, crn,
			crm, op2, read ? "mrs" : "msr");
		return undef(v);
	}
	v->regs.elr += 4;
	return v;
}

static struct vcpu *sysreg(struct vcpu *v, uint64_t esr)
{
	uint64_t t0 = hyp.bench ? pmu_host_el2_insns() : 0;
	enum vperf_trap_result r = VPERF_TRAP_NOT_MINE;

	if (hyp.mutant != MUT_NO_TRAP)
		r = vperf_handle_sysreg(&v->vperf, esr, v->regs.x);
	if (hyp.bench)
		pmu_host_bench_sysreg(t0);
	v->sysreg_traps++;
	v->vperf_traps += r != VPERF_TRAP_NOT_MINE;
	return r == VPERF_TRAP_NOT_MINE ? sysreg_other(v, esr) : v;
}

/* vperf's trap statistic against the hypervisor's own count of the MSR/MRS traps it handed
 * vperf and vperf claimed: every claimed trap is counted once, on the fast path as on the full
 * one. */
void trap_report_vm(const struct vm *vm)
{
	const struct vperf_stats *s = vperf_vm_stats(&vm->vperf);
	uint64_t sysreg = 0, claimed = 0;

	for (unsigned int c = 0; c < vm->nr_vcpus; c++) {
		sysreg += vm->vcpus[c].sysreg_traps;
		claimed += vm->vcpus[c].vperf_traps;
	}
	hyp_log("vm%u vperf stats: traps %lu undef %lu unknown %lu bad-value %lu; MSR/MRS traps "
		"%lu",
		vm->id, s->traps, s->undef, s->unknown_enc, s->bad_value, sysreg);
	if (vm->nr_vcpus)
		printf("RESULT host vm%u-trap-stats %s vperf counted %lu traps, claimed %lu of "
		       "%lu\n",
		       vm->id, s->traps == claimed ? "PASS" : "FAIL", s->traps, claimed, sysreg);
}

/* `make bench`: the cost of the measuring around vperf_handle_sysreg() above, with nothing
 * measured (subtracted from the "in vperf" figures by tests/qemu/bench.sh). */
void trap_bench_calibrate(void)
{
	for (unsigned int i = 0; i < 16; i++) {
		uint64_t t0 = pmu_host_el2_insns();

		pmu_host_bench_probe(t0);
	}
}

/* Emulated MMIO: ESR ISS with ISV = 1 gives the access (SAS [23:22], SSE [21], SRT [20:16],
 * SF [15], WnR [6]); HPFAR_EL2.FIPA [43:4] is the faulting IPA's page (Arm ARM D24.2.40). */
static uint64_t fault_ipa(void)
{
	return (read_sysreg(hpfar_el2) & 0xfffffffffff0ull) << 8 | (read_sysreg(far_el2) & 0xfff);
}

static struct vcpu *dabt(struct vcpu *v, uint64_t esr)
{
	uint64_t ipa = fault_ipa();
	unsigned int size = 1u << FIELD(esr, 23, 22), srt = FIELD(esr, 20, 16);
	bool write = FIELD(esr, 6, 6) != 0, ok = false;
	uint64_t val = write && srt != 31 ? v->regs.x[srt] : 0;

	if (s2_lazy_fault(v, ipa))
		return v; /* RAM of a lazy VM, now mapped: the access runs again */
	if (!FIELD(esr, 24, 24))
		return sched_stop_vm(v, "data abort without syndrome");
	if (size < 8)
		val &= (1ull << (8 * size)) - 1;
	if (ipa >= 0x09000000 && ipa < 0x09001000)
		ok = vuart_mmio(v, write, ipa - 0x09000000, &val);
	else
		ok = vgic_mmio(v, ipa, write, size, &val);
	if (!ok) {
		hyp_log("vm%u: %s of unmapped IPA %lx at PC %lx", v->vm->id,
			write ? "write" : "read", ipa, v->regs.elr);
		return sched_stop_vm(v, "stage-2 fault");
	}
	if (!write && size < 8) {
		val &= (1ull << (8 * size)) - 1;
		if (FIELD(esr, 21, 21) && (val >> (8 * size - 1)) & 1)
			val |= ~0ull << (8 * size); /* SSE: LDRSB, LDRSH, LDRSW sign-extend */
	}
	if (!write && srt != 31)
		v->regs.x[srt] = FIELD(esr, 15, 15) || size == 8 ? val : (uint32_t)val;
	v->regs.elr += 4;
	return v;
}

static struct vcpu *hvc(struct vcpu *v, uint64_t esr)
{
	if ((esr & 0xffff) == XEN_HVC_IMM) {
		v->regs.x[0] = (uint64_t)-XEN_ENOSYS; /* no Xen hypercalls beyond the layout */
		return v;
	}
	return psci_call(v, false);
}

struct vcpu *trap_sync(struct vcpu *v)
{
	uint64_t esr = read_sysreg(esr_el2);

	switch (FIELD(esr, 31, 26)) {
	case EC_WFX:
		v->regs.elr += 4;
		v->wfi_exits++;
		return (esr & 1) ? v : sched_wfi(v); /* WFI blocks; WFE spins */
	case EC_HVC64:
		return hvc(v, esr);
	case EC_SMC64:
		v->regs.elr += 4; /* a trapped SMC returns to itself (HCR_EL2.TSC) */
		return psci_call(v, true);
	case EC_SYSREG:
		return sysreg(v, esr);
	case EC_SVE:
		return undef(v);
	case EC_DABT:
		return dabt(v, esr);
	case EC_IABT:
		if (s2_lazy_fault(v, fault_ipa()))
			return v;
		return sched_stop_vm(v, "instruction abort");
	default:
		hyp_log("vm%u: unhandled ESR %lx at PC %lx FAR %lx", v->vm->id, esr, v->regs.elr,
			read_sysreg(far_el2));
		return sched_stop_vm(v, "unhandled exception");
	}
}
