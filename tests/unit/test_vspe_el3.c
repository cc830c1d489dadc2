// SPDX-License-Identifier: MIT
/*
 * SPE whose Profiling Buffer the firmware keeps for the Secure side (MDCR_EL3.NSPB = 0b0x, SPE
 * 3.4.2), on the model (sim_pe_config.mdcr_el3_nspb_secure): PMBIDR_EL1.P reads 1 at EL2 (SPE
 * 4.3.1) and every other SPE register traps to EL3 from EL2, and from Non-secure EL1 when no
 * MDCR_EL2 trap takes it first (SPE 4.3, 3.2.3, 3.4.6); the model reports each such access as an
 * error. vperf must find no SPE there (docs/vspe.md, "SPE firmware keeps"): touch no SPE register
 * but PMBIDR_EL1, offer no vSPE, show guests PMSVer 0 and keep their accesses trapping to EL2.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>

#include "vspe_util.h"

#define SPE_EVENTS (0xfull << 32) /* PMCEID0_EL0: SAMPLE_POP .. SAMPLE_COLLISION */

/* SPEv1p2, PMBIDR_EL1.Align = doubleword, the buffer the firmware's (secure) or not. */
static void pe(struct sim_pe_config *cfg, bool secure)
{
	sim_spe_default_config(cfg, 3);
	cfg->pmbidr = 3;
	cfg->el2_trap_cycles = 0;
	cfg->mdcr_el3_nspb_secure = secure;
}

static const struct vperf_vm_config plain = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 2 };

/* Every pCPU probed: SPE there but not vperf's, counted and logged once each; PMBIDR_EL1 the
 * only SPE register read (the model reports any other), a VHE host accepted. The same PE with
 * NSPB = 0b11 is one with SPE. */
static void test_pcpu_init(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	pe(&cfg, true);
	hv_init(&cfg, 2);
	for (unsigned int c = 0; c < SIM_MAX_CPUS; c++) {
		const struct vperf_pcpu *p = &hv.pcpu[c];

		assert_true(p->caps.spe_el3);
		assert_int_equal(p->caps.pmsver, 0);
		assert_int_equal(p->caps.pmsidr, 0);
		assert_int_equal(p->caps.pmbidr, 0);
		assert_int_equal(V_PMSVER(p->caps.dfr0), 3);
		assert_int_equal(p->stats.spe_el3, 1);
		assert_int_equal(p->stats.refused, 0);
	}
	assert_int_equal(hv.nr_logs, SIM_MAX_CPUS);
	assert_non_null(strstr(hv.last_log, "PMBIDR_EL1.P = 1"));
	/* No SPE register is accessed: a VHE host (HCR_EL2.E2H = 1, where the name PMSCR_EL1
	 * would reach PMSCR_EL2) is not refused for SPE here. */
	sim_poke(0, VPERF_ENC_HCR_EL2, sim_peek(0, VPERF_ENC_HCR_EL2) | VPERF_BIT(34));
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &hv.pcpu[0].cfg), VPERF_OK);
	assert_int_equal(sim_error_count(), 0);

	pe(&cfg, false);
	hv_init(&cfg, 2);
	assert_false(hv.pcpu[0].caps.spe_el3);
	assert_int_equal(hv.pcpu[0].caps.pmsver, 3);
	assert_int_equal(hv.pcpu[0].caps.pmsidr, sim_spe_default_pmsidr(3));
	assert_int_equal(hv.pcpu[0].caps.pmbidr, 3);
	assert_int_equal(hv.pcpu[0].stats.spe_el3, 0);
	assert_int_equal(hv.nr_logs, 0);
}

/* A VM with SPE, its own buffer or profiled from outside, is refused as on a PE without SPE. */
static void test_vm_with_vspe(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	pe(&cfg, true);
	hv_init_host_spe(&cfg, 2, true);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_ENODEV);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, true), VPERF_ENODEV);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL2, true), VPERF_ENODEV);
	assert_int_equal(sim_error_count(), 0);
}

/* A VM without SPE runs there with MDCR_EL2.TPMS = 1 and E2PB = 0b00: every SPE register but
 * PMBIDR_EL1 traps to EL2 and is UNDEF (none reaches EL3); PMBIDR_EL1, which nothing traps, reads
 * the hardware's P = 1. It sees PMSVer 0, nothing samples it, and its loads and puts touch no SPE
 * register. */
static void test_vm_without_vspe(void **state)
{
	static const uint32_t regs[] = {
		VPERF_ENC_PMSCR_EL1,	VPERF_ENC_PMSNEVFR_EL1, VPERF_ENC_PMSICR_EL1,
		VPERF_ENC_PMSIRR_EL1,	VPERF_ENC_PMSFCR_EL1,	VPERF_ENC_PMSEVFR_EL1,
		VPERF_ENC_PMSLATFR_EL1, VPERF_ENC_PMSIDR_EL1,	VPERF_ENC_PMBLIMITR_EL1,
		VPERF_ENC_PMBPTR_EL1,	VPERF_ENC_PMBSR_EL1,
	};
	const struct sim_uop op = {
		.pc = 0x1000, .vaddr = 0x2000, .latency = 4, .type = SIM_UOP_LOAD, .size_log2 = 3
	};
	struct sim_pe_config cfg;
	struct hv_vcpu *a;

	(void)state;
	pe(&cfg, true);
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &plain), VPERF_OK);
	a = hv_vcpu(0, 0);
	for (unsigned int c = 0; c < 2; c++) {
		hv_enter(a, c);
		assert_int_equal(V_MDCR_E2PB(sim_peek(c, VPERF_ENC_MDCR_EL2)), 0);
		assert_true(sim_peek(c, VPERF_ENC_MDCR_EL2) & V_MDCR_TPMS);
		for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(regs); i++) {
			guest_mrs(regs[i]);
			assert_int_equal(sim_guest_stats(c)->last, SIM_ACC_UNDEF);
			if (regs[i] != VPERF_ENC_PMSIDR_EL1) {
				guest_msr(regs[i], 1);
				assert_int_equal(sim_guest_stats(c)->last, SIM_ACC_UNDEF);
			}
		}
		assert_int_equal(guest_read(PMBIDR_EL1), 0x13);
		assert_int_equal(
			V_PMSVER(vperf_vcpu_id_dfr0(&a->v, sim_peek(c, VPERF_ENC_ID_AA64DFR0_EL1))),
			0);
		hv_run_n(&op, 1000);
		hv_leave(c);
		assert_int_equal(sim_spe_stats(c)->pop, 0);
	}
	assert_int_equal(sim_error_count(), 0);
}

/* The SAMPLE_* events are the PMU's wherever SPE is implemented, the buffer vperf's or not: a
 * direct VM that allows every event still has its PMCEID0_EL0 read trapped and the SPE events
 * hidden (FEAT_FGT), and is refused where no FEAT_FGT can trap it. */
static void test_spe_events_hidden(void **state)
{
	struct vperf_vm_config vm = plain;
	struct sim_pe_config cfg;

	(void)state;
	vm.partition = VPERF_PART_DIRECT;
	vperf_pmu_filter_allow_all(&vm.filter);
	pe(&cfg, true);
	cfg.fgt = true;
	hv_init(&cfg, 1);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCEID0_EL0) & SPE_EVENTS, SPE_EVENTS);
	assert_int_equal(guest_read(PMCEID0_EL0) & SPE_EVENTS, 0);
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0);
	cfg.fgt = false;
	hv_init(&cfg, 1);
	assert_int_equal(hv_vm(0, &vm), VPERF_EINVAL);
}

/* pCPU 0's SPE usable, pCPU 1's kept by the firmware. Both up first: the platform has no SPE
 * every pCPU gives (the ID view is the lowest of all, 0), so a VM with SPE is refused and one
 * without runs on either. A VM with SPE first: pCPU 1 cannot give it SPE and is refused, counted
 * and logged, while the VM profiles on pCPU 0. */
static void test_mixed_platform(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct sim_pe_config cfgs[SIM_MAX_CPUS];
	struct lx_spe lx = { .vm = 1, .size = V_BUF_SIZE, .pmscr = V_PMSCR_E1SPE };
	struct hv_vcpu *a, *b;

	(void)state;
	for (unsigned int c = 0; c < SIM_MAX_CPUS; c++)
		pe(&cfgs[c], c == 1);
	hv_init_model(cfgs);
	assert_int_equal(hv_pcpu_up(0, &pcfg), VPERF_OK);
	assert_int_equal(hv_pcpu_up(1, &pcfg), VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_ENODEV);
	assert_int_equal(hv_vm(0, &plain), VPERF_OK);
	a = hv_vcpu(0, 0);
	for (unsigned int c = 0; c < 2; c++) {
		hv_enter(a, c);
		assert_int_equal(
			V_PMSVER(vperf_vcpu_id_dfr0(&a->v, sim_peek(c, VPERF_ENC_ID_AA64DFR0_EL1))),
			0);
		guest_read(PMSIDR_EL1);
		assert_int_equal(sim_guest_stats(c)->last, SIM_ACC_UNDEF);
		hv_leave(c);
	}
	assert_int_equal(sim_error_count(), 0);

	hv_init_model(cfgs);
	assert_int_equal(hv_pcpu_up(0, &pcfg), VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(hv_pcpu_up(1, &pcfg), VPERF_EINVAL);
	assert_int_equal(hv.pcpu[1].stats.refused, 1);
	assert_int_equal(hv.pcpu[1].stats.spe_el3, 1);
	assert_non_null(strstr(hv.last_log, "PMSVer"));
	b = hv_vcpu(1, 1);
	hv_enter(b, 0);
	assert_int_equal(
		V_PMSVER(vperf_vcpu_id_dfr0(&b->v, sim_peek(0, VPERF_ENC_ID_AA64DFR0_EL1))), 3);
	lx_probe();
	lx_start(&lx);
	lx_run(&lx, b, 2000);
	lx_stop(&lx);
	assert_true(lx_records(&lx) > 0);
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcpu_init),	cmocka_unit_test(test_vm_with_vspe),
		cmocka_unit_test(test_vm_without_vspe), cmocka_unit_test(test_spe_events_hidden),
		cmocka_unit_test(test_mixed_platform),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
