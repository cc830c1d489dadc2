// SPDX-License-Identifier: MIT
/*
 * FEAT_SPE smoke test (smoke.c), the registers: ID and reset values, RES0 masks, the traps of
 * MDCR_EL2 (TPMS, E2PB) and of HDFGRTR_EL2/HDFGWTR_EL2 (FEAT_FGT), PMBIDR_EL1.P, the PMSCR_EL12
 * alias. SPE supplement (Arm DDI 0586A) 3.2.3, 3.4.6, 4.3; Arm DDI 0487 K.a D19.2 (HDFGRTR_EL2,
 * HDFGWTR_EL2).
 */
#include "smoke.h"

/* One register's reset value: within its fields (RES0 bits read 0); its bits join `unknown`. */
#define RESET_FIELDS(name, reg, fields)                                       \
	({                                                                    \
		uint64_t r_ = read_sys(reg);                                  \
		result(name, !(r_ & ~(uint64_t)(fields)), r_, r_ & (fields)); \
		r_;                                                           \
	})

/* SPE 4.2: PMBLIMITR_EL1.E resets to 0; every other field of the sampling and buffer registers
 * to an IMPLEMENTATION DEFINED value that might be UNKNOWN, with PMBIRQ as PMBSR_EL1.S says. The
 * project's QEMU gives them seeded garbage (`-cpu ...,reset-seed=S`, default 0x5eed; 0 resets
 * them to 0): `reset-unknown` fails on a platform kinder than that. An owner resets them before
 * use, as this test does next. */
static void check_reset(void)
{
	uint64_t limit = read_sys(PMBLIMITR_EL1), status = read_sys(PMBSR_EL1), unknown = limit;

	unknown |= RESET_FIELDS("reset-pmscr-el1", PMSCR_EL1, 0xfb);
	unknown |= RESET_FIELDS("reset-pmscr-el2", PMSCR_EL2, 0xfb);
	unknown |= RESET_FIELDS("reset-pmsicr", PMSICR_EL1, ~0ull);
	unknown |= RESET_FIELDS("reset-pmsirr", PMSIRR_EL1, 0xffffff01);
	unknown |= RESET_FIELDS("reset-pmsfcr", PMSFCR_EL1, 0x70007);
	unknown |= RESET_FIELDS("reset-pmsevfr", PMSEVFR_EL1, ~0ull);
	unknown |= RESET_FIELDS("reset-pmslatfr", PMSLATFR_EL1, 0xfff);
	unknown |= RESET_FIELDS("reset-pmbptr", PMBPTR_EL1, ~0ull);
	unknown |= RESET_FIELDS("reset-pmbsr", PMBSR_EL1, 0xfc0fffff);
	result("reset-pmblimitr-e", !(limit & 1), limit, limit & ~1ull);
	expect("pmbirq-follows-pmbsr", pmbirq_level(), (status >> 17) & 1); /* PMBSR_EL1.S */
	result("reset-unknown", unknown != 0, unknown, 1);
	write_sys(PMSCR_EL1, 0);
	write_sys(PMSCR_EL2, 0);
	write_sys(PMSICR_EL1, 0);
	write_sys(PMSIRR_EL1, 0);
	write_sys(PMSFCR_EL1, 0);
	write_sys(PMSEVFR_EL1, 0);
	write_sys(PMSLATFR_EL1, 0);
	write_sys(PMBPTR_EL1, 0);
	write_sys(PMBSR_EL1, 0);
	expect("pmbirq-low", pmbirq_level(), 0);
}

void check_ids_and_reset(void)
{
	uint64_t dfr0 = read_sys("id_aa64dfr0_el1");

	result("pmsver", ((dfr0 >> 32) & 0xf) >= 1, (dfr0 >> 32) & 0xf, 1);
	/* FE FT FL ArchInst, Interval 4096, MaxSize 64 B, CountSize 12-bit saturating */
	expect("pmsidr", read_sys(PMSIDR_EL1), 0x2680f);
	/* At EL2, owner EL2 (MDCR_EL2.E2PB = 0b00): P = 0; F = 1, Align = 0 */
	expect("pmbidr-el2", read_sys(PMBIDR_EL1), 0x20);
	check_reset();

	/* RES0 bits read as zero (SPE 4.3.x field lists) */
	write_sys(PMSFCR_EL1, ~0ull);
	expect("res0-pmsfcr", read_sys(PMSFCR_EL1), 0x70007);
	write_sys(PMSFCR_EL1, 0);
	write_sys(PMSIRR_EL1, ~0ull);
	expect("res0-pmsirr", read_sys(PMSIRR_EL1), 0xffffff01);
	write_sys(PMSIRR_EL1, 0);
	write_sys(PMSCR_EL1, ~0ull);
	/* PCT is [7:6] with FEAT_ECV (ID_AA64MMFR0_EL1.ECV, Arm DDI 0487 D24.2.88), [6] without */
	expect("res0-pmscr-el1", read_sys(PMSCR_EL1),
	       (read_sys("id_aa64mmfr0_el1") >> 60) ? 0xfbull : 0x7bull);
	write_sys(PMSCR_EL1, 0);
	write_sys(PMSLATFR_EL1, ~0ull);
	expect("res0-pmslatfr", read_sys(PMSLATFR_EL1), 0xfff);
	write_sys(PMSLATFR_EL1, 0);
	/* PMSEVFR_EL1: only the filterable events E[1], E[3], E[5], E[7] (SPE 4.3.8) */
	write_sys(PMSEVFR_EL1, ~0ull);
	expect("res0-pmsevfr", read_sys(PMSEVFR_EL1), 0xaa);
	write_sys(PMSEVFR_EL1, 0);
}

/* At EL1: each access below traps to EL2 (head.S counts them) but PMBIDR_EL1. */
static uint64_t el1_pmbidr;
static void el1_sampling_regs(void)
{
	(void)read_sys(PMSCR_EL1);
	(void)read_sys(PMSIRR_EL1);
	__asm__ volatile("hvc #1");
}

static void el1_buffer_regs(void)
{
	(void)read_sys(PMBPTR_EL1);
	el1_pmbidr = read_sys(PMBIDR_EL1);
	__asm__ volatile("hvc #1");
}

void check_traps(void)
{
	uint64_t mdcr = read_sys("mdcr_el2");

	/* MDCR_EL2.TPMS (bit 14): sampling control registers trap (SPE 4.3.5, 4.3.12) */
	trap_count = 0;
	write_sys("mdcr_el2", mdcr | (1u << 14));
	call_el1(el1_sampling_regs);
	expect("tpms-traps", trap_count, 2);
	expect("tpms-ec", trap_esr >> 26, 0x18);
	/* Without TPMS, E1 reads them freely; E2PB = 0b00 traps the buffer registers */
	trap_count = 0;
	write_sys("mdcr_el2", mdcr & ~(1u << 14));
	call_el1(el1_sampling_regs);
	expect("no-tpms-no-trap", trap_count, 0);
	call_el1(el1_buffer_regs);
	expect("e2pb-traps", trap_count, 1);
	/* PMBIDR_EL1.P from EL1 while EL2 owns the buffer (SPE 4.3.1) */
	expect("pmbidr-el1-p", el1_pmbidr, 0x30);
	/* E2PB = 0b11: EL1 owns the buffer and its registers */
	trap_count = 0;
	write_sys("mdcr_el2", mdcr | (3u << 12));
	call_el1(el1_buffer_regs);
	expect("e2pb-el1-owner", trap_count, 0);
	expect("pmbidr-el1-owner", el1_pmbidr, 0x20);
	write_sys("mdcr_el2", mdcr);
}

/*
 * FEAT_FGT (Arm DDI 0487 K.a D19.2, HDFGRTR_EL2 and HDFGWTR_EL2): each SPE register of EL1 has a
 * read-trap bit and, but the read-only PMSIDR_EL1 and PMBIDR_EL1, a write-trap bit at the same
 * position. With one bit set, exactly that access of EL1 traps to EL2, EC 0x18, its ISS naming
 * the register; with none set, nothing traps. MDCR_EL2.TPMS = 0 and E2PB = 0b11 keep the coarse
 * traps out of the way; no EL3, so SCR_EL3.FGTEn does not apply. PMSNEVFR_EL1 (bit 62) exists
 * only with SPEv1p2: this PE is SPEv1.
 */
#define HDFGRTR_EL2 "S3_4_C3_C1_4"
#define HDFGWTR_EL2 "S3_4_C3_C1_5"

struct fgt_reg {
	const char *name;
	unsigned int crm, op2, bit, writable;
};

static const struct fgt_reg fgt_regs[] = {
	{ "pmscr", 9, 0, 26, 1 },  { "pmsicr", 9, 2, 29, 1 },	  { "pmsirr", 9, 3, 31, 1 },
	{ "pmsfcr", 9, 4, 28, 1 }, { "pmsevfr", 9, 5, 27, 1 },	  { "pmslatfr", 9, 6, 32, 1 },
	{ "pmsidr", 9, 7, 30, 0 }, { "pmblimitr", 10, 0, 23, 1 }, { "pmbptr", 10, 1, 24, 1 },
	{ "pmbsr", 10, 3, 25, 1 }, { "pmbidr", 10, 7, 63, 0 },
};

/* At EL1: read every SPE register of EL1 and write (zero) the writable ones. */
static void el1_all_spe_regs(void)
{
	(void)read_sys(PMSCR_EL1);
	(void)read_sys(PMSICR_EL1);
	(void)read_sys(PMSIRR_EL1);
	(void)read_sys(PMSFCR_EL1);
	(void)read_sys(PMSEVFR_EL1);
	(void)read_sys(PMSLATFR_EL1);
	(void)read_sys(PMSIDR_EL1);
	(void)read_sys(PMBLIMITR_EL1);
	(void)read_sys(PMBPTR_EL1);
	(void)read_sys(PMBSR_EL1);
	(void)read_sys(PMBIDR_EL1);
	write_sys(PMSCR_EL1, 0);
	write_sys(PMSICR_EL1, 0);
	write_sys(PMSIRR_EL1, 0);
	write_sys(PMSFCR_EL1, 0);
	write_sys(PMSEVFR_EL1, 0);
	write_sys(PMSLATFR_EL1, 0);
	write_sys(PMBLIMITR_EL1, 0);
	write_sys(PMBPTR_EL1, 0);
	write_sys(PMBSR_EL1, 0);
	__asm__ volatile("hvc #1");
}

/* The ISS of an MRS (read) or MSR of S3_0_C9_C<crm>_<op2>, Rt left out (D19.2 ESR_EL2, EC 0x18) */
static uint64_t sysreg_iss(const struct fgt_reg *r, unsigned int read)
{
	return (3ull << 20) | ((uint64_t)r->op2 << 17) | (9ull << 10) | ((uint64_t)r->crm << 1) |
	       read;
}

/* With trap bit `bit` of HDFGRTR_EL2 (read) or HDFGWTR_EL2: the ISS of the one trap, else ~0. */
static uint64_t fgt_trap_iss(unsigned int bit, unsigned int read)
{
	uint64_t esr;

	trap_count = 0;
	if (read)
		write_sys(HDFGRTR_EL2, 1ull << bit);
	else
		write_sys(HDFGWTR_EL2, 1ull << bit);
	call_el1(el1_all_spe_regs);
	write_sys(HDFGRTR_EL2, 0);
	write_sys(HDFGWTR_EL2, 0);
	esr = trap_esr;
	if (trap_count != 1 || esr >> 26 != 0x18)
		return ~0ull;
	return esr & 0x1ffffff & ~(0x1full << 5);
}

void check_fgt(void)
{
	uint64_t mdcr = read_sys("mdcr_el2"), mmfr0 = read_sys("id_aa64mmfr0_el1");
	char name[32];

	result("fgt-present", ((mmfr0 >> 56) & 0xf) >= 1, (mmfr0 >> 56) & 0xf, 1);
	write_sys("mdcr_el2", (mdcr & ~(1u << 14)) | (3u << 12));
	trap_count = 0;
	call_el1(el1_all_spe_regs);
	expect("fgt-clear-no-trap", trap_count, 0);
	for (unsigned int i = 0; i < sizeof(fgt_regs) / sizeof(fgt_regs[0]); i++) {
		const struct fgt_reg *r = &fgt_regs[i];

		snprintf(name, sizeof(name), "fgt-read-%s", r->name);
		expect(name, fgt_trap_iss(r->bit, 1), sysreg_iss(r, 1));
		if (!r->writable)
			continue;
		snprintf(name, sizeof(name), "fgt-write-%s", r->name);
		expect(name, fgt_trap_iss(r->bit, 0), sysreg_iss(r, 0));
	}
	write_sys("mdcr_el2", mdcr);
}

/* HCR_EL2.E2H: at EL2 PMSCR_EL1 names PMSCR_EL2, PMSCR_EL12 names PMSCR_EL1 (SPE 4.3.6). */
void check_e2h_alias(void)
{
	uint64_t hcr = read_sys("hcr_el2");

	write_sys("hcr_el2", hcr | (1ull << 34));
	write_sys(PMSCR_EL1, 0x41);	 /* PMSCR_EL2: PCT, E0HSPE */
	write_sys("S3_5_C9_C9_0", 0x18); /* PMSCR_EL12: PA, CX */
	write_sys("hcr_el2", hcr);
	expect("e2h-pmscr-el1-is-el2", read_sys(PMSCR_EL2), 0x41);
	expect("e2h-pmscr-el12-is-el1", read_sys(PMSCR_EL1), 0x18);
	write_sys(PMSCR_EL2, 0);
	write_sys(PMSCR_EL1, 0);
}
