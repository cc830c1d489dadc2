// SPDX-License-Identifier: MIT
/*
 * MDCR_EL2: the one place that decides its value, for the host (while no vCPU runs) and for each
 * vCPU (its policy and its trap state: a direct vPMU, an untrapped vSPE buffer). Each field's
 * reason is at the line that sets it; field positions in vperf/mdcr.h. vperf owns only the
 * fields of MDCR_EL2_VPERF_MASK and writes the register only when the value changes.
 */
#include <arch/sysreg.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "fmt.h"
#include "log.h"
#include "mdcr.h"
#include "vm_config.h"

/* Bumped by every vperf_init, vperf_pcpu_init and vperf_vm_init: a vCPU's cached MDCR_EL2 from
 * before may depend on a pCPU's or a VM's old configuration (vcpu_mdcr()). */
uint32_t vperf_mdcr_epoch;

void vperf_mdcr_new_epoch(void)
{
	vperf_mdcr_epoch++;
}

/*
 * The host's MDCR_EL2 while no vCPU runs: its own bits, plus
 *   HPMN = hpmn: counters [hpmn, N) are the second range, counted at EL2 under HPME, so the
 *          host's counters live there and no guest range can reach them;
 *   HPME = 1 when the host keeps counters, so they count (PMCR_EL0.E governs the first range).
 * Traps are irrelevant while EL2 runs its own code and stay as the host set them.
 */
/* The PMSVer the PE implements: caps->pmsver is 0 where firmware keeps SPE's buffer (spe_el3,
 * pcpu.c), but MDCR_EL2's SPE fields are still there and still trap. */
static unsigned int hw_pmsver(const struct vperf_pcpu_caps *caps)
{
	return (unsigned int)((caps->dfr0 & ID_DFR0_PMSVER_MASK) >> ID_DFR0_PMSVER_SHIFT);
}

/*
 * The MDCR_EL2 fields outside vperf's that this PE implements (Arm DDI 0487 K.a, MDCR_EL2): the
 * debug traps TDE, TDA, TDOSA and TDRA on every PE with EL2; HLP from PMUv3p5, HPMFZO from
 * PMUv3p7; TTRF with FEAT_TRF (ID_AA64DFR0_EL1.TraceFilt, bits [43:40]); E2TB with FEAT_TRBE
 * (TraceBuffer, bits [47:44]); TDCC, bit [27], with FEAT_FGT; HPMFZS, bit [36], with
 * FEAT_SPEv1p2 (PMSVer >= 0b0011). The host's bits go into every value below, so a bit the PE
 * lacks is refused once, at vperf_pcpu_init, rather than written RES0 at every vCPU switch.
 */
static uint64_t host_fields(const struct vperf_pcpu_caps *caps)
{
	uint64_t f = MDCR_EL2_TDE | MDCR_EL2_TDA | MDCR_EL2_TDOSA | MDCR_EL2_TDRA;

	if (caps->pmuver >= ID_DFR0_PMUVER_V3P5)
		f |= MDCR_EL2_HLP;
	if (caps->pmuver >= ID_DFR0_PMUVER_V3P7)
		f |= MDCR_EL2_HPMFZO;
	if (VPERF_FIELD_GET(caps->dfr0, 43, 40))
		f |= MDCR_EL2_TTRF;
	if (VPERF_FIELD_GET(caps->dfr0, 47, 44))
		f |= MDCR_EL2_E2TB_MASK;
	if (caps->fgt)
		f |= MDCR_EL2_TDCC;
	if (hw_pmsver(caps) >= ID_DFR0_PMSVER_V1P2)
		f |= MDCR_EL2_HPMFZS;
	return f;
}

bool vperf_mdcr_host_ok(const struct vperf_pcpu *pcpu)
{
	uint64_t bad = pcpu->cfg.host_mdcr & ~MDCR_EL2_VPERF_MASK & ~host_fields(&pcpu->caps);
	char buf[96];
	struct fmt f;

	if (!bad)
		return true;
	vperf_fmt_init(&f, buf, sizeof(buf));
	vperf_fmt_str(&f, "vperf: pcpu_init: host_mdcr sets MDCR_EL2 bits ");
	vperf_fmt_hex(&f, bad, 1);
	vperf_fmt_str(&f, " this PE does not implement");
	vperf_log(VPERF_LOG_ERR, buf);
	return false;
}

uint64_t vperf_mdcr_host(const struct vperf_pcpu *pcpu)
{
	uint64_t mdcr = pcpu->cfg.host_mdcr & ~MDCR_EL2_VPERF_MASK;

	mdcr |= (uint64_t)pcpu->hpmn << MDCR_EL2_HPMN_SHIFT;
	/* A host that keeps the first range (host_first_range) has no second range of its own:
	 * HPME = 0 stops the guests' counters there while it runs, and HPMFZO and HPMFZS, which act
	 * on that range only, are not its. */
	if (pcpu->cfg.host_first_range)
		mdcr &= ~MDCR_EL2_SECOND_FIELDS;
	else if (pcpu->cfg.host_counters)
		mdcr |= MDCR_EL2_HPME;
	return mdcr;
}

/*
 * VPERF_PART_SECOND (vpmu/second.c): the second range's controls are the guest's PMCR_EL0 while
 * it runs: HPME = E, so that the host's MDCR_EL2 (HPME = 0) stops the guest's counters at every
 * put with no PMU register access, and only while the vCPU is active (its state is acquired at
 * load: an idle one's E counts nothing, and the range may hold another vCPU's parked counters);
 * HLP = LP (PMUv3p5, which the placement needs), the 64-bit overflow of the second range;
 * HPMFZO = HPMFZS = 0 (features the guest is not shown). HPMD and HCCD stay 0: HPMD prohibits
 * EL2 counting only in the first range and HCCD only for PMCCNTR_EL0 (MDCR_EL2.HPMD, HCCD), both
 * the host's, so they would change the host's counts and nothing of the guest's, whose counters
 * are kept off EL2 by NSH = 0 in every type vperf writes (vpmu/filter.c).
 */
uint64_t vperf_mdcr_second(const struct vperf_vcpu *vcpu)
{
	const struct vperf_vpmu *s = &vcpu->pmu;
	uint64_t f = 0;

	if ((s->pmcr & PMCR_E) && s->active)
		f |= MDCR_EL2_HPME;
	if (s->pmcr & PMCR_LP)
		f |= MDCR_EL2_HLP;
	return f;
}

/*
 * The fields a vPMU adds to the trapping base:
 *   HPMD = 1 (PMUv3p1): the guest's first-range counters do not count at EL2, so the
 *          hypervisor's own work never shows in a guest's counts;
 *   HCCD = 1 (PMUv3p5): likewise for the cycle counter, which the guest owns;
 *   HPME = 1 only in XENPMU_MODE_HV: the host's second range counts while the guest runs (the
 *          hypervisor profiles); in SELF it pauses, so the host sees no guest activity.
 * Direct partition: HPMN = N, so that the hardware itself shows the guest N counters and makes
 * the rest UNDEFINED or RAZ/WI; trapped too (after a load, until the state is back in the
 * hardware), or an EL0 access to a counter in [N, first range) would trap to the guest's EL1
 * (PMUSERENR_EL0) instead of being UNDEFINED, depending on the schedule. While running untrapped
 * (vcpu->pmu.direct, vpmu/switch.c), TPM = TPMCR = 0 (no trap at all).
 */
static uint64_t vpmu_mdcr(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu,
			  uint64_t base)
{
	uint64_t mdcr = base;

	if (vcpu->vm->cfg.partition == VPERF_PART_SECOND)
		return (mdcr & ~MDCR_EL2_SECOND_FIELDS) | vperf_mdcr_second(vcpu);
	if (vcpu->vm->cfg.pmu_mode == VPERF_PMU_ALL)
		return mdcr; /* EL2 counted; the host's counters run as the host set them */
	if (pcpu->caps.pmuver >= ID_DFR0_PMUVER_V3P1)
		mdcr |= MDCR_EL2_HPMD;
	if (pcpu->caps.pmuver >= ID_DFR0_PMUVER_V3P5)
		mdcr |= MDCR_EL2_HCCD;
	if (vcpu->vm->cfg.pmu_mode != VPERF_PMU_HV)
		mdcr &= ~MDCR_EL2_HPME;
	/* HPMN = 0 only with FEAT_HPMN0: a direct VM with no event counter on a pCPU without it
	 * keeps the host's HPMN and runs trapped (vperf_vpmu_try_direct). */
	if (vcpu->vm->cfg.partition == VPERF_PART_DIRECT &&
	    (vcpu->vm->cfg.nr_counters || pcpu->caps.hpmn0)) {
		mdcr &= ~MDCR_EL2_HPMN_MASK;
		mdcr |= vcpu->vm->cfg.nr_counters;
	}
	if (vcpu->pmu.direct)
		mdcr &= ~(MDCR_EL2_TPM | MDCR_EL2_TPMCR);
	return mdcr;
}

/*
 * The fields a vSPE changes in the trapping base (TPMS = 1, E2PB = 0b00):
 *   E2PB = 0b10: Non-secure EL1 owns the Profiling Buffer (SPE 3.4.2), so its records are written
 *          through the guest's own EL1&0 regime, its stage 1 and this VM's stage 2, never outside
 *          the VM's memory; its PMB* accesses trap (SPE 3.4.6), so vperf sees every pointer
 *          before the hardware uses it and keeps the virtual PMBSR_EL1 authoritative;
 *   E2PB = 0b11: the same owner without PMB* traps, for VPERF_SPE_BUF_EL1 while the guest's
 *          buffer is live in the hardware (vcpu->spe.direct, vspe/switch.c);
 *   TPMS = 1 (kept from the base): the sampling controls trap (SPE 3.2.3), so PMSIDR_EL1 shows
 *          only what the VM may use, PMSCR_EL1 keeps only its SPE version's fields and the
 *          state can be switched lazily.
 */
static uint64_t vspe_mdcr(const struct vperf_vcpu *vcpu, uint64_t base)
{
	uint64_t mdcr = base & ~MDCR_EL2_E2PB_MASK;

	return mdcr | (vcpu->spe.direct ? MDCR_EL2_E2PB_EL1 : MDCR_EL2_E2PB_EL1_TRAP);
}

/*
 * MDCR_EL2 while a vCPU runs, from the host's value (HPMN = first host counter, HPME for the
 * host's counters, the host's own bits or the vCPU's, vcpu_base()):
 *   TPM   = 1: every PMU register access from EL1/EL0 traps: vperf emulates the vPMU or, for a
 *           VM without one, answers UNDEF (the trapped partition, docs/vpmu.md);
 *   TPMCR = 1: PMCR_EL0 traps too (TPM covers it; set for hardware that separates them);
 *   TPMS  = 1 with SPE: the SPE sampling controls (PMS*) trap (SPE 3.4.6): a VM without vSPE
 *           gets UNDEF, a VM with one the emulation of vspe/regs.c;
 *   E2PB  = 0b00 with SPE: EL2 owns the Profiling Buffer, so EL1 PMB* accesses trap and a
 *           guest can never sample into memory (SPE 3.4.2);
 * and for a VM with a vPMU the fields of vpmu_mdcr(), for a VM with a vSPE those of
 * vspe_mdcr(). A VM without a vPMU (OFF) leaves HPME as the host set it.
 */
/*
 * The base a vCPU's value starts from: the host's MDCR_EL2, whose hypervisor bits the vCPU's own
 * replace when the hypervisor gave some (vperf_vcpu_set_host_mdcr: its debug traps per vCPU),
 * less the fields this PE does not implement (RES0 here; the vCPU may run where they exist).
 */
static uint64_t vcpu_base(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	if (!vcpu->host_mdcr_set)
		return pcpu->host_mdcr;
	return (pcpu->host_mdcr & MDCR_EL2_VPERF_MASK) |
	       (vcpu->host_mdcr & host_fields(&pcpu->caps));
}

static uint64_t vcpu_mdcr(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	uint64_t mdcr = vcpu_base(vcpu, pcpu) & ~MDCR_EL2_E2PB_MASK;

	mdcr |= MDCR_EL2_TPM | MDCR_EL2_TPMCR;
	/* TPMS and E2PB are RES0 without SPE: written only where they exist (a PE without SPE
	 * makes every PMS and PMB register UNDEFINED at EL1 anyway). Where firmware keeps the
	 * buffer (spe_el3) they exist and must be set: an access they do not trap to EL2 traps
	 * to EL3 (SPE 3.2.3, 3.4.6). */
	if (hw_pmsver(&pcpu->caps))
		mdcr |= MDCR_EL2_TPMS | MDCR_EL2_E2PB_EL2;
	if (vpmu_on(vcpu))
		mdcr = vpmu_mdcr(vcpu, pcpu, mdcr);
	if (vspe_on(vcpu))
		mdcr = vspe_mdcr(vcpu, mdcr);
	return mdcr;
}

void vperf_mdcr_write(struct vperf_pcpu *pcpu, uint64_t mdcr)
{
	write_sysreg(mdcr, MDCR_EL2);
	pcpu->cur_mdcr = mdcr;
}

static void set_mdcr(struct vperf_pcpu *pcpu, uint64_t mdcr)
{
	if (pcpu->cur_mdcr != mdcr)
		vperf_mdcr_write(pcpu, mdcr);
}

/* Written only when it differs from the last value: vCPUs of VMs with the same policy switch
 * with no MDCR_EL2 access. No ISB: the ERET into the guest is the context synchronization event,
 * nothing at EL2 depends on the trap bits, and the guest's counters never count EL2 (NSH = 0,
 * HPMD), so EL2 work before the ERET is not theirs whichever value it is counted with; the
 * model's synchronization window checks this (docs/model.md). */
void vperf_mdcr_compute(struct vperf_vcpu *vcpu)
{
	vcpu->mdcr = vcpu_mdcr(vcpu, vcpu->pcpu);
	vcpu->mdcr_pcpu = vcpu->pcpu;
	vcpu->mdcr_epoch = vperf_mdcr_epoch;
}

void vperf_update_mdcr(struct vperf_vcpu *vcpu)
{
	vperf_mdcr_compute(vcpu);
	set_mdcr(vcpu->pcpu, vcpu->mdcr);
}

int vperf_vcpu_set_host_mdcr(struct vperf_vcpu *vcpu, uint64_t bits)
{
	uint64_t bad = bits & ~MDCR_EL2_HOST_MASK;
	int r = VPERF_OK;

	if (bad) {
		char buf[96];
		struct fmt f;

		STAT_INC(&vcpu->vm->stats, misuse);
		vperf_fmt_init(&f, buf, sizeof(buf));
		vperf_fmt_str(&f, "vperf: vcpu_set_host_mdcr: MDCR_EL2 bits ");
		vperf_fmt_hex(&f, bad, 1);
		vperf_fmt_str(&f, " are not the hypervisor's (dropped)");
		vperf_log(VPERF_LOG_ERR, buf);
		bits &= MDCR_EL2_HOST_MASK;
		r = VPERF_EINVAL;
	}
	if (vcpu->host_mdcr_set && vcpu->host_mdcr == bits)
		return r;
	vcpu->host_mdcr = bits;
	vcpu->host_mdcr_set = true;
	if (vcpu->pcpu)
		vperf_update_mdcr(vcpu);
	else
		vperf_mdcr_stale(vcpu);
	return r;
}
