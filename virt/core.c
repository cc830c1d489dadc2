// SPDX-License-Identifier: MIT
/*
 * Lifecycle: ops registration, physical CPU probe, VM policy, vCPU reset, load/put.
 *
 * The vPMU and vSPE register emulation arrive in their own modules; until a VM is given one,
 * its PMU and SPE are OFF (XENPMU_MODE_OFF): every access traps and is UNDEF, and the host's
 * counters keep counting undisturbed.
 */
#include <arch/sysreg.h>
#include <vperf/mdcr.h>

#include "internal.h"

const struct vperf_hyp_ops *vperf_ops;

int vperf_init(const struct vperf_hyp_ops *ops)
{
	if (!ops || !ops->inject_undef || !ops->advance_pc || !ops->guest_el)
		return VPERF_EINVAL;
#if defined(CONFIG_VPMU) || defined(CONFIG_VSPE)
	if (!ops->set_irq_line)
		return VPERF_EINVAL;
#endif
	vperf_ops = ops;
	return VPERF_OK;
}

/* ID_AA64DFR0_EL1.PMUVer, with "IMPLEMENTATION DEFINED PMU" (0xF) read as no PMUv3. */
static uint8_t dfr0_pmuver(uint64_t dfr0)
{
	uint64_t v = VPERF_FIELD_GET(dfr0, 11, 8);

	return v == ID_DFR0_PMUVER_IMPDEF ? 0 : (uint8_t)v;
}

static void probe(struct vperf_pcpu_caps *caps)
{
	caps->dfr0 = read_sysreg(ID_AA64DFR0_EL1);
	caps->pmuver = dfr0_pmuver(caps->dfr0);
	caps->pmsver = (uint8_t)VPERF_FIELD_GET(caps->dfr0, 35, 32);
	caps->hpmn0 = VPERF_FIELD_GET(caps->dfr0, 63, 60) != 0;
	caps->nr_counters =
		caps->pmuver ? (uint8_t)VPERF_FIELD_GET(read_sysreg(PMCR_EL0), 15, 11) : 0;
	caps->pmsidr = caps->pmsver ? read_sysreg(PMSIDR_EL1) : 0;
	caps->pmbidr = caps->pmsver ? read_sysreg(PMBIDR_EL1) : 0;
}

/*
 * The host's MDCR_EL2 while no vCPU runs: its own bits, plus
 *   HPMN = hpmn: counters [hpmn, N) are the second range, counted at EL2 under HPME, so the
 *          host's counters live there and no guest range can reach them;
 *   HPME = 1 when the host keeps counters, so they count (PMCR_EL0.E governs the first range).
 * Traps are irrelevant while EL2 runs its own code and stay as the host set them.
 */
static uint64_t host_mdcr(const struct vperf_pcpu *pcpu)
{
	uint64_t mdcr = pcpu->cfg.host_mdcr & ~MDCR_EL2_VPERF_MASK;

	mdcr |= (uint64_t)pcpu->hpmn << MDCR_EL2_HPMN_SHIFT;
	if (pcpu->cfg.host_counters)
		mdcr |= MDCR_EL2_HPME;
	return mdcr;
}

int vperf_pcpu_init(struct vperf_pcpu *pcpu, const struct vperf_pcpu_config *cfg)
{
	static const struct vperf_pcpu zero;
	unsigned int reserved = (unsigned int)cfg->host_counters + cfg->agent_counters;

	*pcpu = zero;
	pcpu->cfg = *cfg;
	probe(&pcpu->caps);
	if (reserved > pcpu->caps.nr_counters)
		return VPERF_EINVAL;
	pcpu->epmn = (uint8_t)(pcpu->caps.nr_counters - cfg->agent_counters);
	pcpu->hpmn = (uint8_t)(pcpu->caps.nr_counters - reserved);
	/* HPMN = 0 is only valid with FEAT_HPMN0 (MDCR_EL2.HPMN description). */
	if (pcpu->caps.pmuver && pcpu->hpmn == 0 && !pcpu->caps.hpmn0)
		return VPERF_EINVAL;
	pcpu->host_mdcr = host_mdcr(pcpu);
	return VPERF_OK;
}

int vperf_vm_init(struct vperf_vm *vm, const struct vperf_vm_config *cfg, void *hv_vm)
{
	static const struct vperf_vm zero;

	/* The register handlers of the vPMU and vSPE are not linked in yet: a VM can only be
	 * given the OFF policy. Refuse anything else rather than UNDEF a PMU the VM was promised. */
	if (cfg->pmu_mode != VPERF_PMU_OFF || cfg->spe)
		return VPERF_ENOTSUP;
	*vm = zero;
	vm->cfg = *cfg;
	vm->hv_vm = hv_vm;
	return VPERF_OK;
}

/*
 * MDCR_EL2 fields while a vCPU of an OFF VM runs:
 *   TPM   = 1: every PMU register access from EL1/EL0 traps, so vperf answers UNDEF;
 *   TPMCR = 1: PMCR_EL0 traps too (TPM already covers it; set for hardware that splits them);
 *   TPMS  = 1: the SPE sampling controls (PMS*) trap (SPE supplement 3.4.6);
 *   E2PB  = 0b00: EL2 owns the Profiling Buffer, so EL1 PMB* accesses trap and the guest
 *                 can never sample into memory (SPE supplement 3.4.2);
 *   HPMN, HPME as for the host: the host's second range counts on while the guest runs.
 */
static uint64_t vcpu_mdcr_off(const struct vperf_pcpu *pcpu)
{
	uint64_t mdcr = pcpu->host_mdcr & ~(MDCR_EL2_E2PB_MASK);

	return mdcr | MDCR_EL2_TPM | MDCR_EL2_TPMCR | MDCR_EL2_TPMS | MDCR_EL2_E2PB_EL2;
}

int vperf_vcpu_init(struct vperf_vcpu *vcpu, struct vperf_vm *vm, void *hv_vcpu)
{
	static const struct vperf_vcpu zero;

	if (!vm)
		return VPERF_EINVAL;
	*vcpu = zero;
	vcpu->vm = vm;
	vcpu->hv_vcpu = hv_vcpu;
	return vperf_vcpu_reset(vcpu);
}

int vperf_vcpu_reset(struct vperf_vcpu *vcpu)
{
	if (vcpu->pcpu)
		return VPERF_EBUSY;
	vcpu->mdcr = 0;
	return VPERF_OK;
}

void vperf_vcpu_load(struct vperf_vcpu *vcpu, struct vperf_pcpu *pcpu)
{
	vcpu->pcpu = pcpu;
	vcpu->mdcr = vcpu_mdcr_off(pcpu);
	pcpu->loaded = vcpu;
	/* No ISB: the ERET into the guest is a context synchronization event, and nothing at EL2
	 * depends on the trap bits. */
	write_sysreg(vcpu->mdcr, MDCR_EL2);
}

void vperf_vcpu_put(struct vperf_vcpu *vcpu)
{
	struct vperf_pcpu *pcpu = vcpu->pcpu;

	if (!pcpu)
		return;
	write_sysreg(pcpu->host_mdcr, MDCR_EL2);
	pcpu->loaded = NULL;
	vcpu->pcpu = NULL;
}
