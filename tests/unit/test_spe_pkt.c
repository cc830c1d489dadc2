// SPDX-License-Identifier: MIT
/*
 * SPE packet codec: golden vectors written by hand from the bit tables of Arm DDI 0487 K.a D18.2
 * and the SPE SPE 5 (each byte's derivation is in the comment next to it), header-space
 * counts derived from the SPE 5.2 encoding tables, and encode/decode round trips.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <vperf/spe_pkt.h>

/* Decode bytes that must form exactly one packet; the copy on the heap lets ASan catch any read
 * past the end. */
static struct vperf_spe_pkt dec1(const uint8_t *bytes, size_t n)
{
	struct vperf_spe_pkt pkt;
	uint8_t *copy = malloc(n);

	assert_non_null(copy);
	memcpy(copy, bytes, n);
	assert_int_equal(vperf_spe_pkt_decode(copy, n, 0, &pkt, NULL), VPERF_SPE_OK);
	assert_int_equal(pkt.len, n);
	free(copy);
	return pkt;
}

static enum vperf_spe_reason dec_err(const uint8_t *bytes, size_t n, size_t off,
				     struct vperf_spe_error *err)
{
	struct vperf_spe_pkt pkt;
	uint8_t *copy = malloc(n);
	enum vperf_spe_reason r;

	assert_non_null(copy);
	memcpy(copy, bytes, n);
	r = vperf_spe_pkt_decode(copy, n, off, &pkt, err);
	free(copy);
	return r;
}

#define DEC(...) dec1((const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))

/* D18.2.8 Padding 0b00000000, D18.2.5 End 0b00000001: 8-bit packets, no payload. */
static void test_golden_framing(void **state)
{
	struct vperf_spe_pkt p;

	(void)state;
	p = DEC(0x00);
	assert_int_equal(p.kind, VPERF_SPE_PKT_PAD);
	p = DEC(0x01);
	assert_int_equal(p.kind, VPERF_SPE_PKT_END);
	/* D18.2.9: header 0b01 SZ=11 0001 = 0x71, TS bytes <7:0> little-endian (SPE 5.1.3) */
	p = DEC(0x71, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11);
	assert_int_equal(p.kind, VPERF_SPE_PKT_TIMESTAMP);
	assert_int_equal(p.size, 8);
	assert_true(p.payload == 0x1122334455667788ull);
}

/* D18.2.1 short header 0b10 SZ=11 0 INDEX[2:0]; payload NS [63], EL [62:61], NSE [60]. */
static void test_golden_address_pc(void **state)
{
	struct vperf_spe_pkt p;
	struct vperf_spe_addr a;

	(void)state;
	/* PC 0xffff800012345678 at EL1, Non-secure: byte 7 = NS 1, EL 0b01 -> 0b1010_0000 */
	p = DEC(0xb0, 0x78, 0x56, 0x34, 0x12, 0x00, 0x80, 0xff, 0xa0);
	assert_int_equal(p.kind, VPERF_SPE_PKT_ADDRESS);
	assert_int_equal(p.index, VPERF_SPE_ADDR_PC);
	assert_int_equal(p.flags, 0);
	vperf_spe_addr_unpack(p.index, p.payload, &a);
	assert_true(a.addr == 0x00ff800012345678ull);
	assert_int_equal(a.ns, 1);
	assert_int_equal(a.el, 1);
	assert_int_equal(a.nse, 0);
	assert_true(vperf_spe_addr_value(&a) == 0xffff800012345678ull);
	/* branch target at EL0, NS: 0xb1, byte 7 = 0b1000_0000 */
	p = DEC(0xb1, 0xcc, 0xcc, 0xbb, 0xbb, 0xaa, 0xaa, 0x00, 0x80);
	vperf_spe_addr_unpack(p.index, p.payload, &a);
	assert_int_equal(p.index, VPERF_SPE_ADDR_BR_TGT);
	assert_int_equal(a.el, 0);
	assert_int_equal(a.ns, 1);
	assert_true(vperf_spe_addr_value(&a) == 0x0000aaaabbbbccccull);
	/* previous branch target (INDEX 0b00100) at EL2, Secure: byte 7 = 0b0100_0000 */
	p = DEC(0xb4, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40);
	vperf_spe_addr_unpack(p.index, p.payload, &a);
	assert_int_equal(p.index, VPERF_SPE_ADDR_PREV_BR);
	assert_int_equal(a.el, 2);
	assert_int_equal(a.ns, 0);
	/* Realm (FEAT_RME): NSE 1, NS 1 -> byte 7 = 0b1011_0000 */
	p = DEC(0xb0, 0, 0, 0, 0, 0, 0, 0, 0xb0);
	vperf_spe_addr_unpack(p.index, p.payload, &a);
	assert_int_equal(a.nse, 1);
	assert_int_equal(a.el, 1);
	assert_int_equal(p.flags, 0);
	/* NSE 1, NS 0 is reserved -> byte 7 = 0b0001_0000 */
	p = DEC(0xb0, 0, 0, 0, 0, 0, 0, 0, 0x10);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_RESERVED);
}

static void test_golden_address_data(void **state)
{
	struct vperf_spe_pkt p;
	struct vperf_spe_addr a;

	(void)state;
	/* data VA (INDEX 0b00010): TAG is byte 7 */
	p = DEC(0xb2, 0x00, 0x50, 0x34, 0x12, 0xff, 0xff, 0x00, 0xf3);
	vperf_spe_addr_unpack(p.index, p.payload, &a);
	assert_int_equal(p.index, VPERF_SPE_ADDR_DATA_VA);
	assert_int_equal(a.tag, 0xf3);
	assert_true(a.addr == 0x0000ffff12345000ull);
	assert_true(vperf_spe_addr_value(&a) == 0xf300ffff12345000ull);
	/* untagged kernel VA: value sign-extends bit 55 */
	p = DEC(0xb2, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0xff, 0x00);
	vperf_spe_addr_unpack(p.index, p.payload, &a);
	assert_true(vperf_spe_addr_value(&a) == 0xffff800000000000ull);
	/* data PA (INDEX 0b00011): NS [63] 1, CH [62] 1, bit 61 0, NSE [60] 0, PAT [59:56] 0xa
	 * -> byte 7 = 0b1100_1010 */
	p = DEC(0xb3, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x00, 0xca);
	vperf_spe_addr_unpack(p.index, p.payload, &a);
	assert_int_equal(p.index, VPERF_SPE_ADDR_DATA_PA);
	assert_int_equal(a.ns, 1);
	assert_int_equal(a.ch, 1);
	assert_int_equal(a.nse, 0);
	assert_int_equal(a.pat, 0xa);
	assert_int_equal(a.rsvd, 0);
	assert_true(vperf_spe_addr_value(&a) == 0x80001000ull);
}

/* D18.2.1 INDEX classes: 0b0011x and 0b1xxxx IMPDEF, 0b00101 and 0b01xxx reserved. */
static void test_golden_address_index(void **state)
{
	struct vperf_spe_pkt p;

	(void)state;
	p = DEC(0xb6, 1, 2, 3, 4, 5, 6, 7, 8); /* INDEX 0b110 */
	assert_int_equal(p.index, 6);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_IMPDEF);
	p = DEC(0xb7, 1, 2, 3, 4, 5, 6, 7, 8);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_IMPDEF);
	p = DEC(0xb5, 1, 2, 3, 4, 5, 6, 7, 8); /* INDEX 0b101 */
	assert_int_equal(p.flags, VPERF_SPE_PKTF_RESERVED);
	/* Extended: byte 0 = 0b001000:INDEX[4:3], byte 1 = 0b10110:INDEX[2:0]; 0b10001 = 17 */
	p = DEC(0x22, 0xb1, 1, 2, 3, 4, 5, 6, 7, 8);
	assert_int_equal(p.kind, VPERF_SPE_PKT_ADDRESS);
	assert_int_equal(p.index, 17);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_EXT | VPERF_SPE_PKTF_IMPDEF);
	assert_true(p.payload == 0x0807060504030201ull);
	p = DEC(0x21, 0xb0, 0, 0, 0, 0, 0, 0, 0, 0); /* 0b01000 = 8: reserved */
	assert_int_equal(p.index, 8);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_EXT | VPERF_SPE_PKTF_RESERVED);
	p = DEC(0x20, 0xb0, 0, 0, 0, 0, 0, 0, 0, 0xa0); /* PC in the extended format */
	assert_int_equal(p.index, 0);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_EXT);
	p = DEC(0x23, 0xb7, 0, 0, 0, 0, 0, 0, 0, 0); /* 0b11111 = 31 */
	assert_int_equal(p.index, 31);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_EXT | VPERF_SPE_PKTF_IMPDEF);
}

/* D18.2.3: 0b10 SZ=01 1 INDEX[2:0], 16-bit payload; extended 0b001000:INDEX[4:3] + 0b10011. */
static void test_golden_counter(void **state)
{
	static const struct {
		uint8_t hdr, index, flags;
	} v[] = {
		{ 0x98, 0, 0 },			      /* total latency */
		{ 0x99, 1, 0 },			      /* issue latency */
		{ 0x9a, 2, 0 },			      /* translation latency */
		{ 0x9b, 3, VPERF_SPE_PKTF_RESERVED }, /* 0b00011 not listed */
		{ 0x9c, 4, 0 },			      /* alternate clock issue latency */
		{ 0x9d, 5, VPERF_SPE_PKTF_RESERVED }, /* 0b00101 not listed */
		{ 0x9e, 6, VPERF_SPE_PKTF_IMPDEF },   /* 0b0011x */
		{ 0x9f, 7, VPERF_SPE_PKTF_IMPDEF },
	};
	struct vperf_spe_pkt p;

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t b[3] = { v[i].hdr, 0x23, 0x01 };

		p = dec1(b, 3);
		assert_int_equal(p.kind, VPERF_SPE_PKT_COUNTER);
		assert_int_equal(p.index, v[i].index);
		assert_int_equal(p.flags, v[i].flags);
		assert_int_equal(p.payload, 0x0123);
	}
	p = DEC(0x22, 0x98, 0xff, 0xff); /* INDEX 0b10000: IMPDEF, saturated 16-bit count */
	assert_int_equal(p.index, 16);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_EXT | VPERF_SPE_PKTF_IMPDEF);
	assert_int_equal(p.payload, 0xffff);
	p = DEC(0x21, 0x9f, 0x00, 0x00); /* INDEX 0b01111: reserved */
	assert_int_equal(p.index, 15);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_EXT | VPERF_SPE_PKTF_RESERVED);
}

/* D18.2.2: 0b01 SZ=10 01 INDEX, 32-bit payload. D18.2.4: 0b01 SZ 0011. */
static void test_golden_context_dsrc(void **state)
{
	struct vperf_spe_pkt p;

	(void)state;
	p = DEC(0x64, 0xef, 0xbe, 0xad, 0xde);
	assert_int_equal(p.kind, VPERF_SPE_PKT_CONTEXT);
	assert_int_equal(p.index, VPERF_SPE_CTX_EL1);
	assert_true(p.payload == 0xdeadbeefull);
	p = DEC(0x65, 0x01, 0x00, 0x00, 0x00);
	assert_int_equal(p.index, VPERF_SPE_CTX_EL2);
	assert_int_equal(p.flags, 0);
	p = DEC(0x66, 0x01, 0x00, 0x00, 0x00);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_RESERVED);
	p = DEC(0x43, 0x05);
	assert_int_equal(p.kind, VPERF_SPE_PKT_DATA_SOURCE);
	assert_int_equal(p.size, 1);
	assert_int_equal(p.payload, 5);
	p = DEC(0x53, 0x34, 0x12);
	assert_int_equal(p.size, 2);
	assert_int_equal(p.payload, 0x1234);
	assert_int_equal(p.flags, 0);
	p = DEC(0x63, 1, 2, 3, 4); /* SZ 0b10 is not a defined Data Source size */
	assert_int_equal(p.kind, VPERF_SPE_PKT_DATA_SOURCE);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_RESERVED);
}

/* D18.2.6: 0b01 SZ 0010; E[n] is payload bit n, payload of 1, 2, 4 or 8 bytes. */
static void test_golden_events(void **state)
{
	struct vperf_spe_pkt p;

	(void)state;
	p = DEC(0x42, 0x02); /* E[1] retired */
	assert_int_equal(p.kind, VPERF_SPE_PKT_EVENTS);
	assert_int_equal(p.size, 1);
	assert_int_equal(p.payload, 1u << VPERF_SPE_EV_RETIRED);
	p = DEC(0x52, 0x06, 0x02); /* E[1], E[2] L1D access, E[9] LLC miss */
	assert_int_equal(p.size, 2);
	assert_int_equal(p.payload, 0x0206);
	p = DEC(0x62, 0x00, 0x08, 0x06, 0x03); /* E[11] misaligned, E[17], E[18], E[24], E[25] */
	assert_int_equal(p.size, 4);
	assert_int_equal(p.payload, (1u << 11) | (1u << 17) | (1u << 18) | (1u << 24) | (1u << 25));
	p = DEC(0x72, 0x80, 0, 0, 0, 0, 0, 0, 0x80); /* E[7] mispredicted, E[63] IMPDEF */
	assert_int_equal(p.size, 8);
	assert_true(p.payload == (VPERF_BIT(7) | VPERF_BIT(63)));
	assert_string_equal(vperf_spe_event_name(VPERF_SPE_EV_MISPRED), "mispred");
	assert_null(vperf_spe_event_name(63));
	assert_null(vperf_spe_event_name(12));
	assert_null(vperf_spe_event_name(40));
	for (unsigned int bit = 0; bit < 26; bit++)
		if (!(VPERF_SPE_EV_IMPDEF_MASK & VPERF_BIT(bit)))
			assert_non_null(vperf_spe_event_name(bit));
}

/* SPE 5.3.2: 0b0010 SIZE, 0x00; the next protocol byte is 2^(SIZE+1)-aligned. */
static void test_golden_alignment(void **state)
{
	static const uint8_t b[] = { 0x21, 0x00, 0xee, 0xee, 0x00, 0x00, 0x22,
				     0x00, 0xee, 0xee, 0xee, 0xee, 0x01 };
	struct vperf_spe_pkt p;

	(void)state;
	/* SIZE 1 at 0: 4-byte alignment, next byte at 4 */
	assert_int_equal(vperf_spe_pkt_decode(b, sizeof(b), 0, &p, NULL), VPERF_SPE_OK);
	assert_int_equal(p.kind, VPERF_SPE_PKT_ALIGN);
	assert_int_equal(p.index, 1);
	assert_int_equal(p.len, 4);
	/* SIZE 2 at 6: 8-byte alignment; the byte after the command (8) is aligned: len 2 */
	assert_int_equal(vperf_spe_pkt_decode(b, sizeof(b), 6, &p, NULL), VPERF_SPE_OK);
	assert_int_equal(p.index, 2);
	assert_int_equal(p.len, 2);
	/* SIZE 3 (16 bytes) at 5: the next protocol byte is at 16 */
	{
		static const uint8_t d[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x23, 0x00, 0xee, 0xee,
					     0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0x01 };

		assert_int_equal(vperf_spe_pkt_decode(d, sizeof(d), 5, &p, NULL), VPERF_SPE_OK);
		assert_int_equal(p.len, 16 - 5);
		assert_int_equal(vperf_spe_pkt_decode(d, sizeof(d), 16, &p, NULL), VPERF_SPE_OK);
		assert_int_equal(p.kind, VPERF_SPE_PKT_END);
	}
	/* SIZE 15 (64 KiB) in a short buffer: clipped at the end of the buffer, not an error */
	{
		static const uint8_t c[] = { 0x2f, 0x00, 0xee };

		p = dec1(c, 3);
		assert_int_equal(p.index, 15);
		assert_int_equal(p.flags, VPERF_SPE_PKTF_EXT);
	}
	p = DEC(0x20, 0x00); /* SIZE 0 is not listed: reserved, 2-byte alignment */
	assert_int_equal(p.flags, VPERF_SPE_PKTF_EXT | VPERF_SPE_PKTF_RESERVED);
}

/* SPE 5.1.4: headers of a sized form naming no packet are skipped with their SZ. */
static void test_golden_unknown(void **state)
{
	struct vperf_spe_pkt p;

	(void)state;
	p = DEC(0x40, 0xaa); /* 0b01 00 0000 */
	assert_int_equal(p.kind, VPERF_SPE_PKT_UNKNOWN);
	assert_int_equal(p.size, 1);
	p = DEC(0xbf, 1, 2, 3, 4, 5, 6, 7, 8); /* 0b10 11 1111: neither Address nor Counter */
	assert_int_equal(p.kind, VPERF_SPE_PKT_UNKNOWN);
	assert_int_equal(p.size, 8);
	p = DEC(0x51, 1, 2); /* 0b01 01 0001: Timestamp's low bits with SZ 0b01 */
	assert_int_equal(p.kind, VPERF_SPE_PKT_UNKNOWN);
	p = DEC(0x24, 0xb0, 1, 2, 3, 4, 5, 6, 7, 8); /* prefix bits [4:2] not zero */
	assert_int_equal(p.kind, VPERF_SPE_PKT_UNKNOWN);
	assert_int_equal(p.flags, VPERF_SPE_PKTF_EXT);
	p = DEC(0x20, 0x40, 0x11); /* a 16-bit header of a sized form that is no Address/Counter */
	assert_int_equal(p.kind, VPERF_SPE_PKT_UNKNOWN);
	assert_int_equal(p.size, 1);
}

static void test_malformed(void **state)
{
	static const uint8_t bad1[] = { 0x00, 0x01, 0xc5 };
	static const uint8_t bad2[] = { 0x02 };
	static const uint8_t bad3[] = { 0x00, 0x20 };
	static const uint8_t bad4[] = { 0x20, 0x01 };
	static const uint8_t bad5[] = { 0x30, 0x00 };
	static const uint8_t bad6[] = { 0x01, 0xb0, 1, 2, 3, 4, 5, 6, 7 };
	static const uint8_t bad7[] = { 0x71 };
	static const uint8_t bad8[] = { 0x20, 0xc0 };
	struct vperf_spe_error err;

	(void)state;
	assert_int_equal(dec_err(bad1, 3, 2, &err), VPERF_SPE_E_BAD_HDR);
	assert_int_equal(err.offset, 2);
	assert_int_equal(err.reason, VPERF_SPE_E_BAD_HDR);
	assert_int_equal(dec_err(bad2, 1, 0, &err), VPERF_SPE_E_BAD_HDR);
	assert_int_equal(dec_err(bad3, 2, 1, &err), VPERF_SPE_E_TRUNC_HDR);
	assert_int_equal(err.offset, 1);
	assert_int_equal(dec_err(bad4, 2, 0, &err), VPERF_SPE_E_BAD_EXT_HDR);
	assert_int_equal(dec_err(bad5, 2, 0, &err), VPERF_SPE_E_BAD_EXT_HDR);
	assert_int_equal(dec_err(bad8, 2, 0, &err), VPERF_SPE_E_BAD_EXT_HDR);
	assert_int_equal(dec_err(bad6, sizeof(bad6), 1, &err), VPERF_SPE_E_TRUNC_PAYLOAD);
	assert_int_equal(err.offset, 1);
	assert_int_equal(dec_err(bad7, 1, 0, &err), VPERF_SPE_E_TRUNC_PAYLOAD);
	assert_int_equal(dec_err(bad7, 1, 1, &err), VPERF_SPE_E_ARG);
	assert_int_equal(vperf_spe_pkt_decode(NULL, 1, 0, NULL, NULL), VPERF_SPE_E_ARG);
	for (uint32_t r = 0; r < VPERF_SPE_NREASONS; r++)
		assert_string_not_equal(vperf_spe_reason_str(r), "unknown error");
	assert_string_equal(vperf_spe_reason_str(VPERF_SPE_NREASONS), "unknown error");
}

/* Every first header byte, classified against the SPE 5.2.1 table (Figure 5) counts. */
static void test_header_space_8bit(void **state)
{
	unsigned int count[VPERF_SPE_PKT_NKINDS] = { 0 }, bad = 0, trunc = 0;

	(void)state;
	for (unsigned int h = 0; h < 256; h++) {
		uint8_t b[1] = { (uint8_t)h };
		uint8_t full[9] = { (uint8_t)h, 1, 2, 3, 4, 5, 6, 7, 8 };
		struct vperf_spe_pkt p;
		enum vperf_spe_reason r = vperf_spe_pkt_decode(b, 1, 0, &p, NULL);

		if (r == VPERF_SPE_E_BAD_HDR) {
			bad++;
			assert_true(h >= 0xc0 || (h >= 0x02 && h < 0x20));
			continue;
		}
		if (r == VPERF_SPE_E_TRUNC_HDR) {
			trunc++;
			assert_int_equal(h & 0xe0, 0x20);
			continue;
		}
		if (r == VPERF_SPE_E_TRUNC_PAYLOAD)
			assert_int_equal(vperf_spe_pkt_decode(full, 9, 0, &p, NULL), VPERF_SPE_OK);
		else
			assert_int_equal(r, VPERF_SPE_OK);
		count[p.kind]++;
	}
	assert_int_equal(count[VPERF_SPE_PKT_PAD], 1);
	assert_int_equal(count[VPERF_SPE_PKT_END], 1);
	assert_int_equal(count[VPERF_SPE_PKT_TIMESTAMP], 1);   /* 0x71 only */
	assert_int_equal(count[VPERF_SPE_PKT_EVENTS], 4);      /* 0b01xx0010 */
	assert_int_equal(count[VPERF_SPE_PKT_DATA_SOURCE], 4); /* 0b01xx0011 */
	assert_int_equal(count[VPERF_SPE_PKT_CONTEXT], 4);     /* 0b011001xx */
	assert_int_equal(count[VPERF_SPE_PKT_OP_TYPE], 4);     /* 0b010010xx */
	assert_int_equal(count[VPERF_SPE_PKT_ADDRESS], 8);     /* 0b10110xxx */
	assert_int_equal(count[VPERF_SPE_PKT_COUNTER], 8);     /* 0b10011xxx */
	assert_int_equal(count[VPERF_SPE_PKT_UNKNOWN], 128 - 33);
	assert_int_equal(count[VPERF_SPE_PKT_ALIGN], 0);
	assert_int_equal(trunc, 32);	/* 0b001xxxxx prefixes */
	assert_int_equal(bad, 30 + 64); /* 0x02-0x1f, 0xc0-0xff */
}

/* Every 16-bit header against the SPE 5.2.2 table (Figure 6). */
static void test_header_space_16bit(void **state)
{
	unsigned int addr = 0, cnt = 0, align = 0, unknown = 0, bad = 0;

	(void)state;
	for (unsigned int h0 = 0x20; h0 < 0x40; h0++) {
		for (unsigned int h1 = 0; h1 < 256; h1++) {
			uint8_t b[10] = { (uint8_t)h0, (uint8_t)h1, 1, 2, 3, 4, 5, 6, 7, 8 };
			struct vperf_spe_pkt p;

			if (vperf_spe_pkt_decode(b, sizeof(b), 0, &p, NULL) != VPERF_SPE_OK) {
				bad++;
				continue;
			}
			assert_true(p.flags & VPERF_SPE_PKTF_EXT);
			addr += p.kind == VPERF_SPE_PKT_ADDRESS;
			cnt += p.kind == VPERF_SPE_PKT_COUNTER;
			align += p.kind == VPERF_SPE_PKT_ALIGN;
			unknown += p.kind == VPERF_SPE_PKT_UNKNOWN;
		}
	}
	assert_int_equal(addr, 32);  /* 0b001000xx 0b10110xxx */
	assert_int_equal(cnt, 32);   /* 0b001000xx 0b10011xxx */
	assert_int_equal(align, 16); /* 0b0010xxxx 0x00 */
	/* byte 1 of a sized form: 128 per prefix; minus the 16 Address/Counter in 4 prefixes */
	assert_int_equal(unknown, 32 * 128 - 64);
	/* byte 1 0b00xxxxxx or 0b11xxxxxx: 128 per prefix, minus the 16 Alignment commands */
	assert_int_equal(bad, 32 * 128 - 16);
}

/* Decoding any decodable bytes and encoding the packet gives the same bytes back. */
static void test_bytes_roundtrip(void **state)
{
	(void)state;
	for (unsigned int h = 0; h < 256 * 257; h++) {
		uint8_t in[10] = { (uint8_t)(h & 0xff),
				   (uint8_t)(h >> 8),
				   0x5a,
				   0xa5,
				   0x3c,
				   0xc3,
				   0x0f,
				   0xf0,
				   0x99,
				   0x66 };
		uint8_t out[10] = { 0 };
		struct vperf_spe_pkt p;
		size_t n = 0;

		if (h >= 256 && (in[0] & 0xe0) != 0x20)
			continue; /* byte 1 only matters after a prefix */
		if (vperf_spe_pkt_decode(in, sizeof(in), 0, &p, NULL) != VPERF_SPE_OK)
			continue;
		if (p.kind == VPERF_SPE_PKT_ALIGN && p.index >= 3)
			continue; /* 16 bytes or more: clipped by this 10-byte buffer */
		if (p.kind == VPERF_SPE_PKT_ALIGN)
			memset(in + 2, 0, sizeof(in) - 2); /* skipped bytes come back as zero */
		assert_int_equal(vperf_spe_pkt_encode(&p, out, sizeof(out), 0, &n), VPERF_OK);
		assert_int_equal(n, p.len);
		assert_memory_equal(in, out, n);
	}
}

static void check_pkt_roundtrip(uint8_t kind, uint8_t index, uint8_t size, uint8_t flags,
				uint64_t payload)
{
	struct vperf_spe_pkt p = { .kind = kind, .index = index, .size = size, .flags = flags };
	struct vperf_spe_pkt q;
	uint8_t buf[16];
	size_t n = 0;

	p.payload = size >= 8 ? payload : payload & ((1ull << (size * 8)) - 1);
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_OK);
	assert_int_equal(vperf_spe_pkt_decode(buf, n, 0, &q, NULL), VPERF_SPE_OK);
	assert_int_equal(q.len, n);
	assert_int_equal(q.kind, kind);
	assert_int_equal(q.index, index);
	assert_int_equal(q.size, size);
	assert_int_equal(q.flags & VPERF_SPE_PKTF_EXT, flags & VPERF_SPE_PKTF_EXT);
	assert_true(q.payload == p.payload);
}

static const uint64_t patterns[] = {
	0,
	~0ull,
	0x0123456789abcdefull,
	0xfedcba9876543210ull,
	0x8000000000000001ull,
	0x00ff00ff00ff00ffull,
	0x5555555555555555ull,
	0xaaaaaaaaaaaaaaaaull,
};

/* Packet struct -> bytes -> packet struct, every kind, index and size. */
static void test_struct_roundtrip(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		uint64_t v = patterns[i];

		for (uint8_t idx = 0; idx < 32; idx++) {
			check_pkt_roundtrip(VPERF_SPE_PKT_ADDRESS, idx, 8, VPERF_SPE_PKTF_EXT, v);
			check_pkt_roundtrip(VPERF_SPE_PKT_COUNTER, idx, 2, VPERF_SPE_PKTF_EXT, v);
			if (idx < 8) {
				check_pkt_roundtrip(VPERF_SPE_PKT_ADDRESS, idx, 8, 0, v);
				check_pkt_roundtrip(VPERF_SPE_PKT_COUNTER, idx, 2, 0, v);
			}
			if (idx < 4) {
				check_pkt_roundtrip(VPERF_SPE_PKT_CONTEXT, idx, 4, 0, v);
				check_pkt_roundtrip(VPERF_SPE_PKT_OP_TYPE, idx, 1, 0, v);
			}
		}
		for (uint8_t size = 1; size <= 8; size *= 2) {
			check_pkt_roundtrip(VPERF_SPE_PKT_EVENTS, 0, size, 0, v);
			check_pkt_roundtrip(VPERF_SPE_PKT_DATA_SOURCE, 0, size, 0, v);
		}
		check_pkt_roundtrip(VPERF_SPE_PKT_TIMESTAMP, 0, 8, 0, v);
	}
	check_pkt_roundtrip(VPERF_SPE_PKT_PAD, 0, 0, 0, 0);
	check_pkt_roundtrip(VPERF_SPE_PKT_END, 0, 0, 0, 0);
}

/* Alignment commands at every SIZE and a range of offsets land on the aligned byte. */
static void test_align_roundtrip(void **state)
{
	static uint8_t buf[(1u << 16) + 16];

	(void)state;
	for (uint8_t s = 0; s < 16; s++) {
		for (size_t off = 0; off < 9; off++) {
			struct vperf_spe_pkt p = { .kind = VPERF_SPE_PKT_ALIGN,
						   .index = s,
						   .flags = VPERF_SPE_PKTF_EXT };
			struct vperf_spe_pkt q;
			size_t n = 0, a = (size_t)2 << s;

			assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), off, &n),
					 VPERF_OK);
			assert_int_equal((off + n) % a, 0);
			assert_true(n - 2 < a);
			assert_int_equal(vperf_spe_pkt_decode(buf, off + n, off, &q, NULL),
					 VPERF_SPE_OK);
			assert_int_equal(q.kind, VPERF_SPE_PKT_ALIGN);
			assert_int_equal(q.index, s);
			assert_int_equal(q.len, n);
		}
	}
}

/* Every 16-bit counter value, in both header formats. */
static void test_counter_all_values(void **state)
{
	(void)state;
	for (uint32_t v = 0; v <= 0xffff; v++) {
		check_pkt_roundtrip(VPERF_SPE_PKT_COUNTER, VPERF_SPE_CNT_TOTAL, 2, 0, v);
		check_pkt_roundtrip(VPERF_SPE_PKT_COUNTER, 17, 2, VPERF_SPE_PKTF_EXT, v);
	}
}

static void test_encode_rejects(void **state)
{
	uint8_t buf[16];
	size_t n = 0;
	struct vperf_spe_pkt p = { .kind = VPERF_SPE_PKT_ADDRESS, .index = 8, .size = 8 };

	(void)state;
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_EINVAL);
	p.flags = VPERF_SPE_PKTF_EXT;
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_OK);
	assert_int_equal(n, 10);
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, 9, 0, &n), VPERF_ENOSPC);
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 7, &n), VPERF_ENOSPC);
	p.index = 32;
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_EINVAL);
	p = (struct vperf_spe_pkt){ .kind = VPERF_SPE_PKT_COUNTER, .size = 4 };
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_EINVAL);
	p = (struct vperf_spe_pkt){ .kind = VPERF_SPE_PKT_COUNTER, .size = 2, .payload = 0x10000 };
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_EINVAL);
	p = (struct vperf_spe_pkt){ .kind = VPERF_SPE_PKT_EVENTS, .size = 3 };
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_EINVAL);
	p = (struct vperf_spe_pkt){ .kind = VPERF_SPE_PKT_CONTEXT, .index = 4, .size = 4 };
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_EINVAL);
	/* UNKNOWN must carry a header that really is unknown, with its size */
	p = (struct vperf_spe_pkt){ .kind = VPERF_SPE_PKT_UNKNOWN, .hdr0 = 0xb0, .size = 8 };
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_EINVAL);
	p = (struct vperf_spe_pkt){ .kind = VPERF_SPE_PKT_UNKNOWN, .hdr0 = 0x40, .size = 2 };
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_EINVAL);
	p.size = 1;
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_OK);
	assert_int_equal(n, 2);
	p = (struct vperf_spe_pkt){ .kind = VPERF_SPE_PKT_NKINDS };
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_EINVAL);
	p = (struct vperf_spe_pkt){ .kind = VPERF_SPE_PKT_ALIGN,
				    .index = 15,
				    .flags = VPERF_SPE_PKTF_EXT };
	assert_int_equal(vperf_spe_pkt_encode(&p, buf, sizeof(buf), 0, &n), VPERF_ENOSPC);
}

/* Resync (spe_pkt.h): after the next End, or after the next Timestamp with its payload. */
static void test_resync(void **state)
{
	static const uint8_t b[] = { 0xc5, 0x42, 0x71, 1, 2, 3, 4, 5, 6, 7, 8, 0x01, 0x49 };
	static const uint8_t e[] = { 0xc5, 0x49, 0x01, 0x71, 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t t[] = { 0xc5, 0x71, 5, 6, 7, 0x01, 9 };
	static const uint8_t z[] = { 0xc5, 0x02, 0x03 };

	(void)state;
	assert_int_equal(vperf_spe_resync(b, sizeof(b), 0), 11);
	assert_int_equal(vperf_spe_resync(e, sizeof(e), 0), 3);
	/* a Timestamp header without its 8 bytes inside the buffer is no boundary */
	assert_int_equal(vperf_spe_resync(t, sizeof(t), 0), 6);
	assert_int_equal(vperf_spe_resync(z, sizeof(z), 0), 3);
	/* the malformed byte itself is never the boundary */
	assert_int_equal(vperf_spe_resync(e, sizeof(e), 2), 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_framing),
		cmocka_unit_test(test_golden_address_pc),
		cmocka_unit_test(test_golden_address_data),
		cmocka_unit_test(test_golden_address_index),
		cmocka_unit_test(test_golden_counter),
		cmocka_unit_test(test_golden_context_dsrc),
		cmocka_unit_test(test_golden_events),
		cmocka_unit_test(test_golden_alignment),
		cmocka_unit_test(test_golden_unknown),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_header_space_8bit),
		cmocka_unit_test(test_header_space_16bit),
		cmocka_unit_test(test_bytes_roundtrip),
		cmocka_unit_test(test_struct_roundtrip),
		cmocka_unit_test(test_align_roundtrip),
		cmocka_unit_test(test_counter_all_values),
		cmocka_unit_test(test_encode_rejects),
		cmocka_unit_test(test_resync),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
