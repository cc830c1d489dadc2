/* SPDX-License-Identifier: MIT */
/*
 * What a pCPU's SPE sampling controls hold (docs/vspe.md, "The controls in the hardware").
 *
 * PMSIRR_EL1, PMSFCR_EL1, PMSEVFR_EL1, PMSLATFR_EL1, PMSNEVFR_EL1 and, while a guest owns the
 * buffer, PMSCR_EL2 (its PA and PCT, from the VM's policy) are a VM's settings, the same at
 * every switch of its vCPUs and often the same from one VM to the next. Only a direct write
 * changes them: the profiling operation writes PMSICR_EL1, PMBPTR_EL1 and PMBSR_EL1 and no
 * other control (SPE 3.4.1, SPE 3.5), and a guest's PMS* accesses all trap (MDCR_EL2.TPMS). So
 * each pCPU records, per control, the value vperf last wrote there, and a load writes only the
 * controls whose record differs from what the vCPU needs.
 *
 * The record is exactly as good as its writers. Every vperf write of these controls goes
 * through it (switch.c, regs.c, host.c, outside.c), and it forgets what anyone else may have
 * written: it starts unknown at vperf_pcpu_init (the controls reset to IMPLEMENTATION
 * DEFINED values, which may be UNKNOWN, SPE 4.2), a host-owned buffer's controls are the host's
 * once restored (host.c), the host profiling a VM from outside programs its own (outside.c),
 * and a hypervisor that writes them itself calls vperf_pcpu_flush (docs/integration.md). Forgetting is always safe: the next
 * load writes every control. A record that claims a value the hardware does not hold would let
 * one VM sample with another's filter or physical-address policy.
 */
#ifndef VPERF_VIRT_VSPE_HWCTL_H
#define VPERF_VIRT_VSPE_HWCTL_H

#include "vspe.h"

/* The recorded controls: PMSIRR_EL1 to PMSNEVFR_EL1 in the shadow's order, then PMSCR_EL2. */
enum vspe_ctl {
	VSPE_CTL_PMSIRR,
	VSPE_CTL_PMSFCR,
	VSPE_CTL_PMSEVFR,
	VSPE_CTL_PMSLATFR,
	VSPE_CTL_PMSNEVFR,
	VSPE_CTL_PMSCR_EL2,
	VSPE_CTLS
};

_Static_assert(VSPE_CTLS == VPERF_VSPE_CTLS, "vperf_pcpu_vspe.ctl[] holds every control");
_Static_assert(VPERF_VSPE_PMSNEVFR - VPERF_VSPE_PMSIRR == VSPE_CTL_PMSNEVFR,
	       "the shadow's PMSIRR..PMSNEVFR are the controls' first five");

/* The control a guest register is recorded as, VSPE_CTLS for one that is not (PMSCR_EL1 carries
 * the enable, PMSICR_EL1 is each vCPU's interval counter, PMB* the buffer). */
static inline enum vspe_ctl vperf_vspe_ctl_of(enum vperf_vspe_reg r)
{
	if (r < VPERF_VSPE_PMSIRR || r > VPERF_VSPE_PMSNEVFR)
		return VSPE_CTLS;
	return (enum vspe_ctl)(r - VPERF_VSPE_PMSIRR);
}

static inline bool vperf_vspe_ctl_known(const struct vperf_pcpu *pcpu, enum vspe_ctl c)
{
	return (pcpu->spe.ctl_known >> c) & 1u;
}

/* The hardware's control c on pcpu: true with its value when the record knows it. */
static inline bool vperf_vspe_ctl_read(const struct vperf_pcpu *pcpu, enum vspe_ctl c,
				       uint64_t *val)
{
	if (!vperf_vspe_ctl_known(pcpu, c))
		return false;
	*val = pcpu->spe.ctl[c];
	return true;
}

/* vperf has just written val to control c. */
static inline void vperf_vspe_ctl_set(struct vperf_pcpu *pcpu, enum vspe_ctl c, uint64_t val)
{
	pcpu->spe.ctl[c] = val;
	pcpu->spe.ctl_known = (uint8_t)(pcpu->spe.ctl_known | (1u << c));
}

/* Control c must hold val: true when the hardware needs the write, which the caller makes at
 * once (the record says val from here). */
static inline bool vperf_vspe_ctl_update(struct vperf_pcpu *pcpu, enum vspe_ctl c, uint64_t val)
{
	uint64_t hw;

	if (vperf_vspe_ctl_read(pcpu, c, &hw) && hw == val)
		return false;
	vperf_vspe_ctl_set(pcpu, c, val);
	return true;
}

/* Someone else may write the controls: the next load writes every one. */
static inline void vperf_vspe_ctl_forget(struct vperf_pcpu *pcpu)
{
	pcpu->spe.ctl_known = 0;
}

#endif /* VPERF_VIRT_VSPE_HWCTL_H */
