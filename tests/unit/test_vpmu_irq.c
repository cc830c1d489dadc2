// SPDX-License-Identifier: MIT
/*
 * The PMU overflow interrupt (virt/vpmu/irq.c): whose overflow a physical PMUIRQ carries (the
 * guest's, the host's, a stray flag of an owner that moved on; never the external agent's cycle
 * counter), the interrupt arriving late (across a switch, after the guest cleared its flag, for a
 * descheduled XENPMU_MODE_ALL vCPU), the virtual PPI through the model's list registers and
 * PMCR_EL0.E gating it.
 *
 * The guest's virtual PMU interrupt line across the lazy put (docs/vpmu.md, "Lazy put"): a level
 * computed from the guest's PMCR_EL0.E, PMINTENSET_EL1 and overflow flags (PMUIRQ is
 * level-sensitive, Arm DDI 0487 K.a I5.3.36-45), pushed to the vGIC when it changes. A change
 * that happens while the vCPU is not loaded is owed to it at its next load, and an overflow flag
 * a lazy put takes from the hardware raises the line at that put, whether or not the VM also has
 * a vSPE (its put goes through the full put, not the vPMU-only short one).
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <sim/gic.h>
#include <sim/spe.h>
#include <vperf/esr.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

/* Counter 0 counts cycles from `start`, its interrupt enabled, the PMU enabled. */
static void cycles_from(uint64_t start)
{
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMEVCNTR0_EL0, start);
	guest_write(PMINTENSET_EL1, 1);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
}

/*
 * A parked vCPU (put lazily, its counters in pCPU 0's hardware) whose line goes up while it is
 * not loaded: counting stops at the put (PMCR_EL0.E = 0), but that write takes effect for the
 * counters only at the next context synchronization event (Arm DDI 0487 K.a, synchronization
 * of changes to System registers), so a counter at the edge may still overflow
 * after the put read the flags; the PMUIRQ for that late flag is taken on pCPU 0 after the put
 * (vperf_handle_pmu_irq), which moves the flag into the parked vCPU's shadow. The line must be
 * high at the vCPU's next load on pCPU 0, before its guest touches any PMU register, though that
 * load resumes the parked counters with no restore. Mutation tried: vperf_vpmu_load resuming a
 * parked vCPU whatever irq_dirty says (switch.c, "&& !s->irq_dirty" dropped): the line stays low.
 */
static void test_parked_line_change_pushed_at_load(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_HV, 4);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	hv.lazy_put = true;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	cycles_from(0);
	hv_run_n(&op3, 4);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&a->v));
	assert_false(a->irq_level);
	/* The late overflow: counter 0's flag in the hardware, its PMUIRQ taken at EL2. */
	sim_poke(0, VPERF_ENC_PMOVSSET_EL0, sim_peek(0, VPERF_ENC_PMOVSSET_EL0) | 1);
	sim_enter_el2(0);
	assert_true(vperf_handle_pmu_irq(&hv.pcpu[0]));
	sim_exit_el2(0);
	assert_false(a->irq_level); /* not loaded: nothing pushed for it yet */
	hv_enter(a, 0);
	assert_true(a->irq_level);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_int_equal(sim_error_count(), 0);
}

#ifdef CONFIG_VPERF_VSPE
/*
 * A VM with a vPMU and a vSPE, its overflow's PMUIRQ still in flight (the model takes it only
 * after many poll points) when it is put lazily: the put stops counting and takes the flag into
 * the shadow, the physical line drops, and the virtual line must go up at that put. Mutation
 * tried: vperf_vpmu_put's lazy branch not pushing the line when park() says so (switch.c,
 * "if (push) vperf_vpmu_update_irq(vcpu);" dropped): the line stays low through the put and the
 * next load, and the guest never takes its interrupt.
 */
static void test_lazy_put_with_vspe_raises_taken_flag(void **state)
{
	const struct vperf_vm_config spe = { .spe = true, .spe_buffer = VPERF_SPE_BUF_EL1_TRAPPED };
	struct vperf_vm_config cfg = spe;
	struct sim_pe_config pe;
	struct hv_vcpu *a;

	(void)state;
	sim_spe_default_config(&pe, 1);
	pe.pmuirq_latency = SIM_IRQ_AFTER_POLLS;
	pe.pmuirq_polls = 1000;
	hv_init(&pe, 2);
	hv.lazy_put = true;
	cfg.pmu_mode = VPERF_PMU_HV;
	cfg.nr_counters = 2;
	vperf_pmu_filter_allow_all(&cfg.filter);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	cycles_from(0xfffffff0ull);
	hv_run_n(&op3, 10);
	assert_true(sim_gic_pmuirq_delayed(0));
	assert_false(a->irq_level);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&a->v));
	assert_true(a->irq_level);
	hv_enter(a, 0);
	assert_true(a->irq_level);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_int_equal(sim_error_count(), 0);
}
#endif

static const struct sim_uop op1 = { .pc = 0x4000, .latency = 1, .type = SIM_UOP_OTHER };

/*
 * The cycle counter is the guest's, never the external agent's: the agent's range is [EPMN, N)
 * (PMCCR.EPMN, I5.3.47), and bit 31 is no counter of it. The guest's cycle counter overflows
 * twice with its interrupt enabled: both reach the guest, and the hardware's PMINTENSET_EL1.C is
 * still set (an agent mask that took bit 31 would clear it and the second overflow would never
 * interrupt).
 */
static void test_cycle_overflow_not_the_agents(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 1, .agent_counters = 1 };
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 0);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK); /* N = 6: EPMN = 5 */
	hv_host_boot(0);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	a->clear_in_handler = true;
	hv_enter(a, 0);
	guest_write(PMINTENSET_EL1, VPERF_BIT(31));
	guest_write(PMCNTENSET_EL0, VPERF_BIT(31));
	for (unsigned int round = 1; round <= 2; round++) {
		guest_write(PMCCNTR_EL0, ~0ull - 20);
		guest_write(PMCR_EL0, PMCR_E);
		/* PMUIRQ may come up to 255 poll points late (docs/model.md). */
		hv_run_n(&op1, 300);
		hv_settle();
		assert_int_equal(a->virqs, round);
	}
	assert_true(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & VPERF_BIT(31));
	assert_int_equal(guest_read(PMINTENSET_EL1), VPERF_BIT(31));
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(hv.pcpu[0].stats.agent_overflows, 0);
#endif
	assert_null(strstr(hv.last_log, "external agent"));
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A flag left on a pCPU by a vCPU that has moved on is not that vCPU's any more: its state and its
 * flags were taken at put, and it may have cleared them since, on another pCPU. vCPU A's counter
 * 0 overflows with no interrupt enabled on pCPU 0, A moves to pCPU 1 and clears the flag there;
 * then the host's counter 4 overflows on pCPU 0 (a VM without a vPMU runs there). The PMUIRQ is
 * the host's; A's stale flag on pCPU 0 is a stray, cleared, and A never sees it again.
 */
static void test_stale_flag_not_handed_to_moved_owner(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 2);
	const struct vperf_vm_config off = { .pmu_mode = VPERF_PMU_OFF };
	struct hv_vcpu *a, *b;

	(void)state;
	hv_init(NULL, 2); /* N = 6: guests [0, 4), the host [4, 6) */
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	assert_int_equal(hv_vm(1, &off), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, EV_INST);
	guest_write(PMEVCNTR0_EL0, 0xfffffffbull);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op1, 20);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	hv_leave(0);
	assert_true(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & 1); /* left on pCPU 0 */
	hv_enter(a, 1);
	guest_write(PMOVSCLR_EL0, 1);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);

	/* The host counts cycles on its counter 4, one short of overflowing. */
	sim_set_cpu(0);
	sim_poke(0, VPERF_ENC_PMEVTYPER4_EL0, EV_CYCLES);
	sim_poke(0, VPERF_ENC_PMEVCNTR4_EL0, 0xfffffff0ull);
	sim_poke(0, VPERF_ENC_PMINTENSET_EL1, VPERF_BIT(4));
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, VPERF_BIT(4));
	hv_enter(b, 0);
	hv_run_n(&op1, 300);
	hv_settle();
	assert_true(hv.host_ovs & VPERF_BIT(4));
	assert_int_equal(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & 1, 0);
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(hv.pcpu[0].stats.stray_overflows, 1);
#endif
	hv_enter(a, 1);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_false(a->irq_level);
	assert_int_equal(sim_error_count(), 0);
}

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
		cmocka_unit_test(test_parked_line_change_pushed_at_load),
#ifdef CONFIG_VPERF_VSPE
		cmocka_unit_test(test_lazy_put_with_vspe_raises_taken_flag),
#endif
		cmocka_unit_test(test_cycle_overflow_not_the_agents),
		cmocka_unit_test(test_stale_flag_not_handed_to_moved_owner),
		cmocka_unit_test(test_pmcr_e_drives_the_line),
		cmocka_unit_test(test_late_irq_across_switch),
		cmocka_unit_test(test_late_irq_after_guest_cleared),
		cmocka_unit_test_setup(test_stray_flag_cleared, setup),
		cmocka_unit_test_setup(test_virq_through_list_registers, setup),
		cmocka_unit_test_setup(test_switch_with_virq_active, setup),
		cmocka_unit_test_setup(test_all_overflow_while_descheduled, setup),
		cmocka_unit_test_setup(test_virq_needs_pmcr_e, setup),
		cmocka_unit_test_setup(test_cycle_overflow_is_the_guests, setup),
	};

	return cmocka_run_group_tests_name("vpmu_irq", tests, NULL, NULL);
}
