/* SPDX-License-Identifier: MIT */
/*
 * vperf public API: what a hypervisor includes. Three objects, all statically allocatable:
 *
 *   struct vperf_pcpu   one physical CPU: what its PMU/SPE offer and what the host keeps.
 *   struct vperf_vm     one VM's policy: PMU mode, counters given to it, SPE, interrupts.
 *   struct vperf_vcpu   one vCPU's guest-visible PMU/SPE state.
 *
 * Calls, in the order a hypervisor makes them:
 *   vperf_init(ops)                       once, with the ops contract (vperf/hyp.h)
 *   vperf_pcpu_init(pcpu, cfg)            on each physical CPU, running on that CPU
 *   vperf_vm_init(vm, cfg, hv_vm)         per VM
 *   vperf_vcpu_init(vcpu, vm, hv_vcpu)    per vCPU; vperf_vcpu_reset() on guest reset
 *   vperf_vcpu_load / vperf_vcpu_put      around every run of a vCPU on a physical CPU
 *   vperf_handle_sysreg(...)              from the EC=0x18 trap handler
 *   vperf_handle_pmu_irq(pcpu)            from the physical PMUIRQ handler
 *   vperf_handle_spe_irq(pcpu)            from the physical PMBIRQ handler
 *
 * Concurrency: a vperf_vcpu is used by one physical CPU at a time (between load and put);
 * vperf takes no locks. A vperf_pcpu is only touched on its own CPU.
 */
#ifndef VPERF_VPERF_H
#define VPERF_VPERF_H

#include <vperf/blob.h>
#include <vperf/config.h>
#include <vperf/hyp.h>
#include <vperf/irq.h>
#include <vperf/stats.h>
#include <vperf/sysreg.h>
#include <vperf/types.h>
#include <vperf/vpmu.h>
#include <vperf/vspe.h>

/* Per-VM PMU policy, numerically equal to Xen's XENPMU_MODE_* (xen/pmu.h; checked at build
 * time in virt/xen_abi.c when CONFIG_VPERF_XEN_ABI is set). */
enum vperf_pmu_mode {
	VPERF_PMU_OFF = 0,	 /* no PMU visible: every access UNDEF, PMUVer reads 0 */
	VPERF_PMU_SELF = 1 << 0, /* the guest profiles itself with its counters */
	VPERF_PMU_HV = 1 << 1,	 /* SELF, and the hypervisor keeps the second range */
	VPERF_PMU_ALL = 1 << 2,	 /* only the privileged VM profiles (everything) */
};

enum vperf_partition {
	VPERF_PART_TRAPPED,  /* TPM=1, guest counter i = physical counter i (the default) */
	VPERF_PART_DIRECT,   /* MDCR_EL2.TPM=0: no traps, hardware enforces HPMN */
	VPERF_PART_EMULATED, /* TPM=1, counters are shadows multiplexed onto free ones */
	/* TPM=1, the host keeping the first range (host_first_range): the guest's counters, its
	 * cycle counter too, in [HPMN, EPMN), its E as HPME (docs/vpmu.md, "The second range") */
	VPERF_PART_SECOND
};

/* What the hypervisor tells vperf about one physical CPU. */
struct vperf_pcpu_config {
	uint64_t host_mdcr;	/* the hypervisor's own MDCR_EL2 bits (debug traps etc.); vperf
				* only ever changes the fields in MDCR_EL2_VPERF_MASK; a bit
				* the PE does not implement fails vperf_pcpu_init, logged */
	uint8_t host_counters;	/* counters the host keeps for itself: [N - host_counters - agent,
				* N - agent); guests get [0, HPMN). With host_first_range:
				* [0, host_counters), HPMN = host_counters */
	uint8_t agent_counters; /* the third range [EPMN, N) of an external agent (PMCCR.EPMN,
				 * Arm DDI 0487 K.a I5.3.47), when FEAT_PMUv3_EXTPMN; 0
				 * otherwise */
	bool hpmn_unenforced;	/* the PE does not fully enforce MDCR_EL2.HPMN at EL1 (QEMU 7.2
				 * does not, docs/qemu.md): no direct partition */
	bool host_el1;		/* the host runs code at EL1/EL0 between vCPUs (nVHE): give it
				 * its MDCR_EL2 back at every put, not only when counting differs */
	bool host_first_range;	/* the host (EL1, nVHE) keeps [0, host_counters) and the cycle
				 * counter; guests VPERF_PART_SECOND only, in [HPMN, EPMN) */
	bool host_spe;		/* the host profiles with its own EL2-owned Profiling Buffer
				 * (E2PB = 0b00): vperf saves it around vCPUs with vSPE; the
				 * host touches it only with no such vCPU loaded (put first) */
	/* The hypervisor writes MDCR_EL2 itself at every entry and exit (nVHE KVM's trap
	 * activation): after every vperf_vcpu_load, before the guest runs, it writes
	 * vperf_pcpu_mdcr(); after every put, its own host value, which must stop the second
	 * range (HPME = 0) where the host keeps the first. vperf's lazy puts and their quick load
	 * back then leave MDCR_EL2 to it (vperf/hyp.h, "MDCR_EL2 is shared"). */
	bool hyp_writes_mdcr;
	/* The host writes PMCR_EL0 between a put and the next load (nVHE KVM: its EL1 perf sets
	 * PMCR_EL0.E whenever it enables its own events, and KVM puts the host's value back after
	 * every put). PMCR_EL0.E, which enables the first range wherever it is written from, then
	 * no longer stops a put vCPU's counters: the trapped, direct and emulated partitions'
	 * puts, eager and lazy, stop them by clearing their own enables and interrupt enables
	 * (the values stay in the shadow), and every resume writes the guest's PMCR_EL0, then its
	 * enables, back (docs/vpmu.md, "Lazy put"). vperf never writes the host's PMCR_EL0: the
	 * hypervisor puts it back after every put. */
	bool host_writes_pmcr;
	/* With FEAT_FGT: the hypervisor's own HDFGRTR_EL2 / HDFGWTR_EL2 (its debug, trace and SPE
	 * fine-grained traps). vperf writes these registers at every load, its PMU fields
	 * (vperf/fgt.h) with the hypervisor's others, plus HDFGWTR_EL2.PMBSR_EL1 for a VM with an
	 * untrapped Profiling Buffer, and puts these values back at every put;
	 * 0 on a PE without FEAT_FGT (anything else fails vperf_pcpu_init, logged). */
	uint64_t host_hdfgrtr;
	uint64_t host_hdfgwtr;
	/* With FEAT_FGT2: the hypervisor's own HDFGRTR2_EL2 / HDFGWTR2_EL2. Their fields trap when
	 * 0 ("n" fields): give 1 in every field the host's EL1/EL0 may use untrapped. vperf clears
	 * its fields (vperf/fgt.h, HDFG2_VPERF_MASK) while a direct-partition vCPU runs and puts
	 * these values back at its put. Ignored on a PE without FEAT_FGT2. */
	uint64_t host_hdfgrtr2;
	uint64_t host_hdfgwtr2;
};

/* What vperf found on the CPU, read by vperf_pcpu_init(). */
struct vperf_pcpu_caps {
	uint64_t dfr0;	     /* ID_AA64DFR0_EL1 */
	uint64_t pmsidr;     /* PMSIDR_EL1, 0 without SPE */
	uint64_t pmbidr;     /* PMBIDR_EL1, 0 without SPE */
	uint8_t pmuver;	     /* ID_AA64DFR0_EL1.PMUVer, 0 when absent or IMPLEMENTATION DEFINED */
	uint8_t pmsver;	     /* ID_AA64DFR0_EL1.PMSVer, 0 when absent or spe_el3 */
	bool spe_el3;	     /* SPE implemented, its buffer kept by EL3 (PMBIDR_EL1.P = 1 at EL2) */
	uint8_t nr_counters; /* PMCR_EL0.N */
	bool hpmn0;	     /* FEAT_HPMN0: MDCR_EL2.HPMN = 0 allowed */
	bool fgt;	     /* FEAT_FGT: ID_AA64MMFR0_EL1.FGT != 0, HDFGRTR/HDFGWTR_EL2 exist */
	bool el3;	     /* ID_AA64PFR0_EL1.EL3 != 0: the PMU filters have NSK, NSU, M */
	bool aarch32;	     /* ID_AA64PFR0_EL1.EL0 == 0b0010: PMCR_EL0.D exists */
	bool export_bus;     /* PMCR_EL0.X sticks: an event export bus (no ID register says) */
	uint64_t pmcr_id;    /* PMCR_EL0.IMP and IDCODE, shown to guests */
	uint64_t pmceid[2];  /* PMCEID0_EL0, PMCEID1_EL0: the common events it counts */
	/* Newer PMU hardware (docs/vpmu.md, "Newer PMU hardware"): */
	bool icntr;    /* FEAT_PMUv3_ICNTR: ID_AA64DFR1_EL1.PMICNTR [39:36] != 0 (PMICNTR_EL0) */
	bool fgt2;     /* FEAT_FGT2: ID_AA64MMFR0_EL1.FGT >= 2 (HDFGRTR2_EL2, HDFGWTR2_EL2) */
	bool mt;       /* MPIDR_EL1.MT [24]: a thread of a multithreaded core */
	uint8_t mtpmu; /* ID_AA64DFR0_EL1.MTPMU [51:48] (signed: 1 FEAT_MTPMU, 0xF none) */
	bool sel2;     /* FEAT_SEL2: ID_AA64PFR0_EL1.SEL2 [39:36] != 0 (PMEVTYPER<n>.SH, EL3) */
	bool ecv;      /* FEAT_ECV: ID_AA64MMFR0_EL1.ECV [63:60] != 0 (PMSCR_EL1.PCT[1]) */
	/* HCR_EL2.E2H [34] as vperf_pcpu_init found it (FEAT_VHE: the host runs at EL2, VHE). It
	 * picks how vperf names the guest's EL1 registers that EL2 reaches by another name then:
	 * PMSCR_EL12 for the guest's PMSCR_EL1 (SPE 4.3.5, 4.3.6). The hypervisor keeps E2H as it
	 * was at vperf_pcpu_init for as long as vperf runs on the pCPU. */
	bool e2h;
};

struct vperf_pcpu {
	struct vperf_pcpu_config cfg;
	struct vperf_pcpu_caps caps;
	uint8_t hpmn; /* first counter that is not the guests': [0, hpmn) is the first range */
	uint8_t epmn; /* first counter of the external agent's range */
	uint64_t host_mdcr;	      /* MDCR_EL2 while no vCPU runs */
	struct vperf_vcpu *loaded;    /* the vCPU between load and put, or NULL */
	struct vperf_vcpu *pmu_owner; /* the vCPU whose PMU state is in the hardware, or NULL */
	/* A second-range vCPU whose lazy put left nothing but the host's MDCR_EL2 to undo: its load
	 * back, with nothing loaded here in between, writes only its own (virt/vpmu/switch.h). */
	struct vperf_vcpu *resume;
	uint64_t cur_mdcr;    /* MDCR_EL2 as last written */
	uint64_t cur_hdfgrtr; /* HDFGRTR_EL2 / HDFGWTR_EL2 as last written (FEAT_FGT) */
	uint64_t cur_hdfgwtr;
	/* A vCPU's HDFGRTR_EL2 / HDFGWTR_EL2 here, indexed by its VM's fgt_types (virt/fgt.c):
	 * computed once at pcpu_init so that load only compares. 0 without FEAT_FGT. */
	uint64_t vm_hdfgrtr[8];
	uint64_t vm_hdfgwtr[8];
	bool fgt_host_pmu; /* the host's values set PMU fields: every put writes them back */
	/* Bit t + 8 * t2 (a VM's fgt_class): the four registers above and below hold exactly
	 * vm_hdfgrtr[t], vm_hdfgwtr[t], vm_hdfgrtr2[t2] and vm_hdfgwtr2[t2], so that a load tests
	 * one bit. Kept by every writer (virt/fgt.c) from what pcpu_init computes: fgt_same[c],
	 * the classes whose values are class c's; fgt_held_host, those whose values are the
	 * host's. */
	uint16_t fgt_held;
	uint16_t fgt_held_host;
	uint16_t fgt_same[16];
	/* FEAT_FGT2 (virt/fgt.c): HDFGRTR2_EL2 / HDFGWTR2_EL2 as last written, and a vCPU's
	 * values here: [1] for a direct-partition vCPU (vperf's fields trap), [0] for the others
	 * (the host's). All 0 without FEAT_FGT2. */
	uint64_t cur_hdfgrtr2, cur_hdfgwtr2;
	uint64_t vm_hdfgrtr2[2], vm_hdfgwtr2[2];
	/* What this pCPU's hardware lets a direct-partition guest reach untrapped beyond what
	 * vperf shows it (virt/pcpu.c): FEAT_PMUv3_ICNTR's instruction counter, or PMUv3p9's
	 * PMUACR_EL1 and PMZR_EL0, without FEAT_FGT2 to trap them; a PMEVTYPER<n>_EL0.MT that
	 * counts the core's other threads and that
	 * vperf cannot disable from EL2 (only FEAT_FGT's type traps keep it out). */
	bool direct_newer_regs;
	bool mt_counts;
	struct vperf_pcpu_vspe spe; /* the host's SPE state while saved */
	bool agent_irq_reported;    /* the agent's interrupt was masked and logged once */
	struct vperf_stats stats;   /* events not attributable to a VM */
};

struct vperf_vm_config {
	enum vperf_pmu_mode pmu_mode;
	enum vperf_partition partition;
	uint8_t nr_counters; /* event counters the guest sees (PMCR_EL0.N); <= the first range */
	struct vperf_pmu_filter filter; /* events the guest may count */
	uint8_t emu_slots;		/* emulated partition: physical counters its counters run on
			      * (0: the whole first range); fewer than the counters it enables
			      * and they are multiplexed */
	bool spe;			/* give the guest SPE (docs/vspe.md) */
	enum vperf_spe_buffer spe_buffer; /* who owns the Profiling Buffer (vperf/vspe.h) */
	bool spe_pa;			  /* the guest may collect physical addresses (host PAs:
					   * PMSCR_EL2.PA); off by default */
	bool spe_pct;			  /* the guest may collect physical time (PMSCR_EL2.PCT) */
	uint32_t pmu_virq; /* virtual INTIDs; 0: CONFIG_VPERF_VPMU_PPI, CONFIG_VPERF_VSPE_PPI */
	uint32_t spe_virq;
	uint32_t spe_context; /* VPERF_SPE_BUF_EL2: CONTEXTIDR_EL2 while the VM runs, so that the
			       * host's records of it carry this id in their Context packets */
};

struct vperf_vm {
	struct vperf_vm_config cfg;
	void *hv_vm;
	struct vperf_stats stats;
	uint32_t notices; /* guest mistakes seen, for the log's rate limit (virt/log.c) */
	/* Its FEAT_FGT traps (virt/fgt.c), the index of vm_hdfgrtr/vm_hdfgwtr: bit 0, its type
	 * registers; bit 1, PMBSR_EL1 writes (an untrapped Profiling Buffer); bit 2, PMCEID<n>_EL0
	 * reads alone (a direct VM on pCPUs whose common events differ). */
	uint8_t fgt_types;
	/* Its bit of a pCPU's fgt_held: fgt_types + 8 * its FEAT_FGT2 index (virt/fgt.h). */
	uint8_t fgt_class;
	/* Which lazy put of vperf_vcpu_put_lazy its vCPUs may take (virt/vcpu.c): one byte. */
	uint8_t lazy;
	uint64_t pmu_mask; /* its counters' bits, from its policy (virt/vpmu/vpmu.h) */
};

struct vperf_vcpu {
	struct vperf_vm *vm;
	void *hv_vcpu;
	struct vperf_pcpu *pcpu; /* where it is loaded, or NULL */
	uint64_t mdcr;		 /* MDCR_EL2 while this vCPU runs */
	/* mdcr was computed for this pCPU in this configuration epoch (virt/mdcr.c); NULL: to be
	 * computed at the next load. */
	const struct vperf_pcpu *mdcr_pcpu;
	uint32_t mdcr_epoch;
	/* The hypervisor's own MDCR_EL2 bits for this vCPU (vperf_vcpu_set_host_mdcr), in place of
	 * its pCPU's host_mdcr ones while it runs; host_mdcr_set false: the pCPU's. */
	uint64_t host_mdcr;
	bool host_mdcr_set;
	struct vperf_vpmu pmu;
	struct vperf_vspe spe;
};

enum vperf_trap_result {
	VPERF_TRAP_HANDLED,  /* emulated; the PC was advanced */
	VPERF_TRAP_UNDEF,    /* the guest got UNDEF through ops->inject_undef */
	VPERF_TRAP_NOT_MINE, /* not a PMU/SPE access: the hypervisor handles it */
};

/* Register the hypervisor's ops (copied by reference; must outlive vperf). Returns
 * VPERF_EINVAL when a required op is missing. */
int vperf_init(const struct vperf_hyp_ops *ops);

/* Probe the calling physical CPU (ID_AA64DFR0_EL1, ID_AA64MMFR0_EL1.FGT, PMCR_EL0.N,
 * PMBIDR/PMSIDR) and apply cfg. A PE whose firmware keeps SPE's Profiling Buffer (PMBIDR_EL1.P
 * = 1 at EL2: MDCR_EL3.NSPB) is one without SPE to vperf, logged and counted (stats.spe_el3):
 * no other SPE register is ever touched there, and no VM with SPE can run on it. Returns
 * VPERF_EINVAL when the host and agent ranges do not fit in PMCR_EL0.N or would leave the
 * guests an HPMN of 0 without FEAT_HPMN0, or when cfg gives HDFGRTR/HDFGWTR_EL2 values on a PE
 * without FEAT_FGT. Programs nothing but PMUSERENR_EL0 = 0, PMSELR_EL0 (the value a direct
 * guest's put leaves), with host_spe, the guests' PMSCR_EL1 = 0, and with neither host_spe nor
 * host_el1 (a host with no SPE driver: vperf is SPE's only user) SPE reset as an owner does
 * (PMSCR_EL2 = 0, the buffer off, PMBSR_EL1 = 0, the guests' PMSCR_EL1 = 0), even when it
 * refuses the pCPU (reset values UNKNOWN; guests' EL0 sees PMUSERENR_EL0, a trapped guest's
 * PMXEV* is checked against PMSELR_EL0.SEL, the host's EL2-owned buffer would sample guests by
 * PMSCR_EL1, a stray PMBSR_EL1.S would hold PMBIRQ high with nobody to clear it): the host's
 * MDCR_EL2 stays, the FGT registers are first written at the next vCPU load, and a host with an
 * SPE driver resets its own SPE registers. Call it again after the CPU was reset.
 * A pCPU brought up after VMs exist must give every one of them its policy, since any of their
 * vCPUs may run there: VPERF_EINVAL, logged with the reason and counted (stats.refused), when
 * its first range is smaller than a VM's N or emu_slots, its PMUVer or PMSVer is below what a
 * VM was shown, it lacks a common event (PMCEID0/1_EL0) a VM with a vPMU was shown, it lacks
 * the FEAT_ECV a VM's PMSCR_EL1.PCT[1] rests on, its SPE ID registers
 * would change what a VM with a vSPE was shown (a PMSIDR_EL1 feature it lacks, a larger
 * Interval, narrower counters, another PMBIDR_EL1.Align or F, PMSIDR_EL1.MaxSize or Format:
 * docs/vspe.md, "One SPE ID view"), it lacks the AArch32 at EL0 every pCPU had while a VM has a
 * vPMU (its PMCR_EL0.LC and D hold a value), it has hpmn_unenforced (or lacks EL3 or the export
 * bus every pCPU had) while a VM is direct, its common events differ at all from those a direct
 * VM reads untrapped (one whose PMCEID0/1_EL0 reads do not trap: docs/vpmu.md, "One view of the
 * common events"), or it has no host_spe while a VM is profiled from outside. Where the pCPUs
 * differ (big.LITTLE), bring every pCPU up before the first vperf_vm_init.
 * There is no VM destroy call: what the VMs rely on only grows until the next vperf_init. Not
 * refused: a pCPU without FEAT_FGT or FEAT_HPMN0 that a direct VM would need; the VM runs
 * trapped there (the same PMU, with traps). On any error the pCPU must not run vCPUs. */
int vperf_pcpu_init(struct vperf_pcpu *pcpu, const struct vperf_pcpu_config *cfg);

/* Validate and record a VM's policy. VPERF_ENOTSUP for a feature configured out,
 * VPERF_EINVAL for a policy the pCPUs initialised so far cannot all give (a vSPE of its own
 * where the pCPUs differ in PMBIDR_EL1.Align or F, PMSIDR_EL1.MaxSize or Format: logged) and,
 * whatever the mode, for a partition or mode that is not one of the enum's or counts above 31.
 * A pCPU initialised
 * later is checked against it (vperf_pcpu_init); FEAT_FGT and FEAT_HPMN0 are checked again at
 * load (without them a direct VM runs trapped on that pCPU). */
int vperf_vm_init(struct vperf_vm *vm, const struct vperf_vm_config *cfg, void *hv_vm);

/* Bind a vCPU to its VM and put its PMU/SPE state in the reset state. vcpu may hold anything
 * (it is overwritten) but must not be loaded. */
int vperf_vcpu_init(struct vperf_vcpu *vcpu, struct vperf_vm *vm, void *hv_vcpu);

/* Reset an initialised vCPU's PMU/SPE state (guest reset, PSCI CPU_ON). VPERF_EBUSY while it
 * is loaded (put it first) or parked by a lazy put (vperf_pcpu_flush on its pCPU first). */
int vperf_vcpu_reset(struct vperf_vcpu *vcpu);

/* The hypervisor's own MDCR_EL2 bits for this vCPU: its debug traps, for its debug emulation
 * and its VMM's guest debugging (KVM's kvm_arm_setup_mdcr_el2: TDE, TDA, TDOSA, TDRA, TTRF).
 * While the vCPU runs they replace the non-vperf bits of its pCPU's host_mdcr in the MDCR_EL2
 * vperf writes at load; vperf's own fields (MDCR_EL2_VPERF_MASK: HPMN, TPM, TPMCR, HPME, TPMS,
 * E2PB, HPMD, HCCD, MTPME) stay vperf's. Only the fields of MDCR_EL2_HOST_MASK (vperf/mdcr.h)
 * are taken: any other bit is dropped, the call counted (the VM's stats.misuse) and logged, and
 * VPERF_EINVAL returned with the valid bits taken all the same. A field for a feature the pCPU
 * lacks (TTRF without FEAT_TRF, E2TB without FEAT_TRBE, ...) is left 0 on that pCPU, as the
 * RES0 it is there: the vCPU may run on pCPUs that differ. Any time: before a load (the next
 * load uses them; the same bits again cost nothing), or while loaded (written at once). Kept
 * across vperf_vcpu_reset, which resets the guest's state, not the hypervisor's; until the
 * first call the vCPU runs with its pCPU's host_mdcr bits. */
int vperf_vcpu_set_host_mdcr(struct vperf_vcpu *vcpu, uint64_t bits);

/* The vCPU is going away (its memory will be reused): drop pcpu's reference to it, on the CPU
 * of pcpu (a lazy switch leaves a put vCPU's state in the hardware as a cache, remembered by
 * address). Call it on every pCPU the vCPU ran on, with the vCPU put, before freeing it; Xen does
 * it with an IPI to every CPU, as its x86 vPMU clears its last_vcpu. */
void vperf_pcpu_forget(struct vperf_pcpu *pcpu, const struct vperf_vcpu *vcpu);

/* The vCPU is about to run on the calling CPU (pcpu): program MDCR_EL2 and the guest's
 * PMU/SPE state. Pair every load with a put on the same CPU. */
void vperf_vcpu_load(struct vperf_vcpu *vcpu, struct vperf_pcpu *pcpu);

/* With hyp_writes_mdcr (vperf_pcpu_config): the MDCR_EL2 the hypervisor writes after
 * vperf_vcpu_load, before the guest runs: the loaded vCPU's (vperf's full load paths have
 * written it already, its quick load back leaves it to the hypervisor). */
static inline uint64_t vperf_pcpu_mdcr(const struct vperf_pcpu *pcpu)
{
	return pcpu->loaded->mdcr;
}

/* The vCPU stops running: save its state and give the host its MDCR_EL2 back. */
void vperf_vcpu_put(struct vperf_vcpu *vcpu);

/* The same, with the hypervisor's promise that the vCPU's next load is on this same pCPU and
 * that nothing reads or replaces its state before (it stays on its pCPU, e.g. pinned): its
 * trapped-partition counters may stay parked in this pCPU's hardware, counting stopped, until
 * another owner needs them (docs/vpmu.md, "Lazy put"). To break the promise (migrate the vCPU,
 * save, restore or reset it), call vperf_pcpu_flush() on that pCPU first (to take the CPU down,
 * vperf_pcpu_down()): until then vperf_vcpu_save/restore/reset return VPERF_EBUSY
 * (vperf_vcpu_parked() is true), and a load elsewhere is counted as misuse at the load and loses
 * the counts since the put. */
void vperf_vcpu_put_lazy(struct vperf_vcpu *vcpu);

/* A lazy put left this vCPU's counters in a pCPU's hardware, not yet flushed. */
bool vperf_vcpu_parked(const struct vperf_vcpu *vcpu);

/* The vCPU is loaded and multiplexed: in the emulated partition with more enabled counters (a
 * CHAIN pair one) than its VM's slots, each counting a slice of its runs, a slice ending at a
 * put (docs/vpmu.md, the emulated partition's rotation rule). False while it is loaded idle (no
 * PMU access since a put that found it idle: PMCR_EL0.E or every enable clear, no overflow flag,
 * no EL0 grant), whose put moves nothing. A hypervisor that puts a vCPU only when it deschedules
 * it (KVM in VHE puts at vcpu_put) puts and loads such a vCPU again at its exits, so that every
 * counter gets its share; for any other vCPU that changes nothing. */
bool vperf_vcpu_multiplexed(const struct vperf_vcpu *vcpu);

/* On pcpu's own CPU: save the state a lazy put left in its hardware to that vCPU's shadow, so
 * it may be loaded anywhere, saved, restored or reset (a no-op for the PMU when nothing is
 * parked there; called by vperf itself when another vCPU takes the counters on that pCPU), and
 * forget which SPE sampling controls the pCPU holds, so that the next load writes them all.
 * A hypervisor that writes PMSCR_EL2, PMSIRR_EL1, PMSFCR_EL1, PMSEVFR_EL1, PMSLATFR_EL1 or
 * PMSNEVFR_EL1 itself calls it after, before the next vperf_vcpu_load on that CPU (not needed
 * for a host_spe host's own buffer between a put and the next load; docs/integration.md, "SPE
 * controls"). */
void vperf_pcpu_flush(struct vperf_pcpu *pcpu);

/* On pcpu's own CPU, no vCPU loaded, before it loses its PMU and SPE context: offline, a
 * power-down idle state, a system suspend (PSCI DEN0022, 5.4 CPU_SUSPEND: a power-down state
 * loses the core's context). vperf_pcpu_flush(), and more: the hardware copy of the last vCPU's
 * state, which its next load here would resume from, is forgotten, so that every vCPU's next
 * load here restores its whole state, and vperf writes MDCR_EL2 again. When the CPU is back,
 * call vperf_pcpu_init() on it again before its next load, as at its first bring-up: what it
 * set up (PMUSERENR_EL0, PMSELR_EL0, the fine-grained traps) is lost too. A CPU that merely runs
 * no vCPU for a while, or idles in WFI or a standby state, needs none of this. */
void vperf_pcpu_down(struct vperf_pcpu *pcpu);

/* EC=0x18 trap entry. gprs holds the vCPU's x0..x30 (read for MSR, written for MRS; Rt=31 is
 * XZR and never touched). Decodes once, emulates or injects UNDEF, advances the PC only when
 * emulated. Returns VPERF_TRAP_NOT_MINE, touching nothing, for other ECs and for encodings
 * outside the PMU/SPE space. */
enum vperf_trap_result vperf_handle_sysreg(struct vperf_vcpu *vcpu, uint64_t esr,
					   uint64_t gprs[31]);

#ifdef CONFIG_VPERF_XEN_ABI
/* The PMU mode of a domain created with Xen's domctl flags (XEN_DOMCTL_CDF_vpmu) and a
 * XENPMU_MODE_* value: OFF unless the domain has vpmu and the mode is a single known one. */
enum vperf_pmu_mode vperf_xen_pmu_mode(uint32_t domctl_flags, uint32_t xenpmu_mode);
#endif

#include <vperf/guest_view.h>

/* Statistics of a VM (zero when CONFIG_VPERF_STATS is off). */
static inline const struct vperf_stats *vperf_vm_stats(const struct vperf_vm *vm)
{
	return &vm->stats;
}

#endif /* VPERF_VPERF_H */
