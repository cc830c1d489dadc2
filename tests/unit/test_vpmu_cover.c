// SPDX-License-Identifier: MIT
/*
 * vPMU behaviours of the least covered corners of virt/ (gcov over the unit tests, then the
 * mutations of tests/mutate/mutations.txt that survived there), each checked from where a guest,
 * the host or the hypervisor sees it (Arm DDI 0487 K.a: PMUSERENR_EL0 and PMSELR_EL0 in D24.5,
 * the PMU registers in I5.3, the event numbers in D14.1): EL0's PMUSERENR_EL0 rights, PMMIR_EL1
 * before PMUv3p4, the policy's interrupt numbers and filters, the event filter's ranges, what
 * a switch carries for a direct guest, the host's PMUIRQ around a direct guest, and the API's
 * misuse checks. Each test names the mutation it kills.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/esr.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

/* The default model (PMUv3p5, N = 6, EL3) whatever HV_PMUVER says: these tests name their PE. */
static void init_model(uint8_t pmuver, bool el3, unsigned int host_counters)
{
	struct sim_pe_config cfg;

	sim_default_config(&cfg);
	cfg.pmuver = pmuver;
	cfg.el3 = el3;
	hv_init(&cfg, host_counters);
}

static struct hv_vcpu *self_guest(uint8_t nr)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, nr);

	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	return hv_vcpu(0, 0);
}

static enum vperf_trap_result raw(uint32_t enc, bool read, uint64_t *gprs, unsigned int el)
{
	return hv_raw_trap(vperf_esr_encode_sysreg(enc, 1, read), gprs, el);
}

/* ---- EL0 and PMUSERENR_EL0 (D24.5) ----------------------------------------------------------- */

/*
 * PMUSERENR_EL0 is readable at EL0 whatever its EN says (EL0 may always learn what it is allowed):
 * with only SW set, an EL0 read traps to EL2 (MDCR_EL2.TPM) and reads the guest's value.
 * Kills "EL0 with PMUSERENR_EL0.EN = 0 cannot read PMUSERENR_EL0".
 */
static void test_el0_reads_pmuserenr_without_en(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMUSERENR_EL0, PMUSERENR_SW);
	sim_set_el(0);
	assert_int_equal(guest_read(PMUSERENR_EL0), PMUSERENR_SW);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	sim_set_el(1);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * EN opens the PMU registers of EL0, not the EL1 ones, and PMUSERENR_EL0 stays read-only there:
 * syndromes claiming an EL0 MSR PMUSERENR_EL0 or an EL0 MRS PMMIR_EL1 (both UNDEFINED at EL0,
 * which no hardware traps) are UNDEF, and the guest's PMUSERENR_EL0 is unchanged.
 * Kills "EL0 with PMUSERENR_EL0.EN = 1 writes PMUSERENR_EL0" and "... reads PMMIR_EL1".
 */
static void test_el0_en_keeps_el1_registers(void **state)
{
	uint64_t gprs[31] = { 0 };
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMUSERENR_EL0, PMUSERENR_EN);
	gprs[1] = 0;
	assert_int_equal(raw(VPERF_ENC_PMUSERENR_EL0, false, gprs, 0), VPERF_TRAP_UNDEF);
	assert_int_equal(guest_read(PMUSERENR_EL0), PMUSERENR_EN);
	gprs[1] = 0x5a5a;
	assert_int_equal(raw(VPERF_ENC_PMMIR_EL1, true, gprs, 0), VPERF_TRAP_UNDEF);
	assert_int_equal(gprs[1], 0x5a5a);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * CR grants EL0 reads of PMCCNTR_EL0, ER reads of the event counters: never writes. A write
 * syndrome from EL0 with CR = ER = 1, EN = 0 (the hardware would have trapped it to the guest's
 * EL1) is not performed: UNDEF, the counters keep their values.
 * Kills "EL0 with PMUSERENR_EL0.CR = 1 ... writes PMCCNTR_EL0" and "... ER = 1 ... writes an event
 * counter".
 */
static void test_el0_cr_er_grant_reads_only(void **state)
{
	uint64_t gprs[31] = { 0 };
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMCCNTR_EL0, 7);
	guest_write(PMEVCNTR0_EL0, 9);
	guest_write(PMUSERENR_EL0, PMUSERENR_CR | PMUSERENR_ER);
	gprs[1] = 1234;
	assert_int_equal(raw(VPERF_ENC_PMCCNTR_EL0, false, gprs, 0), VPERF_TRAP_UNDEF);
	assert_int_equal(raw(VPERF_ENC_PMEVCNTR0_EL0, false, gprs, 0), VPERF_TRAP_UNDEF);
	assert_int_equal(raw(VPERF_ENC_PMXEVCNTR_EL0, false, gprs, 0), VPERF_TRAP_UNDEF);
	assert_int_equal(guest_read(PMCCNTR_EL0), 7);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 9);
	/* The reads they do grant are answered. */
	assert_int_equal(raw(VPERF_ENC_PMCCNTR_EL0, true, gprs, 0), VPERF_TRAP_HANDLED);
	assert_int_equal(gprs[1], 7);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- PMMIR_EL1 (I5.3.42) ---------------------------------------------------------------------- */

/*
 * PMMIR_EL1 exists from PMUv3p4. On a PMUv3p1 PE a syndrome naming it is UNDEF for the guest, and
 * vperf does not read it at EL2 (UNDEFINED there too); on PMUv3p4 the guest reads the PE's value.
 * Kills "PMMIR_EL1 read at EL2 on a PE without PMUv3p4".
 */
static void test_pmmir_needs_pmuv3p4(void **state)
{
	uint64_t gprs[31] = { 0 };
	struct hv_vcpu *a;

	(void)state;
	init_model(4, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, 0);
	gprs[1] = 0x77;
	assert_int_equal(raw(VPERF_ENC_PMMIR_EL1, true, gprs, 1), VPERF_TRAP_UNDEF);
	assert_int_equal(gprs[1], 0x77);
	assert_int_equal(sim_error_count(), 0);

	init_model(5, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	sim_poke(0, VPERF_ENC_PMMIR_EL1, 0x1234);
	assert_int_equal(guest_read(PMMIR_EL1), 0x1234);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- the policy --------------------------------------------------------------------------------- */

/*
 * The virtual PMUIRQ and PMBIRQ are PPIs, INTIDs 16-31 (GICv3): 15 (an SGI) and 32 (the first
 * SPI) are refused, 16 and 31 taken. Kills "a vPMU interrupt number 32 (an SPI) accepted" and
 * "a vSPE interrupt number 32 ...".
 */
static void test_virqs_are_ppis(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct sim_pe_config model;

	(void)state;
	sim_default_config(&model);
	model.pmsver = 1;
	hv_init(&model, 2);
	for (unsigned int i = 0; i < 2; i++) {
		const uint32_t bad[] = { 15, 32 }, good[] = { 16, 31 };

		cfg.pmu_virq = bad[i];
		assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
		cfg.pmu_virq = good[i];
		assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	}
#ifdef CONFIG_VPERF_VSPE
	cfg = policy(VPERF_PMU_OFF, 0);
	cfg.spe = true;
	for (unsigned int i = 0; i < 2; i++) {
		const uint32_t bad[] = { 15, 32 }, good[] = { 16, 31 };

		cfg.spe_virq = bad[i];
		assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
		cfg.spe_virq = good[i];
		assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	}
#endif
}

/*
 * The direct partition cannot enforce an event filter (the guest programs the hardware): a
 * filter that denies any event, an extended common event (0x4000-0x403F, D14.1) included, makes
 * the policy EINVAL. Kills "the direct partition given to a VM whose filter denies an event of
 * 0x4000-0x403F".
 */
static void test_direct_refuses_any_denied_event(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);

	(void)state;
	init_model(6, true, 2);
	cfg.partition = VPERF_PART_DIRECT;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	vperf_pmu_filter_set(&cfg.filter, 0x4004, false);
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
	vperf_pmu_filter_allow_all(&cfg.filter);
	vperf_pmu_filter_set(&cfg.filter, 0x8000, false); /* allow_other */
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
}

/*
 * Whatever the mode, counts a PMU can have: PMCR_EL0.N is 5 bits (I5.3.21), so 31 slots at most,
 * also for a VM whose PMU is OFF (its blob is checked against them). Kills "a VM (PMU OFF) with
 * more emulated slots than a PMU can have accepted".
 */
static void test_off_vm_counts_bounded(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_OFF };

	(void)state;
	init_model(6, true, 2);
	cfg.emu_slots = VPERF_PMU_MAX_COUNTERS;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	cfg.emu_slots = VPERF_PMU_MAX_COUNTERS + 1;
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
}

/*
 * The guest has no EL2: its ID_AA64DFR0_EL1 shows no FEAT_HPMN0 (HPMN0, bits [63:60]) even on a
 * PE that has it, with the PE's other fields kept. Kills "a guest's ID_AA64DFR0_EL1 shows
 * FEAT_HPMN0".
 */
static void test_id_dfr0_hides_hpmn0(void **state)
{
	uint64_t hw = VPERF_BIT(60) | 6u << 8 | 0x6; /* HPMN0, PMUv3p5, DebugVer */
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	assert_int_equal(vperf_vcpu_id_dfr0(&a->v, hw), 6u << 8 | 0x6);
}

/* ---- misuse of the API -------------------------------------------------------------------------- */

/*
 * A load onto a pCPU that another vCPU has not been put from is the hypervisor's bug (the other
 * vCPU's counts would be lost): counted and logged. Resetting a loaded vCPU is refused, and its
 * state in the hardware stays. Kills "a load onto a pCPU another vCPU is still loaded on is not
 * reported" and "a loaded vCPU is reset under the hardware that holds its state".
 */
static void test_misuse_is_caught(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a, *b;

	(void)state;
	init_model(6, true, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 0);
	hv_enter(a, 0);
	guest_write(PMEVCNTR0_EL0, 42);
	assert_int_equal(vperf_vcpu_reset(&a->v), VPERF_EBUSY);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 42);
	hv.last_log[0] = '\0';
	sim_enter_el2(0);
	vperf_vcpu_load(&b->v, &hv.pcpu[0]);
	sim_exit_el2(0);
	assert_non_null(strstr(hv.last_log, "without vcpu_put"));
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(hv.pcpu[0].stats.misuse, 1);
#endif
}

/* ---- the event filter's ranges (D14.1, I5.3.6-7, I5.3.30) --------------------------------------- */

/*
 * The filter has a bit for each common event 0x00-0x3F (allow[0]) and each extended common event
 * 0x4000-0x403F (allow[1]); everything else, IMPLEMENTATION DEFINED events included, follows
 * allow_other. PMCEID1_EL0 bits [31:0] are events 0x20-0x3F: a PE that implements 0x23 and 0x24
 * shows the guest only 0x24 when its filter denies 0x23 (and nothing the PE lacks). A denied
 * type reaches the hardware excluded from every EL the guest could count (P = U = 1, NSK = NSU
 * = 0 on this PE with EL3); an allowed one counts the guest's EL1 and EL0 (NSK = NSU = 1).
 * Kills "PMCEID1_EL0 judges common events 0x20-0x3F by the filter's allow_other", "PMCEID
 * lists events the hardware does not implement", "events 0x4000-0x403F judged by allow_other"
 * and "IMPLEMENTATION DEFINED events ... count although the filter denies other events".
 */
static void test_filter_ranges(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 4);
	const uint64_t denied = P_BIT | U_BIT, allowed = P_BIT | U_BIT | NSK_BIT | NSU_BIT;
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	/* The PEs implement events 0x23 and 0x24 (vperf_pcpu_init reads PMCEID). */
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		sim_poke(cpu, VPERF_ENC_PMCEID1_EL0, VPERF_BIT(3) | VPERF_BIT(4));
	hv_restart_vperf(2);
	vperf_pmu_filter_set(&cfg.filter, 0x23, false);
	vperf_pmu_filter_set(&cfg.filter, 0x4004, false);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCEID1_EL0), VPERF_BIT(4));

	guest_write(PMEVTYPER0_EL0, 0x4004);
	guest_write(PMEVTYPER1_EL0, 0x4005);
	assert_int_equal(hw_evtyper(0), denied | 0x4004);
	assert_int_equal(hw_evtyper(1), allowed | 0x4005);

	/* allow_other = 0: an IMPLEMENTATION DEFINED event (0xC0) is denied, 0x4005 is not. */
	hv_leave(0);
	cfg = policy(VPERF_PMU_SELF, 4);
	vperf_pmu_filter_set(&cfg.filter, 0xc0, false);
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
	hv_enter(hv_vcpu(1, 1), 0);
	guest_write(PMEVTYPER0_EL0, 0xc0);
	guest_write(PMEVTYPER1_EL0, 0x4005);
	assert_int_equal(hw_evtyper(0), denied | 0xc0);
	assert_int_equal(hw_evtyper(1), allowed | 0x4005);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0xc0); /* the guest reads what it wrote */
	assert_int_equal(sim_error_count(), 0);
}

/* ---- what a switch carries for a direct guest (I5.3.21, I5.3.30, D24.5) ------------------------- */

static struct vperf_vm_config direct(uint8_t nr)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, nr);

	cfg.partition = VPERF_PART_DIRECT;
	return cfg;
}

/*
 * A direct guest's untrapped PMXEVCNTR_EL0 uses the hardware's PMSELR_EL0: the selection it wrote
 * untrapped goes with it across a put, and comes back into the hardware when another direct
 * guest's selection was there meanwhile. Kills "PMSELR_EL0 a direct guest wrote untrapped is lost
 * at put" and "a direct guest's untrapped PMXEV* use the previous owner's PMSELR_EL0".
 */
static void test_direct_selection_follows_the_guest(void **state)
{
	struct vperf_vm_config cfg = direct(2);
	struct hv_vcpu *a, *b;
	uint64_t traps;

	(void)state;
	init_model(6, true, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMEVCNTR0_EL0, 100); /* traps: the state comes in, then no more traps */
	traps = sim_guest_stats(0)->el2_traps;
	guest_write(PMEVCNTR1_EL0, 200);
	guest_write(PMSELR_EL0, 1);
	assert_int_equal(sim_guest_stats(0)->el2_traps, traps); /* untrapped */
	hv_leave(0);
	hv_enter(b, 0);
	guest_write(PMSELR_EL0, 0);
	guest_write(PMEVCNTR0_EL0, 5);
	hv_leave(0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMSELR_EL0), 1);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 200);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 200);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * Fields a direct guest holds only where every PE has them: PMCR_EL0.D needs AArch32 (RES0 on
 * this AArch64-only PE, I5.3.21), PMEVTYPER NSK, NSU and M need EL3 (RES0 without, I5.3.30). While
 * it traps (an overflow flag it has not cleared keeps it trapped) it reads them back as 0.
 * Kills "a direct guest keeps PMCR_EL0.D on a PE without AArch32" and "a direct guest keeps
 * PMEVTYPER NSK/NSU/M on a PE without EL3".
 */
static void test_direct_keeps_only_implemented_fields(void **state)
{
	struct vperf_vm_config cfg = direct(2);
	struct hv_vcpu *a;
	uint64_t traps;

	(void)state;
	init_model(6, false, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMOVSSET_EL0, 1); /* a flag: it stays trapped */
	traps = sim_guest_stats(0)->el2_traps;
	guest_write(PMCR_EL0, PMCR_D);
	assert_int_equal(guest_read(PMCR_EL0) & PMCR_D, 0);
	guest_write(PMEVTYPER0_EL0, NSK_BIT | NSU_BIT | M_BIT | U_BIT | EV_INST);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), U_BIT | EV_INST);
	assert_int_equal(sim_guest_stats(0)->el2_traps, traps + 4);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- the host's PMUIRQ around a direct guest (I5.3.45) ------------------------------------------ */

/*
 * A PMUIRQ that carries only the host's overflow is not the guest's business: a direct guest (HV
 * mode: the host's counters count while it runs) stays untrapped, and sees no flag and no
 * interrupt. Kills "a PMUIRQ with none of the owner's flags ... takes a direct guest out of its
 * untrapped run".
 */
static void test_host_overflow_leaves_direct_guest_untrapped(void **state)
{
	struct vperf_vm_config cfg = direct(2);
	struct hv_vcpu *a;
	uint64_t traps;

	(void)state;
	init_model(6, true, 2);
	cfg.pmu_mode = VPERF_PMU_HV;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	sim_poke(0, VPERF_ENC_PMEVTYPER4_EL0, EV_CYCLES);
	sim_poke(0, VPERF_ENC_PMEVCNTR4_EL0, 0xfffffff0ull);
	sim_poke(0, VPERF_ENC_PMINTENSET_EL1, VPERF_BIT(4));
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, VPERF_BIT(4));
	hv_enter(a, 0);
	guest_write(PMCR_EL0, 0); /* its first access: then untrapped */
	traps = sim_guest_stats(0)->el2_traps;
	hv_run_n(&op3, 100);
	hv_settle();
	assert_true(hv.host_ovs & VPERF_BIT(4));
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(sim_guest_stats(0)->el2_traps, traps);
	assert_int_equal(a->virqs, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- the hypervisor's optional ops and host_el1 ------------------------------------------------- */

static void undef_op(void *hv_vcpu)
{
	(void)hv_vcpu;
	sim_inject_undef();
}

static void advance_op(void *hv_vcpu)
{
	(void)hv_vcpu;
	sim_advance_pc();
}

static unsigned int el_op(void *hv_vcpu)
{
	(void)hv_vcpu;
	return sim_el();
}

static void line_op(void *hv_vcpu, uint32_t intid, bool level)
{
	(void)hv_vcpu;
	(void)intid;
	(void)level;
}

/*
 * host_pmu_overflow is optional: a hypervisor without it still has its overflow flag cleared at
 * the PMUIRQ (or the level-sensitive line would stay up). Kills "a host overflow with no
 * host_pmu_overflow op calls through NULL".
 */
static void test_host_overflow_without_callback(void **state)
{
	static const struct vperf_hyp_ops ops = { .inject_undef = undef_op,
						  .advance_pc = advance_op,
						  .guest_el = el_op,
						  .set_irq_line = line_op };
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	bool taken;

	(void)state;
	init_model(6, true, 2);
	assert_int_equal(vperf_init(&ops), VPERF_OK);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	hv_host_boot(0);
	sim_poke(0, VPERF_ENC_PMOVSSET_EL0, VPERF_BIT(4));
	sim_enter_el2(0);
	taken = vperf_handle_pmu_irq(&hv.pcpu[0]);
	sim_exit_el2(0);
	assert_true(taken);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & VPERF_BIT(4), 0);
	assert_int_equal(hv.host_ovs, 0);
}

/*
 * A host that runs code at EL1 between vCPUs (host_el1) gets its own MDCR_EL2 back at every put,
 * even when the guest's value counts the same (HV mode keeps HPME): its EL1 must not keep the
 * guest's PMU traps. Kills "a host that runs code at EL1 (host_el1) keeps the guest's TPM/TPMS
 * traps after put".
 */
static void test_host_el1_gets_its_mdcr_back(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2, .host_el1 = true };
	struct vperf_vm_config cfg = policy(VPERF_PMU_HV, 2);
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 0);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	hv_host_boot(0);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, 0);
	assert_true(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), hv.pcpu[0].host_mdcr);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- the fast path and XZR ---------------------------------------------------------------------- */

/*
 * MRS to XZR discards the value (Rt = 31 is XZR, not a register): a counter read answered on the
 * fast path writes no general-purpose register (the model checks every GPR a handler leaves).
 * Kills "an MRS to XZR answered on the fast path writes x0".
 */
static void test_fast_path_mrs_to_xzr(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMCCNTR_EL0, 5);
	guest_mrs_xzr(VPERF_ENC_PMCCNTR_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	guest_mrs_xzr(VPERF_ENC_PMEVCNTR0_EL0);
	guest_mrs_xzr(VPERF_ENC_PMOVSSET_EL0);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- trapped PMCR_EL0 and PMOVSSET_EL0 (I5.3.21, I5.3.45) -------------------------------------- */

/*
 * The overflow interrupt request is PMCR_EL0.E and an enabled flag: with a flag raised and its
 * interrupt enabled, setting E raises the guest's line at once and clearing E drops it. PMCR_EL0.LC
 * reads 1 (RES1 on a PE without AArch32). PMOVSSET_EL0 bits of counters at or above the guest's N
 * are RAZ/WI. Kills "setting PMCR_EL0.E with an enabled overflow flag raised does not raise the
 * virtual PMUIRQ", "PMCR_EL0.LC reads 0" and "PMOVSSET_EL0 sets flags of counters beyond the
 * guest's N".
 */
static void test_pmcr_e_drives_the_line(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMINTENSET_EL1, 1);
	guest_write(PMOVSSET_EL0, 1);
	assert_false(a->irq_level);
	guest_write(PMCR_EL0, PMCR_E);
	assert_true(a->irq_level);
	assert_int_equal(guest_read(PMCR_EL0) & PMCR_LC, PMCR_LC);
	guest_write(PMCR_EL0, 0);
	assert_false(a->irq_level);
	guest_write(PMOVSSET_EL0, VPERF_BIT(2) | VPERF_BIT(3) | VPERF_BIT(31));
	assert_int_equal(guest_read(PMOVSSET_EL0), 1 | VPERF_BIT(31));
	assert_int_equal(sim_error_count(), 0);
}

/*
 * PMCCNTR_EL0 is 64 bits on every PMUv3 (I5.3.4); only the event counters are 32 bits before
 * PMUv3p5. On a PMUv3p1 PE a guest's 64-bit cycle count reads back whole, in the hardware and
 * from the shadow after a switch. Kills "PMCCNTR_EL0 cut to 32 bits before PMUv3p5".
 */
static void test_cycle_counter_is_64_bits(void **state)
{
	struct hv_vcpu *a, *b;

	(void)state;
	init_model(4, true, 2);
	a = self_guest(2);
	b = hv_vcpu(1, 0);
	hv_enter(a, 0);
	guest_write(PMCCNTR_EL0, 0x123456789ull);
	guest_write(PMEVCNTR0_EL0, 0x123456789ull);
	assert_int_equal(guest_read(PMCCNTR_EL0), 0x123456789ull);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0x23456789ull);
	hv_leave(0);
	hv_enter(b, 0);
	guest_write(PMCCNTR_EL0, 0);
	hv_leave(0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCCNTR_EL0), 0x123456789ull);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The cycle counter's filter is the guest's after a restore: another guest's PMCCFILTR_EL0 in the
 * hardware meanwhile is replaced by the value vperf programmed for this guest (I5.3.2). Kills
 * "restore keeps the previous owner's PMCCFILTR_EL0".
 */
static void test_restore_brings_back_ccfiltr(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a, *b;
	uint64_t mine;

	(void)state;
	init_model(6, true, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	assert_int_equal(hv_vm(1, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMCCFILTR_EL0, U_BIT); /* not EL0 */
	mine = sim_peek(0, VPERF_ENC_PMCCFILTR_EL0);
	hv_leave(0);
	hv_enter(b, 0);
	guest_write(PMCCFILTR_EL0, P_BIT); /* not EL1 */
	assert_true(sim_peek(0, VPERF_ENC_PMCCFILTR_EL0) != mine);
	hv_leave(0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCCFILTR_EL0), U_BIT);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCFILTR_EL0), mine);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A guest whose EL1 gave its EL0 the PMU (PMUSERENR_EL0.EN) but runs no counter is not idle: at
 * its next load the grant is back in the hardware before EL0 runs, so an EL0 access traps to EL2
 * (TPM) and is emulated instead of going to the guest's EL1 (D24.5). Kills "a vCPU whose EL0 has
 * PMU access but no counter running is idle".
 */
static void test_el0_grant_survives_an_idle_put(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	a = self_guest(2);
	hv_enter(a, 0);
	guest_write(PMCCNTR_EL0, 11);
	guest_write(PMUSERENR_EL0, PMUSERENR_EN);
	hv_leave(0);
	hv_enter(a, 0);
	sim_set_el(0);
	assert_int_equal(guest_read(PMCCNTR_EL0), 11);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	sim_set_el(1);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- the emulated partition's physical counters ------------------------------------------------- */

static uint64_t popcount(uint64_t v)
{
	uint64_t n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/*
 * An emulated guest runs on at most its emu_slots physical counters, whether its counters are
 * enabled together or one by one while it runs; a physical counter handed from a disabled guest
 * counter to the next has only the new counter's interrupt enable (PMINTENSET_EL1, I5.3.38).
 * Kills "a counter an emulated guest enables while it runs takes a physical counter beyond its
 * slots" and "an emulated guest counter disabled leaves its interrupt enable on its physical
 * counter".
 */
static void test_emulated_slots_and_enables(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 4);
	struct hv_vcpu *a;

	(void)state;
	init_model(6, true, 2);
	cfg.partition = VPERF_PART_EMULATED;
	cfg.emu_slots = 2;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMINTENSET_EL1, 1);
	guest_write(PMCNTENSET_EL0, 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & 0xf, 1);
	guest_write(PMCNTENCLR_EL0, 1);
	guest_write(PMCNTENSET_EL0, 2); /* counter 1, no interrupt: on the freed counter */
	assert_int_equal(popcount(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & 0xf), 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & 0xf, 0);
	guest_write(PMCNTENSET_EL0, 4);
	guest_write(PMCNTENSET_EL0, 8);
	guest_write(PMCNTENSET_EL0, 1);
	assert_int_equal(popcount(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & 0xf), 2);
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0xf);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_el0_reads_pmuserenr_without_en),
		cmocka_unit_test(test_el0_en_keeps_el1_registers),
		cmocka_unit_test(test_el0_cr_er_grant_reads_only),
		cmocka_unit_test(test_pmmir_needs_pmuv3p4),
		cmocka_unit_test(test_virqs_are_ppis),
		cmocka_unit_test(test_direct_refuses_any_denied_event),
		cmocka_unit_test(test_off_vm_counts_bounded),
		cmocka_unit_test(test_id_dfr0_hides_hpmn0),
		cmocka_unit_test(test_misuse_is_caught),
		cmocka_unit_test(test_filter_ranges),
		cmocka_unit_test(test_direct_selection_follows_the_guest),
		cmocka_unit_test(test_direct_keeps_only_implemented_fields),
		cmocka_unit_test(test_host_overflow_leaves_direct_guest_untrapped),
		cmocka_unit_test(test_host_overflow_without_callback),
		cmocka_unit_test(test_host_el1_gets_its_mdcr_back),
		cmocka_unit_test(test_fast_path_mrs_to_xzr),
		cmocka_unit_test(test_pmcr_e_drives_the_line),
		cmocka_unit_test(test_cycle_counter_is_64_bits),
		cmocka_unit_test(test_restore_brings_back_ccfiltr),
		cmocka_unit_test(test_el0_grant_survives_an_idle_put),
		cmocka_unit_test(test_emulated_slots_and_enables),
	};

	return cmocka_run_group_tests_name("vpmu_cover", tests, NULL, NULL);
}
