// SPDX-License-Identifier: MIT
/*
 * A vCPU's life: init, reset, and every run between load and put. Load and put fix the order of
 * the steps around MDCR_EL2 (mdcr.c decides its value); the vPMU and the vSPE move their own
 * state (vpmu/switch.c, vspe/switch.c).
 */
#include "fgt.h"
#include "log.h"
#include "mdcr.h"
#include "vm_config.h"
#include "vpmu/entry.h"
#include "vspe/entry.h"

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
	if (vcpu->pcpu || vperf_vcpu_parked(vcpu))
		return VPERF_EBUSY;
	vcpu->mdcr = 0;
	vperf_mdcr_stale(vcpu);
	vperf_vpmu_reset(vcpu);
	vperf_vspe_reset(vcpu);
	return VPERF_OK;
}

/* MDCR_EL2 first: HPMN decides which counters are the guest's before any of them can count;
 * then the VM's fine-grained traps (fgt.c) and the vPMU. Before the MDCR_EL2 write, a lower
 * HPMN first takes the counters it moves to the second range from their owner
 * (vperf_vpmu_before_mdcr). Inline: for a VM without SPE this is the whole load, on the
 * switch's fast path. */
static inline __attribute__((always_inline)) void load_pmu_side(struct vperf_vcpu *vcpu)
{
	vperf_mdcr_refresh(vcpu);
	if (vpmu_on(vcpu))
		vperf_vpmu_before_mdcr(vcpu);
	vperf_mdcr_load(vcpu);
	vperf_fgt_load(vcpu);
	if (vpmu_on(vcpu))
		vperf_vpmu_load(vcpu);
}

/* A VM with SPE, its own or profiled from outside: the vSPE's steps around the PMU's. */
static void load_with_spe(struct vperf_vcpu *vcpu)
{
	/* The host's own buffer saved before MDCR_EL2.E2PB gives the buffer to EL1. */
	if (vspe_on(vcpu))
		vperf_vspe_before_mdcr(vcpu);
	load_pmu_side(vcpu);
	if (vspe_on(vcpu))
		vperf_vspe_load(vcpu);
	if (vspe_outside(vcpu))
		vperf_vspe_outside_load(vcpu);
}

/* A load that loses the vCPU's counts is a hypervisor bug, said loudly: one without the put of the
 * previous run (its state may still be in another pCPU's hardware), or one elsewhere than where a
 * lazy put parked the vCPU with no vperf_pcpu_flush there first (said at the load whether or not
 * the guest touches its PMU in this run; the vPMU's acquire copes with it). NULL: a sound load. */
static const char *load_misuse(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	if (vcpu->pcpu || pcpu->loaded)
		return "vperf: vcpu_load without vcpu_put (vCPU or pCPU still loaded)";
	if (vperf_vcpu_parked(vcpu) && vcpu->pmu.hw_pcpu != pcpu)
		return "vperf: vCPU loaded on another pCPU after a lazy put without "
		       "vperf_pcpu_flush: "
		       "its counts since the put are lost";
	return NULL;
}

static void __attribute__((noinline)) load(struct vperf_vcpu *vcpu, struct vperf_pcpu *pcpu)
{
	const char *misuse = load_misuse(vcpu, pcpu);

	if (misuse) {
		STAT_INC(&pcpu->stats, misuse);
		vperf_log(VPERF_LOG_ERR, misuse);
	}
	vcpu->pcpu = pcpu;
	pcpu->loaded = vcpu;
	if (vcpu->vm->cfg.spe)
		load_with_spe(vcpu);
	else
		load_pmu_side(vcpu);
}

/* The vCPU's MDCR_EL2 (cached for this pCPU and epoch) is in the register, or needs no write of
 * vperf's: with hyp_writes_mdcr the hypervisor writes vperf_pcpu_mdcr() after the load, and a
 * trapped-partition vCPU back to the counters its lazy put parked here (still their owner) has
 * no step of the load that needs its MDCR_EL2 before that write (its HPMN is the pCPU's: nothing
 * to evict, vperf_vpmu_before_mdcr; the resume writes PMU registers only, which EL2 reaches
 * whatever MDCR_EL2 holds). The first range's lazy round trip under nVHE KVM. */
static inline bool mdcr_in_place(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	return pcpu->cur_mdcr == vcpu->mdcr ||
	       (pcpu->cfg.hyp_writes_mdcr && pcpu->pmu_owner == vcpu &&
		vcpu->pmu.where == VPERF_VPMU_PARKED && vcpu->pmu.hw_pcpu == pcpu);
}

/* A VM without SPE whose MDCR_EL2, HDFGRTR_EL2 and HDFGWTR_EL2 are in this pCPU's registers
 * already (a vCPU back after a lazy put, or beside VMs of the same policy): load writes none of
 * them and only the vPMU is left. Only compares, so that the common switch needs no frame. */
static inline bool load_writes_nothing(const struct vperf_vcpu *vcpu, const struct vperf_pcpu *pcpu)
{
	return !vcpu->vm->cfg.spe && vcpu->mdcr_pcpu == pcpu &&
	       vcpu->mdcr_epoch == vperf_mdcr_epoch && mdcr_in_place(vcpu, pcpu) &&
	       vperf_fgt_current(vcpu, pcpu);
}

void vperf_vcpu_load(struct vperf_vcpu *vcpu, struct vperf_pcpu *pcpu)
{
	const struct vperf_vcpu *token = pcpu->resume;

	/* A second-range vCPU back after its quick lazy put (vpmu/switch.h): only MDCR_EL2, inline,
	 * so that this path, like the next, makes no call and needs no frame. Every load takes
	 * the token, so that it says "nothing loaded here since"; other vCPUs pay a compare and
	 * that store (no pCPU of theirs ever holds a token). */
	pcpu->resume = NULL;
	if (token == vcpu && vperf_vpmu_second_load_quick(vcpu, pcpu)) {
		vcpu->pcpu = pcpu;
		pcpu->loaded = vcpu;
		vperf_mdcr_load_quick(pcpu, vcpu);
		return;
	}
	if (vcpu->pcpu || pcpu->loaded || !load_writes_nothing(vcpu, pcpu)) {
		load(vcpu, pcpu);
		return;
	}
	vcpu->pcpu = pcpu;
	pcpu->loaded = vcpu;
	if (vpmu_on(vcpu))
		vperf_vpmu_load(vcpu);
}

static void put(struct vperf_vcpu *vcpu, bool lazy)
{
	struct vperf_pcpu *pcpu = vcpu->pcpu;

	if (!pcpu)
		return;
	/* SPE first: its drain ends with the DSB that must precede the MDCR_EL2 switch. */
	if (vspe_on(vcpu))
		vperf_vspe_put(vcpu);
	if (vspe_outside(vcpu))
		vperf_vspe_outside_put(vcpu);
	if (vpmu_on(vcpu))
		vperf_vpmu_put(vcpu, lazy);
	vperf_mdcr_put(pcpu);
	vperf_fgt_put(pcpu);
	/* E2PB is the host's again (0b00): its buffer comes back. */
	vperf_vspe_restore_host(pcpu);
	vperf_mdcr_handed(pcpu);
	pcpu->loaded = NULL;
	vcpu->pcpu = NULL;
}

void vperf_vcpu_put(struct vperf_vcpu *vcpu)
{
	put(vcpu, false);
}

/* The rest of a lazy put once the vPMU parked, when it has calls to make (the common path makes
 * none, so that it needs no frame): the virtual line when it moved, MDCR_EL2, and the host's
 * fine-grained traps when they set PMU fields a VM runs without (fgt.c). */
static void __attribute__((noinline))
put_parked_rest(struct vperf_vcpu *vcpu, struct vperf_pcpu *pcpu, bool push)
{
	if (push)
		vperf_vpmu_update_irq(vcpu);
	pcpu->loaded = NULL;
	vcpu->pcpu = NULL;
	vperf_mdcr_put(pcpu);
	vperf_fgt_put(pcpu);
	vperf_mdcr_handed(pcpu);
}

void vperf_vcpu_put_lazy(struct vperf_vcpu *vcpu)
{
	struct vperf_pcpu *pcpu = vcpu->pcpu;
	enum vperf_vm_lazy lazy;
	bool push;

	/* Not loaded: its vPMU is not in the hardware either (only a load puts it there, every
	 * put takes it out), so both cases below fall through to put(), which does nothing. */
	/* Two common cases alone, told apart by one byte of the VM's (vm_config.h): a VM without
	 * SPE (so no vSPE state to drain and no host buffer saved for it), where only MDCR_EL2 is
	 * left of put() (vperf_mdcr_put_lazy). First, a second-range vCPU that leaves nothing
	 * else behind (vpmu/switch.h), with no call. The others go through put(), which parks the
	 * second range too (vperf_vpmu_park). */
	lazy = (enum vperf_vm_lazy)vcpu->vm->lazy;
	if (lazy == VPERF_VM_LAZY_SECOND && vperf_vpmu_second_put_quick(vcpu, pcpu)) {
		pcpu->loaded = NULL;
		vcpu->pcpu = NULL;
		vperf_mdcr_put_lazy(pcpu);
		return;
	}
	/* A trapped vPMU that parks. Its HDFGRTR_EL2/HDFGWTR_EL2 are the host's outside vperf's
	 * PMU fields (only a direct VM has fine-grained traps of its own, fgt.c, and only the
	 * trapped partition parks): they need a write only where the host sets PMU fields
	 * itself. */
	if (lazy == VPERF_VM_LAZY_TRAPPED && vperf_vpmu_park_lazy(vcpu, &push)) {
		if (push || pcpu->fgt_host_pmu) {
			put_parked_rest(vcpu, pcpu, push);
			return;
		}
		pcpu->loaded = NULL;
		vcpu->pcpu = NULL;
		vperf_mdcr_put_lazy(pcpu);
		return;
	}
	put(vcpu, true);
}

/* Parked: a lazy put left the counters in the hardware of the pCPU it ran on; only that pCPU's
 * vperf_pcpu_flush, or the vCPU's next load there, brings them back. */
bool vperf_vcpu_parked(const struct vperf_vcpu *vcpu)
{
	return vcpu->pmu.where == VPERF_VPMU_PARKED;
}

bool vperf_vcpu_multiplexed(const struct vperf_vcpu *vcpu)
{
	return vpmu_on(vcpu) && vperf_vpmu_multiplexed(vcpu);
}

void vperf_pcpu_flush(struct vperf_pcpu *pcpu)
{
	/* The hypervisor may have written the SPE controls itself: the next load writes them
	 * all. First, so that the vPMU's flush stays a tail call. No quick load back after it
	 * (vpmu/switch.h): the vCPU may be saved, restored or reset from its shadow now. */
	vperf_vspe_ctl_forget(pcpu);
	pcpu->resume = NULL;
	vperf_vpmu_flush(pcpu);
}

void vperf_pcpu_down(struct vperf_pcpu *pcpu)
{
	if (pcpu->loaded) {
		STAT_INC(&pcpu->stats, misuse);
		vperf_log(VPERF_LOG_ERR, "vperf: pcpu_down with a vCPU loaded (put it first)");
		return;
	}
	vperf_vspe_ctl_forget(pcpu);
	pcpu->resume = NULL;
	/* MDCR_EL2 comes back as the CPU's start-up code writes it, not as vperf left it. */
	pcpu->cur_mdcr = VPERF_MDCR_UNKNOWN;
	vperf_vpmu_down(pcpu);
}
