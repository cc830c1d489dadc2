// SPDX-License-Identifier: MIT
/*
 * EL0 access to the PMU as the guest's EL1 grants it in PMUSERENR_EL0 (EN, SW, CR, ER; Arm DDI
 * 0487 K.a D24.5), and the grant kept across the vCPU's switches: bare, under vperf in every
 * partition.
 */
#include "suite.h"

static uint64_t el0_ccntr(uint64_t a)
{
	(void)a;
	return read_sysreg(pmccntr_el0);
}

static uint64_t el0_ev0(uint64_t a)
{
	(void)a;
	return read_sysreg(pmevcntr0_el0);
}

static uint64_t el0_swinc(uint64_t a)
{
	write_sysreg(a, pmswinc_el0);
	return 0;
}

static uint64_t el0_selr(uint64_t a)
{
	write_sysreg(a, pmselr_el0);
	return 0;
}

static uint64_t el0_selr_read(uint64_t a)
{
	(void)a;
	return read_sysreg(pmselr_el0);
}

static uint64_t el0_userenr(uint64_t a)
{
	write_sysreg(a, pmuserenr_el0);
	return 0;
}

/* Exceptions an EL0 call took (0: allowed). */
static unsigned int at_el0(uint64_t (*fn)(uint64_t), uint64_t arg)
{
	expect_begin();
	el0_call(fn, arg);
	return expect_end(NULL);
}

/* PMUSERENR_EL0.ER = 1 with EN = 0 grants EL0 PMSELR_EL0, reads and writes, beside the event
 * counter reads (PMUSERENR_EL0.ER, and PMSELR_EL0's accessibility, where EL0 traps to EL1 only
 * when ER and EN are both 0); CR or SW alone do not. */
static void test_el0_selr(void)
{
	bool ok;

	write_sysreg(0, pmselr_el0);
	write_sysreg(PMUSERENR_CR | PMUSERENR_SW, pmuserenr_el0);
	ok = at_el0(el0_selr, 2) == 1 && read_sysreg(pmselr_el0) == 0;
	ok &= at_el0(el0_selr_read, 0) == 1;
	write_sysreg(PMUSERENR_ER, pmuserenr_el0);
	ok &= !at_el0(el0_selr, 3) && !at_el0(el0_selr_read, 0);
	CHECK("el0-er-pmselr", ok && read_sysreg(pmselr_el0) == 3,
	      "ER=1 EN=0: EL0 writes and reads PMSELR_EL0 (SEL %lu, want 3); CR|SW: refused (%d)",
	      read_sysreg(pmselr_el0), ok);
	write_sysreg(0, pmselr_el0);
	write_sysreg(0, pmuserenr_el0);
}

/* A vCPU resumed after WFI (put, then loaded again on the timer's interrupt) keeps its EL0
 * grant, with its PMU idle and with a counter running. */
static void test_el0_after_wfi(void)
{
	unsigned int wfis;
	bool ok;

	pmu_quiesce();
	write_sysreg(PMUSERENR_ER | PMUSERENR_CR, pmuserenr_el0);
	wfis = wfi_sleep_ms(3);
	ok = !at_el0(el0_ev0, 0) && !at_el0(el0_ccntr, 0);
	write_sysreg(CYCLE_BIT, pmcntenset_el0);
	write_sysreg(PMCR_E | PMCR_LC, pmcr_el0);
	wfis += wfi_sleep_ms(3);
	ok &= !at_el0(el0_ev0, 0) && !at_el0(el0_ccntr, 0);
	ok &= read_sysreg(pmuserenr_el0) == (PMUSERENR_ER | PMUSERENR_CR);
	CHECK("el0-grant-after-wfi", ok && wfis,
	      "ER|CR still honoured after %u WFIs, idle and counting", wfis);
	write_sysreg(0, pmuserenr_el0);
}

/* A denied EL0 access is a trap to EL1 reported as a trapped MSR/MRS (EC 0x18, ISS.Direction 1
 * for a read), as Arm's pseudocode of each PMU register gives it (PMCCNTR_EL0's read, PMSWINC_EL0's
 * write: AArch64.SystemAccessTrap(EL1, 0x18) when PMUSERENR_EL0 denies EL0), not an UNDEFINED
 * instruction (EC 0): a hypervisor that judges the access at EL2 must report it the same way.
 * After a while of running, so that a hypervisor's exits and entries come between the grant and
 * the accesses (an entry that leaves another PMUSERENR_EL0 in the CPU shows here). */
static void test_el0_denied_trap(void)
{
	uint64_t rd = 0, wr = 0;
	unsigned int n, gaps;

	write_sysreg(0, pmuserenr_el0);
	gaps = spin_ms(20);
	expect_begin();
	el0_call(el0_ccntr, 0);
	n = expect_end(&rd);
	expect_begin();
	el0_call(el0_swinc, 1);
	n += expect_end(&wr);
	CHECK("el0-denied-trap",
	      n == 2 && FIELD(rd, 31, 26) == 0x18 && (rd & 1) && FIELD(wr, 31, 26) == 0x18 &&
		      !(wr & 1),
	      "ESR_EL1 %lx (EL0 read of PMCCNTR_EL0), %lx (EL0 write of PMSWINC_EL0): EC 0x18 "
	      "each, read then write (%u gaps before)",
	      rd, wr, gaps);
}

void el0_tests(void)
{
	unsigned int gaps, bad; /* a bit for each step that went wrong */

	pmu_quiesce();
	bad = !(at_el0(el0_ccntr, 0) && at_el0(el0_ev0, 0) && at_el0(el0_swinc, 1));
	write_sysreg(PMUSERENR_CR, pmuserenr_el0);
	bad |= !(!at_el0(el0_ccntr, 0) && at_el0(el0_ev0, 0)) << 1;
	write_sysreg(PMUSERENR_ER, pmuserenr_el0);
	bad |= !(!at_el0(el0_ev0, 0) && at_el0(el0_ccntr, 0)) << 2;
	write_sysreg(PMUSERENR_SW, pmuserenr_el0);
	bad |= !!at_el0(el0_swinc, 1) << 3;
	write_sysreg(PMUSERENR_EN, pmuserenr_el0);
	bad |= !(!at_el0(el0_ccntr, 0) && !at_el0(el0_ev0, 0) && !at_el0(el0_swinc, 1)) << 4;
	bad |= !(at_el0(el0_userenr, 0) == 1 && read_sysreg(pmuserenr_el0) == PMUSERENR_EN) << 5;
	CHECK("el0-pmuserenr", !bad,
	      "EN/SW/CR/ER gate EL0 exactly; wrong: %x (1 none, 2 CR, 4 ER, 8 SW, 10 EN, 20 write)",
	      bad);
	test_el0_selr();
	test_el0_denied_trap();
	/* The same grant must survive being switched out with an idle PMU. */
	write_sysreg(PMUSERENR_CR, pmuserenr_el0);
	gaps = spin_ms(20);
	CHECK("el0-after-switch", !at_el0(el0_ccntr, 0), "PMUSERENR.CR still honoured (%u gaps)",
	      gaps);
	test_el0_after_wfi();
	pmu_quiesce();
}
