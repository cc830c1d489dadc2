// SPDX-License-Identifier: MIT
/*
 * The trap fast path (virt/vpmu/fast.h) is a view of the full path (virt/trap.c,
 * vperf_handle_sysreg_full): for every syndrome it answers, it must answer exactly as the full
 * path would from the same state, and for every syndrome it leaves, it must have done nothing.
 *
 * The differential: for each scenario (partition and mode the policy offers, the guest's N,
 * PMCR_EL0.LP and LC, the PMU version, EL3, the guest's PMUSERENR_EL0) a world is built on the
 * model; then for every encoding of the PMU/SPE space (include/vperf/sysregs.def) and its
 * unallocated neighbours, read and write, at EL0 and EL1, with boundary values (0, all ones, each
 * RES0 bit alone, typical values), the fast path is run. Declined: the vCPU, the statistics, the
 * guest's registers, the PC and the hardware (not one access in the model's trace) are
 * unchanged. Answered: the same world is built again and the full path runs on it; the result
 * (handled, not UNDEF), the guest's registers, the vPMU state, the VM's and pCPU's statistics,
 * the hardware writes in order and the whole register file of the model must be equal. The
 * syndromes are the ISS of an exception from MSR, MRS or System instruction execution (EC 0x18,
 * ESR_EL2 in Arm DDI 0487 K.a, D24.2.40).
 */
#include "cmocka_wrap.h"

#include <stdio.h>
#include <string.h>

#include <arch/sysreg.h>
#include <vperf/esr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "trap.h"
#include "vpmu/fast.h"
#include "vpmu_util.h"

struct scenario {
	enum vperf_pmu_mode mode;
	enum vperf_partition part;
	uint8_t nr;	  /* the guest's N */
	uint64_t pmcr;	  /* LP and LC, with E */
	uint64_t userenr; /* the guest's PMUSERENR_EL0 */
	uint8_t pmuver;
	bool el3, sel2;
	bool hetero;	  /* pCPU 1 has PMUv3p1: the guest is told it, 32-bit counters on pCPU 0 */
	uint32_t deny[2]; /* events the VM's filter denies (0: none; SW_INCR is 0, so deny_sw) */
	bool deny_sw;
};

#define MAX_WRITES 64

struct outcome {
	int result; /* the fast path: 1 answered; the full path: enum vperf_trap_result */
	uint64_t gprs[31];
	struct vperf_vpmu pmu;
	struct vperf_stats vm_stats, pcpu_stats;
	unsigned int undefs, pc_advances;
	uint64_t regs[SIM_NR_REGS];
	unsigned int nr_events;
	struct sim_event writes[MAX_WRITES];
	unsigned int nr_writes;
};

/* What the runs counted, for the report and for a check that the answered cases were many. */
static unsigned int worlds, cases, answered;

/* The world of a scenario: the model with 31 counters, vperf, VM 0 with the policy, its vCPU 0
 * loaded on pCPU 0 with a state that makes every fast-path answer interesting (SW_INCR and CHAIN
 * types, counters one short of a 32-bit and a 64-bit overflow, flags in the shadow and in the
 * hardware, the host's flag too). False when the policy is refused. */
static bool build(const struct scenario *s)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config vm;
	unsigned int host = s->mode == VPERF_PMU_HV ? 1 : 0;

	hv_default_config(&cfg);
	cfg.nr_counters = 31;
	cfg.pmuver = s->pmuver;
	cfg.el3 = s->el3;
	cfg.sel2 = s->el3 && s->sel2;
	cfg.aarch32_el0 = true; /* PMCR_EL0.LC holds what the guest writes */
	/* No EL2 cycles per trap: an access the fast path leaves must not move the counters of a
	 * XENPMU_MODE_ALL world that the next access compares with a fresh one. */
	cfg.el2_trap_cycles = 0;
	if (s->hetero) {
		struct sim_pe_config cfgs[SIM_MAX_CPUS];

		for (unsigned int i = 0; i < SIM_MAX_CPUS; i++)
			cfgs[i] = cfg;
		cfgs[0].pmuver = 6;
		cfgs[1].pmuver = 4;
		hv_init_cpus(cfgs, host);
	} else {
		hv_init(&cfg, host);
	}
	vm = policy(s->mode, s->nr);
	vm.partition = s->part;
	for (unsigned int i = 0; i < 2; i++)
		if (s->deny[i])
			vperf_pmu_filter_set(&vm.filter, s->deny[i], false);
	if (s->deny_sw)
		vperf_pmu_filter_set(&vm.filter, EV_SW_INCR, false);
	if (hv_vm(0, &vm) != VPERF_OK)
		return false;
	worlds++;
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMCR_EL0, PMCR_E | s->pmcr);
	for (unsigned int n = 0; n < s->nr; n++) {
		static const uint64_t types[4] = { EV_SW_INCR, EV_CHAIN, EV_SW_INCR | P_BIT,
						   EV_SW_INCR | U_BIT };
		static const uint64_t values[4] = { 0xffffffffull, 0xfffffffeull, ~0ull,
						    0x1ffffffffull };

		guest_msr(vperf_pmevtyper_enc(n), types[n & 3]);
		guest_msr(vperf_pmevcntr_enc(n), values[(n >> 1) & 3]);
	}
	guest_write(PMCNTENSET_EL0, ~0ull & ~VPERF_BIT(5));
	guest_write(PMINTENSET_EL1, 0x5);
	guest_write(PMOVSSET_EL0, 0x1);
	guest_write(PMSELR_EL0, s->nr ? s->nr - 1u : 0u);
	guest_write(PMUSERENR_EL0, s->userenr);
	/* Flags the hardware raised: the guest's counter 1 and a counter that is not the guest's. */
	sim_poke(0, VPERF_ENC_PMOVSSET_EL0,
		 sim_peek(0, VPERF_ENC_PMOVSSET_EL0) | 0x2 | VPERF_BIT(30));
	/* A PMUv3p5 PE counts on past bit 31 with LP = 0 (I5.3.21): bits a guest told PMUv3p1 must
	 * never see. */
	if (s->hetero && s->nr)
		sim_poke(0, vperf_pmevcntr_enc(0),
			 sim_peek(0, vperf_pmevcntr_enc(0)) | VPERF_BIT(40));
	return true;
}

static void take(struct outcome *o, int result, const uint64_t gprs[31])
{
	const struct hv_vcpu *vc = &hv.vcpu[0];
	const struct sim_cpu *c = sim_cpu(0);

	memset(o, 0, sizeof(*o));
	o->result = result;
	memcpy(o->gprs, gprs, sizeof(o->gprs));
	o->pmu = vc->v.pmu;
	o->vm_stats = hv.vm[0].stats;
	o->pcpu_stats = hv.pcpu[0].stats;
	o->undefs = hv.undefs;
	o->pc_advances = hv.pc_advances;
	memcpy(o->regs, c->regs, sizeof(o->regs));
	o->nr_events = (unsigned int)c->trace_len;
	for (uint64_t i = 0; i < c->trace_len && i < SIM_TRACE_LEN; i++) {
		const struct sim_event *e = sim_trace_at(0, i);

		if (e->kind == SIM_WRITE && o->nr_writes < MAX_WRITES)
			o->writes[o->nr_writes++] = *e;
	}
}

struct access {
	uint64_t esr;
	unsigned int el;
	uint64_t val; /* in every GPR (Rt's included) */
};

static void fill(uint64_t gprs[31], uint64_t val)
{
	for (unsigned int i = 0; i < 31; i++)
		gprs[i] = val ^ i * 0x100000000ull; /* Rt's value, and the others distinct */
}

/* One path on the current world, the trace cleared first, the syndrome as taken at EL2. */
static void run(const struct access *a, bool fast, struct outcome *o)
{
	uint64_t gprs[31];
	int r;

	fill(gprs, a->val);
	sim_clear_counts(0);
	hv.raw_el = (int)a->el;
	sim_enter_el2(0);
	if (fast)
		r = vperf_vpmu_fast_access(&hv.vcpu[0].v, a->esr, gprs);
	else
		r = (int)vperf_handle_sysreg_full(&hv.vcpu[0].v, a->esr, gprs);
	sim_exit_el2(0);
	hv.raw_el = -1;
	take(o, r, gprs);
}

static void describe(char *buf, size_t len, const struct scenario *s, const struct access *a)
{
	struct vperf_esr_sysreg d = { 0 };

	vperf_esr_decode_sysreg(a->esr, &d);
	snprintf(buf, len,
		 "mode %d part %d N %u pmcr %#llx userenr %#llx pmuver %u el3 %d sel2 %d deny %#x "
		 "%#x sw %d hetero %d | esr %#llx (enc %#x rt %u %s) el %u val %#llx",
		 s->mode, s->part, s->nr, (unsigned long long)s->pmcr,
		 (unsigned long long)s->userenr, s->pmuver, s->el3, s->sel2, s->deny[0], s->deny[1],
		 s->deny_sw, s->hetero, (unsigned long long)a->esr, d.enc, d.rt,
		 d.read ? "MRS" : "MSR", a->el, (unsigned long long)a->val);
}

static void differs(const struct scenario *s, const struct access *a, const char *what)
{
	char buf[256];

	describe(buf, sizeof(buf), s, a);
	fail_msg("%s: %s", what, buf);
}

/* Declined: the fast path did nothing at all. */
static void check_declined(const struct scenario *s, const struct access *a,
			   const struct outcome *before, const struct outcome *o)
{
	uint64_t gprs[31];

	fill(gprs, a->val);
	if (memcmp(o->gprs, gprs, sizeof(gprs)))
		differs(s, a, "declined, yet a guest register changed");
	if (memcmp(&o->pmu, &before->pmu, sizeof(o->pmu)))
		differs(s, a, "declined, yet the vPMU state changed");
	if (memcmp(&o->vm_stats, &before->vm_stats, sizeof(o->vm_stats)) ||
	    memcmp(&o->pcpu_stats, &before->pcpu_stats, sizeof(o->pcpu_stats)))
		differs(s, a, "declined, yet the statistics changed");
	if (o->undefs != before->undefs || o->pc_advances != before->pc_advances)
		differs(s, a, "declined, yet UNDEF or a PC advance");
	if (o->nr_events)
		differs(s, a, "declined, yet the hardware was accessed");
}

static void check_equal(const struct scenario *s, const struct access *a, const struct outcome *f,
			const struct outcome *full)
{
	if (full->result != VPERF_TRAP_HANDLED)
		differs(s, a, "the fast path answers what the full path makes UNDEF or leaves");
	if (memcmp(f->gprs, full->gprs, sizeof(f->gprs)))
		differs(s, a, "guest registers differ");
	if (memcmp(&f->pmu, &full->pmu, sizeof(f->pmu)))
		differs(s, a, "vPMU state differs");
	if (memcmp(&f->vm_stats, &full->vm_stats, sizeof(f->vm_stats)) ||
	    memcmp(&f->pcpu_stats, &full->pcpu_stats, sizeof(f->pcpu_stats)))
		differs(s, a, "statistics differ");
	if (f->undefs != full->undefs || f->pc_advances != full->pc_advances)
		differs(s, a, "UNDEF or PC advance differs");
	if (f->nr_writes != full->nr_writes ||
	    memcmp(f->writes, full->writes, f->nr_writes * sizeof(f->writes[0])))
		differs(s, a, "hardware writes differ");
	for (unsigned int i = 0; i < SIM_NR_REGS; i++)
		if (f->regs[i] != full->regs[i]) {
			fprintf(stderr, "%s: fast %#llx, full %#llx\n", sim_arch_reg_at(i)->name,
				(unsigned long long)f->regs[i], (unsigned long long)full->regs[i]);
			differs(s, a, "the model's registers differ");
		}
}

/* One access on a world: returns false when the world was changed (answered), so the caller
 * builds it again. */
static bool one(const struct scenario *s, const struct access *a)
{
	struct outcome before, f, full;
	uint64_t none[31] = { 0 };

	cases++;
	take(&before, 0, none);
	run(a, true, &f);
	if (!f.result) {
		check_declined(s, a, &before, &f);
		return true;
	}
	answered++;
	assert_true(build(s));
	run(a, false, &full);
	check_equal(s, a, &f, &full);
	return false;
}

/* The encodings: every one in op0 = 3, op1 0 and 3, CRn 9 and 14: the whole PMU/SPE space and
 * its neighbours (TRBE's CRm 11, the unallocated CRm around the PMU's). */
#define MAX_ENCS 512
static uint32_t encs[MAX_ENCS];
static unsigned int nr_encs;

static void list_encodings(void)
{
	static const unsigned int op1s[2] = { 0, 3 }, crns[2] = { 9, 14 };

	for (unsigned int i = 0; i < 2; i++)
		for (unsigned int j = 0; j < 2; j++)
			for (unsigned int crm = 0; crm < 16; crm++)
				for (unsigned int op2 = 0; op2 < 8; op2++)
					encs[nr_encs++] =
						VPERF_SYSREG_ENC(3, op1s[i], crns[j], crm, op2);
}

/* The values written: the boundaries, typical types and increments, each RES0 bit of the
 * register alone (the database's and the type's event-number bits the PMU lacks). */
static unsigned int values_for(uint32_t enc, uint64_t *v)
{
	const struct vperf_sysreg_desc *d = vperf_sysreg_lookup(enc);
	uint64_t res0 = d ? d->res0 : 0;
	unsigned int k = 0;

	v[k++] = 0;
	v[k++] = ~0ull;
	v[k++] = 1;
	v[k++] = 0x2;
	v[k++] = 0x7fffffff;
	v[k++] = EV_CYCLES | P_BIT;
	v[k++] = EV_CHAIN;
	v[k++] = 0x3ff;
	v[k++] = 0xffff;
	v[k++] = NSK_BIT | NSH_BIT | M_BIT | EV_INST;
	if (d && (d->slot == VPERF_SLOT_PMEVTYPER || d->slot == VPERF_SLOT_PMXEVTYPER))
		res0 |= PMEVTYPER_EVT;
	for (unsigned int b = 0; b < 64; b++)
		if (res0 & VPERF_BIT(b))
			v[k++] = VPERF_BIT(b);
	return k;
}

static void run_scenario(const struct scenario *s)
{
	static const unsigned int rts[3] = { 0, 17, ESR_RT_XZR };
	uint64_t vals[80];

	if (!build(s))
		return;
	for (unsigned int e = 0; e < nr_encs; e++) {
		unsigned int nv = values_for(encs[e], vals);

		for (unsigned int el = 0; el < 2; el++) {
			for (unsigned int r = 0; r < 3; r++) {
				struct access a = { vperf_esr_encode_sysreg(encs[e], rts[r], true),
						    el, 0x5a5a5a5a00000000ull };

				if (!one(s, &a))
					assert_true(build(s));
			}
			for (unsigned int i = 0; i < nv; i++) {
				struct access a = { vperf_esr_encode_sysreg(encs[e], rts[i % 3],
									    false),
						    el, vals[i] };

				if (!one(s, &a))
					assert_true(build(s));
			}
		}
	}
}

static const enum vperf_pmu_mode modes[3] = { VPERF_PMU_SELF, VPERF_PMU_HV, VPERF_PMU_ALL };
static const uint64_t lplc[4] = { 0, PMCR_LP, PMCR_LC, PMCR_LP | PMCR_LC };
static const uint64_t userenrs[3] = { 0, PMUSERENR_EN, PMUSERENR_SW | PMUSERENR_CR | PMUSERENR_ER };

/*
 * The trapped partition, where the fast path answers: every N from 0 to 31, each with one draw,
 * round-robin, of PMCR_EL0.LP/LC, the mode, the guest's PMUSERENR_EL0, the PMU version, EL3 (and
 * Secure EL2) and the VM's event filter, so that every value of every dimension meets many N
 * without the whole product (each answered access costs two worlds).
 */
static void test_trapped_partition(void **state)
{
	static const uint8_t pmuvers[3] = { 6, 1, 4 };
	static const uint32_t denies[5][2] = {
		{ 0, 0 }, { EV_CHAIN, 0 }, { EV_CYCLES, EV_INST }, { 0, 0 }, { EV_CHAIN, EV_CYCLES }
	};

	(void)state;
	for (unsigned int nr = 0; nr <= 31; nr++) {
		struct scenario s = { .mode = modes[nr % 3],
				      .part = VPERF_PART_TRAPPED,
				      .nr = (uint8_t)nr,
				      .pmcr = lplc[nr % 4],
				      .userenr = userenrs[(nr / 3) % 3],
				      .pmuver = pmuvers[(nr / 4) % 3],
				      .el3 = (nr / 2) & 1,
				      .sel2 = (nr / 4) & 1,
				      .deny = { denies[nr % 5][0], denies[nr % 5][1] },
				      .deny_sw = nr % 5 == 3,
				      .hetero = nr % 7 == 2 };

		run_scenario(&s);
	}
	printf("trapped: %u worlds, %u accesses, %u answered by the fast path\n", worlds, cases,
	       answered);
	assert_true(answered > 1000);
}

/* The other partitions, every mode: the fast path answers nothing and touches nothing. */
static void test_other_partitions(void **state)
{
	static const enum vperf_partition parts[2] = { VPERF_PART_DIRECT, VPERF_PART_EMULATED };
	static const uint8_t nrs[4] = { 0, 1, 8, 29 };

	(void)state;
	answered = 0;
	for (unsigned int p = 0; p < 2; p++)
		for (unsigned int m = 0; m < 3; m++)
			for (unsigned int i = 0; i < 4; i++) {
				struct scenario s = { .mode = modes[m],
						      .part = parts[p],
						      .nr = nrs[i],
						      .pmcr = lplc[(m + i) & 3],
						      .userenr = userenrs[i % 3],
						      .pmuver = 6,
						      .el3 = i & 1 };

				run_scenario(&s);
			}
	assert_int_equal(answered, 0);
}

/* Syndromes the decoder must not take for an MSR/MRS of the space: another EC, and the ISS2
 * and RES0 bits above [31:0] set (the fast path and the full path must agree on both). */
static void test_odd_syndromes(void **state)
{
	struct scenario s = {
		.mode = VPERF_PMU_SELF, .part = VPERF_PART_TRAPPED, .nr = 4, .pmuver = 6
	};
	uint64_t esr = vperf_esr_encode_sysreg(VPERF_ENC_PMCCNTR_EL0, 3, true);
	struct access other_ec = { (esr & ~(uint64_t)ESR_EC_MASK) | (0x17ull << ESR_EC_SHIFT), 1,
				   0 };
	struct access high = { esr | (0x1full << 32), 1, 0 };

	(void)state;
	assert_true(build(&s));
	one(&s, &other_ec);
	assert_true(build(&s));
	one(&s, &high);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trapped_partition),
		cmocka_unit_test(test_other_partitions),
		cmocka_unit_test(test_odd_syndromes),
	};

	list_encodings();
	return cmocka_run_group_tests_name("trap_fast_vs_full", tests, NULL, NULL);
}
