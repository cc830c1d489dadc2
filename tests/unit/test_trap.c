// SPDX-License-Identifier: MIT
/* The trap entry: ownership of syndromes, UNDEF policy of an OFF VM, unknown encodings, and the
 * GPR plumbing of perform_access. */
#include <string.h>

#include "cmocka_wrap.h"

#include <sim/cpu.h>
#include <vperf/esr.h>
#include <vperf/vperf.h>

#include "fake_hyp.h"
#include "access.h"

struct fixture {
	struct vperf_vm vm;
	struct vperf_vcpu vcpu;
	struct fake_vcpu hv;
	uint64_t gprs[31];
};

static int setup(void **state)
{
	static struct fixture fx;
	const struct vperf_vm_config off = { .pmu_mode = VPERF_PMU_OFF };

	memset(&fx, 0, sizeof(fx));
	fake_hyp_reset();
	assert_int_equal(vperf_vm_init(&fx.vm, &off, NULL), VPERF_OK);
	assert_int_equal(vperf_vcpu_init(&fx.vcpu, &fx.vm, &fx.hv), VPERF_OK);
	for (unsigned int i = 0; i < 31; i++)
		fx.gprs[i] = 0x1000 + i;
	*state = &fx;
	return 0;
}

static void assert_gprs_untouched(const struct fixture *fx)
{
	for (unsigned int i = 0; i < 31; i++)
		assert_int_equal(fx->gprs[i], 0x1000 + i);
}

/* An OFF VM: every guest register of the database, read and written, is UNDEF, the PC stays,
 * no GPR changes, and each counts as a trap and an UNDEF. */
static void test_off_vm_undef_everything(void **state)
{
	struct fixture *fx = *state;
	unsigned int n = 0;

	for (size_t i = 0; i < VPERF_SR_COUNT; i++) {
		const struct vperf_sysreg_desc *d = &vperf_sysregs[i];

		if (!vperf_sysreg_in_space(d->enc))
			continue;
		for (int read = 0; read < 2; read++) {
			uint64_t esr = vperf_esr_encode_sysreg(d->enc, 7, read);

			assert_int_equal(vperf_handle_sysreg(&fx->vcpu, esr, fx->gprs),
					 VPERF_TRAP_UNDEF);
			n++;
		}
	}
	assert_int_equal(fx->hv.undefs, n);
	assert_int_equal(fx->hv.pc_advances, 0);
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(fx->vm.stats.traps, n);
	assert_int_equal(fx->vm.stats.undef, n);
#endif
	assert_gprs_untouched(fx);
}

/* Not ours: other exception classes and System registers outside the PMU/SPE space are left to
 * the hypervisor with nothing done. */
static void test_not_mine(void **state)
{
	struct fixture *fx = *state;
	const uint32_t sctlr_el1 = VPERF_SYSREG_ENC(3, 0, 1, 0, 0);
	const uint32_t mdcr_el2 = VPERF_ENC_MDCR_EL2;

	assert_int_equal(vperf_handle_sysreg(&fx->vcpu, 0x5a000000, fx->gprs), VPERF_TRAP_NOT_MINE);
	assert_int_equal(
		vperf_handle_sysreg(&fx->vcpu, vperf_esr_encode_sysreg(sctlr_el1, 1, 1), fx->gprs),
		VPERF_TRAP_NOT_MINE);
	assert_int_equal(
		vperf_handle_sysreg(&fx->vcpu, vperf_esr_encode_sysreg(mdcr_el2, 1, 0), fx->gprs),
		VPERF_TRAP_NOT_MINE);
	assert_int_equal(
		vperf_handle_sysreg(&fx->vcpu,
				    vperf_esr_encode_sysreg(VPERF_ENC_ID_AA64DFR0_EL1, 1, 1),
				    fx->gprs),
		VPERF_TRAP_NOT_MINE);
	assert_int_equal(fx->hv.undefs + fx->hv.pc_advances, 0);
	assert_int_equal(fx->vm.stats.traps, 0);
	assert_gprs_untouched(fx);
}

/* Bad input from outside: the trace buffer's registers (FEAT_TRBE, S3_0_C9_C11_<op2>) sit between the
 * SPE and PMU groups but are not vperf's: a hypervisor handling TRBE itself gets them. */
static void test_trbe_not_mine(void **state)
{
	struct fixture *fx = *state;

	for (unsigned int op2 = 0; op2 < 8; op2++)
		assert_int_equal(
			vperf_handle_sysreg(
				&fx->vcpu,
				vperf_esr_encode_sysreg(VPERF_SYSREG_ENC(3, 0, 9, 11, op2), 2, 1),
				fx->gprs),
			VPERF_TRAP_NOT_MINE);
	assert_int_equal(fx->hv.undefs + fx->hv.pc_advances, 0);
	assert_int_equal(fx->vm.stats.unknown_enc, 0);
	assert_gprs_untouched(fx);
}

/* An encoding in the PMU/SPE space the database lacks: UNDEF, counted, and a log line that can
 * be pasted into sysregs.def. */
static void test_unknown_encoding_logged(void **state)
{
	struct fixture *fx = *state;
	const uint32_t enc = VPERF_SYSREG_ENC(3, 3, 9, 13, 5);

	assert_null(vperf_sysreg_lookup(enc));
	assert_int_equal(
		vperf_handle_sysreg(&fx->vcpu, vperf_esr_encode_sysreg(enc, 3, 1), fx->gprs),
		VPERF_TRAP_UNDEF);
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(fx->vm.stats.unknown_enc, 1);
#endif
	assert_int_equal(fx->hv.undefs, 1);
	assert_string_equal(fake_hyp.last_log,
			    "vperf: unknown sysreg S3_3_C9_C13_5 (MRS x3); add to sysregs.def: "
			    "SYSREG(S3_3_C9_C13_5, 3, 3, 9, 13, 5, RW, TPM, PMUV3, 0x0ull, 0x0, "
			    "NONE, NONE, NONE, NONE)");

	assert_int_equal(vperf_handle_sysreg(
				 &fx->vcpu,
				 vperf_esr_encode_sysreg(VPERF_SYSREG_ENC(3, 0, 9, 10, 5), 31, 0),
				 fx->gprs),
			 VPERF_TRAP_UNDEF);
	assert_string_equal(fake_hyp.last_log,
			    "vperf: unknown sysreg S3_0_C9_C10_5 (MSR x31); add to sysregs.def: "
			    "SYSREG(S3_0_C9_C10_5, 3, 0, 9, 10, 5, RW, E2PB, SPE, 0x0ull, 0x0, "
			    "NONE, NONE, NONE, NONE)");
	assert_gprs_untouched(fx);
}

/* perform_access with a recording handler. */
static uint64_t seen_val;
static unsigned int handler_calls;
static bool handler_result;

static bool record_handler(struct vperf_vcpu *vcpu, struct vperf_access *acc)
{
	(void)vcpu;
	handler_calls++;
	seen_val = acc->val;
	if (acc->read)
		acc->val = 0xfeedface;
	return handler_result;
}

static enum vperf_trap_result access(struct fixture *fx, uint32_t enc, unsigned int rt, bool read)
{
	struct vperf_esr_sysreg a;

	assert_true(vperf_esr_decode_sysreg(vperf_esr_encode_sysreg(enc, rt, read), &a));
	return vperf_perform_access(&fx->vcpu, vperf_sysreg_lookup(enc), &a, fx->gprs,
				    record_handler);
}

static void test_plumbing_write(void **state)
{
	struct fixture *fx = *state;

	handler_result = true;
	assert_int_equal(access(fx, VPERF_ENC_PMCR_EL0, 5, false), VPERF_TRAP_HANDLED);
	assert_int_equal(seen_val, 0x1005);
	/* MSR from XZR writes 0, whatever x31 of the frame would hold. */
	assert_int_equal(access(fx, VPERF_ENC_PMCR_EL0, 31, false), VPERF_TRAP_HANDLED);
	assert_int_equal(seen_val, 0);
	assert_int_equal(fx->hv.pc_advances, 2);
	assert_gprs_untouched(fx);
}

static void test_plumbing_read(void **state)
{
	struct fixture *fx = *state;

	handler_result = true;
	assert_int_equal(access(fx, VPERF_ENC_PMCCNTR_EL0, 30, true), VPERF_TRAP_HANDLED);
	assert_int_equal(seen_val, 0); /* the value starts zeroed, not from a GPR */
	assert_int_equal(fx->gprs[30], 0xfeedface);
	fx->gprs[30] = 0x1000 + 30;
	/* MRS to XZR discards the value. */
	assert_int_equal(access(fx, VPERF_ENC_PMCCNTR_EL0, 31, true), VPERF_TRAP_HANDLED);
	assert_gprs_untouched(fx);
	assert_int_equal(fx->hv.pc_advances, 2);
}

static void test_plumbing_refused_and_wrong_direction(void **state)
{
	struct fixture *fx = *state;

	handler_result = false;
	handler_calls = 0;
	assert_int_equal(access(fx, VPERF_ENC_PMSELR_EL0, 2, true), VPERF_TRAP_UNDEF);
	assert_int_equal(handler_calls, 1);
	/* MRS of write-only PMSWINC_EL0 and MSR of read-only PMCEID0_EL0 never reach a handler. */
	handler_result = true;
	assert_int_equal(access(fx, VPERF_ENC_PMSWINC_EL0, 2, true), VPERF_TRAP_UNDEF);
	assert_int_equal(access(fx, VPERF_ENC_PMCEID0_EL0, 2, false), VPERF_TRAP_UNDEF);
	assert_int_equal(handler_calls, 1);
	assert_int_equal(fx->hv.undefs, 3);
	assert_int_equal(fx->hv.pc_advances, 0);
	assert_gprs_untouched(fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_off_vm_undef_everything, setup),
		cmocka_unit_test_setup(test_not_mine, setup),
		cmocka_unit_test_setup(test_trbe_not_mine, setup),
		cmocka_unit_test_setup(test_unknown_encoding_logged, setup),
		cmocka_unit_test_setup(test_plumbing_write, setup),
		cmocka_unit_test_setup(test_plumbing_read, setup),
		cmocka_unit_test_setup(test_plumbing_refused_and_wrong_direction, setup),
	};

	return cmocka_run_group_tests_name("trap", tests, NULL, NULL);
}
