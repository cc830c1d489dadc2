// SPDX-License-Identifier: MIT
/*
 * The decisions on a hardware buffer management event (action.h): whose event it is, whether a
 * stage 2 fault restarts invisibly, and what the guest sees otherwise. Linux's arm_spe_pmu driver
 * has the same shape (an explicit fault action, then its sequence). The SPE supplement (Arm DDI
 * 0586A) is cited as "SPE <section>".
 */
#include <vperf/spe_regs.h>

#include "action.h"

/* A stage 2 fault mapping the page can cure: Translation, Access flag or Permission (FSC
 * 0b0001LL, 0b0010LL, 0b0011LL), and the Translation faults at the levels before 0: 0b101011,
 * level -1 (FEAT_LPA2, a 52-bit stage 2 starts there), and 0b101010, level -2 (FEAT_D128)
 * (Arm DDI 0487, ESR_ELx.ISS DFSC, which PMBSR_EL1.FSC follows, SPE 4.3.4 leaving such values
 * "reserved ... defined in a future version"). Any other stage 2 syndrome without EA is none of
 * vperf's making (an untrapped guest's own write that sets S, which asserts its interrupt, SPE
 * 3.5, where no FEAT_FGT trap brings that write to regs.c) or none it can cure by mapping
 * (restarting would only fault again): the guest gets it as it is. With the trap, the hardware's
 * PMBSR_EL1 holds only the hardware's events, so a mappable one is always vperf's. */
static bool stage2_mappable(uint64_t pmbsr)
{
	uint64_t fsc = pmbsr & PMBSR_BSC_FSC, kind = fsc >> 2;

	return (kind >= 1 && kind <= 3) || fsc == PMBSR_FSC_TRANS_LM1 || fsc == PMBSR_FSC_TRANS_LM2;
}

/* A stage 2 Data Abort on the buffer's write, not an external abort (SPE 3.5.3), that mapping
 * the page can cure: the hypervisor's fault, not the guest's. */
static bool vperfs_fault(uint64_t pmbsr)
{
	bool stage2 = vperf_pmbsr_ec(pmbsr) == PMBSR_EC_S2_DA && !(pmbsr & PMBSR_EA);

	return stage2 && stage2_mappable(pmbsr);
}

static struct vperf_vspe_act show(uint64_t event)
{
	return (struct vperf_vspe_act){ .kind = VSPE_ACT_SHOW, .pmbsr = event };
}

/*
 * A stage 2 fault fixed with no data lost: restart from the write pointer, the first byte after
 * the last complete record (DL = 0, SPE 3.5.3); clearing S re-enables the buffer at the next
 * context synchronization event, the ERET into the guest. The guest sees its PMBSR_EL1 as before
 * the fault, with what the hardware set meanwhile: COLL (SPE 3.1.4), DL and EA are not the
 * fault's (a fault leaves every field but S, EC and MSS unchanged, SPE 3.5). Untrapped, that is
 * the hardware's PMBSR_EL1, with the EC and MSS the guest held (the fault replaced them);
 * trapped, the virtual one, and the hardware's is cleared.
 */
static struct vperf_vspe_act restart(const struct vperf_vspe *spe, uint64_t pmbsr)
{
	uint64_t guest = spe->reg[VPERF_VSPE_PMBSR];
	uint64_t hw = pmbsr & (PMBSR_COLL | PMBSR_DL | PMBSR_EA);
	struct vperf_vspe_act a = { .kind = VSPE_ACT_RESTART, .guest_pmbsr = guest };

	if (spe->direct)
		a.pmbsr = (guest & (PMBSR_EC | PMBSR_MSS)) | hw;
	else
		a.guest_pmbsr = guest | (pmbsr & PMBSR_COLL);
	return a;
}

/* What the guest sees of a stage 2 fault: nothing (DL = 0, restarted), a truncation (DL = 1),
 * or, when the address is not the VM's memory, an external abort on the write (SPE 3.5.4), which
 * it cannot tell from a bad address of its own. A truncation is a buffer full event with DL = 1,
 * which Linux's arm_spe_pmu driver handles as a truncated buffer (a fault would end its
 * session). */
static struct vperf_vspe_act after_stage2(const struct vperf_vspe *spe, uint64_t pmbsr, bool mapped)
{
	uint64_t keep = pmbsr & (PMBSR_COLL | PMBSR_DL);

	if (!mapped)
		return show(keep | PMBSR_EA | PMBSR_EC_VAL(PMBSR_EC_S1_DA) | PMBSR_FSC_SEA);
	if (!(pmbsr & PMBSR_DL))
		return restart(spe, pmbsr);
	return show(keep | PMBSR_BSC_FULL);
}

/* A guest's own event (buffer full, a stage 1 fault, an external abort, a stage 2 syndrome
 * mapping cannot cure) is shown as the hardware raised it; a stage 2 fault of vperf's is mapped
 * first, and SPE 3.4.1 allows the restart that hides it. */
struct vperf_vspe_act vperf_vspe_event_action(const struct vperf_vspe *spe, uint64_t pmbsr,
					      enum vperf_vspe_s2 s2)
{
	if (!vperfs_fault(pmbsr))
		return show(pmbsr);
	if (s2 == VSPE_S2_UNTRIED)
		return (struct vperf_vspe_act){ .kind = VSPE_ACT_MAP };
	return after_stage2(spe, pmbsr, s2 == VSPE_S2_MAPPED);
}
