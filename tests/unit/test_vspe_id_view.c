// SPDX-License-Identifier: MIT
/*
 * The SPE ID registers a VM with a vSPE is shown when its pCPUs differ (docs/vspe.md, "One SPE
 * ID view"; docs/cores.md, "SPE ID registers that differ between pCPUs"): one view whatever pCPU
 * its vCPU is on, never the current pCPU's. PMSIDR_EL1 (SPE 4.3.11): FE, FT, FL, ArchInst, LDS,
 * ERnd and FnE ANDed, Interval the largest, CountSize the smallest, MaxSize and Format equal;
 * PMBIDR_EL1 (SPE 4.3.1, which has no trap: the guest reads the pCPU's own): Align and F equal.
 * pCPUs that differ in Align, F, MaxSize or Format get no VM with a vSPE, and a pCPU brought up
 * after such a VM that would change its view is refused.
 * The guest-writable masks follow the view: PMSFCR_EL1's filter enables, PMSICR_EL1.ECOUNT
 * (ERnd), PMSLATFR_EL1.MINLAT (CountSize).
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/esr.h>

#include "vspe_util.h"

/* PMSIDR_EL1 fields (SPE 4.3.11) and PMBIDR_EL1 ones (SPE 4.3.1), written out from the text. */
#define I_FE	      (1ull << 0)
#define I_FT	      (1ull << 1)
#define I_FL	      (1ull << 2)
#define I_ARCHINST    (1ull << 3)
#define I_LDS	      (1ull << 4)
#define I_ERND	      (1ull << 5)
#define I_FNE	      (1ull << 6)
#define I_INTERVAL(x) ((uint64_t)(x) << 8)  /* 0: 256, 4: 1024, 8: 4096 */
#define I_MAXSIZE(x)  ((uint64_t)(x) << 12) /* 6: 64 bytes, 7: 128 */
#define I_COUNT12     (2ull << 16)	    /* 12-bit saturating counters */
#define I_COUNT16     (3ull << 16)	    /* 16-bit */
#define I_FORMAT(x)   ((uint64_t)(x) << 20) /* Arm DDI 0487 K.a: RES0 in SPE 4.3.11 */
#define I_FILTERS     (I_FE | I_FT | I_FL)
#define B_F	      (1ull << 5)
#define B_ALIGN64     6ull
/* PMSFCR_EL1 (SPE 4.3.9), PMSICR_EL1 (4.3.10) */
#define FCR_FE	   (1ull << 0)
#define FCR_FT	   (1ull << 1)
#define FCR_FL	   (1ull << 2)
#define FCR_FNE	   (1ull << 3)
#define FCR_LD	   (1ull << 17)
#define ICR_ECOUNT (0xffull << 56)

/* A pCPU rich in SPE features and one poor in them, both of MaxSize 64 bytes, Align 0. */
static const uint64_t rich =
	I_FILTERS | I_ARCHINST | I_LDS | I_ERND | I_FNE | I_INTERVAL(0) | I_MAXSIZE(6) | I_COUNT16;
static const uint64_t poor = I_FE | I_FT | I_INTERVAL(4) | I_MAXSIZE(6) | I_COUNT12;
/* What a guest must read on both: the AND, the larger Interval, the narrower counters. */
static const uint64_t view = I_FE | I_FT | I_INTERVAL(4) | I_MAXSIZE(6) | I_COUNT12;

/* The model: every CPU of SPE version pmsver, pCPU c < 2 with PMSIDR_EL1 idr[c] and PMBIDR_EL1
 * bidr[c]; no pCPU up. */
static void init_model(uint8_t pmsver, const uint64_t idr[2], const uint64_t bidr[2])
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];

	for (unsigned int c = 0; c < SIM_MAX_CPUS; c++) {
		sim_spe_default_config(&cfgs[c], pmsver);
		cfgs[c].el2_trap_cycles = 0;
		if (c < 2) {
			cfgs[c].pmsidr = idr[c];
			cfgs[c].pmbidr = bidr[c];
		}
	}
	hv_init_model(cfgs);
}

static const struct vperf_pcpu_config pcfg = { .host_counters = 2 };

static void up(unsigned int cpu, int want)
{
	assert_int_equal(hv_pcpu_up(cpu, &pcfg), want);
	sim_set_cpu(0);
}

/* VM 0's vCPU reads PMSIDR_EL1 and PMBIDR_EL1 on pCPU 0 and then on pCPU 1: want_idr and
 * want_bidr on both. */
static void expect_view(uint64_t want_idr, uint64_t want_bidr)
{
	struct hv_vcpu *vc = hv_vcpu(0, 0);

	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		hv_enter(vc, cpu);
		assert_int_equal(guest_read(PMSIDR_EL1), want_idr);
		assert_int_equal(guest_read(PMBIDR_EL1), want_bidr);
		hv_leave(cpu);
	}
	sim_set_cpu(0);
}

/* Features ANDed (FE..FnE), Interval the largest, CountSize the smallest, on either pCPU and
 * whichever came up first. Mutations tried (each fails it): add_spe_ids (virt/platform.c)
 * taking Interval with field_min; CountSize with field_max; the feature bits ORed instead of
 * ANDed; pmsidr_of (virt/vspe/regs.c) reading the current pCPU's caps->pmsidr again (the
 * defect of issue 44). */
static void test_view_same_on_every_pcpu(void **state)
{
	(void)state;
	for (unsigned int order = 0; order < 2; order++) {
		const uint64_t idr[2] = { order ? poor : rich, order ? rich : poor };
		const uint64_t bidr[2] = { B_F, B_F };

		init_model(3, idr, bidr);
		up(0, VPERF_OK);
		up(1, VPERF_OK);
		assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
		expect_view(view, B_F);
	}
	/* Alike pCPUs: the view is their value (FnE from SPEv1p2), F included. */
	{
		const uint64_t idr[2] = { rich, rich }, bidr[2] = { B_F, B_F };

		init_model(3, idr, bidr);
		up(0, VPERF_OK);
		up(1, VPERF_OK);
		assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
		expect_view(rich, B_F);
	}
	assert_int_equal(sim_error_count(), 0);
}

/* The masks follow the view, on the pCPU that has more: on the rich pCPU a guest whose view has
 * no FL, FnE, ERnd or 16-bit counters keeps no PMSFCR_EL1.FL or FnE, no PMSICR_EL1.ECOUNT (as
 * written, as the hardware holds it while the buffer runs, and as the put saves it) and 12 bits of
 * PMSLATFR_EL1.MINLAT. Mutations tried (each fails it): vperf_vspe_keep's PMSFCR_EL1 case keeping
 * FE/FT/FL unconditionally (as before); the PMSICR_EL1 read (regs.c, read_reg) or the put's
 * save (switch.c, save) not masked by vperf_vspe_keep. */
static void test_masks_follow_view(void **state)
{
	const uint64_t idr[2] = { rich, poor }, bidr[2] = { 0, 0 };
	struct lx_spe *lx = test_calloc(1, sizeof(*lx));
	struct hv_vcpu *vc;
	uint64_t bad;

	(void)state;
	init_model(3, idr, bidr);
	up(0, VPERF_OK);
	up(1, VPERF_OK);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	bad = hv.vm[0].stats.bad_value;
	guest_write(PMSFCR_EL1, FCR_FE | FCR_FT | FCR_FL | FCR_FNE | FCR_LD);
	assert_int_equal(guest_read(PMSFCR_EL1), FCR_FE | FCR_FT | FCR_LD);
	guest_write(PMSICR_EL1, ICR_ECOUNT | 5);
	assert_int_equal(guest_read(PMSICR_EL1), 5);
	guest_write(PMSLATFR_EL1, 0xffff);
	assert_int_equal(guest_read(PMSLATFR_EL1), 0xfff);
	assert_int_equal(hv.vm[0].stats.bad_value, bad + 3);
	/* The buffer running: the state is in pCPU 0's hardware, which has ERnd. */
	lx->vm = 0;
	lx->size = V_BUF_SIZE;
	lx_start(lx);
	lx_run(lx, vc, 100);
	assert_true(vc->v.spe.in_hw);
	sim_poke(0, VPERF_ENC_PMSICR_EL1, ICR_ECOUNT | 7);
	assert_int_equal(guest_read(PMSICR_EL1), 7);
	sim_poke(0, VPERF_ENC_PMSICR_EL1, ICR_ECOUNT | 9);
	hv_leave(0);
	/* What the put saved is what a blob of it carries, and what a load on either pCPU gives. */
	assert_int_equal(vc->v.spe.reg[VPERF_VSPE_PMSICR] & ICR_ECOUNT, 0);
	hv_enter(vc, 1);
	assert_int_equal(guest_read(PMSICR_EL1) & ICR_ECOUNT, 0);
	hv_leave(1);
	sim_set_cpu(0);
	test_free(lx);
	assert_int_equal(sim_error_count(), 0);
}

/* Each filter enable of PMSFCR_EL1 (FE, FT, FL: SPE 4.3.9) only where every pCPU has the filter
 * (PMSIDR_EL1 FE, FT, FL), written on the pCPU that has it. SPE 4.3.11 has them read as one; the
 * rule does not rest on it. Mutations tried (each fails it): vperf_vspe_keep's PMSFCR_EL1 case
 * keeping FE, FT or FL whatever the view. */
static void test_filter_enables_follow_view(void **state)
{
	static const uint64_t filters[3][2] = { { I_FE, FCR_FE },
						{ I_FT, FCR_FT },
						{ I_FL, FCR_FL } };
	const uint64_t all = FCR_FE | FCR_FT | FCR_FL;

	(void)state;
	for (unsigned int k = 0; k < 3; k++) {
		const uint64_t idr[2] = { rich, rich & ~filters[k][0] }, bidr[2] = { 0, 0 };
		struct hv_vcpu *vc;

		init_model(1, idr, bidr);
		up(0, VPERF_OK);
		up(1, VPERF_OK);
		assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
		vc = hv_vcpu(0, 0);
		hv_enter(vc, 0);
		guest_write(PMSFCR_EL1, all | FCR_LD);
		assert_int_equal(guest_read(PMSFCR_EL1), (all & ~filters[k][1]) | FCR_LD);
		hv_leave(0);
	}
	assert_int_equal(sim_error_count(), 0);
}

/* The reproduction of issue 44 (docs/cores.md): pCPU 0 Align 0, pCPU 1 Align 0b0110 (64 bytes).
 * Both up: no VM with a vSPE (a VM without SPE still). A VM with a vSPE first: pCPU 1 refused,
 * counted; on pCPU 0 alone the guest's buffer at base + 8 takes 2000 loads with no fault. The
 * same for MaxSize (64 bytes, 128), Format and PMBIDR_EL1.F. Mutations tried (each fails it):
 * add_spe_ids not setting spe_ids_differ (virt/platform.c); check_spe (virt/policy.c) not
 * testing it; record_demands not setting spe_ids; spe_ids_differ without its PMSIDR_EL1 test,
 * or with SPE_BIDR_SAME of Align alone. */
static void test_align_maxsize_format_equal(void **state)
{
	static const uint64_t plain = I_FILTERS | I_ARCHINST | I_LDS | I_MAXSIZE(6) | I_COUNT12;
	static const uint64_t idrs[4][2] = { { plain, plain },
					     { plain, (plain & ~I_MAXSIZE(0xf)) | I_MAXSIZE(7) },
					     { plain, plain | I_FORMAT(1) },
					     { plain, plain } };
	static const uint64_t bidrs[4][2] = { { 0, B_ALIGN64 }, { 0, 0 }, { 0, 0 }, { 0, B_F } };
	const struct vperf_vm_config none = { .pmu_mode = VPERF_PMU_OFF };
	struct lx_spe *lx = test_calloc(1, sizeof(*lx));
	struct hv_vcpu *vc;

	(void)state;
	for (unsigned int k = 0; k < 4; k++) {
		init_model(1, idrs[k], bidrs[k]);
		up(0, VPERF_OK);
		up(1, VPERF_OK);
		assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_EINVAL);
		assert_non_null(strstr(hv.last_log, "vm_init refused"));
		assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1, true), VPERF_EINVAL);
		assert_int_equal(hv_vm(2, &none), VPERF_OK);

		init_model(1, idrs[k], bidrs[k]);
		up(0, VPERF_OK);
		assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
		up(1, VPERF_EINVAL);
		assert_int_equal(hv.pcpu[1].stats.refused, 1);
	}
	/* The last model is Align's again: the guest alone on pCPU 0, its buffer at base + 8. */
	init_model(1, idrs[0], bidrs[0]);
	up(0, VPERF_OK);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	up(1, VPERF_EINVAL);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	lx_probe();
	assert_int_equal(guest_read(PMBIDR_EL1), 0);
	lx->vm = 0;
	lx->size = V_BUF_SIZE;
	lx->head = 8;
	lx_start(lx);
	lx_run(lx, vc, 2000);
	lx_stop(lx);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_int_equal(lx->irqs + lx->fatal + lx->spurious, 0);
	assert_true(lx_records(lx) > 0);
	hv_leave(0);
	test_free(lx);
	assert_int_equal(sim_error_count(), 0);
}

/* Without a VM with a vSPE a pCPU of another Align comes up (no view was shown yet); a VM with a
 * vSPE created after is refused. Mutation tried: spe_ids_refusal applied without a vSPE VM's
 * demand (d->spe_ids ignored) fails it. */
static void test_no_vspe_vm_no_demand(void **state)
{
	const uint64_t idr[2] = { rich, rich }, bidr[2] = { 0, B_ALIGN64 };
	const struct vperf_vm_config none = { .pmu_mode = VPERF_PMU_OFF };

	(void)state;
	init_model(1, idr, bidr);
	up(0, VPERF_OK);
	assert_int_equal(hv_vm(0, &none), VPERF_OK);
	up(1, VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_EINVAL);
	assert_int_equal(sim_error_count(), 0);
}

/* A pCPU brought up after a VM with a vSPE, pCPU 1 of PMSIDR_EL1 idr and PMBIDR_EL1 bidr beside
 * pCPU 0 of rich less ERnd and F: vperf_pcpu_init's result. */
static void later_pcpu(uint64_t idr, uint64_t bidr, int want)
{
	const uint64_t idrs[2] = { rich & ~I_ERND, idr }, bidrs[2] = { B_F, bidr };

	init_model(3, idrs, bidrs);
	up(0, VPERF_OK);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	up(1, want);
	assert_int_equal(hv.pcpu[1].stats.refused, want != VPERF_OK);
	if (want == VPERF_OK) /* and the VM's view has not changed */
		expect_view(rich & ~I_ERND, B_F);
}

/* Each field's rule at a later pCPU, against a VM shown pCPU 0's values: refused when it lacks a
 * feature (LDS, FnE), has a larger Interval, narrower counters, another Align, F, MaxSize or
 * Format; accepted with more (ERnd). Mutations tried (each fails it): each test of
 * spe_ids_refusal (virt/platform.c) removed in turn; its Interval test reversed. */
static void test_later_pcpu_per_field(void **state)
{
	const uint64_t base = rich & ~I_ERND;

	(void)state;
	later_pcpu(base, B_F, VPERF_OK);
	later_pcpu(base | I_ERND, B_F, VPERF_OK);
	later_pcpu(base & ~I_LDS, B_F, VPERF_EINVAL);
	later_pcpu(base & ~I_FNE, B_F, VPERF_EINVAL);
	later_pcpu(base, 0, VPERF_EINVAL);
	later_pcpu(base | I_INTERVAL(2), B_F, VPERF_EINVAL);
	later_pcpu((base & ~I_COUNT16) | I_COUNT12, B_F, VPERF_EINVAL);
	later_pcpu(base, B_F | B_ALIGN64, VPERF_EINVAL);
	later_pcpu((base & ~I_MAXSIZE(0xf)) | I_MAXSIZE(7), B_F, VPERF_EINVAL);
	later_pcpu(base | I_FORMAT(1), B_F, VPERF_EINVAL);
	assert_int_equal(sim_error_count(), 0);
}

/* A smaller Interval on the later pCPU: accepted, the view keeps the larger. Needs pCPU 0 with a
 * larger Interval than 256 to begin with. */
static void test_later_pcpu_smaller_interval(void **state)
{
	const uint64_t idrs[2] = { poor, poor & ~I_INTERVAL(0xf) }, bidrs[2] = { 0, 0 };

	(void)state;
	init_model(1, idrs, bidrs);
	up(0, VPERF_OK);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	up(1, VPERF_OK);
	expect_view(poor, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* PMBIDR_EL1 has no trap (SPE 4.3.1); were a syndrome to claim a read of it, vperf answers with
 * the view: Align and F, P = 0 (the guest owns its buffer). Mutation tried: guest_pmbidr
 * (virt/vspe/regs.c) keeping Align alone fails it. */
static void test_claimed_pmbidr_read(void **state)
{
	const uint64_t idr[2] = { rich, rich }, bidr[2] = { B_F | B_ALIGN64, B_F | B_ALIGN64 };
	uint64_t gprs[31] = { 0 };

	(void)state;
	init_model(3, idr, bidr);
	up(0, VPERF_OK);
	up(1, VPERF_OK);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 1);
	gprs[3] = ~0ull;
	assert_int_equal(
		hv_raw_trap(vperf_esr_encode_sysreg(VPERF_ENC_PMBIDR_EL1, 3, true), gprs, 1),
		VPERF_TRAP_HANDLED);
	assert_int_equal(gprs[3], B_F | B_ALIGN64);
	hv_leave(1);
	sim_set_cpu(0);
	assert_int_equal(sim_error_count(), 0);
}

/* A VM profiled from outside (VPERF_SPE_BUF_EL2) is shown no SPE ID register (the buffer and its
 * records are the hypervisor's): pCPUs of another Align take it, where a VM with a vSPE of its
 * own is refused. Mutation tried: check_spe (virt/policy.c) refusing it too fails it. */
static void test_outside_profiled_vm_not_concerned(void **state)
{
	const uint64_t idr[2] = { rich, rich }, bidr[2] = { 0, B_ALIGN64 };
	const struct vperf_vm_config outside = { .pmu_mode = VPERF_PMU_OFF,
						 .spe = true,
						 .spe_buffer = VPERF_SPE_BUF_EL2 };
	struct vperf_pcpu_config host = pcfg;

	(void)state;
	host.host_spe = true;
	init_model(1, idr, bidr);
	assert_int_equal(hv_pcpu_up(0, &host), VPERF_OK);
	assert_int_equal(hv_pcpu_up(1, &host), VPERF_OK);
	sim_set_cpu(0);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_EINVAL);
	assert_int_equal(hv_vm(1, &outside), VPERF_OK);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_same_on_every_pcpu),
		cmocka_unit_test(test_masks_follow_view),
		cmocka_unit_test(test_filter_enables_follow_view),
		cmocka_unit_test(test_align_maxsize_format_equal),
		cmocka_unit_test(test_no_vspe_vm_no_demand),
		cmocka_unit_test(test_later_pcpu_per_field),
		cmocka_unit_test(test_later_pcpu_smaller_interval),
		cmocka_unit_test(test_claimed_pmbidr_read),
		cmocka_unit_test(test_outside_profiled_vm_not_concerned),
	};

	return cmocka_run_group_tests_name("vspe_id_view", tests, NULL, NULL);
}
