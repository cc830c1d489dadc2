// SPDX-License-Identifier: MIT
/*
 * CHAIN (event 0x1E) with a hardware event on the even counter, in every partition: the odd
 * counter of a pair counts each overflow of bits [31:0] of its even neighbour while PMCR_EL0.LP
 * is 0 (or always before PMUv3p5), wraps at its own 32-bit overflow and sets its own flag
 * (Arm DDI 0487, D14 event 0x1E CHAIN; J1 AArch64.IncrementEventCounter). The guest is the same
 * in each world: the trapped partition, the direct one (PMUv3p5 and later), and the emulated one
 * on the whole first range (emu_slots = 0) and on 1, 2 and 3 slots, fewer than the counters it
 * enables in the multiplexed cases. In the emulated partition the guest's counters are placed on
 * physical counters it cannot name, but a CHAIN pair shows the placement: it must land on an
 * even/odd physical pair, or be chained in software where there is none (one slot).
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

static const struct sim_uop op1 = { .pc = 0x4000, .latency = 1, .type = SIM_UOP_OTHER };

enum world { TRAPPED, DIRECT, EMU_ALL, EMU_1, EMU_2, EMU_3, WORLDS };

static const char *const world_name[WORLDS] = { "trapped",    "direct",	    "emulated/0",
						"emulated/1", "emulated/2", "emulated/3" };

/* N = 6, the host keeps 2 (HPMN = 4): VM 0 with 4 counters in the given world, VM 1 a trapped
 * neighbour with 2. False when the world does not exist on this PMU (the direct partition needs
 * PMUv3p5, and FEAT_FGT on a core profile whose MT may count: hv_direct_offered). */
static bool world(enum world w)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 4), other = policy(VPERF_PMU_SELF, 2);

	hv_init(NULL, 2);
	if (w == DIRECT) {
		cfg.partition = VPERF_PART_DIRECT;
		if (!hv_direct_offered())
			return false;
	} else if (w != TRAPPED) {
		cfg.partition = VPERF_PART_EMULATED;
		cfg.emu_slots = w == EMU_ALL ? 0 : (uint8_t)(w - EMU_1 + 1);
	}
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	assert_int_equal(hv_vm(1, &other), VPERF_OK);
	return true;
}

/* VM 1's vCPU takes the PMU between two runs of VM 0's: VM 0's next load is a full restore. */
static void neighbour_runs(void)
{
	hv_enter(hv_vcpu(1, 1), 0);
	guest_write(PMCR_EL0, PMCR_E);
	hv_leave(0);
}

/* n events of the even counter's kind (every op is one instruction of one cycle). */
static void run_events(unsigned int n)
{
	hv_run_n(&op1, n);
}

static uint64_t evcntr(unsigned int n)
{
	return guest_mrs(VPERF_SYSREG_ENC(3, 3, 14, 8, n));
}

static void set_evcntr(unsigned int n, uint64_t v)
{
	guest_msr(VPERF_SYSREG_ENC(3, 3, 14, 8, n), v);
}

static void set_evtyper(unsigned int n, uint64_t v)
{
	guest_msr(VPERF_SYSREG_ENC(3, 3, 14, 12, n), v);
}

/* What a 32-bit overflow leaves in a counter that was 0xffffffff + k (k < 2^32) before it
 * wrapped: 64-bit counters (PMUv3p5) carry into bit 32 with LP = 0, 32-bit ones wrap. */
static uint64_t wrapped(uint64_t low)
{
	return wide() ? 0x100000000ull + low : low;
}

/* The guest: counter 0 counts event from 5 short of its 32-bit wrap, counter 1 counts CHAIN
 * from odd_start; enabled odd counter first when odd_first (the placement must not depend on
 * it), with the overflow interrupts. */
static void program_pair(uint32_t event, uint64_t odd_start, bool odd_first)
{
	set_evtyper(0, event);
	set_evtyper(1, EV_CHAIN);
	set_evcntr(0, 0xfffffffbull);
	set_evcntr(1, odd_start);
	guest_write(PMINTENSET_EL1, 3);
	if (odd_first) {
		guest_write(PMCNTENSET_EL0, 2);
		guest_write(PMCNTENSET_EL0, 1);
	} else {
		guest_write(PMCNTENSET_EL0, 3);
	}
	guest_write(PMCR_EL0, PMCR_E);
}

/* The exact rule, in every world (the pair alone fits even one slot, chained in software):
 * the even overflow increments the odd counter, both flags follow their own overflows, and a
 * switch to another vCPU and back (a full restore) keeps it so. */
static void check_exact(enum world w, uint32_t event, bool odd_first)
{
	struct hv_vcpu *v;

	if (!world(w))
		return;
	print_message("%s: event 0x%x, odd counter enabled %s\n", world_name[w], event,
		      odd_first ? "first" : "with the even one");
	v = hv_vcpu(0, 0);
	hv_enter(v, 0);
	program_pair(event, 1, odd_first);
	run_events(6);
	assert_int_equal(evcntr(0), wrapped(1));
	assert_int_equal(evcntr(1), 2);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	hv_settle();
	assert_true(v->irq_level);

	/* The odd counter's own overflow: it wraps, its flag is set, nothing chains further. */
	guest_write(PMOVSCLR_EL0, 3);
	set_evcntr(0, 0xfffffffbull);
	set_evcntr(1, 0xffffffffull);
	hv_leave(0);
	neighbour_runs();
	hv_enter(v, 0);
	run_events(6);
	assert_int_equal(evcntr(0), wrapped(1));
	assert_int_equal(evcntr(1), wrapped(0));
	assert_int_equal(guest_read(PMOVSSET_EL0), 3);
	assert_int_equal(sim_error_count(), 0);
	hv_leave(0);
}

static void test_chain_cycles_exact(void **state)
{
	(void)state;
	for (enum world w = 0; w < WORLDS; w++)
		check_exact(w, EV_CYCLES, false);
}

static void test_chain_inst_exact(void **state)
{
	(void)state;
	for (enum world w = 0; w < WORLDS; w++)
		check_exact(w, EV_INST, false);
}

/* The odd counter enabled before its even neighbour: the guest cannot tell the difference. */
static void test_chain_enable_order(void **state)
{
	(void)state;
	for (enum world w = 0; w < WORLDS; w++)
		check_exact(w, EV_CYCLES, true);
}

/* PMCR_EL0.LP = 1 (PMUv3p5): the even counter is 64 bits, overflows at bit 63 only, and its
 * 32-bit carry feeds no CHAIN, in every partition. */
static void test_chain_lp(void **state)
{
	(void)state;
	if (!wide())
		skip();
	for (enum world w = 0; w < WORLDS; w++) {
		if (!world(w))
			continue;
		hv_enter(hv_vcpu(0, 0), 0);
		program_pair(EV_CYCLES, 7, false);
		guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
		run_events(6);
		assert_int_equal(evcntr(0), 0x100000001ull);
		assert_int_equal(evcntr(1), 7);
		assert_int_equal(guest_read(PMOVSSET_EL0), 0);
		hv_leave(0);
	}
}

/*
 * All four counters enabled, counter 0 counting CPU_CYCLES from 0x100 short of its wrap, counter
 * 1 CHAIN, 2 and 3 CPU_CYCLES (with two_pairs: counter 2 from 0x80 short of its wrap, 3 CHAIN),
 * run in 15 slices of 0x40 cycles (a neighbour's between some): the emulated worlds with fewer
 * slots than counters multiplex them and undercount, but each pair keeps its relation in every
 * slice: the odd counter counted exactly the overflows of the even one (one, seen in its flag,
 * since it counts less than 2^32), and counted nothing else.
 */
#define SLICES 15u

static void check_pair(uint64_t lo, uint64_t hi, uint64_t ovs, unsigned int n, uint64_t hi_start)
{
	assert_true(ovs & VPERF_BIT(n)); /* the even counter counted past its wrap */
	assert_int_equal(ovs & VPERF_BIT(n + 1), 0);
	assert_int_equal(hi, hi_start + 1);
	if (wide())
		assert_int_equal(lo >> 32, 1);
	assert_true((lo & 0xffffffffull) < SLICES * 0x40);
}

static void check_multiplexed(enum world w, bool two_pairs)
{
	struct hv_vcpu *v;
	uint64_t c[4], ovs;

	if (!world(w))
		return;
	v = hv_vcpu(0, 0);
	hv_enter(v, 0);
	set_evtyper(0, EV_CYCLES);
	set_evtyper(1, EV_CHAIN);
	set_evtyper(2, EV_CYCLES);
	set_evtyper(3, two_pairs ? EV_CHAIN : EV_CYCLES);
	set_evcntr(0, 0xffffff00ull);
	set_evcntr(1, 9);
	if (two_pairs) {
		set_evcntr(2, 0xffffff80ull);
		set_evcntr(3, 20);
	}
	guest_write(PMCNTENSET_EL0, 0xf);
	guest_write(PMCR_EL0, PMCR_E);
	hv_leave(0);
	for (unsigned int slice = 0; slice < SLICES; slice++) {
		hv_enter(v, 0);
		run_events(0x40);
		hv_leave(0);
		if (slice % 3 == 1)
			neighbour_runs();
	}
	hv_enter(v, 0);
	for (unsigned int n = 0; n < 4; n++)
		c[n] = evcntr(n);
	ovs = guest_read(PMOVSSET_EL0);
	print_message("%s%s: counters %llx %llu %llx %llu, PMOVSSET %llx\n", world_name[w],
		      two_pairs ? ", two pairs" : "", (unsigned long long)c[0],
		      (unsigned long long)c[1], (unsigned long long)c[2], (unsigned long long)c[3],
		      (unsigned long long)ovs);
	check_pair(c[0], c[1], ovs, 0, 9);
	if (two_pairs)
		check_pair(c[2], c[3], ovs, 2, 20);
	if (w == TRAPPED || w == DIRECT || w == EMU_ALL)
		assert_int_equal(c[0], wrapped(SLICES * 0x40 - 0x100));
	assert_int_equal(sim_error_count(), 0);
	hv_leave(0);
}

static void test_chain_multiplexed(void **state)
{
	(void)state;
	for (enum world w = 0; w < WORLDS; w++)
		check_multiplexed(w, false);
}

static void test_two_chains_multiplexed(void **state)
{
	(void)state;
	for (enum world w = 0; w < WORLDS; w++)
		check_multiplexed(w, true);
}

/*
 * A pair made while its counters count: counters 1, 2 and 3 enabled counting CPU_CYCLES (the
 * emulated partition places them one by one: on three slots counter 2 lands on an odd physical
 * counter), then counter 3 turned to CHAIN: from then on it counts the overflows of counter 2
 * (the pair moves to a physical pair), and once turned back it counts cycles again.
 */
static void test_chain_made_while_counting(void **state)
{
	(void)state;
	for (enum world w = 0; w < WORLDS; w++) {
		if (w == EMU_1 || w == EMU_2 || !world(w))
			continue; /* three counters multiplexed on fewer slots: not exact */
		print_message("%s: CHAIN made and undone while counting\n", world_name[w]);
		hv_enter(hv_vcpu(0, 0), 0);
		for (unsigned int n = 1; n < 4; n++)
			set_evtyper(n, EV_CYCLES);
		set_evcntr(2, 0xfffffff0ull);
		guest_write(PMCNTENSET_EL0, 0xe);
		guest_write(PMCR_EL0, PMCR_E);
		run_events(0xb);
		set_evtyper(3, EV_CHAIN);
		set_evcntr(3, 1);
		run_events(6);
		assert_int_equal(evcntr(1), 0x11);
		assert_int_equal(evcntr(2), wrapped(1));
		assert_int_equal(evcntr(3), 2);
		assert_int_equal(guest_read(PMOVSSET_EL0), 4);
		set_evtyper(3, EV_CYCLES);
		run_events(3);
		assert_int_equal(evcntr(3), 5);
		assert_int_equal(evcntr(1), 0x14);
		hv_leave(0);
	}
}

/*
 * One slot, the pair chained in software, the guest with no overflow interrupt enabled: vperf
 * takes each overflow of the even counter at the physical PMUIRQ, also when the guest does not
 * trap in between (a second overflow, 2^32 cycles later, made here by setting the physical
 * counter near its wrap again), counts it in the odd counter, and raises no virtual interrupt.
 * With late, the even counter counts alone on the slot first and the pair is made while it does
 * (nothing moves: the slot's interrupt must be enabled all the same).
 */
static void check_soft_chain_between_traps(bool late)
{
	struct hv_vcpu *v;
	unsigned int irqs;

	world(EMU_1);
	v = hv_vcpu(0, 0);
	hv_enter(v, 0);
	if (late) {
		set_evtyper(0, EV_CYCLES);
		set_evcntr(0, 0xfffffffbull);
		guest_write(PMCNTENSET_EL0, 1);
		guest_write(PMCR_EL0, PMCR_E);
		set_evtyper(1, EV_CHAIN);
		set_evcntr(1, 1);
		guest_write(PMCNTENSET_EL0, 2);
	} else {
		program_pair(EV_CYCLES, 1, false);
		guest_write(PMINTENCLR_EL1, 3);
	}
	irqs = hv.pmu_irqs;
	run_events(6);
	hv_settle();
	assert_int_equal(hv.pmu_irqs, irqs + 1);
	sim_poke(0, VPERF_ENC_PMEVCNTR0_EL0, 0xfffffffbull);
	run_events(6);
	hv_settle();
	assert_int_equal(hv.pmu_irqs, irqs + 2);
	assert_int_equal(evcntr(1), 3);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_false(v->irq_level);
	assert_int_equal(guest_read(PMINTENSET_EL1), 0);
	assert_true(hv.max_irq_burst <= 1);
	/* The pair undone: the slot's interrupt is the guest's again (none). */
	set_evtyper(1, EV_CYCLES);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & 1, 0);
	assert_int_equal(sim_error_count(), 0);
	hv_leave(0);
}

static void test_soft_chain_between_traps(void **state)
{
	(void)state;
	check_soft_chain_between_traps(false);
	check_soft_chain_between_traps(true);
}

/*
 * A VM whose filter denies CHAIN: its odd counter counts nothing, whether the even counter's
 * overflow comes from the hardware or from an emulated PMSWINC. vperf gives the hardware a type
 * that excludes every level for a denied event, but a PE may ignore the filter settings of the
 * CHAIN event and count it everywhere (D14, event 0x1E), as the model does.
 */
static void test_chain_denied(void **state)
{
	(void)state;
	for (enum world w = 0; w < WORLDS; w++) {
		struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, 4);

		if (w == DIRECT)
			continue; /* a filter needs FEAT_FGT there (test_vpmu_fgt.c) */
		world(w);
		if (w != TRAPPED) {
			cfg.partition = VPERF_PART_EMULATED;
			cfg.emu_slots = w == EMU_ALL ? 0 : (uint8_t)(w - EMU_1 + 1);
		}
		vperf_pmu_filter_set(&cfg.filter, EV_CHAIN, false);
		assert_int_equal(hv_vm(2, &cfg), VPERF_OK);
		print_message("%s, CHAIN denied\n", world_name[w]);
		hv_enter(hv_vcpu(0, 2), 0);
		program_pair(EV_CYCLES, 1, false);
		run_events(6);
		assert_int_equal(evcntr(0), wrapped(1));
		assert_int_equal(evcntr(1), 1);
		set_evtyper(0, EV_SW_INCR);
		set_evcntr(0, 0xffffffffull);
		guest_write(PMSWINC_EL0, 1);
		assert_int_equal(evcntr(0), wrapped(0));
		assert_int_equal(evcntr(1), 1);
		assert_int_equal(guest_read(PMOVSSET_EL0), 1);
		hv_leave(0);
	}
}

/* Two slots, a counter alone before a pair in the rotation: the pair does not fit in the one
 * slot left and waits as a whole (map.c); it never takes a third physical counter, and the
 * counter alone keeps counting where it is. */
static void test_pair_waits_whole(void **state)
{
	(void)state;
	world(EMU_2);
	hv_enter(hv_vcpu(0, 0), 0);
	set_evtyper(0, EV_CYCLES);
	set_evtyper(2, EV_CYCLES);
	set_evtyper(3, EV_CHAIN);
	set_evcntr(2, 0x1000);
	set_evcntr(3, 5);
	guest_write(PMCNTENSET_EL0, 0xd);
	guest_write(PMCR_EL0, PMCR_E);
	run_events(10);
	assert_int_equal(evcntr(0), 10);
	assert_int_equal(evcntr(2), 0x1000);
	assert_int_equal(evcntr(3), 5);
	/* Physical counters 2 and 3 are in the first range (HPMN = 4) but not the VM's slots. */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & 0xcu, 0);
	assert_int_equal(sim_error_count(), 0);
	hv_leave(0);
}

/* A repack (map.c) on the whole first range: where nothing moves it makes no register access (a
 * sentinel the test leaves in PMINTENSET_EL1 stays); a pair enabled while counter 0 holds an
 * overflow flag in the hardware moves counter 0 after the pair with its flag; the pair disabled
 * again moves it back and leaves no enable on the physical counter it vacated. */
static void test_repack_moves_flags_and_vacates(void **state)
{
	(void)state;
	world(EMU_ALL);
	hv_enter(hv_vcpu(0, 0), 0);
	set_evtyper(0, EV_CYCLES);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	sim_poke(0, VPERF_ENC_PMINTENSET_EL1, sim_peek(0, VPERF_ENC_PMINTENSET_EL1) | 1u);
	guest_write(PMCNTENSET_EL0, 1); /* nothing moves */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & 1u, 1);
	sim_poke(0, VPERF_ENC_PMINTENSET_EL1, sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & ~1ull);

	set_evcntr(0, 0xfffffffbull);
	run_events(
		10); /* counter 0 overflows, its interrupt disabled: the flag stays in hardware */
	set_evtyper(2, EV_CYCLES);
	set_evtyper(3, EV_CHAIN);
	guest_write(PMCNTENSET_EL0, 0xc); /* the pair takes (0, 1), counter 0 moves to 2 */
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	guest_write(PMCNTENCLR_EL0, 0xc); /* counter 0 back on 0, physical 2 vacated */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & 0xeu, 0);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	assert_int_equal(sim_error_count(), 0);
	hv_leave(0);
}

/*
 * One slot: counter 0 overflows while it counts alone (its interrupt disabled, so its flag stays
 * raised in the hardware), then counter 1 is turned to CHAIN. The overflow happened before the
 * pair existed: the odd counter must not count it (D14 event 0x1E counts the overflows of the
 * even counter while the odd one counts CHAIN), at the next trap nor at the put; only a later
 * overflow counts.
 */
static void test_soft_chain_old_flag(void **state)
{
	struct hv_vcpu *v;

	(void)state;
	world(EMU_1);
	v = hv_vcpu(0, 0);
	hv_enter(v, 0);
	set_evtyper(0, EV_CYCLES);
	set_evtyper(1, EV_CYCLES);
	set_evcntr(0, 0xfffffffbull);
	set_evcntr(1, 7);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	run_events(10);
	guest_write(PMCNTENSET_EL0, 2);
	set_evtyper(1, EV_CHAIN);
	assert_int_equal(evcntr(1), 7);
	assert_int_equal(guest_read(PMOVSSET_EL0), 1);
	hv_leave(0);
	neighbour_runs();
	hv_enter(v, 0);
	assert_int_equal(evcntr(1), 7);
	sim_poke(0, VPERF_ENC_PMEVCNTR0_EL0, 0xfffffffbull);
	run_events(6);
	assert_int_equal(evcntr(1), 8);
	assert_int_equal(sim_error_count(), 0);
	hv_leave(0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_cycles_exact),
		cmocka_unit_test(test_chain_inst_exact),
		cmocka_unit_test(test_chain_enable_order),
		cmocka_unit_test(test_chain_lp),
		cmocka_unit_test(test_chain_multiplexed),
		cmocka_unit_test(test_two_chains_multiplexed),
		cmocka_unit_test(test_chain_made_while_counting),
		cmocka_unit_test(test_soft_chain_between_traps),
		cmocka_unit_test(test_chain_denied),
		cmocka_unit_test(test_pair_waits_whole),
		cmocka_unit_test(test_repack_moves_flags_and_vacates),
		cmocka_unit_test(test_soft_chain_old_flag),
		cmocka_unit_test_setup(test_chain_with_lp, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
