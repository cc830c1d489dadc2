// SPDX-License-Identifier: MIT
/* vperf-spe: human-readable meaning of packets, operation types and events (D18.2). */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "vperf-spe.h"

/* Append to s (capacity cap) as snprintf would, never overflowing. */
static void __attribute__((format(printf, 3, 4))) cat(char *s, size_t cap, const char *fmt, ...)
{
	size_t n = strlen(s);
	va_list ap;

	if (n + 1 >= cap)
		return;
	va_start(ap, fmt);
	vsnprintf(s + n, cap - n, fmt, ap);
	va_end(ap);
}

const char *cr_name(unsigned int cr)
{
	static const char *const names[] = { "unrecorded", "bl", "ret", "neither" };

	return names[cr & 3u];
}

const char *opf_name(unsigned int bit)
{
	static const char *const names[] = { "st", "cond", "fp", "ase", "pred", "sg",
					     "ar", "excl", "at", "ind", "gcs",	"comm" };

	return bit < sizeof(names) / sizeof(names[0]) ? names[bit] : "?";
}

void describe_op(char *s, size_t cap, const struct vperf_spe_op *op)
{
	uint16_t defined = vperf_spe_op_flags_for(op->type);

	s[0] = '\0';
	cat(s, cap, "%s", vperf_spe_op_type_name(op->type));
	if (op->type == VPERF_SPE_OP_RESERVED) {
		cat(s, cap, " class=%u subclass=0x%02x", op->cls, op->raw);
		return;
	}
	if (defined & VPERF_SPE_OPF_ST)
		cat(s, cap, " %s", (op->flags & VPERF_SPE_OPF_ST) ? "st" : "ld");
	for (unsigned int bit = 1; bit < 12; bit++)
		if (op->flags & (1u << bit))
			cat(s, cap, " %s", opf_name(bit));
	if (op->type == VPERF_SPE_OP_SVE || op->type == VPERF_SPE_OP_LDST_SVE)
		cat(s, cap, " evl=%ub", 32u << op->evl);
	if (op->type == VPERF_SPE_OP_SME && op->ets == 15)
		cat(s, cap, " ets=whole-za");
	else if (op->type == VPERF_SPE_OP_SME)
		cat(s, cap, " ets=%lub", 128ul << op->ets);
	if (op->type == VPERF_SPE_OP_BRANCH)
		cat(s, cap, " cr=%s", cr_name(op->cr));
}

void describe_events(char *s, size_t cap, uint64_t events, const char *sep)
{
	const char *pre = "";

	s[0] = '\0';
	for (unsigned int bit = 0; bit < 64; bit++) {
		const char *name = vperf_spe_event_name(bit);

		if (!(events & (1ull << bit)))
			continue;
		if (name)
			cat(s, cap, "%s%s", pre, name);
		else
			cat(s, cap, "%s%s%u", pre,
			    (VPERF_SPE_EV_IMPDEF_MASK >> bit) & 1 ? "impdef" : "raz", bit);
		pre = sep;
	}
}

static void describe_addr(char *s, size_t cap, const struct vperf_spe_pkt *pkt)
{
	struct vperf_spe_addr a;

	vperf_spe_addr_unpack(pkt->index, pkt->payload, &a);
	if (!vperf_spe_addr_index_defined(pkt->index)) {
		cat(s, cap, "ADDR %s[%u] 0x%016" PRIx64, vperf_spe_addr_index_name(pkt->index),
		    pkt->index, pkt->payload);
		return;
	}
	cat(s, cap, "ADDR %s 0x%016" PRIx64, vperf_spe_addr_index_name(pkt->index),
	    vperf_spe_addr_value(&a));
	if (pkt->index == VPERF_SPE_ADDR_DATA_VA)
		cat(s, cap, " tag=0x%02x", a.tag);
	else if (pkt->index == VPERF_SPE_ADDR_DATA_PA)
		cat(s, cap, " ns=%u ch=%u nse=%u pat=0x%x", a.ns, a.ch, a.nse, a.pat);
	else
		cat(s, cap, " el%u ns=%u nse=%u", a.el, a.ns, a.nse);
	if (a.rsvd)
		cat(s, cap, " raz-bits=0x%02x", a.rsvd);
}

static void describe_counter(char *s, size_t cap, const struct vperf_spe_pkt *pkt)
{
	if (vperf_spe_cnt_index_defined(pkt->index))
		cat(s, cap, "COUNT %s %" PRIu64, vperf_spe_cnt_index_name(pkt->index),
		    pkt->payload);
	else
		cat(s, cap, "COUNT %s[%u] %" PRIu64, vperf_spe_cnt_index_name(pkt->index),
		    pkt->index, pkt->payload);
}

static void describe_payload(char *s, size_t cap, const struct vperf_spe_pkt *pkt)
{
	char more[256];
	struct vperf_spe_op op;

	switch (pkt->kind) {
	case VPERF_SPE_PKT_OP_TYPE:
		vperf_spe_op_unpack(pkt->index, (uint8_t)pkt->payload, &op);
		describe_op(more, sizeof(more), &op);
		cat(s, cap, "OP %s", more);
		break;
	case VPERF_SPE_PKT_EVENTS:
		describe_events(more, sizeof(more), pkt->payload, " ");
		cat(s, cap, "EV/%u %s", pkt->size * 8, pkt->payload ? more : "none");
		break;
	case VPERF_SPE_PKT_CONTEXT:
		cat(s, cap, "CONTEXT %s 0x%" PRIx64,
		    pkt->index == 0   ? "el1"
		    : pkt->index == 1 ? "el2"
				      : "reserved",
		    pkt->payload);
		break;
	case VPERF_SPE_PKT_DATA_SOURCE:
		cat(s, cap, "DS/%u 0x%" PRIx64, pkt->size * 8, pkt->payload);
		break;
	case VPERF_SPE_PKT_TIMESTAMP:
		cat(s, cap, "TS %" PRIu64, pkt->payload);
		break;
	default:
		cat(s, cap, "UNKNOWN size=%u payload=0x%" PRIx64 " (ignored)", pkt->size,
		    pkt->payload);
		break;
	}
}

void describe_pkt(char *s, size_t cap, const struct vperf_spe_pkt *pkt)
{
	s[0] = '\0';
	switch (pkt->kind) {
	case VPERF_SPE_PKT_PAD:
		cat(s, cap, "PAD");
		break;
	case VPERF_SPE_PKT_END:
		cat(s, cap, "END");
		break;
	case VPERF_SPE_PKT_ALIGN:
		cat(s, cap, "ALIGN %u (skip %u)", 2u << pkt->index, pkt->len - 2);
		break;
	case VPERF_SPE_PKT_ADDRESS:
		describe_addr(s, cap, pkt);
		break;
	case VPERF_SPE_PKT_COUNTER:
		describe_counter(s, cap, pkt);
		break;
	default:
		describe_payload(s, cap, pkt);
		break;
	}
	if (pkt->flags & VPERF_SPE_PKTF_RESERVED)
		cat(s, cap, " [reserved value: ignored]");
}
