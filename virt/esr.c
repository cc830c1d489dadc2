// SPDX-License-Identifier: MIT
/* ESR_EL2 syndromes of trapped MSR/MRS (EC=0x18); field layout in vperf/esr.h. */
#include <vperf/esr.h>

#define ISS_DIR_READ VPERF_BIT(0)

/* The ISS holds Op0 [21:20], Op2 [19:17], Op1 [16:14], CRn [13:10], CRm [4:1] (Arm DDI 0487 K.a,
 * D24.2.40, EC 0x18); VPERF_SYSREG_ENC packs Op0 [15:14], Op1 [13:11], CRn [10:7], CRm [6:3], Op2
 * [2:0]. Op1 and CRn are adjacent in both, so the encoding is four masked shifts (this runs on
 * every trap). */
bool vperf_esr_decode_sysreg(uint64_t esr, struct vperf_esr_sysreg *out)
{
	if (VPERF_FIELD_GET(esr, 31, 26) != ESR_EC_SYSREG)
		return false;
	out->enc = (uint16_t)(((esr >> 6) & 0xc000u) | ((esr >> 3) & 0x3f80u) |
			      ((esr << 2) & 0x78u) | ((esr >> 17) & 0x7u));
	out->rt = (uint8_t)VPERF_FIELD_GET(esr, 9, 5);
	out->read = (esr & ISS_DIR_READ) != 0;
	return true;
}

uint64_t vperf_esr_encode_sysreg(uint32_t enc, unsigned int rt, bool read)
{
	uint64_t esr = ((uint64_t)ESR_EC_SYSREG << ESR_EC_SHIFT) | ESR_IL;

	esr |= (uint64_t)VPERF_ENC_OP0(enc) << 20;
	esr |= (uint64_t)VPERF_ENC_OP2(enc) << 17;
	esr |= (uint64_t)VPERF_ENC_OP1(enc) << 14;
	esr |= (uint64_t)VPERF_ENC_CRN(enc) << 10;
	esr |= (uint64_t)(rt & 31u) << 5;
	esr |= (uint64_t)VPERF_ENC_CRM(enc) << 1;
	return read ? esr | ISS_DIR_READ : esr;
}
