/* SPDX-License-Identifier: MIT */
/* Helpers shared by the SPE codec files (lib/spe/); not part of the public API. */
#ifndef VPERF_SPE_INTERNAL_H
#define VPERF_SPE_INTERNAL_H

#include <vperf/spe_pkt.h>

/* Fixed header bytes and masks, SPE 5.2.1 (Figure 5) and SPE 5.2.2 (Figure 6). */
#define SPE_HDR_PAD	      0x00u
#define SPE_HDR_END	      0x01u
#define SPE_HDR_TIMESTAMP     0x71u /* 0b01110001 */
#define SPE_HDR_EVENTS	      0x42u /* 0b01xx0010, mask 0xcf */
#define SPE_HDR_DATA_SOURCE   0x43u /* 0b01xx0011, mask 0xcf */
#define SPE_MASK_SZ_LOW4      0xcfu
#define SPE_HDR_CONTEXT	      0x64u /* 0b011001xx, mask 0xfc */
#define SPE_HDR_OP_TYPE	      0x48u /* 0b010010xx, mask 0xfc */
#define SPE_MASK_LOW2	      0xfcu
#define SPE_HDR_ADDRESS	      0xb0u /* 0b10110xxx, mask 0xf8 */
#define SPE_HDR_COUNTER	      0x98u /* 0b10011xxx, mask 0xf8 */
#define SPE_MASK_LOW3	      0xf8u
#define SPE_HDR_PREFIX	      0x20u /* 0b001xxxxx, mask 0xe0: first byte of a 16-bit header */
#define SPE_MASK_PREFIX	      0xe0u
#define SPE_HDR_ALIGN	      0x20u /* 0b0010SSSS followed by 0x00, mask 0xf0 */
#define SPE_MASK_ALIGN	      0xf0u
#define SPE_PREFIX_INDEX_MASK 0x03u /* prefix bits [1:0] = INDEX[4:3]; bits [4:2] RAZ */

/* A header byte of the sized forms 0b01xxxxxx and 0b10xxxxxx (SPE 5.1.1, SPE 5.1.4). */
static inline bool spe_hdr_sized(uint8_t h)
{
	return (h & 0xc0u) == 0x40u || (h & 0xc0u) == 0x80u;
}

/* Payload bytes encoded by SZ, header bits [5:4]: 1, 2, 4 or 8. */
static inline uint8_t spe_hdr_size(uint8_t h)
{
	return (uint8_t)(1u << ((h >> 4) & 3u));
}

/* SZ field value for a payload size, or 4 (invalid) for a size that has none. */
static inline uint8_t spe_size_to_sz(uint8_t size)
{
	switch (size) {
	case 1:
		return 0;
	case 2:
		return 1;
	case 4:
		return 2;
	case 8:
		return 3;
	default:
		return 4;
	}
}

/* Little-endian load of n <= 8 bytes (SPE 5.1.3); the caller checked the bounds. */
static inline uint64_t spe_le_get(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

static inline void spe_le_put(uint8_t *p, uint64_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* Bytes an Alignment command with SIZE size takes when it starts at off (SPE 5.3.2). */
static inline size_t spe_align_len(size_t off, uint8_t size)
{
	size_t align = (size_t)1 << (size + 1u);
	size_t next = off + 2;

	return 2 + ((align - (next & (align - 1))) & (align - 1));
}

#endif /* VPERF_SPE_INTERNAL_H */
