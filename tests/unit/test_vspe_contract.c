// SPDX-License-Identifier: MIT
/*
 * The integration contract around the vSPE (include/vperf/hyp.h, include/vperf/vperf.h,
 * docs/integration.md), held against the model:
 *  - a VHE host (HCR_EL2.E2H = 1) is accepted on a PE with SPE, E2H recorded at
 *    vperf_pcpu_init: an EL2 access to PMSCR_EL1 reaches PMSCR_EL2 there (SPE 4.3.5), which the
 *    model does, and vperf names the guest's register PMSCR_EL12 (test_vspe_vhe.c);
 *  - the hypervisor switches CONTEXTIDR_EL1 and CNTVOFF_EL2 only after the put: records not yet
 *    synchronized by PSB CSYNC read the new values (SPE 3.6), which the model reports;
 *  - a physical PMBIRQ while a guest's SPE state is live is never "the host's".
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "vspe_util.h"
#include <arch/sysreg.h>
#include <vperf/spe_rec.h>

#define V_HCR_E2H (1ull << 34) /* HCR_EL2.E2H, Arm DDI 0487 K.a D24.2 (FEAT_VHE) */

/* The last error the model reported mentions what. */
static bool last_error_names(const char *what)
{
	unsigned int n = sim_error_count();

	return n && strstr(sim_error_at(n - 1)->what, what) != NULL;
}

/* ---- VHE ---------------------------------------------------------------------------------- */

/* A VHE host (HCR_EL2.E2H = 1) with SPE is accepted (it was refused before vperf named the
 * guest's PMSCR_EL1 by E2H): vperf_pcpu_init records E2H in caps.e2h, read again at each init;
 * nothing UNDEFINED either way (test_vspe_vhe.c holds the switch). */
static void test_vhe_accepted_with_spe(void **state)
{
	const struct vperf_pcpu_config cfg = { .host_counters = 2 };

	(void)state;
	vs_init(3, 0, 1);
	sim_poke(0, VPERF_ENC_HCR_EL2, sim_peek(0, VPERF_ENC_HCR_EL2) | V_HCR_E2H);
	hv.nr_logs = 0;
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &cfg), VPERF_OK);
	assert_true(hv.pcpu[0].caps.e2h);
	assert_int_equal(hv.nr_logs, 0);
	/* Back to E2H = 0 (nVHE): the plain names again. */
	sim_poke(0, VPERF_ENC_HCR_EL2, sim_peek(0, VPERF_ENC_HCR_EL2) & ~V_HCR_E2H);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &cfg), VPERF_OK);
	assert_false(hv.pcpu[0].caps.e2h);
	assert_int_equal(sim_error_count(), 0);
}

/* Without SPE nothing vperf accesses is redirected by E2H: a VHE host is fine. */
static void test_vhe_without_spe_accepted(void **state)
{
	const struct vperf_pcpu_config cfg = { .host_counters = 2 };

	(void)state;
	hv_init(NULL, 2);
	sim_poke(0, VPERF_ENC_HCR_EL2, sim_peek(0, VPERF_ENC_HCR_EL2) | V_HCR_E2H);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &cfg), VPERF_OK);
}

/* The model: at EL2 with E2H = 1 the name PMSCR_EL1 is PMSCR_EL2 (SPE 4.3.5), both ways. */
static void test_model_e2h_pmscr(void **state)
{
	(void)state;
	vs_init(3, 0, 1);
	sim_set_cpu(0);
	sim_poke(0, VPERF_ENC_HCR_EL2, sim_peek(0, VPERF_ENC_HCR_EL2) & ~V_HCR_E2H); /* HV_E2H */
	write_sysreg(0x1, PMSCR_EL1);
	write_sysreg(0x0, PMSCR_EL2);
	sim_poke(0, VPERF_ENC_HCR_EL2, sim_peek(0, VPERF_ENC_HCR_EL2) | V_HCR_E2H);
	write_sysreg(0x2, PMSCR_EL1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), 0x2);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0x1);
	sim_poke(0, VPERF_ENC_PMSCR_EL2, 0x3);
	assert_int_equal(read_sysreg(PMSCR_EL1), 0x3);
	sim_poke(0, VPERF_ENC_HCR_EL2, sim_peek(0, VPERF_ENC_HCR_EL2) & ~V_HCR_E2H);
	assert_int_equal(read_sysreg(PMSCR_EL1), 0x1);
	assert_int_equal(sim_error_count(), 0);
}

/* ---- the order of a switch: put before the guest's context changes ---------------------------- */

#define CTX_A	0xa11ceu
#define CTX_B	0xb0bu
#define VOFF_A	5000000ull
#define VOFF_B	9000000ull
#define PMSCR_X (V_PMSCR_E1SPE | V_PMSCR_CX | V_PMSCR_TS) /* virtual time: PCT = 0 */

/* VM 0's vCPU samples with Context and virtual Timestamp packets and leaves records the model
 * has not synchronized; then the hypervisor switches pCPU 0 to VM 1's vCPU. */
static struct lx_spe *sample_then_switch(bool late, uint32_t ctx_b, uint64_t voff_b)
{
	const struct vperf_vm_config spe = { .spe = true, .spe_buffer = VPERF_SPE_BUF_EL1_TRAPPED };
	struct lx_spe *lx = calloc(1, sizeof(*lx));
	struct hv_vcpu *a, *b;

	assert_non_null(lx);
	vs_init(1, 0, 7);
	assert_int_equal(vs_vm_cfg(0, &spe, true), VPERF_OK);
	assert_int_equal(vs_vm_cfg(1, &spe, true), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	a->contextidr = CTX_A;
	a->cntvoff = VOFF_A;
	b->contextidr = ctx_b;
	b->cntvoff = voff_b;
	sim_spe_set_time(0, 100000000ull, 0);
	hv_enter(a, 0);
	*lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE, .pmscr = PMSCR_X };
	lx_start(lx);
	lx_run(lx, a, 257 * 6);
	assert_true(sim_spe_pending(0) + sim_spe_in_flight(0) > 0); /* not synchronized yet */
	hv.late_put = late;
	hv_enter(b, 0);
	hv.late_put = false;
	return lx;
}

/* What A's records carry, read back once A runs again and drains its buffer. */
static void expect_a_records(struct lx_spe *lx)
{
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	unsigned int n = 0;

	hv_enter(&hv.vcpu[0], 0);
	lx_stop(lx);
	vperf_spe_iter_init(&it, lx->data, lx->len);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		assert_true(rec.have & VPERF_SPE_HAVE_CTX(0));
		assert_int_equal(rec.ctx[0], CTX_A);
		assert_true(rec.have & VPERF_SPE_HAVE_TS);
		/* Virtual time: CNTPCT minus A's offset, never B's (which would put it 4M back). */
		assert_true(rec.timestamp >= 100000000ull - VOFF_A);
		n++;
	}
	assert_true(n >= 5);
}

static void test_switch_after_put_keeps_context(void **state)
{
	struct lx_spe *lx;

	(void)state;
	lx = sample_then_switch(false, CTX_B, VOFF_B);
	assert_int_equal(sim_error_count(), 0);
	expect_a_records(lx);
	assert_int_equal(sim_error_count(), 0);
	free(lx);
}

/* The mutated sequence: CONTEXTIDR_EL1 switched before the put leaks B's into A's records. */
static void test_late_put_contextidr_caught(void **state)
{
	struct lx_spe *lx;

	(void)state;
	lx = sample_then_switch(true, CTX_B, VOFF_A);
	assert_true(sim_error_count() > 0);
	assert_true(last_error_names("CONTEXTIDR_EL1"));
	free(lx);
}

/* ... and CNTVOFF_EL2 switched before the put gives A's records B's virtual time. */
static void test_late_put_cntvoff_caught(void **state)
{
	struct lx_spe *lx;

	(void)state;
	lx = sample_then_switch(true, CTX_A, VOFF_B);
	assert_true(sim_error_count() > 0);
	assert_true(last_error_names("CNTVOFF_EL2"));
	free(lx);
}

/* A guest's own CONTEXTIDR_EL1 write (a process switch) is its business: not an error. */
static void test_guest_contextidr_write_not_reported(void **state)
{
	struct lx_spe *lx = calloc(1, sizeof(*lx));
	struct hv_vcpu *a;

	(void)state;
	assert_non_null(lx);
	vs_init(1, 0, 7);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	*lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE, .pmscr = PMSCR_X };
	lx_start(lx);
	lx_run(lx, a, 257 * 4);
	sim_spe_write_contextidr_el1(0, 0x77);
	assert_int_equal(sim_error_count(), 0);
	lx_stop(lx);
	free(lx);
}

/* ---- a PMBIRQ while a guest's SPE state is live --------------------------------------------- */

static void test_pmbirq_live_guest_no_event(void **state)
{
	struct lx_spe *lx = calloc(1, sizeof(*lx));
	struct hv_vcpu *a;
	uint64_t limitr;

	(void)state;
	assert_non_null(lx);
	vs_init(1, 0, 3);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	*lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(lx);
	assert_true(a->v.spe.in_hw);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBSR_EL1) & V_PMBSR_S, 0);
	limitr = sim_peek(0, VPERF_ENC_PMBLIMITR_EL1);
	sim_enter_el2(0);
	assert_int_equal(vperf_handle_spe_irq(&hv.pcpu[0]), VPERF_SPE_IRQ_GUEST_NONE);
	sim_exit_el2(0);
	assert_int_equal(hv.pcpu[0].stats.spe_stray, 1);
	assert_false(a->spe_irq_level);
	/* The guest's buffer still runs, its registers untouched. */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBLIMITR_EL1), limitr);
	lx_run(lx, a, 257 * 3);
	lx_stop(lx);
	assert_true(lx_records(lx) >= 2);
	assert_int_equal(sim_error_count(), 0);
	free(lx);
}

/* A buffer full event of a live guest is the guest's (VPERF_SPE_IRQ_GUEST); with no vSPE loaded
 * the host's (VPERF_SPE_IRQ_HOST, 0). */
static void test_pmbirq_classified(void **state)
{
	struct vperf_vm_config plain = { .pmu_mode = VPERF_PMU_OFF };
	struct lx_spe *lx = calloc(1, sizeof(*lx));
	struct hv_vcpu *a;

	(void)state;
	assert_non_null(lx);
	vs_init(1, 0, 3);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(hv_vm(1, &plain), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	*lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(lx);
	sim_poke(0, VPERF_ENC_PMBSR_EL1, V_PMBSR_S | 1); /* buffer full, as the SPU raises it */
	sim_enter_el2(0);
	assert_int_equal(vperf_handle_spe_irq(&hv.pcpu[0]), VPERF_SPE_IRQ_GUEST);
	sim_exit_el2(0);
	assert_true(a->spe_irq_level);
	hv_enter(hv_vcpu(1, 1), 0);
	sim_enter_el2(0);
	assert_int_equal(vperf_handle_spe_irq(&hv.pcpu[0]), VPERF_SPE_IRQ_HOST);
	sim_exit_el2(0);
	free(lx);
}

/* ---- an untrapped guest's buffer moved against SPE 3.4.1 while enabled ------------------------ */

/* The guest's direct PMBLIMITR_EL1 write keeps E but moves LIMIT into another tagged half
 * (PTR[63:56] != LIMIT[63:56]): the hardware checks nothing while the buffer stays enabled. At the
 * put vperf holds the state to the rules the next load's enable would break: the guest gets a
 * buffer full event with data loss, and the blob of it restores (vperf_vcpu_save's contract). */
static void test_untrapped_limit_broken_while_enabled(void **state)
{
	struct lx_spe *lx = calloc(1, sizeof(*lx));
	static uint8_t blob[VPERF_VSPE_BLOB_SIZE];
	struct hv_vcpu *a;
	int n;

	(void)state;
	assert_non_null(lx);
	vs_init(3, 0, 5);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	*lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(lx);
	assert_true(a->v.spe.direct);
	guest_write(PMBLIMITR_EL1, 0x0100000000010000ull | V_PMBLIMITR_E);
	hv_leave(0);
	assert_int_equal(a->v.spe.reg[VPERF_VSPE_PMBSR] & (V_PMBSR_S | V_PMBSR_DL),
			 V_PMBSR_S | V_PMBSR_DL);
	n = vperf_vcpu_save(&a->v, blob, sizeof(blob));
	assert_int_equal(n, VPERF_VSPE_BLOB_SIZE);
	assert_int_equal(vperf_vcpu_restore(&a->v, blob, (size_t)n), VPERF_OK);
	hv_enter(a, 0);
	assert_true(a->spe_irq_level);
	assert_int_equal(sim_error_count(), 0);
	free(lx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vhe_accepted_with_spe),
		cmocka_unit_test(test_vhe_without_spe_accepted),
		cmocka_unit_test(test_model_e2h_pmscr),
		cmocka_unit_test(test_switch_after_put_keeps_context),
		cmocka_unit_test(test_late_put_contextidr_caught),
		cmocka_unit_test(test_late_put_cntvoff_caught),
		cmocka_unit_test(test_guest_contextidr_write_not_reported),
		cmocka_unit_test(test_pmbirq_live_guest_no_event),
		cmocka_unit_test(test_pmbirq_classified),
		cmocka_unit_test(test_untrapped_limit_broken_while_enabled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
