// SPDX-License-Identifier: MIT
/*
 * Reading the records of the Profiling Buffer, for the checks at EL2 (smoke.c and the files
 * beside it) and at EL3 (nspb.c). Packets: Arm DDI 0487 K.a D18.2.
 */
#include "smoke.h"

/* The size of the packet whose header is h (D18.2), 0 for one this model never writes. */
unsigned int packet_size(uint8_t h)
{
	if ((h & 0xf8) == 0xb0 || h == 0x71)
		return 9; /* Address, Timestamp */
	if ((h & 0xfc) == 0x48)
		return 2; /* Operation Type */
	if (h == 0x52 || (h & 0xf8) == 0x98)
		return 3; /* Events (halfword), Counter */
	if ((h & 0xfc) == 0x64)
		return 5; /* Context */
	return h == 0x01 ? 1 : 0;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/*
 * The record at *pos of [p, p + len): its PC (Address INDEX 0, D18.2.1), data physical address
 * (Address INDEX 3), Events (D18.2.6) and Timestamp (D18.2.9). Returns 0 at the end of the data or at a packet this model never writes.
 */
int next_record(const uint8_t *p, uint64_t len, uint64_t *pos, struct record *r)
{
	r->pc = r->ts = r->pa = 0;
	r->events = 0;
	r->has_pa = 0;
	while (*pos < len) {
		uint8_t h = p[*pos];
		unsigned int sz = packet_size(h);

		if (!sz || *pos + sz > len)
			return 0;
		if (h == 0xb0)
			r->pc = le64(p + *pos + 1) & ((1ull << 56) - 1);
		if (h == 0x52)
			r->events = p[*pos + 1] | (uint32_t)p[*pos + 2] << 8;
		if (h == 0x71)
			r->ts = le64(p + *pos + 1);
		if (h == 0xb3)
			r->pa = le64(p + *pos + 1), r->has_pa = 1;
		*pos += sz;
		if (h == 0x71 || h == 0x01)
			return 1;
	}
	return 0;
}
