// SPDX-License-Identifier: MIT
/*
 * A VM's policy (vperf_vm_init), checked against what every initialised pCPU can give, and the
 * ID register view that follows from it.
 */
#include <vperf/id_regs.h>

#include "fgt.h"
#include "log.h"
#include "mdcr.h"
#include "platform.h"
#include "vm_config.h"
#include "vpmu/vpmu.h"
#include "vspe/entry.h"

/*
 * The direct partition (docs/design.md, "The three partitions") hands the first range to the
 * guest with no trap, so the hardware must do all the isolating: enforce HPMN at EL1 (counters
 * >= HPMN UNDEFINED, their SET/CLR bits RAZ/WI, PMCR.P limited to them), keep the guest's
 * counters out of EL2 (HPMD, PMUv3p1, and HCCD for the cycle counter, PMUv3p5) and give 64-bit
 * counters (v3p5). The guest programs its types itself: an event filter that does not allow
 * every event, or SPE events hidden from a VM without a vSPE of its own on PEs that have them
 * (vperf_vm_cfg_filters_events), holds only through FEAT_FGT's traps of the type registers and
 * PMCEID<n>_EL0 (fgt.c), so it needs FEAT_FGT on every pCPU. No event counter at all (only the
 * cycle counter) is MDCR_EL2.HPMN = 0, legal only with FEAT_HPMN0 (MDCR_EL2.HPMN description,
 * Arm DDI 0487 K.a), on every pCPU. No pCPU may expose FEAT_PMUv3_ICNTR's registers or
 * PMUv3p9's PMUACR_EL1 and PMZR_EL0 without FEAT_FGT2 to trap them (pcpu.c, direct_hazards):
 * the instruction counter is in no HPMN range, PMUACR_EL1 holds another VM's value. A pCPU
 * whose PMEVTYPER<n>.MT counts other threads makes every direct VM's types trap
 * (vperf_vm_cfg_filters_events), so it needs FEAT_FGT everywhere too; so do pCPUs whose common
 * events differ, where a direct VM's PMCEID<n>_EL0 reads trap (fgt.h,
 * vperf_vm_fgt_pmceid) so that it is shown the events every pCPU counts wherever it runs.
 */
static bool direct_possible(const struct vperf_vm_config *cfg)
{
	const struct vperf_platform *p = vperf_platform();

	return p->min_pmuver >= ID_DFR0_PMUVER_V3P5 && !p->any_unenforced && !p->any_newer_regs &&
	       ((!vperf_vm_cfg_filters_events(cfg) && !p->pmceid_differs) || !p->any_no_fgt) &&
	       (cfg->nr_counters >= 1 || !p->any_no_hpmn0);
}

/*
 * The second range (VPERF_PART_SECOND, vpmu/second.c) on every pCPU: its host keeps the first
 * range (host_first_range) and enforces HPMN at EL1, which keeps the host's EL1 off the guest's
 * counters; PMUv3p5 (64-bit event counters hold the guest's 64-bit cycle counter, HLP its LP);
 * some pCPU AArch64-only, so that PMCR_EL0.LC is RES1 to guests (caps.c) and the cycle counter
 * overflows only at 64 bits, which an event counter with HLP = 1 cannot do at 32; room in the
 * second range for its N event counters and its cycle counter.
 */
static bool second_possible(const struct vperf_vm_config *cfg)
{
	const struct vperf_platform *p = vperf_platform();

	return !p->any_host_second && !p->any_unenforced && p->any_aarch64_only &&
	       p->min_pmuver >= ID_DFR0_PMUVER_V3P5 && cfg->nr_counters + 1u <= p->min_second;
}

/* SPE for a VM: every initialised pCPU has it, the PPI is a PPI; a VM profiled from outside
 * (VPERF_SPE_BUF_EL2) needs the hypervisor's own buffer on every pCPU (host_spe), which vperf
 * sets aside (saves) around the guests that own one. A VM with a vSPE of its own is shown one
 * SPE ID view on every pCPU (platform.c, add_spe_ids), which pCPUs that differ in
 * PMBIDR_EL1.Align or F, PMSIDR_EL1.MaxSize or Format cannot give: refused there, logged. */
static int check_spe(const struct vperf_vm_config *cfg)
{
	const struct vperf_platform *p = vperf_platform();

	if (!VPERF_HAS_VSPE)
		return VPERF_ENOTSUP;
	if (!p->any || !p->min_pmsver)
		return VPERF_ENODEV;
	if (cfg->spe_buffer == VPERF_SPE_BUF_EL2 && p->any_no_host_spe)
		return VPERF_EINVAL;
	if (cfg->spe_buffer > VPERF_SPE_BUF_EL2)
		return VPERF_EINVAL;
	if (cfg->spe_buffer != VPERF_SPE_BUF_EL2 && p->spe_ids_differ) {
		vperf_log(VPERF_LOG_ERR, "vperf: vm_init refused: a vSPE, and the pCPUs differ in "
					 "PMBIDR_EL1 Align or F, PMSIDR_EL1 MaxSize or Format");
		return VPERF_EINVAL;
	}
	if (cfg->spe_virq && (cfg->spe_virq < 16 || cfg->spe_virq > 31))
		return VPERF_EINVAL;
	return VPERF_OK;
}

/* The vPMU part of a policy whose mode is not OFF. */
static int check_vpmu(const struct vperf_vm_config *cfg)
{
	const struct vperf_platform *p = vperf_platform();

	if (!VPERF_HAS_VPMU)
		return VPERF_ENOTSUP;
	if (!p->any || !p->min_pmuver)
		return VPERF_ENODEV; /* no pCPU with a PMUv3 initialised */
	if (cfg->partition == VPERF_PART_DIRECT && !direct_possible(cfg))
		return VPERF_EINVAL;
	/* The first range is the host's where it keeps it: only the second range is left. */
	if (cfg->partition == VPERF_PART_SECOND ? !second_possible(cfg) : p->any_host_first)
		return VPERF_EINVAL;
	/* N can never exceed HPMN: at EL1 an event counter at or above MDCR_EL2.HPMN is UNDEFINED
	 * before MDCR_EL2.TPM is considered, so no emulation could answer for it. In the second
	 * range too: the guest's counter n is checked against the host's HPMN, whatever physical
	 * counter vperf gives it. */
	if (cfg->nr_counters > p->min_hpmn || cfg->emu_slots > p->min_hpmn)
		return VPERF_EINVAL;
	if (cfg->pmu_virq && (cfg->pmu_virq < 16 || cfg->pmu_virq > 31))
		return VPERF_EINVAL;
	return VPERF_OK;
}

/* A VM with a vPMU and a vSPE of its own (not profiled from outside, VPERF_SPE_BUF_EL2, whose
 * guest sees no SPE) gets PMUIRQ and PMBIRQ: on one PPI its guest could not tell an overflow from
 * a buffer management event, so the two virtual PPIs must differ, the Kconfig defaults standing
 * for a 0 as vperf_vm_pmu_virq() and vperf_vm_spe_virq() resolve it. */
static bool virqs_collide(const struct vperf_vm_config *cfg)
{
	uint32_t pmu = cfg->pmu_virq ? cfg->pmu_virq : CONFIG_VPERF_VPMU_PPI;
	uint32_t spe = cfg->spe_virq ? cfg->spe_virq : CONFIG_VPERF_VSPE_PPI;

	/* With either configured out no VM has both: vperf_vm_init says VPERF_ENOTSUP. */
	return VPERF_HAS_VPMU && VPERF_HAS_VSPE && cfg->pmu_mode != VPERF_PMU_OFF && cfg->spe &&
	       cfg->spe_buffer != VPERF_SPE_BUF_EL2 && pmu == spe;
}

/* A policy every initialised pCPU can give. A policy the pCPUs cannot give (the ALL mode outside
 * the trapped partition, the direct partition where HPMN is not enforced, more counters than the
 * first range) is VPERF_EINVAL; SPE is as check_spe() says. */
static int check_policy(const struct vperf_vm_config *cfg)
{
	int err = cfg->spe ? check_spe(cfg) : VPERF_OK;

	if (err)
		return err;
	/* Whatever the mode: a partition that is one of the enum's, and counts a PMU can have
	 * (PMCR_EL0.N is 5 bits, at most 31 event counters, Arm DDI 0487 K.a
	 * I5.3.21). Every mask vperf builds from
	 * them relies on it, an OFF VM's blob restore included. */
	if ((unsigned int)cfg->partition > VPERF_PART_SECOND ||
	    cfg->nr_counters > VPERF_PMU_MAX_COUNTERS || cfg->emu_slots > VPERF_PMU_MAX_COUNTERS ||
	    virqs_collide(cfg))
		return VPERF_EINVAL;
	switch (cfg->pmu_mode) {
	case VPERF_PMU_OFF:
		return VPERF_OK;
	case VPERF_PMU_SELF:
	case VPERF_PMU_HV:
		break;
	case VPERF_PMU_ALL:
		/* The privileged VM's counters stay in the hardware while others run: that needs
		 * the trapped partition's one-to-one counters. */
		if (cfg->partition != VPERF_PART_TRAPPED)
			return VPERF_EINVAL;
		break;
	default:
		return VPERF_EINVAL;
	}
	return check_vpmu(cfg);
}

/* What the VM relies on finding on every pCPU, now that it exists (struct vperf_demands): the
 * first range its counters need; the PMUVer it is shown (capped at PMUv3p5, vperf_vcpu_id_dfr0)
 * and its guest-writable masks rest on (vpmu/caps.c), AArch32 at EL0 where every pCPU had it
 * (PMCR_EL0.LC and D hold a value then, which the hardware applies), and the common events its
 * PMCEID0/1_EL0 showed (the platform's, through its filter); for a direct VM the PMUVer
 * uncapped, as it holds the hardware's own PMCR_EL0 and type fields, EL3 and the export bus
 * where every pCPU had them, and HPMN enforced; the PMSVer a VM with a vSPE is shown, FEAT_ECV where its
 * PMSCR_EL1 keeps PCT[1] (vspe/regs.c) and the SPE ID view it is shown (platform.c), the
 * host's buffer for one profiled from outside. */
static void record_demands(const struct vperf_vm *vm)
{
	const struct vperf_vm_config *cfg = &vm->cfg;
	const struct vperf_platform *p = vperf_platform();
	struct vperf_demands d = { 0 };

	if (cfg->pmu_mode != VPERF_PMU_OFF) {
		d.counters = cfg->nr_counters > cfg->emu_slots ? cfg->nr_counters : cfg->emu_slots;
		d.pmuver =
			p->min_pmuver > ID_DFR0_PMUVER_V3P5 ? ID_DFR0_PMUVER_V3P5 : p->min_pmuver;
		d.first = cfg->partition != VPERF_PART_SECOND;
		d.second = d.first ? 0 : (uint8_t)(cfg->nr_counters + 1);
		d.aarch32 = !p->any_aarch64_only;
		for (unsigned int i = 0; i < 2; i++)
			d.pmceid[i] = vperf_vpmu_pmceid(vm, i != 0, p->pmceid[i]);
	}
	if (cfg->pmu_mode != VPERF_PMU_OFF && cfg->partition == VPERF_PART_DIRECT) {
		d.pmuver = p->min_pmuver;
		d.direct = true;
		/* Its PMCEID0/1_EL0 reads untrapped: the hardware's, the same on every pCPU. */
		d.pmceid_exact = !(vm->fgt_types & (VPERF_FGT_TYPES | VPERF_FGT_PMCEID));
		d.el3 = !p->any_no_el3;
		d.export_bus = !p->any_no_export;
	}
	if (cfg->spe && cfg->spe_buffer == VPERF_SPE_BUF_EL2) {
		d.pmsver = ID_DFR0_PMSVER_SPE;
		d.host_spe = true;
	} else if (cfg->spe) {
		d.pmsver = (uint8_t)vperf_vspe_pmsver(ID_DFR0_PMSVER_MASK);
		d.ecv = p->any && !p->any_no_ecv;
		d.spe_ids = true;
	}
	vperf_platform_demand(&d);
}

int vperf_vm_init(struct vperf_vm *vm, const struct vperf_vm_config *cfg, void *hv_vm)
{
	static const struct vperf_vm zero;
	int err = check_policy(cfg);

	if (err)
		return err;
	*vm = zero;
	vm->cfg = *cfg;
	vm->hv_vm = hv_vm;
	vm->fgt_types = (vperf_vm_fgt_types(vm) ? VPERF_FGT_TYPES : 0) |
			(vperf_vm_fgt_pmceid(vm) ? VPERF_FGT_PMCEID : 0) |
			(vperf_vm_fgt_pmbsr(vm) ? VPERF_FGT_PMBSR : 0);
	vm->fgt_class = (uint8_t)(vm->fgt_types + VPERF_FGT_NR * vperf_vm_fgt2_index(vm));
	vm->lazy = (uint8_t)vperf_vm_cfg_lazy(cfg);
	vm->pmu_mask = vpmu_mask_of(cfg);
	record_demands(vm);
	vperf_mdcr_new_epoch();
	return VPERF_OK;
}

/* ID_AA64DFR0_EL1 as the VM sees it: PMUVer 0 without a vPMU, else the hardware's up to the
 * lowest of every initialised pCPU (what the PMCR_EL0 fields, the counters' width, PMMIR_EL1
 * and PMCEID follow: caps.c, switch.c, regs.c) and PMUv3p5 (what vperf emulates); PMSVer 0
 * without a vSPE, else the hardware's up to the platform's and SPEv1p2 (vspe/regs.c); no
 * FEAT_HPMN0, as the guest has no EL2; no FEAT_MTPMU. */
uint64_t vperf_vcpu_id_dfr0(const struct vperf_vcpu *vcpu, uint64_t hw)
{
	uint64_t pmuver = (hw & ID_DFR0_PMUVER_MASK) >> ID_DFR0_PMUVER_SHIFT;
	uint64_t v = hw & ~(ID_DFR0_PMUVER_MASK | ID_DFR0_PMSVER_MASK | ID_DFR0_HPMN0_MASK);

	if (pmuver == ID_DFR0_PMUVER_IMPDEF || vcpu->vm->cfg.pmu_mode == VPERF_PMU_OFF)
		pmuver = ID_DFR0_PMUVER_NONE;
	if (pmuver > vperf_platform()->min_pmuver)
		pmuver = vperf_platform()->min_pmuver;
	if (pmuver > ID_DFR0_PMUVER_V3P5)
		pmuver = ID_DFR0_PMUVER_V3P5;
	v |= pmuver << ID_DFR0_PMUVER_SHIFT;
	/* MTPMU: FEAT_MTPMU would make PMEVTYPER<n>_EL0.MT a field the guest writes and reads
	 * back; vperf keeps MT out of every type (vpmu/filter.h, caps.c), so a guest is shown
	 * 0b1111, no multi-threaded PMU extension, MT RES0 (ID_AA64DFR0_EL1.MTPMU). 0b0000 says
	 * as much already (an IMPLEMENTATION DEFINED extension may or may not exist). */
	if (VPERF_FIELD_GET(hw, 51, 48) == ID_DFR0_MTPMU_FEAT)
		v = (v & ~ID_DFR0_MTPMU_MASK) | (uint64_t)ID_DFR0_MTPMU_NONE << ID_DFR0_MTPMU_SHIFT;
	if (vspe_on(vcpu)) /* not a VM profiled from outside: it has no SPE */
		v |= (uint64_t)vperf_vspe_pmsver(hw) << ID_DFR0_PMSVER_SHIFT;
	return v;
}

/* ID_AA64DFR1_EL1 as the VM sees it: no FEAT_PMUv3_ICNTR (PMICNTR [39:36] = 0), which vperf
 * neither switches nor shows; the other fields (breakpoints, watchpoints...) are the
 * hypervisor's. */
uint64_t vperf_vcpu_id_dfr1(const struct vperf_vcpu *vcpu, uint64_t hw)
{
	(void)vcpu;
	return hw & ~ID_DFR1_PMICNTR_MASK;
}
