// SPDX-License-Identifier: MIT
/*
 * What vperf knows of the machine it runs on: the hypervisor's ops, and what every initialised
 * pCPU offers (struct vperf_platform, platform.h). The entry points fill it (vperf_init,
 * vperf_pcpu_init); the rest of virt/ only reads it.
 */
#include <vperf/spe_regs.h>

#include "ops.h"
#include "platform.h"

const struct vperf_hyp_ops *vperf_ops;
static struct vperf_platform platform;

const struct vperf_platform *vperf_platform(void)
{
	return &platform;
}

void vperf_platform_reset(const struct vperf_hyp_ops *ops)
{
	static const struct vperf_platform none;

	vperf_ops = ops;
	platform = none;
}

/*
 * The SPE ID view (struct vperf_platform, spe_pmsidr and spe_pmbidr), one rule per field, so that
 * what a guest was told holds on every pCPU its vCPU may run on:
 *  - the features and filters of PMSIDR_EL1 (FE, FT, FL, ArchInst, LDS, ERnd, FnE): the AND. A
 *    filter or a register field the view shows (PMSFCR_EL1.FE/FT/FL/FnE, PMSICR_EL1.ECOUNT with
 *    ERnd, SPE 4.3.9, 4.3.10) is one every pCPU has, so a control the guest set is never RES0
 *    where it lands; ArchInst 0 (micro-op sampling) and LDS 0 promise less than 1.
 *  - Interval, the recommended minimum sampling interval (SPE 4.3.11): the largest, a minimum
 *    that holds on every pCPU (its encodings grow with the interval).
 *  - CountSize (SPE 4.3.11): the smallest, so that PMSLATFR_EL1.MINLAT (as wide as the
 *    counters, SPE 4.3.13) holds only bits every pCPU has.
 *  - PMBIDR_EL1.Align, PMSIDR_EL1.MaxSize and Format (the records' layout): equal, or no view.
 *    The PE pads every record to its own Align and writes records up to its own MaxSize (SPE
 *    4.3.1, 4.3.11): records written on a pCPU with a smaller Align leave PMBPTR_EL1 unaligned
 *    for one with a larger (an Alignment fault the guest cannot avoid), and no one MaxSize a
 *    guest could be shown holds for both the room it must leave (SPE 3.4.1) and the records it
 *    gets.
 *  - PMBIDR_EL1.F: equal too. PMBIDR_EL1 has no trap ("Traps and enables: None", SPE 4.3.1):
 *    the guest reads the pCPU's own, so only a value every pCPU has is one view (Align, P = 0
 *    under E2PB = 0b1x, and F).
 */
#define SPE_IDR_AND                                                                       \
	(PMSIDR_FE | PMSIDR_FT | PMSIDR_FL | PMSIDR_ARCHINST | PMSIDR_LDS | PMSIDR_ERND | \
	 PMSIDR_FNE)
#define SPE_IDR_SAME  (PMSIDR_MAXSIZE | PMSIDR_FORMAT)
#define SPE_BIDR_SAME (PMBIDR_ALIGN | PMBIDR_F)

static uint64_t field_max(uint64_t a, uint64_t b, uint64_t mask)
{
	return (a & mask) > (b & mask) ? a & mask : b & mask;
}

static uint64_t field_min(uint64_t a, uint64_t b, uint64_t mask)
{
	return (a & mask) < (b & mask) ? a & mask : b & mask;
}

/* Align, F, MaxSize or Format of caps differ from the view's. */
static bool spe_ids_differ(const struct vperf_platform *p, const struct vperf_pcpu_caps *caps)
{
	return ((caps->pmsidr ^ p->spe_pmsidr) & SPE_IDR_SAME) ||
	       ((caps->pmbidr ^ p->spe_pmbidr) & SPE_BIDR_SAME);
}

static void add_spe_ids(struct vperf_platform *p, const struct vperf_pcpu_caps *caps)
{
	uint64_t idr = caps->pmsidr, bidr = caps->pmbidr;

	if (!caps->pmsver)
		return; /* no SPE, or the firmware's (probe_spe): no ID register read */
	if (!p->any_spe_ids) {
		p->any_spe_ids = true;
		p->spe_pmsidr =
			idr & (SPE_IDR_AND | SPE_IDR_SAME | PMSIDR_INTERVAL | PMSIDR_COUNTSIZE);
		p->spe_pmbidr = bidr & SPE_BIDR_SAME;
		return;
	}
	p->spe_ids_differ |= spe_ids_differ(p, caps);
	p->spe_pmsidr = (p->spe_pmsidr & idr & SPE_IDR_AND) | (p->spe_pmsidr & SPE_IDR_SAME) |
			field_max(p->spe_pmsidr, idr, PMSIDR_INTERVAL) |
			field_min(p->spe_pmsidr, idr, PMSIDR_COUNTSIZE);
}

void vperf_platform_add(const struct vperf_pcpu *pcpu)
{
	struct vperf_platform *p = &platform;

	if (!p->any || pcpu->hpmn < p->min_hpmn)
		p->min_hpmn = pcpu->hpmn;
	if (!p->any || pcpu->epmn - pcpu->hpmn < p->min_second)
		p->min_second = (uint8_t)(pcpu->epmn - pcpu->hpmn);
	if (!p->any || pcpu->caps.pmuver < p->min_pmuver)
		p->min_pmuver = pcpu->caps.pmuver;
	if (!p->any || pcpu->caps.pmsver < p->min_pmsver)
		p->min_pmsver = pcpu->caps.pmsver;
	for (unsigned int i = 0; i < 2; i++) {
		p->pmceid_differs |= p->any && pcpu->caps.pmceid[i] != p->first_caps.pmceid[i];
		p->pmceid[i] = p->any ? p->pmceid[i] & pcpu->caps.pmceid[i] : pcpu->caps.pmceid[i];
	}
	if (!p->any)
		p->first_caps = pcpu->caps;
	add_spe_ids(p, &pcpu->caps);
	p->any_newer_regs |= pcpu->direct_newer_regs;
	p->any_mt_counts |= pcpu->mt_counts;
	p->any = true;
	p->any_unenforced |= pcpu->cfg.hpmn_unenforced;
	p->any_aarch64_only |= !pcpu->caps.aarch32;
	p->any_no_el3 |= !pcpu->caps.el3;
	p->any_no_host_spe |= !pcpu->cfg.host_spe;
	p->any_no_export |= !pcpu->caps.export_bus;
	p->any_no_fgt |= !pcpu->caps.fgt;
	/* The SAMPLE_* events are the PMU's wherever SPE is implemented, its buffer vperf's to
	 * use or not (spe_el3): hidden from VMs without a vSPE either way. */
	p->any_spe |= pcpu->caps.pmsver != 0 || pcpu->caps.spe_el3;
	p->any_no_hpmn0 |= !pcpu->caps.hpmn0;
	p->any_no_ecv |= !pcpu->caps.ecv;
	p->any_host_first |= pcpu->cfg.host_first_range;
	p->any_host_second |= !pcpu->cfg.host_first_range;
}

static uint8_t max_u8(uint8_t a, uint8_t b)
{
	return a > b ? a : b;
}

void vperf_platform_demand(const struct vperf_demands *d)
{
	struct vperf_demands *all = &platform.demands;

	all->counters = max_u8(all->counters, d->counters);
	all->pmuver = max_u8(all->pmuver, d->pmuver);
	all->pmsver = max_u8(all->pmsver, d->pmsver);
	for (unsigned int i = 0; i < 2; i++)
		all->pmceid[i] |= d->pmceid[i];
	all->direct |= d->direct;
	all->pmceid_exact |= d->pmceid_exact;
	all->el3 |= d->el3;
	all->aarch32 |= d->aarch32;
	all->export_bus |= d->export_bus;
	all->host_spe |= d->host_spe;
	all->ecv |= d->ecv;
	all->spe_ids |= d->spe_ids;
	all->first |= d->first;
	all->second = max_u8(all->second, d->second);
}

/* Where the guests' counters are: a VM's range must be the guests' on every pCPU (a second-range
 * VM's host keeps the first range, enforces HPMN at EL1 and leaves room for its counters and its
 * cycle counter). */
static const char *range_refusal(const struct vperf_pcpu *pcpu, const struct vperf_demands *d)
{
	if (d->first && pcpu->cfg.host_first_range)
		return "its host keeps the first range (host_first_range), a VM's counters' range";
	if (d->second && !pcpu->cfg.host_first_range)
		return "a VM's counters are in the second range, which its host keeps";
	if (d->second && (pcpu->cfg.hpmn_unenforced || pcpu->epmn - pcpu->hpmn < d->second))
		return "its second range does not hold a VM's counters, or HPMN is not enforced";
	return NULL;
}

/* The PMU side: a guest counter at or above MDCR_EL2.HPMN is UNDEFINED at EL1 before
 * MDCR_EL2.TPM applies, and the counters from HPMN on are the host's (vperf_vm_init's rule); a
 * direct guest is isolated by the hardware alone (policy.c, direct_possible). */
static const char *pmu_refusal(const struct vperf_pcpu *pcpu, const struct vperf_demands *d)
{
	if (pcpu->caps.pmuver < d->pmuver)
		return "its PMUVer is below the one a VM with a vPMU was shown";
	if ((d->pmceid[0] & ~pcpu->caps.pmceid[0]) || (d->pmceid[1] & ~pcpu->caps.pmceid[1]))
		return "it lacks a common event (PMCEID0/1_EL0) a VM with a vPMU was shown";
	/* One more event is a change too: a pCPU with SPE adds SPE's SAMPLE_* events (SPE 2.6),
	 * which an untrapped direct VM would list and count. */
	if (d->pmceid_exact && (pcpu->caps.pmceid[0] != platform.pmceid[0] ||
				pcpu->caps.pmceid[1] != platform.pmceid[1]))
		return "its common events (PMCEID0/1_EL0) differ from those a direct VM reads "
		       "untrapped";
	if (pcpu->hpmn < d->counters)
		return "its first range [0, HPMN) is smaller than a VM's counters";
	if (range_refusal(pcpu, d))
		return range_refusal(pcpu, d);
	if (d->direct && pcpu->cfg.hpmn_unenforced)
		return "it does not enforce MDCR_EL2.HPMN (hpmn_unenforced) and a VM is direct";
	if (d->aarch32 && !pcpu->caps.aarch32)
		return "it lacks AArch32 at EL0, and a VM's PMCR_EL0.LC and D hold a value";
	if ((d->el3 && !pcpu->caps.el3) || (d->export_bus && !pcpu->caps.export_bus))
		return "it lacks EL3 or the export bus, whose fields a direct VM holds";
	return NULL;
}

/* A VM with a vSPE was shown the view (add_spe_ids): a pCPU that would change it, taking a
 * feature away, raising the Interval, narrowing the counters or with another Align, F, MaxSize
 * or Format, could not give that VM what it was told. */
static const char *spe_ids_refusal(const struct vperf_pcpu_caps *caps)
{
	const struct vperf_platform *p = &platform;

	if (p->spe_pmsidr & SPE_IDR_AND & ~caps->pmsidr)
		return "it lacks an SPE feature of PMSIDR_EL1 a VM with a vSPE was shown";
	if ((caps->pmsidr & PMSIDR_INTERVAL) > (p->spe_pmsidr & PMSIDR_INTERVAL))
		return "its PMSIDR_EL1.Interval is above the one a VM with a vSPE was shown";
	if ((caps->pmsidr & PMSIDR_COUNTSIZE) < (p->spe_pmsidr & PMSIDR_COUNTSIZE))
		return "its PMSIDR_EL1.CountSize is below the one a VM with a vSPE was shown";
	if (spe_ids_differ(p, caps))
		return "its PMBIDR_EL1.Align or F, PMSIDR_EL1.MaxSize or Format differ from a vSPE "
		       "VM's";
	return NULL;
}

const char *vperf_platform_refusal(const struct vperf_pcpu *pcpu)
{
	const struct vperf_demands *d = &platform.demands;
	const char *why = pmu_refusal(pcpu, d);

	if (why)
		return why;
	if (pcpu->caps.pmsver < d->pmsver)
		return "its PMSVer is below the one a VM with SPE was shown";
	if (d->host_spe && !pcpu->cfg.host_spe)
		return "no host_spe, and a VM is profiled from outside (VPERF_SPE_BUF_EL2)";
	if (d->ecv && !pcpu->caps.ecv)
		return "no FEAT_ECV, and a VM with SPE keeps PMSCR_EL1.PCT[1]";
	if (d->spe_ids)
		return spe_ids_refusal(&pcpu->caps);
	return NULL;
}
