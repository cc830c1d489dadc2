/* SPDX-License-Identifier: MIT */
/* The blob's words (the layout: blob.c), shared by blob.c and the vPMU's and the vSPE's parts of
 * it (vpmu/blob.c, vspe/blob.c). */
#ifndef VPERF_VIRT_BLOB_LAYOUT_H
#define VPERF_VIRT_BLOB_LAYOUT_H

#include <vperf/vperf.h>

#define BLOB_MAGIC  0x554d504652455056ull /* "VPERFPMU" read as little-endian */
#define W_REGS	    3
#define W_TYPES	    11
#define W_COUNTERS  (W_TYPES + VPERF_PMU_MAX_COUNTERS)
#define W_FLAGS	    (W_COUNTERS + VPERF_PMU_MAX_COUNTERS)
#define W_SPE	    (W_FLAGS + 1) /* version 2 */
#define SPE_WORDS   (1 + VPERF_VSPE_NR_REGS)
#define MAX_WORDS   (W_SPE + SPE_WORDS + 1)
#define FLAG_ACTIVE 1ull

#endif /* VPERF_VIRT_BLOB_LAYOUT_H */
