// SPDX-License-Identifier: MIT
/*
 * PMBIRQ end to end (SPE 3.5): a buffer management event raised by the profiling
 * operation while the guest runs drives PMBIRQ, a level PPI (INTID 21), through the model's GIC
 * to the hypervisor at EL2 (HCR_EL2.IMO = 1), in the middle of guest_run. The handler vSPE will
 * need: stop the buffer, take PMBSR_EL1, clear it (the line drops), EOI: one delivery. A handler
 * that EOIs with PMBSR_EL1.S still set gets the interrupt again and again.
 */
#include "cmocka_wrap.h"
#include "sim_spe_util.h"

#include <sim/gic.h>

#define LIMIT	   (T_BUF_VA + T_BUF_SIZE)
#define HCR_VM	   VPERF_BIT(0)
#define HCR_IMO	   VPERF_BIT(4)
#define PMB_INTID  21u
#define T_BSC_FULL 1u

static struct {
	bool clear; /* the handler clears PMBSR_EL1 */
	unsigned int calls;
	unsigned int el;   /* sim_el() in the handler */
	uint64_t pmbsr;	   /* PMBSR_EL1 the handler read */
	uint64_t ops_seen; /* guest ops run before the interrupt */
} hyp;

static uint64_t ops_run;

static void pmbirq(void *ctx, unsigned int cpu, uint32_t intid)
{
	(void)ctx;
	assert_int_equal(intid, PMB_INTID);
	hyp.calls++;
	hyp.el = sim_el();
	if (hyp.calls > 1)
		goto eoi;
	hyp.ops_seen = ops_run;
	psb_csync();
	dsb_nsh();
	isb();
	hyp.pmbsr = read_sysreg(PMBSR_EL1);
	if (hyp.clear) {
		write_sysreg(0, PMBLIMITR_EL1); /* kept disabled until the guest has seen it */
		write_sysreg(0, PMBSR_EL1);
		isb();
	}
eoi:
	sim_gic_eoi(cpu, intid);
}

static void setup_irq(bool clear)
{
	struct sim_spe_options o;
	const struct sim_handlers h = { .irq = pmbirq };

	t_init(1, 1);
	sim_set_handlers(&h);
	sim_spe_default_options(&o);
	o.hold = 1; /* each record is processed when the next one is sampled */
	sim_spe_set_options(&o);
	write_sysreg(HCR_VM | HCR_IMO, HCR_EL2);
	sim_gic_enable_ppi(0, PMB_INTID, true);
	isb();
	hyp = (__typeof__(hyp)){ .clear = clear };
	ops_run = 0;
	/* 98 bytes: after the first record 63 are left, fewer than 2^MaxSize (SPE 3.5.2). */
	t_guest_start(LIMIT - 98, LIMIT, T_PMSCR_E1SPE, 0, T_INTERVAL_1);
}

static void run_guest(unsigned int n)
{
	struct sim_uop ld = t_load(0x400000, 0x12345678, 20);

	for (unsigned int i = 0; i < n; i++, ops_run++)
		guest_run(&ld, 1);
}

/* The second sample (op 514) pushes the first record out: buffer full, PMBIRQ, taken at EL2 at
 * the poll point after that op; the handler's PMBSR_EL1: S, EC 0, BSC 1. One delivery. */
static void test_pmbirq_taken_at_el2(void **state)
{
	(void)state;
	setup_irq(true);
	run_guest(3 * 257);
	assert_int_equal(hyp.calls, 1);
	assert_int_equal(hyp.el, 2);
	assert_int_equal(hyp.ops_seen, 2 * 257 - 1); /* in the guest_run of op 514 */
	assert_int_equal(hyp.pmbsr, T_PMBSR_S | T_BSC_FULL);
	assert_false(sim_line(0, SIM_LINE_PMBIRQ));
	assert_int_equal(sim_gic_phys_count(0, PMB_INTID), 1);
	assert_int_equal(sim_spe_stats(0)->written, 1);
	assert_int_equal(sim_error_count(), 0);
}

/* EOI with PMBSR_EL1.S still 1: the level line is still high, the interrupt comes back at each
 * poll point (a storm a hypervisor must not cause). */
static void test_pmbirq_storm_without_clear(void **state)
{
	(void)state;
	setup_irq(false);
	run_guest(3 * 257);
	assert_true(sim_line(0, SIM_LINE_PMBIRQ));
	assert_true(hyp.calls > 100);
	assert_int_equal(sim_gic_phys_count(0, PMB_INTID), hyp.calls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmbirq_taken_at_el2),
		cmocka_unit_test(test_pmbirq_storm_without_clear),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
