// SPDX-License-Identifier: MIT
/*
 * vperf_init and the physical CPUs: probing what each one's PMU and SPE offer, splitting its
 * counters between the guests, the host and an external agent, and forgetting a vCPU.
 *
 * Until a VM is given a vPMU or a vSPE, its PMU and SPE are OFF (XENPMU_MODE_OFF): every access
 * traps and is UNDEF, and the host's counters keep counting undisturbed.
 */
#include <arch/sysreg.h>
#include <vperf/fgt.h>
#include <vperf/id_regs.h>
#include <vperf/pmu_regs.h>
#include <vperf/spe_regs.h>

#include "fgt.h"
#include "fmt.h"
#include "log.h"
#include "mdcr.h"
#include "platform.h"
#include "vm_config.h"
#include "vpmu/entry.h"
#include "vspe/bringup.h"

/*
 * HCR_EL2.E2H (FEAT_VHE: the host runs at EL2; HCR_EL2, Arm DDI 0487 K.a D24.2), read once by
 * vperf_pcpu_init into caps.e2h. A VHE host is accepted. Of the registers vperf reaches at EL2,
 * only PMSCR_EL1 has another name with E2H = 1: its own encoding reaches PMSCR_EL2, the guest's
 * is PMSCR_EL12 (SPE 4.3.5-4.3.7), and vperf picks the name by caps.e2h (vspe/pmscr.h). The PMU
 * registers, the other sampling and Profiling Buffer registers, CONTEXTIDR_EL2 (named as the EL2
 * register) and the ID registers are the same registers whatever E2H. What E2H = 1 leaves to
 * the hypervisor: the guest's other EL1 registers (by their _EL12 names, in the order of
 * include/vperf/hyp.h) and its own Profiling Buffer, owned by EL2 in the EL2&0 regime while
 * TGE = 1 (SPE 3.4.2), which host_spe has vperf park around vSPE vCPUs as with E2H = 0
 * (vspe/host.c). Not covered: SPE extensions after those vperf knows that add _EL12 names
 * (public register lists have PMBSR_EL12, S3_5_C9_C10_3); docs/integration/kvm.md, "VHE".
 */
#define HCR_EL2_E2H VPERF_BIT(34)

int vperf_init(const struct vperf_hyp_ops *ops)
{
	if (!ops || !ops->inject_undef || !ops->advance_pc || !ops->guest_el)
		return VPERF_EINVAL;
	if ((VPERF_HAS_VPMU || VPERF_HAS_VSPE) && !ops->set_irq_line)
		return VPERF_EINVAL;
	vperf_platform_reset(ops);
	vperf_sysreg_space_init();
	vperf_vpmu_derive_masks();
	vperf_mdcr_new_epoch();
	return VPERF_OK;
}

/* ID_AA64DFR0_EL1.PMUVer, with "IMPLEMENTATION DEFINED PMU" (0xF) read as no PMUv3. */
static uint8_t dfr0_pmuver(uint64_t dfr0)
{
	uint64_t v = (dfr0 & ID_DFR0_PMUVER_MASK) >> ID_DFR0_PMUVER_SHIFT;

	return v == ID_DFR0_PMUVER_IMPDEF ? ID_DFR0_PMUVER_NONE : (uint8_t)v;
}

/*
 * The PMU features newer than what vperf shows a guest (docs/vpmu.md, "Newer PMU hardware"), all
 * from their ID fields (Arm DDI 0487, D24.2): FEAT_PMUv3_ICNTR, ID_AA64DFR1_EL1.PMICNTR [39:36];
 * FEAT_FGT2, ID_AA64MMFR0_EL1.FGT = 0b0010; a multithreaded core, MPIDR_EL1.MT [24], and its
 * PMU's MT control, ID_AA64DFR0_EL1.MTPMU [51:48]; FEAT_SEL2, ID_AA64PFR0_EL1.SEL2 [39:36].
 * And FEAT_ECV, ID_AA64MMFR0_EL1.ECV [63:60], which makes PMSCR_EL1.PCT two bits (vspe/regs.c).
 */
static void probe_newer(struct vperf_pcpu_caps *caps, uint64_t pfr0, uint64_t mmfr0)
{
	caps->fgt2 = VPERF_FIELD_GET(mmfr0, 59, 56) >= 2;
	caps->mtpmu = (uint8_t)VPERF_FIELD_GET(caps->dfr0, 51, 48);
	caps->sel2 = (pfr0 & ID_PFR0_SEL2_MASK) != 0;
	caps->ecv = (mmfr0 & ID_MMFR0_ECV_MASK) != 0;
	if (!caps->pmuver)
		return; /* no PMUv3: neither matters, no more reads */
	caps->icntr = (read_sysreg(ID_AA64DFR1_EL1) & ID_DFR1_PMICNTR_MASK) != 0;
	caps->mt = (read_sysreg(MPIDR_EL1) & MPIDR_MT) != 0;
}

/*
 * SPE's ID registers, PMBIDR_EL1 first: firmware may keep the Profiling Buffer for the Secure
 * side (MDCR_EL3.NSPB = 0b0x, SPE 3.4.2). Then PMBIDR_EL1.P reads 1 at EL2 (SPE 4.3.1: the buffer
 * is owned by the other Security state) and every other SPE register, PMSIDR_EL1 and PMSCR_EL2
 * included, traps to EL3 from EL2 and Non-secure EL1 (SPE 4.3, each one's "Traps and enables":
 * NSPB != 0b11); PMBIDR_EL1 alone has none. Such a PE is one without SPE to vperf (pmsver = 0:
 * no vSPE offered, no SPE register touched again, guests shown PMSVer 0); spe_el3 keeps what
 * the PE still implements, MDCR_EL2.TPMS and E2PB (mdcr.c), so that guests' SPE accesses trap
 * to EL2, which has priority (SPE 3.2.3, 3.4.6), and never reach EL3.
 */
static void probe_spe(struct vperf_pcpu_caps *caps)
{
	if (!caps->pmsver)
		return;
	caps->pmbidr = read_sysreg(PMBIDR_EL1);
	if (caps->pmbidr & PMBIDR_P) {
		caps->spe_el3 = true;
		caps->pmsver = 0;
		caps->pmbidr = 0;
		return;
	}
	caps->pmsidr = read_sysreg(PMSIDR_EL1);
}

static void probe(struct vperf_pcpu_caps *caps)
{
	uint64_t pfr0, mmfr0;

	caps->dfr0 = read_sysreg(ID_AA64DFR0_EL1);
	pfr0 = read_sysreg(ID_AA64PFR0_EL1);
	mmfr0 = read_sysreg(ID_AA64MMFR0_EL1);
	caps->pmuver = dfr0_pmuver(caps->dfr0);
	caps->pmsver = (uint8_t)((caps->dfr0 & ID_DFR0_PMSVER_MASK) >> ID_DFR0_PMSVER_SHIFT);
	caps->hpmn0 = VPERF_FIELD_GET(caps->dfr0, 63, 60) != 0;
	caps->fgt = (mmfr0 & ID_MMFR0_FGT_MASK) != 0;
	caps->el3 = (pfr0 & ID_PFR0_EL3_MASK) != 0;
	probe_newer(caps, pfr0, mmfr0);
	caps->e2h = (read_sysreg(HCR_EL2) & HCR_EL2_E2H) != 0;
	caps->aarch32 = VPERF_FIELD_GET(pfr0, ID_PFR0_EL0_SHIFT + 3, ID_PFR0_EL0_SHIFT) ==
			ID_PFR0_EL0_AARCH32;
	if (caps->pmuver) {
		uint64_t pmcr = read_sysreg(PMCR_EL0);

		caps->nr_counters = (uint8_t)VPERF_FIELD_GET(pmcr, 15, 11);
		caps->pmcr_id = pmcr & VPERF_GENMASK(31, 16);
		caps->pmceid[0] = read_sysreg(PMCEID0_EL0);
		caps->pmceid[1] = read_sysreg(PMCEID1_EL0);
		caps->export_bus = vperf_vpmu_probe_export_bus(pmcr);
	}
	probe_spe(caps);
}

/*
 * What a direct-partition guest, running with MDCR_EL2.TPM = 0, could reach here that vperf
 * neither shows it nor switches:
 *  - FEAT_PMUv3_ICNTR's PMICNTR_EL0 / PMICFILTR_EL0: the instruction counter is in no HPMN
 *    range (PMCR_EL0.E enables it, PMCNTENSET_EL0.F0), so an untrapped guest would read and
 *    reset the host's or another VM's instruction count. Only FEAT_FGT2's HDFGRTR2_EL2 /
 *    HDFGWTR2_EL2 trap them without TPM (fgt.c); without it a direct policy is refused, and a
 *    direct VM's vCPU runs trapped on such a pCPU brought up later. PMUv3p9's PMUACR_EL1 and
 *    PMZR_EL0 (D24.5) exist whether or not the instruction counter does, and a guest shown
 *    PMUv3p5 must find them UNDEFINED; PMUACR_EL1 also keeps whatever its last writer (another
 *    VM) or the reset left, which a direct guest would read. Only FEAT_FGT2 traps them
 *    (nPMUACR_EL1, nPMZR_EL0): PMUv3p9 without it is the same hazard.
 *  - PMEVTYPER<n>_EL0.MT = 1 on a thread of a multithreaded core (MPIDR_EL1.MT) counts the
 *    events of the core's other threads (I5.3.30 MT): another VM's work. With FEAT_MTPMU and no
 *    EL3, vperf's MDCR_EL2.MTPME = 0 (mdcr.c: MTPME is vperf's, never set) makes MT ignored;
 *    with EL3 it is MDCR_EL3.MTPME, which EL2 cannot read; with MTPMU = 0b0000 an
 *    IMPLEMENTATION DEFINED extension may honour MT with no control at all. There only the
 *    guest's type registers trapped through FEAT_FGT keep MT out of the hardware (policy.c).
 */
static void direct_hazards(struct vperf_pcpu *pcpu)
{
	const struct vperf_pcpu_caps *c = &pcpu->caps;
	bool mtpme_el2 = c->mtpmu == ID_DFR0_MTPMU_FEAT && !c->el3;

	pcpu->direct_newer_regs = (c->icntr || c->pmuver >= ID_DFR0_PMUVER_V3P9) && !c->fgt2;
	pcpu->mt_counts = c->pmuver && c->mt && c->mtpmu != ID_DFR0_MTPMU_NONE && !mtpme_el2;
}

/* The host is told once per bring-up that SPE is there but not its own (probe_spe). */
static void note_spe_el3(struct vperf_pcpu *pcpu)
{
	if (!pcpu->caps.spe_el3)
		return;
	STAT_INC(&pcpu->stats, spe_el3);
	vperf_log(VPERF_LOG_ERR, "vperf: pcpu_init: PMBIDR_EL1.P = 1, firmware keeps SPE's "
				 "Profiling Buffer (MDCR_EL3.NSPB): no SPE on this pCPU");
}

/* A pCPU brought up after VMs exist must give each of them its policy: it may run any of their
 * vCPUs (struct vperf_demands). Refused, logged with the reason and counted otherwise. */
static bool refused(struct vperf_pcpu *pcpu)
{
	const char *why = vperf_platform_refusal(pcpu);
	char buf[160];
	struct fmt f;

	if (!why)
		return false;
	STAT_INC(&pcpu->stats, refused);
	vperf_fmt_init(&f, buf, sizeof(buf));
	vperf_fmt_str(&f, "vperf: pcpu_init refused: ");
	vperf_fmt_str(&f, why);
	vperf_log(VPERF_LOG_ERR, buf);
	return true;
}

int vperf_pcpu_init(struct vperf_pcpu *pcpu, const struct vperf_pcpu_config *cfg)
{
	static const struct vperf_pcpu zero;
	unsigned int reserved = (unsigned int)cfg->host_counters + cfg->agent_counters;

	*pcpu = zero;
	pcpu->cfg = *cfg;
	probe(&pcpu->caps);
	note_spe_el3(pcpu);
	/* Before any refusal: a hypervisor may run vCPUs on a refused pCPU against the contract,
	 * and a host's buffer would sample them by this register's reset value. */
	vperf_vspe_pcpu_init(pcpu);
	if (reserved > pcpu->caps.nr_counters || !vperf_mdcr_host_ok(pcpu) ||
	    !vperf_fgt_host_ok(pcpu))
		return VPERF_EINVAL;
	pcpu->epmn = (uint8_t)(pcpu->caps.nr_counters - cfg->agent_counters);
	/* The host keeps the first range (an EL1 host: docs/vpmu.md, "The second range"), or the
	 * second one below the agent's. */
	pcpu->hpmn = (uint8_t)(cfg->host_first_range ? cfg->host_counters
						     : pcpu->caps.nr_counters - reserved);
	/* HPMN = 0 is only valid with FEAT_HPMN0 (MDCR_EL2.HPMN description). */
	if (pcpu->caps.pmuver && pcpu->hpmn == 0 && !pcpu->caps.hpmn0)
		return VPERF_EINVAL;
	direct_hazards(pcpu);
	if (refused(pcpu))
		return VPERF_EINVAL;
	pcpu->host_mdcr = vperf_mdcr_host(pcpu);
	/* Unknown: the first load writes it. */
	pcpu->cur_mdcr = VPERF_MDCR_UNKNOWN;
	vperf_fgt_pcpu_init(pcpu);
	vperf_vpmu_pcpu_init(pcpu);
	vperf_platform_add(pcpu);
	vperf_vpmu_derive_masks();
	vperf_mdcr_new_epoch();
	return VPERF_OK;
}

void vperf_pcpu_forget(struct vperf_pcpu *pcpu, const struct vperf_vcpu *vcpu)
{
	if (pcpu->loaded == vcpu) {
		STAT_INC(&pcpu->stats, misuse);
		vperf_log(VPERF_LOG_ERR, "vperf: pcpu_forget of a loaded vCPU (put it first)");
		return;
	}
	/* Its state is in its shadow since its put; the hardware copy is only a cache. */
	if (pcpu->pmu_owner == vcpu)
		pcpu->pmu_owner = NULL;
	if (pcpu->resume == vcpu)
		pcpu->resume = NULL;
}
