// SPDX-License-Identifier: MIT
/*
 * Address packet payloads (Arm DDI 0487 K.a, D18.2.1; SPE 5.3.1) and the INDEX classification of
 * the Address and Counter packets, which share one layout (D18.2.1, D18.2.3).
 */
#include "spe_internal.h"

#define ADDR_MASK   VPERF_GENMASK(55, 0) /* ADDR, bytes <6:0> */
#define B7_NS	    0x80u		 /* byte 7 bit [7] */
#define B7_EL_SHIFT 5			 /* byte 7 bits [6:5] */
#define B7_CH	    0x40u		 /* byte 7 bit [6] (data PA) */
#define B7_NSE	    0x10u		 /* byte 7 bit [4] */
#define B7_PAT	    0x0fu		 /* byte 7 bits [3:0] (data PA) */

/* INDEX 0b0011x and 0b1xxxx: IMPLEMENTATION DEFINED (D18.2.1, D18.2.3). */
bool vperf_spe_addr_index_impdef(uint32_t index)
{
	return (index & 0x1eu) == 0x06u || (index >= 0x10u && index <= 0x1fu);
}

/* D18.2.1: 0 PC, 1 branch target, 2 data VA, 3 data PA, 4 previous branch target. */
bool vperf_spe_addr_index_defined(uint32_t index)
{
	return index < VPERF_SPE_ADDR_NDEF;
}

bool vperf_spe_cnt_index_impdef(uint32_t index)
{
	return vperf_spe_addr_index_impdef(index);
}

/* D18.2.3: 0 total, 1 issue, 2 translation, 4 alternate clock issue latency. */
bool vperf_spe_cnt_index_defined(uint32_t index)
{
	return index <= VPERF_SPE_CNT_XLAT || index == VPERF_SPE_CNT_ALT_ISSUE;
}

static bool is_insn_layout(uint8_t index)
{
	return index == VPERF_SPE_ADDR_PC || index == VPERF_SPE_ADDR_BR_TGT ||
	       index == VPERF_SPE_ADDR_PREV_BR;
}

/* Byte 7 bits that no field of this INDEX covers. */
static uint8_t uncovered(uint8_t index)
{
	if (is_insn_layout(index))
		return 0x0f; /* bits [3:0] read as 0b0000 */
	if (index == VPERF_SPE_ADDR_DATA_VA)
		return 0x00; /* TAG is all of byte 7 */
	if (index == VPERF_SPE_ADDR_DATA_PA)
		return 0x20; /* bit [5] reads as 0b0 */
	return 0xff;
}

void vperf_spe_addr_unpack(uint8_t index, uint64_t payload, struct vperf_spe_addr *a)
{
	uint8_t b7 = (uint8_t)(payload >> 56);

	a->addr = payload & ADDR_MASK;
	a->index = index;
	a->ns = 0;
	a->el = 0;
	a->nse = 0;
	a->tag = 0;
	a->ch = 0;
	a->pat = 0;
	a->rsvd = b7 & uncovered(index);
	if (is_insn_layout(index)) {
		a->ns = (b7 & B7_NS) ? 1 : 0;
		a->el = (uint8_t)((b7 >> B7_EL_SHIFT) & 3u);
		a->nse = (b7 & B7_NSE) ? 1 : 0;
	} else if (index == VPERF_SPE_ADDR_DATA_VA) {
		a->tag = b7;
	} else if (index == VPERF_SPE_ADDR_DATA_PA) {
		a->ns = (b7 & B7_NS) ? 1 : 0;
		a->ch = (b7 & B7_CH) ? 1 : 0;
		a->nse = (b7 & B7_NSE) ? 1 : 0;
		a->pat = b7 & B7_PAT;
	}
}

uint64_t vperf_spe_addr_pack(const struct vperf_spe_addr *a)
{
	uint8_t b7 = a->rsvd & uncovered(a->index);

	if (is_insn_layout(a->index)) {
		b7 |= (uint8_t)((a->ns ? B7_NS : 0) | ((a->el & 3u) << B7_EL_SHIFT) |
				(a->nse ? B7_NSE : 0));
	} else if (a->index == VPERF_SPE_ADDR_DATA_VA) {
		b7 = a->tag;
	} else if (a->index == VPERF_SPE_ADDR_DATA_PA) {
		b7 |= (uint8_t)((a->ns ? B7_NS : 0) | (a->ch ? B7_CH : 0) | (a->nse ? B7_NSE : 0) |
				(a->pat & B7_PAT));
	}
	return ((uint64_t)b7 << 56) | (a->addr & ADDR_MASK);
}

/* Virtual addresses are 56-bit in the packet: sign-extend bit 55 to the canonical form. */
static uint64_t sext55(uint64_t addr)
{
	return (addr & VPERF_BIT(55)) ? (addr | ~ADDR_MASK) : addr;
}

uint64_t vperf_spe_addr_value(const struct vperf_spe_addr *a)
{
	if (is_insn_layout(a->index))
		return sext55(a->addr);
	if (a->index == VPERF_SPE_ADDR_DATA_VA)
		return a->tag ? ((uint64_t)a->tag << 56) | a->addr : sext55(a->addr);
	if (a->index == VPERF_SPE_ADDR_DATA_PA)
		return a->addr;
	return vperf_spe_addr_pack(a);
}

/* D18.2.1, When FEAT_RME is implemented: NSE:NS == 0b10 is reserved. */
bool vperf_spe_addr_reserved(const struct vperf_spe_addr *a)
{
	bool has_nse = is_insn_layout(a->index) || a->index == VPERF_SPE_ADDR_DATA_PA;

	return has_nse && a->nse && !a->ns;
}
