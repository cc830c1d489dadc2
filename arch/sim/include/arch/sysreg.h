/* SPDX-License-Identifier: MIT */
/*
 * The accessor seam, simulated: the same API as arch/arm64, routed by numeric encoding into the
 * register file of the current simulated physical CPU (arch/sim/core/regfile.c), behind which the
 * executable architecture model plugs in.
 */
#ifndef VPERF_ARCH_SYSREG_H
#define VPERF_ARCH_SYSREG_H

#include <vperf/sysreg.h>

uint64_t vperf_arch_read_sysreg_enc(uint32_t enc);
void vperf_arch_write_sysreg_enc(uint32_t enc, uint64_t val);
#define read_sysreg_enc(enc)	   vperf_arch_read_sysreg_enc(enc)
#define write_sysreg_enc(enc, val) vperf_arch_write_sysreg_enc((enc), (val))

#define read_sysreg(name)	read_sysreg_enc(VPERF_ENC_##name)
#define write_sysreg(val, name) write_sysreg_enc(VPERF_ENC_##name, (val))

/* The event counters and types by index (arch/arm64: a 31-entry switch of MRS/MSR). */
#define read_pmevcntr(n)	read_sysreg_enc(vperf_pmevcntr_enc(n))
#define write_pmevcntr(n, val)	write_sysreg_enc(vperf_pmevcntr_enc(n), (val))
#define write_pmevtyper(n, val) write_sysreg_enc(vperf_pmevtyper_enc(n), (val))

/* Counters or types [0, nr) from or to vals[], the highest first as arch/arm64 does. */
static inline void read_pmevcntrs(unsigned int nr, uint64_t *vals)
{
	for (unsigned int n = nr; n-- > 0;)
		vals[n] = read_pmevcntr(n);
}

static inline void write_pmevcntrs(unsigned int nr, const uint64_t *vals)
{
	for (unsigned int n = nr; n-- > 0;)
		write_pmevcntr(n, vals[n]);
}

static inline void write_pmevtypers(unsigned int nr, const uint64_t *vals)
{
	for (unsigned int n = nr; n-- > 0;)
		write_pmevtyper(n, vals[n]);
}

#endif /* VPERF_ARCH_SYSREG_H */
