// SPDX-License-Identifier: MIT
/*
 * SPE as a guest with a vSPE sees it (bootargs spe=1; docs/vspe.md), and as bare QEMU shows it
 * (the baseline): the ID registers, the RES0 bits of the sampling controls, a buffer filled to
 * its limit raising PMBIRQ on the device tree's PPI, the buffer re-armed, PSB CSYNC draining the
 * records in flight, a buffer recording on across the guest's exits, and (spe_lazy=1, the hypervisor mapping the VM's memory at its first touch)
 * a buffer in memory the CPU never touched, whose stage 2 faults the guest must not see. The
 * SPE supplement (Arm DDI 0586A) is cited as "SPE 4.3.5" etc.; SPEv1 (PMSVer 1, QEMU's) fields.
 */
#include "suite.h"

#include "spe.h"

uint64_t spe_interval = SPE_INTERVAL, spe_pmscr = PMSCR_E1SPE;
static volatile unsigned int spe_irqs;
static volatile uint64_t irq_pmbsr, irq_ptr;

/* PMBIRQ, as Linux's driver takes it: the records in flight synchronized (SPE 3.6), the buffer
 * off before S is cleared (with less than a record's room left, clearing S alone would stop it
 * again at once), then PMBSR_EL1 = 0, which drops the level (SPE 3.5). */
static void spe_irq(uint32_t intid)
{
	(void)intid;
	psb_csync();
	dsb(nsh);
	isb();
	irq_pmbsr = RD(PMBSR);
	irq_ptr = RD(PMBPTR);
	WR(0, PMBLIMITR);
	isb();
	WR(0, PMBSR);
	isb();
	spe_irqs++;
}

/* Sample EL1 into [ptr, limit): pointer before the enabled limit (SPE 3.4), then the sampling. */
void spe_start(uint64_t ptr, uint64_t limit)
{
	WR(0, PMSCR);
	WR(0, PMBSR);
	WR(ptr, PMBPTR);
	WR(spe_interval, PMSIRR); /* INTERVAL is bits [31:8] of the count itself */
	WR(0, PMSFCR);
	WR(0, PMSICR);
	WR(limit | PMBLIMITR_E, PMBLIMITR);
	isb();
	WR(spe_pmscr, PMSCR);
	isb();
}

void spe_stop(void)
{
	WR(0, PMSCR);
	isb();
	psb_csync();
	dsb(nsh);
	isb();
	WR(0, PMBLIMITR);
	isb();
}

/* Sampled work until want PMBIRQs arrived, ms at most. */
static bool run_until_irq(unsigned int want, uint64_t ms)
{
	uint64_t end = now() + ms_to_ticks(ms);

	while (spe_irqs < want && now() < end)
		workload(10000);
	return spe_irqs >= want;
}

static unsigned int max_record(void)
{
	return 1u << FIELD(RD(PMSIDR), 15, 12);
}

/* The guest's view of the IDs (docs/vspe.md): PMSVer >= 1, PMSIDR_EL1 with no field beyond its
 * version's (vperf hides FDS, EFT and later ones), PMBIDR_EL1.P = 0 (the buffer is EL1's: SPE
 * 4.3.1) and nothing above F, and the device tree's PMBIRQ PPI. */
static void test_id(void)
{
	unsigned int pmsver = (unsigned int)FIELD(read_sysreg(id_aa64dfr0_el1), 35, 32);
	uint64_t idr = RD(PMSIDR), bidr = RD(PMBIDR);
	uint64_t mask = SPE_V1_PMSIDR | (pmsver >= 3 ? BIT(6) : 0); /* FnE: SPEv1p2 */

	CHECK("spe-id",
	      pmsver >= 1 && !(idr & ~mask) && FIELD(idr, 15, 12) >= 4 && !(bidr & ~0x2full) &&
		      gi.spe_intid,
	      "PMSVer %u, PMSIDR_EL1 %lx, PMBIDR_EL1 %lx (P %lu), PMBIRQ INTID %u", pmsver, idr,
	      bidr, (unsigned long)FIELD(bidr, 4, 4), gi.spe_intid);
}

/* All ones into each sampling control (buffer off: nothing samples) reads back its version's
 * fields only (SPE 4.3.5 PMSCR_EL1, 4.3.6 PMSFCR_EL1, 4.3.12 PMSIRR_EL1, 4.3.8 PMSLATFR_EL1),
 * PMBLIMITR_EL1 keeps LIMIT (E written 0), PMBSR_EL1 drops its RES0 bits; and no access is
 * refused. */
static void test_res0(void)
{
	unsigned int pmsver = (unsigned int)FIELD(read_sysreg(id_aa64dfr0_el1), 35, 32);
	/* PCT[1] with FEAT_ECV, ID_AA64MMFR0_EL1.ECV [63:60] (Arm DDI 0487 D24.2.88), whatever
	 * the SPE version (QEMU's -cpu max has it) */
	uint64_t want_scr = FIELD(read_sysreg(id_aa64mmfr0_el1), 63, 60) ? 0xfbull : 0x7bull;
	uint64_t want_fcr = 0x70007ull | (pmsver >= 3 ? BIT(3) : 0);
	uint64_t scr, fcr, irr, lat, lim, bsr;
	unsigned int undef;

	expect_begin();
	WR(~0ull, PMSCR);
	scr = RD(PMSCR);
	WR(0, PMSCR);
	WR(~0ull, PMSFCR);
	fcr = RD(PMSFCR);
	WR(~0ull, PMSIRR);
	irr = RD(PMSIRR);
	WR(~0ull, PMSLATFR);
	lat = RD(PMSLATFR);
	WR(~PMBLIMITR_E, PMBLIMITR);
	lim = RD(PMBLIMITR);
	WR(0xff00000003f00000ull, PMBSR); /* only RES0 bits: S stays 0, no event */
	bsr = RD(PMBSR);
	WR(0, PMSFCR);
	WR(0, PMSIRR);
	WR(0, PMSLATFR);
	WR(0, PMBLIMITR);
	isb();
	undef = expect_end(NULL);
	CHECK("spe-res0",
	      !undef && scr == want_scr && fcr == want_fcr && irr == 0xffffff01ull &&
		      (lat & 0xfff) == 0xfff && !(lat >> 16) && lim >> 12 == ~0ull >> 12 &&
		      !(lim & 0xff9) && !bsr,
	      "refused %u; PMSCR %lx (want %lx) PMSFCR %lx (want %lx) PMSIRR %lx PMSLATFR %lx "
	      "PMBLIMITR %lx PMBSR %lx",
	      undef, scr, want_scr, fcr, want_fcr, irr, lat, lim, bsr);
}

/* One buffer full event: PMBIRQ once, PMBSR_EL1 S with EC 0 and BSC full (SPE 3.5.2), the pointer
 * within a record of the limit, records at the start, and no second interrupt once S is 0. */
static bool buffer_full_once(const char *name, uint64_t base, uint64_t size)
{
	const volatile uint8_t *first = (const volatile uint8_t *)(uintptr_t)base;
	bool got, again, full;

	spe_irqs = 0;
	irq_pmbsr = irq_ptr = 0;
	spe_start(base, base + size);
	got = run_until_irq(1, 3000);
	spe_stop();
	again = wait_for(&spe_irqs, 2, 5);
	full = (irq_pmbsr & PMBSR_S) && PMBSR_EC(irq_pmbsr) == 0 &&
	       PMBSR_BSC(irq_pmbsr) == BSC_FULL && !(irq_pmbsr & PMBSR_DL) &&
	       irq_ptr <= base + size && irq_ptr + max_record() > base + size;
	CHECK(name, got && !again && full && *first,
	      "%u PMBIRQ on INTID %u, PMBSR_EL1 %lx, PMBPTR_EL1 %lx (limit %lx), first byte %x",
	      spe_irqs, gi.spe_intid, irq_pmbsr, irq_ptr, base + size, *first);
	return got && full;
}

/* PSB CSYNC after sampling stopped: the records of every sampled operation are in the buffer
 * (SPE 3.6), the last one complete (it ends with an End packet, 0x01, D18.2.5: no timestamps
 * asked for), and no event. */
static void test_psb_drain(void)
{
	const volatile uint8_t *buf = (const volatile uint8_t *)(uintptr_t)BUF_DRAIN;
	uint64_t ptr, bsr;

	spe_start(BUF_DRAIN, BUF_DRAIN + 0x10000);
	workload(20 * SPE_INTERVAL);
	spe_stop();
	ptr = RD(PMBPTR);
	bsr = RD(PMBSR);
	CHECK("spe-psb-drain",
	      ptr > BUF_DRAIN && ptr < BUF_DRAIN + 0x10000 && buf[ptr - BUF_DRAIN - 1] == 0x01 &&
		      !bsr,
	      "%lu bytes of records, last byte %x, PMBSR_EL1 %lx", (unsigned long)(ptr - BUF_DRAIN),
	      ptr > BUF_DRAIN ? buf[ptr - BUF_DRAIN - 1] : 0, bsr);
}

/*
 * spe-across-exits: an enabled buffer keeps recording, into itself alone, across the guest's exits
 * to its hypervisor: two 3 ms WFI sleeps, then rounds of sampled work (at least EXIT_ROUNDS and
 * EXIT_MS), PMBPTR_EL1 read after each (PSB CSYNC and an ISB make the profiling operation's
 * indirect writes to it visible, SPE 3.6). Each round must add records (8 sampling intervals of
 * operations), within [base, limit) (SPE 3.4: records are written at PMBPTR_EL1, which only the
 * profiling operation and the guest move), and no buffer event may come (the buffer is re-armed
 * well before it fills). A host that profiles with SPE of its own shares every Profiling Buffer
 * register and sampling control but PMSCR_EL2 with its guests: under VHE KVM its driver starting
 * or stopping a session while the vCPU is loaded (an event enabled or disabled by IPI, hostperf
 * spe-toggle) turns the guest's buffer off or points its sampling at the host's buffer
 * (integrations/kvm/mutants/vhe-spe-driver.patch).
 */
#define EXIT_ROUNDS 40
#define EXIT_MS	    40
#define EXIT_ROOM   0x4000ull /* re-armed with less room left than this */

static uint64_t synced_ptr(void)
{
	psb_csync();
	isb();
	return RD(PMBPTR);
}

static void test_across_exits(void)
{
	uint64_t base = BUF_DRAIN, limit = BUF_DRAIN + 0x10000, ptr = base, next = base;
	uint64_t end, bsr;
	unsigned int round, stuck = 0, rearmed = 0;

	spe_irqs = 0;
	irq_pmbsr = 0;
	spe_start(base, limit);
	(void)wfi_sleep_ms(3);
	(void)wfi_sleep_ms(3);
	end = now() + ms_to_ticks(EXIT_MS);
	for (round = 0; round < 10 * EXIT_ROUNDS && !spe_irqs; round++) {
		if (round >= EXIT_ROUNDS && now() >= end)
			break;
		(void)workload(8 * SPE_INTERVAL);
		next = synced_ptr();
		if (next < ptr || next > limit)
			break;
		stuck += next == ptr;
		ptr = next;
		if (limit - ptr < EXIT_ROOM) {
			spe_stop();
			spe_start(base, limit);
			ptr = base;
			rearmed++;
		}
	}
	bsr = RD(PMBSR);
	spe_stop();
	CHECK("spe-across-exits", next >= base && next <= limit && !stuck && !spe_irqs && !bsr,
	      "%u rounds (%u without a record), re-armed %u times, PMBPTR_EL1 %lx (buffer %lx to "
	      "%lx), %u PMBIRQ (PMBSR_EL1 %lx at the interrupt, %lx after)",
	      round, stuck, rearmed, next, base, limit, spe_irqs, irq_pmbsr, bsr);
}

/* A buffer the CPU never touched, with the hypervisor mapping memory at first touch: each stage 2
 * fault the Profiling Buffer takes is the hypervisor's to recover (SPE 3.5.3). The guest sees
 * buffer full events only: at the limit, or earlier with DL (a fault inside a record, the one
 * thing vperf cannot hide: the record is cut), where it goes on from the pointer as Linux does. */
static void test_lazy(void)
{
	uint64_t limit = BUF_LAZY + 0x100000, ptr = BUF_LAZY;
	unsigned int dl = 0, other = 0, round;
	bool at_limit = false;

	for (round = 0; round < 8 && !at_limit && !other; round++) {
		spe_irqs = 0;
		irq_pmbsr = 0;
		spe_start(ptr, limit);
		if (!run_until_irq(1, 5000))
			break;
		spe_stop();
		ptr = irq_ptr;
		if (PMBSR_EC(irq_pmbsr) || PMBSR_BSC(irq_pmbsr) != BSC_FULL)
			other++;
		else if (irq_pmbsr & PMBSR_DL)
			dl++;
		else
			at_limit = ptr + max_record() > limit;
	}
	spe_stop();
	CHECK("spe-lazy-buffer", at_limit && !other,
	      "1 MiB filled in %u events (%u with DL: a record cut by a stage 2 fault), %u of "
	      "another kind; last PMBSR_EL1 %lx PMBPTR_EL1 %lx",
	      round, dl, other, irq_pmbsr, ptr);
}

void spe_tests(void)
{
	if (!FIELD(read_sysreg(id_aa64dfr0_el1), 35, 32) || !gi.spe_intid) {
		result("spe-id", FAIL, "spe=1 but PMSVer %u, PMBIRQ INTID %u",
		       (unsigned int)FIELD(read_sysreg(id_aa64dfr0_el1), 35, 32), gi.spe_intid);
		return;
	}
	irq_register(gi.spe_intid, spe_irq);
	gic_enable_ppi(gi.spe_intid, true);
	irq_enable();
	test_id();
	test_res0();
	if (buffer_full_once("spe-buffer-full", BUF_IRQ, 0x2000))
		buffer_full_once("spe-rearm", BUF_IRQ, 0x2000);
	else
		result("spe-rearm", FAIL, "no first buffer full event");
	test_psb_drain();
	test_across_exits();
	if (arg_is("spe_lazy", "1"))
		test_lazy();
	if (arg_str("iso"))
		spe_iso_tests();
	gic_enable_ppi(gi.spe_intid, false);
}
