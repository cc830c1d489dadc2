// SPDX-License-Identifier: MIT
/*
 * CONTEXTIDR_EL2, CONTEXTIDR_EL1 and CNTVOFF_EL2 and the Context packets (INDEX 1 and 0) and
 * virtual Timestamp packets of records not yet synchronized (SPE 3.6, Arm DDI 0487 K.a D18.2.2,
 * D18.2.9).
 *
 * The Context packet carries CONTEXTIDR_EL2 as the profiling operation reads it, indirectly.
 * "A direct write to a System register in program order following a PSB CSYNC instruction is not
 * allowed to affect an indirect read of the same System register made by a profiling operation
 * synchronized by the PSB CSYNC instruction" (SPE 3.6): that protects only the synchronized ones.
 * Any other may read the new value. The model takes that outcome for every record not yet
 * synchronized, queued or in flight: a hypervisor that changes CONTEXTIDR_EL2 when it switches
 * VMs without PSB CSYNC first sees its records attributed to the next VM.
 *
 * CONTEXTIDR_EL1 and CNTVOFF_EL2 are the guest's context, which a hypervisor switches between
 * vCPUs at EL2: a write at EL2 that changes what such a record of a guest operation carries is
 * also reported, as a switch that ran before the put that synchronizes the guest's records
 * (docs/integration.md).
 * At EL1 (a guest's own CONTEXTIDR_EL1 write) it is the guest's business and only patches.
 */
#include "spe_internal.h"

#define HDR_CONTEXT2  0x65u /* D18.2.2 Context packet header, INDEX 1 (spe_packet.c) */
#define HDR_CONTEXT1  0x64u /* INDEX 0: CONTEXTIDR_EL1 */
#define HDR_TIMESTAMP 0x71u /* D18.2.9 (spe_packet.c) */
#define HDR_END	      0x01u
#define HDR_PC	      0xb0u /* D18.2.1 Address packet, INDEX 0 */
#define CTX_LEN	      5u    /* header and 4 bytes of payload */

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

/* The payload offset of the first packet with header hdr, walking the model's own packets (short
 * headers only: bits [5:4] give the payload size; Padding and End have none). 0: none. */
static size_t find_packet(const uint8_t *b, size_t len, uint8_t hdr)
{
	size_t o = 0;

	while (o < len && b[o] != HDR_END) {
		size_t payload = b[o] ? (size_t)1 << (b[o] >> 4 & 3) : 0;

		if (b[o] == hdr && o + 1 + payload <= len)
			return o + 1;
		o += 1 + payload;
	}
	return 0;
}

static uint64_t get_le(const uint8_t *b, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)b[i] << (8 * i);
	return v;
}

static void put_le(uint8_t *b, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

/* A record of a guest's operation: its PC packet (INDEX 0) says EL0 or EL1 (bits [62:61],
 * D18.2.1). The host's own EL2 records are its business. */
static bool guest_record(const uint8_t *b, size_t len)
{
	size_t off = find_packet(b, len, HDR_PC);

	return off && (get_le(b + off, 8) >> 61 & 3) < 2;
}

/* Rewrite one record not yet synchronized: its Context INDEX 0 payload to ctx1, or its virtual
 * Timestamp moved by delta. True when a guest's record changed. */
static bool reread(uint8_t *b, size_t len, bool is_ctx1, uint64_t val)
{
	size_t off = find_packet(b, len, is_ctx1 ? HDR_CONTEXT1 : HDR_TIMESTAMP);
	size_t n = is_ctx1 ? 4 : 8;
	uint64_t now, next;

	if (!off)
		return false;
	now = get_le(b + off, n);
	next = is_ctx1 ? val : now + val;
	put_le(b + off, n, next);
	return next != now && guest_record(b, len);
}

static void guest_context_written(unsigned int cpu, bool is_ctx1, uint64_t val, const char *what)
{
	struct spe_cpu *st = spe_cpu(cpu);
	bool changed = false;

	for (unsigned int i = 0; i < st->qlen; i++) {
		struct spe_qrec *q = &st->queue[(st->qhead + i) % SPE_QUEUE_MAX];

		if (!q->synced)
			changed |= reread(q->bytes, q->len, is_ctx1, val);
	}
	for (unsigned int i = 0; i < st->flen; i++) {
		struct spe_flight *f = &st->flight[(st->fhead + i) % SPE_QUEUE_MAX];

		if (!f->synced)
			changed |= reread(f->bytes, (size_t)f->len[0] + f->len[1], is_ctx1, val);
	}
	if (changed && sim_el() == 2) /* the callers write on the current CPU */
		sim_report_error(cpu, what);
}

void sim_spe_write_contextidr_el1(unsigned int cpu, uint32_t val)
{
	spe_cpu(cpu)->contextidr[0] = val;
	guest_context_written(cpu, true, val,
			      "SPE: CONTEXTIDR_EL1 switched at EL2 with records not synchronized "
			      "by PSB CSYNC: they carry the next context's (SPE 3.6)");
}

/* A virtual timestamp is CNTPCT - CNTVOFF as the profiling operation reads them; only records
 * that collect virtual time (the controls as they are now, which a record not yet synchronized
 * also reads late) move. */
void sim_spe_write_cntvoff(unsigned int cpu, uint64_t val)
{
	struct spe_cpu *st = spe_cpu(cpu);
	uint64_t delta = st->cntvoff - val;

	st->cntvoff = val;
	if (spe_collect_timestamp(cpu) == SPE_TS_VIRTUAL)
		guest_context_written(cpu, false, delta,
				      "SPE: CNTVOFF_EL2 switched at EL2 with records not "
				      "synchronized by PSB CSYNC: their virtual time is the next "
				      "context's (SPE 3.6)");
}

/* The register an EL2 access by name reaches: 1 the guest's CONTEXTIDR_EL1, 2 CONTEXTIDR_EL2,
 * 0 none (UNDEFINED, reported). */
static unsigned int ctx1_target(unsigned int cpu, enum sim_ctx1_name name)
{
	bool e2h = (sim_reg(cpu, SIM_ENC_HCR_EL2) & SIM_HCR_EL2_E2H) != 0;

	if (name == SIM_CTX1_BY_EL1)
		return e2h ? 2u : 1u;
	if (e2h)
		return 1u;
	sim_report_error(cpu, "EL2 access of CONTEXTIDR_EL12 with HCR_EL2.E2H = 0 (UNDEFINED)");
	return 0u;
}

void sim_spe_el2_write_contextidr1(unsigned int cpu, enum sim_ctx1_name name, uint32_t val)
{
	switch (ctx1_target(cpu, name)) {
	case 1u:
		sim_spe_write_contextidr_el1(cpu, val);
		break;
	case 2u: /* as an EL2 write of CONTEXTIDR_EL2 by its own name (spe.c) */
		spe_contextidr2_written(cpu, val);
		sim_set_reg(cpu, SIM_ENC_CONTEXTIDR_EL2, val);
		break;
	default:
		break;
	}
}

uint32_t sim_spe_el2_read_contextidr1(unsigned int cpu, enum sim_ctx1_name name)
{
	switch (ctx1_target(cpu, name)) {
	case 1u:
		return sim_spe_contextidr_el1(cpu);
	case 2u:
		return (uint32_t)sim_reg(cpu, SIM_ENC_CONTEXTIDR_EL2);
	default:
		return 0;
	}
}

uint32_t sim_spe_contextidr_el1(unsigned int cpu)
{
	return spe_cpu(cpu)->contextidr[0];
}

uint64_t sim_spe_cntvoff(unsigned int cpu)
{
	return spe_cpu(cpu)->cntvoff;
}
