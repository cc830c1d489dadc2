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
#include "vpmu.h"
#include "vspe.h"

const struct vperf_hyp_ops *vperf_ops;
/* What every initialised pCPU offers, for checking VM policies (vperf_vm_init). */
static uint8_t vperf_min_hpmn, vperf_min_pmuver, vperf_min_pmsver;
static bool vperf_min_hpmn_set, vperf_min_pmuver_set;
static bool vperf_any_unenforced;   /* a pCPU does not enforce MDCR_EL2.HPMN at EL1 */
static bool vperf_any_aarch64_only; /* a pCPU has no AArch32 at EL0 (no PMCR_EL0.D) */
static bool vperf_any_no_el3;	    /* a pCPU has no EL3 (no PMEVTYPER NSK, NSU, M) */
static bool vperf_any_no_host_spe;  /* a pCPU has no host-owned Profiling Buffer (host_spe) */
static bool vperf_any_no_export;    /* a pCPU has no event export bus (PMCR_EL0.X RAZ/WI) */
static struct vperf_pcpu_caps vperf_first_caps; /* the first initialised pCPU's (blob checks) */
/* Bumped by every vperf_init, vperf_pcpu_init and vperf_vm_init: a vCPU's cached MDCR_EL2 from
 * before may depend on a pCPU's or a VM's old configuration (vcpu_mdcr()). */
static uint32_t vperf_mdcr_epoch;
/* The guest-writable masks derived from the above, recomputed whenever they change (vperf_init,
 * vperf_pcpu_init): the trap path reads them on every PMCR_EL0 and type access. */
static struct {
	uint64_t pmcr_writable, pmcr_direct_extra, type_direct[2], type_trapped;
} vperf_masks;

static void derive_masks(void);

int vperf_init(const struct vperf_hyp_ops *ops)
{
	if (!ops || !ops->inject_undef || !ops->advance_pc || !ops->guest_el)
		return VPERF_EINVAL;
#if defined(CONFIG_VPERF_VPMU) || defined(CONFIG_VPERF_VSPE)
	if (!ops->set_irq_line)
		return VPERF_EINVAL;
#endif
	vperf_ops = ops;
	vperf_sysreg_space_init();
	vperf_min_hpmn_set = vperf_min_pmuver_set = vperf_any_unenforced = false;
	vperf_any_aarch64_only = vperf_any_no_el3 = false;
	vperf_any_no_host_spe = vperf_any_no_export = false;
	derive_masks();
	vperf_mdcr_epoch++;
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
	uint64_t pfr0;

	caps->dfr0 = read_sysreg(ID_AA64DFR0_EL1);
	pfr0 = read_sysreg(ID_AA64PFR0_EL1);
	caps->pmuver = dfr0_pmuver(caps->dfr0);
	caps->pmsver = (uint8_t)VPERF_FIELD_GET(caps->dfr0, 35, 32);
	caps->hpmn0 = VPERF_FIELD_GET(caps->dfr0, 63, 60) != 0;
	caps->el3 = (pfr0 & ID_PFR0_EL3_MASK) != 0;
	caps->aarch32 = VPERF_FIELD_GET(pfr0, ID_PFR0_EL0_SHIFT + 3, ID_PFR0_EL0_SHIFT) ==
			ID_PFR0_EL0_AARCH32;
	if (caps->pmuver) {
		uint64_t pmcr = read_sysreg(PMCR_EL0);

		caps->nr_counters = (uint8_t)VPERF_FIELD_GET(pmcr, 15, 11);
		caps->pmcr_id = pmcr & VPERF_GENMASK(31, 16);
#ifdef CONFIG_VPERF_VPMU
		/* PMCR_EL0.X is RAZ/WI without an event export bus, which no ID register names
		 * (I5.3.21): set it and see whether it sticks, then put the host's value back. */
		write_sysreg(pmcr | VPMU_PMCR_X, PMCR_EL0);
		caps->export_bus = (read_sysreg(PMCR_EL0) & VPMU_PMCR_X) != 0;
		write_sysreg(pmcr, PMCR_EL0);
#endif
	}
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

/*
 * The MDCR_EL2 fields outside vperf's that this PE implements (Arm DDI 0487 D24.2, MDCR_EL2):
 * the debug traps TDE, TDA, TDOSA and TDRA on every PE with EL2; HLP from PMUv3p5, HPMFZO from
 * PMUv3p7; TTRF with FEAT_TRF (ID_AA64DFR0_EL1.TraceFilt, bits [43:40]); E2TB with FEAT_TRBE
 * (TraceBuffer, bits [47:44]). vperf writes the host's bits at every switch, so a bit the PE
 * lacks is refused here, once, rather than written RES0 on every vCPU load.
 */
static uint64_t host_mdcr_fields(const struct vperf_pcpu_caps *caps)
{
	uint64_t f = MDCR_EL2_TDE | MDCR_EL2_TDA | MDCR_EL2_TDOSA | MDCR_EL2_TDRA;

	if (caps->pmuver >= 6)
		f |= MDCR_EL2_HLP;
	if (caps->pmuver >= 7)
		f |= MDCR_EL2_HPMFZO;
	if (VPERF_FIELD_GET(caps->dfr0, 43, 40))
		f |= MDCR_EL2_TTRF;
	if (VPERF_FIELD_GET(caps->dfr0, 47, 44))
		f |= MDCR_EL2_E2TB_MASK;
	return f;
}

static bool host_mdcr_ok(const struct vperf_pcpu *pcpu)
{
	uint64_t bad = pcpu->cfg.host_mdcr & ~MDCR_EL2_VPERF_MASK & ~host_mdcr_fields(&pcpu->caps);
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

int vperf_pcpu_init(struct vperf_pcpu *pcpu, const struct vperf_pcpu_config *cfg)
{
	static const struct vperf_pcpu zero;
	unsigned int reserved = (unsigned int)cfg->host_counters + cfg->agent_counters;

	*pcpu = zero;
	pcpu->cfg = *cfg;
	probe(&pcpu->caps);
	if (reserved > pcpu->caps.nr_counters || !host_mdcr_ok(pcpu))
		return VPERF_EINVAL;
	pcpu->epmn = (uint8_t)(pcpu->caps.nr_counters - cfg->agent_counters);
	pcpu->hpmn = (uint8_t)(pcpu->caps.nr_counters - reserved);
	/* HPMN = 0 is only valid with FEAT_HPMN0 (MDCR_EL2.HPMN description). */
	if (pcpu->caps.pmuver && pcpu->hpmn == 0 && !pcpu->caps.hpmn0)
		return VPERF_EINVAL;
	pcpu->host_mdcr = host_mdcr(pcpu);
	pcpu->cur_mdcr = ~0ull; /* unknown: the first load writes it */
#ifdef CONFIG_VPERF_VPMU
	/* PMUSERENR_EL0's fields reset to architecturally UNKNOWN values (Arm ARM, PMUSERENR_EL0;
	 * facts.md for the fields; the model's reset, docs/model.md). The PE applies it to a
	 * guest's EL0 before any trap to EL2, and a vCPU that never granted EL0 access runs on it
	 * as it is (no access at load, vpmu_switch.c): it must hold 0, what every put leaves. */
	if (pcpu->caps.pmuver)
		write_sysreg(0, PMUSERENR_EL0);
#endif
	if (!vperf_min_hpmn_set || pcpu->hpmn < vperf_min_hpmn)
		vperf_min_hpmn = pcpu->hpmn;
	vperf_min_hpmn_set = true;
	if (!vperf_min_pmuver_set || pcpu->caps.pmuver < vperf_min_pmuver)
		vperf_min_pmuver = pcpu->caps.pmuver;
	if (!vperf_min_pmuver_set || pcpu->caps.pmsver < vperf_min_pmsver)
		vperf_min_pmsver = pcpu->caps.pmsver;
	if (!vperf_min_pmuver_set)
		vperf_first_caps = pcpu->caps;
	vperf_min_pmuver_set = true;
	vperf_any_unenforced |= cfg->hpmn_unenforced;
	vperf_any_aarch64_only |= !pcpu->caps.aarch32;
	vperf_any_no_el3 |= !pcpu->caps.el3;
	vperf_any_no_host_spe |= !cfg->host_spe;
	vperf_any_no_export |= !pcpu->caps.export_bus;
	derive_masks();
	vperf_mdcr_epoch++;
	return VPERF_OK;
}

unsigned int vperf_vspe_min_pmsver(void)
{
	return vperf_min_pmuver_set ? vperf_min_pmsver : 0;
}

const struct vperf_pcpu_caps *vperf_vspe_ref_caps(void)
{
	return &vperf_first_caps;
}

bool vperf_vpmu_wide_counters(void)
{
	return vperf_min_pmuver_set && vperf_min_pmuver >= 6;
}

/*
 * PMCR_EL0 fields a guest may set (Arm ARM I5.3.21): E always; DP from PMUv3p1 (a PE with EL2
 * has it from there; vperf does not look for EL3, which gives it to PMUv3p0 too); LP only
 * from PMUv3p5, RES0 before, so a guest on an older PE reads it as 0 and vperf never writes
 * it to the hardware. X (export bus) and D (AArch32) are not offered. P and C are actions,
 * N, IMP and IDCODE read-only, LC RES1 without AArch32.
 */
static uint64_t pmcr_writable(void)
{
	uint64_t w = PMCR_E;

	if (vperf_min_pmuver_set && vperf_min_pmuver >= 4)
		w |= VPMU_PMCR_DP;
	if (vperf_vpmu_wide_counters())
		w |= PMCR_LP;
	return w;
}

/*
 * What a direct-partition guest also holds in PMCR_EL0, since it writes the hardware's own
 * (I5.3.21), and so what vperf carries across a switch and accepts in a blob for it: X only
 * with an event export bus (RAZ/WI otherwise: kept in the shadow while the guest is trapped, it
 * would read back 1 there and 0 once the hardware has its state), D only with AArch32 at EL0
 * (RES0 otherwise), FZO from PMUv3p7 (RES0 before); on every initialised pCPU.
 */
static uint64_t pmcr_direct_extra(void)
{
	uint64_t w = 0;

	if (vperf_min_pmuver_set && !vperf_any_no_export)
		w |= VPMU_PMCR_X;
	if (vperf_min_pmuver_set && !vperf_any_aarch64_only)
		w |= VPMU_PMCR_D;
	if (vperf_min_pmuver_set && vperf_min_pmuver >= 7)
		w |= VPMU_PMCR_FZO;
	return w;
}

/*
 * PMEVTYPER<n>_EL0.evtCount (Arm DDI 0487 I5.3.30): bits [9:0] on every PMUv3, bits [15:10]
 * from PMUv3p1 only (RES0 on PMUv3p0, whose hardware drops them). A type is judged by the
 * event the hardware will count, so every guest value is cut to this width first: on a
 * PMUv3p0 PE event 0x2008 is event 0x008, INST_RETIRED, whatever the filter says of 0x2008.
 */
static uint64_t event_number_mask(void)
{
	return vperf_min_pmuver_set && vperf_min_pmuver >= 4 ? VPMU_EVTYPER_EVT
							     : VPERF_GENMASK(9, 0);
}

/*
 * The PMEVTYPER<n>_EL0 (cycle: PMCCFILTR_EL0) fields a direct-partition guest holds, since it
 * writes the hardware's own (I5.3.30, I5.3.2): P, U, NSH and the event number (bits [15:10]
 * from PMUv3p1), and NSK, NSU and M where every pCPU has EL3. The fields of later features (SH,
 * the Realm filters, thresholds) are not offered: vperf does not probe for them, and a restored
 * blob must not put into the hardware a field it may not implement, nor show the guest one
 * the hardware would then drop.
 */
static uint64_t type_direct(bool cycle)
{
	uint64_t w = VPMU_EVTYPER_P | VPMU_EVTYPER_U | VPMU_EVTYPER_NSH;

	if (vperf_min_pmuver_set && !vperf_any_no_el3)
		w |= VPMU_EVTYPER_NSK | VPMU_EVTYPER_NSU | VPMU_EVTYPER_M;
	return cycle ? w : w | event_number_mask();
}

static void derive_masks(void)
{
	vperf_masks.pmcr_writable = pmcr_writable();
	vperf_masks.pmcr_direct_extra = pmcr_direct_extra();
	vperf_masks.type_direct[0] = type_direct(false);
	vperf_masks.type_direct[1] = type_direct(true);
	vperf_masks.type_trapped = VPMU_EVTYPER_P | VPMU_EVTYPER_U | event_number_mask();
}

uint64_t vperf_vpmu_pmcr_writable(void)
{
	return vperf_masks.pmcr_writable;
}

uint64_t vperf_vpmu_pmcr_direct_extra(void)
{
	return vperf_masks.pmcr_direct_extra;
}

uint64_t vperf_vpmu_type_direct(bool cycle)
{
	return vperf_masks.type_direct[cycle];
}

uint64_t vperf_vpmu_type_trapped(void)
{
	return vperf_masks.type_trapped;
}

#ifdef CONFIG_VPERF_VPMU
static bool filter_allows_all(const struct vperf_pmu_filter *f)
{
	return f->allow[0] == ~0ull && f->allow[1] == ~0ull && f->allow_other;
}

/*
 * The direct partition (DESIGN.md section 3, mode 1) hands the first range to the guest with no
 * trap, so the hardware must do all the isolating: enforce HPMN at EL1 (counters >= HPMN
 * UNDEFINED, their SET/CLR bits RAZ/WI, PMCR.P limited to them), keep the guest's counters out of
 * EL2 (HPMD, PMUv3p1, and HCCD for the cycle counter, PMUv3p5) and give 64-bit counters (v3p5),
 * and the guest can program any event, so no event filter can be enforced without FEAT_FGT.
 */
static bool direct_possible(const struct vperf_vm_config *cfg)
{
	return vperf_min_pmuver >= 6 && !vperf_any_unenforced && filter_allows_all(&cfg->filter) &&
	       cfg->nr_counters >= 1;
}
#endif

/* SPE for a VM: every initialised pCPU has it, the PPI is a PPI; a VM profiled from outside
 * (VPERF_SPE_BUF_EL2) needs the hypervisor's own buffer on every pCPU (host_spe), which vperf
 * parks around the guests that own one. */
static int check_spe(const struct vperf_vm_config *cfg)
{
#ifndef CONFIG_VPERF_VSPE
	(void)cfg;
	return VPERF_ENOTSUP;
#else
	if (!vperf_min_pmuver_set || !vperf_min_pmsver)
		return VPERF_ENODEV;
	if (cfg->spe_buffer == VPERF_SPE_BUF_EL2 && vperf_any_no_host_spe)
		return VPERF_EINVAL;
	if (cfg->spe_buffer > VPERF_SPE_BUF_EL2)
		return VPERF_EINVAL;
	if (cfg->spe_virq && (cfg->spe_virq < 16 || cfg->spe_virq > 31))
		return VPERF_EINVAL;
	return VPERF_OK;
#endif
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
	 * (PMCR_EL0.N is 5 bits, at most 31 event counters, I5.3.21). Every mask vperf builds from
	 * them relies on it, an OFF VM's blob restore included. */
	if ((unsigned int)cfg->partition > VPERF_PART_EMULATED ||
	    cfg->nr_counters > VPERF_PMU_MAX_COUNTERS || cfg->emu_slots > VPERF_PMU_MAX_COUNTERS)
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
#ifndef CONFIG_VPERF_VPMU
	return VPERF_ENOTSUP;
#else
	if (!vperf_min_pmuver_set || !vperf_min_pmuver)
		return VPERF_ENODEV; /* no pCPU with a PMUv3 initialised */
	if (cfg->partition == VPERF_PART_DIRECT && !direct_possible(cfg))
		return VPERF_EINVAL;
	/* N can never exceed HPMN: at EL1 an event counter at or above MDCR_EL2.HPMN is UNDEFINED
	 * before MDCR_EL2.TPM is considered, so no emulation could answer for it. */
	if (cfg->nr_counters > vperf_min_hpmn || cfg->emu_slots > vperf_min_hpmn)
		return VPERF_EINVAL;
	if (cfg->pmu_virq && (cfg->pmu_virq < 16 || cfg->pmu_virq > 31))
		return VPERF_EINVAL;
	return VPERF_OK;
#endif
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
	vperf_mdcr_epoch++;
	return VPERF_OK;
}

/*
 * MDCR_EL2 while a vCPU runs, from the host's value (HPMN = first host counter, HPME for the
 * host's counters, the host's own bits):
 *   TPM   = 1: every PMU register access from EL1/EL0 traps: vperf emulates the vPMU or, for a
 *           VM without one, answers UNDEF (trapped partition, DESIGN.md section 3 mode 2);
 *   TPMCR = 1: PMCR_EL0 traps too (TPM covers it; set for hardware that separates them);
 *   TPMS  = 1 with SPE: the SPE sampling controls (PMS*) trap (SPE supplement 3.4.6): a VM
 *           without vSPE gets UNDEF, a VM with one the emulation of virt/vspe_regs.c;
 *   E2PB  = 0b00 with SPE: EL2 owns the Profiling Buffer, so EL1 PMB* accesses trap and a
 *           guest can never sample into memory (SPE supplement 3.4.2);
 * and for a VM with a vPMU, the fields vperf_vpmu_mdcr() adds (virt/vpmu_switch.c), for a VM with
 * a vSPE those of vperf_vspe_mdcr() (virt/vspe_switch.c). A VM without a vPMU (OFF) leaves HPME
 * as the host set it.
 */
static uint64_t vcpu_mdcr(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	uint64_t mdcr = pcpu->host_mdcr & ~MDCR_EL2_E2PB_MASK;

	mdcr |= MDCR_EL2_TPM | MDCR_EL2_TPMCR;
	/* TPMS and E2PB are RES0 without SPE: written only where they exist (a PE without SPE
	 * makes every PMS and PMB register UNDEFINED at EL1 anyway). */
	if (pcpu->caps.pmsver)
		mdcr |= MDCR_EL2_TPMS | MDCR_EL2_E2PB_EL2;
#ifdef CONFIG_VPERF_VPMU
	if (vpmu_on(vcpu))
		mdcr = vperf_vpmu_mdcr(vcpu, pcpu, mdcr);
#endif
#ifdef CONFIG_VPERF_VSPE
	if (vspe_on(vcpu))
		mdcr = vperf_vspe_mdcr(vcpu, mdcr);
#endif
	(void)vcpu;
	return mdcr;
}

static void set_mdcr(struct vperf_pcpu *pcpu, uint64_t mdcr)
{
	if (pcpu->cur_mdcr == mdcr)
		return;
	write_sysreg(mdcr, MDCR_EL2);
	pcpu->cur_mdcr = mdcr;
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
	vperf_mdcr_stale(vcpu);
#ifdef CONFIG_VPERF_VPMU
	vperf_vpmu_reset(vcpu);
#endif
#ifdef CONFIG_VPERF_VSPE
	vperf_vspe_reset(vcpu);
#endif
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
}

/* Written only when it differs from the last value: vCPUs of VMs with the same policy switch
 * with no MDCR_EL2 access. No ISB: the ERET into the guest is the context synchronization event,
 * nothing at EL2 depends on the trap bits, and the guest's counters never count EL2 (NSH = 0,
 * HPMD), so EL2 work before the ERET is not theirs whichever value it is counted with; the
 * model's synchronization window checks this (docs/model.md). */
void vperf_update_mdcr(struct vperf_vcpu *vcpu)
{
	vcpu->mdcr = vcpu_mdcr(vcpu, vcpu->pcpu);
	vcpu->mdcr_pcpu = vcpu->pcpu;
	vcpu->mdcr_epoch = vperf_mdcr_epoch;
	set_mdcr(vcpu->pcpu, vcpu->mdcr);
}

/* At load: the value computed last time, when nothing it depends on changed since: the same
 * pCPU, no pCPU or VM (re)initialised (the epoch), and the vCPU's trap state (direct PMU, direct
 * SPE buffer), whose every change either recomputes it (vperf_update_mdcr) or marks it stale
 * (vperf_mdcr_stale). */
static void load_mdcr(struct vperf_vcpu *vcpu)
{
	if (vcpu->mdcr_pcpu == vcpu->pcpu && vcpu->mdcr_epoch == vperf_mdcr_epoch)
		set_mdcr(vcpu->pcpu, vcpu->mdcr);
	else
		vperf_update_mdcr(vcpu);
}

void vperf_vcpu_load(struct vperf_vcpu *vcpu, struct vperf_pcpu *pcpu)
{
	/* A load without the put of the previous run is a hypervisor bug that loses the vCPU's
	 * counts (its state may still be in another pCPU's hardware): say so loudly. */
	if (vcpu->pcpu || pcpu->loaded) {
		STAT_INC(&pcpu->stats, misuse);
		vperf_log(VPERF_LOG_ERR, "vperf: vcpu_load without vcpu_put (vCPU or pCPU still "
					 "loaded)");
	}
	vcpu->pcpu = pcpu;
	pcpu->loaded = vcpu;
#ifdef CONFIG_VPERF_VSPE
	/* The host's own buffer parked before MDCR_EL2.E2PB gives the buffer to EL1. */
	if (vspe_on(vcpu))
		vperf_vspe_before_mdcr(vcpu);
#endif
	/* MDCR_EL2 first: HPMN decides which counters are the guest's before any of them can
	 * count. */
	load_mdcr(vcpu);
#ifdef CONFIG_VPERF_VPMU
	if (vpmu_on(vcpu))
		vperf_vpmu_load(vcpu, pcpu);
#endif
#ifdef CONFIG_VPERF_VSPE
	if (vspe_on(vcpu))
		vperf_vspe_load(vcpu);
	if (vspe_outside(vcpu))
		vperf_vspe_outside_load(vcpu);
#endif
}

/*
 * The host gets its MDCR_EL2 back only where it matters at EL2: HPME (whether its counters
 * count), and E2PB when it owns a Profiling Buffer of its own (host_spe: its buffer must be
 * EL2's again before it is restored). The vCPU's trap bits stay, as they act on EL1/EL0 only,
 * where an EL2 hypervisor runs no code of its own; a host that does (host_el1) gets its full
 * value back.
 */
void vperf_vcpu_put(struct vperf_vcpu *vcpu)
{
	struct vperf_pcpu *pcpu = vcpu->pcpu;

	if (!pcpu)
		return;
#ifdef CONFIG_VPERF_VSPE
	/* SPE first: its drain ends with the DSB that must precede the MDCR_EL2 switch. */
	if (vspe_on(vcpu))
		vperf_vspe_put(vcpu);
	if (vspe_outside(vcpu))
		vperf_vspe_outside_put(vcpu);
#endif
#ifdef CONFIG_VPERF_VPMU
	if (vpmu_on(vcpu))
		vperf_vpmu_put(vcpu, pcpu);
#endif
	if (pcpu->cfg.host_el1 || ((pcpu->cur_mdcr ^ pcpu->host_mdcr) & MDCR_EL2_HPME) ||
	    pcpu->spe.parked)
		set_mdcr(pcpu, pcpu->host_mdcr);
#ifdef CONFIG_VPERF_VSPE
	/* E2PB is the host's again (0b00): its buffer comes back. */
	vperf_vspe_unpark_host(pcpu);
#endif
	pcpu->loaded = NULL;
	vcpu->pcpu = NULL;
}

/* ID_AA64DFR0_EL1 as the VM sees it: PMUVer 0 without a vPMU, else the hardware's up to PMUv3p5
 * (what vperf emulates); PMSVer 0 without a vSPE, else the hardware's up to SPEv1p2
 * (virt/vspe_regs.c); no FEAT_HPMN0, as the guest has no EL2. */
uint64_t vperf_vcpu_id_dfr0(const struct vperf_vcpu *vcpu, uint64_t hw)
{
	uint64_t pmuver = VPERF_FIELD_GET(hw, 11, 8);
	uint64_t v = hw & ~(ID_DFR0_PMUVER_MASK | ID_DFR0_PMSVER_MASK | ID_DFR0_HPMN0_MASK);

	if (pmuver == ID_DFR0_PMUVER_IMPDEF || vcpu->vm->cfg.pmu_mode == VPERF_PMU_OFF)
		pmuver = 0;
	if (pmuver > 6)
		pmuver = 6;
	v |= pmuver << ID_DFR0_PMUVER_SHIFT;
#ifdef CONFIG_VPERF_VSPE
	if (vspe_on(vcpu)) /* not a VM profiled from outside: it has no SPE */
		v |= (uint64_t)vperf_vspe_pmsver(hw) << ID_DFR0_PMSVER_SHIFT;
#endif
	return v;
}
