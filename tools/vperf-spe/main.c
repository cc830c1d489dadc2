// SPDX-License-Identifier: MIT
/*
 * vperf-spe: decode a raw SPE profiling buffer (a file or stdin) into a text dump, JSON lines or
 * a summary profile. See docs/vperf-spe.md (also printed, in short, by --help).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "vperf-spe.h"

static const char usage[] =
	"usage: vperf-spe [MODE] [OPTIONS] [FILE]\n"
	"Decode a raw Arm SPE profiling buffer (FILE, or stdin when FILE is absent or '-').\n"
	"\n"
	"modes:\n"
	"  -d, --dump        one line per packet: offset, bytes, meaning (default)\n"
	"  -j, --json        one JSON object per record (and per malformed spot) per line\n"
	"  -s, --summary     profile: operation types, top PCs and data addresses,\n"
	"                    total-latency histogram, event counts\n"
	"options:\n"
	"  -n, --top N       rows in each top-N table of --summary (default 10)\n"
	"  -q, --quiet       no per-error messages on stderr\n"
	"  -h, --help        this text\n"
	"\n"
	"exit status: 0 decoded, 1 malformed data found (reported with its offset, decoding\n"
	"resumed at the next record boundary), 2 usage error, 3 input/output error.\n";

enum mode { MODE_DUMP, MODE_JSON, MODE_SUMMARY };

void report_malformed(const struct input *in, const struct tool_opts *o,
		      const struct vperf_spe_error *err)
{
	if (o->quiet)
		return;
	fprintf(stderr, "vperf-spe: %s: malformed at offset 0x%zx (%zu): %s; resuming at 0x%zx\n",
		in->name, err->offset, err->offset, vperf_spe_reason_str(err->reason), err->resync);
}

/* Read all of f; NULL with errno set on failure. */
static uint8_t *slurp(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n;
	uint8_t *buf = malloc(cap), *bigger;

	*len = 0;
	while (buf) {
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			break;
		if (*len < cap)
			continue;
		cap *= 2;
		bigger = realloc(buf, cap);
		if (!bigger)
			free(buf);
		buf = bigger;
	}
	if (buf && ferror(f)) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	return buf;
}

static int parse_top(const char *s, unsigned int *top)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *s == '\0' || *end != '\0' || v == 0 || v > 100000)
		return -1;
	*top = (unsigned int)v;
	return 0;
}

static int parse_args(int argc, char **argv, enum mode *mode, struct tool_opts *o,
		      const char **path)
{
	static const struct option longopts[] = {
		{ "dump", no_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "summary", no_argument, NULL, 's' },
		{ "top", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "djsn:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			*mode = MODE_DUMP;
			break;
		case 'j':
			*mode = MODE_JSON;
			break;
		case 's':
			*mode = MODE_SUMMARY;
			break;
		case 'n':
			if (parse_top(optarg, &o->top) == 0)
				break;
			fprintf(stderr,
				"vperf-spe: --top wants a number from 1 to 100000, not '%s'\n",
				optarg);
			return EXIT_USAGE;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return -1;
		default:
			fputs("Try 'vperf-spe --help'.\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "vperf-spe: one input at most (got %d)\nTry 'vperf-spe --help'.\n",
			argc - optind);
		return EXIT_USAGE;
	}
	*path = optind < argc ? argv[optind] : "-";
	return 0;
}

static int load(const char *path, struct input *in, uint8_t **owned)
{
	int stdin_input = strcmp(path, "-") == 0;
	FILE *f = stdin_input ? stdin : fopen(path, "rb");
	size_t len = 0;

	in->name = stdin_input ? "<stdin>" : path;
	if (!f) {
		fprintf(stderr, "vperf-spe: %s: %s\n", path, strerror(errno));
		return EXIT_IO;
	}
	*owned = slurp(f, &len);
	if (!*owned)
		fprintf(stderr, "vperf-spe: %s: %s\n", in->name, strerror(errno));
	if (!stdin_input)
		fclose(f);
	if (!*owned)
		return EXIT_IO;
	in->buf = *owned;
	in->len = len;
	return 0;
}

int main(int argc, char **argv)
{
	struct tool_opts o = { .top = 10, .quiet = 0 };
	enum mode mode = MODE_DUMP;
	struct input in = { 0 };
	uint8_t *owned = NULL;
	const char *path = NULL;
	unsigned long errors;
	int rc = parse_args(argc, argv, &mode, &o, &path);

	if (rc)
		return rc < 0 ? EXIT_DECODED : rc;
	rc = load(path, &in, &owned);
	if (rc)
		return rc;
	if (mode == MODE_JSON)
		errors = spe_json(&in, &o, stdout);
	else if (mode == MODE_SUMMARY)
		errors = spe_summary(&in, &o, stdout);
	else
		errors = spe_dump(&in, &o, stdout);
	free(owned);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "vperf-spe: writing the output: %s\n", strerror(errno));
		return EXIT_IO;
	}
	return errors ? EXIT_MALFORMED : EXIT_DECODED;
}
