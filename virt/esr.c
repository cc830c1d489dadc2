// SPDX-License-Identifier: MIT
/* ESR_EL2 syndromes of trapped MSR/MRS (EC=0x18); field layout in vperf/esr.h. */
#include <vperf/esr.h>

#define ISS_DIR_READ VPERF_BIT(0)

bool vperf_esr_decode_sysreg(uint64_t esr, struct vperf_esr_sysreg *out)
{
	uint32_t op0, op1, crn, crm, op2;

	if (VPERF_FIELD_GET(esr, 31, 26) != ESR_EC_SYSREG)
		return false;
	op0 = (uint32_t)VPERF_FIELD_GET(esr, 21, 20);
	op2 = (uint32_t)VPERF_FIELD_GET(esr, 19, 17);
	op1 = (uint32_t)VPERF_FIELD_GET(esr, 16, 14);
	crn = (uint32_t)VPERF_FIELD_GET(esr, 13, 10);
	crm = (uint32_t)VPERF_FIELD_GET(esr, 4, 1);
	out->enc = (uint16_t)VPERF_SYSREG_ENC(op0, op1, crn, crm, op2);
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
