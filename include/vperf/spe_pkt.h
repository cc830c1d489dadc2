/* SPDX-License-Identifier: MIT */
/*
 * SPE packet codec: one Statistical Profiling Extension packet <-> one struct vperf_spe_pkt.
 * Freestanding (no libc, no allocation): used by the model, the arm64 library and host tools.
 *
 * Sources: Arm DDI 0487 K.a, D18.2 (every packet) and the SPE supplement section 5 (profile format;
 * its SPE 5.2 tables give the header encodings, SPE 5.3.2 the Alignment command that D18.2 no
 * longer lists).
 *
 * Grammar accepted by vperf_spe_pkt_decode() (SPE 5.1.1, SPE 5.2):
 *   0x00                       Padding (D18.2.8)
 *   0x01                       End (D18.2.5)
 *   0b001xxxxx B1              16-bit header: B1 == 0x00 with byte 0 = 0b0010SSSS is an Alignment
 *                              command (SPE 5.3.2); B1 = 0b01xxxxxx or 0b10xxxxxx is a packet whose
 *                              payload size is 1 << B1[5:4] (Address, Counter, or unknown)
 *   0b01xxxxxx, 0b10xxxxxx     8-bit header, payload of 1 << SZ bytes, SZ = header bits [5:4]
 * Any other header byte (0x02-0x1f, 0xc0-0xff, a prefix followed by 0b00xxxxxx other than an
 * Alignment command, or 0b11xxxxxx) has no size rule and is malformed. A header of a valid form
 * that names no packet of SPE 5.2.1/SPE 5.2.2 decodes as VPERF_SPE_PKT_UNKNOWN: "software must
 * ignore unknown packets, using the size field that is encoded in the header" (SPE 5.1.4). A known
 * packet with a reserved value in a field decodes with VPERF_SPE_PKTF_RESERVED set (same rule).
 *
 * All multi-byte payloads are little-endian (SPE 5.1.3). The decoder reads only buf[off..len).
 */
#ifndef VPERF_SPE_PKT_H
#define VPERF_SPE_PKT_H

#include <vperf/types.h>

enum vperf_spe_pkt_kind {
	VPERF_SPE_PKT_PAD,	   /* D18.2.8 Padding, 0x00 */
	VPERF_SPE_PKT_END,	   /* D18.2.5 End, 0x01 */
	VPERF_SPE_PKT_TIMESTAMP,   /* D18.2.9, 0x71 + 8 bytes */
	VPERF_SPE_PKT_ADDRESS,	   /* D18.2.1, index = INDEX (0-31) */
	VPERF_SPE_PKT_COUNTER,	   /* D18.2.3, index = INDEX (0-31) */
	VPERF_SPE_PKT_CONTEXT,	   /* D18.2.2, index = INDEX (0-3) */
	VPERF_SPE_PKT_OP_TYPE,	   /* D18.2.7, index = CLASS (0-3) */
	VPERF_SPE_PKT_EVENTS,	   /* D18.2.6, 1, 2, 4 or 8 payload bytes */
	VPERF_SPE_PKT_DATA_SOURCE, /* D18.2.4, 1 or 2 payload bytes (4, 8: reserved SZ) */
	VPERF_SPE_PKT_ALIGN,	   /* SPE 5.3.2 Alignment command, index = SIZE */
	VPERF_SPE_PKT_UNKNOWN, /* sized header naming no packet (SPE 5.1.4): hdr0/hdr1 verbatim */
	VPERF_SPE_PKT_NKINDS,
};

/* vperf_spe_pkt.flags */
#define VPERF_SPE_PKTF_EXT	VPERF_BIT(0) /* 16-bit (extended) header */
#define VPERF_SPE_PKTF_IMPDEF	VPERF_BIT(1) /* IMPLEMENTATION DEFINED index: opaque payload */
#define VPERF_SPE_PKTF_RESERVED VPERF_BIT(2) /* a reserved field value: software ignores it */

/* Address packet INDEX values (D18.2.1). 6-7 (0b0011x) and 16-31 (0b1xxxx) are IMPDEF. */
enum vperf_spe_addr_index {
	VPERF_SPE_ADDR_PC = 0,	    /* instruction virtual address */
	VPERF_SPE_ADDR_BR_TGT = 1,  /* branch target address */
	VPERF_SPE_ADDR_DATA_VA = 2, /* data access virtual address */
	VPERF_SPE_ADDR_DATA_PA = 3, /* data access physical address */
	VPERF_SPE_ADDR_PREV_BR = 4, /* previous branch target (FEAT_SPE_PBT) */
	VPERF_SPE_ADDR_NDEF = 5,
};

/* Counter packet INDEX values (D18.2.3). 6-7 and 16-31 are IMPDEF; 3, 5, 8-15 reserved. */
enum vperf_spe_cnt_index {
	VPERF_SPE_CNT_TOTAL = 0,     /* total latency */
	VPERF_SPE_CNT_ISSUE = 1,     /* issue latency */
	VPERF_SPE_CNT_XLAT = 2,	     /* translation latency */
	VPERF_SPE_CNT_ALT_ISSUE = 4, /* alternate clock issue latency (PMSIDR_EL1.ALTCLK) */
	VPERF_SPE_CNT_NDEF = 5,
};

/* Context packet INDEX values (D18.2.2); 2-3 reserved. */
enum vperf_spe_ctx_index {
	VPERF_SPE_CTX_EL1 = 0, /* CONTEXTIDR_EL1 */
	VPERF_SPE_CTX_EL2 = 1, /* CONTEXTIDR_EL2 */
};

/* Operation Type CLASS values (D18.2.7); 3 reserved. */
enum vperf_spe_op_class {
	VPERF_SPE_CLASS_OTHER = 0,
	VPERF_SPE_CLASS_LDST = 1,
	VPERF_SPE_CLASS_BRANCH = 2,
};

/* Events packet bits (D18.2.6, SPE 5.3.7). */
enum vperf_spe_event {
	VPERF_SPE_EV_EXCEPTION = 0,  /* generated exception */
	VPERF_SPE_EV_RETIRED = 1,    /* architecturally retired */
	VPERF_SPE_EV_L1D_ACCESS = 2, /* level 1 data cache access */
	VPERF_SPE_EV_L1D_REFILL = 3, /* level 1 data cache refill or miss */
	VPERF_SPE_EV_TLB_ACCESS = 4, /* TLB access */
	VPERF_SPE_EV_TLB_WALK = 5,   /* TLB walk */
	VPERF_SPE_EV_NOT_TAKEN = 6,  /* failed its condition code check */
	VPERF_SPE_EV_MISPRED = 7,    /* mispredicted branch */
	VPERF_SPE_EV_LLC_ACCESS = 8, /* last level cache access */
	VPERF_SPE_EV_LLC_MISS = 9,   /* last level cache miss */
	VPERF_SPE_EV_REMOTE = 10,    /* remote (other socket) access */
	VPERF_SPE_EV_ALIGNMENT = 11, /* misalignment (FEAT_SPEv1p1) */
	/* 12-15 IMPLEMENTATION DEFINED */
	VPERF_SPE_EV_TRANSACTIONAL = 16, /* transactional (reads-as-zero in current ARM ARM) */
	VPERF_SPE_EV_PARTIAL_PRED = 17,	 /* partial or empty predicate */
	VPERF_SPE_EV_EMPTY_PRED = 18,	 /* empty predicate */
	VPERF_SPE_EV_L2D_ACCESS = 19,	 /* level 2 data cache access (FEAT_SPEv1p4) */
	VPERF_SPE_EV_L2D_MISS = 20,	 /* level 2 data cache miss */
	VPERF_SPE_EV_CACHE_HITM = 21,	 /* cache data modified */
	VPERF_SPE_EV_RECENT_FETCH = 22,	 /* recently fetched */
	VPERF_SPE_EV_SNOOPED = 23,	 /* data snooped */
	VPERF_SPE_EV_STREAMING = 24,	 /* Streaming SVE mode (FEAT_SPE_SME) */
	VPERF_SPE_EV_SMCU = 25,		 /* SMCU or external coprocessor operation */
	/* 26-31 IMPDEF without FEAT_SPEv1p4, 32-47 reads-as-zero, 48-63 IMPDEF */
};
#define VPERF_SPE_EV_IMPDEF_MASK \
	(VPERF_GENMASK(15, 12) | VPERF_GENMASK(31, 26) | VPERF_GENMASK(63, 48))

/*
 * A decoded packet. The encoder uses kind, flags & EXT, index, size and payload (and hdr0/hdr1
 * for UNKNOWN only). An Alignment command whose target lies past the end of the buffer is not an
 * error: its len stops at the end of the buffer (nothing follows it there).
 */
struct vperf_spe_pkt {
	uint8_t kind;	  /* enum vperf_spe_pkt_kind */
	uint8_t index;	  /* INDEX (address, counter, context), CLASS (op type), SIZE (align) */
	uint8_t size;	  /* payload bytes: 0, 1, 2, 4 or 8 */
	uint8_t hdr0;	  /* first header byte (the prefix when EXT) */
	uint8_t hdr1;	  /* second header byte when EXT, else 0 */
	uint8_t flags;	  /* VPERF_SPE_PKTF_* */
	uint32_t len;	  /* bytes taken: header + payload (+ skipped bytes of an Alignment) */
	size_t offset;	  /* where the packet starts in the buffer */
	uint64_t payload; /* raw little-endian payload, zero-extended */
};

/* Why a buffer is malformed. vperf_spe_reason_str() gives a static string for each. */
enum vperf_spe_reason {
	VPERF_SPE_OK = 0,
	VPERF_SPE_E_BAD_HDR,	   /* byte 0 has no encoding in SPE 5.2.1/SPE 5.2.2 */
	VPERF_SPE_E_BAD_EXT_HDR,   /* byte 1 of a 16-bit header has none */
	VPERF_SPE_E_TRUNC_HDR,	   /* the buffer ends inside a 16-bit header */
	VPERF_SPE_E_TRUNC_PAYLOAD, /* the buffer ends inside a payload */
	VPERF_SPE_E_TRUNC_RECORD,  /* the buffer ends inside a record (no End or Timestamp) */
	VPERF_SPE_E_ARG,	   /* bad arguments (NULL pointer, offset past the end) */
	VPERF_SPE_NREASONS,
};

struct vperf_spe_error {
	size_t offset;	 /* first byte of the malformed packet (record, for TRUNC_RECORD) */
	size_t resync;	 /* where decoding resumes: vperf_spe_resume() (spe_rec.h) */
	uint32_t reason; /* enum vperf_spe_reason */
};

/*
 * Decode the packet starting at buf[off] (buf[0..len) is the whole buffer; the offset matters
 * for Alignment commands, which align relative to buf[0]). On success fill *pkt and return
 * VPERF_SPE_OK; otherwise return the reason and, if err is not NULL, fill err->offset/reason.
 */
enum vperf_spe_reason vperf_spe_pkt_decode(const uint8_t *buf, size_t len, size_t off,
					   struct vperf_spe_pkt *pkt, struct vperf_spe_error *err);

/*
 * Encode *pkt at buf[off], buf[0..cap) being the buffer. *out_len gets the bytes written.
 * VPERF_EINVAL when the packet cannot be encoded (a size the kind does not allow, an index that
 * does not fit a short header without EXT, a payload wider than size), VPERF_ENOSPC when it does
 * not fit. An Alignment command's skipped bytes are written as zero.
 */
enum vperf_err vperf_spe_pkt_encode(const struct vperf_spe_pkt *pkt, uint8_t *buf, size_t cap,
				    size_t off, size_t *out_len);

/*
 * Resynchronization after a malformed packet at offset bad (documented in docs/vperf-spe.md):
 * the first offset p > bad holding 0x01 (End) resumes at p + 1; the first p > bad holding 0x71
 * (Timestamp header) with its 8 payload bytes inside the buffer resumes at p + 9; whichever
 * comes first. With neither, decoding stops at len.
 */
size_t vperf_spe_resync(const uint8_t *buf, size_t len, size_t bad);

/* Typed views. unpack(pack(x)) == x and pack(unpack(p)) == p for every value (lossless). */

/* Address payload (D18.2.1). Fields a given INDEX does not define stay zero. */
struct vperf_spe_addr {
	uint64_t addr; /* ADDR, bits [55:0] */
	uint8_t index; /* INDEX */
	uint8_t ns;    /* NS: PC, branch target, previous branch target, data PA */
	uint8_t el;    /* EL: PC, branch target, previous branch target */
	uint8_t nse;   /* NSE (FEAT_RME): PC, branch targets, data PA */
	uint8_t tag;   /* TAG: data VA (byte 7) */
	uint8_t ch;    /* CH, tag checked (FEAT_MTE2): data PA */
	uint8_t pat;   /* PAT, physical address tag (FEAT_MTE2): data PA */
	uint8_t rsvd;  /* byte 7 bits no field covers (RAZ); all of byte 7 for other indices */
};
void vperf_spe_addr_unpack(uint8_t index, uint64_t payload, struct vperf_spe_addr *a);
uint64_t vperf_spe_addr_pack(const struct vperf_spe_addr *a);
/* The 64-bit address a tool shows: VAs sign-extended from bit 55 (a tagged VA keeps its tag). */
uint64_t vperf_spe_addr_value(const struct vperf_spe_addr *a);
/* True when NSE:NS holds the reserved value 0b10 (PC, branch targets, data PA). */
bool vperf_spe_addr_reserved(const struct vperf_spe_addr *a);

/* Operation Type payload types (D18.2.7). */
enum vperf_spe_op_type {
	VPERF_SPE_OP_RESERVED,	     /* CLASS 3, or a SUBCLASS no table defines */
	VPERF_SPE_OP_OTHER,	     /* other operation: ASE, FP, COND */
	VPERF_SPE_OP_SVE,	     /* data processing, SVE vector: EVL, PRED, FP */
	VPERF_SPE_OP_SME,	     /* data processing, SME array: ETS, FP */
	VPERF_SPE_OP_LDST_GP,	     /* general-purpose registers: LDST */
	VPERF_SPE_OP_LDST_SIMD_FP,   /* SIMD&FP registers: LDST */
	VPERF_SPE_OP_LDST_UNSPEC,    /* unspecified registers (FEAT_SPEv1p1): LDST */
	VPERF_SPE_OP_LDST_TAG,	     /* Allocation Tag(s) (MTE): LDST */
	VPERF_SPE_OP_LDST_NV_SYSREG, /* MRS/MSR transformed by HCR_EL2.NV2: LDST */
	VPERF_SPE_OP_LDST_EXT,	     /* atomic, acquire/release, exclusive: AR, EXCL, AT, LDST */
	VPERF_SPE_OP_LDST_SVE,	     /* SVE or SME registers: SG, EVL, PRED, LDST */
	VPERF_SPE_OP_LDST_MEMCPY,    /* Memory Copy (FEAT_MOPS): LDST */
	VPERF_SPE_OP_LDST_MEMSET,    /* Memory Set (FEAT_MOPS), always a store */
	VPERF_SPE_OP_LDST_GCS,	     /* GCS (FEAT_GCS): COMM, LDST */
	VPERF_SPE_OP_BRANCH,	     /* branch or exception return: CR, GCS, IND, COND */
	VPERF_SPE_OP_NTYPES,
};

/* vperf_spe_op.flags: the one-bit fields. Which ones a type has is listed above. */
#define VPERF_SPE_OPF_ST   VPERF_BIT(0)	 /* LDST: store, not load */
#define VPERF_SPE_OPF_COND VPERF_BIT(1)	 /* COND: conditional */
#define VPERF_SPE_OPF_FP   VPERF_BIT(2)	 /* FP: floating-point */
#define VPERF_SPE_OPF_ASE  VPERF_BIT(3)	 /* ASE: Advanced SIMD */
#define VPERF_SPE_OPF_PRED VPERF_BIT(4)	 /* PRED: predicated */
#define VPERF_SPE_OPF_SG   VPERF_BIT(5)	 /* SG: gather/scatter */
#define VPERF_SPE_OPF_AR   VPERF_BIT(6)	 /* AR: acquire/release */
#define VPERF_SPE_OPF_EXCL VPERF_BIT(7)	 /* EXCL: exclusive */
#define VPERF_SPE_OPF_AT   VPERF_BIT(8)	 /* AT: atomic */
#define VPERF_SPE_OPF_IND  VPERF_BIT(9)	 /* IND: indirect branch */
#define VPERF_SPE_OPF_GCS  VPERF_BIT(10) /* GCS: branch made a GCS data access */
#define VPERF_SPE_OPF_COMM VPERF_BIT(11) /* COMM: GCS access not from BL/RET */

struct vperf_spe_op {
	uint8_t cls;	/* CLASS (header bits [1:0]) */
	uint8_t type;	/* enum vperf_spe_op_type */
	uint8_t evl;	/* EVL, bits [6:4] (SVE, LDST_SVE): 32 << evl bits */
	uint8_t ets;	/* ETS, bits [6:4,2] (SME): 128 << ets bits, 0b1111 whole ZA */
	uint8_t cr;	/* CR, bits [4:3] (BRANCH): 1 BL, 2 RET, 3 neither, 0 not recorded */
	uint8_t raw;	/* the payload byte (what pack() returns for RESERVED) */
	uint16_t flags; /* VPERF_SPE_OPF_* */
};
void vperf_spe_op_unpack(uint8_t cls, uint8_t payload, struct vperf_spe_op *op);
uint8_t vperf_spe_op_pack(const struct vperf_spe_op *op);
/* True for a reserved SUBCLASS or CLASS, or an SME ETS of 0b1100-0b1110. */
bool vperf_spe_op_reserved(const struct vperf_spe_op *op);
/* Bits of vperf_spe_op.flags that a type defines (0 for RESERVED; MEMSET always has ST). */
uint16_t vperf_spe_op_flags_for(uint8_t type);

/* Names (static strings; "?" or NULL where noted). */
const char *vperf_spe_reason_str(uint32_t reason);
const char *vperf_spe_kind_name(uint32_t kind);
const char *vperf_spe_op_type_name(uint32_t type);
const char *vperf_spe_addr_index_name(uint32_t index); /* "impdef", "reserved" otherwise */
const char *vperf_spe_cnt_index_name(uint32_t index);  /* "impdef", "reserved" otherwise */
const char *vperf_spe_event_name(uint32_t bit);	       /* NULL for IMPDEF and RAZ bits */

/* Index classification shared by decoder, record layer and tools. */
bool vperf_spe_addr_index_impdef(uint32_t index);
bool vperf_spe_addr_index_defined(uint32_t index);
bool vperf_spe_cnt_index_impdef(uint32_t index);
bool vperf_spe_cnt_index_defined(uint32_t index);

#endif /* VPERF_SPE_PKT_H */
