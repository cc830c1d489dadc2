// SPDX-License-Identifier: MIT
/*
 * The vPMU against the stricter model (docs/model.md): PMU versions without PMCR_EL0.LP, Rt = 31,
 * the PMU interrupt arriving late (across a switch, after the guest cleared its flag, for a
 * descheduled XENPMU_MODE_ALL vCPU), the virtual PPI through the model's list registers, the
 * Secure world and EL3 counting while a vCPU is loaded, the synchronization window, UNKNOWN
 * reset values, and the gaps the mutation runs found. Each test fails on the wrong code it names.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

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

/* A world whose PMUIRQ is taken only after `polls` poll points (enum sim_irq_latency). */
static void late_irq_world(uint16_t polls)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config c0 = policy(VPERF_PMU_SELF, 3);

	hv_default_config(&cfg);
	cfg.pmuirq_latency = SIM_IRQ_AFTER_POLLS;
	cfg.pmuirq_polls = polls;
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &c0), VPERF_OK);
}

/* Counter 1 counts instructions from 6 below its 32-bit overflow, its interrupt enabled. */
static void near_overflow(void)
{
	guest_write(PMEVTYPER1_EL0, EV_INST);
	guest_write(PMEVCNTR1_EL0, 0xfffffffaull);
	guest_write(PMINTENSET_EL1, 2);
	guest_write(PMCNTENSET_EL0, 2);
	guest_write(PMCR_EL0, PMCR_E);
}

/* The overflow's PMUIRQ is still in flight at vcpu_put: put moves the flag to the shadow and
 * stops counting, the line drops and the interrupt is never taken. Another vCPU runs without
 * seeing it; the owner gets its flag and its virtual interrupt back at the next load. */
static void test_late_irq_across_switch(void **state)
{
	struct hv_vcpu *a, *b;

	(void)state;
	late_irq_world(100);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 0);
	hv_enter(a, 0);
	near_overflow();
	hv_run_n(&op3, 10);
	assert_true(sim_gic_pmuirq_delayed(0));
	hv_enter(b, 0);
	guest_write(PMEVTYPER0_EL0, EV_INST);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 200);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(b->irq_raises, 0);
	hv_enter(a, 0);
	hv_settle();
	assert_true(a->irq_level);
	assert_int_equal(guest_read(PMOVSSET_EL0), 2);
	guest_write(PMOVSCLR_EL0, 2);
	assert_false(a->irq_level);
	assert_int_equal(hv.pmu_irqs, 0);
	assert_int_equal(hv.pcpu[0].stats.stray_overflows, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* The guest reads and clears its flag before the late PMUIRQ arrives: the clear reaches the
 * hardware flag too, so the line drops and no interrupt for an already handled overflow comes
 * later; a flag the guest set itself stays the guest's. */
static void test_late_irq_after_guest_cleared(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	late_irq_world(50);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	near_overflow();
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMOVSSET_EL0), 2);
	guest_write(PMOVSCLR_EL0, 2);
	hv_run_n(&op3, 60);
	hv_settle();
	assert_false(a->irq_level);
	assert_int_equal(a->irq_raises, 0);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(hv.pmu_irqs, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* PMSWINC for a VM whose filter denies SW_INCR counts nothing (the filter holds for the
 * software-emulated increment too), and PMCEID0 does not list the event. */
static void test_swinc_denied_by_filter(void **state)
{
	struct vperf_vm_config c = policy(VPERF_PMU_SELF, 3);

	(void)state;
	vperf_pmu_filter_set(&c.filter, EV_SW_INCR, false);
	assert_int_equal(hv_vm(2, &c), VPERF_OK);
	hv_enter(hv_vcpu(2, 2), 0);
	guest_write(PMEVTYPER0_EL0, EV_SW_INCR);
	guest_write(PMEVCNTR0_EL0, 0);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMSWINC_EL0, 1);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(guest_read(PMCEID0_EL0) & VPERF_BIT(EV_SW_INCR), 0);
}

/* CHAIN counts the even counter's 32-bit overflow only while PMCR_EL0.LP = 0; with LP = 1 the
 * even counter is 64 bits and never overflows at bit 31 (I5.3.21 LP; D14 CHAIN). */
static void test_chain_with_lp(void **state)
{
	(void)state;
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMEVTYPER0_EL0, EV_SW_INCR);
	guest_write(PMEVTYPER1_EL0, EV_CHAIN);
	guest_write(PMCNTENSET_EL0, 3);
	guest_write(PMEVCNTR0_EL0, 0xffffffffull);
	guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
	guest_write(PMSWINC_EL0, 1);
	if (wide()) {
		assert_int_equal(guest_read(PMEVCNTR0_EL0), 0x100000000ull);
		assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
		assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	} else { /* no LP before PMUv3p5: a 32-bit overflow feeds CHAIN */
		assert_int_equal(guest_read(PMEVCNTR1_EL0), 1);
	}
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMEVCNTR0_EL0, 0xffffffffull);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), wide() ? 1 : 2);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	if (!wide())
		return;
	/* With LP = 1 even a 64-bit overflow feeds no CHAIN (AArch64.IncrementEventCounter counts
	 * PMU_EVENT_CHAIN only when lp == '0'). */
	guest_write(PMOVSCLR_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
	guest_write(PMEVCNTR0_EL0, ~0ull);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1);
}

/* A first-range flag of nobody's counter (left by a previous owner, or the UNKNOWN reset) with
 * its interrupt enabled: PMUIRQ clears it and counts it, the line drops, no storm. */
static void test_stray_flag_cleared(void **state)
{
	struct vperf_vm_config off = { .pmu_mode = VPERF_PMU_OFF };

	(void)state;
	assert_int_equal(hv_vm(3, &off), VPERF_OK);
	sim_poke(0, VPERF_ENC_PMCR_EL0, PMCR_E);
	sim_poke(0, VPERF_ENC_PMINTENSET_EL1, 0x4);
	sim_poke(0, VPERF_ENC_PMOVSSET_EL0, 0x4);
	hv_enter(hv_vcpu(3, 3), 0); /* a VM without a vPMU: nobody owns the first range */
	hv_run_n(&op3, 300);
	assert_int_equal(hv.pcpu[0].stats.stray_overflows, 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & 0x4, 0);
	assert_false(sim_line(0, SIM_LINE_PMUIRQ));
	assert_true(hv.max_irq_burst <= 1);
}

/* On a PE with SPE, a VM without SPE sees no SAMPLE_* event in PMCEID0 (bits 35:32, events
 * 0x4000-0x4003, I5.3.6), and a counter programmed with one counts at no Exception level. */
static void test_sample_events_hidden_without_spe(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config c0 = policy(VPERF_PMU_SELF, 3);

	(void)state;
	hv_default_config(&cfg);
	cfg.pmsver = 1;
	cfg.pmsidr = 0x64; /* what sim_spe_default_config gives: an interval of 256 */
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &c0), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCEID0_EL0) & VPERF_GENMASK(35, 32),
			 VPERF_GENMASK(35, 32));
	assert_int_equal(guest_read(PMCEID0_EL0) & VPERF_GENMASK(35, 32), 0);
	guest_write(PMEVTYPER0_EL0, 0x4000);
	/* evtCount[15:10] is RES0 before PMUv3p1 (I5.3.30): there the type reads as event 0. */
	assert_int_equal(guest_read(PMEVTYPER0_EL0), cfg.pmuver >= 4 ? 0x4000 : 0);
	assert_int_equal(hw_evtyper(0) & (P_BIT | U_BIT), P_BIT | U_BIT);
	assert_int_equal(sim_error_count(), 0);
}

/* vperf's virtual line through the model's list registers (tests/unit/hv.c): the guest takes
 * its PMU interrupt once, its handler clears the flag (the line drops) and ends it; a handler
 * that ends it with the flag still set takes it again (level). */
static void test_virq_through_list_registers(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint32_t virq = vperf_vm_pmu_virq(&hv.vm[0]);

	(void)state;
	a->clear_in_handler = true;
	hv_enter(a, 0);
	near_overflow();
	hv_run_n(&op3, 10);
	hv_settle();
	assert_int_equal(a->virqs, 1);
	assert_int_equal(sim_gic_virt_count(0, virq), 1);
	assert_false(a->irq_level);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_INVALID);

	a->clear_in_handler = false;
	guest_write(PMEVCNTR1_EL0, 0xfffffffaull);
	hv_run_n(&op3, 10);
	hv_settle();
	hv_run_n(&op3, 5);
	assert_true(a->virqs >= 3); /* ended with the line high: taken again */
	guest_write(PMOVSCLR_EL0, 2);
	hv_run_n(&op3, 5);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_INVALID);
	assert_int_equal(sim_error_count(), 0);
}

/* A switch while the guest's PMU interrupt is active (its handler has not ended it): the list
 * register goes with the vCPU, the other vCPU never takes it, and back home the guest clears
 * its flag and ends the interrupt, which is not taken again. */
static void test_switch_with_virq_active(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 0);
	uint32_t virq = vperf_vm_pmu_virq(&hv.vm[0]);

	(void)state;
	a->defer_eoi = true;
	hv_enter(a, 0);
	near_overflow();
	hv_run_n(&op3, 10);
	hv_settle();
	assert_true(a->in_handler);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_ACTIVE);
	hv_enter(b, 0);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_INVALID);
	guest_write(PMEVTYPER0_EL0, EV_INST);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 50);
	assert_int_equal(b->virqs, 0);
	assert_int_equal(sim_gic_virt_count(0, virq), 1);
	hv_enter(a, 0);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_ACTIVE);
	guest_write(PMOVSCLR_EL0, 2);
	hv_guest_eoi(a);
	hv_run_n(&op3, 20);
	assert_int_equal(a->virqs, 1);
	assert_int_equal(sim_lr_state(sim_gic_lr(0, 0)), SIM_LR_INVALID);
	assert_int_equal(sim_error_count(), 0);
}

/* The synchronization window in XENPMU_MODE_ALL, which counts EL2: the privileged guest stops
 * its cycle counting (PMCR_EL0.E = 0); the EL2 cycles after vperf's write and before the ERET
 * count or not (the model draws it; both happen over the seeds), as the instructions after an
 * MSR without ISB may on bare metal. Either way the value is one of the two and stays put from
 * the ERET on: no barrier is needed for what the guest can observe. In SELF and HV the guest's
 * counters never count EL2 (NSH = 0, HPMD), so the window cannot show at all (the isolation
 * schedules run with it). */
static void test_all_sync_window(void **state)
{
	unsigned int tail_counted = 0, seeds = 24;

	(void)state;
	for (uint64_t seed = 1; seed <= seeds; seed++) {
		struct vperf_vm_config all = policy(VPERF_PMU_ALL, 2);
		struct sim_pe_config cfg;
		uint64_t v;

		hv_default_config(&cfg);
		cfg.seed = seed;
		cfg.el2_exit_cycles = 10; /* entry: 20 cycles before the handler, exit: 10 after */
		hv_init(&cfg, 2);
		assert_int_equal(hv_vm(2, &all), VPERF_OK);
		hv_enter(hv_vcpu(0, 2), 0);
		guest_write(PMEVTYPER0_EL0, EV_CYCLES);
		guest_write(PMCNTENSET_EL0, 1);
		guest_write(PMCR_EL0, PMCR_E);
		guest_write(PMEVCNTR0_EL0, 0); /* its exit tail counts: 10 */
		hv_run_n(&op3, 2);	       /* 6 */
		guest_write(PMCR_EL0, 0);      /* entry 20, then E = 0, then the tail: 10 or 0 */
		v = guest_read(PMEVCNTR0_EL0);
		assert_true(v == 36 || v == 46);
		tail_counted += v == 46;
		hv_run_n(&op3, 4);
		assert_int_equal(guest_read(PMEVCNTR0_EL0), v);
		assert_int_equal(sim_error_count(), 0);
	}
	assert_true(tail_counted > 0 && tail_counted < seeds);
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

/* EL0 of a vCPU that never used its PMU, on hardware whose PMUSERENR_EL0 holds a grant nobody
 * gave this guest (EN = 1 here, written behind vperf's back): the guest's own PMUSERENR_EL0 is
 * 0, so the access that reaches vperf is refused, never emulated. */
static void test_el0_refused_with_reset_pmuserenr(void **state)
{
	(void)state;
	sim_poke(0, VPERF_ENC_PMUSERENR_EL0, PMUSERENR_EN);
	hv_enter(hv_vcpu(0, 0), 0);
	sim_set_el(0);
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	sim_set_el(1);
	assert_int_equal(guest_read(PMUSERENR_EL0), 0);
}

/* The same vCPU on a pCPU just reset, its PMUSERENR_EL0 UNKNOWN (EN = ER = 1 here) and then
 * initialised: the guest's own PMUSERENR_EL0 is 0, so its EL0 accesses trap to its own EL1, as
 * on bare metal and as on a pCPU another vCPU's put left at 0, not UNDEF (the trap fuzzer's
 * differential check, corpus/trap/77a80575...). */
static void test_el0_traps_to_el1_after_pcpu_reset(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };

	(void)state;
	sim_poke(0, VPERF_ENC_PMUSERENR_EL0, PMUSERENR_EN | PMUSERENR_ER);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	sim_set_el(0);
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL1);
	guest_write(PMSWINC_EL0, 1);
	assert_int_equal(last(), SIM_ACC_TRAP_EL1);
	sim_set_el(1);
	assert_int_equal(guest_read(PMUSERENR_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* XENPMU_MODE_ALL: the privileged VM's counters go on counting after its put, so its overflow
 * may be taken while another VM runs: the flag becomes the privileged vCPU's (the other vCPU
 * takes nothing), and its virtual line rises at its next load. */
static void test_all_overflow_while_descheduled(void **state)
{
	struct vperf_vm_config all = policy(VPERF_PMU_ALL, 2), off = { .pmu_mode = VPERF_PMU_OFF };
	struct hv_vcpu *a, *b;

	(void)state;
	assert_int_equal(hv_vm(2, &all), VPERF_OK);
	assert_int_equal(hv_vm(3, &off), VPERF_OK);
	a = hv_vcpu(0, 2);
	b = hv_vcpu(1, 3);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_INST);
	guest_write(PMEVCNTR0_EL0, 0xfffffff0ull);
	guest_write(PMINTENSET_EL1, 1);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	hv_enter(b, 0);
	hv_run_n(&op3, 40);
	hv_settle();
	assert_int_equal(b->irq_raises, 0);
	assert_false(a->irq_level);
	hv_enter(a, 0);
	assert_true(a->irq_level);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_int_equal(sim_error_count(), 0);
}

/* The virtual line is PMCR_EL0.E && (PMOVSSET & PMINTENSET) (CheckForPMUOverflow): a flag and
 * its enable with E = 0 raise nothing; the line is pushed to the vGIC only when it changes. */
static void test_virq_needs_pmcr_e(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMINTENSET_EL1, 1);
	guest_write(PMOVSSET_EL0, 1);
	assert_false(a->irq_level);
	guest_write(PMCR_EL0, PMCR_E);
	assert_true(a->irq_level);
	guest_write(PMCNTENSET_EL0, 1); /* recomputed, unchanged: not pushed again */
	guest_write(PMINTENSET_EL1, 2);
	assert_int_equal(a->irq_raises, 1);
	guest_write(PMCR_EL0, 0);
	assert_false(a->irq_level);
}

/* The guest's cycle counter overflows: its flag (bit 31) is the guest's, never the host's. */
static void test_cycle_overflow_is_the_guests(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);

	(void)state;
	hv_enter(a, 0);
	guest_write(PMCCNTR_EL0, ~0ull - 5);
	guest_write(PMINTENSET_EL1, VPERF_BIT(31));
	guest_write(PMCNTENSET_EL0, VPERF_BIT(31));
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	hv_settle();
	assert_true(a->irq_level);
	assert_int_equal(guest_read(PMOVSSET_EL0), VPERF_BIT(31));
	assert_int_equal(hv.host_ovs & VPERF_BIT(31), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmcr_lp_pmuv3p4),
		cmocka_unit_test(test_pmcr_mask_follows_pcpu_init),
		cmocka_unit_test_setup(test_xzr, setup),
		cmocka_unit_test(test_late_irq_across_switch),
		cmocka_unit_test(test_late_irq_after_guest_cleared),
		cmocka_unit_test_setup(test_swinc_denied_by_filter, setup),
		cmocka_unit_test_setup(test_chain_with_lp, setup),
		cmocka_unit_test_setup(test_stray_flag_cleared, setup),
		cmocka_unit_test(test_sample_events_hidden_without_spe),
		cmocka_unit_test_setup(test_virq_through_list_registers, setup),
		cmocka_unit_test_setup(test_switch_with_virq_active, setup),
		cmocka_unit_test(test_all_sync_window),
		cmocka_unit_test(test_secure_world_not_counted),
		cmocka_unit_test_setup(test_el0_refused_with_reset_pmuserenr, setup),
		cmocka_unit_test_setup(test_el0_traps_to_el1_after_pcpu_reset, setup),
		cmocka_unit_test_setup(test_all_overflow_while_descheduled, setup),
		cmocka_unit_test_setup(test_virq_needs_pmcr_e, setup),
		cmocka_unit_test_setup(test_cycle_overflow_is_the_guests, setup),
	};

	return cmocka_run_group_tests_name("vpmu_adversary", tests, NULL, NULL);
}
