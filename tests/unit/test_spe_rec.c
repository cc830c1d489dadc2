// SPDX-License-Identifier: MIT
/*
 * SPE sample records: a hand-written buffer (two records framed as SPE 5.1.2 shows,
 * with Padding and an Alignment command between them), malformed buffers with the offsets and
 * resynchronization points the rules in spe_rec.h give, and encoder-written buffers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <vperf/spe_rec.h>

static const uint8_t golden[] = {
	/* record A, offset 0 */
	0xb0, 0x78, 0x56, 0x34, 0x12, 0x00, 0x80, 0xff, 0xa0, /* PC 0xffff800012345678 EL1 NS */
	0x49, 0x00,					      /* OP load, general-purpose */
	0x52, 0x16, 0x00, /* EV (16-bit) E[1] retired, E[2] L1D, E[4] TLB */
	0x99, 0x05, 0x00, /* issue latency 5 */
	0x98, 0x2a, 0x00, /* total latency 42 */
	0xb2, 0x00, 0x10, 0x00, 0x00, 0xaa, 0xff, 0x00, 0x00, /* VA 0xffaa00001000, TAG 0 */
	0x9a, 0x03, 0x00,				      /* translation latency 3 */
	0xb3, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x00, 0x80, /* PA 0x80001000 NS */
	0x43, 0x08,					      /* data source 8 */
	0x71, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* TS 0x201: ends record A */
	/* offset 52: Padding, then an 8-byte Alignment command at 55 (next byte at 64) */
	0x00, 0x00, 0x00, 0x22, 0x00, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
	/* record B, offset 64 */
	0x64, 0x2a, 0x00, 0x00, 0x00,			      /* CONTEXTIDR_EL1 42 */
	0xb0, 0x00, 0x20, 0x40, 0x00, 0x00, 0x00, 0x00, 0x80, /* PC 0x402000 EL0 NS */
	0x4a, 0x01,					      /* OP conditional branch */
	0xb1, 0x00, 0x30, 0x40, 0x00, 0x00, 0x00, 0x00, 0x80, /* target 0x403000 EL0 NS */
	0x42, 0xc2,	  /* EV E[1] retired, E[6] not taken, E[7] mispredicted */
	0x98, 0x07, 0x00, /* total latency 7 */
	0x01,		  /* End: record B is bytes 64-94 */
	/* record C, offset 95: an IMPDEF address (extended, INDEX 0b10001), PC twice */
	0x22, 0xb1, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0xb0, 0x04, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x80, 0xb0, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x01, 0x00,
	0x00, /* trailing Padding */
};

static void test_golden_records(void **state)
{
	struct vperf_spe_iter it;
	struct vperf_spe_record r;
	struct vperf_spe_error err;
	uint32_t cnt_have =
		(uint32_t)(VPERF_SPE_HAVE_CNT(0) | VPERF_SPE_HAVE_CNT(1) | VPERF_SPE_HAVE_CNT(2));

	(void)state;
	vperf_spe_iter_init(&it, golden, sizeof(golden));
	assert_int_equal(vperf_spe_next_record(&it, &r, &err), VPERF_SPE_RECORD);
	assert_int_equal(r.offset, 0);
	assert_int_equal(r.len, 52);
	assert_int_equal(r.npkts, 10);
	assert_int_equal(r.have, VPERF_SPE_HAVE_ADDR(0) | VPERF_SPE_HAVE_ADDR(2) |
					 VPERF_SPE_HAVE_ADDR(3) | cnt_have | VPERF_SPE_HAVE_OP |
					 VPERF_SPE_HAVE_EVENTS | VPERF_SPE_HAVE_DSRC |
					 VPERF_SPE_HAVE_TS);
	assert_true(vperf_spe_addr_value(&r.addr[0]) == 0xffff800012345678ull);
	assert_int_equal(r.addr[0].el, 1);
	assert_int_equal(r.op.type, VPERF_SPE_OP_LDST_GP);
	assert_int_equal(r.op.flags, 0);
	assert_int_equal(r.events, 0x16);
	assert_int_equal(r.events_size, 2);
	assert_int_equal(r.cnt[VPERF_SPE_CNT_TOTAL], 42);
	assert_int_equal(r.cnt[VPERF_SPE_CNT_ISSUE], 5);
	assert_int_equal(r.cnt[VPERF_SPE_CNT_XLAT], 3);
	assert_true(vperf_spe_addr_value(&r.addr[2]) == 0xffaa00001000ull);
	assert_true(r.addr[3].addr == 0x80001000ull);
	assert_int_equal(r.addr[3].ns, 1);
	assert_int_equal(r.dsrc, 8);
	assert_int_equal(r.timestamp, 0x201);

	assert_int_equal(vperf_spe_next_record(&it, &r, &err), VPERF_SPE_RECORD);
	assert_int_equal(r.offset, 64);
	assert_int_equal(r.len, 31);
	assert_int_equal(r.ctx[0], 42);
	assert_true(r.have & VPERF_SPE_HAVE_CTX(0));
	assert_false(r.have & VPERF_SPE_HAVE_CTX(1));
	assert_false(r.have & VPERF_SPE_HAVE_TS);
	assert_int_equal(r.op.type, VPERF_SPE_OP_BRANCH);
	assert_int_equal(r.op.flags, VPERF_SPE_OPF_COND);
	assert_true(r.addr[1].addr == 0x403000);
	assert_int_equal(r.events, 0xc2);
	assert_int_equal(r.cnt[VPERF_SPE_CNT_TOTAL], 7);

	assert_int_equal(vperf_spe_next_record(&it, &r, &err), VPERF_SPE_RECORD);
	assert_int_equal(r.offset, 95);
	assert_int_equal(r.nopaque, 1);
	assert_int_equal(r.opaque[0].index, 17);
	assert_true(r.opaque[0].payload == 0x1817161514131211ull);
	assert_int_equal(r.ndup, 1);
	assert_true(r.addr[0].addr == 0x08); /* the last PC wins */
	assert_int_equal(r.have, VPERF_SPE_HAVE_ADDR(0));

	assert_int_equal(vperf_spe_next_record(&it, &r, &err), VPERF_SPE_DONE);
	assert_int_equal(it.nrecords, 3);
	assert_int_equal(it.nerrors, 0);
}

struct expect {
	enum vperf_spe_next what;
	size_t offset; /* record offset or error offset */
	uint32_t reason;
	size_t resync;
};

static void run(const uint8_t *bytes, size_t n, const struct expect *e, size_t ne)
{
	uint8_t *buf = n ? malloc(n) : NULL; /* exact size: ASan sees any over-read */
	struct vperf_spe_iter it;
	struct vperf_spe_record r;
	struct vperf_spe_error err;

	if (n) {
		assert_non_null(buf);
		memcpy(buf, bytes, n);
	}
	vperf_spe_iter_init(&it, buf, n);
	for (size_t i = 0; i < ne; i++) {
		enum vperf_spe_next got = vperf_spe_next_record(&it, &r, &err);

		assert_int_equal(got, e[i].what);
		if (got == VPERF_SPE_RECORD)
			assert_int_equal(r.offset, e[i].offset);
		if (got != VPERF_SPE_MALFORMED)
			continue;
		assert_int_equal(err.offset, e[i].offset);
		assert_int_equal(err.reason, e[i].reason);
		assert_int_equal(err.resync, e[i].resync);
	}
	assert_int_equal(vperf_spe_next_record(&it, &r, &err), VPERF_SPE_DONE);
	free(buf);
}

#define RUN(bytes, ...)                                                    \
	do {                                                               \
		static const struct expect e_[] = { __VA_ARGS__ };         \
		run(bytes, sizeof(bytes), e_, sizeof(e_) / sizeof(e_[0])); \
	} while (0)

static void test_malformed_between(void **state)
{
	/* 0xc5 (0b11000101) is no header: error at 3, resume after the End at 6 */
	static const uint8_t b[] = { 0x49, 0x00, 0x01, 0xc5, 0xee, 0xee, 0x01, 0x49, 0x01, 0x01 };

	(void)state;
	RUN(b, { VPERF_SPE_RECORD, 0, 0, 0 }, { VPERF_SPE_MALFORMED, 3, VPERF_SPE_E_BAD_HDR, 7 },
	    { VPERF_SPE_RECORD, 7, 0, 0 });
}

static void test_malformed_inside(void **state)
{
	/* the record at 0 is dropped at its bad packet (2); resume after the End at 5 */
	static const uint8_t b[] = { 0x49, 0x00, 0x1f, 0x42, 0x02, 0x01, 0x49, 0x01, 0x01 };
	/* bad second header byte at 1; resume after the Timestamp at 3 */
	static const uint8_t c[] = { 0x20, 0xc0, 0x00, 0x71, 1,	   2,	 3,   4,
				     5,	   6,	 7,    8,    0x4a, 0x00, 0x01 };

	(void)state;
	RUN(b, { VPERF_SPE_MALFORMED, 2, VPERF_SPE_E_BAD_HDR, 6 }, { VPERF_SPE_RECORD, 6, 0, 0 });
	RUN(c, { VPERF_SPE_MALFORMED, 0, VPERF_SPE_E_BAD_EXT_HDR, 12 },
	    { VPERF_SPE_RECORD, 12, 0, 0 });
}

static void test_truncated(void **state)
{
	static const uint8_t payload[] = { 0x49, 0x00, 0x01, 0xb0, 0x11, 0x22 };
	static const uint8_t record[] = { 0x00, 0x00, 0x49, 0x00, 0x42, 0x02 };
	static const uint8_t header[] = { 0x49, 0x00, 0x01, 0x21 };
	/* a 0x01 inside the cut payload is not taken as a boundary: everything left is the cut
	 * packet's */
	static const uint8_t inner[] = { 0x71, 0x01, 0x49, 0x00, 0x01 };

	(void)state;
	RUN(payload, { VPERF_SPE_RECORD, 0, 0, 0 },
	    { VPERF_SPE_MALFORMED, 3, VPERF_SPE_E_TRUNC_PAYLOAD, 6 });
	RUN(record, { VPERF_SPE_MALFORMED, 2, VPERF_SPE_E_TRUNC_RECORD, 6 });
	RUN(header, { VPERF_SPE_RECORD, 0, 0, 0 },
	    { VPERF_SPE_MALFORMED, 3, VPERF_SPE_E_TRUNC_HDR, 4 });
	RUN(inner, { VPERF_SPE_MALFORMED, 0, VPERF_SPE_E_TRUNC_PAYLOAD, 5 });
}

static void test_empty(void **state)
{
	static const uint8_t pad[] = { 0x00, 0x00, 0x00, 0x21, 0x00, 0x00, 0x00, 0x00 };
	static const uint8_t end[] = { 0x01 };
	struct vperf_spe_iter it;
	struct vperf_spe_record r;

	(void)state;
	vperf_spe_iter_init(&it, NULL, 10);
	assert_int_equal(vperf_spe_next_record(&it, &r, NULL), VPERF_SPE_DONE);
	RUN(pad, { VPERF_SPE_DONE, 0, 0, 0 });
	/* an End alone is an empty record */
	RUN(end, { VPERF_SPE_RECORD, 0, 0, 0 });
}

static void test_opaque_overflow(void **state)
{
	uint8_t b[2 * 12 + 1];
	struct vperf_spe_iter it;
	struct vperf_spe_record r;

	(void)state;
	for (int i = 0; i < 12; i++) { /* 12 unknown packets 0x40 xx */
		b[2 * i] = 0x40;
		b[2 * i + 1] = (uint8_t)i;
	}
	b[24] = 0x01;
	vperf_spe_iter_init(&it, b, sizeof(b));
	assert_int_equal(vperf_spe_next_record(&it, &r, NULL), VPERF_SPE_RECORD);
	assert_int_equal(r.nopaque, 12);
	assert_int_equal(r.opaque[VPERF_SPE_REC_MAX_OPAQUE - 1].payload,
			 VPERF_SPE_REC_MAX_OPAQUE - 1);
	assert_int_equal(r.have, 0);
}

/* Deterministic generator of records that the encoder can write. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void random_addr(struct vperf_spe_record *r, uint8_t i)
{
	vperf_spe_addr_unpack(i, rnd(), &r->addr[i]);
	if (vperf_spe_addr_reserved(&r->addr[i]))
		r->addr[i].ns = 1;
	r->have |= (uint32_t)VPERF_SPE_HAVE_ADDR(i);
}

static void random_opaque(struct vperf_spe_record *r)
{
	struct vperf_spe_pkt *o = &r->opaque[r->nopaque++];

	memset(o, 0, sizeof(*o));
	switch (rnd() % 3) {
	case 0: /* IMPDEF address, extended */
		o->kind = VPERF_SPE_PKT_ADDRESS;
		o->index = (uint8_t)(16 + rnd() % 16);
		o->size = 8;
		o->hdr0 = (uint8_t)(0x20 | (o->index >> 3));
		o->hdr1 = (uint8_t)(0xb0 | (o->index & 7));
		o->flags = VPERF_SPE_PKTF_EXT | VPERF_SPE_PKTF_IMPDEF;
		o->payload = rnd();
		break;
	case 1: /* IMPDEF counter, short */
		o->kind = VPERF_SPE_PKT_COUNTER;
		o->index = (uint8_t)(6 + rnd() % 2);
		o->size = 2;
		o->hdr0 = (uint8_t)(0x98 | o->index);
		o->flags = VPERF_SPE_PKTF_IMPDEF;
		o->payload = rnd() & 0xffff;
		break;
	default: /* unknown 0b01 00 0000 */
		o->kind = VPERF_SPE_PKT_UNKNOWN;
		o->size = 1;
		o->hdr0 = 0x40;
		o->payload = rnd() & 0xff;
		break;
	}
}

static void random_record(struct vperf_spe_record *r)
{
	static const uint8_t ev_sizes[] = { 1, 2, 4, 8 };
	uint64_t pick = rnd();

	vperf_spe_rec_clear(r);
	for (uint8_t i = 0; i < VPERF_SPE_ADDR_NDEF; i++)
		if (pick & (1u << i))
			random_addr(r, i);
	for (uint8_t i = 0; i < VPERF_SPE_CNT_NDEF; i++)
		if (i != 3 && (pick & (1u << (8 + i)))) {
			r->have |= (uint32_t)VPERF_SPE_HAVE_CNT(i);
			r->cnt[i] = (uint16_t)rnd();
		}
	for (uint8_t i = 0; i < 2; i++)
		if (pick & (1u << (16 + i))) {
			r->have |= (uint32_t)VPERF_SPE_HAVE_CTX(i);
			r->ctx[i] = (uint32_t)rnd();
		}
	if (pick & VPERF_SPE_HAVE_EVENTS) {
		r->have |= (uint32_t)VPERF_SPE_HAVE_EVENTS;
		r->events_size = ev_sizes[rnd() % 4];
		r->events =
			rnd() & (r->events_size == 8 ? ~0ull : (1ull << (8 * r->events_size)) - 1);
	}
	if (pick & VPERF_SPE_HAVE_OP) {
		r->have |= (uint32_t)VPERF_SPE_HAVE_OP;
		vperf_spe_op_unpack((uint8_t)(rnd() % 3), (uint8_t)rnd(), &r->op);
		if (vperf_spe_op_reserved(&r->op))
			vperf_spe_op_unpack(1, 0x01, &r->op);
	}
	if (pick & VPERF_SPE_HAVE_DSRC) {
		r->have |= (uint32_t)VPERF_SPE_HAVE_DSRC;
		r->dsrc_size = (uint8_t)(1 + rnd() % 2);
		r->dsrc = (uint16_t)(rnd() & (r->dsrc_size == 1 ? 0xff : 0xffff));
	}
	if (pick & VPERF_SPE_HAVE_TS) {
		r->have |= (uint32_t)VPERF_SPE_HAVE_TS;
		r->timestamp = rnd();
	}
	while ((pick >> 40) % 4 > r->nopaque)
		random_opaque(r);
}

#define NREC 400

struct written {
	struct vperf_spe_record rec[NREC];
	size_t offset[NREC];
	uint8_t buf[NREC * 128];
	size_t len;
};

/* Write NREC random records with random Padding and Alignment between them. */
static void write_records(struct written *w)
{
	size_t n = 0;

	w->len = 0;
	for (int i = 0; i < NREC; i++) {
		struct vperf_spe_pkt gap = { .kind = VPERF_SPE_PKT_PAD };

		for (uint64_t k = rnd() % 4; k; k--) {
			assert_int_equal(
				vperf_spe_pkt_encode(&gap, w->buf, sizeof(w->buf), w->len, &n),
				VPERF_OK);
			w->len += n;
		}
		if (rnd() % 8 == 0) {
			gap.kind = VPERF_SPE_PKT_ALIGN;
			gap.index = (uint8_t)(1 + rnd() % 4);
			gap.flags = VPERF_SPE_PKTF_EXT;
			assert_int_equal(
				vperf_spe_pkt_encode(&gap, w->buf, sizeof(w->buf), w->len, &n),
				VPERF_OK);
			w->len += n;
		}
		random_record(&w->rec[i]);
		w->offset[i] = w->len;
		assert_int_equal(
			vperf_spe_rec_encode(&w->rec[i], w->buf, sizeof(w->buf), w->len, &n),
			VPERF_OK);
		w->len += n;
	}
}

/* A buffer written by the encoder decodes to the same records. */
static void test_encoder_roundtrip(void **state)
{
	static struct written w;
	struct vperf_spe_iter it;
	struct vperf_spe_record r;
	struct vperf_spe_error err;

	(void)state;
	write_records(&w);
	vperf_spe_iter_init(&it, w.buf, w.len);
	for (int i = 0; i < NREC; i++) {
		assert_int_equal(vperf_spe_next_record(&it, &r, &err), VPERF_SPE_RECORD);
		assert_int_equal(r.offset, w.offset[i]);
		assert_true(vperf_spe_rec_equal(&r, &w.rec[i]));
		assert_true(vperf_spe_rec_equal(&w.rec[i], &r));
	}
	assert_int_equal(vperf_spe_next_record(&it, &r, &err), VPERF_SPE_DONE);
	/* rec_equal really compares: change one field */
	w.rec[0].have ^= (uint32_t)VPERF_SPE_HAVE_TS;
	assert_false(vperf_spe_rec_equal(&r, &w.rec[0]));
}

/* Every prefix of an encoder-written buffer: whole records come out equal, then at most one
 * truncation error, then DONE. The prefix is copied to an exact-size heap block. */
static void test_every_prefix(void **state)
{
	static struct written w;

	(void)state;
	write_records(&w);
	for (size_t k = 0; k <= 2000 && k <= w.len; k++) {
		uint8_t *buf = malloc(k ? k : 1);
		struct vperf_spe_iter it;
		struct vperf_spe_record r;
		struct vperf_spe_error err;
		enum vperf_spe_next got;
		int i = 0, errors = 0;

		assert_non_null(buf);
		memcpy(buf, w.buf, k);
		vperf_spe_iter_init(&it, buf, k);
		while ((got = vperf_spe_next_record(&it, &r, &err)) != VPERF_SPE_DONE) {
			if (got == VPERF_SPE_MALFORMED) {
				assert_true(err.reason == VPERF_SPE_E_TRUNC_PAYLOAD ||
					    err.reason == VPERF_SPE_E_TRUNC_HDR ||
					    err.reason == VPERF_SPE_E_TRUNC_RECORD);
				assert_int_equal(err.resync, k);
				errors++;
				continue;
			}
			assert_int_equal(errors, 0);
			assert_true(vperf_spe_rec_equal(&r, &w.rec[i]));
			assert_true(r.offset + r.len <= k);
			i++;
		}
		assert_true(errors <= 1);
		free(buf);
	}
}

static void test_rec_encode_nospace(void **state)
{
	struct vperf_spe_record r;
	uint8_t buf[16];
	size_t n = 1;

	(void)state;
	vperf_spe_rec_clear(&r);
	r.have = (uint32_t)(VPERF_SPE_HAVE_ADDR(0) | VPERF_SPE_HAVE_TS);
	assert_int_equal(vperf_spe_rec_encode(&r, buf, sizeof(buf), 0, &n), VPERF_ENOSPC);
	assert_int_equal(n, 0);
	r.have = (uint32_t)VPERF_SPE_HAVE_TS;
	assert_int_equal(vperf_spe_rec_encode(&r, buf, sizeof(buf), 0, &n), VPERF_OK);
	assert_int_equal(n, 9);
	assert_int_equal(buf[0], 0x71);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_records),
		cmocka_unit_test(test_malformed_between),
		cmocka_unit_test(test_malformed_inside),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_opaque_overflow),
		cmocka_unit_test(test_encoder_roundtrip),
		cmocka_unit_test(test_every_prefix),
		cmocka_unit_test(test_rec_encode_nospace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
