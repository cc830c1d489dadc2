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
 * counter beyond N, 32-bit counters before PMUv3p5; the vSPE words as spe_ok() says), and
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
#include "log.h"
#include "policy.h"
#ifdef CONFIG_VPERF_VPMU
#include "vpmu/vpmu.h"
#endif
#ifdef CONFIG_VPERF_VSPE
#include "vspe/vspe.h"
#endif

#define BLOB_MAGIC  0x554d504652455056ull /* "VPERFPMU" read as little-endian */
#define W_REGS	    3
#define W_TYPES	    11
#define W_COUNTERS  (W_TYPES + VPERF_PMU_MAX_COUNTERS)
#define W_FLAGS	    (W_COUNTERS + VPERF_PMU_MAX_COUNTERS)
#define W_SPE	    (W_FLAGS + 1) /* version 2 */
#define SPE_WORDS   (1 + VPERF_VSPE_NR_REGS)
#define MAX_WORDS   (W_SPE + SPE_WORDS + 1)
#define FLAG_ACTIVE 1ull

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

/* The vPMU words (3-73). Without CONFIG_VPERF_VPMU every VM's PMU is OFF (vperf_vm_init refuses
 * any other mode), and its words stay 0. */
#ifdef CONFIG_VPERF_VPMU
static void pmu_fill(const struct vperf_vcpu *vcpu, uint64_t *w)
{
	const struct vperf_vpmu *s = &vcpu->pmu;
	const uint64_t regs[8] = { s->pmcr,    s->cnten, s->inten,   s->ovs,
				   s->userenr, s->selr,	 s->ccfiltr, s->ccntr };

	for (unsigned int i = 0; i < 8; i++)
		w[W_REGS + i] = regs[i];
	for (unsigned int n = 0; n < VPERF_PMU_MAX_COUNTERS; n++) {
		w[W_TYPES + n] = s->evtyper[n];
		w[W_COUNTERS + n] = s->evcntr[n];
	}
	w[W_FLAGS] = s->active ? FLAG_ACTIVE : 0;
}

/* Values a guest could have left: the same masks the register emulation applies. */
static bool pmu_values_ok(const struct vperf_vcpu *vcpu, const uint64_t *w)
{
	uint64_t mask = vpmu_mask(vcpu);
	uint64_t width = vperf_vpmu_wide_counters() ? ~0ull : 0xffffffffull;
	unsigned int nr = vcpu->vm->cfg.nr_counters;

	if ((w[W_REGS] & ~vperf_vpmu_pmcr_keep(vcpu)) || (w[W_REGS + 1] & ~mask) ||
	    (w[W_REGS + 2] & ~mask) || (w[W_REGS + 3] & ~mask) ||
	    (w[W_REGS + 4] & ~vpmu_userenr_keep(vcpu)) || w[W_REGS + 5] > 31 ||
	    (w[W_REGS + 6] & ~vperf_vpmu_evtyper_keep(vcpu, VPERF_CYCLE_IDX)))
		return false;
	for (unsigned int n = 0; n < VPERF_PMU_MAX_COUNTERS; n++) {
		uint64_t type = w[W_TYPES + n], count = w[W_COUNTERS + n];

		if (n >= nr ? type || count
			    : (type & ~vperf_vpmu_evtyper_keep(vcpu, n)) || (count & ~width))
			return false;
	}
	return true;
}

/* The interrupt line is pushed at the next load, whatever the destination's vGIC holds
 * (vperf_vpmu_reset sets irq_dirty). */
static void pmu_apply(struct vperf_vcpu *vcpu, const uint64_t *w)
{
	struct vperf_vpmu *s = &vcpu->pmu;

	vperf_vpmu_reset(vcpu);
	s->pmcr = w[W_REGS];
	s->cnten = w[W_REGS + 1];
	s->inten = w[W_REGS + 2];
	s->ovs = w[W_REGS + 3];
	s->userenr = w[W_REGS + 4];
	s->selr = w[W_REGS + 5];
	s->ccfiltr = w[W_REGS + 6];
	s->ccntr = w[W_REGS + 7];
	for (unsigned int n = 0; n < VPERF_PMU_MAX_COUNTERS; n++) {
		s->evtyper[n] = w[W_TYPES + n];
		s->evcntr[n] = w[W_COUNTERS + n];
	}
	s->active = w[W_FLAGS] & FLAG_ACTIVE;
}
#endif

static bool pmu_ok(const struct vperf_vcpu *vcpu, const uint64_t *w)
{
	if (!vpmu_on(vcpu)) {
		for (unsigned int i = W_REGS; i <= W_FLAGS; i++)
			if (w[i])
				return false;
		return true;
	}
#ifdef CONFIG_VPERF_VPMU
	return pmu_values_ok(vcpu, w);
#else
	return false;
#endif
}

/*
 * The vSPE words (version 2) at w. Restore trusts nothing: the policy must be the destination
 * VM's; every register holds only bits the trapped writes keep (vspe/regs.c, checked against
 * vperf_vspe_ref_caps()); and a buffer the guest would find enabled (PMBLIMITR_EL1.E = 1,
 * PMBSR_EL1.S = 0) must satisfy the rules the trapped enable checks (SPE 3.4.1: alignment,
 * pointer within the limit and the same tag, room for a record), since a guest could only have
 * left it enabled by passing them. That the buffer lies in the VM's own memory is, as for a
 * trapped write, the stage 2 translation's to enforce: vperf maps only the VM's memory when the
 * restored buffer faults (vspe/buffer.c). Without CONFIG_VPERF_VSPE no VM has SPE: no version 2
 * blob is ever taken or accepted.
 */
#ifdef CONFIG_VPERF_VSPE
static bool spe_ok(const struct vperf_vcpu *vcpu, const uint64_t *w)
{
	const struct vperf_pcpu_caps *caps = vperf_vspe_ref_caps();
	const uint64_t *r = w + 1;

	if (w[0] != (uint64_t)vperf_vspe_buffer(vcpu->vm))
		return false;
	for (unsigned int i = 0; i < VPERF_VSPE_NR_REGS; i++) {
		uint64_t keep = vspe_on(vcpu) ? vperf_vspe_keep(caps, (enum vperf_vspe_reg)i) : 0;

		if (r[i] & ~keep)
			return false;
	}
	if (!(r[VPERF_VSPE_PMBLIMITR] & PMBLIMITR_E) || (r[VPERF_VSPE_PMBSR] & PMBSR_S))
		return true;
	return vperf_vspe_buffer_fault(caps, r[VPERF_VSPE_PMBPTR], r[VPERF_VSPE_PMBLIMITR]) == 0;
}

static void spe_fill(const struct vperf_vcpu *vcpu, uint64_t *w)
{
	w[0] = (uint64_t)vperf_vspe_buffer(vcpu->vm);
	for (unsigned int i = 0; i < VPERF_VSPE_NR_REGS; i++)
		w[1 + i] = vcpu->spe.reg[i];
}

static void spe_apply(struct vperf_vcpu *vcpu, const uint64_t *w)
{
	bool level;

	vperf_vspe_reset(vcpu);
	for (unsigned int i = 0; i < VPERF_VSPE_NR_REGS; i++)
		vcpu->spe.reg[i] = w[1 + i];
	/* An enabled buffer goes into the hardware at the next load, as after a put. */
	vcpu->spe.active = vspe_buffer_on(vcpu);
	/* The destination usually maps guest memory lazily (a migration): the restored buffer is
	 * mapped at the load, as a trapped enable would have it, instead of at its first fault. */
	vcpu->spe.prefault = vcpu->spe.active;
	/* The virtual PMBIRQ is the virtual PMBSR_EL1.S (SPE 3.5): pushed at the next load
	 * whatever the destination's vGIC holds, by recording the opposite level as the last
	 * pushed. */
	level = (vcpu->spe.reg[VPERF_VSPE_PMBSR] & PMBSR_S) != 0;
	vcpu->spe.irq_level = !level;
	vcpu->spe.irq_dirty = true;
}
#else
static bool spe_ok(const struct vperf_vcpu *vcpu, const uint64_t *w)
{
	(void)vcpu;
	(void)w;
	return false;
}

static void spe_fill(const struct vperf_vcpu *vcpu, uint64_t *w)
{
	(void)vcpu;
	(void)w;
}

static void spe_apply(struct vperf_vcpu *vcpu, const uint64_t *w)
{
	(void)vcpu;
	(void)w;
}
#endif

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
#ifdef CONFIG_VPERF_VPMU
	if (vpmu_on(vcpu))
		pmu_fill(vcpu, w);
#endif
	if (blob_version(vcpu) == 2)
		spe_fill(vcpu, w + W_SPE);
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
	    (blob_version(vcpu) == 2 && !spe_ok(vcpu, w + W_SPE))) {
		STAT_INC(&vcpu->vm->stats, bad_value);
		return VPERF_EINVAL;
	}
#ifdef CONFIG_VPERF_VPMU
	if (vpmu_on(vcpu))
		pmu_apply(vcpu, w);
#endif
	if (blob_version(vcpu) == 2)
		spe_apply(vcpu, w + W_SPE);
	return VPERF_OK;
}
