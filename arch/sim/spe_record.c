// SPDX-License-Identifier: MIT
/*
 * The sample record of a sampled micro-op (SPE supplement 2.3, D18.2), built as a codec record
 * (vperf/spe_rec.h) and encoded by the codec. What the model puts in a record:
 *   Context    CONTEXTIDR_EL1 / _EL2 when CollectContextIDR1/2 (3.3.1)
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

uint64_t spe_op_events(unsigned int cpu, const struct sim_uop *op)
{
	uint64_t e = VPERF_BIT(VPERF_SPE_EV_RETIRED);
	uint64_t size = 1ull << (op->size_log2 & 7u);

	(void)cpu;
	if (is_ldst(op)) {
		e |= VPERF_BIT(VPERF_SPE_EV_L1D_ACCESS) | VPERF_BIT(VPERF_SPE_EV_TLB_ACCESS);
		if (op->flags & SIM_UOP_L1D_REFILL)
			e |= VPERF_BIT(VPERF_SPE_EV_L1D_REFILL);
		if (op->flags & SIM_UOP_TLB_REFILL)
			e |= VPERF_BIT(VPERF_SPE_EV_TLB_WALK);
		if (sim_model_config()->pmsver >= 2 && (op->vaddr & (size - 1)))
			e |= VPERF_BIT(VPERF_SPE_EV_ALIGNMENT);
	}
	if (cond_failed(op))
		e |= VPERF_BIT(VPERF_SPE_EV_NOT_TAKEN);
	if (op->type == SIM_UOP_BRANCH && (op->flags & SIM_UOP_MISPRED))
		e |= VPERF_BIT(VPERF_SPE_EV_MISPRED);
	return e;
}

static void set_addr(struct vperf_spe_record *rec, unsigned int index,
		     const struct vperf_spe_addr *a)
{
	rec->addr[index] = *a;
	rec->addr[index].index = (uint8_t)index;
	rec->have |= (uint32_t)VPERF_SPE_HAVE_ADDR(index);
}

static void add_context(unsigned int cpu, unsigned int el, struct vperf_spe_record *rec)
{
	const struct spe_cpu *st = spe_cpu(cpu);

	if (spe_collect_ctx1(cpu, el)) {
		rec->ctx[VPERF_SPE_CTX_EL1] = st->contextidr[0];
		rec->have |= VPERF_SPE_HAVE_CTX(VPERF_SPE_CTX_EL1);
	}
	if (spe_collect_ctx2(cpu)) {
		rec->ctx[VPERF_SPE_CTX_EL2] = st->contextidr[1];
		rec->have |= VPERF_SPE_HAVE_CTX(VPERF_SPE_CTX_EL2);
	}
}

static uint8_t ldst_type(const struct sim_uop *op, uint16_t *flags)
{
	if (op->flags & (SIM_UOP_ATOMIC | SIM_UOP_EXCL | SIM_UOP_ACQREL)) {
		if (op->flags & SIM_UOP_ACQREL)
			*flags |= VPERF_SPE_OPF_AR;
		if (op->flags & SIM_UOP_EXCL)
			*flags |= VPERF_SPE_OPF_EXCL;
		if (op->flags & SIM_UOP_ATOMIC)
			*flags |= VPERF_SPE_OPF_AT;
		return VPERF_SPE_OP_LDST_EXT;
	}
	if (op->flags & (SIM_UOP_SIMD | SIM_UOP_FP))
		return VPERF_SPE_OP_LDST_SIMD_FP;
	return VPERF_SPE_OP_LDST_GP;
}

static void add_op_type(unsigned int cpu, const struct sim_uop *op, struct vperf_spe_record *rec)
{
	struct vperf_spe_op t = { 0 };

	if (is_ldst(op)) {
		t.cls = VPERF_SPE_CLASS_LDST;
		t.type = ldst_type(op, &t.flags);
		if (op->type == SIM_UOP_STORE)
			t.flags |= VPERF_SPE_OPF_ST;
	} else if (op->type == SIM_UOP_BRANCH) {
		t.cls = VPERF_SPE_CLASS_BRANCH;
		t.type = VPERF_SPE_OP_BRANCH;
		t.flags = (uint16_t)((op->flags & SIM_UOP_COND ? VPERF_SPE_OPF_COND : 0) |
				     (op->flags & SIM_UOP_INDIRECT ? VPERF_SPE_OPF_IND : 0));
	} else {
		t.cls = VPERF_SPE_CLASS_OTHER;
		t.type = VPERF_SPE_OP_OTHER;
		if (op->flags & SIM_UOP_COND)
			t.flags |= VPERF_SPE_OPF_COND;
		if ((spe_idr(cpu) & PMSIDR_FPF) && (op->flags & SIM_UOP_FP))
			t.flags |= VPERF_SPE_OPF_FP;
		if ((spe_idr(cpu) & PMSIDR_FPF) && (op->flags & SIM_UOP_SIMD))
			t.flags |= VPERF_SPE_OPF_ASE;
	}
	rec->op = t;
	rec->op.raw = vperf_spe_op_pack(&t);
	rec->have |= VPERF_SPE_HAVE_OP;
}

static uint16_t saturate(unsigned int cpu, uint32_t v)
{
	uint32_t max = spe_counter_max(cpu);

	return (uint16_t)(v > max ? max : v);
}

static void add_counters(unsigned int cpu, const struct sim_uop *op, struct vperf_spe_record *rec)
{
	rec->cnt[VPERF_SPE_CNT_TOTAL] = saturate(cpu, op->latency);
	rec->cnt[VPERF_SPE_CNT_ISSUE] = saturate(cpu, op->issue_lat);
	rec->have |=
		VPERF_SPE_HAVE_CNT(VPERF_SPE_CNT_TOTAL) | VPERF_SPE_HAVE_CNT(VPERF_SPE_CNT_ISSUE);
	if (is_ldst(op)) {
		rec->cnt[VPERF_SPE_CNT_XLAT] = saturate(cpu, op->xlat_lat);
		rec->have |= VPERF_SPE_HAVE_CNT(VPERF_SPE_CNT_XLAT);
	}
}

static void add_addresses(unsigned int cpu, unsigned int el, const struct sim_uop *op,
			  struct vperf_spe_record *rec)
{
	struct vperf_spe_addr pc = { .addr = op->pc & ADDR_MASK, .ns = 1, .el = (uint8_t)el };

	set_addr(rec, VPERF_SPE_ADDR_PC, &pc);
	if (op->type == SIM_UOP_BRANCH) {
		struct vperf_spe_addr tgt = { .addr = op->vaddr & ADDR_MASK,
					      .ns = 1,
					      .el = (uint8_t)el };

		set_addr(rec, VPERF_SPE_ADDR_BR_TGT, &tgt);
	}
	if (is_ldst(op)) {
		struct vperf_spe_addr va = { .addr = op->vaddr & ADDR_MASK,
					     .tag = (uint8_t)(op->vaddr >> 56) };
		struct vperf_spe_addr pa = {
			.addr = (op->paddr ? op->paddr : op->vaddr) & ADDR_MASK, .ns = 1
		};

		set_addr(rec, VPERF_SPE_ADDR_DATA_VA, &va);
		if (spe_collect_pa(cpu))
			set_addr(rec, VPERF_SPE_ADDR_DATA_PA, &pa);
	}
}

void spe_build_record(unsigned int cpu, unsigned int el, const struct sim_uop *op,
		      struct vperf_spe_record *rec)
{
	const struct spe_cpu *st = spe_cpu(cpu);
	int ts = spe_collect_timestamp(cpu);

	vperf_spe_rec_clear(rec);
	add_context(cpu, el, rec);
	add_addresses(cpu, el, op, rec);
	add_op_type(cpu, op, rec);
	rec->events = spe_op_events(cpu, op);
	rec->events_size = 2;
	rec->have |= VPERF_SPE_HAVE_EVENTS;
	add_counters(cpu, op, rec);
	if (op->type == SIM_UOP_LOAD && (spe_idr(cpu) & PMSIDR_LDS)) {
		rec->dsrc = op->data_source;
		rec->dsrc_size = 1;
		rec->have |= VPERF_SPE_HAVE_DSRC;
	}
	if (ts) {
		rec->timestamp = ts == 2 ? st->cntpct : st->cntpct - st->cntvoff;
		rec->have |= VPERF_SPE_HAVE_TS;
	}
}
