// SPDX-License-Identifier: MIT
/* The register database as a table, and lookup by encoding (see vperf/sysregs.def). */
#include <vperf/sysreg.h>

const struct vperf_sysreg_desc vperf_sysregs[VPERF_SR_COUNT] = {
#define SYSREG(nm, op0, op1, crn, crm, op2, acc, trp, ft, r0, rst, sl, e0, pr) \
	[VPERF_SR_##nm] = {                                                    \
		.name = #nm,                                                   \
		.res0 = (r0),                                                  \
		.reset = (rst),                                                \
		.enc = (uint16_t)VPERF_ENC_##nm,                               \
		.access = VPERF_ACC_##acc,                                     \
		.trap = VPERF_TRAP_##trp,                                      \
		.feat = VPERF_FEAT_##ft,                                       \
		.slot = VPERF_SLOT_##sl,                                       \
		.el0 = VPERF_EL0_##e0,                                         \
		.pair = VPERF_PAIR_##pr,                                       \
	},
#include <vperf/sysregs.def>
#undef SYSREG
};

/* Binary search: the database is sorted by encoding (tests/unit/test_regdb.c checks it). */
const struct vperf_sysreg_desc *vperf_sysreg_lookup(uint32_t enc)
{
	size_t lo = 0, hi = VPERF_SR_COUNT;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t here = vperf_sysregs[mid].enc;

		if (here == enc)
			return &vperf_sysregs[mid];
		if (here < enc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Database index + 1 of each encoding of the PMU/SPE space, 0 where the database has none: the
 * trap path's lookup is one load instead of a binary search (about a third of a trap's cost,
 * measured by make bench). */
static uint8_t space_map[VPERF_SPACE_SIZE];

_Static_assert(VPERF_SR_COUNT < 255, "space_map holds an index + 1 in a byte");

void vperf_sysreg_space_init(void)
{
	for (size_t i = 0; i < VPERF_SR_COUNT; i++)
		if (vperf_sysreg_in_space(vperf_sysregs[i].enc))
			space_map[vperf_space_index(vperf_sysregs[i].enc)] = (uint8_t)(i + 1);
}

const struct vperf_sysreg_desc *vperf_sysreg_lookup_space(uint32_t enc)
{
	uint8_t i = space_map[vperf_space_index(enc)];

	return i ? &vperf_sysregs[i - 1] : NULL;
}
