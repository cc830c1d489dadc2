/* SPDX-License-Identifier: MIT */
/* vperf-spe: decode raw SPE buffers. Shared declarations of the tool's files. */
#ifndef VPERF_SPE_TOOL_H
#define VPERF_SPE_TOOL_H

#include <stdio.h>

#include <vperf/spe_rec.h>

/* Exit codes (docs/vperf-spe.md). */
enum {
	EXIT_DECODED = 0,   /* the whole input decoded */
	EXIT_MALFORMED = 1, /* malformed spots were found (and reported); the rest decoded */
	EXIT_USAGE = 2,	    /* bad command line */
	EXIT_IO = 3,	    /* the input could not be read, or the output written */
};

struct input {
	const char *name; /* for messages: the path, or "<stdin>" */
	const uint8_t *buf;
	size_t len;
};

struct tool_opts {
	unsigned int top; /* summary: rows of each top-N table */
	int quiet;	  /* no per-error message on stderr */
};

/* Each mode writes to out and returns the number of malformed spots found. */
unsigned long spe_dump(const struct input *in, const struct tool_opts *o, FILE *out);
unsigned long spe_json(const struct input *in, const struct tool_opts *o, FILE *out);
unsigned long spe_summary(const struct input *in, const struct tool_opts *o, FILE *out);

/* One stderr line for a malformed spot (unless quiet). */
void report_malformed(const struct input *in, const struct tool_opts *o,
		      const struct vperf_spe_error *err);

/* Text meaning of a packet / an operation type / an events word (describe.c). */
void describe_pkt(char *s, size_t cap, const struct vperf_spe_pkt *pkt);
void describe_op(char *s, size_t cap, const struct vperf_spe_op *op);
void describe_events(char *s, size_t cap, uint64_t events, const char *sep);
/* "bl", "ret", "neither" or "unrecorded" for a branch's CR field. */
const char *cr_name(unsigned int cr);
/* Names of the one-bit operation fields, in VPERF_SPE_OPF_* bit order. */
const char *opf_name(unsigned int bit);

#endif /* VPERF_SPE_TOOL_H */
