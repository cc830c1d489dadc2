/* SPDX-License-Identifier: MIT */
/*
 * The accessor seam, real hardware. Every register of the database gets a read/write inline
 * spelled S<op0>_<op1>_C<n>_C<m>_<op2>, which every binutils assembles whatever -march says.
 *   read_sysreg(NAME)          MRS by database name
 *   write_sysreg(val, NAME)    MSR by database name
 *   read_sysreg_enc(enc)       MRS by numeric encoding (a database register, e.g. PMEVCNTR<n>)
 *   write_sysreg_enc(enc, val)
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

uint64_t vperf_arch_read_sysreg_enc(uint32_t enc);
void vperf_arch_write_sysreg_enc(uint32_t enc, uint64_t val);
#define read_sysreg_enc(enc)	   vperf_arch_read_sysreg_enc(enc)
#define write_sysreg_enc(enc, val) vperf_arch_write_sysreg_enc((enc), (val))

#endif /* VPERF_ARCH_SYSREG_H */
