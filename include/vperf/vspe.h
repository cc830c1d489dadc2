/* SPDX-License-Identifier: MIT */
/*
 * The vSPE's public state: the per-VM Profiling Buffer policy and the per-vCPU guest-visible
 * SPE registers. Public so that a hypervisor can allocate vCPUs statically; fields are vperf's.
 */
#ifndef VPERF_VSPE_H
#define VPERF_VSPE_H

#include <vperf/types.h>

/*
 * Who owns the Profiling Buffer while a VM with SPE runs (MDCR_EL2.E2PB, SPE 3.4.2).
 * A VM without SPE (vperf_vm_config.spe false) has E2PB = 0b00 and every PMS* or PMB* access
 * UNDEF.
 */
enum vperf_spe_buffer {
	VPERF_SPE_BUF_DEFAULT,	   /* CONFIG_VPERF_VSPE_BUFFER_TRAPPED or _UNTRAPPED */
	VPERF_SPE_BUF_EL1_TRAPPED, /* E2PB = 0b10: the guest owns it, PMB* accesses trap */
	VPERF_SPE_BUF_EL1,	   /* E2PB = 0b11 once the guest's buffer is live: no PMB* trap */
	VPERF_SPE_BUF_EL2,	   /* E2PB = 0b00: the hypervisor profiles the guest from outside
				    * into its own buffer (host_spe on every pCPU), records
				    * tagged with vperf_vm_config.spe_context; the guest sees no
				    * SPE (XENPMU_MODE_HV/ALL) */
};

/* The guest's SPE registers, in shadow order. */
enum vperf_vspe_reg {
	VPERF_VSPE_PMSCR,
	VPERF_VSPE_PMSICR,
	VPERF_VSPE_PMSIRR,
	VPERF_VSPE_PMSFCR,
	VPERF_VSPE_PMSEVFR,
	VPERF_VSPE_PMSLATFR,
	VPERF_VSPE_PMSNEVFR,
	VPERF_VSPE_PMBPTR,
	VPERF_VSPE_PMBLIMITR,
	VPERF_VSPE_PMBSR,
	VPERF_VSPE_NR_REGS
};

/*
 * Where a vCPU's SPE state is, as five flags (virt/vspe/switch.c moves it). Three of them name
 * the state; irq_dirty and prefault are work left for the next load.
 *
 *   state          in_hw active direct  meaning
 *   IDLE             0     0     0      shadow only, buffer off at the last put: load and put
 *                                       touch no SPE register
 *   SAVED_ON         0     1     0      shadow only, buffer on at the last put: the next load
 *                                       restores it
 *   LIVE_TRAPPED     1     1     0      in this pCPU's hardware, PMB* accesses trap (E2PB 0b10)
 *   LIVE_DIRECT      1     1     1      in hardware, PMB* untrapped (E2PB 0b11,
 *                                       VPERF_SPE_BUF_EL1): the hardware's PMB* are the truth
 *
 *   from           event                                              to
 *   any, put       vperf_vcpu_reset                                   IDLE
 *   any, put       vperf_vcpu_restore                                 SAVED_ON if its buffer
 *                                                                     is on (prefault set),
 *                                                                     else IDLE
 *   IDLE, loaded   trapped write enabling the buffer (acquire, then   LIVE_TRAPPED or
 *                  try_direct)                                        LIVE_DIRECT
 *   SAVED_ON       load (acquire; direct set first for                LIVE_TRAPPED or
 *                  VPERF_SPE_BUF_EL1 with the buffer on)              LIVE_DIRECT
 *   LIVE_TRAPPED   buffer on with no event to show and no DL or EA    LIVE_DIRECT
 *                  left in PMBSR_EL1 (try_direct, VPERF_SPE_BUF_EL1
 *                  only)
 *   LIVE_DIRECT    a buffer event taken at PMBIRQ (leave_direct)      LIVE_TRAPPED
 *   LIVE_*         put (drain, then save; direct cleared)             SAVED_ON if the buffer
 *                                                                     is on, else IDLE
 *
 * prefault: set by a restore with the buffer on; the next load maps the buffer at stage 2
 * before it acquires, then clears it. irq_dirty: the virtual PMBIRQ level changed (or, after a
 * restore, may differ from the vGIC's) while the vCPU was not loaded; the next load pushes it.
 * direct is only ever set with in_hw, but for the moment between vperf_vspe_before_mdcr and the
 * acquire that follows it in the same load.
 */
struct vperf_vspe {
	/* What the guest reads: its writes with RES0 bits cleared; PMBSR is the virtual one
	 * (the hardware's events moved in by vperf). While the state is in hardware, PMSICR and
	 * PMBPTR live there (the profiling operation changes them); in the untrapped mode
	 * (direct) PMBLIMITR and PMBSR too. */
	uint64_t reg[VPERF_VSPE_NR_REGS];
	bool in_hw;	   /* live in the hardware of the pCPU the vCPU is loaded on */
	bool active;	   /* its buffer was enabled at its last put: restore it at load */
	bool direct;	   /* VPERF_SPE_BUF_EL1 running with E2PB = 0b11: the hardware's PMB* are
			 * authoritative */
	bool irq_level;	   /* the level last pushed to the virtual PMBIRQ line */
	bool irq_dirty;	   /* level changed while the vCPU was not loaded */
	uint64_t ptr_seen; /* the hardware PMBPTR_EL1 vperf last wrote or read (stats) */
	bool prefault;	   /* restored with its buffer live: map the buffer at the next load */
};

/* The host's own Profiling Buffer and sampling controls (an EL2-owned buffer) while they are
 * saved around a vCPU with vSPE: PMSCR_EL2, PMSIRR, PMSFCR, PMSEVFR, PMSLATFR, PMSNEVFR,
 * PMSICR, PMBPTR, PMBSR, PMBLIMITR (virt/vspe/host.c). */
#define VPERF_VSPE_HOST_REGS 10

/* The sampling controls whose hardware value a pCPU records (virt/vspe/hwctl.h): PMSIRR,
 * PMSFCR, PMSEVFR, PMSLATFR, PMSNEVFR and PMSCR_EL2. */
#define VPERF_VSPE_CTLS 6

struct vperf_pcpu_vspe {
	uint64_t host[VPERF_VSPE_HOST_REGS];
	bool host_saved; /* the host's buffer is saved in host[] while a vCPU with vSPE runs */
	/* What this pCPU's sampling controls hold, as vperf last wrote them: ctl[c] is the
	 * hardware's value of control c when bit c of ctl_known is set, unknown otherwise (all
	 * unknown after vperf_pcpu_init and vperf_pcpu_flush). */
	uint64_t ctl[VPERF_VSPE_CTLS];
	uint8_t ctl_known;
	/* The host's PMSCR_EL2 and CONTEXTIDR_EL2 while a VM it profiles from outside runs
	 * (VPERF_SPE_BUF_EL2, virt/vspe/outside.c). */
	uint64_t out_pmscr2, out_ctx2;
};

#endif /* VPERF_VSPE_H */
