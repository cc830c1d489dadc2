// SPDX-License-Identifier: MIT
/*
 * The vCPU switch of docs/vspe.md against the SPE model, before vSPE implements it: a
 * reference hypervisor in this file switches two SPE guests and a guest without SPE (whose load
 * touches no SPE register, as a lazy switch does) over seeded schedules, and the model must find
 * nothing wrong with the documented sequence:
 *   put:  (exception entry) PSB CSYNC -> DSB NSH -> ISB -> read PMBSR, PMBPTR, the sampling
 *         registers -> clear a set PMBSR -> PMBLIMITR = 0 -> ISB -> DSB NSH -> stage 2 switch
 *   load: sampling registers -> PMBPTR -> PMBSR = 0 -> PMBLIMITR -> PMSCR_EL1 -> ERET
 * Then each of the wrong sequences vSPE's mutation tests use (tests/mutate) must fail for some
 * seed: no PSB CSYNC, no DSB, PMBLIMITR restored before PMBPTR, the hardware PMBSR never
 * cleared, the buffer left enabled at put. What "fail" means: a model error, a record lost
 * outside an architected buffer-full discard, a record in the wrong VM's buffer, a management
 * event other than buffer full without data loss, PMBIRQ high after a load, or a sample taken
 * while the guest without SPE ran.
 */
#include <string.h>

#include "cmocka_wrap.h"
#include "sim_spe_util.h"

#define NVM	    3
#define ROUNDS	    60
#define NSEEDS	    8
#define BUF_SIZE    0x1000ull
#define BUF_START   0xa00ull /* 1.5 KB before the limit: about 40 records, so buffers fill */
#define BUF_IPA	    0x80000000ull
#define T_PMBSR_BSC 0xffffull

enum mutation {
	RIGHT = 0,
	NO_PSB = 1,
	NO_DSB = 2,
	LIMIT_BEFORE_PTR = 4,
	NO_PMBSR_CLEAR = 8,
	LEAVE_ENABLED = 16,
};

struct vm {
	uint16_t vmid;
	bool spe;
	uint64_t va, pa, pc, base; /* base: where the guest starts its buffer */
	uint64_t pmbptr, pmblimitr, pmbsr, pmsicr, pmsirr, pmscr; /* saved at put */
	uint64_t samples, discarded, records;			  /* the test's accounting */
};

static struct vm vms[NVM];
static unsigned int failures; /* what went wrong in this schedule */

/* VM 1's buffer sits above VM 2's, so VM 1's pointer breaks VM 2's limit (SPE 3.4.1). */
static void vm_init(void)
{
	static const struct vm init[NVM] = {
		{ .vmid = 1,
		  .spe = true,
		  .va = 0xffff800020000000ull,
		  .pa = 0x41000000ull,
		  .pc = 0x1000 },
		{ .vmid = 2,
		  .spe = true,
		  .va = 0xffff800010000000ull,
		  .pa = 0x42000000ull,
		  .pc = 0x2000 },
		{ .vmid = 3, .spe = false, .pc = 0x3000 },
	};

	for (unsigned int i = 0; i < NVM; i++) {
		struct vm *v = &vms[i];

		*v = init[i];
		if (!v->spe)
			continue;
		assert_int_equal(sim_mem_map_s1(SIM_REGIME_EL10, v->vmid, v->va, BUF_IPA, BUF_SIZE,
						SIM_PERM_RW),
				 VPERF_OK);
		assert_int_equal(sim_mem_map_s2(v->vmid, BUF_IPA, v->pa, BUF_SIZE, SIM_PERM_RW),
				 VPERF_OK);
		v->base = v->va + BUF_START;
		v->pmbptr = v->base;
		v->pmblimitr = (v->va + BUF_SIZE) | T_PMBLIMITR_E;
		v->pmsirr = T_INTERVAL_1;
		v->pmscr = T_PMSCR_E1SPE;
	}
}

/* The guest reads its records up to PMBPTR: each is the load record of its own PC. */
static void consume(struct vm *v, uint64_t end)
{
	if (end < v->base || end > v->va + BUF_SIZE) {
		failures++;
		return;
	}
	for (uint64_t off = 0; off + T_LOAD_REC_LEN <= end - v->base; off += T_LOAD_REC_LEN) {
		uint8_t rec[T_LOAD_REC_LEN];
		uint64_t pc = 0;

		sim_mem_read(v->pa + BUF_START + off, rec, sizeof(rec));
		for (unsigned int b = 0; b < 7; b++)
			pc |= (uint64_t)rec[1 + b] << (8 * b);
		failures += pc != v->pc || rec[0] != 0xb0 || rec[T_LOAD_REC_LEN - 1] != 0x01;
		v->records++;
	}
}

/* A management event in a saved PMBSR: only buffer full without data loss is expected; the
 * guest's handler then reads its records and restarts at the base. */
static void guest_handles_event(struct vm *v)
{
	failures += (v->pmbsr & ~(T_PMBSR_S | T_PMBSR_BSC)) != 0 || (v->pmbsr & T_PMBSR_BSC) != 1;
	consume(v, v->pmbptr);
	v->pmbptr = v->base;
	v->pmbsr = 0;
}

static void put(struct vm *v, unsigned int mut)
{
	sim_enter_el2(0); /* sampling stopped: the owner, EL1, is below EL2 (SPE 3.6) */
	if (v->spe) {
		if (!(mut & NO_PSB))
			psb_csync();
		if (!(mut & NO_DSB))
			dsb_nsh();
		isb();
		v->pmbsr = read_sysreg(PMBSR_EL1);
		v->pmbptr = read_sysreg(PMBPTR_EL1);
		v->pmsicr = read_sysreg(PMSICR_EL1);
		v->pmscr = read_sysreg(PMSCR_EL1);
		if ((v->pmbsr & T_PMBSR_S) && !(mut & NO_PMBSR_CLEAR))
			write_sysreg(0, PMBSR_EL1);
		if (!(mut & LEAVE_ENABLED))
			write_sysreg(0, PMBLIMITR_EL1);
		isb();
		if (!(mut & NO_DSB))
			dsb_nsh();
	}
}

static void load(struct vm *v, unsigned int mut)
{
	uint64_t limit;

	sim_mem_set_vmid(0, v->vmid); /* stage 2 */
	if (v->spe) {
		if (v->pmbsr & T_PMBSR_S)
			guest_handles_event(v);
		limit = v->pmbsr & T_PMBSR_S ? 0 : v->pmblimitr;
		write_sysreg(v->pmsirr, PMSIRR_EL1);
		write_sysreg(v->pmsicr, PMSICR_EL1);
		if (mut & LIMIT_BEFORE_PTR)
			write_sysreg(limit, PMBLIMITR_EL1);
		write_sysreg(v->pmbptr, PMBPTR_EL1);
		if (!(mut & NO_PMBSR_CLEAR))
			write_sysreg(0, PMBSR_EL1);
		if (!(mut & LIMIT_BEFORE_PTR))
			write_sysreg(limit, PMBLIMITR_EL1);
		write_sysreg(v->pmscr, PMSCR_EL1);
	}
	sim_exit_el2(0); /* ERET: a context synchronization event */
	failures += sim_line(0, SIM_LINE_PMBIRQ);
}

/* A run of the VM between its load and its put; samples and discards are the VM's. */
static void run(struct vm *v, unsigned int n, unsigned int mut)
{
	const struct sim_spe_stats *s = sim_spe_stats(0);
	uint64_t feed = s->feed, discarded = s->discarded;
	struct sim_uop ld = t_load(v->pc, 0x12345678, 20);

	load(v, mut);
	for (unsigned int i = 0; i < n; i++)
		guest_run(&ld, 1);
	put(v, mut);
	v->samples += s->feed - feed;
	v->discarded += s->discarded - discarded;
}

/* The guest stops and drains as Linux's arm_spe_pmu does, and reads what is left. */
static void finish(struct vm *v, unsigned int mut)
{
	const struct sim_spe_stats *s = sim_spe_stats(0);
	uint64_t discarded = s->discarded;

	load(v, mut);
	sim_guest_spe_disable_and_drain();
	v->discarded += s->discarded - discarded;
	v->pmbsr = guest_read(PMBSR_EL1);
	if (v->pmbsr & T_PMBSR_S)
		guest_handles_event(v);
	else
		consume(v, guest_read(PMBPTR_EL1));
	put(v, mut);
}

/* One seeded schedule; the number of things found wrong. */
static unsigned int schedule(uint64_t seed, unsigned int mut)
{
	uint64_t r = seed * 0x9e3779b97f4a7c15ull;

	t_init(1, seed);
	vm_init();
	failures = 0;
	sim_enter_el2(0); /* the hypervisor schedules */
	for (unsigned int round = 0; round < ROUNDS; round++) {
		struct vm *v = &vms[(r >> 33) % NVM];

		r = r * 6364136223846793005ull + 1442695040888963407ull;
		run(v, 257 * (1 + (unsigned int)((r >> 40) % 4)) + (unsigned int)((r >> 20) % 100),
		    mut);
	}
	for (unsigned int i = 0; i < NVM; i++)
		if (vms[i].spe)
			finish(&vms[i], mut);
	for (unsigned int i = 0; i < NVM; i++)
		failures += vms[i].records != vms[i].samples - vms[i].discarded;
	failures += vms[2].samples != 0;
	failures += (unsigned int)sim_spe_stats(0)->dropped + sim_error_count();
	return failures;
}

static void test_right_sequence(void **state)
{
	uint64_t records = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= NSEEDS; seed++) {
		assert_int_equal(schedule(seed, RIGHT), 0);
		records += vms[0].records + vms[1].records;
		assert_true(sim_spe_stats(0)->events > 0); /* buffers did fill */
	}
	assert_true(records > 100 * NSEEDS);
}

static void mutant_fails(unsigned int mut)
{
	unsigned int failed = 0;

	for (uint64_t seed = 1; seed <= NSEEDS; seed++)
		failed += schedule(seed, mut) != 0;
	print_message("mutation %u: %u of %u schedules fail\n", mut, failed, NSEEDS);
	assert_true(failed > 0);
}

static void test_no_psb_csync(void **state)
{
	(void)state;
	mutant_fails(NO_PSB);
}

static void test_no_dsb(void **state)
{
	(void)state;
	mutant_fails(NO_DSB);
}

static void test_limit_before_pointer(void **state)
{
	(void)state;
	mutant_fails(LIMIT_BEFORE_PTR);
}

static void test_pmbsr_not_cleared(void **state)
{
	(void)state;
	mutant_fails(NO_PMBSR_CLEAR);
}

static void test_buffer_left_enabled(void **state)
{
	(void)state;
	mutant_fails(LEAVE_ENABLED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_right_sequence),
		cmocka_unit_test(test_no_psb_csync),
		cmocka_unit_test(test_no_dsb),
		cmocka_unit_test(test_limit_before_pointer),
		cmocka_unit_test(test_pmbsr_not_cleared),
		cmocka_unit_test(test_buffer_left_enabled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
