// SPDX-License-Identifier: MIT
/*
 * The hypervisor's side of vperf: the ops contract, the counters the host keeps for itself in
 * the second range [HPMN, N) (MDCR_EL2.HPMN; docs/design.md, "Counter ranges"), the checks that those
 * counters were never disturbed by a guest (the EL2 instruction counts `make bench` reports are
 * pmu_bench.c's).
 *
 * Host counter roles, from HPMN up (PMEVTYPER: P [31] excludes EL1, U [30] excludes EL0, NSH
 * [27] includes EL2; Arm ARM D19 PMEVTYPER<n>_EL0):
 *   0  SW_INCR (0x00) at EL2: the host increments it once per vCPU switch; it must end equal to
 *      the number of increments, whatever the guests did to their PMUs;
 *   1  CPU_CYCLES (0x11) at EL1/EL0 only: sees guest time only while MDCR_EL2.HPME = 1, which
 *      vperf keeps for XENPMU_MODE_HV guests and clears for SELF guests;
 *   2  INST_RETIRED (0x08) at EL2 only: with QEMU -icount it counts EL2 instructions exactly.
 */
#include "hyp.h"

#define EVT_SW_INCR	 0x00u
#define EVT_INST_RETIRED 0x08u
#define EVT_CPU_CYCLES	 0x11u
#define EVT_P		 BIT(31)
#define EVT_U		 BIT(30)
#define EVT_NSH		 BIT(27)

static const uint64_t role_type[3] = {
	EVT_P | EVT_U | EVT_NSH | EVT_SW_INCR,
	EVT_CPU_CYCLES,
	EVT_P | EVT_U | EVT_NSH | EVT_INST_RETIRED,
};

/* Per pCPU: its reserved counters are its own. `mismatch`: its software-increment counter differed
 * from the increments made so far at one of its checks (every tick, every idle), made on the pCPU
 * itself, as the report, which runs on one pCPU, cannot read another's counters and a pCPU may
 * still tick after its last idle. `intact` is what it saw when it last went idle. */
static struct host_cpu {
	uint64_t swinc, last_cycles;
	uint64_t off_at, off_read; /* the first check that found it off: increments, counter */
	bool intact, mismatch;
	uint64_t guest_cycles[MAX_VMS];
} hcpu[MAX_PCPUS];

static struct {
	uint64_t overflows, notices, errors;
} host;

#define PMEV_CASE(n)                                           \
	case n:                                                \
		if (write)                                     \
			write_sysreg(val, pmevcntr##n##_el0);  \
		else                                           \
			val = read_sysreg(pmevcntr##n##_el0);  \
		break;                                         \
	case 32 + n:                                           \
		if (write)                                     \
			write_sysreg(val, pmevtyper##n##_el0); \
		else                                           \
			val = read_sysreg(pmevtyper##n##_el0); \
		break;

/* Event counter n (reg = 0) or its type register (reg = 32); QEMU has at most 31 counters but
 * the host's are among the first 24 everywhere we run (-cpu max 6, cortex-a710 20). */
static uint64_t pmev(unsigned int n, unsigned int reg, bool write, uint64_t val)
{
	switch (n + reg) {
		PMEV_CASE(0)
		PMEV_CASE(1)
		PMEV_CASE(2)
		PMEV_CASE(3)
		PMEV_CASE(4)
		PMEV_CASE(5)
		PMEV_CASE(6)
		PMEV_CASE(7)
		PMEV_CASE(8)
		PMEV_CASE(9)
		PMEV_CASE(10)
		PMEV_CASE(11)
		PMEV_CASE(12)
		PMEV_CASE(13)
		PMEV_CASE(14)
		PMEV_CASE(15)
		PMEV_CASE(16)
		PMEV_CASE(17)
		PMEV_CASE(18)
		PMEV_CASE(19)
		PMEV_CASE(20)
		PMEV_CASE(21)
		PMEV_CASE(22)
		PMEV_CASE(23)
	default:
		break;
	}
	return val;
}

static bool has_role(unsigned int r)
{
	return hyp.host_counters > r && this_pcpu()->vperf.hpmn + r < 24;
}

static uint64_t role_read(unsigned int r)
{
	return has_role(r) ? pmev(this_pcpu()->vperf.hpmn + r, 0, false, 0) : 0;
}

uint64_t pmu_host_el2_insns(void)
{
	return role_read(2);
}

static void op_inject_undef(void *hv_vcpu)
{
	vcpu_inject_undef(hv_vcpu);
}

static void op_advance_pc(void *hv_vcpu)
{
	((struct vcpu *)hv_vcpu)->regs.elr += 4;
}

static unsigned int op_guest_el(void *hv_vcpu)
{
	return (unsigned int)FIELD(((struct vcpu *)hv_vcpu)->regs.spsr, 3, 2);
}

static void op_set_irq_line(void *hv_vcpu, uint32_t intid, bool level)
{
	pmu_host_bench_irq_line();
	if (hyp.mutant == MUT_NO_IRQ)
		return;
	vgic_set_level(hv_vcpu, intid, level);
}

static void op_host_overflow(uint64_t ovs)
{
	(void)ovs;
	host.overflows++;
}

/* vperf's log lines, each naming the VM whose vCPU this pCPU runs. Errors are always printed.
 * Notices (a guest wrote something it should not have and got the architectural outcome: the
 * conformance suite's deliberate RES0 writes, Linux's event number in PMCCFILTR_EL0's RES0 bits
 * at every schedule) are counted in the VM's bad-value statistic, printed at the end, and shown
 * one by one only with loglevel=1 (loglevel=2: debug lines too), the first 8 then: a console
 * line each time would slow the guest down. */
#define LOG_NOTICES_SHOWN 8

static void op_log(enum vperf_log_level level, const char *msg)
{
	static const char *const level_name[] = { "error", "notice", "debug" };
	const struct vcpu *v = this_pcpu()->current;
	char who[8] = "host";

	if (level > hyp.loglevel)
		return;
	if (level == VPERF_LOG_ERR)
		host.errors++;
	if (level != VPERF_LOG_ERR && ++host.notices > LOG_NOTICES_SHOWN) {
		if (host.notices == LOG_NOTICES_SHOWN + 1)
			hyp_log("vperf: further notices not shown (counted at the end)");
		return;
	}
	if (v)
		snprintf(who, sizeof(who), "vm%u", v->vm->id);
	hyp_log("%s: vperf %s: %s", who, level <= VPERF_LOG_DEBUG ? level_name[level] : "?", msg);
}

const struct vperf_hyp_ops hyp_vperf_ops = {
	.inject_undef = op_inject_undef,
	.advance_pc = op_advance_pc,
	.guest_el = op_guest_el,
	.set_irq_line = op_set_irq_line,
	.stage2_map = spe_stage2_map,
	.guest_va_to_ipa = spe_guest_va_to_ipa,
	.host_pmu_overflow = op_host_overflow,
	.log = op_log,
};

void pmu_host_init(void)
{
	if (vperf_init(&hyp_vperf_ops))
		hyp_panic("vperf_init refused the ops");
	pmu_host_cpu_init();
}

/* On each pCPU, running on it. */
void pmu_host_cpu_init(void)
{
	/* Debian's QEMU enforces MDCR_EL2.HPMN only partly at EL1 (docs/vpmu.md, docs/qemu.md),
	 * the project's fully: measured, not claimed (hpmn_probe.c). Where it is not enforced,
	 * vperf refuses the direct partition, which would not isolate there. */
	bool enforced = hpmn_probe();
	struct vperf_pcpu_config cfg = { .host_counters = (uint8_t)hyp.host_counters,
					 .hpmn_unenforced = !enforced,
					 .host_spe = spe_outside_wanted() };
	int err;

	this_pcpu()->hpmn_enforced = enforced;
	err = vperf_pcpu_init(&this_pcpu()->vperf, &cfg);
	if (err)
		hyp_panic("vperf_pcpu_init: %d", err);
	hyp_log("PMUVer %u, PMCR_EL0.N %u: guests [0, %u), host [%u, %u)",
		this_pcpu()->vperf.caps.pmuver, this_pcpu()->vperf.caps.nr_counters,
		this_pcpu()->vperf.hpmn, this_pcpu()->vperf.hpmn, this_pcpu()->vperf.epmn);
	/* The host's MDCR_EL2 (HPMN, HPME) from now on; vperf changes it around guests only. */
	write_sysreg(this_pcpu()->vperf.host_mdcr, mdcr_el2);
	isb();
	spe_outside_cpu_init();
	for (unsigned int r = 0; r < 3; r++) {
		if (!has_role(r))
			continue;
		pmev(this_pcpu()->vperf.hpmn + r, 32, true, role_type[r]);
		pmev(this_pcpu()->vperf.hpmn + r, 0, true, 0);
		write_sysreg(BIT(this_pcpu()->vperf.hpmn + r), pmcntenset_el0);
	}
	isb();
}

/* The software-increment counter against the increments made so far on this pCPU. */
static void check_swinc(struct host_cpu *h)
{
	uint64_t v = role_read(0);

	if (v != h->swinc && !h->mismatch) {
		h->off_at = h->swinc;
		h->off_read = v;
	}
	h->mismatch |= v != h->swinc;
}

/* Between vperf_vcpu_put() of prev and the next load: the host owns MDCR_EL2 again. */
void pmu_host_tick(const struct vcpu *prev)
{
	struct host_cpu *h = &hcpu[this_pcpu()->id];
	uint64_t cycles = role_read(1);

	if (prev)
		h->guest_cycles[prev->vm->id] += cycles - h->last_cycles;
	h->last_cycles = cycles;
	if (has_role(0)) {
		check_swinc(h);
		write_sysreg(BIT(this_pcpu()->vperf.hpmn), pmswinc_el0);
		/* The increment, an indirect write of the counter, is guaranteed to a later
		 * direct read only after a context synchronization event (Arm DDI 0487 K.a
		 * D24.1.2.2, "Synchronization requirements for AArch64 System registers"). */
		isb();
		h->swinc++;
	}
}

/* Whether this pCPU's counters are as the host programmed them. */
static bool counters_intact(void)
{
	uint64_t en = read_sysreg(pmcntenset_el0);
	bool intact = true;

	for (unsigned int r = 0; r < 3; r++)
		if (has_role(r))
			intact &= pmev(this_pcpu()->vperf.hpmn + r, 32, false, 0) == role_type[r] &&
				  (en & BIT(this_pcpu()->vperf.hpmn + r));
	return intact;
}

/* This pCPU runs no vCPU now (sched.c): record its counters for the final report. */
void pmu_host_idle(void)
{
	struct host_cpu *h = &hcpu[this_pcpu()->id];

	if (has_role(0))
		check_swinc(h);
	h->intact = counters_intact();
}

static void result(const char *name, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void result(const char *name, bool ok, const char *fmt, ...)
{
	char detail[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	printf("RESULT host %s %s %s\n", name, ok ? "PASS" : "FAIL", detail);
}

/* Whether the host's counters were left exactly as it programmed them, and what the HV/SELF
 * policies let it see of each VM. */
static void report_counters(void)
{
	bool intact = true;
	uint64_t swinc = 0, guest_cycles[MAX_VMS] = { 0 };
	unsigned int mismatched = 0, first = 0;

	pmu_host_idle();
	for (unsigned int c = 0; c < hyp.nr_pcpus; c++) {
		const struct host_cpu *h = &hcpu[c];

		intact &= h->intact;
		if (h->mismatch && !mismatched++)
			first = c;
		swinc += h->swinc;
		for (unsigned int i = 0; i < hyp.nr_vms; i++)
			guest_cycles[i] += h->guest_cycles[i];
	}
	if (has_role(0))
		result("host-counters-intact", intact, "types and enables of [%u, %u) on %u pCPU",
		       this_pcpu()->vperf.hpmn, this_pcpu()->vperf.epmn, hyp.nr_pcpus);
	if (has_role(0))
		result("host-swinc-exact", !mismatched,
		       "incremented %lu; off on %u of %u pCPU (first: pCPU %u read %lu after %lu)",
		       swinc, mismatched, hyp.nr_pcpus, first, hcpu[first].off_read,
		       hcpu[first].off_at);
	for (unsigned int i = 0; has_role(1) && i < hyp.nr_vms; i++) {
		const struct vm *vm = &hyp.vms[i];
		char name[32];

		if (!vm->has_vpmu)
			continue;
		bool sees = vm->cfg.pmu == VPERF_PMU_HV || vm->cfg.pmu == VPERF_PMU_ALL;

		snprintf(name, sizeof(name), "vm%u-%s-host-view", i,
			 vm->cfg.pmu == VPERF_PMU_HV	? "hv"
			 : vm->cfg.pmu == VPERF_PMU_ALL ? "all"
							: "self");
		/* HV and ALL: the host's counter counts the guest; SELF: it must see none of it. */
		result(name, sees == (guest_cycles[i] != 0),
		       "host EL1/EL0 cycles during the guest %lu (%s)", guest_cycles[i],
		       pmu_mode_name(vm->cfg.pmu));
	}
}

/* vperf found nothing wrong with this integration: no error line (a contract broken, e.g. a load
 * without a put, or a vCPU loaded elsewhere than where a lazy put parked it) and no misuse
 * counted on any pCPU. Not under a mutant: a deliberately broken integration (must-fail) has to
 * be caught by the guests' own tests, not by vperf's complaint. */
static void report_vperf_errors(void)
{
	uint64_t misuse = 0;

	if (hyp.mutant != MUT_NONE)
		return;
	for (unsigned int c = 0; c < hyp.nr_pcpus; c++)
		misuse += hyp.pcpus[c].vperf.stats.misuse;
	result("vperf-errors", !host.errors && !misuse, "%lu error lines, misuse %lu on %u pCPU",
	       host.errors, misuse, hyp.nr_pcpus);
}

void pmu_host_report(void)
{
	for (unsigned int i = 0; i < hyp.nr_vms; i++)
		trap_report_vm(&hyp.vms[i]);
	report_vperf_errors();
	hyp_log("  (bad-value: guest writes of RES0 bits or out-of-range values, ignored as the "
		"architecture says; loglevel=1 prints each)");
	hyp_log("host PMU overflows %lu, stray %lu", host.overflows,
		this_pcpu()->vperf.stats.stray_overflows);
	if (host.notices > LOG_NOTICES_SHOWN)
		hyp_log("vperf notices: %lu (%lu not shown)", host.notices,
			host.notices - LOG_NOTICES_SHOWN);
	report_counters();
	hpmn_report();
	spe_report();
	spe_outside_report();
	if (hyp.bench)
		pmu_host_bench_report();
}
