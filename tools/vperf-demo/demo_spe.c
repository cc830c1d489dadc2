// SPDX-License-Identifier: MIT
/*
 * The SPE half of vperf-demo: each tenant samples its own workload with its vSPE (a guest-owned
 * buffer, PMB* trapped), the way Linux's arm_spe_pmu driver programs it; at the end each
 * tenant's buffer is read from its own memory and decoded by vperf-spe's summary code into a
 * short profile, and every record is checked to be the tenant's own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arch/barrier.h>
#include <arch/sysreg.h>
#include <sim/guest_spe.h>
#include <sim/mem.h>
#include <sim/spe.h>
#include <vperf/spe_rec.h>

#include "../vperf-spe/vperf-spe.h"
#include "demo.h"

/* Each tenant: a 64 KB buffer at the same kernel VA, IPA 0x80000000, backed by its own PA. */
#define BUF_VA	  0xffff800010000000ull
#define BUF_IPA	  0x80000000ull
#define BUF_PA(i) (0x40000000ull + (uint64_t)(i)*0x1000000ull)
#define BUF_SIZE  0x10000ull

#define PMBLIMITR_E  0x1ull
#define PMSCR_E1SPE  0x2ull
#define PMSCR_E0SPE  0x1ull
#define INTERVAL_256 0x100ull /* PMSIRR_EL1.INTERVAL = 1: one operation in 257 */

void demo_spe_map(unsigned int i)
{
	uint16_t vmid = (uint16_t)(i + 1);

	sim_mem_map_s1(SIM_REGIME_EL10, vmid, BUF_VA, BUF_IPA, BUF_SIZE, SIM_PERM_RW);
	sim_mem_map_s2(vmid, BUF_IPA, BUF_PA(i), BUF_SIZE, SIM_PERM_RW);
}

/* arm_spe_pmu_start: the buffer, no filter, the interval, PMSICR = 0, then the enables. */
void demo_spe_start(void)
{
	guest_write(PMBPTR_EL1, BUF_VA);
	guest_write(PMBLIMITR_EL1, (BUF_VA + BUF_SIZE) | PMBLIMITR_E);
	guest_write(PMSFCR_EL1, 0);
	guest_write(PMSIRR_EL1, INTERVAL_256);
	isb();
	guest_write(PMSICR_EL1, 0);
	isb();
	guest_write(PMSCR_EL1, PMSCR_E1SPE | PMSCR_E0SPE);
	isb();
}

/* arm_spe_pmu_disable_and_drain_local, then what lies below PMBPTR_EL1 is the session's. */
static size_t stop(void)
{
	sim_guest_spe_disable_and_drain();
	return (size_t)(guest_read(PMBPTR_EL1) - BUF_VA);
}

void report_malformed(const struct input *in, const struct tool_opts *o,
		      const struct vperf_spe_error *err)
{
	(void)o;
	printf("  %s: malformed at %zu\n", in->name, err->offset);
}

/* Records of the tenant's buffer whose PC is outside its own code (code_base, 0x400 bytes). */
static unsigned int foreign(const uint8_t *buf, size_t len, uint64_t code, unsigned int *n)
{
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	unsigned int bad = 0;

	*n = 0;
	vperf_spe_iter_init(&it, buf, len);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		uint64_t pc = rec.addr[VPERF_SPE_ADDR_PC].addr;

		bad += pc < code || pc >= code + 0x400;
		(*n)++;
	}
	return bad + it.nerrors;
}

static unsigned int decoded; /* records decoded from every tenant's buffer */

const char *demo_spe_dir;

/* The raw buffer as vperf-spe reads it: "guest A" into DIR/guest-A.spe. */
static void save(const char *name, const uint8_t *buf, size_t len)
{
	char path[512];
	FILE *f;
	int n;

	if (!demo_spe_dir)
		return;
	n = snprintf(path, sizeof(path), "%s/%s.spe", demo_spe_dir, name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return;
	for (char *c = path + strlen(demo_spe_dir) + 1; *c; c++)
		if (*c == ' ')
			*c = '-';
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		printf("  (could not write %s)\n", path);
		return;
	}
	printf("raw buffer: %s (decode it: vperf-spe --summary %s)\n", path, path);
}

/* Called with the tenant's vCPU loaded: stop its session, print its profile, and say whether
 * every record is its own. */
bool demo_spe_report(unsigned int i, const char *name, uint64_t code)
{
	static uint8_t buf[BUF_SIZE];
	const struct tool_opts opts = { .top = 3, .quiet = 0 };
	struct input in = { .name = name, .buf = buf };
	unsigned int n, bad;

	in.len = stop();
	sim_mem_read(BUF_PA(i), buf, in.len);
	printf("\n--- %s: its SPE buffer, decoded by vperf-spe ---\n", name);
	spe_summary(&in, &opts, stdout);
	save(name, buf, in.len);
	bad = foreign(buf, in.len, code, &n);
	decoded += n;
	printf("SPE isolation: %u records, %u not of its own code: %s\n", n, bad,
	       bad || !n ? "FAIL" : "own records only");
	return !bad && n;
}

bool demo_spe_nothing_lost(void)
{
	const struct sim_spe_stats *st = sim_spe_stats(0);

	printf("SPE records: %" PRIu64 " sampled after filtering, %" PRIu64
	       " written by the model, %u decoded from the tenants' buffers, %" PRIu64
	       " discarded: %s\n",
	       st->filtrate, st->written, decoded, st->discarded,
	       st->written == decoded && !st->discarded ? "none lost" : "LOST");
	return st->written == decoded && !st->discarded;
}
