/* SPDX-License-Identifier: MIT */
/*
 * The accessor seam, real hardware. Every register of the database gets a read/write inline
 * spelled S<op0>_<op1>_C<n>_C<m>_<op2>, which every binutils assembles whatever -march says.
 *   read_sysreg(NAME)          MRS by database name
 *   write_sysreg(val, NAME)    MSR by database name
 *   read_sysreg_enc(enc)       MRS by numeric encoding (a database register, e.g. PMEVCNTR<n>)
 *   write_sysreg_enc(enc, val)
 *   read_pmevcntr(n), write_pmevcntr(n, val), write_pmevtyper(n, val)
 *                              PMEVCNTR<n>_EL0 / PMEVTYPER<n>_EL0 by index (n < 31)
 *   read_pmevcntrs(nr, vals), write_pmevcntrs(nr, vals), write_pmevtypers(nr, vals)
 *                              counters or types [0, nr) from or to an array
 */
#ifndef VPERF_ARCH_SYSREG_H
#define VPERF_ARCH_SYSREG_H

#include <vperf/sysreg.h>

#define SYSREG(name, op0, op1, crn, crm, op2, ...)                                         \
	static inline uint64_t arch_read_##name(void)                                      \
	{                                                                                  \
		uint64_t v;                                                                \
		__asm__ volatile("mrs %0, S" #op0 "_" #op1 "_C" #crn "_C" #crm "_" #op2    \
				 : "=r"(v));                                               \
		return v;                                                                  \
	}                                                                                  \
	static inline void arch_write_##name(uint64_t v)                                   \
	{                                                                                  \
		__asm__ volatile("msr S" #op0 "_" #op1 "_C" #crn "_C" #crm "_" #op2 ", %0" \
				 :                                                         \
				 : "r"(v));                                                \
	}
#include <vperf/sysregs.def>
#undef SYSREG

#define read_sysreg(name)	arch_read_##name()
#define write_sysreg(val, name) arch_write_##name(val)

/* The event counters and types by index: MRS/MSR take the register as an immediate, so a
 * 31-entry switch (one jump table) instead of read_sysreg_enc()'s switch over the whole
 * database. The trap fast path and the vCPU switch use them; n >= 31 reads 0, ignores writes.
 * Always inline: a call would cost the hot paths more than the jump itself. */
/* clang-format off */
#define PMEV_EACH(X)                                                                            \
	X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) \
	X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30)
/* clang-format on */

static inline __attribute__((always_inline)) uint64_t read_pmevcntr(unsigned int n)
{
	switch (n) {
#define PMEV_READ(i) \
	case i:      \
		return read_sysreg(PMEVCNTR##i##_EL0);
		PMEV_EACH(PMEV_READ)
#undef PMEV_READ
	default:
		return 0;
	}
}

static inline __attribute__((always_inline)) void write_pmevcntr(unsigned int n, uint64_t val)
{
	switch (n) {
#define PMEV_WRITE(i)                                 \
	case i:                                       \
		write_sysreg(val, PMEVCNTR##i##_EL0); \
		break;
		PMEV_EACH(PMEV_WRITE)
#undef PMEV_WRITE
	default:
		break;
	}
}

static inline __attribute__((always_inline)) void write_pmevtyper(unsigned int n, uint64_t val)
{
	switch (n) {
#define PMEV_WRITE(i)                                  \
	case i:                                        \
		write_sysreg(val, PMEVTYPER##i##_EL0); \
		break;
		PMEV_EACH(PMEV_WRITE)
#undef PMEV_WRITE
	default:
		break;
	}
}

/* Counters or types [0, nr) (nr <= 31) from or to vals[]: one jump into a run of MRS/MSR, the
 * highest counter first (the vCPU switch's save and restore). */
/* clang-format off */
#define PMEV_EACH_DOWN(X)                                                                       \
	X(30) X(29) X(28) X(27) X(26) X(25) X(24) X(23) X(22) X(21) X(20) X(19) X(18) X(17)   \
	X(16) X(15) X(14) X(13) X(12) X(11) X(10) X(9) X(8) X(7) X(6) X(5) X(4) X(3) X(2)    \
	X(1) X(0)
/* clang-format on */

static inline __attribute__((always_inline)) void read_pmevcntrs(unsigned int nr, uint64_t *vals)
{
	switch (nr) {
#define PMEV_READ_TO(i)                                   \
	case i + 1:                                       \
		vals[i] = read_sysreg(PMEVCNTR##i##_EL0); \
		__attribute__((fallthrough));
		PMEV_EACH_DOWN(PMEV_READ_TO)
#undef PMEV_READ_TO
	default:
		break;
	}
}

static inline __attribute__((always_inline)) void write_pmevcntrs(unsigned int nr,
								  const uint64_t *vals)
{
	switch (nr) {
#define PMEV_WRITE_FROM(i)                                \
	case i + 1:                                       \
		write_sysreg(vals[i], PMEVCNTR##i##_EL0); \
		__attribute__((fallthrough));
		PMEV_EACH_DOWN(PMEV_WRITE_FROM)
#undef PMEV_WRITE_FROM
	default:
		break;
	}
}

static inline __attribute__((always_inline)) void write_pmevtypers(unsigned int nr,
								   const uint64_t *vals)
{
	switch (nr) {
#define PMEV_WRITE_FROM(i)                                 \
	case i + 1:                                        \
		write_sysreg(vals[i], PMEVTYPER##i##_EL0); \
		__attribute__((fallthrough));
		PMEV_EACH_DOWN(PMEV_WRITE_FROM)
#undef PMEV_WRITE_FROM
	default:
		break;
	}
}

uint64_t vperf_arch_read_sysreg_enc(uint32_t enc);
void vperf_arch_write_sysreg_enc(uint32_t enc, uint64_t val);
#define read_sysreg_enc(enc)	   vperf_arch_read_sysreg_enc(enc)
#define write_sysreg_enc(enc, val) vperf_arch_write_sysreg_enc((enc), (val))

#endif /* VPERF_ARCH_SYSREG_H */
