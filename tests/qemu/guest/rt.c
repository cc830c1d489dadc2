// SPDX-License-Identifier: MIT
/*
 * Guest runtime: EL1 page tables, exception handling, EL0 calls, PSCI and results. The same
 * code runs bare on QEMU at EL1, under the reference hypervisor, or under any other one.
 */
#include <stdarg.h>
#include <string.h>

#include "guest.h"

struct guest_info gi;

extern char _text[], _etext_ro[], _el0stack_start[], _el0stack_end[];
void el0_return(uint64_t value) __attribute__((noreturn));
void guest_main(uint64_t dtb);
uint64_t *mmu_setup(void);
void exc_handler(struct frame *f, unsigned int kind);

/* Stage-1 descriptors (Arm ARM D8.3): AP [7:6] (00 EL1 RW; 01 EL1+EL0 RW; 11 EL1+EL0 RO),
 * SH [9:8], AF [10], PXN [53], UXN [54]; AttrIndx [4:2] into MAIR (0 Device, 1 Normal). */
#define D_VALID	 0x1ull
#define D_TABLE	 0x3ull
#define D_PAGE	 0x3ull
#define D_NORMAL (BIT(2) | (3ull << 8) | BIT(10))
#define D_DEVICE (BIT(10) | BIT(53) | BIT(54))
#define D_XN	 (BIT(53) | BIT(54))
#define D_AP_EL0 (1ull << 6)
#define D_AP_RO	 (3ull << 6)

static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l2[512] __attribute__((aligned(4096)));
static uint64_t l3[512] __attribute__((aligned(4096)));

static uint64_t page_attrs(uint64_t pa)
{
	uint64_t text = (uint64_t)(uintptr_t)_text, ro = (uint64_t)(uintptr_t)_etext_ro;
	uint64_t s0 = (uint64_t)(uintptr_t)_el0stack_start;
	uint64_t s1 = (uint64_t)(uintptr_t)_el0stack_end;

	if (pa >= text && pa < ro)
		return D_NORMAL | D_AP_RO; /* code: executable at EL1 and EL0, writable by none */
	if (pa >= s0 && pa < s1)
		return D_NORMAL | D_AP_EL0 | D_XN;
	return D_NORMAL | D_XN;
}

/* Identity map: [0, 1G) Device, [1G, 2G) Normal with the image's first 2 MiB in 4K pages. */
uint64_t *mmu_setup(void)
{
	uint64_t base = 0x40000000;

	l1[0] = D_VALID | D_DEVICE;
	l1[1] = (uint64_t)(uintptr_t)l2 | D_TABLE;
	l2[0] = (uint64_t)(uintptr_t)l3 | D_TABLE;
	for (uint64_t i = 0; i < 512; i++)
		l3[i] = (base + (i << 12)) | page_attrs(base + (i << 12)) | D_PAGE;
	for (uint64_t i = 1; i < 512; i++)
		l2[i] = (base + (i << 21)) | D_NORMAL | D_XN | D_VALID;
	return l1;
}

uint64_t now(void)
{
	isb();
	return read_sysreg(cntvct_el0);
}

uint64_t ms_to_ticks(uint64_t ms)
{
	return ms * gi.freq / 1000;
}

static uint64_t smccc(uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
	register uint64_t x0 __asm__("x0") = fn;
	register uint64_t x1 __asm__("x1") = a1;
	register uint64_t x2 __asm__("x2") = a2;
	register uint64_t x3 __asm__("x3") = a3;

	if (gi.psci_smc)
		__asm__ volatile("smc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : "memory");
	else
		__asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : "memory");
	return x0;
}

void psci_off(void)
{
	smccc(0x84000008, 0, 0, 0); /* SYSTEM_OFF */
	for (;;)
		wfi();
}

uint64_t psci_version(void)
{
	return smccc(0x84000000, 0, 0, 0); /* PSCI_VERSION */
}

int64_t psci_cpu_on(uint64_t mpidr, uint64_t entry, uint64_t ctx)
{
	return (int64_t)smccc(0xc4000003, mpidr, entry, ctx); /* CPU_ON (SMC64) */
}

void psci_cpu_off(void)
{
	smccc(0x84000002, 0, 0, 0); /* CPU_OFF */
	for (;;)
		wfi();
}

#define SMCCC_NOT_SUPPORTED UINT64_MAX /* -1: the function is not implemented (Arm DEN 0028) */

/* HYP_TRAP_STATS (hyp/psci.c): false when the hypervisor returns SMCCC's NOT_SUPPORTED. No
 * function call may come between the register variables' assignment and the HVC: it would
 * clobber them (GCC, "Specifying Registers for Local Variables"). */
static bool trap_stats_call(struct hyp_stats *st)
{
	register uint64_t x0 __asm__("x0") = 0xc6000002u;
	register uint64_t x1 __asm__("x1") = 0;
	register uint64_t x2 __asm__("x2") = 0;
	register uint64_t x3 __asm__("x3") = 0;

	__asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : "memory");
	if (x0 == SMCCC_NOT_SUPPORTED)
		return false;
	st->traps = x0;
	st->loads = x1;
	st->vperf_traps = x2;
	st->bad_value = x3;
	return true;
}

/* The reference hypervisor's count of this vCPU's traps, or another hypervisor's answer to the
 * same call where the guest is told it makes one (hypstats=1: Xen with vperf-guest-stats,
 * docs/integration/xen.md); false elsewhere, and where the call is not supported. */
bool hyp_trap_stats(struct hyp_stats *st)
{
	if (!gi.under_vperf && !arg_is("hypstats", "1"))
		return false;
	return trap_stats_call(st);
}

/* The reference hypervisor's benchmark marks; nothing elsewhere. */
void hyp_mark(uint64_t what, uint64_t iters, uint64_t label)
{
	if (gi.under_vperf)
		smccc(0xc6000001, what, iters, label);
}

static const char *arg_find(const char *key)
{
	size_t n = strlen(key);

	for (const char *p = gi.args; p && *p;) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, n) && p[n] == '=')
			return p + n + 1;
		while (*p && *p != ' ')
			p++;
	}
	return NULL;
}

const char *arg_str(const char *key)
{
	return arg_find(key);
}

uint64_t arg_u64(const char *key, uint64_t dflt)
{
	const char *v = arg_find(key);

	return v ? parse_u64(v, NULL) : dflt;
}

bool arg_is(const char *key, const char *val)
{
	const char *v = arg_find(key);
	size_t n = strlen(val);

	return v && !strncmp(v, val, n) && (v[n] == ' ' || v[n] == '\0');
}

static struct {
	bool on;
	unsigned int count;
	uint64_t esr;
} expect;
static unsigned int nr_pass, nr_fail, nr_skip;

void expect_begin(void)
{
	expect.on = true;
	expect.count = 0;
	expect.esr = 0;
	barrier();
}

unsigned int expect_end(uint64_t *esr)
{
	barrier();
	expect.on = false;
	if (esr)
		*esr = expect.esr;
	return expect.count;
}

#define EC_SVC64 0x15

/* kind (from the vector): 0 sync and 1 IRQ at EL1, 4 sync and 5 IRQ from EL0, 2/3 FIQ/SError. */
void exc_handler(struct frame *f, unsigned int kind)
{
	uint64_t ec = FIELD(f->esr, 31, 26);

	if (kind == 1 || kind == 5) {
		irq_dispatch();
		return;
	}
	if (kind == 4 && ec == EC_SVC64)
		el0_return(f->x[0]);
	if ((kind == 0 || kind == 4) && expect.on) {
		expect.count++;
		expect.esr = f->esr;
		f->elr += 4;
		return;
	}
	printf("RESULT exception FAIL kind %u ESR %lx ELR %lx FAR %lx\n", kind, f->esr, f->elr,
	       read_sysreg(far_el1));
	nr_fail++;
	suite_done();
}

void result(const char *name, int status, const char *fmt, ...)
{
	static const char *const word[] = { "PASS", "FAIL", "SKIP" };
	char detail[256]; /* a failure's whole story: a cut one hid a CI failure's cause */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	printf("RESULT %s %s %s\n", name, word[status], detail);
	if (status == PASS)
		nr_pass++;
	else if (status == FAIL)
		nr_fail++;
	else
		nr_skip++;
}

void suite_done(void)
{
	printf("SUITE DONE passed=%u failed=%u skipped=%u\n", nr_pass, nr_fail, nr_skip);
	psci_off();
}

void guest_main(uint64_t dtb)
{
	gi.dtb = dtb;
	gi.freq = read_sysreg(cntfrq_el0);
	if (dt_parse(dtb))
		printf("guest: no usable device tree at %lx\n", dtb);
	uart_init(gi.uart);
	gic_init();
	payload_main();
	suite_done();
}
