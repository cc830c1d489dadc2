// SPDX-License-Identifier: MIT
/*
 * CONTEXTIDR_EL2 and the Context packets (INDEX 1) of records not yet synchronized (SPE
 * SPE 3.6, Arm DDI 0487 K.a D18.2.2).
 *
 * The Context packet carries CONTEXTIDR_EL2 as the profiling operation reads it, indirectly.
 * "A direct write to a System register in program order following a PSB CSYNC instruction is not
 * allowed to affect an indirect read of the same System register made by a profiling operation
 * synchronized by the PSB CSYNC instruction" (SPE 3.6): that protects only the synchronized ones.
 * Any other may read the new value. The model takes that outcome for every record not yet
 * synchronized, queued or in flight: a hypervisor that changes CONTEXTIDR_EL2 when it switches
 * VMs without PSB CSYNC first sees its records attributed to the next VM.
 */
#include "spe_internal.h"

#define HDR_CONTEXT2 0x65u /* D18.2.2 Context packet header, INDEX 1 (spe_packet.c) */
#define CTX_LEN	     5u	   /* header and 4 bytes of payload */

/* Where a record's CONTEXTIDR_EL2 payload is: records start with their Context packets,
 * INDEX 0 first (spe_packet.c). 0 when it has none. */
static size_t ctx2_offset(const uint8_t *b, size_t len)
{
	if (len > CTX_LEN && b[0] == HDR_CONTEXT2)
		return 1;
	if (len > 2 * CTX_LEN && b[CTX_LEN] == HDR_CONTEXT2)
		return CTX_LEN + 1;
	return 0;
}

static void patch(uint8_t *b, size_t len, uint32_t val)
{
	size_t off = ctx2_offset(b, len);

	for (unsigned int i = 0; off && i < 4; i++)
		b[off + i] = (uint8_t)(val >> (8 * i));
}

void spe_contextidr2_written(unsigned int cpu, uint32_t val)
{
	struct spe_cpu *st = spe_cpu(cpu);

	for (unsigned int i = 0; i < st->qlen; i++) {
		struct spe_qrec *q = &st->queue[(st->qhead + i) % SPE_QUEUE_MAX];

		if (!q->synced)
			patch(q->bytes, q->len, val);
	}
	for (unsigned int i = 0; i < st->flen; i++) {
		struct spe_flight *f = &st->flight[(st->fhead + i) % SPE_QUEUE_MAX];

		if (!f->synced)
			patch(f->bytes, (size_t)f->len[0] + f->len[1], val);
	}
}
