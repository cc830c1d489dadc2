// SPDX-License-Identifier: MIT
/*
 * PMU hardware newer than what vperf shows a guest (docs/vpmu.md, "Newer PMU hardware"), on the
 * executable model, which has it from the Arm ARM (docs/model.md):
 *  - FEAT_PMUv3p9 and FEAT_PMUv3_ICNTR: PMICNTR_EL0 (the instruction counter, index 32, in no
 *    HPMN range), PMICFILTR_EL0, PMUACR_EL1, PMZR_EL0, PMUSERENR_EL0.UEN/IR. A direct-partition
 *    guest runs with MDCR_EL2.TPM = 0: only FEAT_FGT2's HDFGRTR2_EL2 / HDFGWTR2_EL2 trap them,
 *    and a guest shown PMUv3p5 gets UNDEF; without FEAT_FGT2 the direct partition is refused (or
 *    runs trapped on a pCPU brought up later).
 *  - PMEVTYPER<n>_EL0.MT on a thread of a multithreaded core (MPIDR_EL1.MT): MT = 1 counts the
 *    core's other threads (I5.3.30). No guest's MT reaches the hardware where it would count.
 *  - FEAT_SEL2: the privileged VM of XENPMU_MODE_ALL counts EL2 (NSH = 1), never Secure EL2
 *    (SH = NSH, I5.3.30 SH).
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/fgt.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"

static const struct sim_uop op1 = { .pc = 0x4000, .latency = 1, .type = SIM_UOP_OTHER };

#define F0	      VPERF_BIT(32)
#define PMUSERENR_UEN VPERF_BIT(4)
#define PMUSERENR_IR  VPERF_BIT(5)
#define EVTYPER_MT    VPERF_BIT(25)
#define EVTYPER_SH    VPERF_BIT(24)
#define INST_RETIRED  0x08u
#define HOST_ICOUNT   1000u

static struct vperf_vm_config policy(enum vperf_partition part, uint8_t nr)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = part,
				       .nr_counters = nr };

	vperf_pmu_filter_allow_all(&cfg.filter);
	return cfg;
}

/* PMUv3p9 with the instruction counter, FEAT_FGT, and FEAT_FGT2 when fgt2. */
static void newer_pe(struct sim_pe_config *cfg, bool fgt2)
{
	sim_default_config(cfg);
	cfg->pmuver = 9;
	cfg->icntr = true;
	cfg->fgt = true;
	cfg->fgt2 = fgt2;
	cfg->hpmn0 = true;
}

/* The instruction counter as the host (or whoever ran before) left it: a count, enabled. */
static void host_icount(unsigned int cpu)
{
	sim_poke(cpu, VPERF_ENC_PMICNTR_EL0, HOST_ICOUNT);
	sim_poke(cpu, VPERF_ENC_PMICFILTR_EL0, 0);
}

/* The host's own HDFGRTR2_EL2 / HDFGWTR2_EL2 traps none of these registers (1 in their "n"
 * fields): a direct vCPU's traps are then vperf's alone. */
static void host_fgt2_untrapped(void)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr2 = HDFGRTR2_VPERF_MASK,
						.host_hdfgwtr2 = HDFGWTR2_VPERF_MASK };

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		sim_set_cpu(cpu);
		assert_int_equal(vperf_pcpu_init(&hv.pcpu[cpu], &pcfg), VPERF_OK);
		hv_host_boot(cpu);
	}
	sim_set_cpu(0);
}

static enum sim_access last(void)
{
	return sim_guest_stats(sim_current_cpu())->last;
}

/* Without FEAT_FGT2 nothing traps PMICNTR_EL0 with TPM = 0: a direct policy is refused, the
 * trapped partition is given (MDCR_EL2.TPM traps every PMU register). */
static void test_direct_refused_without_fgt2(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);
	struct vperf_vm_config trapped = policy(VPERF_PART_TRAPPED, 2);

	(void)state;
	newer_pe(&cfg, false);
	hv_init(&cfg, 2);
	assert_false(hv.pcpu[0].caps.fgt2);
	assert_true(hv.pcpu[0].caps.icntr);
	assert_int_equal(hv_vm(0, &direct), VPERF_EINVAL);
	assert_int_equal(hv_vm(0, &trapped), VPERF_OK);
	newer_pe(&cfg, true);
	hv_init(&cfg, 2);
	assert_true(hv.pcpu[0].caps.fgt2);
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
}

/* PMUv3p9 without the instruction counter: PMUACR_EL1 and PMZR_EL0 are registers only
 * FEAT_FGT2 traps with TPM = 0 too, and PMUACR_EL1 holds what its last writer (another VM) or the
 * reset left there, which a direct guest would read: without FEAT_FGT2 a direct policy is
 * refused here as well (found by the drawn worlds, docs/model.md: a direct guest read another
 * history's PMUACR_EL1). */
static void test_direct_refused_v3p9_without_fgt2(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);

	(void)state;
	newer_pe(&cfg, false);
	cfg.icntr = false;
	hv_init(&cfg, 2);
	assert_false(hv.pcpu[0].caps.icntr);
	assert_true(hv.pcpu[0].direct_newer_regs);
	assert_int_equal(hv_vm(0, &direct), VPERF_EINVAL);
	newer_pe(&cfg, true);
	cfg.icntr = false;
	hv_init(&cfg, 2);
	assert_false(hv.pcpu[0].direct_newer_regs);
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
}

/* Two direct VMs on PMUv3p9 with FEAT_FGT2: PMUACR_EL1 is no channel between them. What one
 * writes is UNDEF and never reaches the register; the other's read is UNDEF too. */
static void test_pmuacr_no_channel(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);
	struct hv_vcpu *a, *b;

	(void)state;
	newer_pe(&cfg, true);
	cfg.icntr = false;
	hv_init(&cfg, 2);
	host_fgt2_untrapped();
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	assert_int_equal(hv_vm(1, &direct), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 0);
	sim_poke(0, VPERF_ENC_PMUACR_EL1, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED); /* untrapped from here */
	guest_write(PMUACR_EL1, VPERF_BIT(31) | 1);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMUACR_EL1), 0);
	hv_enter(b, 0);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED);
	guest_read(PMUACR_EL1);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0);
}

/* A trapped guest is shown PMUv3p5 (ID_AA64DFR0_EL1) and no instruction counter
 * (ID_AA64DFR1_EL1): its accesses of the newer registers are UNDEF, whatever the hardware has
 * (each register's accessibility pseudocode, Arm DDI 0487 K.a D24.5: "if
 * !IsFeatureImplemented(...) then UNDEFINED", before anything else). */
static void test_trapped_guest_undef(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config trapped = policy(VPERF_PART_TRAPPED, 2);
	struct hv_vcpu *a;

	(void)state;
	newer_pe(&cfg, false);
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &trapped), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	host_icount(0);
	assert_int_equal(guest_read(PMICNTR_EL0), 0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMICNTR_EL0, 0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_read(PMICFILTR_EL0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMUACR_EL1, ~0ull);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMZR_EL0, F0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	/* Refused for the feature before any register rule: a PMZR_EL0 write with RES0 bits is
	 * UNDEF, not a counted and logged bad value. */
	guest_write(PMZR_EL0, F0 | VPERF_BIT(40));
	assert_int_equal(last(), SIM_ACC_UNDEF);
	assert_int_equal(hv.vm[0].stats.bad_value, 0);
	assert_int_equal(hv.nr_logs, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMICNTR_EL0), HOST_ICOUNT);
	assert_int_equal(
		VPERF_FIELD_GET(vperf_vcpu_id_dfr0(&a->v, sim_peek(0, VPERF_ENC_ID_AA64DFR0_EL1)),
				11, 8),
		6);
	assert_int_equal(vperf_vcpu_id_dfr1(&a->v, sim_peek(0, VPERF_ENC_ID_AA64DFR1_EL1)), 0);
	hv_leave(0);
}

/* The direct guest, untrapped after its first access, still never reaches the instruction
 * counter: FEAT_FGT2's traps bring its accesses to vperf (UNDEF), its F0 bits read as zero, and
 * its own counting leaves the host's instruction count alone. */
static void test_direct_guest_never_reaches_icntr(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);
	struct hv_vcpu *a;

	(void)state;
	newer_pe(&cfg, true);
	hv_init(&cfg, 2);
	host_fgt2_untrapped();
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	host_icount(0);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, 0); /* untrapped */
	assert_int_equal(guest_read(PMICNTR_EL0), 0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMICNTR_EL0, 7);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_read(PMICFILTR_EL0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMUACR_EL1, ~0ull);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMZR_EL0, F0 | 1);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMCNTENSET_EL0, F0 | 1);
	assert_int_equal(guest_read(PMCNTENSET_EL0) & F0, 0);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op1, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 10);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMICNTR_EL0), HOST_ICOUNT);
	/* The host has its own values back. */
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR2_EL2), HDFGRTR2_VPERF_MASK);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR2_EL2), HDFGWTR2_VPERF_MASK);
	assert_int_equal(sim_error_count(), 0);
}

/* A direct vCPU loaded again where it ran, its MDCR_EL2 still in place (an HV guest's put leaves
 * the trap bits, mdcr.c), while the put gave the host back its HDFGRTR2_EL2 / HDFGWTR2_EL2:
 * the load must not take the short path (vperf_fgt_current compares FGT2 too), or the guest
 * runs untrapped with the host's values. Each register alone differs in one round. */
static void direct_reload(uint64_t host_rtr2, uint64_t host_wtr2)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr2 = host_rtr2,
						.host_hdfgwtr2 = host_wtr2 };
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);
	struct hv_vcpu *a;

	newer_pe(&cfg, true);
	hv_init(&cfg, 2);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	hv_host_boot(0);
	direct.pmu_mode = VPERF_PMU_HV;
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	host_icount(0);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED);
	hv_leave(0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, 0); /* untrapped */
	guest_read(PMICNTR_EL0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMICNTR_EL0, 7);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMICNTR_EL0), HOST_ICOUNT);
	hv_leave(0);
}

static void test_direct_reload_keeps_fgt2(void **state)
{
	(void)state;
	direct_reload(HDFGRTR2_VPERF_MASK, 0);
	direct_reload(0, HDFGWTR2_VPERF_MASK);
}

/* An instruction-counter enable left by whoever ran before (the host's F0) does not count a
 * guest's instructions: vperf clears F0 with the first range's enables, flags and interrupt
 * enables at every restore, as it does for counters the previous owner left. */
static void test_leftover_f0_does_not_count_guest(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config trapped = policy(VPERF_PART_TRAPPED, 2);
	struct hv_vcpu *a;

	(void)state;
	newer_pe(&cfg, true);
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &trapped), VPERF_OK);
	a = hv_vcpu(0, 0);
	host_icount(0);
	sim_poke(0, VPERF_ENC_PMCNTENSET_EL0, sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) | F0);
	hv_enter(a, 0);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op1, 10);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMICNTR_EL0), HOST_ICOUNT);
}

/* PMUSERENR_EL0's PMUv3p9 / ICNTR fields (UEN [4], IR [5]) written untrapped by a direct guest
 * are not the guest's to keep (it is shown PMUv3p5) and must not survive into the next vCPU's
 * EL0: there IR = 1 would let EL0 read PMICNTR_EL0 past its own EL1's PMUSERENR_EL0 control. */
static void test_userenr_newer_fields_cleared(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);
	struct vperf_vm_config trapped = policy(VPERF_PART_TRAPPED, 2);
	struct hv_vcpu *a, *b;

	(void)state;
	newer_pe(&cfg, true);
	hv_init(&cfg, 2);
	host_fgt2_untrapped();
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	assert_int_equal(hv_vm(1, &trapped), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, 0);
	guest_write(PMUSERENR_EL0, PMUSERENR_UEN | PMUSERENR_IR);
	assert_int_equal(guest_read(PMUSERENR_EL0) & PMUSERENR_EN, 0);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMUSERENR_EL0), 0);
	hv_enter(b, 0);
	sim_set_el(0);
	guest_read(PMICNTR_EL0);
	assert_int_equal(last(), SIM_ACC_TRAP_EL1);
	sim_set_el(1);
	hv_leave(0);
}

/* vperf set up again with pCPU 0 alone, the direct VM 0 created there, then pCPU 1 brought up
 * after it (a CPU that comes online). */
static void direct_vm_then_pcpu1(const struct vperf_vm_config *direct)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };

	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	assert_int_equal(hv_vm(0, direct), VPERF_OK);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &pcfg), VPERF_OK);
	sim_set_cpu(0);
}

/* A pCPU without FEAT_FGT2 brought up after a direct VM exists, with the instruction counter
 * (icntr) or PMUv3p9 alone: the VM's vCPU runs trapped there (its accesses UNDEF), never
 * untrapped; PMUACR_EL1, which keeps what its last writer left (here a value another VM could
 * have written), is never read, PMICNTR_EL0 never reached. */
static void later_pcpu_without_fgt2(bool icntr)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);
	struct hv_vcpu *a;

	newer_pe(&cfg, true);
	cfg.icntr = icntr;
	cfg.cpus_without_fgt = VPERF_BIT(1); /* neither FEAT_FGT nor FEAT_FGT2 there */
	hv_init(&cfg, 2);
	assert_int_equal(hv.pcpu[1].caps.icntr, icntr);
	assert_true(hv.pcpu[1].direct_newer_regs);
	assert_int_equal(hv_vm(0, &direct), VPERF_EINVAL);
	direct_vm_then_pcpu1(&direct);
	a = hv_vcpu(0, 0);
	sim_poke(1, VPERF_ENC_PMUACR_EL1, VPERF_BIT(31) | 1);
	hv_enter(a, 1);
	host_icount(1);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED);
	assert_int_equal(sim_peek(1, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, MDCR_EL2_TPM);
	guest_read(PMICNTR_EL0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	assert_int_equal(guest_read(PMUACR_EL1), 0);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	guest_write(PMZR_EL0, 1);
	assert_int_equal(last(), SIM_ACC_UNDEF);
	hv_leave(1);
	assert_int_equal(sim_peek(1, VPERF_ENC_PMUACR_EL1), VPERF_BIT(31) | 1);
	if (icntr)
		assert_int_equal(sim_peek(1, VPERF_ENC_PMICNTR_EL0), HOST_ICOUNT);
	assert_int_equal(sim_error_count(), 0);
	sim_set_cpu(0);
}

static void test_later_pcpu_without_fgt2_runs_trapped(void **state)
{
	(void)state;
	later_pcpu_without_fgt2(true);
	later_pcpu_without_fgt2(false);
}

/* PMUv3p8 has neither PMUACR_EL1 nor PMZR_EL0, nor the instruction counter (a PMUv3p9 feature,
 * ID_AA64DFR1_EL1.PMICNTR): nothing newer for an untrapped guest to reach, so a direct policy
 * needs no FEAT_FGT2 there, at vperf_vm_init or on a pCPU brought up after the VM, and runs
 * untrapped; the hardware itself makes the newer registers UNDEFINED. */
static void test_direct_v3p8_without_fgt2(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);
	struct hv_vcpu *a;

	(void)state;
	newer_pe(&cfg, false);
	cfg.pmuver = 8;
	hv_init(&cfg, 2);
	assert_false(hv.pcpu[0].caps.icntr);
	assert_false(hv.pcpu[0].direct_newer_regs);
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	direct_vm_then_pcpu1(&direct);
	a = hv_vcpu(0, 0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		hv_enter(a, cpu);
		guest_write(PMEVTYPER0_EL0, INST_RETIRED);
		assert_int_equal(sim_peek(cpu, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, 0);
		guest_read(PMUACR_EL1);
		assert_int_equal(last(), SIM_ACC_UNDEF);
		hv_leave(cpu);
	}
	assert_int_equal(sim_error_count(), 0);
	sim_set_cpu(0);
}

/* ---- MT: the other threads of a multithreaded core ------------------------------------------ */

/* A thread of a multithreaded core whose PMU has MT. mtpmu: enum sim_mtpmu; el3 and its
 * MDCR_EL3.MTPME as firmware left it (1: MT enabled). */
static void mt_pe(struct sim_pe_config *cfg, uint8_t mtpmu, bool el3, bool fgt)
{
	sim_default_config(cfg);
	cfg->mt = true;
	cfg->mtpmu = mtpmu;
	cfg->el3 = el3;
	cfg->mdcr_el3_mtpme = true;
	cfg->fgt = fgt;
}

/* The guest programs counter 0 with INST_RETIRED and MT = 1, the core's other thread runs 100
 * instructions (another VM's work): its counter must not move. It reads MT back as the
 * architecture says for what it is shown: RES0, ID_AA64DFR0_EL1.MTPMU never FEAT_MTPMU (0b1111
 * where the hardware has it, 0b0000 where an IMPLEMENTATION DEFINED extension may exist). */
static void mt_guest_counts_only_itself(enum vperf_partition part)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint64_t shown;

	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED | EVTYPER_MT);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op1, 5);
	for (unsigned int i = 0; i < 100; i++)
		sim_run_sibling(1, &op1, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 5);
	assert_int_equal(guest_read(PMEVTYPER0_EL0) & EVTYPER_MT, 0);
	shown = vperf_vcpu_id_dfr0(&a->v, sim_peek(0, VPERF_ENC_ID_AA64DFR0_EL1));
	assert_int_not_equal(VPERF_FIELD_GET(shown, 51, 48), 1);
	if (hv.model.mtpmu == SIM_MTPMU_FEAT)
		assert_int_equal(VPERF_FIELD_GET(shown, 51, 48), 0xf);
	hv_leave(0);
	(void)part;
}

/* The trapped partition: vperf programs the hardware's type itself, never with MT. */
static void test_mt_trapped(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config trapped = policy(VPERF_PART_TRAPPED, 2);

	(void)state;
	mt_pe(&cfg, SIM_MTPMU_IMPDEF, true, false);
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &trapped), VPERF_OK);
	mt_guest_counts_only_itself(VPERF_PART_TRAPPED);
}

/* The direct partition where MT cannot be disabled from EL2 (an IMPLEMENTATION DEFINED
 * extension; FEAT_MTPMU with EL3, where MDCR_EL3.MTPME decides): its types trap through
 * FEAT_FGT so that MT never reaches the hardware; refused without FEAT_FGT. */
static void test_mt_direct_types_trap(void **state)
{
	static const uint8_t kinds[] = { SIM_MTPMU_IMPDEF, SIM_MTPMU_FEAT };
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);

	(void)state;
	for (size_t k = 0; k < VPERF_ARRAY_SIZE(kinds); k++) {
		mt_pe(&cfg, kinds[k], true, false);
		hv_init(&cfg, 2);
		assert_true(hv.pcpu[0].mt_counts);
		assert_int_equal(hv_vm(0, &direct), VPERF_EINVAL);
		mt_pe(&cfg, kinds[k], true, true);
		hv_init(&cfg, 2);
		assert_int_equal(hv_vm(0, &direct), VPERF_OK);
		mt_guest_counts_only_itself(VPERF_PART_DIRECT);
	}
}

/* A thread of a multithreaded core brought up after a direct VM whose types do not trap: the
 * VM's vCPU runs trapped there (vperf writes its types, without MT), never untrapped. */
static void test_mt_later_pcpu_runs_trapped(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);
	struct hv_vcpu *a;

	(void)state;
	mt_pe(&cfg, SIM_MTPMU_IMPDEF, true, true);
	cfg.cpus_without_mt = VPERF_BIT(0);
	hv_init(&cfg, 2);
	assert_false(hv.pcpu[0].mt_counts);
	assert_true(hv.pcpu[1].mt_counts);
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	assert_int_equal(hv.vm[0].fgt_types, 0);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &pcfg), VPERF_OK);
	sim_set_cpu(0);
	a = hv_vcpu(0, 0);
	hv_enter(a, 1);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED | EVTYPER_MT);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	assert_int_equal(sim_peek(1, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM, MDCR_EL2_TPM);
	for (unsigned int i = 0; i < 100; i++)
		sim_run_sibling(1, &op1, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	hv_leave(1);
}

/* The platform is MT-counting when any pCPU is, the first one included: a thread of a
 * multithreaded core brought up before one that is not still makes a direct VM's types trap
 * (FEAT_FGT), so that MT never reaches that thread's hardware while the guest runs untrapped. */
static void test_mt_first_pcpu_counts_for_platform(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);

	(void)state;
	mt_pe(&cfg, SIM_MTPMU_IMPDEF, true, true);
	cfg.cpus_without_mt = VPERF_BIT(1);
	hv_init(&cfg, 2);
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &pcfg), VPERF_OK);
	sim_set_cpu(0);
	assert_true(hv.pcpu[0].mt_counts);
	assert_false(hv.pcpu[1].mt_counts);
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	assert_int_not_equal(hv.vm[0].fgt_types, 0);
	mt_guest_counts_only_itself(VPERF_PART_DIRECT);
}

/* A thread of a multithreaded core whose PMU says MTPMU = 0b1111 (no multi-threaded PMU
 * extension, MT RES0): its counters count this thread only, so a direct VM needs no type trap
 * and is given without FEAT_FGT. */
static void test_mt_without_mtpmu_counts_thread(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);

	(void)state;
	mt_pe(&cfg, SIM_MTPMU_NONE, true, false);
	hv_init(&cfg, 2);
	assert_false(hv.pcpu[0].mt_counts);
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	assert_int_equal(hv.vm[0].fgt_types, 0);
}

/* FEAT_MTPMU without EL3: MDCR_EL2.MTPME is vperf's, 0 while any vCPU runs, so MT is ignored and
 * a direct guest may keep its types untrapped. */
static void test_mt_direct_mtpme_el2(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config direct = policy(VPERF_PART_DIRECT, 2);

	(void)state;
	mt_pe(&cfg, SIM_MTPMU_FEAT, false, false);
	hv_init(&cfg, 2);
	assert_false(hv.pcpu[0].mt_counts);
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	mt_guest_counts_only_itself(VPERF_PART_DIRECT);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & MDCR_EL2_MTPME, 0);
}

/* ---- FEAT_SEL2: Secure EL2 in XENPMU_MODE_ALL ------------------------------------------------ */

/* The privileged VM counts EL1 and EL2 (NSH = 1): with EL3 and FEAT_SEL2, SH = 0 would count
 * Secure EL2 too (a Secure partition manager, where MDCR_EL3.SPME allows Secure counting).
 * vperf programs SH = NSH: the Secure world is never the privileged VM's to count. */
static void test_all_mode_never_counts_secure_el2(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config all = policy(VPERF_PART_TRAPPED, 2);
	struct hv_vcpu *a;

	(void)state;
	sim_default_config(&cfg);
	cfg.sel2 = true;
	cfg.mdcr_el3_spme = true;
	cfg.el2_trap_cycles = 0;
	all.pmu_mode = VPERF_PMU_ALL;
	hv_init(&cfg, 2);
	assert_true(hv.pcpu[0].caps.sel2);
	assert_int_equal(hv_vm(0, &all), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E);
	assert_int_equal(sim_peek(0, vperf_pmevtyper_enc(0)) & PMEVTYPER_NSH, PMEVTYPER_NSH);
	sim_run_secure(2, (const struct sim_uop[]){ op1, op1, op1 }, 3);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), INST_RETIRED);
	hv_leave(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_refused_without_fgt2),
		cmocka_unit_test(test_direct_refused_v3p9_without_fgt2),
		cmocka_unit_test(test_pmuacr_no_channel),
		cmocka_unit_test(test_trapped_guest_undef),
		cmocka_unit_test(test_direct_guest_never_reaches_icntr),
		cmocka_unit_test(test_direct_reload_keeps_fgt2),
		cmocka_unit_test(test_leftover_f0_does_not_count_guest),
		cmocka_unit_test(test_userenr_newer_fields_cleared),
		cmocka_unit_test(test_later_pcpu_without_fgt2_runs_trapped),
		cmocka_unit_test(test_direct_v3p8_without_fgt2),
		cmocka_unit_test(test_mt_trapped),
		cmocka_unit_test(test_mt_direct_types_trap),
		cmocka_unit_test(test_mt_later_pcpu_runs_trapped),
		cmocka_unit_test(test_mt_first_pcpu_counts_for_platform),
		cmocka_unit_test(test_mt_direct_mtpme_el2),
		cmocka_unit_test(test_mt_without_mtpmu_counts_thread),
		cmocka_unit_test(test_all_mode_never_counts_secure_el2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
