/* SPDX-License-Identifier: MIT */
/*
 * SPE sample records on top of the packet codec (vperf/spe_pkt.h). Freestanding, no allocation.
 *
 * A sample record is the sequence of packets that ends with an End packet or a Timestamp packet
 * (SPE 5.1.2; Arm DDI 0487 K.a, D18.2.5, D18.2.9). Padding and Alignment commands may sit between
 * records (SPE 5.1.4) and are skipped wherever they appear. The iterator collects each record's
 * packets into one typed struct; IMPLEMENTATION DEFINED packets, packets with reserved field
 * values and unknown packets are kept opaque (SPE 5.1.4: software ignores them).
 *
 * Malformed input (vperf_spe_pkt_decode() failed, or the buffer ends inside a record) is reported
 * with its offset and reason; the partial record is dropped and the iterator resynchronizes:
 * after a truncated packet or record it stops (everything left belongs to the cut packet),
 * otherwise it resumes at vperf_spe_resync() (after the next End, or after the next Timestamp).
 */
#ifndef VPERF_SPE_REC_H
#define VPERF_SPE_REC_H

#include <vperf/spe_pkt.h>

#define VPERF_SPE_REC_MAX_OPAQUE 8

/* vperf_spe_record.have: which fields hold a value from the record. */
#define VPERF_SPE_HAVE_ADDR(i) VPERF_BIT(i)	   /* Address INDEX i < VPERF_SPE_ADDR_NDEF */
#define VPERF_SPE_HAVE_CNT(i)  VPERF_BIT(8 + (i))  /* Counter INDEX i < VPERF_SPE_CNT_NDEF */
#define VPERF_SPE_HAVE_CTX(i)  VPERF_BIT(16 + (i)) /* Context INDEX 0 (EL1) or 1 (EL2) */
#define VPERF_SPE_HAVE_EVENTS  VPERF_BIT(20)
#define VPERF_SPE_HAVE_OP      VPERF_BIT(21)
#define VPERF_SPE_HAVE_DSRC    VPERF_BIT(22)
#define VPERF_SPE_HAVE_TS      VPERF_BIT(23) /* ended with a Timestamp packet (else with End) */

struct vperf_spe_record {
	size_t offset;	     /* first byte of the record's first packet */
	size_t len;	     /* bytes up to and including the End or Timestamp packet */
	uint32_t have;	     /* VPERF_SPE_HAVE_* */
	uint16_t npkts;	     /* packets, Padding and Alignment excluded, End/Timestamp included */
	uint16_t ndup;	     /* packets that repeated a field already set (the last one wins) */
	uint16_t nopaque;    /* opaque packets; the first VPERF_SPE_REC_MAX_OPAQUE are kept */
	uint8_t events_size; /* Events payload bytes (bits beyond it are not output: zero) */
	uint8_t dsrc_size;   /* Data Source payload bytes */
	uint64_t events;     /* D18.2.6 E[63:0] */
	uint64_t timestamp;  /* D18.2.9 TS */
	uint32_t ctx[2];     /* D18.2.2 CONTEXTIDR_EL1, CONTEXTIDR_EL2 */
	uint16_t cnt[VPERF_SPE_CNT_NDEF]; /* D18.2.3 COUNT by INDEX (3 is reserved, never set) */
	uint16_t dsrc;			  /* D18.2.4 SOURCE (IMPLEMENTATION DEFINED meaning) */
	struct vperf_spe_op op;		  /* D18.2.7 */
	struct vperf_spe_addr addr[VPERF_SPE_ADDR_NDEF]; /* D18.2.1 by INDEX */
	struct vperf_spe_pkt opaque[VPERF_SPE_REC_MAX_OPAQUE];
};

struct vperf_spe_iter {
	const uint8_t *buf;
	size_t len;
	size_t off;	   /* next byte to decode */
	uint32_t nrecords; /* records returned */
	uint32_t nerrors;  /* malformed spots reported */
	size_t nskipped;   /* bytes skipped by resynchronization */
};

enum vperf_spe_next {
	VPERF_SPE_DONE = 0,	 /* nothing but Padding/Alignment left */
	VPERF_SPE_RECORD = 1,	 /* *rec holds the next record */
	VPERF_SPE_MALFORMED = 2, /* *err says where and why; the iterator already resynchronized */
};

void vperf_spe_iter_init(struct vperf_spe_iter *it, const uint8_t *buf, size_t len);
enum vperf_spe_next vperf_spe_next_record(struct vperf_spe_iter *it, struct vperf_spe_record *rec,
					  struct vperf_spe_error *err);

/* Building blocks of the iterator, for callers that walk packets themselves. */
/* Where decoding resumes after err: the end of the buffer after a truncation (everything left
 * belongs to the cut packet or record), vperf_spe_resync() otherwise. */
size_t vperf_spe_resume(const uint8_t *buf, size_t len, const struct vperf_spe_error *err);
void vperf_spe_rec_clear(struct vperf_spe_record *rec);
/* Fold one packet (not Padding/Alignment/End/Timestamp) into rec. */
void vperf_spe_rec_add(struct vperf_spe_record *rec, const struct vperf_spe_pkt *pkt);

/*
 * Write rec as packets at buf[off] (buf[0..cap)): Context, PC, Operation Type, Events, Counters,
 * the other Addresses, Data Source, the kept opaque packets (at most VPERF_SPE_REC_MAX_OPAQUE),
 * then Timestamp (HAVE_TS) or End.
 * *out_len gets the bytes written. VPERF_ENOSPC when it does not fit.
 */
enum vperf_err vperf_spe_rec_encode(const struct vperf_spe_record *rec, uint8_t *buf, size_t cap,
				    size_t off, size_t *out_len);

/* Same content: have, every present field, the kept opaque packets (not offset/len/counts). */
bool vperf_spe_rec_equal(const struct vperf_spe_record *a, const struct vperf_spe_record *b);

#endif /* VPERF_SPE_REC_H */
