// SPDX-License-Identifier: MIT
/*
 * The guest's Profiling Buffer as memory: the write pointer rules checked when it is enabled
 * (SPE 3.4.1), and its stage 2 mappings made ahead of the hardware (prefault) or when it faulted
 * (SPE 3.5.3), with no page pinned. PMBPTR_EL1 and PMBLIMITR_EL1 are virtual addresses of the
 * guest's own stage 1 (SPE 3.4, the owning translation regime): vperf translates them through the
 * ops contract and asks the hypervisor for the stage 2 mapping, which only the VM's own memory can
 * get.
 */
#include <arch/sysreg.h>
#include <vperf/id_regs.h>

#include "../log.h"
#include "../ops.h"
#include "vspe.h"

/*
 * The rules of SPE 3.4.1 on a buffer being enabled. Broken, the PE "might write sample records to
 * any writeable address": vperf never enables the hardware then and gives the guest one of the
 * outcomes SPE 3.4.1 and Table 6 list instead: an Alignment fault for a pointer below
 * PMBIDR_EL1.Align, a buffer full event for no room for a record, with DL = 1 when the pointer lies
 * outside the buffer or in another tagged half (PTR[63:56] != LIMIT[63:56]).
 * vperf_vspe_buffer_fault names the event (0: the rules hold); a restored blob is held to the same
 * rules (../blob.c). In discard mode (PMBLIMITR_EL1.FM = 0b10, which a VM seeing SPEv1p2 has) the
 * rules do not apply and no buffer management event is generated (Arm DDI 0487 K.a D17.5.5):
 * nothing is written, so any pointer and limit are fine, Linux's arm_spe_pmu leaving both 0.
 */
bool vperf_vspe_discard(const struct vperf_pcpu_caps *caps, uint64_t limitr)
{
	/* The VM's SPE version is regs.c's one rule: a call circle regs.c -> switch.c -> buffer.c ->
	 * regs.c inside the vSPE, on purpose, rather than a second copy of it here. */
	return vperf_vspe_pmsver(caps->dfr0) >= ID_DFR0_PMSVER_V1P2 &&
	       VPERF_FIELD_GET(limitr, 2, 1) == PMBLIMITR_FM_DISCARD;
}

uint64_t vperf_vspe_buffer_fault(const struct vperf_pcpu_caps *caps, uint64_t ptr, uint64_t limitr)
{
	uint64_t lim = limitr & PMBLIMITR_LIMIT;
	/* The view the guest was shown (../platform.c), equal to every pCPU's Align and MaxSize */
	uint64_t max = 1ull << VPERF_FIELD_GET(vperf_vspe_pmsidr(), 15, 12);
	uint64_t align = 1ull << (vperf_vspe_pmbidr() & PMBIDR_ALIGN);

	if (vperf_vspe_discard(caps, limitr))
		return 0;
	if (ptr & (align - 1))
		return PMBSR_EC_VAL(PMBSR_EC_S1_DA) | PMBSR_FSC_ALIGN;
	if (ptr > lim || (ptr >> 56) != (lim >> 56))
		return PMBSR_BSC_FULL | PMBSR_DL;
	if (lim - ptr < max)
		return PMBSR_BSC_FULL;
	return 0;
}

/* PMBPTR_EL1 as the guest would read it now: while the state is in the hardware the profiling
 * operation moves the hardware's (SPE 3.4.1), and the shadow is only refreshed at put. */
uint64_t vperf_vspe_ptr(struct vperf_vcpu *vcpu)
{
	uint64_t ptr;

	if (!vcpu->spe.in_hw)
		return vcpu->spe.reg[VPERF_VSPE_PMBPTR];
	ptr = read_sysreg(PMBPTR_EL1);
	vperf_vspe_saw_ptr(vcpu, ptr);
	return ptr;
}

bool vperf_vspe_check_buffer(struct vperf_vcpu *vcpu, uint64_t ptr)
{
	uint64_t ev = vperf_vspe_buffer_fault(&vcpu->pcpu->caps, ptr,
					      vcpu->spe.reg[VPERF_VSPE_PMBLIMITR]);

	if (!ev)
		return true;
	STAT_INC(&vcpu->vm->stats, bad_value);
	vperf_log_notice(vcpu->vm, "vperf: guest enabled an SPE buffer that breaks SPE 3.4.1: "
				   "it gets a buffer management event");
	vperf_vspe_guest_event(vcpu, ev);
	return false;
}

static bool have_ops(void)
{
	return vperf_ops->guest_va_to_ipa && vperf_ops->stage2_map;
}

/* The page of va mapped at stage 2 through the guest's stage 1: false when its stage 1 has no
 * writable translation or the IPA is not the VM's memory. */
static bool map_page(struct vperf_vcpu *vcpu, uint64_t va)
{
	uint64_t ipa;

	if (vperf_ops->guest_va_to_ipa(vcpu->hv_vcpu, va, &ipa) != VPERF_OK)
		return false;
	return vperf_ops->stage2_map(vcpu->vm->hv_vm, ipa & ~(VSPE_PAGE - 1), VSPE_PAGE) ==
	       VPERF_OK;
}

/* So that faults are rare: the first VSPE_PREFAULT_BYTES of the buffer from `from`. A page that
 * cannot be mapped is left to fault, where the guest gets its outcome. */
void vperf_vspe_prefault(struct vperf_vcpu *vcpu, uint64_t from)
{
	uint64_t limitr = vcpu->spe.reg[VPERF_VSPE_PMBLIMITR], lim = limitr & PMBLIMITR_LIMIT;
	uint64_t end = lim - from > VSPE_PREFAULT_BYTES ? from + VSPE_PREFAULT_BYTES : lim;

	if (!have_ops() || from >= lim || vperf_vspe_discard(&vcpu->pcpu->caps, limitr))
		return; /* discard mode writes nothing (D17.5.5) */
	for (uint64_t va = from & ~(VSPE_PAGE - 1); va < end; va += VSPE_PAGE)
		map_page(vcpu, va);
}

/* A stage 2 fault on the buffer: PMBPTR_EL1 holds the faulting address (SPE 3.5.3). The pages after
 * it are prefaulted too, so a buffer the hypervisor unmapped does not fault at every page. */
bool vperf_vspe_fix_stage2(struct vperf_vcpu *vcpu)
{
	uint64_t va = read_sysreg(PMBPTR_EL1);

	vperf_vspe_saw_ptr(vcpu, va);
	if (!have_ops() || !map_page(vcpu, va))
		return false;
	vperf_vspe_prefault(vcpu, (va & ~(VSPE_PAGE - 1)) + VSPE_PAGE);
	return true;
}
