// SPDX-License-Identifier: MIT
/*
 * A heterogeneous platform (sim_model_init_cpus): one pCPU with an older PMU than the others.
 * Every guest-visible consequence of the PMU version must follow one platform-wide version, the
 * lowest, whichever pCPU the vCPU runs on: ID_AA64DFR0_EL1.PMUVer (Arm DDI 0487 K.a,
 * ID_AA64DFR0_EL1), the PMCR_EL0 fields (LP from PMUv3p5, I5.3.21), the event counters' width
 * (64 bits from PMUv3p5, 32 before: I5.3, PMEVCNTR<n>), PMMIR_EL1 (from PMUv3p4), the blob, the
 * events PMCEID0/1_EL0 advertise (those every pCPU counts).
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/fgt.h>
#include <vperf/pmu_regs.h>

#include <sim/spe.h>

#include "hv.h"

#define EV_INST		0x08u
#define EV_CYCLES	0x11u
#define ID_PMUVER(dfr0) (((dfr0) >> 8) & 0xfu)

static const struct sim_uop op3 = { .pc = 0x4000, .latency = 3, .type = SIM_UOP_OTHER };

static enum sim_access last(void)
{
	return sim_guest_stats(sim_current_cpu())->last;
}

/* CPU 0 has PMUVer old, the others PMUv3p5 (6); N = 6, the host keeps 2. VM 0: trapped with 3
 * counters; VM 1: emulated with 3 on 2 slots. */
static void world(uint8_t old)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];
	struct vperf_vm_config vm = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 3 };

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		sim_default_config(&cfgs[cpu]);
		cfgs[cpu].pmuver = cpu ? 6 : old;
	}
	hv_init_cpus(cfgs, 2);
	vperf_pmu_filter_allow_all(&vm.filter);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	vm.partition = VPERF_PART_EMULATED;
	vm.emu_slots = 2;
	assert_int_equal(hv_vm(1, &vm), VPERF_OK);
}

/* The vCPU is told the platform's PMU version on every pCPU, and its PMCR_EL0 agrees. */
static void test_id_view_is_platform_wide(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	world(5);
	vc = hv_vcpu(0, 0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		uint64_t hw = sim_peek(cpu, VPERF_ENC_ID_AA64DFR0_EL1);

		assert_int_equal(ID_PMUVER(hw), cpu ? 6 : 5);
		assert_int_equal(ID_PMUVER(vperf_vcpu_id_dfr0(&vc->v, hw)), 5);
		hv_enter(vc, cpu);
		guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_LP, 0); /* RES0 before PMUv3p5 */
		hv_leave(cpu);
	}
}

/* On a PMUv3p5 pCPU the hardware counter goes on past bit 31 (64 bits, overflowing at 32 with
 * LP = 0); a guest told PMUv3p4 has 32-bit counters: it reads the wrapped value, on every path
 * (the trap fast path, PMXEVCNTR_EL0, PMSWINC, the shadow after a put, a blob). */
static void check_width(unsigned int vm)
{
	uint8_t blob[VPERF_VPMU_BLOB_SIZE];
	struct hv_vcpu *vc, *other;

	world(5);
	vc = hv_vcpu(0, vm);
	other = hv_vcpu(1, vm);
	hv_enter(vc, 1);
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMEVTYPER1_EL0, 0); /* SW_INCR */
	guest_write(PMCNTENSET_EL0, 3);
	guest_write(PMEVCNTR0_EL0, 0xfffffff0ull);
	guest_write(PMEVCNTR1_EL0, 0xfffffffeull);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 6); /* 18 cycles */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 2);
	guest_write(PMSELR_EL0, 0);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 2);
	assert_int_equal(guest_read(PMOVSSET_EL0) & 1, 1);
	guest_write(PMSWINC_EL0, 2);
	guest_write(PMSWINC_EL0, 2);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	guest_write(PMSWINC_EL0, 2);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1);
	hv_enter(other, 1);
	hv_leave(1);
	assert_int_equal(vperf_vcpu_save(&vc->v, blob, sizeof(blob)), VPERF_VPMU_BLOB_SIZE);
	assert_int_equal(vperf_vcpu_restore(&other->v, blob, sizeof(blob)), VPERF_OK);
	hv_enter(vc, 0);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 2);
	hv_enter(other, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 2);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1);
	assert_int_equal(sim_error_count(), 0);
}

static void test_counter_width_is_platform_wide(void **state)
{
	(void)state;
	check_width(0);
	check_width(1);
}

/* PMMIR_EL1 exists from PMUv3p4: with a PMUv3p1 pCPU in the platform the guest is told PMUv3p1
 * and gets UNDEF on the PMUv3p5 pCPUs as well. */
static void test_pmmir_follows_platform(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	world(4);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 1);
	assert_int_equal(
		ID_PMUVER(vperf_vcpu_id_dfr0(&vc->v, sim_peek(1, VPERF_ENC_ID_AA64DFR0_EL1))), 4);
	guest_read(PMMIR_EL1);
	assert_int_equal(last(), SIM_ACC_UNDEF);
}

/* vperf started again on world(5)'s model with CPU 0 not counting INST_RETIRED, pCPUs 0 and 1
 * brought up in the order given (first, then the other), VM 0 after them: a pCPU without an
 * event a VM was shown is refused once the VM exists (test_pcpu_bringup.c, test_lower_pmceid). */
static struct hv_vcpu *without_inst_on_cpu0(unsigned int first)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct vperf_vm_config vm = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 3 };

	world(5);
	vperf_init(hv_ops());
	sim_poke(0, VPERF_ENC_PMCEID0_EL0,
		 sim_peek(0, VPERF_ENC_PMCEID0_EL0) & ~VPERF_BIT(EV_INST));
	for (unsigned int k = 0; k < 2; k++) {
		unsigned int cpu = k ? 1 - first : first;

		sim_set_cpu(cpu);
		assert_int_equal(vperf_pcpu_init(&hv.pcpu[cpu], &pcfg), VPERF_OK);
		hv_host_boot(cpu);
	}
	sim_set_cpu(0);
	vperf_pmu_filter_allow_all(&vm.filter);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	return hv_vcpu(0, 0);
}

/* PMCEID0/1_EL0: an event one pCPU does not count is not advertised on any (CPU 0 lacks
 * INST_RETIRED here, brought up last). */
static void test_pmceid_is_platform_wide(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	vc = without_inst_on_cpu0(1);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		uint64_t ceid;

		hv_enter(vc, cpu);
		ceid = guest_read(PMCEID0_EL0);
		assert_int_equal(ceid & VPERF_BIT(EV_INST), 0);
		assert_int_equal(ceid & VPERF_BIT(EV_CYCLES), VPERF_BIT(EV_CYCLES));
		hv_leave(cpu);
	}
}

/* The same whatever order the pCPUs come up in: CPU 0, without INST_RETIRED, before CPU 1, which
 * counts it, the platform still hides it (an AND over every pCPU, not the last one's events). */
static void test_pmceid_any_pcpu_order(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	vc = without_inst_on_cpu0(0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		hv_enter(vc, cpu);
		assert_int_equal(guest_read(PMCEID0_EL0) & VPERF_BIT(EV_INST), 0);
		hv_leave(cpu);
	}
}

/* A direct VM (no filter; no SPE, whose events would be hidden anyway) on pCPUs 0 and 1, PMUv3p5
 * with FEAT_FGT, brought up before it; CPU 0 without INST_RETIRED when differ (big.LITTLE
 * clusters), pCPU 1 without FEAT_FGT when no_fgt1. Its vperf_vm_init's result. */
static int direct_world(bool differ, bool no_fgt1)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct vperf_vm_config vm = { .pmu_mode = VPERF_PMU_SELF,
				      .partition = VPERF_PART_DIRECT,
				      .nr_counters = 4 };
	struct sim_pe_config cfgs[SIM_MAX_CPUS];

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		sim_default_config(&cfgs[cpu]);
		sim_spe_default_config(&cfgs[cpu], 0);
		cfgs[cpu].pmuver = 6;
		cfgs[cpu].fgt = true;
	}
	cfgs[0].cpus_without_fgt = no_fgt1 ? 2u : 0u;
	for (unsigned int cpu = 1; cpu < SIM_MAX_CPUS; cpu++)
		cfgs[cpu].cpus_without_fgt = cfgs[0].cpus_without_fgt;
	hv_init_cpus(cfgs, 2);
	vperf_init(hv_ops());
	if (differ)
		sim_poke(0, VPERF_ENC_PMCEID0_EL0,
			 sim_peek(0, VPERF_ENC_PMCEID0_EL0) & ~VPERF_BIT(EV_INST));
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		sim_set_cpu(cpu);
		assert_int_equal(vperf_pcpu_init(&hv.pcpu[cpu], &pcfg), VPERF_OK);
		hv_host_boot(cpu);
	}
	sim_set_cpu(0);
	vperf_pmu_filter_allow_all(&vm.filter);
	return hv_vm(0, &vm);
}

static uint64_t el2_traps(unsigned int cpu)
{
	return sim_guest_stats(cpu)->el2_traps;
}

/* pmceid = the VM's PMCEID0_EL0 read on cpu once it runs direct (its first access traps and
 * hands it the counters); the traps that read and a type write and a counter read took. */
static void read_direct(struct hv_vcpu *vc, unsigned int cpu, uint64_t *pmceid,
			uint64_t *pmceid_traps, uint64_t *other_traps)
{
	uint64_t t0;

	hv_enter(vc, cpu);
	guest_read(PMCR_EL0);
	t0 = el2_traps(cpu);
	*pmceid = guest_read(PMCEID0_EL0);
	*pmceid_traps = el2_traps(cpu) - t0;
	t0 = el2_traps(cpu);
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_read(PMEVCNTR0_EL0);
	*other_traps = el2_traps(cpu) - t0;
	hv_leave(cpu);
}

/* PMCEID0/1_EL0 of a direct VM on pCPUs whose common events differ: the events every pCPU counts,
 * on each pCPU, not that pCPU's own (CPU 1 counts INST_RETIRED, CPU 0 does not); the read traps
 * (FEAT_FGT's PMCEID<n>_EL0 trap alone), the types and counters stay untrapped. */
static void test_pmceid_direct_platform_wide(void **state)
{
	uint64_t ceid, ceid_traps, other_traps;
	struct hv_vcpu *vc;

	(void)state;
	assert_int_equal(direct_world(true, false), VPERF_OK);
	vc = hv_vcpu(0, 0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		read_direct(vc, cpu, &ceid, &ceid_traps, &other_traps);
		assert_int_equal(ceid, sim_peek(0, VPERF_ENC_PMCEID0_EL0));
		assert_int_equal(ceid_traps, 1);
		assert_int_equal(other_traps, 0);
	}
	assert_int_not_equal(sim_peek(1, VPERF_ENC_PMCEID0_EL0),
			     sim_peek(0, VPERF_ENC_PMCEID0_EL0));
	assert_int_equal(sim_error_count(), 0);
}

/* Where every pCPU counts the same events the read does not trap: the hardware's is the
 * platform's, and no fine-grained trap is set for it. */
static void test_pmceid_direct_alike_untrapped(void **state)
{
	uint64_t ceid, ceid_traps, other_traps;
	struct hv_vcpu *vc;

	(void)state;
	assert_int_equal(direct_world(false, false), VPERF_OK);
	vc = hv_vcpu(0, 0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		read_direct(vc, cpu, &ceid, &ceid_traps, &other_traps);
		assert_int_equal(ceid, sim_peek(cpu, VPERF_ENC_PMCEID0_EL0));
		assert_int_equal(ceid_traps + other_traps, 0);
		assert_int_equal(hv.pcpu[cpu].cur_hdfgrtr & HDFGRTR_PMCEIDN, 0);
	}
}

/* Differing events and a pCPU without FEAT_FGT: no trap could show the direct VM the platform's
 * events there, so the direct partition is refused (a trapped VM is not: it traps PMCEID by
 * MDCR_EL2.TPM). Alike events without FEAT_FGT: the direct partition stays possible. */
static void test_pmceid_direct_needs_fgt(void **state)
{
	(void)state;
	assert_int_equal(direct_world(true, true), VPERF_EINVAL);
	assert_int_equal(direct_world(false, true), VPERF_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_id_view_is_platform_wide),
		cmocka_unit_test(test_counter_width_is_platform_wide),
		cmocka_unit_test(test_pmmir_follows_platform),
		cmocka_unit_test(test_pmceid_is_platform_wide),
		cmocka_unit_test(test_pmceid_direct_platform_wide),
		cmocka_unit_test(test_pmceid_direct_alike_untrapped),
		cmocka_unit_test(test_pmceid_direct_needs_fgt),
		cmocka_unit_test(test_pmceid_any_pcpu_order),
	};

	return cmocka_run_group_tests_name("vpmu_hetero", tests, NULL, NULL);
}
