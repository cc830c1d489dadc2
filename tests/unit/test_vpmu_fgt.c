// SPDX-License-Identifier: MIT
/*
 * The direct partition with FEAT_FGT on the executable model, which implements HDFGRTR_EL2 /
 * HDFGWTR_EL2's PMU traps per PE (arch/sim/pmu/pmu_fgt.c): what a direct guest's accesses trap
 * for, and how vperf answers the ones that do, so that a filter holds without trapping the
 * counters (the host's own values of the two registers: test_vpmu_fgt_host.c; HPMN = 0:
 * test_vpmu_hpmn0.c; the shared world: vpmu_fgt_util.h):
 *   - a direct VM with an event filter counts exactly with no trap on its counters, enables,
 *     flags, PMCR_EL0 or PMSELR_EL0; only its type writes (and reads, and PMCEID) trap;
 *   - a denied event written to PMEVTYPER<n>_EL0 or PMXEVTYPER_EL0, and PMCCFILTR_EL0, end as in
 *     the trapped partition: the same hardware value, the guest reading back what it wrote;
 *   - an EL0 type access that traps by HDFGRTR_EL2 alone is judged by the PMUSERENR_EL0 the
 *     guest's EL1 wrote untrapped (Arm DDI 0487 K.a D24.5, PMUSERENR_EL0);
 *   - the SPE events are hidden from a direct VM without a vSPE of its own, one profiled from
 *     outside included (such a VM is refused without FEAT_FGT), and shown to a VM with its own;
 *   - the model traps each register and direction by its own bit only, and reports any EL2
 *     access to HDFGRTR_EL2 / HDFGWTR_EL2 on a PE without FEAT_FGT.
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/fgt.h>
#include <vperf/pmu_regs.h>

#include "vpmu_fgt_util.h"

static void test_counts_with_no_counter_trap(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint64_t t;

	(void)state;
	start(a, 0);
	assert_int_equal(mdcr_tpm(0), 0);
	t = traps();
	guest_write(PMEVTYPER0_EL0, CPU_CYCLES);
	assert_int_equal(traps(), t + 1); /* HDFGWTR_EL2.PMEVTYPERn_EL0 */
	t = traps();
	guest_write(PMEVCNTR0_EL0, 0);
	guest_write(PMCCNTR_EL0, 0);
	guest_write(PMSELR_EL0, 1);
	guest_write(PMINTENCLR_EL1, ~0ull >> 33);
	guest_write(PMOVSCLR_EL0, 0);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	assert_int_equal(guest_read(PMCCNTR_EL0), 30);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 0);
	assert_int_equal(guest_read(PMSELR_EL0), 1);
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0x80000003ull);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(guest_read(PMCR_EL0) & PMCR_E, PMCR_E);
	assert_int_equal(traps(), t);
	assert_int_equal(sim_error_count(), 0);
}

static void test_denied_event_as_trapped(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 1);
	uint64_t t;

	(void)state;
	program(b, 1);
	program(a, 0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	t = traps();
	assert_int_equal(guest_read(PMEVTYPER1_EL0), INST_RETIRED);
	assert_int_equal(guest_read(PMCEID0_EL0) & VPERF_BIT(INST_RETIRED), 0);
	assert_int_equal(traps(), t + 2); /* HDFGRTR_EL2.PMEVTYPERn_EL0, PMCEIDn_EL0 */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVTYPER1_EL0),
			 sim_peek(1, VPERF_ENC_PMEVTYPER1_EL0));
	/* Through PMXEVTYPER_EL0, the selection written untrapped. */
	guest_write(PMSELR_EL0, 0);
	t = traps();
	guest_write(PMXEVTYPER_EL0, INST_RETIRED | PMEVTYPER_U);
	assert_int_equal(traps(), t + 1);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), INST_RETIRED | PMEVTYPER_U);
	/* A put while untrapped keeps the types the guest wrote, not the hardware's copy. */
	hv_leave(0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMEVTYPER1_EL0), INST_RETIRED);
	assert_int_equal(sim_error_count(), 0);
}

static void test_ccfiltr_as_trapped(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 1);
	uint64_t t, want = PMEVTYPER_P | PMEVTYPER_NSH | PMEVTYPER_M;

	(void)state;
	start(b, 1);
	guest_write(PMCCFILTR_EL0, want);
	start(a, 0);
	t = traps();
	guest_write(PMCCFILTR_EL0, want);
	assert_int_equal(traps(), t + 1);
	assert_int_equal(guest_read(PMCCFILTR_EL0), PMEVTYPER_P);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCFILTR_EL0),
			 sim_peek(1, VPERF_ENC_PMCCFILTR_EL0));
	/* PMXEVTYPER_EL0 with SEL = 31 is PMCCFILTR_EL0, trapped by the PMEVTYPERn bit. */
	guest_write(PMSELR_EL0, 31);
	t = traps();
	guest_write(PMXEVTYPER_EL0, PMEVTYPER_U);
	assert_int_equal(traps(), t + 1);
	assert_int_equal(guest_read(PMCCFILTR_EL0), PMEVTYPER_U);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * EL0's rights of a direct guest are what its EL1 last wrote to PMUSERENR_EL0, untrapped (Arm
 * DDI 0487 K.a D24.5, PMUSERENR_EL0): with EN set there, an EL0 read of PMEVTYPER0_EL0 passes the
 * PE's own EL0 check and traps to EL2 by HDFGRTR_EL2.PMEVTYPERn_EL0 alone, and vperf must judge
 * it by that value (the shadow still holds the 0 of before), answering with the type instead of
 * an UNDEF. The grant is the guest's from then on: after the vCPU is put and loaded again (another
 * VM's vCPU took the counters in between, so its state is restored from the shadow) its EL0 still
 * has the PMU, and its EL1 reads back what it wrote. Mutations tried: vperf_vpmu_sync_selection
 * (vpmu/fgt.c) not copying PMUSERENR_EL0 (the EL0 read is UNDEF), and copying it without EN
 * (likewise).
 */
static void test_el0_type_trap_judged_by_untrapped_grant(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *c = hv_vcpu(2, 2);
	uint64_t t;

	(void)state;
	start(a, 0);
	guest_write(PMEVTYPER0_EL0, CPU_CYCLES);
	assert_int_equal(mdcr_tpm(0), 0);
	t = traps();
	guest_write(PMUSERENR_EL0, PMUSERENR_EN);
	assert_int_equal(traps(), t); /* untrapped: the hardware's */
	sim_set_el(0);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), CPU_CYCLES);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	sim_set_el(1);
	start(c, 0);
	hv_enter(a, 0);
	sim_set_el(0);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), CPU_CYCLES);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	guest_read(PMCCNTR_EL0);
	assert_int_not_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	assert_int_not_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL1);
	sim_set_el(1);
	assert_int_equal(guest_read(PMUSERENR_EL0), PMUSERENR_EN);
	assert_int_equal(sim_error_count(), 0);
}

/* The SPE events (SAMPLE_POP to SAMPLE_COLLISION, PMCEID0_EL0 bits 32-35) of a PE with SPE are
 * hidden from a VM without a vSPE of its own, whatever its filter: a direct VM that allows every
 * event still runs with its types and PMCEID traps, so that neither an untrapped PMCEID0_EL0 read
 * nor an untrapped type write shows it the host's sampling. Without FEAT_FGT that cannot hold:
 * such a direct VM is refused. Found by the trap fuzzer (tests/fuzz/regressions/trap/20-*). */
static void test_spe_events_hidden_from_direct(void **state)
{
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 2, false);
	const uint64_t spe_events = 0xfull << 32;
	struct sim_pe_config cfg;
	struct hv_vcpu *a;

	(void)state;
	model(&cfg);
	cfg.pmsver = 1;
	hv_init(&cfg, 1);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	a = hv_vcpu(0, 0);
	start(a, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCEID0_EL0) & spe_events, spe_events);
	assert_int_equal(guest_read(PMCEID0_EL0) & spe_events, 0);
	hv_leave(0);
	start(a, 0);
	assert_int_equal(mdcr_tpm(0), 0); /* untrapped, but for the types and PMCEID */
	assert_int_equal(guest_read(PMCEID0_EL0) & spe_events, 0);
	assert_int_equal(sim_error_count(), 0);

	model(&cfg);
	cfg.pmsver = 1;
	cfg.fgt = false;
	hv_init(&cfg, 1);
	assert_int_equal(hv_vm(0, &vm), VPERF_EINVAL);
}

/* A VM profiled from outside (VPERF_SPE_BUF_EL2) has SPE, but the host's: its SAMPLE_* events
 * count the host's sampling of it and are hidden from it like from a VM without SPE, so a direct
 * one still runs with its types and PMCEID trapped. A VM with a vSPE of its own sees them, and
 * with every event allowed reads PMCEID0_EL0 from the hardware, untrapped. */
static void test_spe_events_by_spe_owner(void **state)
{
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 2, false);
	const uint64_t spe_events = 0xfull << 32;
	struct sim_pe_config cfg;
	struct hv_vcpu *a;
	uint64_t before;

	(void)state;
#ifndef CONFIG_VPERF_VSPE
	skip(); /* a VM with SPE is VPERF_ENOTSUP without the vSPE (a vPMU-only build) */
#endif
	model(&cfg);
	cfg.pmsver = 1;
	hv_init_host_spe(&cfg, 1, true);
	vm.spe = true;
	vm.spe_buffer = VPERF_SPE_BUF_EL2;
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	vm.spe_buffer = VPERF_SPE_BUF_EL1_TRAPPED;
	assert_int_equal(hv_vm(1, &vm), VPERF_OK);

	a = hv_vcpu(0, 0);
	start(a, 0);
	assert_int_equal(mdcr_tpm(0), 0);
	before = traps();
	assert_int_equal(guest_read(PMCEID0_EL0) & spe_events, 0);
	assert_int_equal(traps(), before + 1);
	hv_leave(0);

	a = hv_vcpu(0, 1);
	start(a, 0);
	assert_int_equal(mdcr_tpm(0), 0);
	before = traps();
	assert_int_equal(guest_read(PMCEID0_EL0) & spe_events, spe_events);
	assert_int_equal(traps(), before);
	assert_int_equal(sim_error_count(), 0);
}

/* The model's rules (the oracle): each bit traps its registers and direction only;
 * PMEVCNTRn_EL0 covers PMXEVCNTR_EL0, PMCCFILTR_EL0 does not cover PMXEVTYPER_EL0. */
static void test_model_fgt_rules(void **state)
{
	struct hv_vcpu *c = hv_vcpu(2, 2);
	uint64_t t;

	(void)state;
	start(c, 0);
	guest_write(PMSELR_EL0, 0);
	sim_poke(0, VPERF_ENC_HDFGWTR_EL2, HDFG_PMEVCNTRN);
	t = traps();
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(traps(), t);
	guest_write(PMEVCNTR0_EL0, 5);
	guest_write(PMXEVCNTR_EL0, 6);
	assert_int_equal(traps(), t + 2);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 6);
	sim_poke(0, VPERF_ENC_HDFGWTR_EL2, 0);
	sim_poke(0, VPERF_ENC_HDFGRTR_EL2, HDFG_PMCCFILTR);
	guest_write(PMSELR_EL0, 31);
	t = traps();
	guest_read(PMXEVTYPER_EL0);
	guest_write(PMCCFILTR_EL0, 0);
	assert_int_equal(traps(), t);
	guest_read(PMCCFILTR_EL0);
	assert_int_equal(traps(), t + 1);
	sim_poke(0, VPERF_ENC_HDFGRTR_EL2, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* The model (the oracle): without FEAT_FGT on a PE, an EL2 access to HDFGRTR_EL2 or
 * HDFGWTR_EL2 is UNDEFINED; the model reports each as an error and keeps the register as it
 * was. A PE with FEAT_FGT next to it accepts the same accesses. */
static void test_model_no_fgt_el2_access_flagged(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	model(&cfg);
	cfg.cpus_without_fgt = VPERF_BIT(1);
	hv_init(&cfg, 2);
	assert_int_equal(sim_error_count(), 0);
	sim_set_cpu(1);
	write_sysreg(HDFG_PMEVTYPERN, HDFGWTR_EL2);
	assert_int_equal(sim_error_count(), 1);
	write_sysreg(HDFG_PMEVTYPERN, HDFGRTR_EL2);
	assert_int_equal(sim_error_count(), 2);
	assert_int_equal(sim_peek(1, VPERF_ENC_HDFGWTR_EL2), 0);
	assert_int_equal(sim_peek(1, VPERF_ENC_HDFGRTR_EL2), 0);
	(void)read_sysreg(HDFGRTR_EL2);
	assert_int_equal(sim_error_count(), 3);
	sim_set_cpu(0);
	write_sysreg(HDFG_PMEVTYPERN, HDFGWTR_EL2);
	assert_int_equal(read_sysreg(HDFGWTR_EL2), HDFG_PMEVTYPERN);
	assert_int_equal(sim_error_count(), 3);
	sim_poke(0, VPERF_ENC_HDFGWTR_EL2, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_counts_with_no_counter_trap, setup),
		cmocka_unit_test_setup(test_denied_event_as_trapped, setup),
		cmocka_unit_test_setup(test_ccfiltr_as_trapped, setup),
		cmocka_unit_test_setup(test_spe_events_hidden_from_direct, setup),
		cmocka_unit_test_setup(test_spe_events_by_spe_owner, setup),
		cmocka_unit_test_setup(test_model_fgt_rules, setup),
		cmocka_unit_test_setup(test_model_no_fgt_el2_access_flagged, setup),
		cmocka_unit_test_setup(test_el0_type_trap_judged_by_untrapped_grant, setup),
	};

	return cmocka_run_group_tests_name("vpmu_fgt", tests, NULL, NULL);
}
