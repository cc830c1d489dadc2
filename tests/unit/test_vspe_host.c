// SPDX-License-Identifier: MIT
/*
 * A host profiling itself with its own EL2-owned Profiling Buffer (vperf_pcpu_config.host_spe)
 * while a vSPE guest runs on the same pCPU: vperf parks the host's buffer before MDCR_EL2.E2PB
 * gives the buffer to EL1 and restores it after. Every record lands in its owner's buffer; the
 * model reports any record written through the wrong owner's translation regime. Packet layouts:
 * Arm DDI 0487 K.a D18.2.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/esr.h>
#include <vperf/spe_rec.h>

#include "vspe_util.h"

#define HOST_VA	  0x0000008000000000ull /* EL2 regime */
#define HOST_PA	  0x70000000ull
#define HOST_SIZE 0x10000ull
#define HOST_PC	  0x0000008000001000ull
#define E2SPE	  0x02ull
#define EL2_PC	  0xffff800000002000ull /* the model's PC for the hypervisor's own instructions */
#define VA_BITS	  0x00ffffffffffffffull /* what an Address packet holds (D18.2.1) */

static struct lx_spe lx;

static void host_init(void)
{
	struct vperf_pcpu_config cfg = hv.pcpu[0].cfg;

	cfg.host_spe = true;
	sim_set_cpu(0);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &cfg), VPERF_OK);
	write_sysreg(hv.pcpu[0].host_mdcr, MDCR_EL2); /* E2PB = 0b00: the host's buffer */
	assert_int_equal(
		sim_mem_map_s1(SIM_REGIME_EL2, 0, HOST_VA, HOST_PA, HOST_SIZE, SIM_PERM_RW),
		VPERF_OK);
	write_sysreg(HOST_VA, PMBPTR_EL1);
	write_sysreg((HOST_VA + HOST_SIZE) | V_PMBLIMITR_E, PMBLIMITR_EL1);
	write_sysreg(0, PMSFCR_EL1);
	write_sysreg(V_INTERVAL_1, PMSIRR_EL1);
	write_sysreg(0, PMSICR_EL1);
	write_sysreg(E2SPE, PMSCR_EL2);
	isb();
}

/* A world of seed with SPE version pmsver, one VM with a trapped vSPE, and the host profiling
 * itself into its own buffer: the VM's vCPU. */
static struct hv_vcpu *vspe_vm_beside_host(unsigned int pmsver, uint64_t seed)
{
	vs_init(pmsver, 0, seed);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	host_init();
	return hv_vcpu(0, 0);
}

/* The host's own code, sampled at EL2. */
static void host_run(unsigned int n)
{
	const struct sim_uop op = {
		.pc = HOST_PC, .vaddr = 0x8000, .latency = 3, .type = SIM_UOP_LOAD, .size_log2 = 3
	};

	sim_set_el(2);
	for (unsigned int i = 0; i < n; i++)
		guest_run(&op, 1);
}

static unsigned int vperf_samples; /* records of vperf's own EL2 instructions */

/* Stop, drain, and decode the host's buffer: every record is the host's, of its own code or of
 * vperf's, which runs in it at EL2. */
static unsigned int host_records(void)
{
	static uint8_t buf[HOST_SIZE];
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	unsigned int n = 0;
	uint64_t end;

	write_sysreg(0, PMSCR_EL2);
	isb();
	psb_csync();
	dsb_nsh();
	isb();
	end = read_sysreg(PMBPTR_EL1) - HOST_VA;
	assert_true(end <= HOST_SIZE);
	sim_mem_read(HOST_PA, buf, end);
	vperf_spe_iter_init(&it, buf, end);
	vperf_samples = 0;
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		uint64_t pc = rec.addr[VPERF_SPE_ADDR_PC].addr;

		if (pc != HOST_PC)
			assert_int_equal(pc & VA_BITS, EL2_PC & VA_BITS);
		vperf_samples += pc != HOST_PC;
		n++;
	}
	assert_int_equal(it.nerrors, 0);
	return n;
}

static void test_host_buffer_parked(void **state)
{
	struct hv_vcpu *vc;
	unsigned int host;

	(void)state;
	vc = vspe_vm_beside_host(3, 9);
	host_run(3000);
	for (unsigned int round = 0; round < 4; round++) {
		if (round == 0)
			lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
		lx_round_beside_host(&lx, vc, round, 4, 3000);
		host_run(3000);
	}
	host = host_records();
	assert_true(host >= 40);
	assert_true(lx_records(&lx) >= 40);
	assert_int_equal(host + lx_records(&lx), sim_spe_stats(0)->written);
	assert_int_equal(sim_error_count(), 0);
}

/* A vSPE vCPU that never enables its buffer still takes the buffer from the host while it runs
 * (E2PB = 0b10, so that its PMBIDR_EL1.P reads 0): the host's buffer is parked all the same. */
static void test_host_buffer_lazy_guest(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	vc = vspe_vm_beside_host(1, 4);
	for (unsigned int round = 0; round < 5; round++) {
		host_run(2000);
		hv_enter(vc, 0);
		assert_int_equal(guest_read(PMBIDR_EL1) & 0x10, 0);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1), 0);
		hv_leave(0);
	}
	assert_int_equal(host_records(), sim_spe_stats(0)->written);
	assert_true(sim_spe_stats(0)->written >= 30);
	assert_int_equal(sim_error_count(), 0);
}

/* The host samples its EL2 code, vperf's included, right up to the park: vperf stops that
 * sampling first (PMSCR_EL2 = 0, ISB), so that the PSB CSYNC after it synchronizes every record
 * and none is generated after the registers are saved (SPE 3.6). 8 seeds x 64 switches at
 * varying phases of the interval counter: no record lost (SPE 3.6.1's discard outcomes), none
 * written past the pointer vperf saved, none left for the guest's owning regime. */
static void test_host_samples_vperf(void **state)
{
	unsigned int samples = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 8; seed++) {
		vs_init(3, 0, seed);
		assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
		host_init();
		for (unsigned int round = 0; round < 64; round++) {
			host_run(40 + (round * 37 + (unsigned int)seed) % 200);
			hv_enter(hv_vcpu(0, 0), 0);
			hv_leave(0);
		}
		assert_int_equal(host_records(), sim_spe_stats(0)->written);
		assert_int_equal(sim_spe_stats(0)->dropped, 0);
		assert_int_equal(sim_error_count(), 0);
		samples += vperf_samples;
	}
	assert_true(samples > 0); /* vperf's own instructions were sampled */
}

/* What parking costs (docs/vspe.md), SPEv1p2: at load 10 reads (PMSCR_EL2 and nine shared
 * registers), 3 writes (PMSCR_EL2, PMBLIMITR, PMBSR), 5 barriers, then MDCR_EL2; at put MDCR_EL2,
 * then 10 writes and an ISB. */
static void test_park_cost(void **state)
{
	struct hv_vcpu *vc;
	uint64_t t;

	(void)state;
	vc = vspe_vm_beside_host(3, 4);
	t = sim_cpu(0)->trace_len;
	vperf_vcpu_load(&vc->v, &hv.pcpu[0]);
	vs_expect_cost(vs_cost_since(0, t), 10, 3, 5, 1);
	t = sim_cpu(0)->trace_len;
	vperf_vcpu_put(&vc->v);
	vs_expect_cost(vs_cost_since(0, t), 0, 10, 1, 1);
}

/* A PMBIRQ while the host's buffer is parked around an idle vSPE vCPU: the GIC may still present
 * the host's level after the park cleared PMBSR_EL1.S (SPE 3.5). The registers hold the parked
 * state, not the host's: vperf says so (GUEST_NONE, counted as stray) and touches nothing; the
 * host's event raises PMBIRQ again when the put restores its PMBSR_EL1, and is the host's then. */
static void test_pmbirq_while_host_parked(void **state)
{
	struct hv_vcpu *vc;
	uint64_t pmbsr = V_PMBSR_S | 1; /* a buffer full event (BSC 1) pending */

	(void)state;
	vc = vspe_vm_beside_host(1, 5);
	host_run(500);
	write_sysreg(pmbsr, PMBSR_EL1);
	isb();
	assert_true(sim_line(0, SIM_LINE_PMBIRQ));
	hv_enter(vc, 0);
	assert_false(sim_line(0, SIM_LINE_PMBIRQ));
	sim_enter_el2(0);
	assert_int_equal(vperf_handle_spe_irq(&hv.pcpu[0]), VPERF_SPE_IRQ_GUEST_NONE);
	sim_exit_el2(0);
	assert_int_equal(hv.pcpu[0].stats.spe_stray, 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1), 0);
	hv_leave(0);
	assert_true(sim_line(0, SIM_LINE_PMBIRQ));
	assert_int_equal(read_sysreg(PMBSR_EL1), pmbsr);
	assert_int_equal(vperf_handle_spe_irq(&hv.pcpu[0]), VPERF_SPE_IRQ_HOST);
	assert_int_equal(hv.pcpu[0].stats.spe_stray, 1);
	assert_int_equal(sim_error_count(), 0);
}

/* A vCPU of a VM without SPE runs beside the host's buffer: nothing is parked (E2PB stays
 * 0b00), the buffer and its events are still the host's. A PMBIRQ then is HOST, not a stray,
 * and vperf leaves the host's PMBSR_EL1 and PMBLIMITR_EL1 as they are, for the host to serve. */
static void test_pmbirq_host_beside_vm_without_spe(void **state)
{
	const struct vperf_vm_config plain = { .pmu_mode = VPERF_PMU_OFF };
	const uint64_t pmbsr = V_PMBSR_S | 1; /* buffer full */
	uint64_t limitr;

	(void)state;
	vs_init(1, 0, 5);
	assert_int_equal(hv_vm(0, &plain), VPERF_OK);
	host_init();
	host_run(500);
	hv_enter(hv_vcpu(0, 0), 0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 0);
	sim_enter_el2(0);
	/* The records of vperf's own EL2 code that the host's buffer sampled, written: one still
	 * queued when the event below stops the buffer may be dropped with DL = 1 in place of its
	 * syndrome (SPE 3.6.1), the hardware's doing and not vperf's. */
	psb_csync();
	dsb_nsh();
	isb();
	limitr = sim_peek(0, VPERF_ENC_PMBLIMITR_EL1);
	sim_poke(0, VPERF_ENC_PMBSR_EL1, pmbsr);
	assert_int_equal(vperf_handle_spe_irq(&hv.pcpu[0]), VPERF_SPE_IRQ_HOST);
	sim_exit_el2(0);
	assert_int_equal(hv.pcpu[0].stats.spe_stray, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1), pmbsr);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1), limitr);
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0);
}

/* The host's buffer is parked while a vSPE guest's buffer is live: a buffer full event of that
 * buffer is the guest's all the same (VPERF_SPE_IRQ_GUEST, not a stray): taken into its virtual
 * PMBSR, its virtual PPI raised, the hardware PMBSR_EL1 cleared so that the line drops. */
static void test_pmbirq_live_guest_host_parked(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	vc = vspe_vm_beside_host(1, 5);
	host_run(500);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	assert_true(vc->v.spe.in_hw);
	sim_poke(0, VPERF_ENC_PMBSR_EL1, V_PMBSR_S | 1); /* buffer full, as the SPU raises it */
	sim_enter_el2(0);
	assert_int_equal(vperf_handle_spe_irq(&hv.pcpu[0]), VPERF_SPE_IRQ_GUEST);
	sim_exit_el2(0);
	assert_true(vc->spe_irq_level);
	assert_int_equal(hv.pcpu[0].stats.spe_stray, 0);
	assert_false(sim_line(0, SIM_LINE_PMBIRQ));
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * On an SPEv1p1 host (PMSVer 2) PMSNEVFR_EL1 does not exist and is UNDEFINED even at EL2: parking
 * and unparking the host's buffer around a vSPE guest never touches it (the model reports any
 * access of a register the PE lacks), and the host's records are all its own.
 */
static void test_park_spev1p1_no_pmsnevfr(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	vs_init_host(2, 6);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	vs_host_run(2000);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	lx_run(&lx, vc, 2000);
	hv_leave(0);
	vs_host_run(2000);
	assert_true(vs_host_records(0) >= 10);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A vSPE guest whose PMU runs in XENPMU_MODE_HV keeps the host's MDCR_EL2.HPME, so nothing but the
 * parked buffer makes its put write MDCR_EL2: the host's E2PB = 0b00 must be back before the
 * host's buffer is, or the host samples with the buffer still EL1's, through the guest's regime.
 */
static void test_unpark_after_e2pb_is_the_hosts(void **state)
{
	const struct vperf_vm_config spe = { .spe = true, .spe_buffer = VPERF_SPE_BUF_EL1_TRAPPED };
	struct hv_vcpu *vc;

	(void)state;
	vs_init_host(3, 8);
	assert_int_equal(vs_vm_mode(0, &spe, true, VPERF_PMU_HV), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	lx_run(&lx, vc, 2000);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 2);
	hv_leave(0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 0);
	vs_host_run(2000);
	assert_true(vs_host_records(0) >= 5);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_buffer_parked),
		cmocka_unit_test(test_host_buffer_lazy_guest),
		cmocka_unit_test(test_pmbirq_while_host_parked),
		cmocka_unit_test(test_pmbirq_host_beside_vm_without_spe),
		cmocka_unit_test(test_pmbirq_live_guest_host_parked),
		cmocka_unit_test(test_host_samples_vperf),
		cmocka_unit_test(test_park_cost),
		cmocka_unit_test(test_park_spev1p1_no_pmsnevfr),
		cmocka_unit_test(test_unpark_after_e2pb_is_the_hosts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
