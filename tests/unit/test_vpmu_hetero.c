// SPDX-License-Identifier: MIT
/*
 * A heterogeneous platform (sim_model_init_cpus): one pCPU with an older PMU than the others.
 * Every guest-visible consequence of the PMU version must follow one platform-wide version, the
 * lowest, whichever pCPU the vCPU runs on: ID_AA64DFR0_EL1.PMUVer (Arm DDI 0487 K.a,
 * ID_AA64DFR0_EL1), the PMCR_EL0 fields (LP from PMUv3p5, I5.3.21), the event counters' width
 * (64 bits from PMUv3p5, 32 before: I5.3, PMEVCNTR<n>), PMMIR_EL1 (from PMUv3p4), the blob, the
 * events PMCEID0/1_EL0 advertise (those every pCPU counts).
 */
#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/fgt.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include <sim/spe.h>

#include "hv.h"

#define EV_INST		  0x08u
#define EV_STALL_FRONTEND 0x23u
#define EV_CYCLES	  0x11u
#define ID_PMUVER(dfr0)	  (((dfr0) >> 8) & 0xfu)

static const struct sim_uop op3 = { .pc = 0x4000, .latency = 3, .type = SIM_UOP_OTHER };

static enum sim_access last(void)
{
	return sim_guest_stats(sim_current_cpu())->last;
}

/* CPU 0 has PMUVer old, the others PMUv3p5 (6); N = 6, the host keeps 2. VM 0: trapped with 3
 * counters; VM 1: emulated with 3 on 2 slots. */
static void world(uint8_t old)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];
	struct vperf_vm_config vm = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 3 };

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		sim_default_config(&cfgs[cpu]);
		cfgs[cpu].pmuver = cpu ? 6 : old;
	}
	hv_init_cpus(cfgs, 2);
	vperf_pmu_filter_allow_all(&vm.filter);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	vm.partition = VPERF_PART_EMULATED;
	vm.emu_slots = 2;
	assert_int_equal(hv_vm(1, &vm), VPERF_OK);
}

/* The vCPU is told the platform's PMU version on every pCPU, and its PMCR_EL0 agrees. */
static void test_id_view_is_platform_wide(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	world(5);
	vc = hv_vcpu(0, 0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		uint64_t hw = sim_peek(cpu, VPERF_ENC_ID_AA64DFR0_EL1);

		assert_int_equal(ID_PMUVER(hw), cpu ? 6 : 5);
		assert_int_equal(ID_PMUVER(vperf_vcpu_id_dfr0(&vc->v, hw)), 5);
		hv_enter(vc, cpu);
		guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_LP, 0); /* RES0 before PMUv3p5 */
		hv_leave(cpu);
	}
}

/* On a PMUv3p5 pCPU the hardware counter goes on past bit 31 (64 bits, overflowing at 32 with
 * LP = 0); a guest told PMUv3p4 has 32-bit counters: it reads the wrapped value, on every path
 * (the trap fast path, PMXEVCNTR_EL0, PMSWINC, the shadow after a put, a blob). */
static void check_width(unsigned int vm)
{
	uint8_t blob[VPERF_VPMU_BLOB_SIZE];
	struct hv_vcpu *vc, *other;

	world(5);
	vc = hv_vcpu(0, vm);
	other = hv_vcpu(1, vm);
	hv_enter(vc, 1);
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMEVTYPER1_EL0, 0); /* SW_INCR */
	guest_write(PMCNTENSET_EL0, 3);
	guest_write(PMEVCNTR0_EL0, 0xfffffff0ull);
	guest_write(PMEVCNTR1_EL0, 0xfffffffeull);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 6); /* 18 cycles */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 2);
	guest_write(PMSELR_EL0, 0);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 2);
	assert_int_equal(guest_read(PMOVSSET_EL0) & 1, 1);
	guest_write(PMSWINC_EL0, 2);
	guest_write(PMSWINC_EL0, 2);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	guest_write(PMSWINC_EL0, 2);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1);
	hv_enter(other, 1);
	hv_leave(1);
	assert_int_equal(vperf_vcpu_save(&vc->v, blob, sizeof(blob)), VPERF_VPMU_BLOB_SIZE);
	assert_int_equal(vperf_vcpu_restore(&other->v, blob, sizeof(blob)), VPERF_OK);
	hv_enter(vc, 0);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 2);
	hv_enter(other, 1);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 2);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 1);
	assert_int_equal(sim_error_count(), 0);
}

static void test_counter_width_is_platform_wide(void **state)
{
	(void)state;
	check_width(0);
	check_width(1);
}

/* PMMIR_EL1 exists from PMUv3p4: with a PMUv3p1 pCPU in the platform the guest is told PMUv3p1
 * and gets UNDEF on the PMUv3p5 pCPUs as well. */
static void test_pmmir_follows_platform(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	world(4);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 1);
	assert_int_equal(
		ID_PMUVER(vperf_vcpu_id_dfr0(&vc->v, sim_peek(1, VPERF_ENC_ID_AA64DFR0_EL1))), 4);
	guest_read(PMMIR_EL1);
	assert_int_equal(last(), SIM_ACC_UNDEF);
}

/* vperf started again on world(5)'s model with CPU 0 not counting INST_RETIRED, pCPUs 0 and 1
 * brought up in the order given (first, then the other), VM 0 after them: a pCPU without an
 * event a VM was shown is refused once the VM exists (test_pcpu_bringup.c, test_lower_pmceid). */
static struct hv_vcpu *without_inst_on_cpu0(unsigned int first)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct vperf_vm_config vm = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 3 };

	world(5);
	vperf_init(hv_ops());
	sim_poke(0, VPERF_ENC_PMCEID0_EL0,
		 sim_peek(0, VPERF_ENC_PMCEID0_EL0) & ~VPERF_BIT(EV_INST));
	for (unsigned int k = 0; k < 2; k++) {
		unsigned int cpu = k ? 1 - first : first;

		sim_set_cpu(cpu);
		assert_int_equal(vperf_pcpu_init(&hv.pcpu[cpu], &pcfg), VPERF_OK);
		hv_host_boot(cpu);
	}
	sim_set_cpu(0);
	vperf_pmu_filter_allow_all(&vm.filter);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	return hv_vcpu(0, 0);
}

/* PMCEID0/1_EL0: an event one pCPU does not count is not advertised on any (CPU 0 lacks
 * INST_RETIRED here, brought up last). */
static void test_pmceid_is_platform_wide(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	vc = without_inst_on_cpu0(1);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		uint64_t ceid;

		hv_enter(vc, cpu);
		ceid = guest_read(PMCEID0_EL0);
		assert_int_equal(ceid & VPERF_BIT(EV_INST), 0);
		assert_int_equal(ceid & VPERF_BIT(EV_CYCLES), VPERF_BIT(EV_CYCLES));
		hv_leave(cpu);
	}
}

/* The same whatever order the pCPUs come up in: CPU 0, without INST_RETIRED, before CPU 1, which
 * counts it, the platform still hides it (an AND over every pCPU, not the last one's events). */
static void test_pmceid_any_pcpu_order(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	vc = without_inst_on_cpu0(0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		hv_enter(vc, cpu);
		assert_int_equal(guest_read(PMCEID0_EL0) & VPERF_BIT(EV_INST), 0);
		hv_leave(cpu);
	}
}

/* How the common events of pCPUs 0 and 1 differ: not at all; CPU 0 without INST_RETIRED
 * (PMCEID0_EL0), the smaller pCPU brought up first; or CPU 0 with STALL_FRONTEND (0x23:
 * PMCEID1_EL0 bit 3, which the model's CPUs do not list), which CPU 1 lacks: the bigger first. */
enum differ { ALIKE, CPU0_WITHOUT_INST, CPU0_WITH_STALL };

/* PMUv3p5 with FEAT_FGT and FEAT_FGT2 on every CPU but those of no_fgt; the CPUs of mt threads
 * of a multithreaded core whose PMEVTYPER<n>_EL0.MT counts the other thread (MTPMU
 * IMPLEMENTATION DEFINED, EL3 leaving it enabled). vperf started again, CPUs' events as differ
 * says. */
static void direct_model(enum differ differ, uint32_t no_fgt, uint32_t mt)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		sim_default_config(&cfgs[cpu]);
		sim_spe_default_config(&cfgs[cpu], 0);
		cfgs[cpu].pmuver = 6;
		cfgs[cpu].fgt = true;
		cfgs[cpu].fgt2 = true;
		cfgs[cpu].cpus_without_fgt = no_fgt;
		cfgs[cpu].mt = mt != 0;
		cfgs[cpu].cpus_without_mt = ~mt;
		cfgs[cpu].mtpmu = mt ? SIM_MTPMU_IMPDEF : cfgs[cpu].mtpmu;
		cfgs[cpu].mdcr_el3_mtpme = mt != 0;
	}
	hv_init_cpus(cfgs, 2);
	vperf_init(hv_ops());
	if (differ == CPU0_WITHOUT_INST)
		sim_poke(0, VPERF_ENC_PMCEID0_EL0,
			 sim_peek(0, VPERF_ENC_PMCEID0_EL0) & ~VPERF_BIT(EV_INST));
	if (differ == CPU0_WITH_STALL)
		sim_poke(0, VPERF_ENC_PMCEID1_EL0, VPERF_BIT(EV_STALL_FRONTEND - 32));
}

/* The host keeps 2 counters and traps none of FEAT_PMUv3_ICNTR's registers (1 in the "n" fields
 * of its HDFGRTR2_EL2 / HDFGWTR2_EL2), which a direct vCPU traps (0): the halves of the 16 FGT
 * classes hold different values. */
static const struct vperf_pcpu_config pcfg2 = { .host_counters = 2,
						.host_hdfgrtr2 = HDFGRTR2_VPERF_MASK,
						.host_hdfgwtr2 = HDFGWTR2_VPERF_MASK };

/* pCPU cpu brought up: vperf_pcpu_init's result. */
static int pcpu_up(unsigned int cpu)
{
	int err;

	sim_set_cpu(cpu);
	err = vperf_pcpu_init(&hv.pcpu[cpu], &pcfg2);
	hv_host_boot(cpu);
	sim_set_cpu(0);
	return err;
}

/* A VM in XENPMU_MODE_HV (MDCR_EL2.HPME stays the host's at put, so that a load back on the
 * same pCPU may take the switch's short path), 4 counters, every event allowed; the partition
 * and the vPMU as given. */
static struct vperf_vm_config vm_policy(enum vperf_pmu_mode mode, enum vperf_partition part)
{
	struct vperf_vm_config vm = { .pmu_mode = mode, .partition = part, .nr_counters = 4 };

	vperf_pmu_filter_allow_all(&vm.filter);
	return vm;
}

/* direct_model's system, pCPUs 0 and 1 brought up, then VM 0, direct (no filter; no SPE, whose
 * events would be hidden anyway): its vperf_vm_init's result. */
static int direct_world(enum differ differ, uint32_t no_fgt, uint32_t mt)
{
	struct vperf_vm_config vm = vm_policy(VPERF_PMU_HV, VPERF_PART_DIRECT);

	direct_model(differ, no_fgt, mt);
	for (unsigned int cpu = 0; cpu < 2; cpu++)
		assert_int_equal(pcpu_up(cpu), VPERF_OK);
	return hv_vm(0, &vm);
}

/* PMCEID<i>_EL0 as every pCPU up counts it: pCPUs 0 and 1's events ANDed. */
static uint64_t common_events(unsigned int i)
{
	uint32_t enc = i ? VPERF_ENC_PMCEID1_EL0 : VPERF_ENC_PMCEID0_EL0;

	return sim_peek(0, enc) & sim_peek(1, enc);
}

static uint64_t el2_traps(unsigned int cpu)
{
	return sim_guest_stats(cpu)->el2_traps;
}

/* What a vCPU saw in one run on a pCPU: PMCEID0/1_EL0 and the traps those two reads took; the
 * traps of a type written and read back and of a counter read; MDCR_EL2, HDFGRTR_EL2 and
 * HDFGWTR_EL2 as it ran. */
struct run {
	uint64_t ceid[2];
	uint64_t ceid_traps, other_traps;
	uint64_t mdcr, rtr, wtr;
};

/* One run of vc on cpu, once it runs direct where it may (its first access traps and hands it
 * the counters). */
static void read_direct(struct hv_vcpu *vc, unsigned int cpu, struct run *r)
{
	uint64_t t0;

	hv_enter(vc, cpu);
	guest_read(PMCR_EL0);
	t0 = el2_traps(cpu);
	r->ceid[0] = guest_read(PMCEID0_EL0);
	r->ceid[1] = guest_read(PMCEID1_EL0);
	r->ceid_traps = el2_traps(cpu) - t0;
	t0 = el2_traps(cpu);
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), EV_CYCLES);
	guest_read(PMEVCNTR0_EL0);
	r->other_traps = el2_traps(cpu) - t0;
	r->mdcr = sim_peek(cpu, VPERF_ENC_MDCR_EL2);
	r->rtr = sim_peek(cpu, VPERF_ENC_HDFGRTR_EL2);
	r->wtr = sim_peek(cpu, VPERF_ENC_HDFGWTR_EL2);
	hv_leave(cpu);
}

/* The platform's events, PMCEID0/1_EL0 alike. */
static void assert_common_events(const struct run *r)
{
	assert_int_equal(r->ceid[0], common_events(0));
	assert_int_equal(r->ceid[1], common_events(1));
}

/*
 * PMCEID0/1_EL0 of a direct VM on pCPUs whose common events differ: the events every pCPU counts,
 * on each pCPU, not that pCPU's own, whether they differ in PMCEID0_EL0 (CPU 1 counts
 * INST_RETIRED, CPU 0 does not) or in PMCEID1_EL0 (CPU 0, up first, counts STALL_FRONTEND, CPU 1
 * does not). The reads trap (FEAT_FGT's HDFGRTR_EL2.PMCEIDn_EL0 alone: the host keeps no trap of
 * its own), the types and counters stay untrapped; HDFGWTR_EL2 has no PMCEID field (the
 * registers are read-only) and stays the host's. Twice on each pCPU, the second load back where
 * the first run was put.
 */
static void test_pmceid_direct_platform_wide(void **state)
{
	const enum differ differs[] = { CPU0_WITHOUT_INST, CPU0_WITH_STALL };
	struct hv_vcpu *vc;
	struct run r;

	(void)state;
	for (size_t k = 0; k < VPERF_ARRAY_SIZE(differs); k++) {
		assert_int_equal(direct_world(differs[k], 0, 0), VPERF_OK);
		vc = hv_vcpu(0, 0);
		/* PMCEID<k>_EL0 of the pCPU with an event more: CPU 1, then CPU 0. */
		assert_int_not_equal(common_events(k), sim_peek(1 - k, k ? VPERF_ENC_PMCEID1_EL0
									 : VPERF_ENC_PMCEID0_EL0));
		for (unsigned int run = 0; run < 4; run++) {
			read_direct(vc, run / 2, &r);
			assert_common_events(&r);
			assert_int_equal(r.ceid_traps, 2);
			assert_int_equal(r.other_traps, 0);
			assert_int_equal(r.rtr, HDFGRTR_PMCEIDN);
			assert_int_equal(r.wtr, 0);
		}
		assert_int_equal(sim_error_count(), 0);
	}
}

/* Where every pCPU counts the same events the read does not trap: the hardware's is the
 * platform's, and no fine-grained trap is set for it. */
static void test_pmceid_direct_alike_untrapped(void **state)
{
	struct hv_vcpu *vc;
	struct run r;

	(void)state;
	assert_int_equal(direct_world(ALIKE, 0, 0), VPERF_OK);
	vc = hv_vcpu(0, 0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		read_direct(vc, cpu, &r);
		assert_common_events(&r);
		assert_int_equal(r.ceid_traps + r.other_traps, 0);
		assert_int_equal(r.rtr | r.wtr, 0);
	}
}

/* Differing events (in PMCEID0_EL0 or in PMCEID1_EL0) and a pCPU without FEAT_FGT: no trap could
 * show the direct VM the platform's events there, so the direct partition is refused (a trapped
 * VM is not: it traps PMCEID by MDCR_EL2.TPM). Alike events without FEAT_FGT: the direct
 * partition stays possible. */
static void test_pmceid_direct_needs_fgt(void **state)
{
	struct vperf_vm_config trapped = vm_policy(VPERF_PMU_HV, VPERF_PART_TRAPPED);

	(void)state;
	assert_int_equal(direct_world(CPU0_WITHOUT_INST, VPERF_BIT(1), 0), VPERF_EINVAL);
	assert_int_equal(hv_vm(0, &trapped), VPERF_OK);
	assert_int_equal(direct_world(CPU0_WITH_STALL, VPERF_BIT(1), 0), VPERF_EINVAL);
	assert_int_equal(direct_world(ALIKE, VPERF_BIT(1), 0), VPERF_OK);
}

/*
 * pCPUs brought up after the direct VM whose PMCEID reads trap, counting INST_RETIRED as pCPU 1
 * does: accepted (the VM reads the platform's events, which they do not change), pCPU 2 without
 * FEAT_FGT, pCPU 3 a thread whose MT counts the core's other thread. The vCPU runs trapped on
 * both (MDCR_EL2.TPM): no fine-grained trap on pCPU 2, and on pCPU 3 its types, which it would
 * write itself untrapped, would count the other thread. It reads the platform's events there too.
 */
static void test_pmceid_direct_later_pcpus(void **state)
{
	struct hv_vcpu *vc;
	struct run r;

	(void)state;
	assert_int_equal(direct_world(CPU0_WITHOUT_INST, VPERF_BIT(2), VPERF_BIT(3)), VPERF_OK);
	vc = hv_vcpu(0, 0);
	for (unsigned int cpu = 2; cpu < 4; cpu++) {
		assert_int_equal(pcpu_up(cpu), VPERF_OK);
		read_direct(vc, cpu, &r);
		assert_common_events(&r);
		assert_int_equal(r.mdcr & MDCR_EL2_TPM, MDCR_EL2_TPM);
	}
	assert_int_not_equal(sim_peek(2, VPERF_ENC_PMCEID0_EL0), common_events(0));
	assert_true(hv.pcpu[3].mt_counts);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * The pCPU's record of what its HDFGRTR_EL2, HDFGWTR_EL2, HDFGRTR2_EL2 and HDFGWTR2_EL2 hold
 * (vperf.h, fgt_held: bit t + 8 * t2 for vm_hdfgrtr[t], vm_hdfgwtr[t], vm_hdfgrtr2[t2],
 * vm_hdfgwtr2[t2], the 16 classes) names only values they hold, and with vc loaded its VM's:
 * the switch's short path loads a vCPU whose class it names without writing them.
 */
static void assert_record(unsigned int cpu, const struct hv_vcpu *vc)
{
	const struct vperf_pcpu *p = &hv.pcpu[cpu];
	const unsigned int nr = VPERF_ARRAY_SIZE(p->vm_hdfgrtr);

	for (unsigned int c = 0; c < 2 * nr; c++) {
		if (!((p->fgt_held >> c) & 1u))
			continue;
		assert_int_equal(sim_peek(cpu, VPERF_ENC_HDFGRTR_EL2), p->vm_hdfgrtr[c % nr]);
		assert_int_equal(sim_peek(cpu, VPERF_ENC_HDFGWTR_EL2), p->vm_hdfgwtr[c % nr]);
		if (p->caps.fgt2) {
			assert_int_equal(sim_peek(cpu, VPERF_ENC_HDFGRTR2_EL2),
					 p->vm_hdfgrtr2[c / nr]);
			assert_int_equal(sim_peek(cpu, VPERF_ENC_HDFGWTR2_EL2),
					 p->vm_hdfgwtr2[c / nr]);
		}
	}
	if (vc)
		assert_true((p->fgt_held >> vc->v.vm->fgt_class) & 1u);
}

/*
 * VMs of every kind on one pCPU beside the direct VM 0 whose PMCEID reads trap (pCPUs whose
 * events differ): 1, direct with a filter (its types and PMCEID reads trap); 2, trapped; 3, no
 * vPMU in the direct partition; 4, emulated. Each load, eager or lazy puts between them, must
 * leave exactly its VM's traps in HDFGRTR_EL2 / HDFGWTR_EL2 (a trapped or emulated VM, and one
 * without a vPMU, trap every PMU access by MDCR_EL2.TPM: none), and the record must say so.
 */
static void test_pmceid_class_beside_others(void **state)
{
	const uint64_t rtr[] = { HDFGRTR_PMCEIDN, HDFGRTR_TYPES, 0, 0, 0 };
	const uint64_t wtr[] = { 0, HDFGWTR_TYPES, 0, 0, 0 };
	const unsigned int order[] = { 0, 2, 0, 1, 0, 3, 0, 4, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4 };
	struct vperf_vm_config vm = vm_policy(VPERF_PMU_HV, VPERF_PART_DIRECT);
	struct hv_vcpu *vcs[5];

	(void)state;
	for (unsigned int lazy = 0; lazy < 2; lazy++) {
		assert_int_equal(direct_world(CPU0_WITHOUT_INST, 0, 0), VPERF_OK);
		assert_true(hv.pcpu[0].caps.fgt2);
		hv.lazy_put = lazy != 0;
		vperf_pmu_filter_set(&vm.filter, EV_INST, false);
		assert_int_equal(hv_vm(1, &vm), VPERF_OK);
		vm = vm_policy(VPERF_PMU_HV, VPERF_PART_TRAPPED);
		assert_int_equal(hv_vm(2, &vm), VPERF_OK);
		vm = vm_policy(VPERF_PMU_OFF, VPERF_PART_DIRECT);
		assert_int_equal(hv_vm(3, &vm), VPERF_OK);
		vm = vm_policy(VPERF_PMU_HV, VPERF_PART_EMULATED);
		assert_int_equal(hv_vm(4, &vm), VPERF_OK);
		for (unsigned int i = 0; i < 5; i++)
			vcs[i] = hv_vcpu(i, i);
		for (size_t k = 0; k < VPERF_ARRAY_SIZE(order); k++) {
			struct hv_vcpu *vc = vcs[order[k]];

			hv_enter(vc, 0);
			assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr[order[k]]);
			assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr[order[k]]);
			assert_record(0, vc);
			hv_leave(0);
			assert_record(0, NULL);
		}
		vm = vm_policy(VPERF_PMU_HV, VPERF_PART_DIRECT);
	}
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_id_view_is_platform_wide),
		cmocka_unit_test(test_counter_width_is_platform_wide),
		cmocka_unit_test(test_pmmir_follows_platform),
		cmocka_unit_test(test_pmceid_is_platform_wide),
		cmocka_unit_test(test_pmceid_direct_platform_wide),
		cmocka_unit_test(test_pmceid_direct_alike_untrapped),
		cmocka_unit_test(test_pmceid_direct_needs_fgt),
		cmocka_unit_test(test_pmceid_direct_later_pcpus),
		cmocka_unit_test(test_pmceid_class_beside_others),
		cmocka_unit_test(test_pmceid_any_pcpu_order),
	};

	return cmocka_run_group_tests_name("vpmu_hetero", tests, NULL, NULL);
}
