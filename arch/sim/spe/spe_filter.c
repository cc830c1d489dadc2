// SPDX-License-Identifier: MIT
/*
 * Filtering sample records: SPECollectRecord (SPE 3.2.2-3.2.3, Arm DDI 0487 K.a D17.5). The
 * filters combine as a logical AND (D17.5, Example D17-1). Each CONSTRAINED UNPREDICTABLE case
 * (a filter enabled with an all-zero selection) is decided by the seed.
 */
#include "spe_internal.h"

/* D17.5.1: the type flags of an operation, in PMSFCR_EL1 {SIMD, FP, ST, LD, B} order. A load
 * is LD, a store ST, an atomic that returns a value to a register both (D17.5.1 example); FP
 * and SIMD come from the micro-op's flags. */
uint8_t spe_op_flags(const struct sim_uop *op)
{
	uint8_t f = 0;

	if (op->type == SIM_UOP_BRANCH)
		f |= SPE_OPF_B;
	if (op->type == SIM_UOP_LOAD)
		f |= SPE_OPF_LD | (op->flags & SIM_UOP_ATOMIC ? SPE_OPF_ST : 0);
	if (op->type == SIM_UOP_STORE)
		f |= SPE_OPF_ST;
	if (op->flags & SIM_UOP_FP)
		f |= SPE_OPF_FP;
	if (op->flags & SIM_UOP_SIMD)
		f |= SPE_OPF_SIMD;
	return f;
}

/* D17.5.2 and CollectRecord (SPE 3.2.3): with FE, discard unless every selected event is 1. */
static bool events_ok(unsigned int cpu, const struct spe_filter_in *in)
{
	uint64_t m = spe_filter_events(), e = in->events & m;

	if (in->pmsfcr & PMSFCR_FE) {
		if (!in->pmsevfr && spe_unpredictable_bool(cpu)) /* SPE 4.3.9 FE */
			return false;
		if (~e & in->pmsevfr & m)
			return false;
	}
	/* D17.5.2, FEAT_SPE_FnE: with FnE, discard unless every selected event is 0. */
	if ((in->pmsidr & PMSIDR_FNE) && (in->pmsfcr & PMSFCR_FNE)) {
		if (!in->pmsnevfr && spe_unpredictable_bool(cpu))
			return false;
		if (e & in->pmsnevfr & m)
			return false;
	}
	return true;
}

/* D17.5.1 with FEAT_SPE_EFT: an OR filter over the controls whose mask bit is 0, and an AND
 * filter (exact match) over those whose mask bit is 1. */
static bool type_ok_eft(const struct spe_filter_in *in)
{
	uint8_t ctrl = (uint8_t)((in->pmsfcr >> PMSFCR_CTRL_SHIFT) & 0x1f);
	uint8_t mask = (uint8_t)((in->pmsfcr >> PMSFCR_MASK_SHIFT) & 0x1f);
	uint8_t or_sel = (uint8_t)(ctrl & ~mask);

	if (or_sel && !(in->flags & or_sel))
		return false;
	return (in->flags & mask) == (ctrl & mask);
}

/* D17.5.1 without FEAT_SPE_EFT (and Table 4): collected when the operation has any selected
 * type; with no type selected it is CONSTRAINED UNPREDICTABLE whether it is collected. */
static bool type_ok(unsigned int cpu, const struct spe_filter_in *in)
{
	uint8_t ctrl = (uint8_t)((in->pmsfcr >> PMSFCR_CTRL_SHIFT) &
				 (SPE_OPF_B | SPE_OPF_LD | SPE_OPF_ST));

	if (in->pmsidr & PMSIDR_EFT)
		return type_ok_eft(in);
	if (!ctrl)
		return !spe_unpredictable_bool(cpu);
	return (in->flags & ctrl) != 0;
}

/* D17.5.3 and SPE 4.3.9 FL: total latency at least MINLAT; MINLAT 0 is CONSTRAINED
 * UNPREDICTABLE. */
static bool latency_ok(unsigned int cpu, const struct spe_filter_in *in)
{
	uint64_t minlat = in->pmslatfr & 0xffff;

	if (!minlat && spe_unpredictable_bool(cpu))
		return false;
	return in->latency >= minlat;
}

/* D17.5.4, FEAT_SPE_FDS: a load with a Data Source packet is kept only if PMSDSFR_EL1 has the
 * bit of DS[5:0]; other operations are not affected. */
static bool source_ok(const struct spe_filter_in *in)
{
	if (!(in->pmsidr & PMSIDR_FDS) || !(in->pmsfcr & PMSFCR_FDS) || !in->has_ds)
		return true;
	return (in->pmsdsfr >> (in->ds & 63u)) & 1u;
}

bool spe_collect_record(unsigned int cpu, const struct spe_filter_in *in)
{
	if (!events_ok(cpu, in))
		return false;
	if ((in->pmsfcr & PMSFCR_FT) && !type_ok(cpu, in))
		return false;
	if ((in->pmsfcr & PMSFCR_FL) && !latency_ok(cpu, in))
		return false;
	return source_ok(in);
}
