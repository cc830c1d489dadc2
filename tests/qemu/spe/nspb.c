// SPDX-License-Identifier: MIT
/*
 * FEAT_SPE at EL3 in the project's QEMU (-cpu max,spe=on, virt with secure=on and
 * virtualization=on, started as firmware with -bios: el3_head.S): the rules of MDCR_EL3.NSPB.
 * For each NSPB value, from Non-secure EL2 and EL1 and from Secure EL2 and EL1, every access to
 * a PMS* or PMB* register traps to EL3 (EC 0x18, the ISS naming the register), traps to EL2
 * (MDCR_EL2.TPMS, E2PB) or completes as CheckStatisticalProfilingAccess() and
 * CheckProfilingBufferAccess() say (SPE supplement, Arm DDI 0586A, 3.2.3 and 3.4.6); PMBIDR_EL1.P
 * shows the owner ProfilingBufferOwner() names (SPE 3.4.6, 4.3.1); and the Profiling Buffer
 * takes records only in the owning security state and at or below the owning EL, a Secure
 * owner's through the Secure translation regime (SPE 3.4.2, Table 5).
 *
 * Secure EL2 (FEAT_SEL2, SCR_EL3.EEL2 = 1): the supplement predates it; Arm DDI 0487 K.a's
 * ProfilingBufferOwner() makes the owning EL EL2 when MDCR_EL2.E2PB is 0b00 and EL2 is enabled
 * in the owning security state (Secure EL2 too), and its CheckStatisticalProfilingAccess() and
 * CheckProfilingBufferAccess() trap EL1 to EL2 where EL2 is enabled (EL2Enabled()), Secure EL1
 * under Secure EL2 included. This file follows that text.
 *
 * Prints "RESULT spe-nspb*" lines (judged by tests/qemu/spe/smoke.sh), "SUITE DONE", and exits
 * through semihosting (-semihosting).
 */
#include "smoke.h"

/* SCR_EL3 (Arm DDI 0487 K.a D19.2): NS, HCE, RW (lower ELs AArch64), APK/API, EEL2 */
#define SCR_NS	 (1ull << 0)
#define SCR_HCE	 (1ull << 8)
#define SCR_RW	 (1ull << 10)
#define SCR_APK	 (1ull << 16)
#define SCR_API	 (1ull << 17)
#define SCR_EEL2 (1ull << 18)
#define SCR_BASE (SCR_RW | SCR_HCE | SCR_APK | SCR_API)

/* MDCR_EL3.NSPB [13:12]; MDCR_EL2.E2PB [13:12], TPMS [14] */
#define MDCR_NSPB_SHIFT 12
#define MDCR_E2PB_SHIFT 12
#define MDCR_TPMS	(1ull << 14)

#define HCR_RW	(1ull << 31)
#define HCR_E2H (1ull << 34)

/* SPSR_EL3.M: EL2h and EL1h, DAIF masked */
#define SPSR_EL2H 0x3c9
#define SPSR_EL1H 0x3c5

#define PMBIDR_P (1ull << 4)

/* el3_head.S */
struct trap_log {
	uint64_t count;
	uint64_t esr[64];
};
struct trap_log el3_traps, el2_traps;
uint64_t lower_unexpected_esr;
void lower_call(const void *fn, uint64_t spsr, uint64_t scr);
uint64_t nspb_main(void);
void nspb_unexpected(uint64_t esr, uint64_t elr);

/* The Profiling Buffer of the sampling checks (smoke.h) */
uint8_t spe_buf[32768] __attribute__((aligned(4096)));

/* nspb_lower.S */
extern const char probe_el1_regs[], probe_el2_regs[], sample_loop[], sample_load_loop[];
uint64_t probe_pmbidr;

/* A security state and Exception level below EL3 the checks run in. */
struct context {
	const char *name;
	int secure, eel2, el;
};

static const struct context contexts[] = {
	{ "ns-el2", 0, 0, 2 },	   { "ns-el1", 0, 0, 1 }, { "s-el2", 1, 1, 2 },
	{ "s-el1-sel2", 1, 1, 1 }, { "s-el1", 1, 0, 1 },
};

/* What the PMS* and PMB* registers are checked by (SPE 3.2.3, 3.4.6; PMBIDR_EL1: no trap). */
enum reg_kind { SAMPLING, BUFFER, ID_ONLY };

struct spe_reg {
	const char *name;
	unsigned int op1, crm, op2;
	enum reg_kind kind;
	int writable, el2_only;
};

/* The order of the bits in a trap mask: read of entry i is bit i, its write bit 16 + i. */
static const struct spe_reg spe_regs[] = {
	{ "PMSCR_EL1", 0, 9, 0, SAMPLING, 1, 0 },   { "PMSICR_EL1", 0, 9, 2, SAMPLING, 1, 0 },
	{ "PMSIRR_EL1", 0, 9, 3, SAMPLING, 1, 0 },  { "PMSFCR_EL1", 0, 9, 4, SAMPLING, 1, 0 },
	{ "PMSEVFR_EL1", 0, 9, 5, SAMPLING, 1, 0 }, { "PMSLATFR_EL1", 0, 9, 6, SAMPLING, 1, 0 },
	{ "PMSIDR_EL1", 0, 9, 7, SAMPLING, 0, 0 },  { "PMBLIMITR_EL1", 0, 10, 0, BUFFER, 1, 0 },
	{ "PMBPTR_EL1", 0, 10, 1, BUFFER, 1, 0 },   { "PMBSR_EL1", 0, 10, 3, BUFFER, 1, 0 },
	{ "PMBIDR_EL1", 0, 10, 7, ID_ONLY, 0, 0 },  { "PMSCR_EL2", 4, 9, 0, SAMPLING, 1, 1 },
	{ "PMSCR_EL12", 5, 9, 0, SAMPLING, 1, 1 },
};
#define NREGS	     (sizeof(spe_regs) / sizeof(spe_regs[0]))
#define WRITE_BIT    16
#define BAD_SYNDROME (1ull << 31)

/* The controls of one check. */
struct setup {
	const struct context *ctx;
	unsigned int nspb, e2pb;
	int tpms;
};

/* ProfilingBufferOwner() (SPE 3.4.6; with FEAT_SEL2 as Arm DDI 0487 K.a, above) */
static void buffer_owner(const struct setup *s, int *secure, int *el)
{
	int el2_enabled_in_owner;

	*secure = !(s->nspb & 2);
	el2_enabled_in_owner = !*secure || s->ctx->eel2;
	*el = el2_enabled_in_owner && s->e2pb == 0 ? 2 : 1;
}

enum access { ACCESS_OK, TRAP_EL2, TRAP_EL3 };

/* CheckStatisticalProfilingAccess() and CheckProfilingBufferAccess() (SPE 3.2.3, 3.4.6) */
static enum access check_access(const struct setup *s, enum reg_kind kind)
{
	int el2_enabled = !s->ctx->secure || s->ctx->eel2;

	if (kind == ID_ONLY)
		return ACCESS_OK;
	if (s->ctx->el == 1 && el2_enabled && (kind == SAMPLING ? s->tpms : !(s->e2pb & 1)))
		return TRAP_EL2;
	/* MDCR_EL3.NSPB != SCR_EL3.NS:'1' */
	if (s->nspb != (s->ctx->secure ? 1u : 3u))
		return TRAP_EL3;
	return ACCESS_OK;
}

/* PMBIDR_EL1.P: the buffer owned by a higher EL or the other security state (SPE 4.3.1) */
static uint64_t expected_pmbidr_p(const struct setup *s)
{
	int secure, el;

	buffer_owner(s, &secure, &el);
	return secure != s->ctx->secure || el > s->ctx->el;
}

/* The trap masks the rules give for the probe: EL3's in bits 0-31, EL2's in bits 32-63. */
static uint64_t expected_traps(const struct setup *s)
{
	uint64_t mask = 0;

	for (unsigned int i = 0; i < NREGS; i++) {
		const struct spe_reg *r = &spe_regs[i];
		enum access a = check_access(s, r->kind);
		unsigned int shift = a == TRAP_EL2 ? 32 : 0;

		if (a == ACCESS_OK || (r->el2_only && s->ctx->el != 2))
			continue;
		mask |= 1ull << (shift + i);
		if (r->writable)
			mask |= 1ull << (shift + WRITE_BIT + i);
	}
	return mask;
}

/*
 * The bit of the probe access an EC 0x18 syndrome names (Arm DDI 0487 K.a D19.2, ESR_ELx ISS for
 * MSR/MRS: Op0 [21:20], Op2 [19:17], Op1 [16:14], CRn [13:10], Rt [9:5], CRm [4:1], Direction
 * [0], 1 a read); BAD_SYNDROME for anything else, including another Rt than the probe's.
 */
static uint64_t syndrome_bit(uint64_t esr)
{
	uint64_t iss = esr & 0x1ffffff;
	unsigned int read = iss & 1, rt = (iss >> 5) & 0x1f;

	if (esr >> 26 != 0x18 || !(esr & (1ull << 25)) || (iss >> 20) != 3 ||
	    ((iss >> 10) & 0xf) != 9 || rt != (read ? 1u : 31u))
		return BAD_SYNDROME;
	for (unsigned int i = 0; i < NREGS; i++) {
		const struct spe_reg *r = &spe_regs[i];

		if (((iss >> 14) & 7) == r->op1 && ((iss >> 1) & 0xf) == r->crm &&
		    ((iss >> 17) & 7) == r->op2)
			return 1ull << (read ? i : WRITE_BIT + i);
	}
	return BAD_SYNDROME;
}

static uint64_t log_mask(const struct trap_log *log)
{
	uint64_t mask = 0;

	if (log->count > 64)
		return BAD_SYNDROME;
	for (uint64_t i = 0; i < log->count; i++)
		mask |= syndrome_bit(log->esr[i]);
	return mask;
}

static uint64_t scr_for(const struct context *ctx)
{
	return SCR_BASE | (ctx->secure ? 0 : SCR_NS) | (ctx->eel2 ? SCR_EEL2 : 0);
}

static uint64_t spsr_for(const struct context *ctx)
{
	return ctx->el == 2 ? SPSR_EL2H : SPSR_EL1H;
}

static uint64_t mdcr_el2_base, mdcr_el3_base;

static void apply(const struct setup *s)
{
	write_sys("mdcr_el3",
		  (mdcr_el3_base & ~(3ull << MDCR_NSPB_SHIFT)) | (s->nspb << MDCR_NSPB_SHIFT));
	write_sys("mdcr_el2", (mdcr_el2_base & ~(MDCR_TPMS | 3ull << MDCR_E2PB_SHIFT)) |
				      ((uint64_t)s->e2pb << MDCR_E2PB_SHIFT) |
				      (s->tpms ? MDCR_TPMS : 0));
}

/* "nspb<NN>-<context>-<what>" */
static void check_name(char *buf, size_t size, const struct setup *s, const char *what)
{
	snprintf(buf, size, "nspb%u%u-%s-%s", s->nspb >> 1, s->nspb & 1, s->ctx->name, what);
}

static int lower_call_ok(const char *name)
{
	char buf[64];

	if (!lower_unexpected_esr)
		return 1;
	snprintf(buf, sizeof(buf), "%s-unexpected", name);
	result(buf, 0, lower_unexpected_esr, 0);
	lower_unexpected_esr = 0;
	return 0;
}

/* Every register accessed from s->ctx: where each access went, and PMBIDR_EL1.P. */
static void check_probe(const struct setup *s)
{
	const char *variant = s->e2pb == 0 ? "e2pb00-tpms1" : "e2pb11-tpms0";
	char name[64], what[32];
	uint64_t got;

	apply(s);
	el3_traps.count = el2_traps.count = 0;
	probe_pmbidr = 0;
	lower_call(s->ctx->el == 2 ? probe_el2_regs : probe_el1_regs, spsr_for(s->ctx),
		   scr_for(s->ctx));
	snprintf(what, sizeof(what), "%s-traps", variant);
	check_name(name, sizeof(name), s, what);
	if (!lower_call_ok(name))
		return;
	got = log_mask(&el3_traps) | log_mask(&el2_traps) << 32;
	expect(name, got, expected_traps(s));
	snprintf(what, sizeof(what), "%s-pmbidr-p", variant);
	check_name(name, sizeof(name), s, what);
	expect(name, (probe_pmbidr & PMBIDR_P) ? 1 : 0, expected_pmbidr_p(s));
}

/*
 * The buffer of a Secure context lies in QEMU virt's Secure-only RAM (secure=on: 16 MiB at
 * 0x0e000000, VIRT_SECURE_MEM of hw/arm/virt.c, absent from the Non-secure address space), so its
 * records are found there only if the buffer was written through the Secure translation regime
 * of the owner (SPE 3.4.2).
 */
#define SECURE_RAM_BUF 0x0e000000ull

/*
 * Sampling programmed from EL3 (whose accesses never trap) for s->ctx's EL: records reach the
 * buffer only where the owner ProfilingBufferOwner() names is s->ctx (StatisticalProfiling
 * Enabled(), ProfilingBufferEnabled(): the owning security state, an EL not above the owner's).
 * got = the first byte of the buffer << 32 | the bytes written; a record starts with the PC's
 * Address packet, header 0xb0 (D18.2.1).
 */
static void check_sampling_owner(const struct setup *s)
{
	uint64_t base = s->ctx->secure ? SECURE_RAM_BUF : (uint64_t)spe_buf, bytes;
	volatile uint8_t *buf = (volatile uint8_t *)base;
	uint64_t want;
	int secure, el;
	char name[64];

	apply(s);
	buf[0] = 0;
	write_sys(PMBSR_EL1, 0);
	write_sys(PMBPTR_EL1, base);
	write_sys(PMBLIMITR_EL1, (base + sizeof(spe_buf)) | 1);
	write_sys(PMSIRR_EL1, 256);
	write_sys(PMSICR_EL1, 0);
	write_sys(PMSFCR_EL1, 0);
	write_sys(PMSEVFR_EL1, 0);
	/* E2SPE or E1SPE (PMSCR_ELx bit 1) */
	if (s->ctx->el == 2)
		write_sys(PMSCR_EL2, 1u << 1);
	else
		write_sys(PMSCR_EL1, 1u << 1);
	lower_call(sample_loop, spsr_for(s->ctx), scr_for(s->ctx));
	/* Whatever the PE still holds goes now: no record leaks into the next check */
	psb_csync();
	bytes = read_sys(PMBPTR_EL1) - base;
	write_sys(PMSCR_EL1, 0);
	write_sys(PMSCR_EL2, 0);
	write_sys(PMBLIMITR_EL1, 0);
	write_sys(PMBSR_EL1, 0);
	check_name(name, sizeof(name), s, "samples");
	if (!lower_call_ok(name))
		return;
	buffer_owner(s, &secure, &el);
	want = secure == s->ctx->secure && el >= s->ctx->el;
	if (want)
		result(name, buf[0] == 0xb0 && bytes, (uint64_t)buf[0] << 32 | bytes, 0xb000000000);
	else
		expect(name, (uint64_t)buf[0] << 32 | bytes, 0);
}

/* PMSCR_ELx (SPE 4.3.5, 4.3.6): E1SPE / E2SPE, PA, TS, PCT */
#define PMSCR_ESPE (1ull << 1)
#define PMSCR_PA   (1ull << 4)
#define PMSCR_TS   (1ull << 5)
#define PMSCR_PCT  (1ull << 6)

/* CNTVOFF_EL2 while the collection checks sample: virtual time 2^40 behind physical. */
#define VIRT_OFFSET (1ull << 40)

/* What a record of the owner in setup carries under the given PMSCR_EL1 and PMSCR_EL2. */
struct collect_case {
	const char *name;
	struct setup s;
	uint64_t pmscr_el1, pmscr_el2;
	int pa, physical;
};

/*
 * CollectPhysicalAddress() and CollectTimeStamp() of the Arm ARM (Arm DDI 0487 K.a J1.1.1, which
 * extend the SPE supplement's 3.3 text to FEAT_SEL2 and FEAT_VHE): PMSCR_EL2.PA and PCT join
 * where EL2 is implemented and, for a Secure owner, enabled (SCR_EL3.EEL2); an owning EL1 then
 * needs both ELs' bits, an owning EL2 its own. PCT = 0 at EL2 selects the virtual counter
 * except in the host (IsInHost(): HCR_EL2.E2H = 1 at EL2), where it is the physical one. With
 * no EL2 in the Secure state, PMSCR_EL1 alone decides.
 */
static const struct collect_case collect_cases[] = {
	{ "collect-s-el1-sel2-el1-only",
	  { &contexts[3], 1, 3, 0 },
	  PMSCR_ESPE | PMSCR_PA | PMSCR_TS | PMSCR_PCT,
	  0,
	  0,
	  0 },
	{ "collect-s-el1-sel2-both",
	  { &contexts[3], 1, 3, 0 },
	  PMSCR_ESPE | PMSCR_PA | PMSCR_TS | PMSCR_PCT,
	  PMSCR_PA | PMSCR_PCT,
	  1,
	  1 },
	{ "collect-s-el1-no-sel2",
	  { &contexts[4], 1, 3, 0 },
	  PMSCR_ESPE | PMSCR_PA | PMSCR_TS | PMSCR_PCT,
	  0,
	  1,
	  1 },
	{ "collect-s-el2-host",
	  { &contexts[2], 1, 0, 0 },
	  0,
	  PMSCR_ESPE | PMSCR_PA | PMSCR_TS,
	  1,
	  1 },
	{ "collect-ns-el2-host", { &contexts[0], 3, 0, 0 }, 0, PMSCR_ESPE | PMSCR_TS, 0, 1 },
};

/*
 * Sample c's context over a loop of loads (sample_load_loop) and read its records: got = 4 when
 * there are records, | 2 when one carries a data physical address (Address INDEX 3, D18.2.1),
 * | 1 when the first one's Timestamp (D18.2.9) is physical time (within 2^39 of CNTPCT_EL0 read
 * after the run; a virtual one is VIRT_OFFSET behind).
 */
static void check_collect(const struct collect_case *c)
{
	const struct context *ctx = c->s.ctx;
	uint64_t base = ctx->secure ? SECURE_RAM_BUF : (uint64_t)spe_buf, bytes, pos = 0, now;
	const uint8_t *buf = (const uint8_t *)base;
	uint64_t got = 0, first_ts = 0;
	struct record r;

	apply(&c->s);
	write_sys("cntvoff_el2", VIRT_OFFSET);
	write_sys(PMBSR_EL1, 0);
	write_sys(PMBPTR_EL1, base);
	write_sys(PMBLIMITR_EL1, (base + sizeof(spe_buf)) | 1);
	write_sys(PMSIRR_EL1, 256);
	write_sys(PMSICR_EL1, 0);
	write_sys(PMSFCR_EL1, 0);
	write_sys(PMSEVFR_EL1, 0);
	write_sys(PMSCR_EL1, c->pmscr_el1);
	write_sys(PMSCR_EL2, c->pmscr_el2);
	lower_call(sample_load_loop, spsr_for(ctx), scr_for(ctx));
	psb_csync();
	now = read_sys("cntpct_el0");
	bytes = read_sys(PMBPTR_EL1) - base;
	write_sys(PMSCR_EL1, 0);
	write_sys(PMSCR_EL2, 0);
	write_sys(PMBLIMITR_EL1, 0);
	write_sys(PMBSR_EL1, 0);
	write_sys("cntvoff_el2", 0);
	if (!lower_call_ok(c->name))
		return;
	while (next_record(buf, bytes, &pos, &r)) {
		if (!(got & 4))
			first_ts = r.ts;
		got |= 4 | (r.has_pa ? 2 : 0);
	}
	if ((got & 4) && first_ts && now - first_ts < (1ull << 39))
		got |= 1;
	expect(c->name, got, 4u | (unsigned int)c->pa << 1 | (unsigned int)c->physical);
}

void nspb_unexpected(uint64_t esr, uint64_t elr)
{
	printf("RESULT spe-nspb-el3-unexpected FAIL esr=0x%lx elr=0x%lx\n", (unsigned long)esr,
	       (unsigned long)elr);
	printf("SUITE DONE\n");
}

uint64_t nspb_main(void)
{
	uint64_t pfr0 = read_sys("id_aa64pfr0_el1"), dfr0 = read_sys("id_aa64dfr0_el1");

	printf("spe-nspb: EL3, MDCR_EL3.NSPB\n");
	result("nspb-pmsver", ((dfr0 >> 32) & 0xf) >= 1, (dfr0 >> 32) & 0xf, 1);
	result("nspb-sel2-present", ((pfr0 >> 36) & 0xf) >= 1, (pfr0 >> 36) & 0xf, 1);
	mdcr_el2_base = read_sys("mdcr_el2");
	mdcr_el3_base = read_sys("mdcr_el3");
	write_sys("hcr_el2", HCR_RW | HCR_E2H);
	for (unsigned int nspb = 0; nspb < 4; nspb++) {
		for (unsigned int c = 0; c < sizeof(contexts) / sizeof(contexts[0]); c++) {
			struct setup s = { &contexts[c], nspb, 0, 1 };

			check_probe(&s);
			s.e2pb = 3;
			s.tpms = 0;
			check_probe(&s);
		}
	}
	/* The owner's EL: EL2 with E2PB 0b00 (EL2 sampling at E2SPE), EL1 with 0b11 */
	for (unsigned int nspb = 0; nspb < 4; nspb++) {
		for (unsigned int c = 0; c < sizeof(contexts) / sizeof(contexts[0]); c++) {
			const struct context *ctx = &contexts[c];
			struct setup s = { ctx, nspb, ctx->el == 2 ? 0 : 3, 0 };

			check_sampling_owner(&s);
		}
	}
	for (unsigned int i = 0; i < sizeof(collect_cases) / sizeof(collect_cases[0]); i++)
		check_collect(&collect_cases[i]);
	printf("spe-nspb: %u failures\n", smoke_failures);
	printf("SUITE DONE\n");
	return smoke_failures ? 1 : 0;
}
