// SPDX-License-Identifier: MIT
/*
 * A hostile guest beside a well-behaved one: VM 0 writes random values (wild, unaligned, near
 * its buffer, beyond its limit) into every SPE register and samples, while the hypervisor takes
 * back its stage 2 pages at random; VM 1 drives SPE as arm_spe_pmu does. Both are switched on
 * two pCPUs under seeded schedules. VM 1 must see exactly its own records and no event, VM 2's
 * memory (never run) must stay untouched, and the model must see no record written through the
 * wrong VM or owner.
 */
#include <stdlib.h>

#include "cmocka_wrap.h"
#include "vspe_util.h"

static struct lx_spe good;

static uint64_t rnd64(void)
{
	return ((uint64_t)rand() << 42) ^ ((uint64_t)rand() << 21) ^ (uint64_t)rand();
}

/* One hostile register write: mostly values near its buffer, sometimes anything. */
static void hostile_write(void)
{
	static const uint32_t regs[] = {
		VPERF_ENC_PMSCR_EL1,	VPERF_ENC_PMSICR_EL1,	 VPERF_ENC_PMSIRR_EL1,
		VPERF_ENC_PMSFCR_EL1,	VPERF_ENC_PMSEVFR_EL1,	 VPERF_ENC_PMSLATFR_EL1,
		VPERF_ENC_PMBPTR_EL1,	VPERF_ENC_PMBLIMITR_EL1, VPERF_ENC_PMBSR_EL1,
		VPERF_ENC_PMSNEVFR_EL1,
	};
	uint32_t enc = regs[(unsigned int)rand() % VPERF_ARRAY_SIZE(regs)];
	uint64_t v = rnd64();

	switch (rand() % 4) {
	case 0:
		v = V_BUF_VA + (v & 0x3ffff); /* in and beyond its 64 KB buffer */
		break;
	case 1:
		v = enc == VPERF_ENC_PMSCR_EL1	     ? V_PMSCR_E1SPE | V_PMSCR_E0SPE
		    : enc == VPERF_ENC_PMBLIMITR_EL1 ? (V_BUF_VA + V_BUF_SIZE) | V_PMBLIMITR_E
		    : enc == VPERF_ENC_PMSIRR_EL1    ? V_INTERVAL_1
						     : 0;
		break;
	default:
		break;
	}
	guest_msr(enc, v);
}

static void hostile_run(unsigned int n)
{
	const struct sim_uop op = { .pc = V_LOOP_PC(0),
				    .vaddr = 0x5000,
				    .latency = 6,
				    .type = SIM_UOP_LOAD,
				    .size_log2 = 3 };

	for (unsigned int i = 0; i < n; i++) {
		if (rand() % 50 == 0)
			hostile_write();
		guest_run(&op, 1);
	}
}

static void run_seed(uint64_t seed)
{
	struct hv_vcpu *bad, *ok;
	uint8_t canary[4096];

	vs_init(3, 0, seed);
	srand((unsigned int)seed);
	assert_int_equal(vs_vm(0, seed % 2 ? VPERF_SPE_BUF_EL1 : VPERF_SPE_BUF_EL1_TRAPPED, false),
			 VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1_TRAPPED, false), VPERF_OK);
	assert_int_equal(vs_vm(2, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	bad = hv_vcpu(0, 0);
	ok = hv_vcpu(1, 1);
	good = (struct lx_spe){ .vm = 1, .size = 0x2000 };
	hv_enter(ok, 1);
	lx_start(&good);
	for (unsigned int s = 0; s < 60; s++) {
		unsigned int cpu = (unsigned int)rand() % 2;

		if (rand() % 2) {
			if (hv.running[cpu ^ 1] == bad)
				hv_leave(cpu ^ 1);
			hv_enter(bad, cpu);
			hostile_run(300 + (unsigned int)rand() % 600);
		} else {
			if (hv.running[cpu ^ 1] == ok)
				hv_leave(cpu ^ 1);
			hv_enter(ok, cpu);
			lx_run(&good, ok, 300 + (unsigned int)rand() % 600);
		}
		if (rand() % 4 == 0) /* the hypervisor takes VM 0's pages back */
			sim_mem_unmap_s2(1, V_BUF_IPA, V_BUF_SIZE);
	}
	if (hv.running[0] == ok)
		hv_leave(0);
	hv_enter(ok, 1);
	lx_stop(&good);
	hv_leave(0);
	hv_leave(1);
	assert_int_equal(good.fatal + good.truncated + good.spurious, 0);
	assert_int_equal(good.irqs, hv.vm[1].stats.spe_events);
	assert_true(hv.vm[0].stats.bad_value > 0);
	assert_true(hv.max_irq_burst <= 1);
	assert_true(lx_records(&good) >= 10);
	sim_mem_read(V_BUF_PA(2), canary, sizeof(canary));
	for (unsigned int i = 0; i < sizeof(canary); i++)
		assert_int_equal(canary[i], 0);
	assert_int_equal(sim_error_count(), 0);
}

static void test_hostile_neighbour(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 40; seed++)
		run_seed(seed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostile_neighbour),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
