// SPDX-License-Identifier: MIT
/*
 * Independence of the model's record builder (arch/sim/spe/spe_packet.c, written from Arm DDI
 * 0487 K.a D18.2) and vperf's codec (lib/spe): seeded random records in the model's vocabulary (every
 * packet the model writes, every field value they can hold) are written by both and compared byte
 * for byte, and vperf's decoder reads the model's bytes back into the same record. A misreading of
 * the packet format in either one fails here.
 */
#include <string.h>

#include <vperf/spe_rec.h>

#include "cmocka_wrap.h"
#include "sim_spe_util.h"
#include "spe_internal.h"

#define NRECORDS 4000
#define ADDR56	 VPERF_GENMASK(55, 0)

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static bool coin(void)
{
	return rnd() & 1;
}

/* The one-bit fields each payload type has (D18.2.7). */
static uint8_t op_flags(uint8_t op)
{
	switch (op) {
	case SPE_MOP_OTHER:
		return SPE_MOPF_COND | SPE_MOPF_FP | SPE_MOPF_ASE;
	case SPE_MOP_LDST_EXT:
		return SPE_MOPF_ST | SPE_MOPF_AR | SPE_MOPF_EXCL | SPE_MOPF_AT;
	case SPE_MOP_BRANCH:
		return SPE_MOPF_COND | SPE_MOPF_IND;
	default:
		return SPE_MOPF_ST;
	}
}

static struct spe_maddr random_addr(void)
{
	return (struct spe_maddr){ .addr = rnd() & ADDR56,
				   .el = (uint8_t)(rnd() % 3),
				   .ns = (uint8_t)(rnd() & 1),
				   .tag = (uint8_t)rnd() };
}

static void random_record(struct spe_mrec *r)
{
	static const uint8_t sizes[] = { 1, 2, 4, 8 };

	memset(r, 0, sizeof(*r));
	r->have = (uint32_t)(rnd() & 0xff);
	r->ctx[0] = (uint32_t)rnd();
	r->ctx[1] = (uint32_t)rnd();
	r->pc = random_addr();
	r->tgt = random_addr();
	r->data_va = random_addr();
	r->data_pa = random_addr();
	r->op = (uint8_t)(rnd() % 5);
	r->opf = (uint8_t)(rnd() & op_flags(r->op));
	r->events_size = sizes[rnd() % 4];
	r->events = rnd() & (r->events_size == 8 ? ~0ull : (1ull << (8 * r->events_size)) - 1);
	for (unsigned int i = 0; i < 3; i++)
		r->cnt[i] = (uint16_t)rnd();
	r->dsrc_size = coin() ? 2 : 1;
	r->dsrc = (uint16_t)(rnd() & (r->dsrc_size == 2 ? 0xffffu : 0xffu));
	r->ts = rnd();
}

/* ---- the same record in vperf's terms (by meaning: no bit positions here) ---------------- */

static const struct {
	uint8_t cls, type;
} op_map[] = {
	[SPE_MOP_OTHER] = { VPERF_SPE_CLASS_OTHER, VPERF_SPE_OP_OTHER },
	[SPE_MOP_LDST_GP] = { VPERF_SPE_CLASS_LDST, VPERF_SPE_OP_LDST_GP },
	[SPE_MOP_LDST_SIMD_FP] = { VPERF_SPE_CLASS_LDST, VPERF_SPE_OP_LDST_SIMD_FP },
	[SPE_MOP_LDST_EXT] = { VPERF_SPE_CLASS_LDST, VPERF_SPE_OP_LDST_EXT },
	[SPE_MOP_BRANCH] = { VPERF_SPE_CLASS_BRANCH, VPERF_SPE_OP_BRANCH },
};

static const struct {
	uint8_t model;
	uint16_t vperf;
} flag_map[] = {
	{ SPE_MOPF_ST, VPERF_SPE_OPF_ST }, { SPE_MOPF_COND, VPERF_SPE_OPF_COND },
	{ SPE_MOPF_FP, VPERF_SPE_OPF_FP }, { SPE_MOPF_ASE, VPERF_SPE_OPF_ASE },
	{ SPE_MOPF_AR, VPERF_SPE_OPF_AR }, { SPE_MOPF_EXCL, VPERF_SPE_OPF_EXCL },
	{ SPE_MOPF_AT, VPERF_SPE_OPF_AT }, { SPE_MOPF_IND, VPERF_SPE_OPF_IND },
};

static void set_addr(struct vperf_spe_record *v, unsigned int index, const struct spe_maddr *a)
{
	struct vperf_spe_addr *d = &v->addr[index];

	memset(d, 0, sizeof(*d));
	d->index = (uint8_t)index;
	d->addr = a->addr;
	if (index == VPERF_SPE_ADDR_DATA_VA) {
		d->tag = a->tag;
	} else {
		d->ns = a->ns;
		d->el = index == VPERF_SPE_ADDR_DATA_PA ? 0 : a->el;
	}
	v->have |= (uint32_t)VPERF_SPE_HAVE_ADDR(index);
}

static void to_vperf(const struct spe_mrec *r, struct vperf_spe_record *v)
{
	vperf_spe_rec_clear(v);
	for (unsigned int i = 0; i < 2; i++)
		if (r->have & (i ? SPE_MR_CTX2 : SPE_MR_CTX1)) {
			v->ctx[i] = r->ctx[i];
			v->have |= VPERF_SPE_HAVE_CTX(i);
		}
	set_addr(v, VPERF_SPE_ADDR_PC, &r->pc);
	if (r->have & SPE_MR_TGT)
		set_addr(v, VPERF_SPE_ADDR_BR_TGT, &r->tgt);
	if (r->have & SPE_MR_DATA_VA)
		set_addr(v, VPERF_SPE_ADDR_DATA_VA, &r->data_va);
	if (r->have & SPE_MR_DATA_PA)
		set_addr(v, VPERF_SPE_ADDR_DATA_PA, &r->data_pa);
	v->op.cls = op_map[r->op].cls;
	v->op.type = op_map[r->op].type;
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(flag_map); i++)
		if (r->opf & flag_map[i].model)
			v->op.flags |= flag_map[i].vperf;
	v->op.raw = vperf_spe_op_pack(&v->op);
	v->events = r->events;
	v->events_size = r->events_size;
	v->have |= VPERF_SPE_HAVE_OP | VPERF_SPE_HAVE_EVENTS;
	for (unsigned int i = 0; i < 3; i++)
		if (i < 2 || (r->have & SPE_MR_XLAT)) {
			v->cnt[i] = r->cnt[i];
			v->have |= VPERF_SPE_HAVE_CNT(i);
		}
	if (r->have & SPE_MR_DSRC) {
		v->dsrc = r->dsrc;
		v->dsrc_size = r->dsrc_size;
		v->have |= VPERF_SPE_HAVE_DSRC;
	}
	if (r->have & SPE_MR_TS) {
		v->timestamp = r->ts;
		v->have |= VPERF_SPE_HAVE_TS;
	}
}

/* The model's bytes equal vperf's encoding of the same record, and vperf's decoder reads them
 * back as exactly that record and nothing else. */
static void test_model_and_codec_agree(void **state)
{
	uint8_t model[SPE_REC_MAX], codec[SPE_REC_MAX];

	(void)state;
	rng = 0x9e3779b97f4a7c15ull;
	for (unsigned int n = 0; n < NRECORDS; n++) {
		struct vperf_spe_record want, got;
		struct vperf_spe_error err;
		struct vperf_spe_iter it;
		struct spe_mrec r;
		size_t mlen, clen = 0;

		random_record(&r);
		to_vperf(&r, &want);
		mlen = spe_mrec_encode(&r, model, sizeof(model));
		assert_int_equal(vperf_spe_rec_encode(&want, codec, sizeof(codec), 0, &clen),
				 VPERF_OK);
		assert_int_equal(mlen, clen);
		assert_memory_equal(model, codec, mlen);
		vperf_spe_iter_init(&it, model, mlen);
		assert_int_equal(vperf_spe_next_record(&it, &got, &err), VPERF_SPE_RECORD);
		assert_true(vperf_spe_rec_equal(&got, &want));
		assert_int_equal(vperf_spe_next_record(&it, &got, &err), VPERF_SPE_DONE);
	}
}

/* A buffer too small for the record: nothing claimed written. */
static void test_model_encoder_bounds(void **state)
{
	uint8_t buf[SPE_REC_MAX];
	struct spe_mrec r;

	(void)state;
	rng = 7;
	random_record(&r);
	r.have |= SPE_MR_TS;
	assert_int_equal(spe_mrec_encode(&r, buf, 10), 0);
	assert_true(spe_mrec_encode(&r, buf, sizeof(buf)) > 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_and_codec_agree),
		cmocka_unit_test(test_model_encoder_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
