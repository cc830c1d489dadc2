// SPDX-License-Identifier: MIT
/*
 * vperf-demo: vperf linked into a toy hypervisor on the simulated PE (ARCH=sim). It shows what
 * the library does today: probe a CPU, split its counters between guests, host and an external
 * agent, program MDCR_EL2 around a guest, answer the guest's PMU/SPE accesses (an OFF VM: every
 * one UNDEF), log an unknown register as a database line, and hand the host its overflows.
 */
#include <inttypes.h>
#include <stdio.h>

#include <sim/cpu.h>
#include <vperf/esr.h>
#include <vperf/mdcr.h>
#include <vperf/vperf.h>

struct toy_vcpu {
	unsigned int undefs, pc_advances;
};

static void inject_undef(void *v)
{
	((struct toy_vcpu *)v)->undefs++;
}

static void advance_pc(void *v)
{
	((struct toy_vcpu *)v)->pc_advances++;
}

static unsigned int guest_el(void *v)
{
	(void)v;
	return 1;
}

static void set_irq_line(void *v, uint32_t intid, bool level)
{
	(void)v;
	printf("  vGIC: INTID %" PRIu32 " %s\n", intid, level ? "high" : "low");
}

static void host_overflow(uint64_t ovs)
{
	printf("  host callback: overflow flags 0x%" PRIx64 "\n", ovs);
}

static void log_line(enum vperf_log_level level, const char *msg)
{
	printf("  log[%d]: %s\n", (int)level, msg);
}

static const struct vperf_hyp_ops ops = {
	.inject_undef = inject_undef,
	.advance_pc = advance_pc,
	.guest_el = guest_el,
	.set_irq_line = set_irq_line,
	.host_pmu_overflow = host_overflow,
	.log = log_line,
};

static const char *outcome(enum vperf_trap_result r)
{
	return r == VPERF_TRAP_HANDLED ? "emulated" :
	       r == VPERF_TRAP_UNDEF   ? "UNDEF injected" :
					 "not vperf's (hypervisor handles it)";
}

static void guest_access(struct vperf_vcpu *vcpu, const char *what, uint32_t enc, bool read)
{
	uint64_t gprs[31] = { 0 };
	uint64_t esr = vperf_esr_encode_sysreg(enc, 1, read);

	printf("  guest %-28s ESR_EL2=0x%08" PRIx64 " -> %s\n", what, esr,
	       outcome(vperf_handle_sysreg(vcpu, esr, gprs)));
}

static void setup_cpu(struct vperf_pcpu *pcpu)
{
	const struct vperf_pcpu_config cfg = {
		.host_mdcr = MDCR_EL2_TDA | MDCR_EL2_TDOSA,
		.host_counters = 2,
		.agent_counters = 1,
	};

	sim_reset();
	sim_poke(0, VPERF_ENC_ID_AA64DFR0_EL1, 6ull << ID_DFR0_PMUVER_SHIFT);
	sim_poke(0, VPERF_ENC_PMCR_EL0, 6ull << PMCR_N_SHIFT);
	if (vperf_init(&ops) || vperf_pcpu_init(pcpu, &cfg))
		printf("setup failed\n");
	printf("pCPU 0: PMUVer %u (PMUv3p5), PMCR_EL0.N = %u\n", pcpu->caps.pmuver,
	       pcpu->caps.nr_counters);
	printf("  counters [0,%u) guests, [%u,%u) host (second range), [%u,%u) external agent\n",
	       pcpu->hpmn, pcpu->hpmn, pcpu->epmn, pcpu->epmn, pcpu->caps.nr_counters);
	printf("  host MDCR_EL2 = 0x%" PRIx64 " (HPMN=%u, HPME: host counters count)\n",
	       pcpu->host_mdcr, pcpu->hpmn);
}

static void run_guest(struct vperf_pcpu *pcpu, struct vperf_vm *vm)
{
	struct toy_vcpu toy = { 0 };
	struct vperf_vcpu vcpu;

	vperf_vcpu_init(&vcpu, vm, &toy);
	vperf_vcpu_load(&vcpu, pcpu);
	printf("vcpu_load: MDCR_EL2 = 0x%" PRIx64 " (TPM, TPMCR, TPMS trap; E2PB=0b00)\n",
	       sim_peek(0, VPERF_ENC_MDCR_EL2));
	guest_access(&vcpu, "mrs x1, PMCR_EL0", VPERF_ENC_PMCR_EL0, true);
	guest_access(&vcpu, "msr PMCNTENSET_EL0, x1", VPERF_ENC_PMCNTENSET_EL0, false);
	guest_access(&vcpu, "mrs x1, PMSIDR_EL1", VPERF_ENC_PMSIDR_EL1, true);
	guest_access(&vcpu, "msr PMBLIMITR_EL1, x1", VPERF_ENC_PMBLIMITR_EL1, false);
	guest_access(&vcpu, "mrs x1, S3_3_C9_C13_5", VPERF_SYSREG_ENC(3, 3, 9, 13, 5), true);
	guest_access(&vcpu, "mrs x1, SCTLR_EL1", VPERF_SYSREG_ENC(3, 0, 1, 0, 0), true);
	vperf_vcpu_put(&vcpu);
	printf("vcpu_put: MDCR_EL2 = 0x%" PRIx64 " (the host's)\n",
	       sim_peek(0, VPERF_ENC_MDCR_EL2));
	printf("  guest saw %u UNDEFs, %u emulated accesses; VM stats: %" PRIu64 " traps, %" PRIu64
	       " unknown encodings\n",
	       toy.undefs, toy.pc_advances, vm->stats.traps, vm->stats.unknown_enc);
}

int main(void)
{
	const struct vperf_vm_config off = { .pmu_mode = VPERF_PMU_OFF };
	const struct vperf_vm_config self = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 3 };
	struct vperf_pcpu pcpu;
	struct vperf_vm vm;

	setup_cpu(&pcpu);
	printf("VM policy SELF: %s\n", vperf_vm_init(&vm, &self, NULL) == VPERF_ENOTSUP ?
					       "not supported yet (vPMU emulation: issue #5)" :
					       "accepted");
	vperf_vm_init(&vm, &off, NULL);
	printf("VM policy OFF (XENPMU_MODE_OFF): accepted\n");
	run_guest(&pcpu, &vm);
	printf("physical PMUIRQ with flags 0x%x set:\n", 0x80000039u);
	sim_poke(0, VPERF_ENC_PMOVSSET_EL0, 0x80000039u);
	vperf_handle_pmu_irq(&pcpu);
	return 0;
}
