// SPDX-License-Identifier: MIT
/*
 * Two guests' SPE kept apart (bootargs spe=1 with iso=quiet in one, iso=noisy in the other, on
 * one pCPU; iso_ms=duration). Each writes its own tag to CONTEXTIDR_EL1 and samples with
 * PMSCR_EL1.CX, so each record names the context it was taken in (SPE 4.3.5; the Context packet,
 * Arm DDI 0487 K.a D18.2.2). The noisy guest re-arms its buffer as fast as it can, each time with
 * its own PMBPTR_EL1, PMBLIMITR_EL1 and PMSIRR_EL1; the quiet one samples into one buffer and
 * must find, on every poll, its own registers, and at the end only its own tag in its records.
 * A record of the other guest in its buffer, or a register of the other guest's, is a leak: the
 * FAIL prints the foreign value.
 *
 * The walk below is the guest's own, not vperf's decoder: a validation guest must not judge a
 * hypervisor with the code under test.
 */
#include "spe.h"

#define QUIET_TAG      0x51e7u
#define NOISY_TAG      0xd15eu
#define QUIET_BUF      0x42400000ull
#define QUIET_SIZE     0x40000ull
#define NOISY_BUF      0x42800000ull
#define NOISY_SIZE     0x4000ull
#define QUIET_INTERVAL 0x10000u /* a few thousand records in 300 ms of TCG */

struct walk {
	unsigned int records, own, foreign, unknown;
	uint32_t foreign_tag;
};

/* The packets of [p, end) (D18.2): Padding and End are one byte, an extended header (0b001000xx)
 * is followed by the header that names the packet, every other header gives its payload size in
 * bits [5:4]. Context packets of INDEX 0 (CONTEXTIDR_EL1, header 0b011001xx) are tallied. */
static void walk(const volatile uint8_t *p, const volatile uint8_t *end, struct walk *w)
{
	while (p < end) {
		uint8_t h = *p++;
		unsigned int size;

		if (h <= 0x01) {
			w->records += h; /* End */
			continue;
		}
		if ((h & 0xfc) == 0x20 && p < end)
			h = *p++;
		if (!(h & 0xc0)) { /* nothing SPEv1 defines: stop, the rest cannot be framed */
			w->unknown++;
			return;
		}
		size = 1u << ((h >> 4) & 3);
		if (p + size > end)
			return;
		if (h == 0x64) {
			uint32_t tag =
				p[0] | p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;

			w->own += tag == QUIET_TAG;
			w->foreign += tag != QUIET_TAG;
			w->foreign_tag = tag != QUIET_TAG ? tag : w->foreign_tag;
		}
		w->records += h == 0x71; /* a Timestamp ends its record too */
		p += size;
	}
}

static void quiet(uint64_t ms)
{
	uint64_t end = now() + ms_to_ticks(ms), limit = QUIET_BUF + QUIET_SIZE, prev = QUIET_BUF;
	uint64_t bad = 0, seen = 0, ptr;
	struct walk w = { 0 };

	write_sysreg(QUIET_TAG, contextidr_el1);
	spe_interval = QUIET_INTERVAL;
	spe_start(QUIET_BUF, limit);
	while (now() < end) {
		uint64_t irr = RD(PMSIRR), lim = RD(PMBLIMITR);

		workload(2000);
		ptr = RD(PMBPTR);
		if (irr != QUIET_INTERVAL || lim != (limit | PMBLIMITR_E) || ptr < prev ||
		    ptr > limit) {
			bad++;
			seen = irr != QUIET_INTERVAL	      ? irr
			       : lim != (limit | PMBLIMITR_E) ? lim
							      : ptr;
		}
		prev = ptr;
	}
	spe_stop();
	ptr = RD(PMBPTR);
	walk((const volatile uint8_t *)(uintptr_t)QUIET_BUF,
	     (const volatile uint8_t *)(uintptr_t)(ptr < limit ? ptr : limit), &w);
	CHECK("spe-iso-regs-kept", !bad,
	      "%lu polls found another PMSIRR/PMBLIMITR/PMBPTR (last %lx); own %x, %lx, within %lx",
	      bad, seen, QUIET_INTERVAL, (uint64_t)(limit | PMBLIMITR_E), limit);
	CHECK("spe-iso-own-context", w.own && !w.foreign && w.records,
	      "%u records, %u Context packets %x, %u foreign (last %x), %u unknown headers",
	      w.records, w.own, QUIET_TAG, w.foreign, w.foreign_tag, w.unknown);
	spe_interval = SPE_INTERVAL;
}

static void noisy(uint64_t ms)
{
	uint64_t end = now() + ms_to_ticks(ms), arms = 0;

	write_sysreg(NOISY_TAG, contextidr_el1);
	while (now() < end) {
		spe_start(NOISY_BUF, NOISY_BUF + NOISY_SIZE);
		workload(3000);
		spe_stop();
		arms++;
	}
	result("spe-iso-noisy", PASS, "%lu buffers armed, sampled and stopped", arms);
}

void spe_iso_tests(void)
{
	uint64_t ms = arg_u64("iso_ms", 300);

	spe_pmscr = PMSCR_E1SPE | PMSCR_CX;
	if (arg_is("iso", "noisy"))
		noisy(ms);
	else
		quiet(ms);
	spe_pmscr = PMSCR_E1SPE;
	write_sysreg(0, contextidr_el1);
}
