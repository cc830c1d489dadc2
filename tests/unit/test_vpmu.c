// SPDX-License-Identifier: MIT
/*
 * The vPMU in the trapped-partition mode, end to end on the executable model: guest register
 * semantics, exact counts with the hypervisor's own cycles excluded, the host's counters, the
 * overflow interrupt, lazy switching costs, and bad guest input.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <vperf/esr.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

/* ---- register semantics ---------------------------------------------------------------------- */

/* A mistake repeated at every schedule-in is logged at the 1st, 2nd, 4th, 8th... time and
 * counted every time; each time is one notice, logged as one line. */
static void test_notices_rate_limited(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	unsigned int logged = 0, lines;

	(void)state;
	hv_enter(a, 0);
	lines = hv.nr_logs;
	for (int i = 0; i < 20; i++) {
		hv.last_log[0] = '\0';
		guest_write(PMCCFILTR_EL0, 0x11); /* Linux 6.1: the event number into RES0 bits */
		logged += hv.last_log[0] != '\0';
	}
	assert_int_equal(hv.vm[0].stats.bad_value, 20);
	assert_int_equal(logged, 5); /* 1, 2, 4, 8, 16 */
	assert_int_equal(hv.nr_logs - lines, 5);
	assert_int_equal(guest_read(PMCCFILTR_EL0), 0);
}

/* The fast path (virt/vpmu/fast.h) answers only what the full path would: with the state
 * in the hardware, a syndrome from EL0 that its PMUSERENR_EL0 (0) refuses is UNDEF, the counter
 * one beyond the guest's N is UNDEF, and a PMEVTYPER write with RES0 bits is counted, logged and
 * kept without them. */
static void test_fast_path_keeps_checks(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint64_t gprs[31] = { 0 };
	uint64_t undef = hv.vm[0].stats.undef;

	(void)state;
	hv_enter(a, 0);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	assert_int_equal(
		hv_raw_trap(vperf_esr_encode_sysreg(VPERF_ENC_PMCCNTR_EL0, 1, true), gprs, 0),
		VPERF_TRAP_UNDEF);
	assert_int_equal(
		hv_raw_trap(vperf_esr_encode_sysreg(VPERF_ENC_PMEVCNTR3_EL0, 1, true), gprs, 1),
		VPERF_TRAP_UNDEF);
	assert_int_equal(hv.vm[0].stats.undef, undef + 2);
	assert_int_equal(gprs[1], 0);
	gprs[2] = VPERF_BIT(16) | 0x11;
	assert_int_equal(
		hv_raw_trap(vperf_esr_encode_sysreg(VPERF_ENC_PMEVTYPER0_EL0, 2, false), gprs, 1),
		VPERF_TRAP_HANDLED);
	assert_int_equal(hv.vm[0].stats.bad_value, 1);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0x11);
	/* A flag the host's counter 4 (its range [4, 6)) raised is not the guest's to see. */
	sim_poke(0, VPERF_ENC_PMOVSSET_EL0, VPERF_BIT(4) | VPERF_BIT(1));
	assert_int_equal(guest_read(PMOVSSET_EL0), VPERF_BIT(1));
	sim_poke(0, VPERF_ENC_PMOVSSET_EL0, 0);
	assert_int_equal(sim_error_count(), 0);
}

static void test_pmcr(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint64_t lc = hv.model.aarch32_el0 ? 0 : VPERF_BIT(6);

	(void)state;
	hv_enter(a, 0);
	/* N = the guest's 3 counters, LC RES1 without AArch32 at EL0, else a field that resets to
	 * 0 for the guest (Arm DDI 0487 K.a I5.3.21; a core profile with AArch32 at EL0). */
	assert_int_equal(guest_read(PMCR_EL0), 3u << 11 | lc);
	/* P and C act and read as 0; bit 8 is RES0 (counted as bad input, ignored); LP exists
	 * from PMUv3p5 only (RES0 before: read as 0 and never written to the hardware). */
	guest_write(PMCR_EL0, PMCR_E | PMCR_P | PMCR_C | PMCR_LP | VPERF_BIT(8));
	assert_int_equal(guest_read(PMCR_EL0), 3u << 11 | lc | PMCR_E | (wide() ? PMCR_LP : 0));
	assert_int_equal(hv.vm[0].stats.bad_value, 1);
	assert_string_equal(hv.last_log, "vperf: guest wrote RES0 bits 0x100 of PMCR_EL0 (value "
					 "0x187): ignored");
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCR_EL0) & (PMCR_E | PMCR_LP),
			 PMCR_E | (wide() ? PMCR_LP : 0));
	assert_int_equal(sim_error_count(), 0);
}

/* A vCPU the hypervisor frees (Xen's vcpu_destroy) must not stay any pCPU's lazy owner: the PMU
 * interrupt would move flags into freed memory, and a new vCPU at the same address would be taken
 * for the old one. vperf_pcpu_forget drops the reference, and refuses a loaded vCPU. */
static void test_pcpu_forget(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVCNTR0_EL0, 1234);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	vperf_pcpu_forget(&hv.pcpu[0], &a->v);
	assert_ptr_equal(hv.pcpu[0].pmu_owner, &a->v);
	assert_string_equal(hv.last_log, "vperf: pcpu_forget of a loaded vCPU (put it first)");
	hv_leave(0);
	assert_ptr_equal(hv.pcpu[0].pmu_owner, &a->v);
	vperf_pcpu_forget(&hv.pcpu[1], &a->v); /* another pCPU's reference only */
	assert_ptr_equal(hv.pcpu[0].pmu_owner, &a->v);
	vperf_pcpu_forget(&hv.pcpu[0], &a->v);
	assert_null(hv.pcpu[0].pmu_owner);
	/* The same memory as a new vCPU starts from the reset state. */
	assert_int_equal(vperf_vcpu_init(&a->v, &hv.vm[0], a), VPERF_OK);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(guest_read(PMCR_EL0) & PMCR_E, 0);
}

/* PMCR_EL0.P resets the guest's counters one by one: the host's second range and the unused
 * first-range counter 3 keep their values (never PMCR_EL0.P at EL2). */
static void test_pmcr_p_spares_host(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVCNTR0_EL0, 10);
	guest_write(PMEVCNTR2_EL0, 12);
	guest_write(PMCCNTR_EL0, 99);
	sim_poke(0, VPERF_ENC_PMEVCNTR3_EL0, 13);
	sim_poke(0, VPERF_ENC_PMEVCNTR4_EL0, 14);
	sim_poke(0, VPERF_ENC_PMEVCNTR5_EL0, 15);
	guest_write(PMCR_EL0, PMCR_P);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR2_EL0), 0);
	assert_int_equal(guest_read(PMCCNTR_EL0), 99);
	assert_int_equal(hw_counter(3), 13);
	assert_int_equal(hw_counter(4), 14);
	assert_int_equal(hw_counter(5), 15);
	guest_write(PMCR_EL0, PMCR_C);
	assert_int_equal(guest_read(PMCCNTR_EL0), 0);
}

/* SET/CLR pairs reach the guest's counters only; the host's enables survive. */
static void test_set_clr_masked(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	write_sysreg(0x30, PMCNTENSET_EL0); /* the host's counters 4 and 5 */
	hv_enter(a, 0);
	guest_write(PMCNTENSET_EL0, 0xffffffffull);
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0x80000007ull);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0), 0x80000037ull);
	guest_write(PMCNTENCLR_EL0, 0xffffffffull);
	assert_int_equal(guest_read(PMCNTENCLR_EL0), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0), 0x30);
	guest_write(PMINTENSET_EL1, 0x30);
	assert_int_equal(guest_read(PMINTENSET_EL1), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1), 0);
}

/* A guest's PMOVSSET_EL0 write sets its flags in the shadow alone (regs.c, write_ovs): the guest
 * reads them back and its virtual line follows them, but the hardware's PMOVSSET_EL0 is not
 * written, so no physical PMUIRQ is raised for it (with PMINTENSET_EL1 and PMCR_EL0.E, a flag
 * set in the hardware asserts the overflow interrupt: PMOVSSET_EL0 and PMINTENSET_EL1, I5.3.45
 * and I5.3.38). PMOVSCLR_EL0 clears it. */
static void test_pmovsset_sets_shadow_only(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	unsigned int irqs;

	(void)state;
	hv_enter(a, 0);
	guest_write(PMINTENSET_EL1, 0x3);
	guest_write(PMCR_EL0, PMCR_E);
	irqs = hv.pmu_irqs;
	guest_write(PMOVSSET_EL0, 0x3);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & 0x7, 0);
	assert_int_equal(hv.pmu_irqs, irqs);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0x3);
	guest_write(PMOVSCLR_EL0, 0x3);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
}

/* Counters beyond the guest's N: UNDEF from vperf below HPMN, from the hardware above it. */
static void test_counter_range(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint64_t traps;

	(void)state;
	hv_enter(a, 0);
	traps = hv.vm[0].stats.traps;
	guest_read(PMEVCNTR3_EL0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	assert_int_equal(hv.vm[0].stats.traps, traps + 1);
	guest_write(PMEVTYPER4_EL0, EV_INST);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	assert_int_equal(hv.vm[0].stats.traps, traps + 1); /* never reached EL2 */
	assert_int_equal(hw_evtyper(4), 0);
}

static void test_selected_counter(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMSELR_EL0, 2);
	guest_write(PMXEVCNTR_EL0, 0x1234);
	guest_write(PMXEVTYPER_EL0, EV_INST);
	assert_int_equal(guest_read(PMEVCNTR2_EL0), 0x1234);
	assert_int_equal(guest_read(PMEVTYPER2_EL0), EV_INST);
	guest_write(PMSELR_EL0, 31);
	guest_write(PMXEVTYPER_EL0, U_BIT);
	assert_int_equal(guest_read(PMCCFILTR_EL0), U_BIT);
	guest_read(PMXEVCNTR_EL0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMSELR_EL0, 3); /* beyond N = 3 */
	guest_read(PMXEVTYPER_EL0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMSELR_EL0, 0xffe2); /* SEL is 5 bits; the rest RES0 */
	assert_int_equal(guest_read(PMSELR_EL0), 2);
}

/* The guest reads back its type; the hardware gets one that counts only guest EL1/EL0. */
static void test_event_types_sanitized(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	/* With EL3 (the default model): P = U = 1 keep the Secure world out, NSK = !P and
	 * NSU = !U count the guest's own Non-secure EL1/EL0, M = 0 never EL3 (I5.3.30). */
	guest_write(PMEVTYPER0_EL0, NSH_BIT | M_BIT | P_BIT | EV_CYCLES);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), P_BIT | EV_CYCLES);
	assert_int_equal(hw_evtyper(0), P_BIT | U_BIT | NSU_BIT | EV_CYCLES);
	guest_write(PMEVTYPER1_EL0, NSH_BIT | EV_INST); /* in the hardware now: the fast path */
	assert_int_equal(guest_read(PMEVTYPER1_EL0), EV_INST);
	assert_int_equal(hw_evtyper(1), P_BIT | U_BIT | NSK_BIT | NSU_BIT | EV_INST);
	guest_write(PMCCFILTR_EL0, NSH_BIT | U_BIT);
	assert_int_equal(guest_read(PMCCFILTR_EL0), U_BIT);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCFILTR_EL0), P_BIT | U_BIT | NSK_BIT);
}

/* A denied event reads back as written, counts nothing and is absent from PMCEID0. */
static void test_event_filter(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;

	(void)state;
	vperf_pmu_filter_set(&cfg.filter, EV_INST, false);
	assert_int_equal(hv_vm(2, &cfg), VPERF_OK);
	a = hv_vcpu(2, 2);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCEID0_EL0) & VPERF_BIT(EV_INST), 0);
	assert_int_not_equal(guest_read(PMCEID0_EL0) & VPERF_BIT(EV_CYCLES), 0);
	/* No SPE for this VM: the SAMPLE_* events stay hidden even where the PE has them. */
	assert_int_equal(guest_read(PMCEID0_EL0) >> 32, 0);
	guest_write(PMEVTYPER0_EL0, EV_INST);
	guest_write(PMEVTYPER1_EL0, EV_CYCLES);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), EV_INST);
	guest_write(PMCNTENSET_EL0, 3);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 30);
}

/* PMMIR_EL1 (PMUv3p4) reads the PE's value; PMUSERENR_EL0 keeps its four bits; the ID register
 * hides what the VM does not have, and shows no PMU version above the platform's (the pCPUs'
 * lowest, HV_PMUVER here) nor above PMUv3p5. */
static void test_misc_registers(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	struct vperf_vm_config off = { .pmu_mode = VPERF_PMU_OFF };
	uint64_t hw = 6ull << 8 | 3ull << 32 | 1ull << 60 | 0x6;
	uint64_t ver = hv.model.pmuver < 6 ? hv.model.pmuver : 6;

	(void)state;
	hv_enter(a, 0);
	sim_poke(0, VPERF_ENC_PMMIR_EL1, 0x8);
	if (hv.model.pmuver >= 5) {
		assert_int_equal(guest_read(PMMIR_EL1), 0x8);
		assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	} else { /* PMMIR_EL1 is PMUv3p4's: UNDEFINED before any trap */
		assert_int_equal(guest_read(PMMIR_EL1), 0);
		assert_int_equal(last(), SIM_ACC_UNDEF);
	}
	guest_write(PMUSERENR_EL0, 0xff);
	assert_int_equal(guest_read(PMUSERENR_EL0), 0xf);
	assert_int_equal(vperf_vcpu_id_dfr0(&a->v, hw), ver << 8 | 0x6);
	assert_int_equal(vperf_vcpu_id_dfr0(&a->v, 8ull << 8), ver << 8);
	assert_int_equal(hv_vm(3, &off), VPERF_OK);
	assert_int_equal(vperf_vcpu_id_dfr0(&hv_vcpu(3, 3)->v, hw), 0x6);
}

/* EL0: PMUSERENR_EL0 mirrored into the hardware, which refuses EL0 first (a trap to the guest's
 * own EL1), then lets allowed accesses trap to vperf. */
static void test_el0_gating(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVCNTR1_EL0, 77);
	sim_set_el(0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL1);
	sim_set_el(1);
	guest_write(PMUSERENR_EL0, PMUSERENR_ER);
	sim_set_el(0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 77);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	guest_write(PMEVCNTR1_EL0, 1);
	assert_int_equal(last(), SIM_ACC_TRAP_EL1);
	guest_write(PMUSERENR_EL0, 0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	/* Another vCPU's EL0 sees the reset PMUSERENR_EL0 = 0 in the hardware. */
	hv_enter(hv_vcpu(1, 0), 0);
	sim_set_el(0);
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL1);
}

/* A vCPU that granted EL0 access and is otherwise idle keeps the grant across switches (found by
 * the QEMU suite: the grant was dropped with the idle state, and EL0 then trapped to EL1). */
static void test_el0_grant_survives_idle_switch(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVCNTR1_EL0, 5);
	guest_write(PMUSERENR_EL0, PMUSERENR_ER); /* PMCR_EL0.E = 0: nothing counts */
	hv_enter(b, 0);
	guest_write(PMCR_EL0, PMCR_E); /* b takes the hardware */
	hv_enter(a, 0);
	sim_set_el(0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 5);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
}

/* An OFF VM: UNDEF everywhere, still. */
static void test_off_vm(void **state)
{
	struct vperf_vm_config off = { .pmu_mode = VPERF_PMU_OFF };
	uint64_t cnten = sim_peek(0, VPERF_ENC_PMCNTENSET_EL0); /* UNKNOWN at reset */

	(void)state;
	assert_int_equal(hv_vm(3, &off), VPERF_OK);
	hv_enter(hv_vcpu(3, 3), 0);
	guest_read(PMCR_EL0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMCNTENSET_EL0, ~cnten & 0xf);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0), cnten);
	assert_int_equal(sim_error_count(), 0);
}

/* MDCR_EL2 while each VM runs: everything traps, EL2 owns the Profiling Buffer, the guest's
 * counters never count EL2 (HPMD, HCCD: also defence in depth behind the NSH = 0 vperf writes),
 * HPMN stays the host's boundary, HPME only in HV. */
static void test_mdcr_bits(void **state)
{
	/* No SPE here: TPMS and E2PB are RES0. HPMD from PMUv3p1, HCCD from PMUv3p5. */
	const uint64_t base = 4 | MDCR_EL2_TPM | MDCR_EL2_TPMCR |
			      (hv.model.pmuver >= 4 ? MDCR_EL2_HPMD : 0) |
			      (hv.model.pmuver >= 6 ? MDCR_EL2_HCCD : 0);

	(void)state;
	hv_enter(hv_vcpu(0, 0), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), base);
	hv_enter(hv_vcpu(1, 1), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), base | MDCR_EL2_HPME);
	assert_int_equal(sim_error_count(), 0); /* no RES0 field written on this PMU version */
}

/* ---- counting ---------------------------------------------------------------------------------- */

static void program_counters(void)
{
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMEVTYPER1_EL0, EV_INST);
	guest_write(PMCNTENSET_EL0, 0x80000003ull);
	guest_write(PMCR_EL0, PMCR_E);
}

/* The guest counts exactly its own work: every trap costs 20 EL2 cycles in the model, and none
 * reach the guest's event counters (HPMD) or cycle counter (HCCD). */
static void test_exact_counts(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	program_counters();
	hv_run_n(&op3, 100);
	for (int i = 0; i < 5; i++)
		guest_read(PMCR_EL0); /* more traps: more EL2 cycles */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 300);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 100);
	assert_int_equal(guest_read(PMCCNTR_EL0), 300);
	assert_int_equal(sim_error_count(), 0);
}

/* The host's counters: HV lets them count the guest; SELF pauses them while the guest runs. They
 * keep their values across every switch. */
static void test_host_counters(void **state)
{
	struct hv_vcpu *self = hv_vcpu(0, 0), *hvm = hv_vcpu(1, 1);

	(void)state;
	write_sysreg(EV_INST, PMEVTYPER4_EL0); /* EL1 and EL0, not EL2 */
	write_sysreg(0x10, PMCNTENSET_EL0);
	hv_enter(self, 0);
	program_counters();
	hv_run_n(&op3, 10);
	assert_int_equal(hw_counter(4), 0);
	hv_enter(hvm, 0);
	program_counters();
	hv_run_n(&op3, 10);
	assert_int_equal(hw_counter(4), 10);
	hv_enter(self, 0);
	hv_run_n(&op3, 10);
	hv_leave(0);
	assert_int_equal(hw_counter(4), 10);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVTYPER4_EL0), EV_INST);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & 0x30, 0x10);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPME, MDCR_EL2_HPME);
}

/* XENPMU_MODE_ALL: the privileged VM profiles everyone: its counters go on counting while an OFF
 * VM runs, and count EL2 (each trap costs the model 20 EL2 cycles). */
static void test_all_profiles_everyone(void **state)
{
	struct vperf_vm_config all = policy(VPERF_PMU_ALL, 2), off = { .pmu_mode = VPERF_PMU_OFF };
	struct hv_vcpu *a, *b;

	(void)state;
	assert_int_equal(hv_vm(2, &all), VPERF_OK);
	assert_int_equal(hv_vm(3, &off), VPERF_OK);
	all.partition = VPERF_PART_DIRECT;
	assert_int_equal(hv_vm(4, &all), VPERF_EINVAL);
	a = hv_vcpu(0, 2);
	b = hv_vcpu(1, 3);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMEVCNTR0_EL0, 0);
	hv_run_n(&op3, 10); /* 30 cycles of its own */
	hv_enter(b, 0);
	hv_run_n(&op3, 10);   /* 30 cycles of the OFF VM */
	guest_read(PMCR_EL0); /* UNDEF, but a trap: 20 cycles at EL2 */
	hv_enter(a, 0);
	/* This read's own trap adds 20 EL2 cycles before the counter is read. */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30 + 30 + 20 + 20);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- overflow ------------------------------------------------------------------------------------ */

/* A 32-bit overflow raises the virtual PPI once; the physical line drops at once (no storm);
 * the guest reads and clears its flag, and the virtual line follows. */
static void test_overflow_irq(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	program_counters();
	guest_write(PMEVCNTR1_EL0, 0xfffffff0ull);
	guest_write(PMINTENSET_EL1, 2);
	hv_run_n(&op3, 20);
	hv_settle();
	assert_int_equal(hv.pmu_irqs, 1);
	assert_int_equal(hv.max_irq_burst, 1);
	assert_false(sim_line(0, SIM_LINE_PMUIRQ));
	assert_true(a->irq_level);
	assert_int_equal(a->irq_raises, 1);
	assert_int_equal(guest_read(PMOVSSET_EL0), 2);
	/* 64-bit counters from PMUv3p5; 32-bit ones wrap (I5.3.28). */
	assert_int_equal(guest_read(PMEVCNTR1_EL0), wide() ? 0x100000004ull : 0x4);
	guest_write(PMOVSCLR_EL0, 2);
	assert_false(a->irq_level);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	/* A flag the guest sets itself raises the line too (PMOVSSET is writable). */
	guest_write(PMOVSSET_EL0, VPERF_BIT(31));
	guest_write(PMINTENSET_EL1, VPERF_BIT(31));
	assert_true(a->irq_level);
}

/* An overflow whose interrupt the vCPU did not take before it was switched out (interrupts not
 * routed to EL2 at that moment) raises that vCPU's line when it is put (the hypervisor's vGIC
 * delivers it when the vCPU runs), never the line of the vCPU that runs meanwhile, and is not
 * raised twice when the flag's physical interrupt finally comes. */
static void test_overflow_descheduled(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 0);

	(void)state;
	hv_enter(a, 0);
	program_counters();
	guest_write(PMEVCNTR1_EL0, 0xffffffffull);
	guest_write(PMINTENSET_EL1, 2);
	sim_poke(0, VPERF_ENC_HCR_EL2, 0); /* IMO = 0: the interrupt stays pending */
	guest_run(&op3, 1);
	assert_true(sim_line(0, SIM_LINE_PMUIRQ));
	hv_enter(b, 0);
	sim_poke(0, VPERF_ENC_HCR_EL2, VPERF_BIT(4));
	hv_run_n(&op3, 5);
	assert_int_equal(b->irq_raises, 0);
	assert_int_equal(a->irq_raises, 1);
	hv_enter(a, 0);
	hv_run_n(&op3, 1);
	assert_int_equal(a->irq_raises, 1);
	assert_int_equal(b->irq_raises, 0);
	assert_int_equal(guest_read(PMOVSSET_EL0), 2);
}

/* PMSWINC counts on the guest's SW_INCR counters that count at its EL, with overflow; EL2's own
 * write to the hardware PMSWINC would not count (EL2 is excluded), so vperf increments. */
static void test_software_increment(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_SW_INCR);
	guest_write(PMEVTYPER1_EL0, EV_SW_INCR | P_BIT); /* not at EL1 */
	guest_write(PMEVTYPER2_EL0, EV_INST);
	guest_write(PMCNTENSET_EL0, 7);
	guest_write(PMSWINC_EL0, 7);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0); /* PMCR_EL0.E = 0 */
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMSWINC_EL0, 7);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 2);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR2_EL0), 0);
	guest_write(PMEVCNTR0_EL0, 0xffffffffull);
	guest_write(PMINTENSET_EL1, 1);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), wide() ? 0x100000000ull : 0);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_true(a->irq_level);
	/* At EL0 with PMUSERENR_EL0.SW. */
	guest_write(PMUSERENR_EL0, PMUSERENR_SW);
	sim_set_el(0);
	guest_write(PMSWINC_EL0, 1);
	sim_set_el(1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), wide() ? 0x100000001ull : 1);
}

/* A SELF VM pauses the host's counters while it runs: MDCR_EL2.HPME off at load, back on at
 * put, even for an idle vCPU (2 writes per switch when the host keeps counters). */
static void test_self_switch_cost(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 0);

	(void)state;
	hv_enter(a, 0);
	hv_leave(0);
	sim_clear_counts(0);
	hv_enter(b, 0);
	hv_leave(0);
	assert_int_equal(sim_cpu(0)->nr_writes, 2);
	assert_int_equal(sim_cpu(0)->nr_reads, 0);
}

/* ---- lazy switching ------------------------------------------------------------------------------ */

static uint64_t accesses(void)
{
	const struct sim_cpu *c = sim_cpu(0);

	return c->nr_reads + c->nr_writes;
}

/* Two vCPUs of a VM that never touch the PMU switch with no System register access at all. */
static void test_idle_switch_is_free(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 1), *b = hv_vcpu(1, 1);

	(void)state;
	hv_enter(a, 0);
	hv_enter(b, 0);
	sim_clear_counts(0);
	for (int i = 0; i < 10; i++) {
		hv_enter(a, 0);
		hv_run_n(&op3, 2);
		hv_enter(b, 0);
		hv_run_n(&op3, 2);
	}
	assert_int_equal(accesses(), 0);
}

/* An active vCPU of the HV VM (N = 4): put = stop (1 write) + 4 counters + cycle counter +
 * overflow flags (6 reads); coming back to the same pCPU untouched = 1 write. When it goes idle
 * (PMCR_EL0.E = 0), its switches are free again. */
static void test_active_switch_cost(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 1), *b = hv_vcpu(1, 1);
	const struct sim_cpu *c = sim_cpu(0);

	(void)state;
	hv_enter(a, 0);
	program_counters();
	hv_enter(b, 0);
	hv_enter(a, 0);
	sim_clear_counts(0);
	hv_enter(b, 0);
	assert_int_equal(c->nr_writes, 1);
	assert_int_equal(c->nr_reads, 6);
	sim_clear_counts(0);
	hv_enter(a, 0);
	assert_int_equal(accesses(), 1);
	guest_write(PMCR_EL0, 0);
	hv_enter(b, 0);
	sim_clear_counts(0);
	hv_enter(a, 0);
	hv_enter(b, 0);
	assert_int_equal(accesses(), 0);
}

/* A vCPU that migrates to another pCPU takes its counts along. */
static void test_migration(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	program_counters();
	hv_run_n(&op3, 10);
	hv_leave(0);
	hv_enter(a, 1);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 60);
	hv_leave(1);
	hv_enter(a, 0); /* pCPU 0's copy is stale now: restored from the shadow */
	hv_run_n(&op3, 1);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 21);
}

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

/* The PMCR_EL0.LP bug on a PMUv3p4 host (Arm DDI 0487 K.a I5.3.21: LP is RES0 before PMUv3p5): the
 * guest reads LP back as 0, and vperf never writes it to the hardware, where the model reports an
 * EL2 write of a RES0 field. A blob saved with LP on a PMUv3p5 host does not restore here. */
static void test_pmcr_lp_pmuv3p4(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config c0 = policy(VPERF_PMU_SELF, 3);
	struct hv_vcpu *a;

	(void)state;
	hv_default_config(&cfg);
	cfg.pmuver = 5;
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &c0), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
	assert_int_equal(guest_read(PMCR_EL0) & (PMCR_E | PMCR_LP), PMCR_E);
	hv_leave(0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_INST);
	guest_write(PMCNTENSET_EL0, 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCR_EL0) & (PMCR_E | PMCR_LP), PMCR_E);
	assert_int_equal(sim_error_count(), 0);
}

/* The guest-writable masks are derived once per pCPU initialisation (virt/vpmu/caps.c), not per
 * access, from every initialised pCPU: a pCPU with an older PMU (PMUv3p4: no LP) initialised
 * before the VM takes LP out of what the VM keeps. Initialised after the VM, which was shown
 * PMUv3p5 and may hold LP, it is refused (test_pcpu_bringup.c) and the VM keeps LP. */
static void test_pmcr_mask_follows_pcpu_init(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct sim_pe_config cfg;
	struct vperf_vm_config c0 = policy(VPERF_PMU_SELF, 3);
	struct hv_vcpu *a;
	uint64_t dfr0;

	(void)state;
	hv_default_config(&cfg);
	cfg.pmuver = 6; /* PMUv3p5 on every pCPU at first */
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &c0), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
	assert_int_equal(guest_read(PMCR_EL0) & (PMCR_E | PMCR_LP), PMCR_E | PMCR_LP);
	hv_leave(0);
	/* pCPU 1 comes up again reporting PMUv3p4. */
	dfr0 = sim_peek(1, VPERF_ENC_ID_AA64DFR0_EL1) & ~ID_DFR0_PMUVER_MASK;
	sim_poke(1, VPERF_ENC_ID_AA64DFR0_EL1, dfr0 | 5ull << ID_DFR0_PMUVER_SHIFT);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &hv.pcpu[1].cfg), VPERF_EINVAL);
	sim_set_cpu(0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCR_EL0) & (PMCR_E | PMCR_LP), PMCR_E | PMCR_LP);
	hv_leave(0);
	/* vperf started again, the PMUv3p4 pCPU before the VM: LP is not the VM's to keep. */
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &pcfg), VPERF_OK);
	sim_set_cpu(0);
	assert_int_equal(hv_vm(0, &c0), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
	assert_int_equal(guest_read(PMCR_EL0) & (PMCR_E | PMCR_LP), PMCR_E);
	hv_leave(0);
}

/* Rt = 31 end to end (Rt = 31: XZR, D24.2.40): MSR from XZR writes zero, MRS to XZR discards the
 * value and changes no GPR (the model checks every GPR), each one trap with the PC advanced. */
static void test_xzr(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMEVCNTR1_EL0, 1234);
	guest_write(PMCNTENSET_EL0, 0x80000003ull);
	guest_msr_xzr(VPERF_ENC_PMEVCNTR1_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	assert_int_equal(sim_guest_stats(0)->last_esr >> 5 & 31, 31);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	guest_mrs_xzr(VPERF_ENC_PMCNTENSET_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL2);
	assert_int_equal(sim_guest_stats(0)->last_esr >> 5 & 31, 31);
	guest_msr_xzr(VPERF_ENC_PMCNTENCLR_EL0); /* writing zero clears nothing */
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0x80000003ull);
	assert_int_equal(sim_error_count(), 0);
}

/* The Secure world runs while a guest's vCPU is loaded (a TrustZone OS at Secure EL1, the
 * firmware at EL3) on a PE whose MDCR_EL3.SPME allows Secure counting: the guest's counters
 * count its own Non-secure EL1 work only. On a PE without EL3 (NSK, NSU and M RES0) P and U
 * alone filter, and the guest still counts its EL1 work. */
static void run_secure(unsigned int el, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		sim_run_secure(el, &op3, 1);
}

static void secure_world_case(bool el3)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config c0 = policy(VPERF_PMU_SELF, 3);

	hv_default_config(&cfg);
	cfg.el3 = el3;
	cfg.mdcr_el3_spme = true;
	cfg.el2_trap_cycles = 0;
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &c0), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMEVTYPER0_EL0, EV_INST);
	guest_write(PMEVTYPER1_EL0, EV_INST | U_BIT);
	guest_write(PMEVCNTR0_EL0, 0);
	guest_write(PMEVCNTR1_EL0, 0);
	guest_write(PMCCFILTR_EL0, 0);
	guest_write(PMCCNTR_EL0, 0);
	guest_write(PMCNTENSET_EL0, VPERF_BIT(31) | 3);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	if (el3) {
		run_secure(1, 6); /* 7 + 3 ops: the counts must not move */
		run_secure(0, 1);
		run_secure(3, 3);
	}
	sim_set_el(0);
	hv_run_n(&op3, 4);
	sim_set_el(1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 14);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 10); /* U = 1: not EL0 */
	assert_int_equal(guest_read(PMCCNTR_EL0), 14 * 3);
	assert_int_equal(sim_error_count(), 0);
}

static void test_secure_world_not_counted(void **state)
{
	(void)state;
	secure_world_case(true);
	secure_world_case(false);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_pmcr, setup),
		cmocka_unit_test_setup(test_fast_path_keeps_checks, setup),
		cmocka_unit_test_setup(test_pcpu_forget, setup),
		cmocka_unit_test_setup(test_notices_rate_limited, setup),
		cmocka_unit_test_setup(test_pmcr_p_spares_host, setup),
		cmocka_unit_test_setup(test_set_clr_masked, setup),
		cmocka_unit_test_setup(test_pmovsset_sets_shadow_only, setup),
		cmocka_unit_test_setup(test_counter_range, setup),
		cmocka_unit_test_setup(test_selected_counter, setup),
		cmocka_unit_test_setup(test_event_types_sanitized, setup),
		cmocka_unit_test_setup(test_event_filter, setup),
		cmocka_unit_test_setup(test_misc_registers, setup),
		cmocka_unit_test_setup(test_el0_gating, setup),
		cmocka_unit_test_setup(test_el0_grant_survives_idle_switch, setup),
		cmocka_unit_test_setup(test_off_vm, setup),
		cmocka_unit_test_setup(test_mdcr_bits, setup),
		cmocka_unit_test_setup(test_exact_counts, setup),
		cmocka_unit_test_setup(test_host_counters, setup),
		cmocka_unit_test_setup(test_all_profiles_everyone, setup),
		cmocka_unit_test_setup(test_overflow_irq, setup),
		cmocka_unit_test_setup(test_overflow_descheduled, setup),
		cmocka_unit_test_setup(test_software_increment, setup),
		cmocka_unit_test_setup(test_idle_switch_is_free, setup),
		cmocka_unit_test_setup(test_active_switch_cost, setup),
		cmocka_unit_test_setup(test_self_switch_cost, setup),
		cmocka_unit_test_setup(test_migration, setup),
		cmocka_unit_test(test_pmmir_needs_pmuv3p4),
		cmocka_unit_test(test_host_overflow_without_callback),
		cmocka_unit_test(test_host_el1_gets_its_mdcr_back),
		cmocka_unit_test(test_cycle_counter_is_64_bits),
		cmocka_unit_test(test_pmcr_lp_pmuv3p4),
		cmocka_unit_test(test_pmcr_mask_follows_pcpu_init),
		cmocka_unit_test_setup(test_xzr, setup),
		cmocka_unit_test(test_secure_world_not_counted),
		cmocka_unit_test(test_id_dfr0_hides_hpmn0),
	};

	return cmocka_run_group_tests_name("vpmu", tests, NULL, NULL);
}
