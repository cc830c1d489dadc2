// SPDX-License-Identifier: MIT
/*
 * A VHE host (HCR_EL2.E2H = 1) and the guest's PMSCR_EL1 (docs/integration/kvm.md, "VHE"):
 * with E2H = 1 an EL2 access by PMSCR_EL1's own encoding reaches PMSCR_EL2, and the guest's
 * register is PMSCR_EL12 (S3_5_C9_C9_0), which is UNDEFINED with E2H = 0 (SPE 4.3.5-4.3.7). The
 * model implements both rules (arch/sim/access/model.c); vperf names the guest's register by the
 * E2H its pCPU had at vperf_pcpu_init. Held here: the model's rules; a guest's PMSCR_EL1 kept
 * across switches while the host's PMSCR_EL2 stays the host's (E2H = 1); the plain encoding and
 * no _EL12 access with E2H = 0; the guests' PMSCR_EL1 cleared at vperf_pcpu_init under a host
 * that profiles at EL2 (host_spe), left to a host at EL1; SPE reset at vperf_pcpu_init under a
 * host with no SPE driver (virt/vspe/bringup.h), also a buffer left running. The host's own
 * buffer at EL2 (TGE = 1): test_vspe_vhe_host.c.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>

#include "vspe_util.h"

#define V_HCR_E2H   (1ull << 34) /* HCR_EL2.E2H, Arm DDI 0487 K.a D24.2 (FEAT_VHE) */
#define V_E2SPE	    0x02ull	 /* PMSCR_EL2.E2SPE, the host's (vs_init_host) */
#define GUEST_PMSCR (V_PMSCR_E1SPE | V_PMSCR_E0SPE | V_PMSCR_CX | V_PMSCR_TS)

static void set_hcr(uint64_t set, uint64_t clear)
{
	sim_poke(0, VPERF_ENC_HCR_EL2, (sim_peek(0, VPERF_ENC_HCR_EL2) | set) & ~clear);
}

static bool last_error_names(const char *what)
{
	unsigned int n = sim_error_count();

	return n && strstr(sim_error_at(n - 1)->what, what) != NULL;
}

/* How many of pCPU 0's EL2 accesses since event t named enc. */
static unsigned int accesses_of(uint32_t enc, uint64_t since)
{
	uint64_t first, end;
	unsigned int n = 0;

	assert_true(sim_trace_since(0, since, &first, &end));
	for (uint64_t i = first; i < end; i++) {
		const struct sim_event *e = sim_trace_at(0, i);

		n += (e->kind == SIM_READ || e->kind == SIM_WRITE) && e->enc == enc;
	}
	return n;
}

static int teardown(void **state)
{
	(void)state;
	hv_set_e2h(-1);
	return 0;
}

static const struct vperf_vm_config plain = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 2 };

/* ---- the model -------------------------------------------------------------------------------- */

/* E2H = 1: PMSCR_EL12 is PMSCR_EL1, PMSCR_EL1's encoding PMSCR_EL2, both ways. E2H = 0: an EL2
 * access to PMSCR_EL12 is UNDEFINED (reported, nothing changed), PMSCR_EL1 is itself. At EL1 the
 * name is UNDEFINED whatever E2H. */
static void test_model_pmscr_el12(void **state)
{
	(void)state;
	vs_init(3, 0, 1);
	sim_set_cpu(0);
	set_hcr(V_HCR_E2H, 0);
	write_sysreg(0x3, PMSCR_EL12);
	write_sysreg(0x2, PMSCR_EL1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0x3);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), 0x2);
	sim_poke(0, VPERF_ENC_PMSCR_EL1, 0x9);
	assert_int_equal(read_sysreg(PMSCR_EL12), 0x9);
	assert_int_equal(read_sysreg(PMSCR_EL1), 0x2);
	assert_int_equal(sim_error_count(), 0);

	set_hcr(0, V_HCR_E2H);
	write_sysreg(0x1, PMSCR_EL12);
	assert_int_equal(sim_error_count(), 1);
	assert_true(last_error_names("_EL12"));
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0x9);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), 0x2);
	assert_int_equal(read_sysreg(PMSCR_EL12), 0);
	assert_int_equal(sim_error_count(), 2);
	assert_int_equal(read_sysreg(PMSCR_EL1), 0x9);

	/* A guest at EL1 (HCR_EL2.E2H either way): UNDEFINED (SPE 4.3.6), before any EL2 trap. A
	 * VM without SPE: vperf touches no SPE register for it. */
	assert_int_equal(hv_vm(0, &plain), VPERF_OK);
	for (uint64_t e2h = 0; e2h <= V_HCR_E2H; e2h += V_HCR_E2H) {
		set_hcr(e2h, V_HCR_E2H & ~e2h);
		hv_enter(hv_vcpu(0, 0), 0);
		(void)guest_read(PMSCR_EL12);
		assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
		guest_write(PMSCR_EL12, 0x3);
		assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
		hv_leave(0);
	}
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0x9);
	assert_int_equal(sim_error_count(), 2);
}

/* The guest's CONTEXTIDR_EL1 as the hypervisor switches it (the test hypervisor, hv_switch.c, by
 * the name E2H gives it): E2H = 1, CONTEXTIDR_EL12 is the guest's and CONTEXTIDR_EL1 the host's
 * CONTEXTIDR_EL2; E2H = 0, CONTEXTIDR_EL1 is the guest's and CONTEXTIDR_EL12 UNDEFINED. */
static void test_model_contextidr_el12(void **state)
{
	(void)state;
	vs_init(3, 0, 1);
	sim_set_cpu(0);
	sim_set_el(2);
	sim_poke(0, VPERF_ENC_CONTEXTIDR_EL2, 0x77);
	set_hcr(V_HCR_E2H, 0);
	sim_spe_el2_write_contextidr1(0, SIM_CTX1_BY_EL12, 0x11);
	assert_int_equal(sim_spe_contextidr_el1(0), 0x11);
	assert_int_equal(sim_peek(0, VPERF_ENC_CONTEXTIDR_EL2), 0x77);
	sim_spe_el2_write_contextidr1(0, SIM_CTX1_BY_EL1, 0x22);
	assert_int_equal(sim_peek(0, VPERF_ENC_CONTEXTIDR_EL2), 0x22);
	assert_int_equal(sim_spe_contextidr_el1(0), 0x11);
	assert_int_equal(sim_spe_el2_read_contextidr1(0, SIM_CTX1_BY_EL12), 0x11);
	assert_int_equal(sim_spe_el2_read_contextidr1(0, SIM_CTX1_BY_EL1), 0x22);
	assert_int_equal(sim_error_count(), 0);

	set_hcr(0, V_HCR_E2H);
	sim_spe_el2_write_contextidr1(0, SIM_CTX1_BY_EL12, 0x33);
	assert_int_equal(sim_error_count(), 1);
	assert_true(last_error_names("CONTEXTIDR_EL12"));
	assert_int_equal(sim_spe_contextidr_el1(0), 0x11);
	assert_int_equal(sim_spe_el2_read_contextidr1(0, SIM_CTX1_BY_EL12), 0);
	assert_int_equal(sim_error_count(), 2);
	sim_spe_el2_write_contextidr1(0, SIM_CTX1_BY_EL1, 0x44);
	assert_int_equal(sim_spe_contextidr_el1(0), 0x44);
	assert_int_equal(sim_peek(0, VPERF_ENC_CONTEXTIDR_EL2), 0x22);
	assert_int_equal(sim_error_count(), 2);
}

/* ---- vperf's choice of encoding ------------------------------------------------------------- */

/*
 * A VM with a trapped vSPE beside the host's own buffer (host_spe) on a pCPU brought up with
 * E2H = e2h: the guest programs PMSCR_EL1 once, then runs 4 times with the host's code between.
 * Each load gives the hardware PMSCR_EL1 the guest's value, each put leaves it 0 and the host's
 * PMSCR_EL2 (E2SPE) as the host had it; no EL2 access is UNDEFINED. Returns the EL2 accesses by
 * PMSCR_EL1's, PMSCR_EL12's and PMSCR_EL2's encodings from the first load on.
 */
static void switch_rounds(bool e2h, unsigned int n[3])
{
	struct lx_spe lx = { .vm = 0, .size = V_BUF_SIZE, .pmscr = GUEST_PMSCR };
	struct hv_vcpu *vc;
	uint64_t t;

	hv_set_e2h(e2h);
	vs_init_host(3, 7);
	assert_int_equal(hv.pcpu[0].caps.e2h, e2h);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	t = sim_cpu(0)->trace_len;
	memset(n, 0, 3 * sizeof(n[0]));
	for (unsigned int round = 0; round < 4; round++) {
		vs_host_run(300);
		hv_enter(vc, 0);
		if (round == 0)
			lx_start(&lx);
		/* The guest's value, by PMSCR_EL12 with E2H = 1 (the load, or the trapped write). */
		assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), GUEST_PMSCR);
		assert_int_equal(guest_read(PMSCR_EL1), GUEST_PMSCR);
		lx_run(&lx, vc, 500);
		if (round == 3)
			lx_stop(&lx);
		hv_leave(0);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), V_E2SPE);
		/* The trace keeps the last SIM_TRACE_LEN accesses: counted each round. */
		n[0] += accesses_of(VPERF_ENC_PMSCR_EL1, t);
		n[1] += accesses_of(VPERF_ENC_PMSCR_EL12, t);
		n[2] += accesses_of(VPERF_ENC_PMSCR_EL2, t);
		t = sim_cpu(0)->trace_len;
	}
	assert_true(lx_records(&lx) > 0);
	assert_true(vs_host_records(0) > 0);
	assert_int_equal(sim_error_count(), 0);
}

/* E2H = 1: the guest's PMSCR_EL1 survives every switch by PMSCR_EL12, and the host's PMSCR_EL2
 * (which vperf saves and restores by its own name) is never written through PMSCR_EL1's. */
static void test_vhe_guest_pmscr_survives_switch(void **state)
{
	unsigned int n[3];

	(void)state;
	switch_rounds(true, n);
	assert_int_equal(n[0], 0);
	assert_true(n[1] >= 8); /* a load and a put each round */
	assert_true(n[2] > 0);
}

/* E2H = 0: the plain encoding, never PMSCR_EL12 (the model would report it UNDEFINED). */
static void test_nvhe_plain_pmscr(void **state)
{
	unsigned int n[3];

	(void)state;
	switch_rounds(false, n);
	assert_int_equal(n[1], 0);
	assert_true(n[0] >= 8);
}

/* A trapped PMSCR_EL1 write while the guest's buffer is in the hardware reaches the hardware by
 * the pCPU's name for it (vspe/regs.c, write_control): E2H = 1, PMSCR_EL12; the host's
 * PMSCR_EL2 keeps the VM's value. */
static void test_vhe_trapped_pmscr_write(void **state)
{
	struct lx_spe lx = { .vm = 0, .size = V_BUF_SIZE, .pmscr = GUEST_PMSCR };
	struct hv_vcpu *vc;
	uint64_t pmscr2;

	(void)state;
	hv_set_e2h(1);
	vs_init_host(3, 3);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx_start(&lx);
	assert_true(vc->v.spe.in_hw);
	pmscr2 = sim_peek(0, VPERF_ENC_PMSCR_EL2);
	guest_write(PMSCR_EL1, V_PMSCR_E0SPE);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), V_PMSCR_E0SPE);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), pmscr2);
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0);
}

/* A VM profiled from outside (VPERF_SPE_BUF_EL2) on a VHE host: its E1SPE/E0SPE go to the
 * guest's PMSCR_EL1 (vspe/outside.c), the host's PMSCR_EL2 comes back as it was. */
static void test_vhe_outside_profiled(void **state)
{
	(void)state;
	hv_set_e2h(1);
	vs_init_host(3, 5);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL2, true), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), V_PMSCR_E1SPE | V_PMSCR_E0SPE);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), V_E2SPE | V_PMSCR_CX);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), V_E2SPE);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The guests' PMSCR_EL1 after a reset: UNKNOWN (SPE 4.2), here with E1SPE and E0SPE set, a value
 * a power-down may leave. With EL2 owning the host's buffer and TGE = 0 they select which guest
 * operations that buffer samples (SPE 3.2.3, StatisticalProfilingEnabled): vperf_pcpu_init with
 * host_spe clears them, by the name E2H gives the register, so that a guest without a vSPE runs
 * unsampled beside the host's buffer.
 */
static void reset_pmscr_round(bool e2h)
{
	const struct sim_uop op = { .pc = 0x40001000, .latency = 2, .type = SIM_UOP_OTHER };
	const struct vperf_pcpu_config cfg = { .host_counters = 2, .host_spe = true };

	hv_set_e2h(e2h);
	vs_init_host(3, 13);
	assert_int_equal(hv_vm(0, &plain), VPERF_OK);
	hv_power_down(0);
	sim_poke(0, VPERF_ENC_PMSCR_EL1, V_PMSCR_E1SPE | V_PMSCR_E0SPE);
	assert_int_equal(hv_pcpu_up(0, &cfg), VPERF_OK);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0);
	vs_host_spe_start(0);
	hv_enter(hv_vcpu(0, 0), 0);
	hv_run_n(&op, 2000);
	hv_leave(0);
	vs_host_run(4000);
	assert_true(vs_host_records(0) >= 10); /* each one the host's, at EL2 */
	assert_int_equal(sim_error_count(), 0);
}

/* The same write when vperf_pcpu_init refuses the pCPU (here: more host counters than N): a
 * hypervisor that runs vCPUs there anyway, against the contract, still has a host's buffer
 * sample none of them. */
static void test_refused_pcpu_pmscr_cleared(void **state)
{
	const struct vperf_pcpu_config too_many = { .host_counters = 31, .host_spe = true };

	(void)state;
	vs_init_host(3, 17);
	hv_power_down(0);
	sim_poke(0, VPERF_ENC_PMSCR_EL1, V_PMSCR_E1SPE | V_PMSCR_E0SPE);
	sim_set_cpu(0);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &too_many), VPERF_EINVAL);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0);
	assert_int_equal(sim_error_count(), 0);
}

static void test_reset_guest_pmscr_cleared(void **state)
{
	(void)state;
	reset_pmscr_round(false);
	reset_pmscr_round(true);
}

/*
 * A host at EL1 (an nVHE host, host_spe clear) owns PMSCR_EL1 between vCPUs, as its own sampling
 * controls: vperf_pcpu_init, at boot or when the pCPU comes back from a power-down, leaves what
 * the host wrote there (its driver may have started before vperf is set up again).
 */
static void test_el1_host_pmscr_kept(void **state)
{
	const struct vperf_pcpu_config cfg = { .host_counters = 2, .host_el1 = true };
	const uint64_t host = V_PMSCR_E1SPE | V_PMSCR_E0SPE | V_PMSCR_CX;

	(void)state;
	hv_set_e2h(0);
	vs_init(3, 0, 13);
	sim_poke(0, VPERF_ENC_PMSCR_EL1, host);
	assert_int_equal(hv_pcpu_up(0, &cfg), VPERF_OK);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), host);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A host with no SPE driver (host_spe and host_el1 clear: Xen, the reference hypervisor) resets
 * no SPE register, which keep what the reset left (SPE 4.2): here PMBSR_EL1.S, which holds PMBIRQ
 * high (SPE 3.5), PMSCR_EL2's E2SPE and E0HSPE, and the guests' PMSCR_EL1.E1SPE and E0SPE.
 * vperf_pcpu_init resets them as an owner does, even when it refuses the pCPU: PMBIRQ low before
 * the hypervisor takes it (else a storm with nobody to clear the status), EL2 unsampled, the
 * buffer off, and the guests' PMSCR_EL1 0 by the name E2H gives it (SPE 4.3.5-4.3.7: with E2H = 1
 * PMSCR_EL1's own encoding reaches PMSCR_EL2), as vperf.h promises: with EL2 owning the buffer
 * and TGE = 0, E1SPE and E0SPE select the guest operations it samples (SPE 3.2.3). Beside a host
 * with an SPE driver (at EL1, or its own buffer at EL2) it leaves them to that driver; the guests'
 * PMSCR_EL1 is then the EL1 host's own, or cleared for the EL2 host's buffer
 * (test_reset_guest_pmscr_cleared).
 */
static void unowned_round(const struct vperf_pcpu_config *cfg, int rc, bool reset, bool e2h)
{
	const uint64_t pmscr = V_PMSCR_E0SPE | V_PMSCR_E1SPE | V_PMSCR_PA;
	const uint64_t guest = V_PMSCR_E0SPE | V_PMSCR_E1SPE | V_PMSCR_CX;

	hv_set_e2h(e2h);
	vs_init(3, 0, 23);
	hv_power_down(0);
	sim_set_cpu(0);
	write_sysreg(pmscr, PMSCR_EL2);
	write_sysreg(V_PMBSR_S | V_PMBSR_EC(0x24), PMBSR_EL1);
	sim_poke(0, VPERF_ENC_PMSCR_EL1, guest);
	assert_true(sim_line(0, SIM_LINE_PMBIRQ));
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], cfg), rc);
	assert_int_equal(hv.pcpu[0].caps.e2h, e2h);
	assert_int_equal(sim_line(0, SIM_LINE_PMBIRQ), !reset);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1) & V_PMBSR_S, reset ? 0 : V_PMBSR_S);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), reset ? 0 : pmscr);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1) & V_PMBLIMITR_E, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), reset || cfg->host_spe ? 0 : guest);
	assert_int_equal(sim_error_count(), 0);
}

static void test_unowned_spe_reset(void **state)
{
	const struct vperf_pcpu_config xen = { .host_counters = 2 };
	const struct vperf_pcpu_config refused = { .host_counters = 31 };
	const struct vperf_pcpu_config el1 = { .host_counters = 2, .host_el1 = true };
	const struct vperf_pcpu_config el2 = { .host_counters = 2, .host_spe = true };

	(void)state;
	for (int e2h = 0; e2h <= 1; e2h++) {
		unowned_round(&xen, VPERF_OK, true, e2h);
		unowned_round(&refused, VPERF_EINVAL, true, e2h);
		unowned_round(&el2, VPERF_OK, false, e2h);
	}
	unowned_round(&el1, VPERF_OK, false, false); /* a host at EL1 runs with E2H = 0 */
}

/* A Profiling Buffer that a previous boot stage left on (a kexec'd kernel or a boot loader that
 * profiled: no reset since, so SPE 4.2's PMBLIMITR_EL1.E = 0 does not hold), owned by EL2
 * (MDCR_EL2.E2PB = 0b00) in [ptr, LR_VA + LR_SIZE), every operation sampled (INTERVAL 0): n of
 * its EL2 operations sampled (E2SPE), then PMSCR_EL2 = pmscr2; their records wait in the SPU. */
#define LR_VA	       0x0000008000000000ull /* the EL2 regime */
#define LR_PA	       0x70000000ull
#define LR_SIZE	       0x20000ull
#define V_E2PB_MASK    (3ull << 12)			/* MDCR_EL2.E2PB, Arm DDI 0487 K.a D24.2 */
#define V_MAXSIZE(idr) (1ull << (((idr) >> 12) & 0xfu)) /* PMSIDR_EL1.MaxSize, SPE 4.3.2 */

static const struct vperf_pcpu_config no_driver = { .host_counters = 2 };

static void left_running(uint64_t ptr, uint64_t pmscr2, unsigned int n)
{
	sim_set_cpu(0);
	sim_set_el(2);
	write_sysreg(read_sysreg(MDCR_EL2) & ~V_E2PB_MASK, MDCR_EL2);
	assert_int_equal(sim_mem_map_s1(SIM_REGIME_EL2, 0, LR_VA, LR_PA, LR_SIZE, SIM_PERM_RW),
			 VPERF_OK);
	write_sysreg(0, PMBSR_EL1);
	write_sysreg(ptr, PMBPTR_EL1);
	write_sysreg((LR_VA + LR_SIZE) | V_PMBLIMITR_E, PMBLIMITR_EL1);
	write_sysreg(0, PMSFCR_EL1);
	write_sysreg(0, PMSIRR_EL1);
	write_sysreg(0, PMSICR_EL1);
	write_sysreg(V_E2SPE, PMSCR_EL2);
	isb();
	vs_host_run(n);
	write_sysreg(pmscr2, PMSCR_EL2);
	isb();
	assert_true(sim_spe_pending(0) > 0);
	assert_false(sim_line(0, SIM_LINE_PMBIRQ));
}

static void assert_spe_reset(void)
{
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1) & V_PMBLIMITR_E, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1) & V_PMBSR_S, 0);
	assert_false(sim_line(0, SIM_LINE_PMBIRQ));
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0);
}

/*
 * Such a buffer still sampling at EL2, vperf's own instructions included, under a host with no SPE
 * driver: vperf_pcpu_init stops EL2 sampling and synchronizes that (PMSCR_EL2 = 0, ISB), so that
 * the PSB CSYNC after it synchronizes every record and the DSB completes their writes (SPE 3.6),
 * before the buffer turns off. No record meets that disable unsynchronized, whose outcome is
 * CONSTRAINED UNPREDICTABLE (SPE 3.6.1: written, dropped, or dropped with a DL management
 * event; each forced here in turn), and none is left in the SPU or in flight to be written later
 * into memory the hypervisor now owns; nothing is sampled after it. Both E2H values.
 */
static void left_running_round(bool e2h, enum sim_spe_unpred unpred)
{
	struct sim_spe_options o;
	uint64_t written;

	hv_set_e2h(e2h);
	vs_init(3, 0, 29);
	sim_spe_default_options(&o);
	o.unpred = unpred;
	sim_spe_set_options(&o);
	hv_power_down(0);
	sim_poke(0, VPERF_ENC_PMSCR_EL1, V_PMSCR_E1SPE | V_PMSCR_E0SPE);
	left_running(LR_VA, V_E2SPE, 40);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &no_driver), VPERF_OK);
	assert_int_equal(hv.pcpu[0].caps.e2h, e2h);
	assert_spe_reset();
	assert_int_equal(sim_spe_stats(0)->dropped, 0);
	assert_int_equal(sim_spe_pending(0), 0);
	assert_int_equal(sim_spe_in_flight(0), 0);
	written = sim_spe_stats(0)->written;
	assert_true(written > 0);
	vs_host_run(300);
	dsb_nsh();
	assert_int_equal(sim_spe_stats(0)->written, written);
	assert_int_equal(sim_spe_pending(0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The same buffer with EL2 sampling already off but its last records still in the SPU, with room
 * for one more record before its limit: writing them (the PSB CSYNC and DSB) raises a buffer full
 * event (SPE 3.5.2), which sets PMBSR_EL1.S. vperf clears the status after the buffer is off and
 * its records written, so that PMBIRQ is low when vperf_pcpu_init returns (SPE 3.5).
 */
static void test_unowned_spe_left_running(void **state)
{
	uint64_t max;

	(void)state;
	for (int e2h = 0; e2h <= 1; e2h++) {
		left_running_round(e2h, SIM_SPE_UNPRED_WRITE);
		left_running_round(e2h, SIM_SPE_UNPRED_DISCARD);
		left_running_round(e2h, SIM_SPE_UNPRED_DL);
	}

	hv_set_e2h(0);
	vs_init(3, 0, 31);
	hv_power_down(0);
	sim_set_cpu(0);
	max = V_MAXSIZE(read_sysreg(PMSIDR_EL1));
	left_running(LR_VA + LR_SIZE - max, 0, 12);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &no_driver), VPERF_OK);
	assert_spe_reset();
	assert_int_equal(sim_spe_stats(0)->written, 1);
	assert_int_equal(sim_spe_pending(0), 0);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_model_pmscr_el12, teardown),
		cmocka_unit_test_teardown(test_model_contextidr_el12, teardown),
		cmocka_unit_test_teardown(test_vhe_guest_pmscr_survives_switch, teardown),
		cmocka_unit_test_teardown(test_nvhe_plain_pmscr, teardown),
		cmocka_unit_test_teardown(test_vhe_trapped_pmscr_write, teardown),
		cmocka_unit_test_teardown(test_vhe_outside_profiled, teardown),
		cmocka_unit_test_teardown(test_reset_guest_pmscr_cleared, teardown),
		cmocka_unit_test_teardown(test_refused_pcpu_pmscr_cleared, teardown),
		cmocka_unit_test_teardown(test_el1_host_pmscr_kept, teardown),
		cmocka_unit_test_teardown(test_unowned_spe_reset, teardown),
		cmocka_unit_test_teardown(test_unowned_spe_left_running, teardown),
	};

	return cmocka_run_group_tests_name("vspe_vhe", tests, NULL, NULL);
}
