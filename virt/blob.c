// SPDX-License-Identifier: MIT
/*
 * A vCPU's vPMU and vSPE state as a flat, versioned blob for migration and snapshots, built
 * whenever either is configured (a VM with SPE and no vPMU has a blob too). Every field
 * is a 64-bit little-endian word, whatever the host's byte order. Version 1, for a VM without SPE
 * (VPERF_VPMU_BLOB_SIZE, 75 words):
 *
 *   word 0      magic "VPERFPMU"
 *   word 1      version (bits 31:0) | guest counter count N (bits 39:32)
 *   word 2      blob size in bytes
 *   words 3-10  PMCR, PMCNTENSET, PMINTENSET, PMOVSSET, PMUSERENR, PMSELR, PMCCFILTR, PMCCNTR
 *   words 11-41 PMEVTYPER0-30
 *   words 42-72 PMEVCNTR0-30
 *   word 73     flags (bit 0: the vPMU was active)
 *   word 74     FNV-1a 64 of words 0-73
 *
 * Version 2, for a VM with SPE (VPERF_VSPE_BLOB_SIZE, 86 words): words 0-73 as in version 1, then
 *
 *   word 74     the VM's Profiling Buffer policy (enum vperf_spe_buffer, the default resolved)
 *   words 75-84 PMSCR, PMSICR, PMSIRR, PMSFCR, PMSEVFR, PMSLATFR, PMSNEVFR, PMBPTR, PMBLIMITR,
 *               PMBSR (the guest's _EL1 registers; PMBSR the virtual one)
 *   word 85     FNV-1a 64 of words 0-84
 *
 * A VM with SPE whose PMU is OFF has a version 2 blob too, its vPMU words (3-73) all 0: it has no
 * vPMU state, and a blob that claims some is refused.
 *
 * Save writes the version the VM's configuration calls for; restore takes only that version.
 * Restore trusts nothing: it checks the framing, the checksum, the VM's counter count, and that
 * every register value is one the guest could have produced (no RES0 or out-of-range bits, no
 * counter beyond N, 32-bit counters before PMUv3p5; the vSPE words as vspe/blob.c says), and
 * applies nothing from a bad blob.
 *
 * The vSPE words (version 2): the VM's Profiling Buffer policy, then the guest's ten SPE
 * registers in enum vperf_vspe_reg order. Records in flight: the blob is taken with the vCPU put
 * (vperf_vcpu_save refuses a loaded vCPU), and the put drained the buffer (PSB CSYNC, DSB:
 * vspe/switch.c), so every record the guest's profiling produced is in its memory, which the
 * hypervisor migrates, and PMBPTR_EL1 here points just past the last one. Nothing of the
 * hardware is in the blob. A VM profiled from outside (VPERF_SPE_BUF_EL2) has no guest SPE
 * state: its blob carries the policy and ten zero registers, so that it is not restored into a
 * VM whose guest owns a buffer (nor the reverse). The host's own sampling of it is the host's to
 * save.
 */
#include "blob_layout.h"
#include "log.h"
#include "mdcr.h"
#include "vm_config.h"
#include "vpmu/entry.h"
#include "vspe/entry.h"

_Static_assert((W_FLAGS + 2) * 8 == VPERF_VPMU_BLOB_SIZE, "blob layout, version 1");
_Static_assert(MAX_WORDS * 8 == VPERF_VSPE_BLOB_SIZE, "blob layout, version 2");

/* The version a VM's blob has, and its length in words (the checksum is the last). */
static unsigned int blob_version(const struct vperf_vcpu *vcpu)
{
	return vcpu->vm->cfg.spe ? 2u : 1u;
}

/* A VM has a blob when it has a vPMU or a vSPE (vperf_vcpu_save returns VPERF_ENODEV otherwise). */
static bool has_state(const struct vperf_vcpu *vcpu)
{
	return vpmu_on(vcpu) || vcpu->vm->cfg.spe;
}

static unsigned int blob_words(const struct vperf_vcpu *vcpu)
{
	return blob_version(vcpu) == 2 ? MAX_WORDS : W_FLAGS + 2;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (unsigned int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* A VM without a vPMU has none of its state: its words are 0. */
static bool pmu_ok(const struct vperf_vcpu *vcpu, const uint64_t *w)
{
	if (!vpmu_on(vcpu)) {
		for (unsigned int i = W_REGS; i <= W_FLAGS; i++)
			if (w[i])
				return false;
		return true;
	}
	return vperf_vpmu_blob_ok(vcpu, w);
}

int vperf_vcpu_save(const struct vperf_vcpu *vcpu, void *buf, size_t len)
{
	uint64_t w[MAX_WORDS] = { 0 };
	unsigned int sum = blob_words(vcpu) - 1;
	uint8_t *out = buf;

	if (!has_state(vcpu))
		return VPERF_ENODEV; /* no vPMU, no vSPE: no state */
	if (len < 8 * (sum + 1))
		return VPERF_ENOSPC;
	/* Live state is in hardware: put the vCPU first. The put also drained the guest's
	 * Profiling Buffer, so its records are all in its memory. */
	if (vcpu->pcpu || vperf_vcpu_parked(vcpu))
		return VPERF_EBUSY;
	w[0] = BLOB_MAGIC;
	w[1] = blob_version(vcpu) | (uint64_t)vcpu->vm->cfg.nr_counters << 32;
	w[2] = 8 * (sum + 1);
	if (vpmu_on(vcpu))
		vperf_vpmu_blob_fill(vcpu, w);
	if (blob_version(vcpu) == 2)
		vperf_vspe_blob_fill(vcpu, w + W_SPE);
	for (unsigned int i = 0; i < sum; i++)
		put64(out + 8 * i, w[i]);
	put64(out + 8 * sum, fnv1a(out, 8 * sum));
	return (int)(8 * (sum + 1));
}

static bool framing_ok(const struct vperf_vcpu *vcpu, const uint64_t *w, const uint8_t *in)
{
	unsigned int sum = blob_words(vcpu) - 1;

	return w[0] == BLOB_MAGIC && (w[1] & 0xffffffffull) == blob_version(vcpu) &&
	       w[1] >> 32 == vcpu->vm->cfg.nr_counters && w[2] == 8 * (sum + 1) &&
	       w[sum] == fnv1a(in, 8 * sum) && !(w[W_FLAGS] & ~FLAG_ACTIVE);
}

int vperf_vcpu_restore(struct vperf_vcpu *vcpu, const void *buf, size_t len)
{
	const uint8_t *in = buf;
	uint64_t w[MAX_WORDS];

	if (!has_state(vcpu))
		return VPERF_ENODEV;
	if (vcpu->pcpu || vperf_vcpu_parked(vcpu))
		return VPERF_EBUSY;
	if (len != 8 * blob_words(vcpu))
		return VPERF_EINVAL;
	for (unsigned int i = 0; i < blob_words(vcpu); i++)
		w[i] = get64(in + 8 * i);
	if (!framing_ok(vcpu, w, in) || !pmu_ok(vcpu, w) ||
	    (blob_version(vcpu) == 2 && !vperf_vspe_blob_ok(vcpu, w + W_SPE))) {
		STAT_INC(&vcpu->vm->stats, bad_value);
		return VPERF_EINVAL;
	}
	if (vpmu_on(vcpu))
		vperf_vpmu_blob_apply(vcpu, w);
	if (blob_version(vcpu) == 2)
		vperf_vspe_blob_apply(vcpu, w + W_SPE);
	/* Its MDCR_EL2 may follow the state (a second-range guest's PMCR_EL0.E and LP, ../mdcr.c). */
	vperf_mdcr_stale(vcpu);
	return VPERF_OK;
}
