/* SPDX-License-Identifier: MIT */
/*
 * The vSPE's internals, shared by regs.c (register emulation), switch.c (hardware ownership,
 * load/put, the sequences that take the hardware's buffer events), action.c (what to do with such
 * an event: action.h), buffer.c (the buffer's rules, stage 2), event.c (the guest's view of buffer
 * events: virtual PMBSR and PMBIRQ), irq.c (the physical PMBIRQ), host.c (a host-owned buffer
 * saved around guests), outside.c (a VM profiled from outside), hwctl.h (what each pCPU's sampling
 * controls hold) and ../blob.c (save/restore). The SPE supplement (Arm DDI 0586A) is cited as "SPE
 * <section>".
 */
#ifndef VPERF_VIRT_VSPE_H
#define VPERF_VIRT_VSPE_H

#include <arch/sysreg.h>
#include <vperf/id_regs.h>
#include <vperf/spe_regs.h>

#include "../access.h"
#include "../platform.h"
#include "pmscr.h"

/* The SPE version a VM sees at most: SPEv1p2 (PMSVer 3, PMSNEVFR_EL1 and FnE). Later versions
 * add registers vperf does not emulate (PMSDSFR_EL1, FEAT_SPE_FDS) and are hidden. */
#define VSPE_MAX_PMSVER ID_DFR0_PMSVER_V1P2

static inline uint64_t *vspe_reg(struct vperf_vcpu *vcpu, enum vperf_vspe_reg r)
{
	return &vcpu->spe.reg[r];
}

/* The VM's Profiling Buffer policy with the Kconfig default resolved. */
enum vperf_spe_buffer vperf_vspe_buffer(const struct vperf_vm *vm);

/* The lowest PMSVer of the initialised pCPUs: a VM migrating between them must find the same
 * SPE version everywhere. */
static inline unsigned int vperf_vspe_min_pmsver(void)
{
	return vperf_platform()->min_pmsver;
}

/* PMSCR_EL1.PCT[1] exists for a VM on a PE with caps: FEAT_ECV there and on every initialised
 * pCPU, as a vCPU may move between them (vspe/regs.c). */
static inline bool vperf_vspe_ecv(const struct vperf_pcpu_caps *caps)
{
	return caps->ecv && !vperf_platform()->any_no_ecv;
}

/* The SPE ID registers every VM with a vSPE is shown, on whatever pCPU (../platform.c,
 * add_spe_ids): what regs.c shows and buffer.c checks against, never the current pCPU's. */
static inline uint64_t vperf_vspe_pmsidr(void)
{
	return vperf_platform()->spe_pmsidr;
}

static inline uint64_t vperf_vspe_pmbidr(void)
{
	return vperf_platform()->spe_pmbidr;
}

/* ID values the VM sees (regs.c). */
unsigned int vperf_vspe_pmsver(uint64_t hw_dfr0);

/* The guest's buffer is enabled as far as it can tell: PMBLIMITR_EL1.E and not the virtual
 * PMBSR_EL1.S (ProfilingBufferEnabled(), SPE 3.4.6). */
static inline bool vspe_buffer_on(const struct vperf_vcpu *vcpu)
{
	return (vcpu->spe.reg[VPERF_VSPE_PMBLIMITR] & PMBLIMITR_E) &&
	       !(vcpu->spe.reg[VPERF_VSPE_PMBSR] & PMBSR_S);
}

/* The bits of register r a guest keeps on a PE with caps (the rest is RES0 for it): by its SPE
 * version and FEAT_ECV, and the platform's SPE ID view (ERnd, the filters, CountSize). */
uint64_t vperf_vspe_keep(const struct vperf_pcpu_caps *caps, enum vperf_vspe_reg r);
/* The caps a restored vSPE state is checked against: the first initialised pCPU's, its PMSVer
 * capped at every pCPU's (vperf_vspe_pmsver); the SPE ID values are the platform's view. */
static inline const struct vperf_pcpu_caps *vperf_vspe_ref_caps(void)
{
	return &vperf_platform()->first_caps;
}

/* The hardware's write pointer seen at ptr (CONFIG_VPERF_STATS): its advance since vperf last
 * wrote or read it counts as bytes written (event.c). */
void vperf_vspe_saw_ptr(struct vperf_vcpu *vcpu, uint64_t ptr);

bool vperf_vspe_access(struct vperf_vcpu *vcpu, struct vperf_access *acc);
/* PMBLIMITR_EL1.FM = 0b10 (discard mode) on a VM that sees SPEv1p2 (buffer.c). */
#define PMBLIMITR_FM_DISCARD 2u
bool vperf_vspe_discard(const struct vperf_pcpu_caps *caps, uint64_t limitr);
/* The buffer management event the rules of SPE 3.4.1 give an enabled buffer (ptr, limitr) on a
 * PE with caps (its SPE version), the Align and MaxSize the guest was shown, 0 when they hold. */
uint64_t vperf_vspe_buffer_fault(const struct vperf_pcpu_caps *caps, uint64_t ptr, uint64_t limitr);
/* PMBPTR_EL1 as the guest reads it: the hardware's while the state is there, else the shadow. */
uint64_t vperf_vspe_ptr(struct vperf_vcpu *vcpu);
/* Check the rules of SPE 3.4.1 on an enabled buffer whose write pointer is ptr; a violation
 * becomes a buffer management event in the virtual PMBSR (true: the buffer may run). */
bool vperf_vspe_check_buffer(struct vperf_vcpu *vcpu, uint64_t ptr);

/* The host's own EL2-owned buffer around a vCPU with vSPE (host.c): saved before MDCR_EL2
 * gives the buffer to EL1, restored after it is the host's again. */
void vperf_vspe_save_host(struct vperf_pcpu *pcpu);
void vperf_vspe_restore_host(struct vperf_pcpu *pcpu);

/* VPERF_SPE_BUF_EL2 (outside.c): the VM sampled into the host's buffer with its id. */
void vperf_vspe_outside_load(struct vperf_vcpu *vcpu);
void vperf_vspe_outside_put(struct vperf_vcpu *vcpu);

void vperf_vspe_reset(struct vperf_vcpu *vcpu);
/* Load, before MDCR_EL2 is written: the host's buffer saved, and an untrapped vCPU whose
 * buffer is live given E2PB = 0b11 at once. */
void vperf_vspe_before_mdcr(struct vperf_vcpu *vcpu);
void vperf_vspe_load(struct vperf_vcpu *vcpu);
void vperf_vspe_put(struct vperf_vcpu *vcpu);
/* Bring the vCPU's state into the hardware of the pCPU it is loaded on (first enable). */
void vperf_vspe_acquire(struct vperf_vcpu *vcpu);
/* The hardware PMBLIMITR_EL1 after a change of the guest's buffer controls (state in hw). */
void vperf_vspe_apply_buffer(struct vperf_vcpu *vcpu);
/* Untrapped mode (E2PB = 0b11): enter it when the buffer is live and its PMBSR_EL1 shows no event,
 * DL or EA (leaving it copies the hardware's PMB* back to the shadow, switch.c). */
void vperf_vspe_try_direct(struct vperf_vcpu *vcpu);
/* A trapped PMB* write while untrapped (FEAT_FGT): the shadow takes the hardware's controls, the
 * vCPU counts as trapped, and a pending hardware event is taken unless the write is PMBSR_EL1's
 * (of_pmbsr), which overwrites it; true when it was untrapped. */
bool vperf_vspe_pause_direct(struct vperf_vcpu *vcpu, bool of_pmbsr);

/* Make up to VSPE_PREFAULT_BYTES of the enabled buffer from its write pointer mapped at stage 2
 * (buffer.c); map the page a stage 2 fault hit (true: done). */
#define VSPE_PAGE	    4096ull
#define VSPE_PREFAULT_BYTES (64 * VSPE_PAGE)
void vperf_vspe_prefault(struct vperf_vcpu *vcpu, uint64_t from);
bool vperf_vspe_fix_stage2(struct vperf_vcpu *vcpu);

/* A buffer management event for the guest: into its virtual PMBSR, line raised (event.c). */
void vperf_vspe_guest_event(struct vperf_vcpu *vcpu, uint64_t pmbsr);
/* Push the virtual PMBIRQ level on change (event.c). */
void vperf_vspe_update_irq(struct vperf_vcpu *vcpu);
/* Take a hardware event (PMBSR_EL1.S read as 1) of the vCPU whose state is in hardware
 * (switch.c): stage-2 faults fixed, the guest's own events moved into its virtual PMBSR. The
 * hardware PMBSR_EL1 is 0 on return. */
void vperf_vspe_take_event(struct vperf_vcpu *vcpu, uint64_t pmbsr);

/* The blob's vSPE words (blob.c): w is their first word, the Profiling Buffer policy. */
void vperf_vspe_blob_fill(const struct vperf_vcpu *vcpu, uint64_t *w);
bool vperf_vspe_blob_ok(const struct vperf_vcpu *vcpu, const uint64_t *w);
void vperf_vspe_blob_apply(struct vperf_vcpu *vcpu, const uint64_t *w);

#endif /* VPERF_VIRT_VSPE_H */
