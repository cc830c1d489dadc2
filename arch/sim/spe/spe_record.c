// SPDX-License-Identifier: MIT
/*
 * The sample record of a sampled micro-op (SPE 2.3, Arm DDI 0487 K.a D18.2), as the model's own
 * record (struct spe_mrec; spe_packet.c writes it as bytes). What the model puts in a record:
 *   Context    CONTEXTIDR_EL1 / _EL2 when CollectContextIDR1/2 (SPE 3.3.1)
 *   Address    PC (INDEX 0) with EL and NS = 1 (D18.2.1); branch target (1) for branches, in the
 *              same EL; data VA (2) for loads/stores, TAG = VA[63:56]; data PA (3) when
 *              CollectPhysicalAddress, NS = 1
 *   Op Type    CLASS 0 other (COND; FP/ASE with PMSIDR_EL1.FPF), 1 load/store (general-purpose,
 *              SIMD&FP, or extended with AR/EXCL/AT), 2 branch (COND, IND) (D18.2.7)
 *   Events     halfword payload (D18.2.6): E[1] retired (every micro-op retires); loads/stores
 *              E[2] L1D access, E[3] L1D refill, E[4] TLB access, E[5] TLB walk, E[11]
 *              misaligned (SPEv1p1); E[6] not taken for a conditional operation without
 *              SIM_UOP_TAKEN (failed its condition check); E[7] mispredicted branch
 *   Counter    total (0) and issue (1) latency; translation latency (2) for loads/stores;
 *              saturating at PMSIDR_EL1.CountSize (D18.2.3)
 *   Data Src   a byte, for loads when PMSIDR_EL1.LDS is 1 (D18.2.4)
 *   Timestamp  when CollectTimeStamp: CNTPCT or CNTVCT after the operation; else End.
 */
#include "spe_internal.h"

#define ADDR_MASK VPERF_GENMASK(55, 0)

static bool is_ldst(const struct sim_uop *op)
{
	return op->type == SIM_UOP_LOAD || op->type == SIM_UOP_STORE;
}

static bool cond_failed(const struct sim_uop *op)
{
	return (op->flags & SIM_UOP_COND) && !(op->flags & SIM_UOP_TAKEN);
}

static uint64_t spe_op_events(unsigned int cpu, const struct sim_uop *op)
{
	uint64_t e = VPERF_BIT(SPE_EV_RETIRED);
	uint64_t size = 1ull << (op->size_log2 & 7u);

	(void)cpu;
	if (is_ldst(op)) {
		e |= VPERF_BIT(SPE_EV_L1D_ACCESS) | VPERF_BIT(SPE_EV_TLB_ACCESS);
		if (op->flags & SIM_UOP_L1D_REFILL)
			e |= VPERF_BIT(SPE_EV_L1D_REFILL);
		if (op->flags & SIM_UOP_TLB_REFILL)
			e |= VPERF_BIT(SPE_EV_TLB_WALK);
		if (sim_model_config()->pmsver >= 2 && (op->vaddr & (size - 1)))
			e |= VPERF_BIT(SPE_EV_ALIGNMENT);
	}
	if (cond_failed(op))
		e |= VPERF_BIT(SPE_EV_NOT_TAKEN);
	if (op->type == SIM_UOP_BRANCH && (op->flags & SIM_UOP_MISPRED))
		e |= VPERF_BIT(SPE_EV_MISPRED);
	return e;
}

static void add_context(unsigned int cpu, unsigned int el, struct spe_mrec *rec)
{
	const struct spe_cpu *st = spe_cpu(cpu);

	if (spe_collect_ctx1(cpu, el)) {
		rec->ctx[0] = st->contextidr[0];
		rec->have |= SPE_MR_CTX1;
	}
	if (spe_collect_ctx2(cpu)) {
		rec->ctx[1] = (uint32_t)sim_reg(cpu, SIM_ENC_CONTEXTIDR_EL2);
		rec->have |= SPE_MR_CTX2;
	}
}

static uint8_t flag_if(const struct sim_uop *op, uint32_t uop_flag, uint8_t mop_flag)
{
	return op->flags & uop_flag ? mop_flag : 0;
}

static void add_op_type(unsigned int cpu, const struct sim_uop *op, struct spe_mrec *rec)
{
	bool fpf = (spe_idr(cpu) & PMSIDR_FPF) != 0;

	if (is_ldst(op)) {
		rec->opf = op->type == SIM_UOP_STORE ? SPE_MOPF_ST : 0;
		if (op->flags & (SIM_UOP_ATOMIC | SIM_UOP_EXCL | SIM_UOP_ACQREL)) {
			rec->op = SPE_MOP_LDST_EXT;
			rec->opf |= flag_if(op, SIM_UOP_ACQREL, SPE_MOPF_AR) |
				    flag_if(op, SIM_UOP_EXCL, SPE_MOPF_EXCL) |
				    flag_if(op, SIM_UOP_ATOMIC, SPE_MOPF_AT);
		} else {
			rec->op = op->flags & (SIM_UOP_SIMD | SIM_UOP_FP) ? SPE_MOP_LDST_SIMD_FP
									  : SPE_MOP_LDST_GP;
		}
	} else if (op->type == SIM_UOP_BRANCH) {
		rec->op = SPE_MOP_BRANCH;
		rec->opf = flag_if(op, SIM_UOP_COND, SPE_MOPF_COND) |
			   flag_if(op, SIM_UOP_INDIRECT, SPE_MOPF_IND);
	} else {
		rec->op = SPE_MOP_OTHER;
		rec->opf = flag_if(op, SIM_UOP_COND, SPE_MOPF_COND);
		if (fpf)
			rec->opf |= flag_if(op, SIM_UOP_FP, SPE_MOPF_FP) |
				    flag_if(op, SIM_UOP_SIMD, SPE_MOPF_ASE);
	}
}

static uint16_t saturate(unsigned int cpu, uint32_t v)
{
	uint32_t max = spe_counter_max(cpu);

	return (uint16_t)(v > max ? max : v);
}

static void add_counters(unsigned int cpu, const struct sim_uop *op, struct spe_mrec *rec)
{
	rec->cnt[0] = saturate(cpu, op->latency);
	rec->cnt[1] = saturate(cpu, op->issue_lat);
	if (is_ldst(op)) {
		rec->cnt[2] = saturate(cpu, op->xlat_lat);
		rec->have |= SPE_MR_XLAT;
	}
}

static void add_addresses(unsigned int cpu, unsigned int el, const struct sim_uop *op,
			  struct spe_mrec *rec)
{
	rec->pc = (struct spe_maddr){ .addr = op->pc & ADDR_MASK, .ns = 1, .el = (uint8_t)el };
	if (op->type == SIM_UOP_BRANCH) {
		rec->tgt = (struct spe_maddr){ .addr = op->vaddr & ADDR_MASK,
					       .ns = 1,
					       .el = (uint8_t)el };
		rec->have |= SPE_MR_TGT;
	}
	if (!is_ldst(op))
		return;
	rec->data_va = (struct spe_maddr){ .addr = op->vaddr & ADDR_MASK,
					   .tag = (uint8_t)(op->vaddr >> 56) };
	rec->have |= SPE_MR_DATA_VA;
	if (spe_collect_pa(cpu)) {
		rec->data_pa =
			(struct spe_maddr){ .addr = (op->paddr ? op->paddr : op->vaddr) & ADDR_MASK,
					    .ns = 1 };
		rec->have |= SPE_MR_DATA_PA;
	}
}

void spe_build_record(unsigned int cpu, unsigned int el, const struct sim_uop *op,
		      struct spe_mrec *rec)
{
	static const struct spe_mrec empty;
	const struct spe_cpu *st = spe_cpu(cpu);
	int ts = spe_collect_timestamp(cpu);

	*rec = empty;
	add_context(cpu, el, rec);
	add_addresses(cpu, el, op, rec);
	add_op_type(cpu, op, rec);
	rec->events = spe_op_events(cpu, op);
	rec->events_size = 2;
	add_counters(cpu, op, rec);
	if (op->type == SIM_UOP_LOAD && (spe_idr(cpu) & PMSIDR_LDS)) {
		rec->dsrc = op->data_source;
		rec->dsrc_size = 1;
		rec->have |= SPE_MR_DSRC;
	}
	if (ts) {
		rec->ts = ts == SPE_TS_PHYSICAL ? st->cntpct
			  : ts == SPE_TS_OFFSET ? st->cntpct - spe_physical_offset(cpu)
						: st->cntpct - st->cntvoff;
		rec->have |= SPE_MR_TS;
	}
}
