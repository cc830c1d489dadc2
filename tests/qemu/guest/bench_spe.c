// SPDX-License-Identifier: MIT
/*
 * Guest side of the SPE switch benchmark (bootargs bench=spe; tests/qemu/bench.sh): a vSPE with
 * its buffer enabled and sampling while the reference hypervisor switches it.
 *
 * First the hypervisor measures vperf's put and load of this vCPU back on its pCPU with the
 * buffer live (mark 3, as bench=1 does for an idle vSPE). Then, for bench_ms of virtual time,
 * sessions: sampling enabled, a loop of known instructions, sampling stopped and drained (PSB
 * CSYNC, DSB: SPE 3.6), the session's records decoded and checked for a missing one, while the
 * hypervisor's timer switches this vCPU out and in (slice_us). Each switch is an exception to EL2
 * in the middle of the loop: the operation sampled before it must still give its record
 * (docs/qemu-spe.md, "Completion") and vperf must save it with the guest's buffer.
 *
 * Why the check is exact on this QEMU: it has no SAMPLE_POP/SAMPLE_FEED PMU events to count the
 * sampled operations, but its interval counter is deterministic: with PMSIRR_EL1.RND = 0 every
 * architecturally executed instruction at EL1 is a member of the population and the selected
 * ones are INTERVAL + 1 apart (docs/qemu-spe.md, "Interval counter"; SPE 3.1.2). The loop below
 * makes each record's position in the instruction stream readable from the record itself: its PC
 * gives the instruction within the loop body, and a load's data address the iteration (modulo
 * the window it walks). Consecutive records of a session must be exactly STRIDE instructions
 * apart; a record lost in between shows as a gap of 2 * STRIDE (or more), found at the next load
 * record. IRQs are masked during a session, so nothing but the loop runs at EL1 there. And the
 * number of records of the loop per session is N / STRIDE rounded down or up (N: the loop's
 * instructions), which also catches a loss at a session's edges.
 */
#include "spe.h"

#define SPE_BUF	   0x43100000ull /* the Profiling Buffer: SPE_BUF_SZ, far more than a session */
#define SPE_BUF_SZ 0x40000ull
#define WIN	   0x43000000ull /* the loop's loads walk [WIN, WIN + WIN_SZ) */
#define WIN_SZ	   0x10000ull
#define BODY	   19u				   /* instructions of one loop iteration */
#define LOADS	   16u				   /* of which loads, first in the body */
#define PERIOD	   (BODY * (WIN_SZ / (LOADS * 8))) /* the loads' addresses repeat after this */
#define STRIDE	   (SPE_INTERVAL + 1u)		   /* instructions between two sampled ones */
#define ITERS	   50000u			   /* loop iterations per session */
#define SWITCHES   100

/* x0 = WIN, x1 = iterations, x2 = WIN | (WIN_SZ - 1): LOADS post-indexed loads walking the
 * window (the AND wraps it: WIN is WIN_SZ-aligned and bit 16 of WIN is 0), then 3 instructions. */
__asm__(".text\n"
	".balign 64\n"
	".global spe_bench_loop\n"
	"spe_bench_loop:\n"
	".rept 16\n"
	"ldr x3, [x0], #8\n"
	".endr\n"
	"and x0, x0, x2\n"
	"subs x1, x1, #1\n"
	"b.ne spe_bench_loop\n"
	"ret\n");
void spe_bench_loop(uint64_t win, uint64_t iters, uint64_t mask);

struct chain {
	uint64_t records, in_loop, checked, gaps, lost, malformed;
	bool valid;
	uint64_t at; /* the last record's instruction index, modulo PERIOD */
};

/* The instruction index (modulo PERIOD) of a record at pc with data address va (0: none), or
 * -1 when the record gives only its position in the body (not a load), -2 when it is not the
 * loop's at all, -3 when it is one no loop instruction could make. */
static int64_t index_of(uint64_t pc, uint64_t va, unsigned int *pos)
{
	uint64_t base = (uint64_t)(uintptr_t)spe_bench_loop, n;

	if (pc < base || pc >= base + BODY * 4)
		return -2;
	*pos = (unsigned int)((pc - base) / 4);
	if (*pos >= LOADS)
		return -1;
	if (va < WIN || va >= WIN + WIN_SZ || ((va - WIN) / 8 - *pos) % LOADS)
		return -3;
	n = ((va - WIN) / 8 - *pos) / LOADS; /* the iteration, modulo the window */
	return (int64_t)(n * BODY + *pos);
}

/* One record of the session: is it STRIDE instructions after the one before? */
static void chain_record(struct chain *c, uint64_t pc, uint64_t va)
{
	unsigned int pos = 0;
	int64_t i = index_of(pc, va, &pos);
	uint64_t want = (c->at + STRIDE) % PERIOD;

	c->records++;
	if (i == -2) { /* not the loop's (the session's edges): start again */
		c->valid = false;
		return;
	}
	c->in_loop++;
	if (i == -3) {
		c->malformed++;
		c->valid = false;
		return;
	}
	if (i == -1) { /* a loop instruction other than a load: its position must fit */
		if (c->valid && want % BODY == pos) {
			c->checked++;
			c->at = want;
		} else if (c->valid) {
			c->gaps++;
			c->lost++; /* at least one; the next load record tells no more */
			c->valid = false;
		}
		return;
	}
	if (c->valid && (uint64_t)i == want) {
		c->checked++;
	} else if (c->valid) {
		unsigned int k = 1;

		while (k < PERIOD && (c->at + (k + 1) * STRIDE) % PERIOD != (uint64_t)i)
			k++;
		c->gaps++;
		c->lost += k;
	}
	c->at = (uint64_t)i;
	c->valid = true;
}

static uint64_t le64(const volatile uint8_t *p)
{
	uint64_t v = 0;

	for (unsigned int b = 0; b < 8; b++)
		v |= (uint64_t)p[b] << (8 * b);
	return v;
}

/* The records of [p, end) (Arm DDI 0487 K.a D18.2): Padding and End one byte, an extended header
 * (0b001000xx) followed by the one naming the packet, every other header giving its payload size
 * in bits [5:4]. Address packets (0b10110iii) INDEX 0 is the PC, INDEX 2 the data address (bits
 * [55:0]). A record ends at its End packet (no Timestamp asked for). skip: the record of that
 * number (from 1) is dropped, as if lost (the check's own test); 0 drops none. */
static void decode(const volatile uint8_t *p, const volatile uint8_t *end, struct chain *c,
		   uint64_t skip)
{
	uint64_t pc = 0, va = 0, n = 0;

	c->valid = false;
	while (p < end) {
		uint8_t h = *p++;
		unsigned int size;

		if (h == 0x00)
			continue;
		if (h == 0x01) {
			if (++n != skip)
				chain_record(c, pc, va);
			pc = va = 0;
			continue;
		}
		if ((h & 0xfc) == 0x20 && p < end)
			h = *p++;
		if (!(h & 0xc0)) { /* nothing SPEv1 defines: the rest cannot be framed */
			c->malformed++;
			return;
		}
		size = 1u << ((h >> 4) & 3);
		if (p + size > end)
			return;
		if (h == 0xb0)
			pc = le64(p) & 0x00ffffffffffffffull;
		else if (h == 0xb2)
			va = le64(p) & 0x00ffffffffffffffull;
		p += size;
	}
}

/* One session: sampling on, the loop, sampling off and drained; its records checked into c.
 * False when the buffer reported an event (it must not fill) or the loop's record count is off. */
static bool session(struct chain *c, uint64_t *short_sessions)
{
	const volatile uint8_t *buf = (const volatile uint8_t *)(uintptr_t)SPE_BUF;
	uint64_t in_loop = c->in_loop, ptr, bsr, want = (uint64_t)ITERS * BODY / STRIDE;

	spe_start(SPE_BUF, SPE_BUF + SPE_BUF_SZ);
	spe_bench_loop(WIN, ITERS, WIN | (WIN_SZ - 1));
	spe_stop();
	ptr = RD(PMBPTR);
	bsr = RD(PMBSR);
	if (bsr || ptr <= SPE_BUF || ptr >= SPE_BUF + SPE_BUF_SZ)
		return false;
	decode(buf, buf + (ptr - SPE_BUF), c, 0);
	in_loop = c->in_loop - in_loop;
	if (in_loop != want && in_loop != want + 1)
		(*short_sessions)++;
	return true;
}

/* The check's own test: the first session's records decoded again with its tenth dropped must
 * show exactly one lost record. */
static void check_detects(void)
{
	const volatile uint8_t *buf = (const volatile uint8_t *)(uintptr_t)SPE_BUF;
	struct chain all = { 0 }, one = { 0 };
	uint64_t end = RD(PMBPTR);

	decode(buf, (const volatile uint8_t *)(uintptr_t)end, &all, 0);
	decode(buf, (const volatile uint8_t *)(uintptr_t)end, &one, 10);
	CHECK("spe-bench-check-detects", !all.lost && one.lost == 1 && one.gaps == 1,
	      "the first session: %lu records, lost %lu; with its 10th dropped: lost %lu in %lu "
	      "gaps",
	      all.records, all.lost, one.lost, one.gaps);
}

void bench_spe_run(void);
void bench_spe_run(void)
{
	uint64_t end, sessions = 0, bad = 0, short_sessions = 0, loads0;
	struct hyp_stats st0 = { 0 }, st1 = { 0 };
	struct chain c = { 0 };

	if (!FIELD(read_sysreg(id_aa64dfr0_el1), 35, 32)) {
		result("spe-bench", FAIL, "bench=spe but PMSVer 0");
		return;
	}
	irq_disable(); /* nothing else at EL1 while sampling: the records must be the loop's */
	pmu_quiesce();
	write_sysreg(CYCLE_BIT | 1, pmcntenset_el0);
	write_sysreg(PMCR_E | PMCR_LC | PMCR_LP, pmcr_el0);
	/* vperf's put and load of this vCPU with its buffer live (the hypervisor measures). */
	spe_start(SPE_BUF, SPE_BUF + SPE_BUF_SZ);
	for (unsigned int i = 0; i < SWITCHES; i++)
		hyp_mark(3, 0, 0);
	spe_stop();
	hyp_trap_stats(&st0);
	loads0 = st0.loads;
	end = now() + ms_to_ticks(arg_u64("bench_ms", 1000));
	while (now() < end) {
		if (!session(&c, &short_sessions))
			bad++;
		if (!sessions++)
			check_detects();
	}
	hyp_trap_stats(&st1);
	/* The detail of the verdict below (its RESULT line has room for the main figures only). */
	printf("spe-bench: %lu records of the loop, %lu consecutive pairs checked, %lu malformed, "
	       "%lu sessions with a buffer event, %lu with a record count off\n",
	       c.in_loop, c.checked, c.malformed, bad, short_sessions);
	CHECK("spe-bench-records-lost", !c.lost && !c.malformed && !bad && !short_sessions,
	      "%lu records lost (%lu gaps), %lu records in %lu sessions, over %lu switches", c.lost,
	      c.gaps, c.records, sessions, st1.loads - loads0);
	pmu_quiesce();
}
