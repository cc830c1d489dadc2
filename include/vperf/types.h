/* SPDX-License-Identifier: MIT */
/* Freestanding basics: only the headers C11 guarantees without a libc. */
#ifndef VPERF_TYPES_H
#define VPERF_TYPES_H

/*
 * A hypervisor built without the compiler's headers (Xen: -nostdinc, its own uint64_t and bool)
 * names its header that provides uint8_t..uint64_t, size_t and bool instead, e.g.
 * -DVPERF_TYPES_HEADER='<xen/types.h>'. The types have the same sizes either way, so the
 * library, built with <stdint.h>, and the hypervisor agree on every structure's layout.
 */
#ifdef VPERF_TYPES_HEADER
#include VPERF_TYPES_HEADER
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#define VPERF_BIT(n) (1ull << (n))
/* Bits hi..lo set, for 0 <= lo <= hi <= 63. */
#define VPERF_GENMASK(hi, lo)	     ((~0ull >> (63 - (hi))) & (~0ull << (lo)))
#define VPERF_FIELD_GET(val, hi, lo) (((val)&VPERF_GENMASK(hi, lo)) >> (lo))
#define VPERF_ARRAY_SIZE(a)	     (sizeof(a) / sizeof((a)[0]))

/* A register's field list (an X-macro of F(mask), one F a field: vperf/pmu_regs.h) as the union
 * of its fields, and the check that no two of them share a bit (their sum is then their union). */
#define VPERF_FIELD_OR(mask)	    | (uint64_t)(mask)
#define VPERF_FIELD_SUM(mask)	    +(uint64_t)(mask)
#define VPERF_FIELDS_UNION(list)    (0ull list(VPERF_FIELD_OR))
#define VPERF_FIELDS_DISJOINT(list) ((0ull list(VPERF_FIELD_SUM)) == VPERF_FIELDS_UNION(list))

enum vperf_err {
	VPERF_OK = 0,
	VPERF_EINVAL = -1,  /* a bad argument from the hypervisor or a guest */
	VPERF_ENOSPC = -2,  /* a buffer given to vperf is too small */
	VPERF_ENODEV = -3,  /* the hardware lacks the feature */
	VPERF_EBUSY = -4,   /* the object is in use (e.g. a loaded vCPU) */
	VPERF_ENOTSUP = -5, /* configured out, or a host set-up vperf does not support */
};

#endif /* VPERF_TYPES_H */
