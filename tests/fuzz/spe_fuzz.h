/* SPDX-License-Identifier: MIT */
/* The SPE decoder fuzz target, shared by the libFuzzer build and the regression replayer. */
#ifndef VPERF_SPE_FUZZ_H
#define VPERF_SPE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* VPERF_SPE_FUZZ_H */
