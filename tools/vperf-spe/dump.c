// SPDX-License-Identifier: MIT
/*
 * vperf-spe --dump: one line per packet (offset, bytes, meaning), a line closing each record,
 * and one line per malformed spot. Runs of Padding are folded into one line.
 */
#include <inttypes.h>

#include "vperf-spe.h"

#define HEX_BYTES 10 /* the longest packet: 16-bit header + 8-byte payload */

static void hex_column(FILE *out, const uint8_t *p, size_t n)
{
	size_t shown = n < HEX_BYTES ? n : HEX_BYTES;

	for (size_t i = 0; i < shown; i++)
		fprintf(out, "%02x ", p[i]);
	for (size_t i = shown; i < HEX_BYTES; i++)
		fputs("   ", out);
}

/* Consecutive Padding bytes from off, at least 1. */
static size_t pad_run(const struct input *in, size_t off)
{
	size_t n = 0;

	while (off + n < in->len && in->buf[off + n] == 0)
		n++;
	return n;
}

struct dump_state {
	size_t rec_start; /* first byte of the record being built */
	int in_record;
	unsigned long records, errors;
};

static void packet_line(FILE *out, const struct input *in, const struct vperf_spe_pkt *pkt)
{
	char text[512];

	describe_pkt(text, sizeof(text), pkt);
	fprintf(out, "%08zx  ", pkt->offset);
	hex_column(out, in->buf + pkt->offset, pkt->len);
	fprintf(out, " %s\n", text);
}

static void end_record(FILE *out, struct dump_state *st, const struct vperf_spe_pkt *pkt)
{
	size_t end = pkt->offset + pkt->len;

	fprintf(out, "          -- record %lu: 0x%zx-0x%zx (%zu bytes)\n", st->records,
		st->rec_start, end - 1, end - st->rec_start);
	st->records++;
	st->in_record = 0;
}

static size_t malformed(FILE *out, const struct input *in, const struct tool_opts *o,
			struct dump_state *st, struct vperf_spe_error *err)
{
	err->resync = vperf_spe_resume(in->buf, in->len, err);
	fprintf(out, "%08zx  ", err->offset);
	hex_column(out, in->buf + err->offset, in->len - err->offset);
	fprintf(out, " ERROR %s; resuming at 0x%zx%s\n", vperf_spe_reason_str(err->reason),
		err->resync, st->in_record ? " (record dropped)" : "");
	report_malformed(in, o, err);
	st->errors++;
	st->in_record = 0;
	return err->resync;
}

static void trailing_record(FILE *out, const struct input *in, const struct tool_opts *o,
			    struct dump_state *st)
{
	struct vperf_spe_error err = {
		.offset = st->rec_start,
		.resync = in->len,
		.reason = VPERF_SPE_E_TRUNC_RECORD,
	};

	fprintf(out, "%08zx  ERROR %s\n", st->rec_start, vperf_spe_reason_str(err.reason));
	report_malformed(in, o, &err);
	st->errors++;
}

unsigned long spe_dump(const struct input *in, const struct tool_opts *o, FILE *out)
{
	struct dump_state st = { 0 };
	size_t off = 0;

	while (off < in->len) {
		struct vperf_spe_pkt pkt;
		struct vperf_spe_error err;
		size_t pads = pad_run(in, off);

		if (pads > 1) {
			fprintf(out, "%08zx  ", off);
			hex_column(out, in->buf + off, pads);
			fprintf(out, " PAD x%zu\n", pads);
			off += pads;
			continue;
		}
		if (vperf_spe_pkt_decode(in->buf, in->len, off, &pkt, &err) != VPERF_SPE_OK) {
			off = malformed(out, in, o, &st, &err);
			continue;
		}
		packet_line(out, in, &pkt);
		off += pkt.len;
		if (pkt.kind == VPERF_SPE_PKT_PAD || pkt.kind == VPERF_SPE_PKT_ALIGN)
			continue;
		if (!st.in_record)
			st.rec_start = pkt.offset;
		st.in_record = 1;
		if (pkt.kind == VPERF_SPE_PKT_END || pkt.kind == VPERF_SPE_PKT_TIMESTAMP)
			end_record(out, &st, &pkt);
	}
	if (st.in_record)
		trailing_record(out, in, o, &st);
	fprintf(out, "%lu records, %lu malformed, %zu bytes\n", st.records, st.errors, in->len);
	return st.errors;
}
