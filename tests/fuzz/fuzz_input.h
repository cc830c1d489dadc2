/* SPDX-License-Identifier: MIT */
/*
 * What the vperf fuzz targets share: reading a fuzz input as a stream of choices (an exhausted
 * input reads as zeros, so every input is valid), and a check that names the broken invariant
 * before it aborts (libFuzzer keeps the input; the replayer in make check prints the line).
 */
#ifndef VPERF_FUZZ_INPUT_H
#define VPERF_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t in_u8(struct fuzz_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static inline uint64_t in_u64(struct fuzz_in *in)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < 8; i++)
		v |= (uint64_t)in_u8(in) << (8 * i);
	return v;
}

#define FUZZ_CHECK(cond)                                                                     \
	do {                                                                                 \
		if (!(cond)) {                                                               \
			fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, \
				#cond);                                                      \
			abort();                                                             \
		}                                                                            \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
