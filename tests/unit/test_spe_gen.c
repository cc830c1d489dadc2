// SPDX-License-Identifier: MIT
/*
 * spe-gen: write a raw SPE buffer of N records with the encoder (vperf_spe_rec_encode), for the
 * vperf-spe CLI test. Record i: PC 0x400000 + 4 * i at EL0; i % 4 == 0 load (VA, PA, latencies,
 * Timestamp i), 1 store (End), 2 conditional branch (target, End), 3 other with an IMPDEF counter
 * (Timestamp i). Padding after every 5th record, an Alignment command after every 7th.
 * usage: spe-gen FILE N
 */
#include <stdio.h>
#include <stdlib.h>

#include <vperf/spe_rec.h>

static void fill(struct vperf_spe_record *r, unsigned int i)
{
	vperf_spe_rec_clear(r);
	r->have = (uint32_t)(VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_PC) | VPERF_SPE_HAVE_OP |
			     VPERF_SPE_HAVE_EVENTS | VPERF_SPE_HAVE_CNT(VPERF_SPE_CNT_TOTAL));
	r->addr[0] = (struct vperf_spe_addr){ .addr = 0x400000 + 4ull * i, .ns = 1 };
	r->events = VPERF_BIT(VPERF_SPE_EV_RETIRED);
	r->events_size = 2;
	r->cnt[VPERF_SPE_CNT_TOTAL] = (uint16_t)(i % 100);
	switch (i % 4) {
	case 0:
	case 1:
		vperf_spe_op_unpack(VPERF_SPE_CLASS_LDST, (uint8_t)(i % 4), &r->op);
		r->have |= (uint32_t)(VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_DATA_VA) |
				      VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_DATA_PA));
		r->addr[2] =
			(struct vperf_spe_addr){ .index = 2, .addr = 0x10000 + 64ull * (i % 8) };
		r->addr[3] =
			(struct vperf_spe_addr){ .index = 3, .addr = 0x80000000ull + i, .ns = 1 };
		r->events |= VPERF_BIT(VPERF_SPE_EV_L1D_ACCESS);
		break;
	case 2:
		vperf_spe_op_unpack(VPERF_SPE_CLASS_BRANCH, 0x01, &r->op);
		r->have |= (uint32_t)VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_BR_TGT);
		r->addr[1] = (struct vperf_spe_addr){ .index = 1, .addr = 0x500000, .ns = 1 };
		r->events |= VPERF_BIT(VPERF_SPE_EV_MISPRED);
		break;
	default:
		vperf_spe_op_unpack(VPERF_SPE_CLASS_OTHER, 0x00, &r->op);
		r->opaque[0] = (struct vperf_spe_pkt){ .kind = VPERF_SPE_PKT_COUNTER,
						       .index = 6,
						       .size = 2,
						       .flags = VPERF_SPE_PKTF_IMPDEF,
						       .payload = i & 0xffff };
		r->nopaque = 1;
		break;
	}
	if (i % 4 == 0 || i % 4 == 3) {
		r->have |= (uint32_t)VPERF_SPE_HAVE_TS;
		r->timestamp = i;
	}
}

static int put_framing(uint8_t *buf, size_t cap, size_t *off, unsigned int i)
{
	struct vperf_spe_pkt pad = { .kind = VPERF_SPE_PKT_PAD };
	struct vperf_spe_pkt align = { .kind = VPERF_SPE_PKT_ALIGN,
				       .index = 3,
				       .flags = VPERF_SPE_PKTF_EXT };
	size_t n = 0;

	if (i % 5 == 4) {
		if (vperf_spe_pkt_encode(&pad, buf, cap, *off, &n))
			return -1;
		*off += n;
	}
	if (i % 7 == 6) {
		if (vperf_spe_pkt_encode(&align, buf, cap, *off, &n))
			return -1;
		*off += n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long count = argc == 3 ? strtoul(argv[2], NULL, 0) : 0;
	size_t cap = 128 * (count + 1), off = 0, n = 0;
	uint8_t *buf = malloc(cap);
	struct vperf_spe_record rec;
	FILE *f;

	if (argc != 3 || !count || count > 1000000 || !buf) {
		fprintf(stderr, "usage: spe-gen FILE N (1 <= N <= 1000000)\n");
		return 2;
	}
	for (unsigned int i = 0; i < count; i++) {
		fill(&rec, i);
		if (vperf_spe_rec_encode(&rec, buf, cap, off, &n)) {
			fprintf(stderr, "spe-gen: encoding record %u failed\n", i);
			return 1;
		}
		off += n;
		if (put_framing(buf, cap, &off, i)) {
			fprintf(stderr, "spe-gen: encoding framing after record %u failed\n", i);
			return 1;
		}
	}
	f = fopen(argv[1], "wb");
	if (!f || fwrite(buf, 1, off, f) != off || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	free(buf);
	return 0;
}
