// SPDX-License-Identifier: MIT
/* Shared set-up of the FEAT_FGT and FEAT_HPMN0 tests (see vpmu_fgt_util.h). */
#include "cmocka_wrap.h"
#include "vpmu_fgt_util.h"
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

const struct sim_uop op3 = { .pc = 0x4000, .latency = 3, .type = SIM_UOP_OTHER };

struct vperf_vm_config policy(enum vperf_partition part, uint8_t nr, bool filtered)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = part,
				       .nr_counters = nr };

	vperf_pmu_filter_allow_all(&cfg.filter);
	if (filtered)
		vperf_pmu_filter_set(&cfg.filter, INST_RETIRED, false);
	return cfg;
}

void model(struct sim_pe_config *cfg)
{
	hv_default_config(cfg);
	cfg->fgt = true;
}

int setup(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config vm;

	(void)state;
	model(&cfg);
	hv_init(&cfg, 2);
	vm = policy(VPERF_PART_DIRECT, 2, true);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	vm = policy(VPERF_PART_TRAPPED, 2, true);
	assert_int_equal(hv_vm(1, &vm), VPERF_OK);
	vm = policy(VPERF_PART_DIRECT, 2, false);
	assert_int_equal(hv_vm(2, &vm), VPERF_OK);
	return 0;
}

uint64_t traps(void)
{
	return sim_guest_stats(sim_current_cpu())->el2_traps;
}

uint64_t mdcr_tpm(unsigned int cpu)
{
	return sim_peek(cpu, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM;
}

void start(struct hv_vcpu *v, unsigned int cpu)
{
	hv_enter(v, cpu);
	guest_write(PMCNTENSET_EL0, 0x80000003ull);
}

void program(struct hv_vcpu *v, unsigned int cpu)
{
	start(v, cpu);
	guest_write(PMEVTYPER0_EL0, CPU_CYCLES);
	guest_write(PMEVTYPER1_EL0, INST_RETIRED);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
}
