// SPDX-License-Identifier: MIT
/*
 * Bad input from outside (docs/fuzzing.md): policies that are not policies, interrupts where no PMU
 * is, an external agent's interrupt, and state the direct partition must carry across a switch.
 * Each test failed on the code before its fix. Defects 6 and 7 are in test_fdt.c and
 * test_trap.c, 9-11 in test_vpmu_emulated.c and test_vpmu_blob.c.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <sim/spe.h>
#include <vperf/esr.h>
#include <vperf/id_regs.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"

static enum sim_access last_access(void)
{
	return sim_guest_stats(sim_current_cpu())->last;
}

static const struct sim_uop op1 = { .pc = 0x4000, .latency = 1, .type = SIM_UOP_OTHER };

static struct vperf_vm_config policy(enum vperf_pmu_mode mode, enum vperf_partition part,
				     uint8_t nr)
{
	struct vperf_vm_config cfg = { .pmu_mode = mode, .partition = part, .nr_counters = nr };

	vperf_pmu_filter_allow_all(&cfg.filter);
	return cfg;
}

/* Defect 1: a partition value outside the enum is refused, whatever the mode. */
static void test_partition_out_of_enum(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, VPERF_PART_TRAPPED, 2);
	int bad = VPERF_PART_SECOND + 1;

	(void)state;
	hv_init(NULL, 2);
	memcpy(&cfg.partition, &bad, sizeof(bad));
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
	cfg.pmu_mode = VPERF_PMU_OFF;
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
}

/* Defect 3: an OFF VM with an impossible counter count is refused, and an OFF VM has no vPMU
 * state to save or restore (the restore shifted 1 by N). */
static void test_off_vm_counts_and_blob(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_OFF, VPERF_PART_TRAPPED, 200);
	static uint8_t blob[VPERF_VPMU_BLOB_SIZE];
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
	cfg.nr_counters = 31;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	memset(blob, 0, sizeof(blob));
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_ENODEV);
	assert_int_equal(vperf_vcpu_restore(&a->v, blob, sizeof(blob)), VPERF_ENODEV);
}

/* Defect 2: a PMUIRQ entry on a pCPU without a PMUv3 reads nothing (its registers are UNDEFINED
 * at EL2; the model reports any access). */
static void test_irq_without_pmu(void **state)
{
	struct sim_pe_config model;

	(void)state;
	sim_default_config(&model);
	model.pmuver = 0;
	hv_init(&model, 0);
	assert_false(vperf_handle_pmu_irq(&hv.pcpu[0]));
	assert_int_equal(sim_error_count(), 0);
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(hv.pcpu[0].stats.spurious_irqs, 1);
#endif
}

/* PMUVer 0xF is an IMPLEMENTATION DEFINED PMU, not a PMUv3 of a high version: vperf sees no
 * PMUv3 on the pCPU (no counters, no access to its registers), refuses a vPMU, shows a VM's
 * ID_AA64DFR0_EL1 no PMU, and a PMUIRQ entry there touches nothing. */
static void test_impdef_pmu_is_no_pmuv3(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, VPERF_PART_TRAPPED, 1);
	struct vperf_vm_config off = policy(VPERF_PMU_OFF, VPERF_PART_TRAPPED, 0);
	struct sim_pe_config model;

	(void)state;
	sim_default_config(&model);
	model.pmuver = 0xf;
	hv_init(&model, 0);
	assert_int_equal(hv.pcpu[0].caps.pmuver, 0);
	assert_int_equal(hv.pcpu[0].caps.nr_counters, 0);
	assert_int_not_equal(hv_vm(0, &cfg), VPERF_OK);
	assert_int_equal(hv_vm(0, &off), VPERF_OK);
	assert_int_equal(VPERF_FIELD_GET(vperf_vcpu_id_dfr0(&hv_vcpu(0, 0)->v, 0xf00), 11, 8), 0);
	assert_false(vperf_handle_pmu_irq(&hv.pcpu[0]));
	assert_int_equal(sim_error_count(), 0);
}

/* Defect 4: the external agent's counter overflows with its interrupt enabled. vperf may not
 * clear the agent's flag, but the line must drop (no storm); reported once, counted. */
static void test_agent_overflow_no_storm(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 1, .agent_counters = 1 };
	struct vperf_vm_config cfg = policy(VPERF_PMU_OFF, VPERF_PART_TRAPPED, 0);

	(void)state;
	hv_init(NULL, 0);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK); /* N = 6: EPMN = 5 */
	hv_host_boot(0);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	/* The agent counts instructions on counter 5, one short of overflowing. */
	sim_poke(0, VPERF_ENC_PMEVTYPER5_EL0, 0x08);
	sim_poke(0, VPERF_ENC_PMEVCNTR5_EL0, 0xffffffffffffffffull);
	sim_poke(0, VPERF_ENC_PMINTENSET_EL1, VPERF_BIT(5));
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, VPERF_BIT(5));
	hv_enter(hv_vcpu(0, 0), 0);
	/* The model delivers PMUIRQ up to 255 poll points late (docs/model.md): run past that. */
	hv_run_n(&op1, 300);
	assert_true(hv.pmu_irqs >= 1);
	assert_int_equal(hv.max_irq_burst, 1);
#ifdef CONFIG_VPERF_STATS
	assert_int_equal(hv.pcpu[0].stats.agent_overflows, 1);
#endif
	assert_non_null(strstr(hv.last_log, "external agent"));
	/* The agent's flag, counter, type and enable are still its own. */
	assert_true(sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & VPERF_BIT(5));
	assert_true(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & VPERF_BIT(5));
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVTYPER5_EL0), 0x08);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVCNTR5_EL0), 300 - 1); /* wrapped at the first */
}

static struct hv_vcpu *direct_vcpu(unsigned int i, unsigned int vm)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, VPERF_PART_DIRECT, 2);

	assert_int_equal(hv_vm(vm, &cfg), VPERF_OK);
	return hv_vcpu(i, vm);
}

/* Defect 5: PMSELR_EL0 of a direct-partition vCPU is its own in the hardware: written by its
 * trapped access and restored at its load, never another VM's. */
static void test_direct_pmselr(void **state)
{
	struct hv_vcpu *a, *b;

	(void)state;
	hv_init(NULL, 2);
	a = direct_vcpu(0, 0);
	b = direct_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, 0); /* trapped: A's state enters the hardware, untrapped after */
	guest_write(PMSELR_EL0, 1);
	guest_write(PMXEVCNTR_EL0, 0x1234);
	hv_enter(b, 0);
	guest_write(PMSELR_EL0, 0); /* B's first access traps: its write must reach hardware */
	assert_int_equal(guest_read(PMSELR_EL0), 0);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 0);
	hv_enter(a, 0);
	(void)guest_read(PMCR_EL0); /* trapped again after the switch */
	assert_int_equal(guest_read(PMSELR_EL0), 1);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 0x1234);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* What the hardware keeps of a direct guest's PMCR_EL0 (X, FZO) and PMUSERENR_EL0 survives a
 * put and a load. The model is a PMUv3p7 PE with an event export bus, so that it implements X and
 * FZO (Arm DDI 0487 K.a I5.3.21); D is RES0 on a PE without AArch32, as the model is; PMUSERENR_EL0's UEN, IR and
 * TID (bits [6:4]) are RES0 before PMUv3p9 and FEAT_PMUv3_ICNTR, so the guest reads [3:0]. */
static void test_direct_keeps_hw_fields(void **state)
{
	const uint64_t pmcr = PMCR_E | VPERF_BIT(4) | VPERF_BIT(9);
	struct sim_pe_config model;
	struct hv_vcpu *a, *b;
	uint64_t userenr;

	(void)state;
	hv_default_config(&model);
	model.pmuver = 7;
	model.pmu_export_bus = true;
	hv_init(&model, 2);
	a = direct_vcpu(0, 0);
	b = direct_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, pmcr);
	guest_write(PMUSERENR_EL0, 0x7f);
	userenr = guest_read(PMUSERENR_EL0);
	assert_int_equal(userenr, 0xf);
	assert_int_equal(guest_read(PMCR_EL0) & pmcr, pmcr);
	hv_enter(b, 0);
	(void)guest_read(PMCR_EL0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCR_EL0) & pmcr, pmcr);
	assert_int_equal(guest_read(PMUSERENR_EL0), userenr);
}

/*
 * On a PMUv3p9 PE the hardware implements PMUSERENR_EL0.UEN and TID (the model: bits 4 and 6), so
 * a direct guest writing 0x7f untrapped reads 0x5f back while it runs; vperf offers neither (it
 * does not switch PMUACR_EL1, vpmu.h), so they are gone after its put: it reads EN, SW, CR, ER.
 */
static void test_direct_userenr_later_fields_dropped_at_put(void **state)
{
	struct sim_pe_config model;
	struct hv_vcpu *a, *b;

	(void)state;
	hv_default_config(&model);
	model.pmuver = 9;
	model.fgt = model.fgt2 = true; /* without FEAT_FGT2 no direct partition (virt/pcpu.c) */
	hv_init(&model, 2);
	a = direct_vcpu(0, 0);
	b = direct_vcpu(1, 1);
	hv_enter(a, 0);
	(void)guest_read(PMCR_EL0); /* the state in the hardware: untrapped from here */
	guest_write(PMUSERENR_EL0, 0x7f);
	assert_int_equal(last_access(), SIM_ACC_OK);
	assert_int_equal(guest_read(PMUSERENR_EL0), 0x5f);
	hv_enter(b, 0);
	(void)guest_read(PMCR_EL0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMUSERENR_EL0), 0xf);
	assert_int_equal(sim_error_count(), 0);
}

/* Found by the trap fuzzer: PMCR_EL0.X is RAZ/WI without an event export bus (I5.3.21), so a
 * direct guest reads it as 0 whether its write reached the hardware or, while a pending overflow
 * flag keeps the vCPU trapped, only vperf's shadow; vperf probes each pCPU for the bus. */
static void test_direct_x_without_export_bus(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2); /* the model's default PE: no event export bus */
	a = direct_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMOVSSET_EL0, 1); /* a flag: the vCPU stays trapped */
	guest_write(PMCR_EL0, VPERF_BIT(4));
	assert_int_equal(guest_read(PMCR_EL0) & VPERF_BIT(4), 0);
	hv_leave(0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCR_EL0) & VPERF_BIT(4), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* Found by the trap fuzzer: a direct-partition guest's EL0 access to a counter beyond its N is
 * UNDEFINED, also after a load that left it trapped (it was then a trap to its own EL1). */
static void test_direct_el0_beyond_n(void **state)
{
	struct hv_vcpu *a;

	(void)state;
	hv_init(NULL, 2);
	a = direct_vcpu(0, 0); /* N = 2, first range 4 */
	for (unsigned int run = 0; run < 2; run++) {
		hv_enter(a, 0); /* trapped: never used, or idle at its last put */
		sim_set_el(0);
		(void)guest_read(PMEVCNTR3_EL0);
		assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
		sim_set_el(1);
		(void)guest_read(PMCR_EL0);
		hv_leave(0);
	}
}

/*
 * An event filter that holds on PMUv3p0 too: evtCount[15:10] is RES0 there (I5.3.30) and the
 * hardware drops it, so event 0x2008 is INST_RETIRED (0x08). A guest whose policy denies
 * INST_RETIRED writes 0x2008 through PMEVTYPER0_EL0 (the full path, then the fast path once its
 * state is in the hardware) and PMXEVTYPER_EL0: it reads the type back as 0x008, the RES0 bits
 * are counted, and its counters count nothing.
 */
static void test_event_width_pmuv3p0(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, VPERF_PART_TRAPPED, 3);
	struct sim_pe_config model;

	(void)state;
	hv_default_config(&model);
	model.pmuver = 1;
	hv_init(&model, 2);
	vperf_pmu_filter_set(&cfg.filter, 0x08, false);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMEVTYPER0_EL0, 0x2008);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0x008);
	assert_string_equal(hv.last_log, "vperf: guest wrote RES0 bits 0x2000 of PMEVTYPER0_EL0 "
					 "(value 0x2008): ignored");
	guest_write(PMEVTYPER0_EL0, 0x2008); /* state in the hardware: the fast path */
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0x008);
	guest_write(PMSELR_EL0, 1);
	guest_write(PMXEVTYPER_EL0, 0xfc08);
	assert_int_equal(guest_read(PMEVTYPER1_EL0), 0x008);
	assert_int_equal(hv.vm[0].stats.bad_value, 3);
	guest_write(PMCNTENSET_EL0, 3);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op1, 100);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* The same write on PMUv3p1, where evtCount is 16 bits: 0x2008 is an event of its own, kept and
 * read back, and not INST_RETIRED. */
static void test_event_width_pmuv3p1(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, VPERF_PART_TRAPPED, 3);
	struct sim_pe_config model;

	(void)state;
	hv_default_config(&model);
	model.pmuver = 4;
	hv_init(&model, 2);
	vperf_pmu_filter_set(&cfg.filter, 0x08, false);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMEVTYPER0_EL0, 0x2008);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0x2008);
	assert_int_equal(hv.vm[0].stats.bad_value, 0);
	guest_write(PMEVTYPER1_EL0, 0x0008);
	guest_write(PMCNTENSET_EL0, 3);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op1, 100);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The hypervisor's own MDCR_EL2 bits are written at every switch, so a bit the PE does not
 * implement fails vperf_pcpu_init, with a log line naming it: HLP needs PMUv3p5, HPMFZO
 * PMUv3p7, TTRF FEAT_TRF and E2TB FEAT_TRBE (the model has neither); the debug traps are
 * always there.
 */
static void test_host_mdcr_unimplemented(void **state)
{
	static const uint64_t bad[] = { MDCR_EL2_HLP, MDCR_EL2_HPMFZO, MDCR_EL2_TTRF,
					MDCR_EL2_E2TB_MASK, VPERF_BIT(31) };
	struct vperf_pcpu_config cfg = { .host_counters = 2 };
	struct sim_pe_config model;

	(void)state;
	hv_default_config(&model);
	model.pmuver = 5;
	hv_init(&model, 2);
	cfg.host_mdcr = MDCR_EL2_TDA | MDCR_EL2_TDRA | MDCR_EL2_TDOSA | MDCR_EL2_TDE;
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &cfg), VPERF_OK);
	hv_host_boot(0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cfg.host_mdcr = MDCR_EL2_TDA | bad[i];
		assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &cfg), VPERF_EINVAL);
	}
	assert_string_equal(hv.last_log,
			    "vperf: pcpu_init: host_mdcr sets MDCR_EL2 bits 0x80000000 "
			    "this PE does not implement");
	assert_int_equal(sim_error_count(), 0);
}

/*
 * A type kept while every pCPU was PMUv3p1 (event 0x2008, bits [15:10] included) must stay what
 * it is: a PMUv3p0 pCPU (10-bit event numbers, where 0x2008 would be 0x008, INST_RETIRED, which
 * the policy denies) brought up after the VM is refused (test_pcpu_bringup.c), and the VM's
 * hardware copy is still of event 0x2008 where it runs.
 */
static void test_event_width_pcpu_joins_later(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, VPERF_PART_TRAPPED, 3);
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct sim_pe_config model;
	struct hv_vcpu *a;
	uint64_t dfr0;

	(void)state;
	hv_default_config(&model);
	model.pmuver = 4;
	hv_init(&model, 2);
	vperf_pmu_filter_set(&cfg.filter, 0x08, false);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, 0x2008);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0x2008);
	hv_leave(0);
	/* pCPU 7 reports PMUv3p0 (ID_AA64DFR0_EL1.PMUVer = 1) and is initialised now. */
	sim_set_cpu(7);
	dfr0 = sim_peek(7, VPERF_ENC_ID_AA64DFR0_EL1);
	sim_poke(7, VPERF_ENC_ID_AA64DFR0_EL1, (dfr0 & ~VPERF_GENMASK(11, 8)) | 0x100);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[7], &pcfg), VPERF_EINVAL);
	hv_enter(a, 1);
	guest_write(PMCNTENSET_EL0, 1); /* the state restored on pCPU 1 */
	assert_int_equal(guest_read(PMEVTYPER0_EL0), 0x2008);
	assert_int_equal(sim_peek(1, VPERF_ENC_PMEVTYPER0_EL0) & 0xffff, 0x2008);
	assert_int_equal(sim_error_count(), 0);
}

/* PMUSERENR_EL0's UEN, IR and TID (bits [6:4]) are not offered to a trapped guest either: a
 * write of them is counted and logged as RES0 (vpmu.h) and the guest reads EN, SW, CR and ER. */
static void test_trapped_userenr_later_fields_res0(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, VPERF_PART_TRAPPED, 2);

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMUSERENR_EL0, 0x7f);
	assert_int_equal(guest_read(PMUSERENR_EL0), 0xf);
	assert_int_equal(hv.vm[0].stats.bad_value, 1);
	assert_string_equal(hv.last_log, "vperf: guest wrote RES0 bits 0x70 of PMUSERENR_EL0 "
					 "(value 0x7f): ignored");
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The host_mdcr fields that depend on the PMU version, on each side of their version (Arm DDI
 * 0487 K.a, MDCR_EL2): HLP from PMUv3p5 (PMUVer 6), HPMFZO from PMUv3p7 (PMUVer 7); the debug
 * traps TDE, TDA, TDOSA and TDRA on every PE with EL2, each accepted on its own.
 */
static void test_host_mdcr_by_version(void **state)
{
	static const uint64_t traps[] = { MDCR_EL2_TDE, MDCR_EL2_TDA, MDCR_EL2_TDOSA,
					  MDCR_EL2_TDRA };
	struct vperf_pcpu_config cfg = { .host_counters = 2 };
	struct sim_pe_config model;

	(void)state;
	for (uint8_t ver = 5; ver <= 7; ver++) {
		hv_default_config(&model);
		model.pmuver = ver;
		hv_init(&model, 2);
		cfg.host_mdcr = MDCR_EL2_HLP;
		assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &cfg),
				 ver >= 6 ? VPERF_OK : VPERF_EINVAL);
		cfg.host_mdcr = MDCR_EL2_HPMFZO;
		assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &cfg),
				 ver >= 7 ? VPERF_OK : VPERF_EINVAL);
		for (size_t i = 0; i < sizeof(traps) / sizeof(traps[0]); i++) {
			cfg.host_mdcr = traps[i];
			assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &cfg), VPERF_OK);
		}
		hv_host_boot(0);
		assert_int_equal(sim_error_count(), 0);
	}
}

/* pCPU 0 initialised with host_mdcr = bits on a model made by cfg; with VPERF_OK, a vCPU runs
 * there and is put, the host's bits in MDCR_EL2 throughout (the model reports any RES0 write). */
static int host_mdcr_on(const struct sim_pe_config *model, uint64_t bits)
{
	struct vperf_pcpu_config cfg = { .host_counters = 2, .host_mdcr = bits };
	struct vperf_vm_config vm = policy(VPERF_PMU_SELF, VPERF_PART_TRAPPED, 2);
	int r;

	hv_init(model, 2);
	r = vperf_pcpu_init(&hv.pcpu[0], &cfg);
	if (r != VPERF_OK)
		return r;
	hv_host_boot(0);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMCR_EL0, PMCR_E);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & bits, bits);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & bits, bits);
	assert_int_equal(sim_error_count(), 0);
	return r;
}

/*
 * The host_mdcr fields that come with a feature other than the PMU version (Arm DDI 0487 K.a,
 * MDCR_EL2): TDCC, bit [27], is implemented with FEAT_FGT, and HPMFZS, bit [36], with
 * FEAT_SPEv1p2 (ID_AA64DFR0_EL1.PMSVer >= 0b0011). Each is accepted where its feature is and
 * refused (not written RES0 at every switch) where it is not. Before the fix vperf_pcpu_init
 * refused both everywhere, as bits no PE implements.
 */
static void test_host_mdcr_by_feature(void **state)
{
	struct sim_pe_config model;

	(void)state;
	hv_default_config(&model);
	model.fgt = false;
	assert_int_equal(host_mdcr_on(&model, MDCR_EL2_TDCC), VPERF_EINVAL);
	model.fgt = true;
	assert_int_equal(host_mdcr_on(&model, MDCR_EL2_TDCC | MDCR_EL2_TDA), VPERF_OK);
	hv_default_config(&model);
	assert_int_equal(host_mdcr_on(&model, MDCR_EL2_HPMFZS), VPERF_EINVAL); /* no SPE */
	for (uint8_t pmsver = 1; pmsver <= 5; pmsver++) {
		if (pmsver == 4)
			continue; /* not a PMSVer value (0b0100 is reserved) */
		sim_spe_default_config(&model, pmsver);
		assert_int_equal(host_mdcr_on(&model, MDCR_EL2_HPMFZS),
				 pmsver >= 3 ? VPERF_OK : VPERF_EINVAL);
	}
}

/* The default model (PMUv3p5, N = 6, EL3) whatever HV_PMUVER says: these tests name their PE. */
static void init_model(uint8_t pmuver, bool el3, unsigned int host_counters)
{
	struct sim_pe_config cfg;

	sim_default_config(&cfg);
	cfg.pmuver = pmuver;
	cfg.el3 = el3;
	hv_init(&cfg, host_counters);
}

/*
 * The virtual PMUIRQ and PMBIRQ are PPIs, INTIDs 16-31 (GICv3): 15 (an SGI) and 32 (the first
 * SPI) are refused, 16 and 31 taken. Kills "a vPMU interrupt number 32 (an SPI) accepted" and
 * "a vSPE interrupt number 32 ...".
 */
static void test_virqs_are_ppis(void **state)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, VPERF_PART_TRAPPED, 2);
	struct sim_pe_config model;

	(void)state;
	sim_default_config(&model);
	model.pmsver = 1;
	hv_init(&model, 2);
	for (unsigned int i = 0; i < 2; i++) {
		const uint32_t bad[] = { 15, 32 }, good[] = { 16, 31 };

		cfg.pmu_virq = bad[i];
		assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
		cfg.pmu_virq = good[i];
		assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	}
#ifdef CONFIG_VPERF_VSPE
	cfg = policy(VPERF_PMU_OFF, VPERF_PART_TRAPPED, 0);
	cfg.spe = true;
	for (unsigned int i = 0; i < 2; i++) {
		const uint32_t bad[] = { 15, 32 }, good[] = { 16, 31 };

		cfg.spe_virq = bad[i];
		assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
		cfg.spe_virq = good[i];
		assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	}
#endif
}

/*
 * Whatever the mode, counts a PMU can have: PMCR_EL0.N is 5 bits (I5.3.21), so 31 slots at most,
 * also for a VM whose PMU is OFF (its blob is checked against them). Kills "a VM (PMU OFF) with
 * more emulated slots than a PMU can have accepted".
 */
static void test_off_vm_counts_bounded(void **state)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_OFF };

	(void)state;
	init_model(6, true, 2);
	cfg.emu_slots = VPERF_PMU_MAX_COUNTERS;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	cfg.emu_slots = VPERF_PMU_MAX_COUNTERS + 1;
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partition_out_of_enum),
		cmocka_unit_test(test_off_vm_counts_and_blob),
		cmocka_unit_test(test_irq_without_pmu),
		cmocka_unit_test(test_agent_overflow_no_storm),
		cmocka_unit_test(test_direct_pmselr),
		cmocka_unit_test(test_direct_keeps_hw_fields),
		cmocka_unit_test(test_direct_userenr_later_fields_dropped_at_put),
		cmocka_unit_test(test_direct_el0_beyond_n),
		cmocka_unit_test(test_direct_x_without_export_bus),
		cmocka_unit_test(test_event_width_pmuv3p0),
		cmocka_unit_test(test_impdef_pmu_is_no_pmuv3),
		cmocka_unit_test(test_event_width_pmuv3p1),
		cmocka_unit_test(test_host_mdcr_unimplemented),
		cmocka_unit_test(test_trapped_userenr_later_fields_res0),
		cmocka_unit_test(test_event_width_pcpu_joins_later),
		cmocka_unit_test(test_host_mdcr_by_version),
		cmocka_unit_test(test_host_mdcr_by_feature),
		cmocka_unit_test(test_virqs_are_ppis),
		cmocka_unit_test(test_off_vm_counts_bounded),
	};

	return cmocka_run_group_tests_name("vpmu_badinput", tests, NULL, NULL);
}
