/* SPDX-License-Identifier: MIT */
/*
 * The ops contract: everything vperf needs from the hypervisor it is linked into. vperf never
 * includes a hypervisor's private headers; the hypervisor fills one vperf_hyp_ops and passes it
 * to vperf_init(). `hv_vcpu` / `hv_vm` are the hypervisor's own objects, opaque to vperf.
 *
 * Every callback may be called from the trap path with interrupts masked; none may block or
 * re-enter vperf on the same vCPU.
 *
 * The order of a switch (SPE 3.6): vperf_vcpu_put() runs before the hypervisor changes
 * CONTEXTIDR_EL1, CNTVOFF_EL2, TTBR0/1_EL1 or VTTBR_EL2 for the next vCPU, and
 * vperf_vcpu_load() after. The put's PSB CSYNC is what synchronizes the outgoing guest's
 * records: one not yet synchronized may read the new values (the next VM's context ID or
 * virtual time in its Context and Timestamp packets, its record written through the next
 * translation regime). A hypervisor that must switch those first (e.g. on the exception entry
 * path) calls put first there.
 *
 * MDCR_EL2 is shared: vperf owns the fields of MDCR_EL2_VPERF_MASK (vperf/mdcr.h: HPMN, TPM,
 * TPMCR, HPME, TPMS, E2PB, HPMD, HCCD, MTPME) and writes the register at vperf_vcpu_load and
 * vperf_vcpu_put; the hypervisor owns those of MDCR_EL2_HOST_MASK (its debug and trace traps) and
 * hands them over instead of writing them: once per pCPU (vperf_pcpu_config.host_mdcr) and,
 * where they differ per vCPU (a VMM's guest debugging, a guest's use of the debug registers, its
 * OS lock), per vCPU with vperf_vcpu_set_host_mdcr() before or during the run. A bit of vperf's
 * given there is bad input: dropped, counted and logged. A hypervisor that writes MDCR_EL2 itself
 * between a put and the next load (e.g. nVHE KVM's trap activation) must leave vperf's write the
 * last before the guest runs: vperf skips a load's write when the value it last wrote is the
 * vCPU's, so such a hypervisor sets host_el1, with which every put writes the host's value and
 * the next load the vCPU's. Or, to save the writes, it writes vperf's value itself
 * (vperf_pcpu_config.hyp_writes_mdcr): vperf_pcpu_mdcr() after every load, its own host value
 * after every put; vperf's lazy puts and its quick load back then write nothing, while its other
 * paths still write MDCR_EL2 where their sequences need it (its value is then written twice).
 *
 * HCR_EL2.E2H = 1 (VHE) is accepted: vperf_pcpu_init reads E2H once (vperf_pcpu_caps.e2h) and
 * vperf names the guest's PMSCR_EL1 PMSCR_EL12 with it (SPE 4.3.5, 4.3.6), the host's PMSCR_EL2
 * by its own name. The hypervisor keeps E2H as it was at vperf_pcpu_init, switches the guest's
 * other EL1 registers (with E2H = 1 by their _EL12 names) in the order above, and gives vperf a
 * host Profiling Buffer (EL2&0 with TGE = 1) as host_spe (docs/integration/kvm.md, "VHE").
 *
 * vperf remembers the SPE sampling controls it last wrote on each pCPU and writes only those a
 * load changes: a hypervisor that writes PMSCR_EL2, PMSIRR_EL1, PMSFCR_EL1, PMSEVFR_EL1,
 * PMSLATFR_EL1 or PMSNEVFR_EL1 itself calls vperf_pcpu_flush() (vperf/vperf.h) on that CPU
 * before the next vperf_vcpu_load there (docs/integration.md, "SPE controls").
 */
#ifndef VPERF_HYP_H
#define VPERF_HYP_H

#include <vperf/types.h>

enum vperf_log_level {
	VPERF_LOG_ERR,	  /* vperf or the hardware misbehaved */
	VPERF_LOG_NOTICE, /* a guest did something wrong; it got the architectural outcome */
	VPERF_LOG_DEBUG,
};

struct vperf_hyp_ops {
	/* Required. Make the vCPU take an UNDEFINED exception (EC=0) at its current EL, as if the
	 * trapped instruction were UNDEFINED; the PC must not advance past it. */
	void (*inject_undef)(void *hv_vcpu);
	/* Required. Advance the vCPU's PC past the trapped 4-byte instruction (ELR_EL2 += 4). */
	void (*advance_pc)(void *hv_vcpu);
	/* Required. The Exception level the trapped access came from (0 or 1), from SPSR_EL2.M. */
	unsigned int (*guest_el)(void *hv_vcpu);
	/* Required with VPMU or VSPE. Set the level of a level-sensitive virtual interrupt line
	 * (a PPI, intid 16-31) of the vCPU. vperf calls it only when the level changes. */
	void (*set_irq_line)(void *hv_vcpu, uint32_t intid, bool level);
	/* Optional (VSPE). Make [ipa, ipa + size) of the VM mapped and writable at stage 2 so the
	 * Profiling Buffer does not fault; return 0, or a negative vperf_err when the range is not
	 * the VM's memory. Any TLB maintenance the change needs (TLBI, then DSB) is complete on
	 * return: the Profiling Buffer caches translations like the PE (SPE 3.4.4). */
	int (*stage2_map)(void *hv_vm, uint64_t ipa, uint64_t size);
	/* Optional (VSPE). The IPA the vCPU's current stage 1 (EL1&0 regime) gives the virtual
	 * address va for a privileged write, as AT S1E1W would; return 0 or a negative vperf_err.
	 * Without it (or without stage2_map) a stage-2 fault on a guest's buffer reaches the
	 * guest as an external abort. Both are called for the vCPU on this pCPU: from its trapped
	 * PMBLIMITR_EL1 write, from vperf_handle_spe_irq (an interrupt handler: the hypervisor's
	 * stage 2 lock may be held by the code it interrupted) and from vperf_vcpu_load of a vCPU
	 * restored with its buffer enabled, so the vCPU's EL1 translation state and its stage 2
	 * must be in place before vperf_vcpu_load. The Profiling Buffer walks the guest's stage 1
	 * tables through stage 2 too, and a stage 2 fault on a table reads in PMBSR_EL1 exactly as
	 * one on the buffer page (no address tells them apart): a hypervisor that maps lazily must
	 * leave the stage 1 tables it walked here mapped at stage 2 as well, or the buffer faults
	 * again at once (measured on QEMU: 154 faults in one Linux perf run, 5 with the tables
	 * mapped). */
	int (*guest_va_to_ipa)(void *hv_vcpu, uint64_t va, uint64_t *ipa);
	/* Optional. Called on a physical PMU overflow of a host-owned counter: bits of PMOVSSET
	 * in the host's range [HPMN, EPMN) that were set. vperf has already cleared them. */
	void (*host_pmu_overflow)(uint64_t ovs);
	/* Optional. One line of text, no trailing newline, for the hypervisor's log. */
	void (*log)(enum vperf_log_level level, const char *msg);
};

#endif /* VPERF_HYP_H */
