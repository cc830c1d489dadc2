/* SPDX-License-Identifier: MIT */
/*
 * What to do with a hardware buffer management event (SPE 3.5) of the vCPU whose SPE state is in
 * this pCPU's hardware: decided by action.c from the syndrome and the vCPU's vSPE state alone,
 * performed by switch.c (vperf_vspe_take_event), which makes every register write and keeps
 * them in order. The decisions make no access, so tests can ask them without the sequences.
 */
#ifndef VPERF_VIRT_VSPE_ACTION_H
#define VPERF_VIRT_VSPE_ACTION_H

#include <vperf/vperf.h>

/* How far vperf got with a stage 2 fault it can cure by mapping the page. */
enum vperf_vspe_s2 {
	VSPE_S2_UNTRIED,    /* no mapping tried yet */
	VSPE_S2_MAPPED,	    /* the page is mapped now */
	VSPE_S2_UNMAPPABLE, /* no stage 1 translation, or not the VM's memory */
};

enum vperf_vspe_act_kind {
	/* A stage 2 fault vperf may cure: map the page at PMBPTR_EL1 (vperf_vspe_fix_stage2),
	 * then ask again with the outcome. */
	VSPE_ACT_MAP,
	/* Cured, nothing lost: profiling resumes from the write pointer, no trace in the guest. */
	VSPE_ACT_RESTART,
	/* The guest's event: the hardware buffer off, the event in its virtual PMBSR_EL1. */
	VSPE_ACT_SHOW,
};

struct vperf_vspe_act {
	enum vperf_vspe_act_kind kind;
	/* RESTART: the hardware's PMBSR_EL1 to write (S = 0 re-enables the buffer); SHOW: the
	 * event for vperf_vspe_guest_event. */
	uint64_t pmbsr;
	/* RESTART: the guest's virtual PMBSR_EL1 from now on. */
	uint64_t guest_pmbsr;
};

/* The action for the hardware event pmbsr (PMBSR_EL1.S = 1) of a vCPU whose vSPE state is spe,
 * the stage 2 mapping being as far as s says. */
struct vperf_vspe_act vperf_vspe_event_action(const struct vperf_vspe *spe, uint64_t pmbsr,
					      enum vperf_vspe_s2 s2);

#endif /* VPERF_VIRT_VSPE_ACTION_H */
