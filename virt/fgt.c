// SPDX-License-Identifier: MIT
/*
 * HDFGRTR_EL2 and HDFGWTR_EL2 (FEAT_FGT): the one place that decides their values. A vCPU runs
 * with the hypervisor's own values (vperf_pcpu_config.host_hdfgrtr, host_hdfgwtr) outside the PMU
 * fields, which are vperf's (vperf/fgt.h): clear, except the type registers and PMCEID<n>_EL0 of
 * a direct-partition VM whose event filter does not allow every event, so that such a VM
 * counts untrapped while every event it programs passes the filter (docs/vpmu.md), and
 * PMCEID<n>_EL0 alone of one on pCPUs whose common events differ (vperf_vm_fgt_pmceid); and, on top
 * of the hypervisor's value, the PMBSR_EL1 read and write traps of a VM with an untrapped
 * guest-owned Profiling Buffer (vperf_vm_fgt_pmbsr, docs/vspe.md). At put the
 * host gets its values back whole. Each register is written only when its value changes: VMs
 * with no fine-grained trap switch with no access to either.
 */
#include <arch/sysreg.h>
#include <vperf/fgt.h>

#include "fgt.h"
#include "log.h"

bool vperf_fgt_host_ok(const struct vperf_pcpu *pcpu)
{
	if (pcpu->caps.fgt || !(pcpu->cfg.host_hdfgrtr | pcpu->cfg.host_hdfgwtr))
		return true;
	vperf_log(VPERF_LOG_ERR, "vperf: pcpu_init: host_hdfgrtr/host_hdfgwtr given on a PE "
				 "without FEAT_FGT");
	return false;
}

/*
 * The VM classes (bit t + 8 * t2, a VM's fgt_class) whose four values are these: those whose
 * vm_hdfgrtr[t], vm_hdfgwtr[t], vm_hdfgrtr2[t2] and vm_hdfgwtr2[t2] equal them. Asked at
 * pcpu_init for every class and for the host's values (fgt_same, fgt_held_host), so that a load or
 * put keeps pcpu->fgt_held, which the switch's fast path reads (vperf_fgt_current), with one load
 * and store instead of these comparisons.
 */
static uint16_t classes_holding(const struct vperf_pcpu *pcpu, uint64_t rtr, uint64_t wtr,
				uint64_t rtr2, uint64_t wtr2)
{
	unsigned int types = 0, held = 0;

	for (unsigned int t = 0; t < VPERF_FGT_NR; t++)
		if (rtr == pcpu->vm_hdfgrtr[t] && wtr == pcpu->vm_hdfgwtr[t])
			types |= 1u << t;
	for (unsigned int t2 = 0; t2 < 2; t2++)
		if (rtr2 == pcpu->vm_hdfgrtr2[t2] && wtr2 == pcpu->vm_hdfgwtr2[t2])
			held |= types << (VPERF_FGT_NR * t2);
	return (uint16_t)held;
}

/* After fgt2_pcpu_init and the values above: the record of what the registers hold. */
static void fgt_held_init(struct vperf_pcpu *pcpu)
{
	uint64_t host_rtr2 = pcpu->caps.fgt2 ? pcpu->cfg.host_hdfgrtr2 : pcpu->cur_hdfgrtr2;
	uint64_t host_wtr2 = pcpu->caps.fgt2 ? pcpu->cfg.host_hdfgwtr2 : pcpu->cur_hdfgwtr2;

	for (unsigned int c = 0; c < 2 * VPERF_FGT_NR; c++)
		pcpu->fgt_same[c] = classes_holding(pcpu, pcpu->vm_hdfgrtr[c % VPERF_FGT_NR],
						    pcpu->vm_hdfgwtr[c % VPERF_FGT_NR],
						    pcpu->vm_hdfgrtr2[c / VPERF_FGT_NR],
						    pcpu->vm_hdfgwtr2[c / VPERF_FGT_NR]);
	/* What vperf_fgt_put leaves: the host's values (HDFGRTR2/HDFGWTR2 only with FEAT_FGT2). */
	pcpu->fgt_held_host = classes_holding(pcpu, pcpu->cfg.host_hdfgrtr, pcpu->cfg.host_hdfgwtr,
					      host_rtr2, host_wtr2);
	pcpu->fgt_held = classes_holding(pcpu, pcpu->cur_hdfgrtr, pcpu->cur_hdfgwtr,
					 pcpu->cur_hdfgrtr2, pcpu->cur_hdfgwtr2);
}

void vperf_fgt_set(struct vperf_pcpu *pcpu, uint64_t rtr, uint64_t wtr)
{
	if (pcpu->cur_hdfgrtr != rtr) {
		write_sysreg(rtr, HDFGRTR_EL2);
		pcpu->cur_hdfgrtr = rtr;
	}
	if (pcpu->cur_hdfgwtr != wtr) {
		write_sysreg(wtr, HDFGWTR_EL2);
		pcpu->cur_hdfgwtr = wtr;
	}
}

/*
 * A vCPU's values are the host's outside vperf's fields, plus the type traps of a VM with
 * fgt_types. No ISB at load: as for MDCR_EL2 (mdcr.c), the ERET into the guest synchronizes,
 * and no EL2 code depends on these traps, which act on EL1 and EL0 only. Without FEAT_FGT
 * every value is 0, the host's included (vperf_fgt_host_ok), and so is the cached one: nothing
 * is ever written to registers that do not exist.
 */
static void fgt2_pcpu_init(struct vperf_pcpu *pcpu);

void vperf_fgt_pcpu_init(struct vperf_pcpu *pcpu)
{
	fgt2_pcpu_init(pcpu);
	uint64_t rtr = pcpu->cfg.host_hdfgrtr & ~HDFGRTR_VPERF_MASK;
	uint64_t wtr = pcpu->cfg.host_hdfgwtr & ~HDFGWTR_VPERF_MASK;

	if (!pcpu->caps.fgt) {
		pcpu->cur_hdfgrtr = pcpu->cur_hdfgwtr = 0;
		for (unsigned int t = 0; t < VPERF_FGT_NR; t++)
			pcpu->vm_hdfgrtr[t] = pcpu->vm_hdfgwtr[t] = 0;
		pcpu->fgt_host_pmu = false;
		fgt_held_init(pcpu);
		return;
	}
	pcpu->fgt_host_pmu = rtr != pcpu->cfg.host_hdfgrtr || wtr != pcpu->cfg.host_hdfgwtr;
	for (unsigned int t = 0; t < VPERF_FGT_NR; t++) {
		pcpu->vm_hdfgrtr[t] = rtr | (t & VPERF_FGT_TYPES ? HDFGRTR_TYPES : 0) |
				      (t & VPERF_FGT_PMCEID ? HDFGRTR_PMCEIDN : 0) |
				      (t & VPERF_FGT_PMBSR ? HDFG_PMBSR : 0);
		pcpu->vm_hdfgwtr[t] = wtr | (t & VPERF_FGT_TYPES ? HDFGWTR_TYPES : 0) |
				      (t & VPERF_FGT_PMBSR ? HDFG_PMBSR : 0);
	}
	/* Unknown: the first load writes them. */
	pcpu->cur_hdfgrtr = pcpu->cur_hdfgwtr = ~0ull;
	fgt_held_init(pcpu);
}

void vperf_fgt2_set(struct vperf_pcpu *pcpu, uint64_t rtr, uint64_t wtr)
{
	if (pcpu->cur_hdfgrtr2 != rtr) {
		write_sysreg(rtr, HDFGRTR2_EL2);
		pcpu->cur_hdfgrtr2 = rtr;
	}
	if (pcpu->cur_hdfgwtr2 != wtr) {
		write_sysreg(wtr, HDFGWTR2_EL2);
		pcpu->cur_hdfgwtr2 = wtr;
	}
}

/*
 * FEAT_FGT2 (vperf/fgt.h): a direct-partition vCPU runs with MDCR_EL2.TPM = 0, which leaves
 * PMICNTR_EL0, PMICFILTR_EL0, PMUACR_EL1 and PMZR_EL0 untrapped: its values clear vperf's "n"
 * fields, so that those accesses trap and get UNDEF (a VM is shown neither PMUv3p9 nor
 * FEAT_PMUv3_ICNTR, policy.c). Every other vCPU runs with the host's values (TPM traps them
 * all). Without FEAT_FGT2 nothing is ever written (every value and the cached one are 0).
 */
static void fgt2_pcpu_init(struct vperf_pcpu *pcpu)
{
	uint64_t rtr = pcpu->cfg.host_hdfgrtr2, wtr = pcpu->cfg.host_hdfgwtr2;

	if (!pcpu->caps.fgt2) {
		pcpu->cur_hdfgrtr2 = pcpu->cur_hdfgwtr2 = 0;
		pcpu->vm_hdfgrtr2[0] = pcpu->vm_hdfgrtr2[1] = 0;
		pcpu->vm_hdfgwtr2[0] = pcpu->vm_hdfgwtr2[1] = 0;
		return;
	}
	pcpu->vm_hdfgrtr2[0] = rtr;
	pcpu->vm_hdfgwtr2[0] = wtr;
	pcpu->vm_hdfgrtr2[1] = rtr & ~HDFGRTR2_VPERF_MASK;
	pcpu->vm_hdfgwtr2[1] = wtr & ~HDFGWTR2_VPERF_MASK;
	/* Unknown (they reset to UNKNOWN values): the first load or put writes them. */
	pcpu->cur_hdfgrtr2 = pcpu->cur_hdfgwtr2 = ~0ull;
}

void vperf_fgt_put(struct vperf_pcpu *pcpu)
{
	vperf_fgt_set(pcpu, pcpu->cfg.host_hdfgrtr, pcpu->cfg.host_hdfgwtr);
	if (pcpu->caps.fgt2)
		vperf_fgt2_set(pcpu, pcpu->cfg.host_hdfgrtr2, pcpu->cfg.host_hdfgwtr2);
	pcpu->fgt_held = pcpu->fgt_held_host;
}
