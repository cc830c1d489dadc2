// SPDX-License-Identifier: MIT
/*
 * Access by numeric encoding, for registers chosen at run time (PMEVCNTR<n>, a trapped
 * register forwarded to hardware). MRS/MSR take the register as an immediate, so this is a
 * switch over the database; unknown encodings read as 0 and ignore writes (callers only pass
 * database encodings: the trap path has looked them up first).
 */
#include <arch/sysreg.h>

uint64_t vperf_arch_read_sysreg_enc(uint32_t enc)
{
	switch (enc) {
#define SYSREG(name, ...)      \
	case VPERF_ENC_##name: \
		return arch_read_##name();
#include <vperf/sysregs.def>
#undef SYSREG
	default:
		return 0;
	}
}

void vperf_arch_write_sysreg_enc(uint32_t enc, uint64_t val)
{
	switch (enc) {
#define SYSREG(name, ...)               \
	case VPERF_ENC_##name:          \
		arch_write_##name(val); \
		break;
#include <vperf/sysregs.def>
#undef SYSREG
	default:
		break;
	}
}
