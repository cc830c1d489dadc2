// SPDX-License-Identifier: MIT
/*
 * vperf-spe --json: one JSON object per line, one line per record, and one line per malformed
 * spot ({"error": ...}). Keys are listed in docs/vperf-spe.md; absent fields are left out.
 */
#include <inttypes.h>

#include "vperf-spe.h"

static const char *const addr_key[VPERF_SPE_ADDR_NDEF] = {
	"pc", "br_tgt", "va", "pa", "prev_br",
};

static void json_addr(FILE *out, const struct vperf_spe_record *r, unsigned int i)
{
	const struct vperf_spe_addr *a = &r->addr[i];

	if (!(r->have & VPERF_SPE_HAVE_ADDR(i)))
		return;
	fprintf(out, ",\"%s\":{\"addr\":\"0x%" PRIx64 "\"", addr_key[i], vperf_spe_addr_value(a));
	if (i == VPERF_SPE_ADDR_DATA_VA)
		fprintf(out, ",\"tag\":%u", a->tag);
	else if (i == VPERF_SPE_ADDR_DATA_PA)
		fprintf(out, ",\"ns\":%u,\"ch\":%u,\"nse\":%u,\"pat\":%u", a->ns, a->ch, a->nse,
			a->pat);
	else
		fprintf(out, ",\"el\":%u,\"ns\":%u,\"nse\":%u", a->el, a->ns, a->nse);
	fputc('}', out);
}

static void json_op(FILE *out, const struct vperf_spe_op *op)
{
	const char *sep = "";

	fprintf(out, ",\"op\":{\"class\":%u,\"type\":\"%s\",\"raw\":\"0x%02x\",\"flags\":[",
		op->cls, vperf_spe_op_type_name(op->type), op->raw);
	for (unsigned int bit = 0; bit < 12; bit++)
		if (op->flags & (1u << bit)) {
			fprintf(out, "%s\"%s\"", sep, opf_name(bit));
			sep = ",";
		}
	fputc(']', out);
	if (op->type == VPERF_SPE_OP_SVE || op->type == VPERF_SPE_OP_LDST_SVE)
		fprintf(out, ",\"evl_bits\":%u", 32u << op->evl);
	if (op->type == VPERF_SPE_OP_SME)
		fprintf(out, ",\"ets\":%u", op->ets);
	if (op->type == VPERF_SPE_OP_BRANCH)
		fprintf(out, ",\"cr\":\"%s\"", cr_name(op->cr));
	fputc('}', out);
}

static void json_events(FILE *out, const struct vperf_spe_record *r)
{
	char names[1024];

	describe_events(names, sizeof(names), r->events, "\",\"");
	fprintf(out, ",\"events\":{\"raw\":\"0x%" PRIx64 "\",\"bits\":%u,\"names\":[%s%s%s]}",
		r->events, r->events_size * 8u, r->events ? "\"" : "", names,
		r->events ? "\"" : "");
}

static void json_counters(FILE *out, const struct vperf_spe_record *r)
{
	const char *sep = "";

	if (!(r->have & VPERF_GENMASK(8 + VPERF_SPE_CNT_NDEF - 1, 8)))
		return;
	fputs(",\"lat\":{", out);
	for (unsigned int i = 0; i < VPERF_SPE_CNT_NDEF; i++)
		if (r->have & VPERF_SPE_HAVE_CNT(i)) {
			fprintf(out, "%s\"%s\":%u", sep, vperf_spe_cnt_index_name(i), r->cnt[i]);
			sep = ",";
		}
	fputc('}', out);
}

static void json_opaque(FILE *out, const struct vperf_spe_record *r)
{
	unsigned int kept =
		r->nopaque < VPERF_SPE_REC_MAX_OPAQUE ? r->nopaque : VPERF_SPE_REC_MAX_OPAQUE;

	if (!r->nopaque)
		return;
	fprintf(out, ",\"opaque_count\":%u,\"opaque\":[", r->nopaque);
	for (unsigned int i = 0; i < kept; i++) {
		const struct vperf_spe_pkt *p = &r->opaque[i];

		fprintf(out,
			"%s{\"offset\":%zu,\"kind\":\"%s\",\"index\":%u,\"size\":%u,"
			"\"payload\":\"0x%" PRIx64 "\",\"why\":\"%s\"}",
			i ? "," : "", p->offset, vperf_spe_kind_name(p->kind), p->index, p->size,
			p->payload,
			(p->flags & VPERF_SPE_PKTF_IMPDEF)     ? "impdef"
			: (p->flags & VPERF_SPE_PKTF_RESERVED) ? "reserved"
							       : "unknown");
	}
	fputc(']', out);
}

static void json_record(FILE *out, const struct vperf_spe_record *r)
{
	fprintf(out, "{\"offset\":%zu,\"len\":%zu", r->offset, r->len);
	json_addr(out, r, VPERF_SPE_ADDR_PC);
	if (r->have & VPERF_SPE_HAVE_OP)
		json_op(out, &r->op);
	if (r->have & VPERF_SPE_HAVE_EVENTS)
		json_events(out, r);
	json_counters(out, r);
	for (unsigned int i = 1; i < VPERF_SPE_ADDR_NDEF; i++)
		json_addr(out, r, i);
	if (r->have & VPERF_SPE_HAVE_DSRC)
		fprintf(out, ",\"ds\":%u", r->dsrc);
	if (r->have & VPERF_SPE_HAVE_CTX(0))
		fprintf(out, ",\"ctx_el1\":%u", r->ctx[0]);
	if (r->have & VPERF_SPE_HAVE_CTX(1))
		fprintf(out, ",\"ctx_el2\":%u", r->ctx[1]);
	if (r->have & VPERF_SPE_HAVE_TS)
		fprintf(out, ",\"ts\":%" PRIu64, r->timestamp);
	if (r->ndup)
		fprintf(out, ",\"duplicates\":%u", r->ndup);
	json_opaque(out, r);
	fputs("}\n", out);
}

unsigned long spe_json(const struct input *in, const struct tool_opts *o, FILE *out)
{
	struct vperf_spe_iter it;
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	enum vperf_spe_next got;

	vperf_spe_iter_init(&it, in->buf, in->len);
	while ((got = vperf_spe_next_record(&it, &rec, &err)) != VPERF_SPE_DONE) {
		if (got == VPERF_SPE_RECORD) {
			json_record(out, &rec);
			continue;
		}
		fprintf(out, "{\"error\":\"%s\",\"reason\":%u,\"offset\":%zu,\"resync\":%zu}\n",
			vperf_spe_reason_str(err.reason), err.reason, err.offset, err.resync);
		report_malformed(in, o, &err);
	}
	return it.nerrors;
}
