// SPDX-License-Identifier: MIT
/*
 * The test hypervisor's switch between vCPUs (hv.h): the put (eager, lazy or mixed, by the
 * vCPU's policy or HV_LAZY_PUT), then the guest's context, VMID and list register, and the load,
 * in the order include/vperf/hyp.h gives, at EL2 where the model has SPE; a lazy put's pCPU
 * flushed before the vCPU loads elsewhere.
 */
#include <arch/sysreg.h>
#include <sim/gic.h>
#include <sim/mem.h>
#include <sim/model.h>
#include <sim/spe.h>
#include <vperf/pmu_regs.h>
#include <vperf/vperf.h>

#include "hv.h"
#include "sched_util.h"

/* This put lazy? The vCPU's own policy, else the environment's (HV_LAZY_PUT). */
static bool put_lazily(const struct hv_vcpu *vc)
{
	enum hv_put p = vc->put;

	if (p == HV_PUT_ENV)
		p = !hv.lazy_put ? HV_PUT_EAGER : hv.mixed_put ? HV_PUT_MIXED : HV_PUT_LAZY;
	return p == HV_PUT_LAZY || (p == HV_PUT_MIXED && (sched_next(&hv.put_draws) >> 32 & 1));
}

/* How EL2 names the guest's CONTEXTIDR_EL1: CONTEXTIDR_EL12 on a VHE host, where the name
 * CONTEXTIDR_EL1 is the host's CONTEXTIDR_EL2 (the model reports the wrong one with E2H = 0). */
static enum sim_ctx1_name ctx1_name(void)
{
	return hv.e2h ? SIM_CTX1_BY_EL12 : SIM_CTX1_BY_EL1;
}

/* Put: vperf first (it may still change the line), then the list register is saved. */
static void put(unsigned int cpu)
{
	struct hv_vcpu *vc = hv.running[cpu];

	sim_set_cpu(cpu);
	if (!vc)
		return;
	/* Mixed: as a hypervisor that puts lazily while a vCPU stays and eagerly when it moves
	 * (tests/qemu/hyp/sched.c), without knowing here which it will do. */
	vc->put_lazily = put_lazily(vc);
	if (vc->put_lazily)
		vperf_vcpu_put_lazy(&vc->v);
	else
		vperf_vcpu_put(&vc->v);
	sim_set_cpu(cpu);
	if (hv.pcpu[cpu].cfg.hyp_writes_mdcr)
		write_sysreg(hv.pcpu[cpu].host_mdcr | hv.hyp_host_bits, MDCR_EL2);
	/* A host that writes PMCR_EL0 between put and load (host_writes_pmcr): nVHE KVM puts its
	 * own back after the put and its EL1 perf sets E for its events; the worst case for the
	 * put vCPU, E = 1, whatever the guest's was. */
	if (hv.pcpu[cpu].cfg.host_writes_pmcr)
		write_sysreg(read_sysreg(PMCR_EL0) | PMCR_E, PMCR_EL0);
	vc->contextidr = sim_spe_el2_read_contextidr1(cpu, ctx1_name());
	vc->cntvoff = sim_spe_cntvoff(cpu);
	vc->lr = sim_gic_lr(cpu, 0);
	sim_poke(cpu, VPERF_ENC_ICH_LR0_EL2, 0);
	hv.running[cpu] = NULL;
}

/* With SPE in the model, a switch runs in an exception to EL2 as a hypervisor's does: the entry
 * is the context synchronization event the drain at put relies on (SPE 3.6), the
 * ERET the one after load. The PMU-only tests count EL2 cycles exactly without it. */
static bool switch_at_el2(unsigned int cpu)
{
	return sim_cpu_config(cpu)->pmsver != 0;
}

void hv_leave(unsigned int cpu)
{
	sim_set_cpu(cpu);
	if (!switch_at_el2(cpu)) {
		put(cpu);
		return;
	}
	sim_enter_el2(cpu);
	put(cpu);
	sim_exit_el2(cpu);
}

/* The guest's own context registers the records read (SPE 3.6): the hypervisor's to switch. */
static void switch_context(const struct hv_vcpu *vc, unsigned int cpu)
{
	sim_spe_el2_write_contextidr1(cpu, ctx1_name(), vc->contextidr);
	sim_spe_write_cntvoff(cpu, vc->cntvoff);
}

void hv_load_raw(struct hv_vcpu *vc, unsigned int cpu)
{
	sim_set_cpu(cpu);
	sim_enter_el2(cpu);
	vperf_vcpu_load(&vc->v, &hv.pcpu[cpu]);
	sim_exit_el2(cpu);
	sim_set_cpu(0);
}

void hv_enter(struct hv_vcpu *vc, unsigned int cpu)
{
	if (hv.running[cpu] == vc) {
		sim_set_cpu(cpu);
		return;
	}
	sim_set_cpu(cpu);
	if (switch_at_el2(cpu))
		sim_enter_el2(cpu);
	if (hv.late_put && switch_at_el2(cpu))
		switch_context(vc, cpu);
	put(cpu);
	/* The lazy put's promise (docs/integration.md): a vCPU that moves after one has the pCPU
	 * it was parked on give its state up first, on that pCPU. After an eager put nothing is
	 * owed: vperf must have left nothing parked. */
	if (vc->put_lazily && vperf_vcpu_parked(&vc->v) && vc->cpu != cpu) {
		sim_set_cpu(vc->cpu);
		vperf_pcpu_flush(&hv.pcpu[vc->cpu]);
		sim_set_cpu(cpu);
	}
	/* Stage 2, the VMID and the guest's context are switched between put and load
	 * (include/vperf/hyp.h; docs/vspe.md, "Switching"). */
	sim_mem_set_vmid(cpu, (uint16_t)(vc->v.vm - hv.vm + 1));
	if (!hv.late_put && switch_at_el2(cpu))
		switch_context(vc, cpu);
	vc->cpu = cpu;
	vperf_vcpu_load(&vc->v, &hv.pcpu[cpu]);
	sim_set_cpu(cpu);
	hv.mdcr_after_load[cpu] = sim_peek(cpu, VPERF_ENC_MDCR_EL2);
	if (hv.pcpu[cpu].cfg.hyp_writes_mdcr)
		write_sysreg(vperf_pcpu_mdcr(&hv.pcpu[cpu]), MDCR_EL2);
	hv.running[cpu] = vc;
	sim_poke(cpu, VPERF_ENC_ICH_LR0_EL2, vc->lr);
	if (switch_at_el2(cpu))
		sim_exit_el2(cpu);
	sim_set_el(1);
}
