// SPDX-License-Identifier: MIT
/* Lifecycle: ops validation, pCPU probe and counter ranges, VM policy, MDCR_EL2 at load/put,
 * and the host's PMU overflows. */
#include <string.h>

#include "cmocka_wrap.h"

#include <sim/cpu.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>
#include <vperf/spe_regs.h>
#include <vperf/vperf.h>

#include "fake_hyp.h"

/* What vperf_vm_init answers a vSPE on a pCPU without SPE: refused as not possible here, or as
 * not built when vSPE is configured out. */
#ifdef CONFIG_VPERF_VSPE
#define NO_SPE_HERE VPERF_ENODEV
#else
#define NO_SPE_HERE VPERF_ENOTSUP
#endif

#define PMUVER_V3P5 6ull

static void set_cpu(uint64_t pmuver, uint64_t n, bool hpmn0)
{
	uint64_t dfr0 = pmuver << ID_DFR0_PMUVER_SHIFT;

	if (hpmn0)
		dfr0 |= 1ull << ID_DFR0_HPMN0_SHIFT;
	sim_poke(0, VPERF_ENC_ID_AA64DFR0_EL1, dfr0);
	sim_poke(0, VPERF_ENC_PMCR_EL0, n << PMCR_N_SHIFT);
}

static int setup(void **state)
{
	(void)state;
	fake_hyp_reset();
	set_cpu(PMUVER_V3P5, 6, false);
	return 0;
}

static void test_init_requires_ops(void **state)
{
	struct vperf_hyp_ops ops = fake_hyp_ops;

	(void)state;
	assert_int_equal(vperf_init(NULL), VPERF_EINVAL);
	ops.advance_pc = NULL;
	assert_int_equal(vperf_init(&ops), VPERF_EINVAL);
	ops = fake_hyp_ops;
	ops.set_irq_line = NULL;
#if defined(CONFIG_VPERF_VPMU) || defined(CONFIG_VPERF_VSPE)
	assert_int_equal(vperf_init(&ops), VPERF_EINVAL); /* interrupts to inject */
#else
	assert_int_equal(vperf_init(&ops), VPERF_OK);
#endif
	assert_int_equal(vperf_init(&fake_hyp_ops), VPERF_OK);
}

/* N=6, host keeps 2, agent 1: guests [0,3), host [3,5), agent [5,6). Probing reads, but for
 * PMCR_EL0.X (set, read back, the host's PMCR_EL0 put back; test_vpmu_badinput has the PE
 * without an export bus); the other writes are PMUSERENR_EL0 = 0 and PMSELR_EL0 = 0, over their
 * UNKNOWN reset values. */
static void test_pcpu_ranges(void **state)
{
	const struct vperf_pcpu_config cfg = { .host_counters = 2, .agent_counters = 1 };
	struct vperf_pcpu pcpu;
	uint64_t pmcr;

	(void)state;
	sim_poke(0, VPERF_ENC_PMUSERENR_EL0, PMUSERENR_EN);
	sim_poke(0, VPERF_ENC_PMSELR_EL0, 31);
	sim_poke(0, VPERF_ENC_PMCR_EL0, sim_peek(0, VPERF_ENC_PMCR_EL0) | PMCR_E);
	pmcr = sim_peek(0, VPERF_ENC_PMCR_EL0);
	assert_int_equal(vperf_pcpu_init(&pcpu, &cfg), VPERF_OK);
	assert_int_equal(pcpu.caps.pmuver, PMUVER_V3P5);
	assert_int_equal(pcpu.caps.nr_counters, 6);
	assert_int_equal(pcpu.hpmn, 3);
	assert_int_equal(pcpu.epmn, 5);
#ifdef CONFIG_VPERF_VPMU
	assert_int_equal(sim_cpu(0)->nr_writes, 4);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMUSERENR_EL0), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSELR_EL0), 0);
	assert_true(pcpu.caps.export_bus); /* a plain register file keeps X */
#else
	assert_int_equal(sim_cpu(0)->nr_writes, 0);
#endif
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCR_EL0), pmcr); /* the host's, back */
}

static void test_pcpu_invalid_ranges(void **state)
{
	struct vperf_pcpu_config cfg = { .host_counters = 5, .agent_counters = 2 };
	struct vperf_pcpu pcpu;

	(void)state;
	assert_int_equal(vperf_pcpu_init(&pcpu, &cfg), VPERF_EINVAL);
	/* All six reserved leaves HPMN = 0: only valid with FEAT_HPMN0. */
	cfg.agent_counters = 1;
	assert_int_equal(vperf_pcpu_init(&pcpu, &cfg), VPERF_EINVAL);
	set_cpu(PMUVER_V3P5, 6, true);
	assert_int_equal(vperf_pcpu_init(&pcpu, &cfg), VPERF_OK);
	assert_int_equal(pcpu.hpmn, 0);
}

/* No PMUv3 (PMUVer 0, or 0xF: IMPLEMENTATION DEFINED): no counters, PMCR_EL0 never read (the
 * ID registers are: FEAT_FGT decides whether vperf owns HDFGRTR/HDFGWTR_EL2 even there; and
 * HCR_EL2, whose E2H names the guest's PMSCR_EL1, caps.e2h). */
static void test_pcpu_without_pmu(void **state)
{
	const struct vperf_pcpu_config cfg = { 0 };
	struct vperf_pcpu pcpu;

	(void)state;
	for (uint64_t ver = 0; ver <= 0xf; ver += 0xf) {
		set_cpu(ver, 6, false);
		sim_clear_counts(0);
		assert_int_equal(vperf_pcpu_init(&pcpu, &cfg), VPERF_OK);
		assert_int_equal(pcpu.caps.pmuver, 0);
		assert_int_equal(pcpu.caps.nr_counters, 0);
		assert_int_equal(sim_cpu(0)->nr_reads, 4);
		assert_int_equal(sim_trace_at(0, 0)->enc, VPERF_ENC_ID_AA64DFR0_EL1);
		assert_int_equal(sim_trace_at(0, 1)->enc, VPERF_ENC_ID_AA64PFR0_EL1);
		assert_int_equal(sim_trace_at(0, 2)->enc, VPERF_ENC_ID_AA64MMFR0_EL1);
		assert_int_equal(sim_trace_at(0, 3)->enc, VPERF_ENC_HCR_EL2);
	}
}

static void test_vm_policy(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 2 };
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct vperf_pcpu pcpu;
	struct vperf_vm vm;

	(void)state;
#ifndef CONFIG_VPERF_VPMU
	(void)pcfg;
	(void)pcpu;
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_ENOTSUP);
	return;
#endif
	/* A vPMU needs an initialised pCPU with a PMU, and counters it can give. */
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_ENODEV);
	assert_int_equal(vperf_pcpu_init(&pcpu, &pcfg), VPERF_OK);
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_OK);
	cfg.nr_counters = 5;
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_EINVAL);
	cfg.nr_counters = 2;
	cfg.partition = VPERF_PART_EMULATED;
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_OK);
	cfg.emu_slots = 5; /* more than the first range [0, 4) */
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_EINVAL);
	cfg.emu_slots = 0;
	cfg.partition = VPERF_PART_DIRECT; /* the zeroed filter denies everything */
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_EINVAL);
	cfg.partition = VPERF_PART_TRAPPED;
	cfg.pmu_mode = VPERF_PMU_ALL;
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_OK);
	cfg.pmu_mode = (enum vperf_pmu_mode)3; /* not one Xen mode */
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_EINVAL);
	cfg.pmu_mode = VPERF_PMU_OFF;
	cfg.spe = true; /* this pCPU has no SPE */
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), NO_SPE_HERE);
	/* A vSPE that cannot be given is refused as such, before its PMBIRQ is compared with the
	 * PMUIRQ: the same PPI for both is not the reason. */
	cfg.pmu_mode = VPERF_PMU_SELF;
	cfg.pmu_virq = cfg.spe_virq = 20;
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), NO_SPE_HERE);
	cfg.pmu_mode = VPERF_PMU_OFF;
	cfg.pmu_virq = cfg.spe_virq = 0;
	cfg.spe = false;
	assert_int_equal(vperf_vm_init(&vm, &cfg, (void *)&cfg), VPERF_OK);
	assert_ptr_equal(vm.hv_vm, &cfg);
}

/* Load writes MDCR_EL2 once: the host's own bits kept, vperf's fields replaced (the host's
 * stale HPMN/TPM bits in host_mdcr are ignored). Put leaves the trap bits (they act on EL1/EL0
 * only) unless the host runs EL1 code; a second load of the same policy writes nothing. */
static void test_load_put_mdcr(void **state)
{
	struct vperf_pcpu_config pcfg = {
		.host_mdcr = MDCR_EL2_TDA | MDCR_EL2_TDOSA | MDCR_EL2_HLP | 0x1f | MDCR_EL2_TPM,
		.host_counters = 2,
	};
	const struct vperf_vm_config vcfg = { .pmu_mode = VPERF_PMU_OFF };
	const uint64_t host = MDCR_EL2_TDA | MDCR_EL2_TDOSA | MDCR_EL2_HLP | 4 | MDCR_EL2_HPME;
	/* No SPE on this PE: TPMS and E2PB are RES0 and stay 0. */
	const uint64_t guest = host | MDCR_EL2_TPM | MDCR_EL2_TPMCR;
	struct vperf_pcpu pcpu;
	struct vperf_vm vm;
	struct vperf_vcpu vcpu;
	struct fake_vcpu hv = { 0 };

	(void)state;
	assert_int_equal(vperf_pcpu_init(&pcpu, &pcfg), VPERF_OK);
	assert_int_equal(pcpu.host_mdcr, host);
	assert_int_equal(vperf_vm_init(&vm, &vcfg, NULL), VPERF_OK);
	assert_int_equal(vperf_vcpu_init(&vcpu, &vm, &hv), VPERF_OK);

	sim_clear_counts(0);
	vperf_vcpu_load(&vcpu, &pcpu);
	assert_int_equal(sim_cpu(0)->nr_writes, 1);
	assert_int_equal(sim_cpu(0)->nr_reads, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), guest);
	assert_ptr_equal(pcpu.loaded, &vcpu);
	assert_int_equal(vperf_vcpu_reset(&vcpu), VPERF_EBUSY);
	vperf_vcpu_put(&vcpu);
	assert_null(pcpu.loaded);
	vperf_vcpu_load(&vcpu, &pcpu);
	vperf_vcpu_put(&vcpu);
	assert_int_equal(sim_cpu(0)->nr_writes, 1);
	assert_int_equal(vperf_vcpu_reset(&vcpu), VPERF_OK);
	vperf_vcpu_put(&vcpu); /* a second put is harmless */
	assert_int_equal(sim_cpu(0)->nr_writes, 1);

	/* A load without the put of the previous run is reported (it would lose counts). */
	vperf_vcpu_load(&vcpu, &pcpu);
	fake_hyp.logs = 0;
	vperf_vcpu_load(&vcpu, &pcpu);
	assert_int_equal(fake_hyp.logs, 1);
	assert_string_equal(fake_hyp.last_log,
			    "vperf: vcpu_load without vcpu_put (vCPU or pCPU still loaded)");
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(pcpu.stats.misuse, 1);
#endif
	vperf_vcpu_put(&vcpu);

	/* A host with EL1 code of its own gets its value back at every put. */
	pcfg.host_el1 = true;
	assert_int_equal(vperf_pcpu_init(&pcpu, &pcfg), VPERF_OK);
	sim_clear_counts(0);
	vperf_vcpu_load(&vcpu, &pcpu);
	vperf_vcpu_put(&vcpu);
	assert_int_equal(sim_cpu(0)->nr_writes, 2);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), host);
}

/*
 * The fields vperf owns (vperf/hyp.h: HPMN, TPMCR, TPM, HPME, E2PB, TPMS, HPMD, HCCD, MTPME) are
 * vperf's even where the hypervisor's host_mdcr sets them: the pCPU is accepted and each gets
 * vperf's value, neither refused as a field this PE lacks nor kept as the hypervisor's. No host
 * counters: vperf's HPMN is N (6 on this model) and its HPME 0.
 */
static void test_host_mdcr_vperf_fields_replaced(void **state)
{
	static const uint64_t vperfs[] = {
		MDCR_EL2_HPMN_MASK, MDCR_EL2_TPMCR,	MDCR_EL2_TPM,
		MDCR_EL2_HPME,	    MDCR_EL2_E2PB_MASK, MDCR_EL2_TPMS,
		MDCR_EL2_HPMD,	    MDCR_EL2_HCCD,	MDCR_EL2_MTPME,
	};
	struct vperf_pcpu_config pcfg = { 0 };
	struct vperf_pcpu pcpu;

	(void)state;
	for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(vperfs); i++) {
		pcfg.host_mdcr = MDCR_EL2_TDA | vperfs[i];
		assert_int_equal(vperf_pcpu_init(&pcpu, &pcfg), VPERF_OK);
		assert_int_equal(pcpu.host_mdcr, MDCR_EL2_TDA | 6);
	}
}

/* The SPE registers (SPE 4.1, Table 7; PMSNEVFR_EL1 and PMSDSFR_EL1 of later versions). */
static bool spe_register(uint32_t enc)
{
	static const uint32_t spe[] = {
		VPERF_ENC_PMSCR_EL1,	 VPERF_ENC_PMSCR_EL2,	 VPERF_ENC_PMSNEVFR_EL1,
		VPERF_ENC_PMSICR_EL1,	 VPERF_ENC_PMSIRR_EL1,	 VPERF_ENC_PMSFCR_EL1,
		VPERF_ENC_PMSEVFR_EL1,	 VPERF_ENC_PMSLATFR_EL1, VPERF_ENC_PMSIDR_EL1,
		VPERF_ENC_PMBLIMITR_EL1, VPERF_ENC_PMBPTR_EL1,	 VPERF_ENC_PMBSR_EL1,
		VPERF_ENC_PMSDSFR_EL1,	 VPERF_ENC_PMBIDR_EL1,
	};

	for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(spe); i++)
		if (enc == spe[i])
			return true;
	return false;
}

/* The SPE registers vperf accessed on CPU 0 since its counts were cleared. */
static unsigned int spe_accesses(uint32_t *last)
{
	unsigned int n = 0;

	for (uint64_t i = 0; sim_trace_at(0, i); i++)
		if (spe_register(sim_trace_at(0, i)->enc)) {
			*last = sim_trace_at(0, i)->enc;
			n++;
		}
	return n;
}

/*
 * SPEv1p2 whose Profiling Buffer firmware keeps for the Secure side (MDCR_EL3.NSPB = 0b0x):
 * PMBIDR_EL1.P reads 1 at EL2 (SPE 4.3.1) and every other SPE register traps to EL3 from EL2
 * (SPE 4.3). vperf_pcpu_init reads PMBIDR_EL1 and no other SPE register, and finds no SPE it can
 * use (counted, logged once); a VM with SPE is refused as on a PE without; a VM without runs with
 * MDCR_EL2.TPMS = 1 and E2PB = 0b00, which the PE implements (so that its guest's accesses trap
 * to EL2, not to EL3), sees PMSVer 0, and its loads and puts touch no SPE register. The host may
 * keep MDCR_EL2.HPMFZS, which SPEv1p2 implements.
 */
static void test_pcpu_spe_el3(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_mdcr = MDCR_EL2_HPMFZS, .host_counters = 2 };
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_OFF, .spe = true };
	uint64_t dfr0 = sim_peek(0, VPERF_ENC_ID_AA64DFR0_EL1) | 3ull << ID_DFR0_PMSVER_SHIFT;
	struct vperf_pcpu pcpu;
	struct vperf_vm vm;
	struct vperf_vcpu vcpu;
	struct fake_vcpu hv = { 0 };
	uint32_t last = 0;

	(void)state;
	sim_poke(0, VPERF_ENC_ID_AA64DFR0_EL1, dfr0);
	sim_poke(0, VPERF_ENC_PMBIDR_EL1, PMBIDR_P | 3);
	sim_poke(0, VPERF_ENC_PMSIDR_EL1, 0x2605f);
	sim_clear_counts(0);
	assert_int_equal(vperf_pcpu_init(&pcpu, &pcfg), VPERF_OK);
	assert_int_equal(spe_accesses(&last), 1);
	assert_int_equal(last, VPERF_ENC_PMBIDR_EL1);
	assert_true(pcpu.caps.spe_el3);
	assert_int_equal(pcpu.caps.pmsver, 0);
	assert_int_equal(pcpu.caps.pmsidr, 0);
	assert_int_equal(pcpu.caps.pmbidr, 0);
	assert_int_equal(fake_hyp.logs, 1);
	assert_string_equal(fake_hyp.last_log, "vperf: pcpu_init: PMBIDR_EL1.P = 1, firmware keeps "
					       "SPE's Profiling Buffer (MDCR_EL3.NSPB): no SPE on "
					       "this pCPU");
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(pcpu.stats.spe_el3, 1);
#endif
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), NO_SPE_HERE);
	cfg.spe_buffer = VPERF_SPE_BUF_EL2;
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), NO_SPE_HERE);
	cfg.spe = false;
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_OK);
	assert_int_equal(vperf_vcpu_init(&vcpu, &vm, &hv), VPERF_OK);
	sim_clear_counts(0);
	vperf_vcpu_load(&vcpu, &pcpu);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & (MDCR_EL2_TPMS | MDCR_EL2_E2PB_MASK),
			 MDCR_EL2_TPMS | MDCR_EL2_E2PB_EL2);
	assert_int_equal(vperf_vcpu_id_dfr0(&vcpu, dfr0) & ID_DFR0_PMSVER_MASK, 0);
	vperf_vcpu_put(&vcpu);
	assert_int_equal(spe_accesses(&last), 0);
	/* The same PE with the buffer the Non-secure side's: SPE, its ID registers read. */
	sim_poke(0, VPERF_ENC_PMBIDR_EL1, 3);
	assert_int_equal(vperf_pcpu_init(&pcpu, &pcfg), VPERF_OK);
	assert_false(pcpu.caps.spe_el3);
	assert_int_equal(pcpu.caps.pmsver, 3);
	assert_int_equal(pcpu.caps.pmsidr, 0x2605f);
	assert_int_equal(pcpu.caps.pmbidr, 3);
}

/* One pCPU, one VM and one vCPU of it, each accepted. */
static void bring_up(struct vperf_pcpu *pcpu, const struct vperf_pcpu_config *pcfg,
		     struct vperf_vm *vm, const struct vperf_vm_config *vcfg,
		     struct vperf_vcpu *vcpu, struct fake_vcpu *hv)
{
	assert_int_equal(vperf_pcpu_init(pcpu, pcfg), VPERF_OK);
	assert_int_equal(vperf_vm_init(vm, vcfg, NULL), VPERF_OK);
	assert_int_equal(vperf_vcpu_init(vcpu, vm, hv), VPERF_OK);
}

/* A vCPU's MDCR_EL2 is cached between its loads (virt/mdcr.c): a pCPU initialised again (here
 * with one more host counter, so HPMN 4 -> 3) or its VM initialised again (PMU OFF -> a vPMU
 * in SELF, which clears HPME) must not load the value of the old configuration. */
static void test_mdcr_cache_epoch(void **state)
{
	struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct vperf_vm_config vcfg = { .pmu_mode = VPERF_PMU_OFF };
	struct vperf_pcpu pcpu;
	struct vperf_vm vm;
	struct vperf_vcpu vcpu;
	struct fake_vcpu hv = { 0 };

	(void)state;
	bring_up(&pcpu, &pcfg, &vm, &vcfg, &vcpu, &hv);
	vperf_vcpu_load(&vcpu, &pcpu);
	vperf_vcpu_put(&vcpu);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPMN_MASK, 4);

	pcfg.host_counters = 3;
	assert_int_equal(vperf_pcpu_init(&pcpu, &pcfg), VPERF_OK);
	vperf_vcpu_load(&vcpu, &pcpu);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPMN_MASK, 3);
	assert_true(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPME);
	vperf_vcpu_put(&vcpu);

#ifdef CONFIG_VPERF_VPMU
	vcfg.pmu_mode = VPERF_PMU_SELF;
	vcfg.nr_counters = 2;
	assert_int_equal(vperf_vm_init(&vm, &vcfg, NULL), VPERF_OK);
	vperf_vcpu_load(&vcpu, &pcpu);
	assert_false(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPME);
	vperf_vcpu_put(&vcpu);
#endif
}

/*
 * The hypervisor's own MDCR_EL2 bits for one vCPU (vperf_vcpu_set_host_mdcr, vperf/vperf.h): its
 * debug traps, as KVM computes them per vCPU, replace its pCPU's host_mdcr ones while that vCPU
 * runs, with vperf's fields (HPMN, HPME, TPM, TPMCR) vperf's; a vCPU that gave none runs with
 * the pCPU's. TTRF is the hypervisor's only where FEAT_TRF is (ID_AA64DFR0_EL1.TraceFilt,
 * MDCR_EL2.TTRF): RES0 elsewhere, so left 0 there.
 */
static void test_vcpu_host_mdcr(void **state)
{
	const struct vperf_pcpu_config pcfg = {
		.host_mdcr = MDCR_EL2_TDA | MDCR_EL2_TDOSA | MDCR_EL2_TDRA,
		.host_counters = 2,
		.host_el1 = true,
	};
	const struct vperf_vm_config vcfg = { .pmu_mode = VPERF_PMU_OFF };
	const uint64_t vperfs = 4 | MDCR_EL2_HPME | MDCR_EL2_TPM | MDCR_EL2_TPMCR;
	const uint64_t host = pcfg.host_mdcr | 4 | MDCR_EL2_HPME;
	struct vperf_pcpu pcpu;
	struct vperf_vm vm;
	struct vperf_vcpu a, b;
	struct fake_vcpu hv = { 0 };

	(void)state;
	assert_int_equal(vperf_pcpu_init(&pcpu, &pcfg), VPERF_OK);
	assert_int_equal(vperf_vm_init(&vm, &vcfg, NULL), VPERF_OK);
	assert_int_equal(vperf_vcpu_init(&a, &vm, &hv), VPERF_OK);
	assert_int_equal(vperf_vcpu_init(&b, &vm, &hv), VPERF_OK);

	assert_int_equal(
		vperf_vcpu_set_host_mdcr(&a, MDCR_EL2_TDE | MDCR_EL2_TDOSA | MDCR_EL2_TTRF),
		VPERF_OK);
	vperf_vcpu_load(&a, &pcpu);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), MDCR_EL2_TDE | MDCR_EL2_TDOSA | vperfs);
	vperf_vcpu_put(&a);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), host);
	vperf_vcpu_load(&b, &pcpu);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), pcfg.host_mdcr | vperfs);
	vperf_vcpu_put(&b);

	/* The same bits again change nothing; new ones while loaded are written at once. */
	assert_int_equal(
		vperf_vcpu_set_host_mdcr(&a, MDCR_EL2_TDE | MDCR_EL2_TDOSA | MDCR_EL2_TTRF),
		VPERF_OK);
	vperf_vcpu_load(&a, &pcpu);
	sim_clear_counts(0);
	assert_int_equal(
		vperf_vcpu_set_host_mdcr(&a, MDCR_EL2_TDE | MDCR_EL2_TDOSA | MDCR_EL2_TTRF),
		VPERF_OK);
	assert_int_equal(sim_cpu(0)->nr_writes, 0);
	assert_int_equal(vperf_vcpu_set_host_mdcr(&a, MDCR_EL2_TDA), VPERF_OK);
	assert_int_equal(sim_cpu(0)->nr_writes, 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), MDCR_EL2_TDA | vperfs);
	vperf_vcpu_put(&a);

	/* Kept across a reset of the guest's state. */
	assert_int_equal(vperf_vcpu_reset(&a), VPERF_OK);
	vperf_vcpu_load(&a, &pcpu);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), MDCR_EL2_TDA | vperfs);
	vperf_vcpu_put(&a);

	/* New bits while put: the next load does not reuse the value cached at the last one. */
	assert_int_equal(vperf_vcpu_set_host_mdcr(&a, MDCR_EL2_TDOSA), VPERF_OK);
	vperf_vcpu_load(&a, &pcpu);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), MDCR_EL2_TDOSA | vperfs);
	vperf_vcpu_put(&a);

	/* With FEAT_TRF, TTRF is the hypervisor's to give. */
	sim_poke(0, VPERF_ENC_ID_AA64DFR0_EL1,
		 sim_peek(0, VPERF_ENC_ID_AA64DFR0_EL1) | VPERF_BIT(40));
	assert_int_equal(vperf_pcpu_init(&pcpu, &pcfg), VPERF_OK);
	assert_int_equal(vperf_vcpu_set_host_mdcr(&a, MDCR_EL2_TDE | MDCR_EL2_TTRF), VPERF_OK);
	vperf_vcpu_load(&a, &pcpu);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), MDCR_EL2_TDE | MDCR_EL2_TTRF | vperfs);
	vperf_vcpu_put(&a);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), host);
}

/* Bits that are not the hypervisor's to give for a vCPU (vperf's HPMN, TPM, HPMD; bit 31, a
 * field vperf does not know) are bad input: dropped, counted in the VM's statistics, logged and
 * refused with VPERF_EINVAL, the valid ones taken; the vCPU runs with vperf's fields. */
static void test_vcpu_host_mdcr_not_the_hypervisors(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	const struct vperf_vm_config vcfg = { .pmu_mode = VPERF_PMU_OFF };
	struct vperf_pcpu pcpu;
	struct vperf_vm vm;
	struct vperf_vcpu vcpu;
	struct fake_vcpu hv = { 0 };

	(void)state;
	bring_up(&pcpu, &pcfg, &vm, &vcfg, &vcpu, &hv);
	fake_hyp.logs = 0;
	assert_int_equal(vperf_vcpu_set_host_mdcr(&vcpu, MDCR_EL2_TDA | MDCR_EL2_HPMN_MASK |
								 MDCR_EL2_TPM | MDCR_EL2_HPMD |
								 VPERF_BIT(31)),
			 VPERF_EINVAL);
	assert_int_equal(fake_hyp.logs, 1);
	assert_string_equal(fake_hyp.last_log,
			    "vperf: vcpu_set_host_mdcr: MDCR_EL2 bits 0x8002005f "
			    "are not the hypervisor's (dropped)");
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(vm.stats.misuse, 1);
#endif
	vperf_vcpu_load(&vcpu, &pcpu);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2),
			 MDCR_EL2_TDA | 4 | MDCR_EL2_HPME | MDCR_EL2_TPM | MDCR_EL2_TPMCR);
	vperf_vcpu_put(&vcpu);
}

/* PMUIRQ: the host's flags ([HPMN, EPMN) and the cycle counter) are cleared and reported;
 * the first range and the agent's range are not touched. */
#ifdef CONFIG_VPERF_VPMU
static void test_pmu_irq_host_flags(void **state)
{
	const struct vperf_pcpu_config cfg = { .host_counters = 2, .agent_counters = 1 };
	struct vperf_pcpu pcpu;
	const struct sim_event *e;

	(void)state;
	assert_int_equal(vperf_pcpu_init(&pcpu, &cfg), VPERF_OK);
	sim_poke(0, VPERF_ENC_PMOVSSET_EL0, VPERF_BIT(0) | VPERF_BIT(5));
	assert_false(vperf_handle_pmu_irq(&pcpu));
	assert_int_equal(fake_hyp.host_ovs_calls, 0);

	sim_poke(0, VPERF_ENC_PMOVSSET_EL0,
		 VPERF_BIT(0) | VPERF_BIT(3) | VPERF_BIT(4) | VPERF_BIT(5) | VPERF_BIT(31));
	sim_clear_counts(0);
	assert_true(vperf_handle_pmu_irq(&pcpu));
	e = sim_trace_at(0, 1);
	assert_non_null(e);
	assert_int_equal(e->kind, SIM_WRITE);
	assert_int_equal(e->enc, VPERF_ENC_PMOVSCLR_EL0);
	assert_int_equal(e->val, VPERF_BIT(3) | VPERF_BIT(4) | VPERF_BIT(31));
	assert_int_equal(fake_hyp.host_ovs, VPERF_BIT(3) | VPERF_BIT(4) | VPERF_BIT(31));
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(pcpu.stats.host_overflows, 1);
#endif
}
#endif

#ifdef CONFIG_VPERF_XEN_ABI
static void test_xen_modes(void **state)
{
	(void)state;
	assert_int_equal(vperf_xen_pmu_mode(0, 1), VPERF_PMU_OFF);
	assert_int_equal(vperf_xen_pmu_mode(1u << 7, 1), VPERF_PMU_SELF);
	assert_int_equal(vperf_xen_pmu_mode(1u << 7, 2), VPERF_PMU_HV);
	assert_int_equal(vperf_xen_pmu_mode(1u << 7, 4), VPERF_PMU_ALL);
	assert_int_equal(vperf_xen_pmu_mode(1u << 7, 3), VPERF_PMU_OFF);
	assert_int_equal(vperf_xen_pmu_mode(1u << 7, 0), VPERF_PMU_OFF);
}
#endif

/* The save/restore blob follows what is configured, not the vPMU alone: with CONFIG_VPERF_VSPE a
 * VM with SPE and its PMU OFF saves a version 2 blob whose vPMU words (3-73) are 0, and restores
 * it; with neither a vPMU nor a vSPE configured there is no blob at all. */
static void test_blob_follows_config(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_OFF, .spe = true };
	static uint8_t blob[VPERF_VSPE_BLOB_SIZE];
	struct vperf_pcpu pcpu;
	struct vperf_vcpu vcpu;
	struct vperf_vm vm;

	(void)state;
	sim_poke(0, VPERF_ENC_ID_AA64DFR0_EL1,
		 PMUVER_V3P5 << ID_DFR0_PMUVER_SHIFT | 1ull << ID_DFR0_PMSVER_SHIFT);
	assert_int_equal(vperf_pcpu_init(&pcpu, &pcfg), VPERF_OK);
#ifdef CONFIG_VPERF_VSPE
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_OK);
	assert_int_equal(vperf_vcpu_init(&vcpu, &vm, NULL), VPERF_OK);
	assert_int_equal(vperf_vcpu_save(&vcpu, blob, sizeof(blob)), VPERF_VSPE_BLOB_SIZE);
	for (size_t i = 8 * 3; i < 8 * 74; i++)
		assert_int_equal(blob[i], 0);
	assert_int_equal(vperf_vcpu_restore(&vcpu, blob, sizeof(blob)), VPERF_OK);
	blob[8 * 3] ^= 1; /* PMCR_EL0.E of a vPMU the VM does not have (checksum broken too) */
	assert_int_equal(vperf_vcpu_restore(&vcpu, blob, sizeof(blob)), VPERF_EINVAL);
#else
	cfg.spe = false;
	assert_int_equal(vperf_vm_init(&vm, &cfg, NULL), VPERF_OK);
	assert_int_equal(vperf_vcpu_init(&vcpu, &vm, NULL), VPERF_OK);
#ifdef CONFIG_VPERF_VPMU
	assert_int_equal(vperf_vcpu_save(&vcpu, blob, sizeof(blob)), VPERF_ENODEV); /* no state */
#else
	assert_int_equal(vperf_vcpu_save(&vcpu, blob, sizeof(blob)), VPERF_ENOTSUP);
#endif
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_init_requires_ops, setup),
		cmocka_unit_test_setup(test_pcpu_ranges, setup),
		cmocka_unit_test_setup(test_pcpu_invalid_ranges, setup),
		cmocka_unit_test_setup(test_pcpu_without_pmu, setup),
		cmocka_unit_test_setup(test_vm_policy, setup),
		cmocka_unit_test_setup(test_pcpu_spe_el3, setup),
		cmocka_unit_test_setup(test_load_put_mdcr, setup),
		cmocka_unit_test_setup(test_host_mdcr_vperf_fields_replaced, setup),
		cmocka_unit_test_setup(test_mdcr_cache_epoch, setup),
		cmocka_unit_test_setup(test_vcpu_host_mdcr, setup),
		cmocka_unit_test_setup(test_vcpu_host_mdcr_not_the_hypervisors, setup),
		cmocka_unit_test_setup(test_blob_follows_config, setup),
#ifdef CONFIG_VPERF_VPMU
		cmocka_unit_test_setup(test_pmu_irq_host_flags, setup),
#endif
#ifdef CONFIG_VPERF_XEN_ABI
		cmocka_unit_test_setup(test_xen_modes, setup),
#endif
	};

	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
