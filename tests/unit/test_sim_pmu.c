// SPDX-License-Identifier: MIT
/*
 * The model's PMUv3: the trap and UNDEF rules with the exact ESR_EL2, counter semantics
 * (events, filters, widths, overflow, CHAIN), the three counter ranges, EL2 prohibition, and the
 * PMUIRQ level. Expected values are worked out by hand from the Arm DDI 0487 K.a rules cited.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/barrier.h>
#include <arch/sysreg.h>
#include <sim/model.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#define EV_CYCLES  0x11
#define EV_INST	   0x08
#define EV_CHAIN   0x1e
#define NSH	   VPERF_BIT(27)
#define U_BIT	   VPERF_BIT(30)
#define PMU_LC_BIT VPERF_BIT(6)

/* The test hypervisor: emulates every trapped access as read-as-0x5a / write-ignored, or
 * injects UNDEF, and can misbehave on request. */
static struct {
	bool undef;
	bool undecided;
	bool clobber;
	unsigned int calls;
	uint64_t esr;
} hyp;

static void trap(void *ctx, unsigned int cpu, uint64_t esr, uint64_t gprs[31])
{
	unsigned int rt = (unsigned int)((esr >> 5) & 31);

	(void)ctx;
	(void)cpu;
	hyp.calls++;
	hyp.esr = esr;
	if (hyp.clobber)
		gprs[(rt + 1) % 31] ^= 1;
	if (hyp.undecided)
		return;
	if (hyp.undef) {
		sim_inject_undef();
		return;
	}
	if (esr & 1)
		gprs[rt] = 0x5a;
	sim_advance_pc();
}

static int setup(void **state)
{
	struct sim_pe_config cfg;
	const struct sim_handlers h = { .sysreg_trap = trap };

	(void)state;
	memset(&hyp, 0, sizeof(hyp));
	sim_default_config(&cfg);
	cfg.el2_trap_cycles = 0;
	cfg.reset_zero = true;
	sim_model_init(&cfg);
	sim_set_handlers(&h);
	sim_set_el(1);
	return 0;
}

static void set_mdcr(uint64_t mdcr)
{
	sim_poke(0, VPERF_ENC_MDCR_EL2, mdcr);
}

static const struct sim_uop plain = { .pc = 0x1000, .latency = 3, .type = SIM_UOP_OTHER };

/* ---- trap rules -------------------------------------------------------------------------- */

struct rule_case {
	uint32_t enc;
	unsigned int el;
	uint64_t mdcr;
	uint64_t pmuserenr;
	bool read;
	enum sim_access expect;
};

#define TPM   MDCR_EL2_TPM
#define TPMCR MDCR_EL2_TPMCR
#define HPMN6 6u
#define HPMN3 3u

/* Each row from the accessibility rules (see pmu.c's header comment for the priority). */
static const struct rule_case rules[] = {
	/* EL1, no traps: performed. */
	{ VPERF_ENC_PMCR_EL0, 1, HPMN6, 0, true, SIM_ACC_OK },
	/* TPM traps every PMU register from EL1; TPMCR only PMCR_EL0. */
	{ VPERF_ENC_PMCR_EL0, 1, HPMN6 | TPM, 0, true, SIM_ACC_TRAP_EL2 },
	{ VPERF_ENC_PMCR_EL0, 1, HPMN6 | TPMCR, 0, false, SIM_ACC_TRAP_EL2 },
	{ VPERF_ENC_PMCCNTR_EL0, 1, HPMN6 | TPMCR, 0, true, SIM_ACC_OK },
	{ VPERF_ENC_PMINTENSET_EL1, 1, HPMN6 | TPM, 0, false, SIM_ACC_TRAP_EL2 },
	{ VPERF_ENC_PMUSERENR_EL0, 1, HPMN6 | TPM, 0, true, SIM_ACC_TRAP_EL2 },
	/* Counters at or above HPMN are UNDEFINED at EL1, before TPM. */
	{ VPERF_ENC_PMEVCNTR3_EL0, 1, HPMN3 | TPM, 0, true, SIM_ACC_UNDEF },
	{ VPERF_ENC_PMEVTYPER5_EL0, 1, HPMN3, 0, false, SIM_ACC_UNDEF },
	{ VPERF_ENC_PMEVCNTR2_EL0, 1, HPMN3 | TPM, 0, true, SIM_ACC_TRAP_EL2 },
	/* Counters at or above N (6) are UNDEFINED even with HPMN = N. */
	{ VPERF_ENC_PMEVCNTR6_EL0, 1, HPMN6, 0, true, SIM_ACC_UNDEF },
	/* EL0: PMUSERENR_EL0.EN = 0 traps to EL1, ahead of TPM. */
	{ VPERF_ENC_PMCR_EL0, 0, HPMN6 | TPM, 0, true, SIM_ACC_TRAP_EL1 },
	{ VPERF_ENC_PMCR_EL0, 0, HPMN6 | TPM, PMUSERENR_EN, true, SIM_ACC_TRAP_EL2 },
	{ VPERF_ENC_PMCR_EL0, 0, HPMN6, PMUSERENR_EN, false, SIM_ACC_OK },
	/* CR: cycle counter reads only; ER: event counter reads and PMSELR; SW: PMSWINC. */
	{ VPERF_ENC_PMCCNTR_EL0, 0, HPMN6, PMUSERENR_CR, true, SIM_ACC_OK },
	{ VPERF_ENC_PMCCNTR_EL0, 0, HPMN6, PMUSERENR_CR, false, SIM_ACC_TRAP_EL1 },
	{ VPERF_ENC_PMEVCNTR1_EL0, 0, HPMN6, PMUSERENR_ER, true, SIM_ACC_OK },
	{ VPERF_ENC_PMEVCNTR1_EL0, 0, HPMN6, PMUSERENR_ER, false, SIM_ACC_TRAP_EL1 },
	{ VPERF_ENC_PMSELR_EL0, 0, HPMN6, PMUSERENR_ER, false, SIM_ACC_OK },
	{ VPERF_ENC_PMEVTYPER1_EL0, 0, HPMN6, PMUSERENR_ER, true, SIM_ACC_TRAP_EL1 },
	{ VPERF_ENC_PMSWINC_EL0, 0, HPMN6, PMUSERENR_SW, false, SIM_ACC_OK },
	{ VPERF_ENC_PMSWINC_EL0, 0, HPMN6 | TPM, PMUSERENR_SW, false, SIM_ACC_TRAP_EL2 },
	/* EL1-only registers are UNDEFINED at EL0; PMUSERENR_EL0 is read-only there. */
	{ VPERF_ENC_PMINTENSET_EL1, 0, HPMN6, PMUSERENR_EN, true, SIM_ACC_UNDEF },
	{ VPERF_ENC_PMUSERENR_EL0, 0, HPMN6, 0, true, SIM_ACC_OK },
	{ VPERF_ENC_PMUSERENR_EL0, 0, HPMN6, PMUSERENR_EN, false, SIM_ACC_UNDEF },
	/* Wrong direction and absent features. */
	{ VPERF_ENC_PMCEID0_EL0, 1, HPMN6, 0, false, SIM_ACC_UNDEF },
	{ VPERF_ENC_PMSWINC_EL0, 1, HPMN6, 0, true, SIM_ACC_UNDEF },
	{ VPERF_ENC_PMZR_EL0, 1, HPMN6, 0, false, SIM_ACC_UNDEF }, /* PMUv3p9 only */
	{ VPERF_ENC_PMMIR_EL1, 1, HPMN6, 0, true, SIM_ACC_OK },	   /* PMUv3p4+ */
	/* EL2 registers and SPE (absent by default) are UNDEFINED at EL1. */
	{ VPERF_ENC_MDCR_EL2, 1, HPMN6, 0, true, SIM_ACC_UNDEF },
	{ VPERF_ENC_PMSCR_EL1, 1, HPMN6, 0, true, SIM_ACC_UNDEF },
};

/* HCR_EL2.TGE routes the EL0 trap that would go to EL1 to EL2 instead. */
static void test_tge_routes_el0_traps(void **state)
{
	(void)state;
	set_mdcr(HPMN6);
	sim_poke(0, VPERF_ENC_PMUSERENR_EL0, 0);
	sim_set_el(0);
	guest_read(PMCCNTR_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL1);
	sim_poke(0, VPERF_ENC_HCR_EL2, VPERF_BIT(27));
	guest_read(PMCCNTR_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	assert_int_equal(hyp.esr >> 26, 0x18);
}

static void test_trap_rules(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule_case *c = &rules[i];

		set_mdcr(c->mdcr);
		sim_poke(0, VPERF_ENC_PMUSERENR_EL0, c->pmuserenr);
		sim_set_el(c->el);
		if (c->read)
			guest_mrs(c->enc);
		else
			guest_msr(c->enc, 0);
		if (sim_guest_stats(0)->last != c->expect)
			fail_msg("row %zu: outcome %d, expected %d", i, sim_guest_stats(0)->last,
				 c->expect);
	}
	assert_int_equal(sim_error_count(), 0);
}

static bool el1_only(const struct vperf_sysreg_desc *d)
{
	return d->enc == VPERF_ENC_PMINTENSET_EL1 || d->enc == VPERF_ENC_PMINTENCLR_EL1 ||
	       d->enc == VPERF_ENC_PMMIR_EL1;
}

/* Every PMU register of the database, read and written, at EL0 (PMUSERENR_EL0.EN = 1) and EL1,
 * under every TPM/TPMCR combination, with HPMN = N: a direction the register has traps to EL2
 * exactly when TPM is set, or TPMCR for PMCR_EL0, with the register's own syndrome. */
static void test_trap_matrix(void **state)
{
	unsigned int checked = 0;

	(void)state;
	sim_poke(0, VPERF_ENC_PMUSERENR_EL0, PMUSERENR_EN);
	for (size_t i = 0; i < VPERF_SR_COUNT; i++) {
		const struct vperf_sysreg_desc *d = &vperf_sysregs[i];

		if (!(d->trap & VPERF_TRAP_TPM) || d->feat == VPERF_FEAT_PMUV3P9 ||
		    d->feat == VPERF_FEAT_PMUV3_ICNTR)
			continue;
		if ((d->slot == VPERF_SLOT_PMEVCNTR || d->slot == VPERF_SLOT_PMEVTYPER) &&
		    vperf_pmev_index(d->enc) >= 6)
			continue;
		for (unsigned int k = 0; k < 16; k++) {
			unsigned int el = k & 1;
			bool read = k & 2, tpm = k & 4, tpmcr = k & 8;
			bool exists = d->access & (read ? VPERF_ACC_RO : VPERF_ACC_WO);
			bool undef = !exists || (el == 0 && el1_only(d)) ||
				     (el == 0 && d->enc == VPERF_ENC_PMUSERENR_EL0 && !read);
			bool traps = tpm || (tpmcr && d->enc == VPERF_ENC_PMCR_EL0);
			enum sim_access want = undef   ? SIM_ACC_UNDEF
					       : traps ? SIM_ACC_TRAP_EL2
						       : SIM_ACC_OK;

			set_mdcr(HPMN6 | (tpm ? TPM : 0) | (tpmcr ? TPMCR : 0));
			sim_poke(0, VPERF_ENC_PMSELR_EL0, 0);
			sim_poke(0, VPERF_ENC_PMUSERENR_EL0, PMUSERENR_EN);
			sim_set_el(el);
			hyp.esr = 0;
			if (read)
				guest_mrs(d->enc);
			else
				guest_msr(d->enc, 0);
			if (sim_guest_stats(0)->last != want)
				fail_msg("%s el%u %s tpm%d tpmcr%d: %d, expected %d", d->name, el,
					 read ? "read" : "write", tpm, tpmcr,
					 sim_guest_stats(0)->last, want);
			if (want == SIM_ACC_TRAP_EL2) {
				uint64_t e = hyp.esr;
				uint32_t enc = VPERF_SYSREG_ENC((e >> 20) & 3, (e >> 14) & 7,
								(e >> 10) & 15, (e >> 1) & 15,
								(e >> 17) & 7);

				assert_int_equal(enc, d->enc);
				assert_int_equal(e & 1, read);
				assert_int_equal(e >> 25, (0x18 << 1) | 1);
			}
			checked++;
		}
	}
	assert_int_equal(checked,
			 16 * (16 + 6 + 6 + 1)); /* 16 fixed registers, 6 + 6 event, PMCCFILTR */
	assert_int_equal(sim_error_count(), 0);
}

/* The syndrome of a trapped access, field by field (ISS for EC 0x18), and the value. */
static void test_trap_syndrome(void **state)
{
	uint64_t esr, v;

	(void)state;
	set_mdcr(HPMN6 | TPM);
	v = guest_mrs(VPERF_ENC_PMCCNTR_EL0);
	esr = hyp.esr;
	assert_int_equal(v, 0x5a);
	assert_int_equal(esr >> 26, 0x18);
	assert_int_equal((esr >> 25) & 1, 1);
	assert_int_equal((esr >> 20) & 3, 3);  /* Op0 */
	assert_int_equal((esr >> 17) & 7, 0);  /* Op2 */
	assert_int_equal((esr >> 14) & 7, 3);  /* Op1 */
	assert_int_equal((esr >> 10) & 15, 9); /* CRn */
	assert_int_equal((esr >> 1) & 15, 13); /* CRm */
	assert_int_equal(esr & 1, 1);	       /* MRS */
	assert_true(((esr >> 5) & 31) < 31);
	assert_int_equal(esr & 0x1c00000ull, 0); /* ISS[24:22] are 0 for this class */
	assert_int_equal(sim_guest_stats(0)->last_esr, esr);

	guest_msr(VPERF_ENC_PMINTENCLR_EL1, 7);
	/* PMINTENCLR_EL1 is S3_0_C9_C14_2: Op2 2, Op1 0, CRn 9, CRm 14, write. */
	assert_int_equal(hyp.esr & ~(31ull << 5),
			 0x62000000ull | 3ull << 20 | 2ull << 17 | 9ull << 10 | 14ull << 1);
}

/* The model reports a handler that decides nothing or clobbers a GPR, and honours UNDEF. */
static void test_trap_handler_errors(void **state)
{
	(void)state;
	set_mdcr(HPMN6 | TPM);
	hyp.undecided = true;
	guest_read(PMCR_EL0);
	assert_int_equal(sim_error_count(), 1);
	hyp.undecided = false;
	hyp.clobber = true;
	guest_read(PMCR_EL0);
	assert_int_equal(sim_error_count(), 2);
	hyp.clobber = false;
	hyp.undef = true;
	assert_int_equal(guest_read(PMCR_EL0), 0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	assert_int_equal(sim_error_count(), 2);
}

/* ---- counting ------------------------------------------------------------------------------ */

static void enable(unsigned int n, uint64_t evtyper)
{
	uint32_t enc = VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7);

	sim_poke(0, enc, evtyper);
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) | VPERF_BIT(n));
}

static uint64_t counter(unsigned int n)
{
	return sim_peek(0, VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7));
}

static void run(const struct sim_uop *op, unsigned int times)
{
	for (unsigned int i = 0; i < times; i++)
		guest_run(op, 1);
}

static void test_events_and_filters(void **state)
{
	const struct sim_uop load = {
		.pc = 0x2000, .latency = 5, .type = SIM_UOP_LOAD, .flags = SIM_UOP_L1D_REFILL
	};

	(void)state;
	set_mdcr(HPMN6);
	guest_write(PMCR_EL0, PMCR_E);
	enable(0, EV_CYCLES);
	enable(1, EV_INST);
	enable(2, 0x03);	    /* L1D_CACHE_REFILL */
	enable(3, EV_INST | U_BIT); /* excludes EL0 */
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) | 1u << 31);
	run(&plain, 10); /* 10 x 3 cycles */
	run(&load, 4);	 /* 4 x 5 cycles, 4 refills */
	sim_set_el(0);
	run(&plain, 2);
	assert_int_equal(counter(0), 30 + 20 + 6);
	assert_int_equal(counter(1), 16);
	assert_int_equal(counter(2), 4);
	assert_int_equal(counter(3), 14);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCNTR_EL0), 56);
	/* PMCR_EL0.E = 0 stops the first range and the cycle counter. */
	sim_set_el(1);
	guest_write(PMCR_EL0, 0);
	run(&plain, 5);
	assert_int_equal(counter(1), 16);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCNTR_EL0), 56);
}

/* PMUv3p5: 64-bit counters; overflow at bit 31 unless PMCR_EL0.LP. */
static void test_overflow_width(void **state)
{
	(void)state;
	set_mdcr(HPMN6);
	guest_write(PMCR_EL0, PMCR_E);
	enable(0, EV_CYCLES);
	guest_write(PMEVCNTR0_EL0, 0xfffffff0ull);
	run(&plain, 6); /* +18 */
	assert_int_equal(counter(0), 0x100000002ull);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	guest_write(PMOVSCLR_EL0, 1);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
	guest_write(PMEVCNTR0_EL0, 0xfffffff0ull);
	run(&plain, 6);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	guest_write(PMEVCNTR0_EL0, 0xfffffffffffffff0ull);
	run(&plain, 6);
	assert_int_equal(counter(0), 2);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
}

/* Before PMUv3p5 counters are 32 bits: they wrap. */
static void test_overflow_32bit_pmu(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	sim_default_config(&cfg);
	cfg.pmuver = 5;
	cfg.reset_zero = true;
	sim_model_init(&cfg);
	sim_set_el(1);
	set_mdcr(HPMN6);
	guest_write(PMCR_EL0, PMCR_E);
	enable(0, EV_CYCLES);
	guest_write(PMEVCNTR0_EL0, 0x1fffffff0ull);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0xfffffff0ull);
	run(&plain, 6);
	assert_int_equal(counter(0), 2);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
}

static void test_chain(void **state)
{
	(void)state;
	set_mdcr(HPMN6);
	guest_write(PMCR_EL0, PMCR_E);
	enable(2, EV_INST);
	enable(3, EV_CHAIN);
	guest_write(PMEVCNTR2_EL0, 0xffffffffull);
	run(&plain, 1);
	assert_int_equal(counter(3), 1);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1u << 2);
	run(&plain, 1);
	assert_int_equal(counter(3), 1);
}

/* ---- ranges ------------------------------------------------------------------------------------ */

/* HPMN = 3 of N = 6: EL1 sees N = 3 and only bits 0-2 and 31; EL2 sees everything. */
static void test_first_range_view(void **state)
{
	(void)state;
	set_mdcr(HPMN3);
	assert_int_equal((guest_read(PMCR_EL0) & PMCR_N_MASK) >> PMCR_N_SHIFT, 3);
	guest_write(PMCNTENSET_EL0, 0xffffffffull);
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0x80000007ull);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0), 0x80000007ull);
	/* At EL2 (vperf's own accesses through the seam) N reads 6. */
	assert_int_equal((read_sysreg(PMCR_EL0) & PMCR_N_MASK) >> PMCR_N_SHIFT, 6);
	write_sysreg(0x3full, PMCNTENSET_EL0);
	assert_int_equal(read_sysreg(PMCNTENSET_EL0), 0x8000003full);
	assert_int_equal(guest_read(PMCNTENCLR_EL0), 0x80000007ull);
	/* Writes from EL1 to bits at or above HPMN are ignored. */
	guest_write(PMCNTENCLR_EL0, 0x38);
	assert_int_equal(read_sysreg(PMCNTENSET_EL0), 0x8000003full);
}

/* A heterogeneous system (sim_model_init_cpus): each CPU shows its own PMU version, counter
 * count and SPE in its ID registers and PMCR_EL0.N, and applies its own rules (PMCR_EL0.LP is
 * RES0 before PMUv3p5, Arm DDI 0487 K.a I5.3.21). */
static void test_per_cpu_config(void **state)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];

	(void)state;
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		sim_default_config(&cfgs[cpu]);
		cfgs[cpu].reset_zero = true;
	}
	cfgs[1].pmuver = 5;
	cfgs[1].nr_counters = 3;
	cfgs[2].pmsver = 1;
	sim_model_init_cpus(cfgs);
	for (unsigned int cpu = 0; cpu < 3; cpu++) {
		sim_set_cpu(cpu);
		assert_int_equal(sim_pmu_version(), cpu == 1 ? 5 : 6);
		assert_int_equal((read_sysreg(ID_AA64DFR0_EL1) >> 8) & 0xf, cpu == 1 ? 5 : 6);
		assert_int_equal((read_sysreg(ID_AA64DFR0_EL1) >> 32) & 0xf, cpu == 2 ? 1 : 0);
		assert_int_equal((read_sysreg(PMCR_EL0) & PMCR_N_MASK) >> PMCR_N_SHIFT,
				 cpu == 1 ? 3 : 6);
		write_sysreg(PMCR_LP, PMCR_EL0);
		assert_int_equal(read_sysreg(PMCR_EL0) & PMCR_LP, cpu == 1 ? 0 : PMCR_LP);
		/* Only CPU 1, a PMUv3p4, reports the RES0 bit vperf's seam wrote. */
		assert_int_equal(sim_error_count(), cpu >= 1 ? 1 : 0);
	}
	assert_int_equal(sim_error_at(0)->cpu, 1);
	assert_int_equal(sim_cpu_config(1)->nr_counters, 3);
	sim_set_cpu(0);
}

/* The second range counts with MDCR_EL2.HPME, the third with PMCCR.EPME; EL2 cannot reach the
 * third range at all. */
static void test_second_and_third_range(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	sim_default_config(&cfg);
	cfg.extpmn = true;
	cfg.epmn = 5;
	cfg.el2_trap_cycles = 0;
	cfg.reset_zero = true;
	sim_model_init(&cfg);
	sim_set_el(1);
	set_mdcr(HPMN3);
	assert_int_equal((read_sysreg(PMCR_EL0) & PMCR_N_MASK) >> PMCR_N_SHIFT, 5);
	write_sysreg(PMCR_E, PMCR_EL0);
	enable(0, EV_INST);
	enable(3, EV_INST);
	enable(5, EV_INST);
	run(&plain, 2);
	assert_int_equal(counter(0), 2);
	assert_int_equal(counter(3), 0);
	assert_int_equal(counter(5), 0);
	set_mdcr(HPMN3 | MDCR_EL2_HPME);
	run(&plain, 2);
	assert_int_equal(counter(3), 2);
	assert_int_equal(counter(5), 0);
	assert_int_equal(sim_error_count(), 0);
	(void)read_sysreg(PMEVCNTR5_EL0);
	assert_int_equal(sim_error_count(), 1);

	cfg.epme = true;
	sim_model_init(&cfg);
	enable(5, EV_INST);
	run(&plain, 2);
	assert_int_equal(counter(5), 2);
}

/* Hypervisor cycles: with HPMD a first-range counter never counts at EL2, even with NSH set;
 * the cycle counter stops at EL2 with HCCD. */
static void test_el2_prohibition(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	sim_default_config(&cfg);
	cfg.el2_trap_cycles = 100;
	cfg.reset_zero = true;
	sim_model_init(&cfg);
	sim_set_handlers(&(const struct sim_handlers){ .sysreg_trap = trap });
	sim_set_el(1);
	sim_poke(0, VPERF_ENC_PMCR_EL0, PMCR_E);
	enable(0, EV_CYCLES | NSH);
	enable(31, NSH);
	set_mdcr(HPMN6 | TPM);
	guest_read(PMCR_EL0); /* one trap: 100 cycles at EL2 */
	assert_int_equal(counter(0), 100);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCNTR_EL0), 100);
	set_mdcr(HPMN6 | TPM | MDCR_EL2_HPMD | MDCR_EL2_HCCD);
	guest_read(PMCR_EL0);
	assert_int_equal(counter(0), 100);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCNTR_EL0), 100);
	/* Without NSH the filter already excludes EL2. */
	enable(0, EV_CYCLES);
	set_mdcr(HPMN6 | TPM);
	guest_read(PMCR_EL0);
	assert_int_equal(counter(0), 100);
}

/* PMCR_EL0.P at EL1 resets the first range only; at EL2 every counter below EPMN. */
static void test_pmcr_p_scope(void **state)
{
	(void)state;
	set_mdcr(HPMN3);
	for (unsigned int n = 0; n < 6; n++)
		sim_poke(0, VPERF_SYSREG_ENC(3, 3, 14, 8, n), 100 + n);
	sim_poke(0, VPERF_ENC_PMCCNTR_EL0, 7);
	guest_write(PMCR_EL0, PMCR_P);
	for (unsigned int n = 0; n < 6; n++)
		assert_int_equal(counter(n), n < 3 ? 0 : 100 + n);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCNTR_EL0), 7);
	assert_int_equal(guest_read(PMCR_EL0) & (PMCR_P | PMCR_C), 0);
	write_sysreg(PMCR_P | PMCR_C, PMCR_EL0);
	for (unsigned int n = 0; n < 6; n++)
		assert_int_equal(counter(n), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCNTR_EL0), 0);
}

/* PMSWINC counts on SW_INCR counters the write reaches; bits at or above HPMN are ignored. */
static void test_swinc(void **state)
{
	(void)state;
	set_mdcr(HPMN3 | MDCR_EL2_HPME);
	guest_write(PMCR_EL0, PMCR_E);
	enable(0, 0);
	enable(1, EV_INST);
	enable(4, 0);
	sim_poke(0, VPERF_ENC_PMUSERENR_EL0, PMUSERENR_SW);
	sim_set_el(0);
	guest_write(PMSWINC_EL0, 0x13);
	assert_int_equal(counter(0), 1);
	assert_int_equal(counter(1), 0);
	assert_int_equal(counter(4), 0);
	write_sysreg(0x13, PMSWINC_EL0); /* from EL2 counter 4 is reachable, but EL2 is filtered */
	assert_int_equal(counter(4), 0);
}

/* PMUIRQ is high while an overflow flag, its interrupt enable and its range enable are set. */
static void test_pmuirq_level(void **state)
{
	(void)state;
	set_mdcr(HPMN3);
	guest_write(PMCR_EL0, PMCR_E);
	enable(1, EV_INST);
	guest_write(PMEVCNTR1_EL0, 0xffffffffull);
	run(&plain, 1);
	assert_false(sim_line(0, SIM_LINE_PMUIRQ));
	guest_write(PMINTENSET_EL1, 2);
	assert_true(sim_line(0, SIM_LINE_PMUIRQ));
	guest_write(PMCR_EL0, 0);
	assert_false(sim_line(0, SIM_LINE_PMUIRQ));
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMOVSCLR_EL0, 2);
	assert_false(sim_line(0, SIM_LINE_PMUIRQ));
	/* A second-range flag needs HPME, not PMCR_EL0.E. */
	write_sysreg(0x10, PMOVSSET_EL0);
	write_sysreg(0x10, PMINTENSET_EL1);
	assert_false(sim_line(0, SIM_LINE_PMUIRQ));
	set_mdcr(HPMN3 | MDCR_EL2_HPME);
	write_sysreg(0x10, PMINTENSET_EL1);
	assert_true(sim_line(0, SIM_LINE_PMUIRQ));
}

/* PMXEV* reach the selected counter; SEL = 31 is PMCCFILTR for PMXEVTYPER and UNDEFINED for
 * PMXEVCNTR; a SEL beyond the accessible counters is UNDEFINED. */
static void test_selected_counter(void **state)
{
	(void)state;
	set_mdcr(HPMN3);
	guest_write(PMSELR_EL0, 2);
	guest_write(PMXEVCNTR_EL0, 1234);
	guest_write(PMXEVTYPER_EL0, EV_INST);
	assert_int_equal(counter(2), 1234);
	assert_int_equal(guest_read(PMEVTYPER2_EL0), EV_INST);
	guest_write(PMSELR_EL0, 31);
	guest_write(PMXEVTYPER_EL0, U_BIT);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCFILTR_EL0), U_BIT);
	guest_read(PMXEVCNTR_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	guest_write(PMSELR_EL0, 4);
	guest_read(PMXEVTYPER_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	/* PMSELR_EL0.SEL is 5 bits: higher bits are RES0. */
	guest_write(PMSELR_EL0, 0xffe1);
	assert_int_equal(guest_read(PMSELR_EL0), 1);
}

/* The selection is checked in two places of the PMXEVCNTR_EL0 / PMXEVTYPER_EL0 access
 * pseudocode (Arm DDI 0487 K.a, D24.5, "Accessing PMXEVCNTR_EL0" and "Accessing PMXEVTYPER_EL0"):
 * a SEL at or above the counters self-hosted software has (PMCCR.EPMN, else N; for PMXEVCNTR
 * SEL = 31 too) is UNDEFINED with FEAT_FGT, CONSTRAINED UNPREDICTABLE without (the model: UNDEF),
 * before PMUSERENR_EL0, the fine-grained traps and MDCR_EL2.TPM; a SEL in [HPMN, that) is
 * checked after them: trapped to EL2 with FEAT_FGT, CONSTRAINED UNPREDICTABLE (UNDEF) without. */
static void selection_case(uint64_t mdcr, unsigned int el, uint64_t sel, bool counter, bool read,
			   enum sim_access want)
{
	uint32_t enc = counter ? VPERF_ENC_PMXEVCNTR_EL0 : VPERF_ENC_PMXEVTYPER_EL0;
	unsigned int calls = hyp.calls;

	set_mdcr(mdcr);
	sim_poke(0, VPERF_ENC_PMSELR_EL0, sel);
	sim_set_el(el);
	if (read)
		guest_mrs(enc);
	else
		guest_msr(enc, 0);
	if (sim_guest_stats(0)->last != want)
		fail_msg("mdcr %#llx el%u SEL %llu %s %s: %d, expected %d",
			 (unsigned long long)mdcr, el, (unsigned long long)sel,
			 counter ? "PMXEVCNTR" : "PMXEVTYPER", read ? "read" : "write",
			 sim_guest_stats(0)->last, want);
	assert_int_equal(hyp.calls - calls, want == SIM_ACC_TRAP_EL2 ? 1 : 0);
	sim_set_el(1);
}

static void check_selection_order(bool fgt)
{
	struct sim_pe_config cfg;
	const struct sim_handlers h = { .sysreg_trap = trap };
	enum sim_access beyond_hpmn = fgt ? SIM_ACC_TRAP_EL2 : SIM_ACC_UNDEF;

	sim_default_config(&cfg);
	cfg.fgt = fgt;
	cfg.reset_zero = true;
	sim_model_init(&cfg);
	sim_set_handlers(&h);
	sim_poke(0, VPERF_ENC_PMUSERENR_EL0, 0);
	for (unsigned int k = 0; k < 4; k++) {
		bool read = k & 1, ctr = k & 2;

		/* SEL = 31: PMXEVCNTR is UNDEFINED ahead of TPM and of EL0's own trap to EL1;
		 * PMXEVTYPER reaches PMCCFILTR_EL0, so TPM traps it. */
		selection_case(HPMN6 | TPM, 1, 31, ctr, read,
			       ctr ? SIM_ACC_UNDEF : SIM_ACC_TRAP_EL2);
		selection_case(HPMN6 | TPM, 0, 31, ctr, read,
			       ctr ? SIM_ACC_UNDEF : SIM_ACC_TRAP_EL1);
		/* SEL = N (6, no EPMN) and SEL = 30: not a counter, UNDEFINED ahead of TPM. */
		selection_case(HPMN6 | TPM, 1, 6, ctr, read, SIM_ACC_UNDEF);
		selection_case(HPMN3 | TPM, 1, 30, ctr, read, SIM_ACC_UNDEF);
		selection_case(HPMN6 | TPM, 0, 6, ctr, read, SIM_ACC_UNDEF);
		/* SEL in [HPMN, N): TPM first; untrapped, FEAT_FGT traps it, else UNDEF. */
		selection_case(HPMN3 | TPM, 1, 4, ctr, read, SIM_ACC_TRAP_EL2);
		selection_case(HPMN3, 1, 4, ctr, read, beyond_hpmn);
		/* SEL below HPMN: as before. */
		selection_case(HPMN3 | TPM, 1, 0, ctr, read, SIM_ACC_TRAP_EL2);
		selection_case(HPMN3, 1, 2, ctr, read, SIM_ACC_OK);
	}
	assert_int_equal(sim_error_count(), 0);
}

static void test_selection_before_traps(void **state)
{
	(void)state;
	check_selection_order(true);
	check_selection_order(false);
}

/* With FEAT_PMUv3_EXTPMN the self-hosted counters end at PMCCR.EPMN: a SEL in [EPMN, N) is
 * UNDEFINED ahead of TPM as well. */
static void test_selection_epmn(void **state)
{
	struct sim_pe_config cfg;
	const struct sim_handlers h = { .sysreg_trap = trap };

	(void)state;
	sim_default_config(&cfg);
	cfg.fgt = true;
	cfg.extpmn = true;
	cfg.epmn = 5;
	cfg.reset_zero = true;
	sim_model_init(&cfg);
	sim_set_handlers(&h);
	selection_case(HPMN3 | TPM, 1, 5, true, true, SIM_ACC_UNDEF);
	selection_case(HPMN3 | TPM, 1, 5, false, false, SIM_ACC_UNDEF);
	selection_case(HPMN3 | TPM, 1, 4, true, true, SIM_ACC_TRAP_EL2);
	selection_case(HPMN3, 1, 4, false, true, SIM_ACC_TRAP_EL2);
	assert_int_equal(sim_error_count(), 0);
}

/* AArch32 at EL0 (FEAT_AA32, ID_AA64PFR0_EL1.EL0 = 0b0010): PMCR_EL0.LC and D hold a value
 * (I5.3.21, their field descriptions; RES1 and RES0 on an AArch64-only PE). With LC = 0 the
 * cycle counter overflows when PMCCNTR_EL0[31:0] wraps, though it counts on in 64 bits; with D
 * = 1 (and LC = 0) it counts once every 64 clock cycles. */
static void init_aarch32(bool aarch32)
{
	struct sim_pe_config cfg;
	const struct sim_handlers h = { .sysreg_trap = trap };

	sim_default_config(&cfg);
	cfg.aarch32_el0 = aarch32;
	cfg.el2_trap_cycles = 0;
	cfg.reset_zero = true;
	sim_model_init(&cfg);
	sim_set_handlers(&h);
	sim_set_el(1);
	set_mdcr(HPMN6);
}

static void test_aarch32_pmcr_lc(void **state)
{
	const uint64_t d = VPERF_BIT(3), ccnt = VPERF_BIT(31);

	(void)state;
	init_aarch32(true);
	assert_int_equal(read_sysreg(ID_AA64PFR0_EL1) & 0xf, 2);
	write_sysreg(PMCR_E | PMU_LC_BIT, PMCR_EL0);
	assert_int_equal(read_sysreg(PMCR_EL0) & (PMU_LC_BIT | d), PMU_LC_BIT);
	guest_write(PMCR_EL0, PMCR_E);
	assert_int_equal(guest_read(PMCR_EL0) & PMU_LC_BIT, 0);
	assert_int_equal(read_sysreg(PMCR_EL0) & PMU_LC_BIT, 0);
	/* LC = 0: the 32-bit wrap sets the flag; the counter keeps its 64 bits. */
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, ccnt);
	guest_write(PMCCNTR_EL0, 0xfffffff0ull);
	run(&plain, 6); /* +18 */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCNTR_EL0), 0x100000002ull);
	assert_int_equal(guest_read(PMOVSSET_EL0), ccnt);
	guest_write(PMOVSCLR_EL0, ccnt);
	/* LC = 1: only the 64-bit wrap does. */
	guest_write(PMCR_EL0, PMCR_E | PMU_LC_BIT);
	guest_write(PMCCNTR_EL0, 0xfffffff0ull);
	run(&plain, 6);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	guest_write(PMCCNTR_EL0, ~0ull - 15);
	run(&plain, 6);
	assert_int_equal(guest_read(PMOVSSET_EL0), ccnt);
	guest_write(PMOVSCLR_EL0, ccnt);
	/* D = 1 with LC = 0: one increment every 64 cycles; LC = 1 ignores D. */
	guest_write(PMCR_EL0, PMCR_E | d);
	assert_int_equal(guest_read(PMCR_EL0) & d, d);
	guest_write(PMCCNTR_EL0, 0);
	run(&plain, 64); /* 192 cycles */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCNTR_EL0), 3);
	guest_write(PMCR_EL0, PMCR_E | d | PMU_LC_BIT);
	run(&plain, 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCNTR_EL0), 6);
	assert_int_equal(sim_error_count(), 0);
}

/* AArch64 only (the default): EL0 = 0b0001, LC reads 1 whatever is written and the cycle
 * counter overflows only at 64 bits; D is RES0 (an EL2 write of it is reported). */
static void test_aarch64_only_pmcr_lc(void **state)
{
	const uint64_t d = VPERF_BIT(3), ccnt = VPERF_BIT(31);

	(void)state;
	init_aarch32(false);
	assert_int_equal(read_sysreg(ID_AA64PFR0_EL1) & 0xf, 1);
	guest_write(PMCR_EL0, PMCR_E | d);
	assert_int_equal(guest_read(PMCR_EL0) & (PMU_LC_BIT | d), PMU_LC_BIT);
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, ccnt);
	guest_write(PMCCNTR_EL0, 0xfffffff0ull);
	run(&plain, 6);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
	write_sysreg(d, PMCR_EL0);
	assert_int_equal(sim_error_count(), 1);
}

/* ---- fields by PMU version, UNKNOWN reset ------------------------------------------------------ */

static void init_version(uint8_t pmuver, bool hpmn0)
{
	struct sim_pe_config cfg;

	sim_default_config(&cfg);
	cfg.pmuver = pmuver;
	cfg.hpmn0 = hpmn0;
	cfg.reset_zero = true;
	sim_model_init(&cfg);
}

/* MDCR_EL2 written at EL2 (D24.3): HPMN = 0 needs FEAT_HPMN0, HPMN > N is CONSTRAINED
 * UNPREDICTABLE, HPMD needs PMUv3p1, HCCD and HLP PMUv3p5, TPMS and E2PB SPE. Each is one
 * reported error, and the absent field reads 0. */
static void test_mdcr_checked(void **state)
{
	static const struct {
		uint8_t pmuver;
		bool hpmn0;
		uint64_t mdcr;
		unsigned int errors;
	} cases[] = {
		{ 6, false, 6 | MDCR_EL2_HPMD | MDCR_EL2_HCCD | MDCR_EL2_HLP, 0 },
		{ 6, false, 0, 1 },
		{ 6, true, 0, 0 },
		{ 6, false, 7, 1 },
		{ 5, false, 6 | MDCR_EL2_HPMD, 0 },
		{ 5, false, 6 | MDCR_EL2_HCCD, 1 },
		{ 5, false, 6 | MDCR_EL2_HLP, 1 },
		{ 1, false, 6 | MDCR_EL2_HPMD, 1 },
		{ 6, false, 6 | MDCR_EL2_TPMS, 1 },
		/* PMUVer 0xF: an IMPLEMENTATION DEFINED PMU, no PMUv3, so HPMN is RES0 (0 is
		 * right, FEAT_HPMN0 or not) and no field of a PMUv3 version exists */
		{ 0xf, false, 0, 0 },
		{ 0xf, false, MDCR_EL2_HPMD, 1 },
		{ 0xf, false, MDCR_EL2_HLP, 1 },
		{ 0xf, false, MDCR_EL2_HPMFZO, 1 },
	};

	(void)state;
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(cases); i++) {
		init_version(cases[i].pmuver, cases[i].hpmn0);
		write_sysreg(cases[i].mdcr, MDCR_EL2);
		if (sim_error_count() != cases[i].errors)
			fail_msg("case %zu: %u errors", i, sim_error_count());
		assert_int_equal(read_sysreg(MDCR_EL2) & ~MDCR_EL2_HPMN_MASK,
				 cases[i].errors ? 0 : cases[i].mdcr & ~MDCR_EL2_HPMN_MASK);
	}
}

/* MDCR_EL2.TDCC exists with FEAT_FGT and MDCR_EL2.HPMFZS with FEAT_SPEv1p2 (Arm DDI 0487 K.a,
 * MDCR_EL2): kept where the PE has the feature, one reported error and reading 0 where not. */
static void test_mdcr_fields_by_feature(void **state)
{
	static const struct {
		bool fgt;
		uint8_t pmsver;
		uint64_t mdcr;
		unsigned int errors;
	} cases[] = {
		{ true, 0, MDCR_EL2_TDCC, 0 },	  { false, 0, MDCR_EL2_TDCC, 1 },
		{ false, 3, MDCR_EL2_HPMFZS, 0 }, { false, 5, MDCR_EL2_HPMFZS, 0 },
		{ false, 2, MDCR_EL2_HPMFZS, 1 }, { false, 0, MDCR_EL2_HPMFZS, 1 },
	};
	struct sim_pe_config cfg;

	(void)state;
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(cases); i++) {
		sim_default_config(&cfg);
		cfg.fgt = cases[i].fgt;
		cfg.pmsver = cases[i].pmsver;
		cfg.reset_zero = true;
		sim_model_init(&cfg);
		write_sysreg(6 | cases[i].mdcr, MDCR_EL2);
		if (sim_error_count() != cases[i].errors)
			fail_msg("case %zu: %u errors", i, sim_error_count());
		assert_int_equal(read_sysreg(MDCR_EL2) & cases[i].mdcr,
				 cases[i].errors ? 0 : cases[i].mdcr);
	}
}

/* PMCR_EL0 fields by version (I5.3.21): LP from PMUv3p5, DP from PMUv3p1 (EL2 is implemented)
 * or with EL3, D never (no AArch32), X only with an export bus (RAZ/WI without). Setting a
 * missing field at EL2 is reported; at EL1 it is just not kept. */
static void test_pmcr_fields_by_version(void **state)
{
	const uint64_t lp = PMCR_LP, dp = VPERF_BIT(5), x = VPERF_BIT(4), d = VPERF_BIT(3);
	struct sim_pe_config cfg;

	(void)state;
	init_version(5, false);
	write_sysreg(PMCR_E | dp | x, PMCR_EL0);
	assert_int_equal(read_sysreg(PMCR_EL0) & 0xff, PMCR_E | dp | PMU_LC_BIT);
	assert_int_equal(sim_error_count(), 0);
	write_sysreg(PMCR_E | lp, PMCR_EL0);
	assert_int_equal(sim_error_count(), 1);
	assert_int_equal(read_sysreg(PMCR_EL0) & lp, 0);
	write_sysreg(d, PMCR_EL0);
	assert_int_equal(sim_error_count(), 2);
	guest_write(PMCR_EL0, lp | d);
	assert_int_equal(guest_read(PMCR_EL0) & (lp | d), 0);
	assert_int_equal(sim_error_count(), 2);

	init_version(6, false);
	write_sysreg(PMCR_E | lp | dp, PMCR_EL0);
	assert_int_equal(read_sysreg(PMCR_EL0) & (lp | dp), lp | dp);
	assert_int_equal(sim_error_count(), 0);

	sim_default_config(&cfg);
	cfg.pmuver = 1;
	cfg.el3 = false;
	cfg.pmu_export_bus = true;
	sim_model_init(&cfg);
	write_sysreg(x, PMCR_EL0);
	assert_int_equal(read_sysreg(PMCR_EL0) & x, x);
	write_sysreg(dp, PMCR_EL0); /* PMUv3 without EL3: no DP */
	assert_int_equal(sim_error_count(), 1);
}

/* Registers that reset to UNKNOWN get seeded garbage (different seeds, different values);
 * PMCR_EL0.E resets to 0 and MDCR_EL2.HPMN to N. */
static void test_unknown_reset(void **state)
{
	struct sim_pe_config cfg;
	uint64_t first[2];

	(void)state;
	sim_default_config(&cfg);
	for (unsigned int i = 0; i < 2; i++) {
		cfg.seed = 1 + i;
		sim_model_init(&cfg);
		first[i] =
			sim_peek(0, VPERF_ENC_PMEVCNTR0_EL0) ^ sim_peek(0, VPERF_ENC_PMOVSSET_EL0);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMCR_EL0) & PMCR_E, 0);
		assert_int_equal(read_sysreg(MDCR_EL2) & MDCR_EL2_HPMN_MASK, 6);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & ~0x8000003full, 0);
	}
	assert_true(first[0] != first[1]);
	assert_true(first[0] != 0);
}

/* The synchronization window (pmu_sync.c): after an EL2 write of PMCR_EL0.E, EL2 execution is
 * counted with the old or the new value, both seen across seeds, until an ISB; after it,
 * always the new one. */
static void test_sync_window(void **state)
{
	const struct sim_uop el2_op = { .pc = 0x2000, .latency = 1, .type = SIM_UOP_OTHER };
	unsigned int counted = 0, seeds = 32;
	uint64_t before;

	(void)state;
	for (uint64_t seed = 1; seed <= seeds; seed++) {
		struct sim_pe_config cfg;

		sim_default_config(&cfg);
		cfg.seed = seed;
		cfg.reset_zero = true;
		sim_model_init(&cfg);
		set_mdcr(HPMN6);
		enable(0, EV_INST | NSH);
		sim_set_el(2);
		write_sysreg(PMCR_E, PMCR_EL0);
		assert_true(sim_pmu_window_open(0));
		run(&el2_op, 1);
		before = counter(0);
		assert_true(before <= 1);
		counted += (unsigned int)before;
		isb();
		assert_false(sim_pmu_window_open(0));
		run(&el2_op, 1);
		assert_int_equal(counter(0), before + 1);
		sim_set_el(1);
	}
	assert_true(counted > 0 && counted < seeds); /* old and new both happen */
}

/* CHAIN in the synchronization window: the odd counter's type and enable are read as counting
 * sees them. After an EL2 write that stops counter 1 counting CHAIN (its type, or its enable),
 * the even counter's overflow in the window is chained or not by the seed, both seen. */
static unsigned int chain_in_window(uint64_t seed, bool by_enable)
{
	const struct sim_uop el2_op = { .pc = 0x2000, .latency = 1, .type = SIM_UOP_OTHER };
	struct sim_pe_config cfg;
	unsigned int chained;

	sim_default_config(&cfg);
	cfg.seed = seed;
	cfg.reset_zero = true;
	sim_model_init(&cfg);
	set_mdcr(HPMN6);
	enable(0, EV_INST | NSH);
	enable(1, EV_CHAIN | NSH);
	sim_poke(0, VPERF_SYSREG_ENC(3, 3, 14, 8, 0), 0xffffffffull);
	sim_set_el(2);
	write_sysreg(PMCR_E, PMCR_EL0);
	isb();
	if (by_enable)
		write_sysreg(2, PMCNTENCLR_EL0);
	else
		write_sysreg_enc(VPERF_SYSREG_ENC(3, 3, 14, 12, 1), NSH); /* SW_INCR */
	assert_true(sim_pmu_window_open(0));
	run(&el2_op, 1);
	assert_true(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & 1u);
	chained = (unsigned int)counter(1);
	assert_true(chained <= 1);
	isb();
	sim_set_el(1);
	return chained;
}

static void test_chain_in_window(void **state)
{
	(void)state;
	for (int by_enable = 0; by_enable < 2; by_enable++) {
		unsigned int chained = 0, seeds = 32;

		for (uint64_t seed = 1; seed <= seeds; seed++)
			chained += chain_in_window(seed, by_enable);
		print_message("by_enable %d: %u of %u\n", by_enable, chained, seeds);
		assert_true(chained > 0 && chained < seeds);
	}
}

/* ---- newer hardware: FEAT_PMUv3_ICNTR, FEAT_FGT2, MT, Secure EL2 ---------------------------- */

#define F0	 VPERF_BIT(32)
#define MT_BIT	 VPERF_BIT(25)
#define SH_BIT	 VPERF_BIT(24)
#define P_BIT	 VPERF_BIT(31)
#define FGT2_ALL (VPERF_GENMASK(4, 2) | VPERF_BIT(21))

/* A model with cfg (reset_zero, no EL2 cycles), the trapping test hypervisor, guest at EL1. */
static void init_with(struct sim_pe_config *cfg)
{
	const struct sim_handlers h = { .sysreg_trap = trap };

	memset(&hyp, 0, sizeof(hyp));
	cfg->el2_trap_cycles = 0;
	cfg->reset_zero = true;
	sim_model_init(cfg);
	sim_set_handlers(&h);
	sim_set_el(1);
	set_mdcr(HPMN6);
}

static void icntr_pe(struct sim_pe_config *cfg)
{
	sim_default_config(cfg);
	cfg->pmuver = 9;
	cfg->icntr = true;
}

/* FEAT_PMUv3_ICNTR (I5.3.33, I5.3.32, I5.3.18 F0): PMICNTR_EL0 counts architecturally executed
 * instructions with PMCR_EL0.E and PMCNTENSET_EL0.F0, filtered by PMICFILTR_EL0 (whose evtCount
 * reads INST_RETIRED), 64 bits wide, flag F0 of PMOVS; PMCR_EL0.P leaves it alone, PMZR_EL0.F0
 * zeroes it. Without the feature the registers are UNDEFINED and F0 is RAZ/WI. */
static void test_icntr(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	icntr_pe(&cfg);
	init_with(&cfg);
	assert_int_equal((read_sysreg(ID_AA64DFR1_EL1) >> 36) & 0xf, 1);
	write_sysreg(F0, PMCNTENSET_EL0);
	write_sysreg(PMCR_E, PMCR_EL0);
	run(&plain, 5);
	assert_int_equal(read_sysreg(PMICNTR_EL0), 5);
	assert_int_equal(guest_read(PMICNTR_EL0), 5);
	assert_int_equal(guest_read(PMICFILTR_EL0), EV_INST);
	assert_int_equal(guest_read(PMCNTENSET_EL0) & F0, F0);
	/* P = 1 (NSK = 0 with EL3): Non-secure EL1 not counted; EL0 still is. */
	write_sysreg(P_BIT, PMICFILTR_EL0);
	run(&plain, 5);
	assert_int_equal(read_sysreg(PMICNTR_EL0), 5);
	sim_set_el(0);
	run(&plain, 2);
	sim_set_el(1);
	assert_int_equal(read_sysreg(PMICNTR_EL0), 7);
	write_sysreg(0, PMICFILTR_EL0);
	/* PMCR_EL0.E = 0 stops it; P does not reset it. */
	write_sysreg(PMCR_P, PMCR_EL0);
	run(&plain, 5);
	assert_int_equal(read_sysreg(PMICNTR_EL0), 7);
	write_sysreg(PMCR_E, PMCR_EL0);
	/* 64-bit overflow sets F0 of PMOVS. */
	write_sysreg(~0ull, PMICNTR_EL0);
	run(&plain, 1);
	assert_int_equal(read_sysreg(PMICNTR_EL0), 0);
	assert_int_equal(read_sysreg(PMOVSSET_EL0) & F0, F0);
	write_sysreg(9, PMICNTR_EL0);
	guest_write(PMZR_EL0, F0);
	assert_int_equal(read_sysreg(PMICNTR_EL0), 0);
	assert_int_equal(sim_error_count(), 0);

	sim_default_config(&cfg);
	cfg.pmuver = 9;
	init_with(&cfg);
	guest_read(PMICNTR_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	guest_write(PMCNTENSET_EL0, F0);
	assert_int_equal(read_sysreg(PMCNTENSET_EL0) & F0, 0);
	assert_int_equal((read_sysreg(ID_AA64DFR1_EL1) >> 36) & 0xf, 0);
}

/* FEAT_FGT2 (D24.2.68): each "n" field at 0 traps its register's EL1/EL0 accesses to EL2 with
 * EC 0x18, at 1 it does not; nPMICFILTR_EL0 = 0 also hides F0 at EL1 (not at EL2);
 * nPMZR_EL0 is a write trap only. ID_AA64MMFR0_EL1.FGT reads 0b0010. */
static void test_fgt2_traps(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	icntr_pe(&cfg);
	cfg.fgt = true;
	cfg.fgt2 = true;
	init_with(&cfg);
	assert_int_equal((read_sysreg(ID_AA64MMFR0_EL1) >> 56) & 0xf, 2);
	/* Their reset with EL2 the highest level, and reset_zero here: 0, everything traps. */
	guest_read(PMICNTR_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	write_sysreg(FGT2_ALL, HDFGRTR2_EL2);
	write_sysreg(FGT2_ALL, HDFGWTR2_EL2);
	write_sysreg(F0, PMCNTENSET_EL0);
	guest_read(PMICNTR_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_OK);
	guest_write(PMZR_EL0, F0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_OK);
	guest_read(PMUACR_EL1);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_OK);
	assert_int_equal(guest_read(PMCNTENSET_EL0) & F0, F0);

	write_sysreg(FGT2_ALL & ~VPERF_BIT(2), HDFGRTR2_EL2); /* nPMICNTR_EL0: reads */
	guest_read(PMICNTR_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	assert_int_equal(hyp.esr & 0x3ffc1e, /* ISS without Rt and the direction */
			 (3u << 20 | 0u << 17 | 3u << 14 | 9u << 10 | 4u << 1)); /* S3_3_C9_C4_0 */
	guest_write(PMICNTR_EL0, 1);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_OK);
	write_sysreg(FGT2_ALL & ~VPERF_BIT(3), HDFGRTR2_EL2); /* nPMICFILTR_EL0 */
	guest_read(PMICFILTR_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	assert_int_equal(guest_read(PMCNTENSET_EL0) & F0, 0);
	assert_int_equal(read_sysreg(PMCNTENSET_EL0) & F0, F0);
	write_sysreg(FGT2_ALL & ~VPERF_BIT(4), HDFGRTR2_EL2); /* nPMUACR_EL1 */
	guest_read(PMUACR_EL1);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	write_sysreg(FGT2_ALL, HDFGRTR2_EL2);
	write_sysreg(FGT2_ALL & ~VPERF_BIT(21), HDFGWTR2_EL2); /* nPMZR_EL0 */
	guest_write(PMZR_EL0, F0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	assert_int_equal(read_sysreg(PMICNTR_EL0), 1);
	assert_int_equal(sim_error_count(), 0);
}

/* MPIDR_EL1.MT and the core's other thread (I5.3.30 MT): a counter whose MT is effective counts
 * the other thread's events; MT is effective with the IMPLEMENTATION DEFINED extension, with
 * FEAT_MTPMU when MDCR_EL3.MTPME (EL3) or MDCR_EL2.MTPME (no EL3) enables it, and RES0 without
 * either. */
static void test_mt_sibling(void **state)
{
	static const struct {
		uint8_t mtpmu;
		bool el3, el3_mtpme, el2_mtpme;
		uint64_t counted;
	} rows[] = {
		{ SIM_MTPMU_IMPDEF, true, false, false, 10 },
		{ SIM_MTPMU_FEAT, true, false, false, 0 },
		{ SIM_MTPMU_FEAT, true, true, false, 10 },
		{ SIM_MTPMU_FEAT, false, false, false, 0 },
		{ SIM_MTPMU_FEAT, false, false, true, 10 },
		{ SIM_MTPMU_NONE, true, true, false, 0 },
	};
	struct sim_pe_config cfg;

	(void)state;
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(rows); i++) {
		sim_default_config(&cfg);
		cfg.mt = true;
		cfg.mtpmu = rows[i].mtpmu;
		cfg.el3 = rows[i].el3;
		cfg.mdcr_el3_mtpme = rows[i].el3_mtpme;
		init_with(&cfg);
		assert_int_equal(read_sysreg(MPIDR_EL1) & VPERF_BIT(24), VPERF_BIT(24));
		assert_int_equal(guest_read(MPIDR_EL1), VPERF_BIT(31)); /* VMPIDR_EL2's view */
		set_mdcr(HPMN6 | (rows[i].el2_mtpme ? MDCR_EL2_MTPME : 0));
		write_sysreg(EV_INST | MT_BIT, PMEVTYPER0_EL0);
		assert_int_equal(read_sysreg(PMEVTYPER0_EL0) & MT_BIT,
				 rows[i].mtpmu == SIM_MTPMU_NONE ? 0 : MT_BIT);
		write_sysreg(EV_INST, PMEVTYPER1_EL0);
		write_sysreg(3, PMCNTENSET_EL0);
		write_sysreg(PMCR_E, PMCR_EL0);
		for (unsigned int n = 0; n < 10; n++)
			sim_run_sibling(1, &plain, 1);
		run(&plain, 2);
		assert_int_equal(counter(0), rows[i].counted + 2);
		assert_int_equal(counter(1), 2);
		assert_int_equal(sim_error_count(), 0);
	}
	/* Not a thread: no other thread to run. */
	sim_default_config(&cfg);
	init_with(&cfg);
	sim_run_sibling(1, &plain, 1);
	assert_int_equal(sim_error_count(), 1);
}

/* Secure EL2 (FEAT_SEL2 with EL3, I5.3.30 SH): counted when SH differs from NSH, so NSH = 1 with
 * SH = 0 counts it (where MDCR_EL3.SPME allows Secure counting) and SH = NSH never does; without
 * FEAT_SEL2, SH is RES0 and Secure EL2 does not exist. */
static void test_secure_el2_sh(void **state)
{
	static const struct sim_uop three[] = { plain, plain, plain };
	struct sim_pe_config cfg;

	(void)state;
	sim_default_config(&cfg);
	cfg.sel2 = true;
	cfg.mdcr_el3_spme = true;
	init_with(&cfg);
	assert_int_equal((read_sysreg(ID_AA64PFR0_EL1) >> 36) & 0xf, 1);
	write_sysreg(EV_INST | NSH, PMEVTYPER0_EL0);
	write_sysreg(EV_INST | NSH | SH_BIT, PMEVTYPER1_EL0);
	write_sysreg(EV_INST | SH_BIT, PMEVTYPER2_EL0);
	write_sysreg(EV_INST, PMEVTYPER3_EL0);
	write_sysreg(0xf, PMCNTENSET_EL0);
	write_sysreg(PMCR_E, PMCR_EL0);
	sim_run_secure(2, three, 3);
	assert_int_equal(counter(0), 3);
	assert_int_equal(counter(1), 0);
	assert_int_equal(counter(2), 3);
	assert_int_equal(counter(3), 0);

	sim_default_config(&cfg);
	cfg.mdcr_el3_spme = true;
	init_with(&cfg);
	write_sysreg(EV_INST | NSH | SH_BIT, PMEVTYPER0_EL0);
	assert_int_equal(read_sysreg(PMEVTYPER0_EL0) & SH_BIT, 0);
	write_sysreg(1, PMCNTENSET_EL0);
	write_sysreg(PMCR_E, PMCR_EL0);
	sim_run_secure(2, three, 3);
	assert_int_equal(counter(0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_trap_rules, setup),
		cmocka_unit_test_setup(test_tge_routes_el0_traps, setup),
		cmocka_unit_test_setup(test_trap_matrix, setup),
		cmocka_unit_test_setup(test_trap_syndrome, setup),
		cmocka_unit_test_setup(test_trap_handler_errors, setup),
		cmocka_unit_test_setup(test_events_and_filters, setup),
		cmocka_unit_test_setup(test_overflow_width, setup),
		cmocka_unit_test_setup(test_overflow_32bit_pmu, setup),
		cmocka_unit_test_setup(test_chain, setup),
		cmocka_unit_test_setup(test_first_range_view, setup),
		cmocka_unit_test_setup(test_second_and_third_range, setup),
		cmocka_unit_test_setup(test_el2_prohibition, setup),
		cmocka_unit_test_setup(test_pmcr_p_scope, setup),
		cmocka_unit_test_setup(test_swinc, setup),
		cmocka_unit_test_setup(test_pmuirq_level, setup),
		cmocka_unit_test_setup(test_selected_counter, setup),
		cmocka_unit_test_setup(test_selection_before_traps, setup),
		cmocka_unit_test_setup(test_selection_epmn, setup),
		cmocka_unit_test(test_aarch32_pmcr_lc),
		cmocka_unit_test(test_aarch64_only_pmcr_lc),
		cmocka_unit_test(test_mdcr_checked),
		cmocka_unit_test(test_mdcr_fields_by_feature),
		cmocka_unit_test(test_pmcr_fields_by_version),
		cmocka_unit_test(test_unknown_reset),
		cmocka_unit_test(test_sync_window),
		cmocka_unit_test(test_chain_in_window),
		cmocka_unit_test(test_per_cpu_config),
		cmocka_unit_test(test_icntr),
		cmocka_unit_test(test_fgt2_traps),
		cmocka_unit_test(test_mt_sibling),
		cmocka_unit_test(test_secure_el2_sh),
	};

	return cmocka_run_group_tests_name("sim_pmu", tests, NULL, NULL);
}
