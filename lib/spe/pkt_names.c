// SPDX-License-Identifier: MIT
/* Static names for SPE packet kinds, indices, events, operation types and errors. */
#include "spe_internal.h"

static const char *pick(const char *const *names, size_t n, uint32_t i, const char *dflt)
{
	return i < n && names[i] ? names[i] : dflt;
}

const char *vperf_spe_reason_str(uint32_t reason)
{
	static const char *const s[VPERF_SPE_NREASONS] = {
		[VPERF_SPE_OK] = "no error",
		[VPERF_SPE_E_BAD_HDR] = "header byte encodes no packet",
		[VPERF_SPE_E_BAD_EXT_HDR] = "second byte of a 16-bit header encodes no packet",
		[VPERF_SPE_E_TRUNC_HDR] = "buffer ends inside a 16-bit header",
		[VPERF_SPE_E_TRUNC_PAYLOAD] = "buffer ends inside a packet payload",
		[VPERF_SPE_E_TRUNC_RECORD] = "buffer ends inside a record (no End or Timestamp)",
		[VPERF_SPE_E_ARG] = "bad argument",
	};

	return pick(s, VPERF_ARRAY_SIZE(s), reason, "unknown error");
}

const char *vperf_spe_kind_name(uint32_t kind)
{
	static const char *const s[VPERF_SPE_PKT_NKINDS] = {
		[VPERF_SPE_PKT_PAD] = "PAD",	     [VPERF_SPE_PKT_END] = "END",
		[VPERF_SPE_PKT_TIMESTAMP] = "TS",    [VPERF_SPE_PKT_ADDRESS] = "ADDR",
		[VPERF_SPE_PKT_COUNTER] = "COUNT",   [VPERF_SPE_PKT_CONTEXT] = "CONTEXT",
		[VPERF_SPE_PKT_OP_TYPE] = "OP",	     [VPERF_SPE_PKT_EVENTS] = "EV",
		[VPERF_SPE_PKT_DATA_SOURCE] = "DS",  [VPERF_SPE_PKT_ALIGN] = "ALIGN",
		[VPERF_SPE_PKT_UNKNOWN] = "UNKNOWN",
	};

	return pick(s, VPERF_ARRAY_SIZE(s), kind, "?");
}

const char *vperf_spe_op_type_name(uint32_t type)
{
	static const char *const s[VPERF_SPE_OP_NTYPES] = {
		[VPERF_SPE_OP_RESERVED] = "reserved",
		[VPERF_SPE_OP_OTHER] = "other",
		[VPERF_SPE_OP_SVE] = "sve",
		[VPERF_SPE_OP_SME] = "sme",
		[VPERF_SPE_OP_LDST_GP] = "ldst-gp",
		[VPERF_SPE_OP_LDST_SIMD_FP] = "ldst-simd-fp",
		[VPERF_SPE_OP_LDST_UNSPEC] = "ldst-unspec",
		[VPERF_SPE_OP_LDST_TAG] = "ldst-tag",
		[VPERF_SPE_OP_LDST_NV_SYSREG] = "ldst-nv-sysreg",
		[VPERF_SPE_OP_LDST_EXT] = "ldst-ext",
		[VPERF_SPE_OP_LDST_SVE] = "ldst-sve",
		[VPERF_SPE_OP_LDST_MEMCPY] = "memcpy",
		[VPERF_SPE_OP_LDST_MEMSET] = "memset",
		[VPERF_SPE_OP_LDST_GCS] = "ldst-gcs",
		[VPERF_SPE_OP_BRANCH] = "branch",
	};

	return pick(s, VPERF_ARRAY_SIZE(s), type, "?");
}

const char *vperf_spe_addr_index_name(uint32_t index)
{
	static const char *const s[VPERF_SPE_ADDR_NDEF] = {
		[VPERF_SPE_ADDR_PC] = "pc",	      [VPERF_SPE_ADDR_BR_TGT] = "br-tgt",
		[VPERF_SPE_ADDR_DATA_VA] = "va",      [VPERF_SPE_ADDR_DATA_PA] = "pa",
		[VPERF_SPE_ADDR_PREV_BR] = "prev-br",
	};

	if (vperf_spe_addr_index_impdef(index))
		return "impdef";
	return pick(s, VPERF_ARRAY_SIZE(s), index, "reserved");
}

const char *vperf_spe_cnt_index_name(uint32_t index)
{
	static const char *const s[VPERF_SPE_CNT_NDEF] = {
		[VPERF_SPE_CNT_TOTAL] = "total",
		[VPERF_SPE_CNT_ISSUE] = "issue",
		[VPERF_SPE_CNT_XLAT] = "xlat",
		[VPERF_SPE_CNT_ALT_ISSUE] = "alt-issue",
	};

	if (vperf_spe_cnt_index_impdef(index))
		return "impdef";
	return pick(s, VPERF_ARRAY_SIZE(s), index, "reserved");
}

/* Arm DDI 0487 K.a, D18.2.6: the named events; IMPDEF (12-15, 26-31, 48-63) and RAZ (32-47) bits
 * have none. */
const char *vperf_spe_event_name(uint32_t bit)
{
	static const char *const s[26] = {
		[VPERF_SPE_EV_EXCEPTION] = "exception",
		[VPERF_SPE_EV_RETIRED] = "retired",
		[VPERF_SPE_EV_L1D_ACCESS] = "l1d-access",
		[VPERF_SPE_EV_L1D_REFILL] = "l1d-refill",
		[VPERF_SPE_EV_TLB_ACCESS] = "tlb-access",
		[VPERF_SPE_EV_TLB_WALK] = "tlb-walk",
		[VPERF_SPE_EV_NOT_TAKEN] = "not-taken",
		[VPERF_SPE_EV_MISPRED] = "mispred",
		[VPERF_SPE_EV_LLC_ACCESS] = "llc-access",
		[VPERF_SPE_EV_LLC_MISS] = "llc-miss",
		[VPERF_SPE_EV_REMOTE] = "remote",
		[VPERF_SPE_EV_ALIGNMENT] = "misaligned",
		[VPERF_SPE_EV_TRANSACTIONAL] = "transactional",
		[VPERF_SPE_EV_PARTIAL_PRED] = "partial-pred",
		[VPERF_SPE_EV_EMPTY_PRED] = "empty-pred",
		[VPERF_SPE_EV_L2D_ACCESS] = "l2d-access",
		[VPERF_SPE_EV_L2D_MISS] = "l2d-miss",
		[VPERF_SPE_EV_CACHE_HITM] = "cache-hitm",
		[VPERF_SPE_EV_RECENT_FETCH] = "recently-fetched",
		[VPERF_SPE_EV_SNOOPED] = "snooped",
		[VPERF_SPE_EV_STREAMING] = "streaming-sve",
		[VPERF_SPE_EV_SMCU] = "smcu",
	};

	return pick(s, VPERF_ARRAY_SIZE(s), bit, NULL);
}
