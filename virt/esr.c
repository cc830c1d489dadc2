// SPDX-License-Identifier: MIT
/* ESR_EL2 syndromes of trapped MSR/MRS (EC=0x18): the field layout and its decoder are in
 * vperf/esr.h, shared with the trap fast path (vpmu/fast.h). */
#include <vperf/esr.h>

bool vperf_esr_decode_sysreg(uint64_t esr, struct vperf_esr_sysreg *out)
{
	if (VPERF_FIELD_GET(esr, 31, 26) != ESR_EC_SYSREG)
		return false;
	out->enc = vperf_esr_sysreg_enc(esr);
	out->rt = vperf_esr_sysreg_rt(esr);
	out->read = vperf_esr_sysreg_read(esr);
	return true;
}

uint64_t vperf_esr_encode_sysreg(uint32_t enc, unsigned int rt, bool read)
{
	return (uint64_t)VPERF_ESR_SYSREG(enc, read) | (uint64_t)(rt & 31u) << ESR_ISS_RT_SHIFT;
}
