// SPDX-License-Identifier: MIT
/*
 * The direct partition with FEAT_FGT and FEAT_HPMN0 on the executable model, which implements
 * HDFGRTR_EL2 / HDFGWTR_EL2's PMU traps (arch/sim/pmu/pmu_fgt.c) and HPMN = 0, each per PE:
 *   - a direct VM with an event filter counts exactly with no trap on its counters, enables,
 *     flags, PMCR_EL0 or PMSELR_EL0; only its type writes (and reads, and PMCEID) trap;
 *   - a denied event written to PMEVTYPER<n>_EL0 or PMXEVTYPER_EL0, and PMCCFILTR_EL0, end as in
 *     the trapped partition: the same hardware value, the guest reading back what it wrote;
 *   - the hypervisor's own HDFGRTR_EL2 / HDFGWTR_EL2 come back at every put;
 *   - the first load after pcpu_init writes both (they reset to UNKNOWN); from then on each is
 *     written only when its own value changes;
 *   - a pCPU without FEAT_FGT refuses the policy, or, initialised after the VM, runs it trapped;
 *   - HPMN = 0 (no event counter for the guest, or all of them the host's) with FEAT_HPMN0 only;
 *   - the model reports any EL2 access to HDFGRTR_EL2 / HDFGWTR_EL2 on a PE without FEAT_FGT.
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/fgt.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include "hv.h"

#define INST_RETIRED 0x08u
#define CPU_CYCLES   0x11u

static const struct sim_uop op3 = { .pc = 0x4000, .latency = 3, .type = SIM_UOP_OTHER };

static struct vperf_vm_config policy(enum vperf_partition part, uint8_t nr, bool filtered)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = part,
				       .nr_counters = nr };

	vperf_pmu_filter_allow_all(&cfg.filter);
	if (filtered)
		vperf_pmu_filter_set(&cfg.filter, INST_RETIRED, false);
	return cfg;
}

static void model(struct sim_pe_config *cfg)
{
	hv_default_config(cfg);
	cfg->fgt = true;
}

/* FGT on every pCPU, N = 6, the host keeps 2. VM 0: direct, 2 counters, INST_RETIRED denied;
 * VM 1: the same policy in the trapped partition; VM 2: direct, every event allowed. */
static int setup(void **state)
{
	struct sim_pe_config cfg;
	struct vperf_vm_config vm;

	(void)state;
	model(&cfg);
	hv_init(&cfg, 2);
	vm = policy(VPERF_PART_DIRECT, 2, true);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	vm = policy(VPERF_PART_TRAPPED, 2, true);
	assert_int_equal(hv_vm(1, &vm), VPERF_OK);
	vm = policy(VPERF_PART_DIRECT, 2, false);
	assert_int_equal(hv_vm(2, &vm), VPERF_OK);
	return 0;
}

static uint64_t traps(void)
{
	return sim_guest_stats(sim_current_cpu())->el2_traps;
}

static uint64_t mdcr_tpm(unsigned int cpu)
{
	return sim_peek(cpu, VPERF_ENC_MDCR_EL2) & MDCR_EL2_TPM;
}

/* The first access brings the state in (MDCR_EL2.TPM until then); untrapped afterwards. */
static void start(struct hv_vcpu *v, unsigned int cpu)
{
	hv_enter(v, cpu);
	guest_write(PMCNTENSET_EL0, 0x80000003ull);
}

static void test_counts_with_no_counter_trap(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0);
	uint64_t t;

	(void)state;
	start(a, 0);
	assert_int_equal(mdcr_tpm(0), 0);
	t = traps();
	guest_write(PMEVTYPER0_EL0, CPU_CYCLES);
	assert_int_equal(traps(), t + 1); /* HDFGWTR_EL2.PMEVTYPERn_EL0 */
	t = traps();
	guest_write(PMEVCNTR0_EL0, 0);
	guest_write(PMCCNTR_EL0, 0);
	guest_write(PMSELR_EL0, 1);
	guest_write(PMINTENCLR_EL1, ~0ull >> 33);
	guest_write(PMOVSCLR_EL0, 0);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	assert_int_equal(guest_read(PMCCNTR_EL0), 30);
	assert_int_equal(guest_read(PMXEVCNTR_EL0), 0);
	assert_int_equal(guest_read(PMSELR_EL0), 1);
	assert_int_equal(guest_read(PMCNTENSET_EL0), 0x80000003ull);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(guest_read(PMCR_EL0) & PMCR_E, PMCR_E);
	assert_int_equal(traps(), t);
	assert_int_equal(sim_error_count(), 0);
}

/* The same program on the direct VM (pCPU 0) and the trapped one (pCPU 1). */
static void program(struct hv_vcpu *v, unsigned int cpu)
{
	start(v, cpu);
	guest_write(PMEVTYPER0_EL0, CPU_CYCLES);
	guest_write(PMEVTYPER1_EL0, INST_RETIRED);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
}

static void test_denied_event_as_trapped(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 1);
	uint64_t t;

	(void)state;
	program(b, 1);
	program(a, 0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	t = traps();
	assert_int_equal(guest_read(PMEVTYPER1_EL0), INST_RETIRED);
	assert_int_equal(guest_read(PMCEID0_EL0) & VPERF_BIT(INST_RETIRED), 0);
	assert_int_equal(traps(), t + 2); /* HDFGRTR_EL2.PMEVTYPERn_EL0, PMCEIDn_EL0 */
	assert_int_equal(sim_peek(0, VPERF_ENC_PMEVTYPER1_EL0),
			 sim_peek(1, VPERF_ENC_PMEVTYPER1_EL0));
	/* Through PMXEVTYPER_EL0, the selection written untrapped. */
	guest_write(PMSELR_EL0, 0);
	t = traps();
	guest_write(PMXEVTYPER_EL0, INST_RETIRED | PMEVTYPER_U);
	assert_int_equal(traps(), t + 1);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), INST_RETIRED | PMEVTYPER_U);
	/* A put while untrapped keeps the types the guest wrote, not the hardware's copy. */
	hv_leave(0);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMEVTYPER1_EL0), INST_RETIRED);
	assert_int_equal(sim_error_count(), 0);
}

static void test_ccfiltr_as_trapped(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *b = hv_vcpu(1, 1);
	uint64_t t, want = PMEVTYPER_P | PMEVTYPER_NSH | PMEVTYPER_M;

	(void)state;
	start(b, 1);
	guest_write(PMCCFILTR_EL0, want);
	start(a, 0);
	t = traps();
	guest_write(PMCCFILTR_EL0, want);
	assert_int_equal(traps(), t + 1);
	assert_int_equal(guest_read(PMCCFILTR_EL0), PMEVTYPER_P);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCCFILTR_EL0),
			 sim_peek(1, VPERF_ENC_PMCCFILTR_EL0));
	/* PMXEVTYPER_EL0 with SEL = 31 is PMCCFILTR_EL0, trapped by the PMEVTYPERn bit. */
	guest_write(PMSELR_EL0, 31);
	t = traps();
	guest_write(PMXEVTYPER_EL0, PMEVTYPER_U);
	assert_int_equal(traps(), t + 1);
	assert_int_equal(guest_read(PMCCFILTR_EL0), PMEVTYPER_U);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * EL0's rights of a direct guest are what its EL1 last wrote to PMUSERENR_EL0, untrapped (Arm
 * DDI 0487 K.a D24.5, PMUSERENR_EL0): with EN set there, an EL0 read of PMEVTYPER0_EL0 passes the
 * PE's own EL0 check and traps to EL2 by HDFGRTR_EL2.PMEVTYPERn_EL0 alone, and vperf must judge
 * it by that value (the shadow still holds the 0 of before), answering with the type instead of
 * an UNDEF. The grant is the guest's from then on: after the vCPU is put and loaded again (another
 * VM's vCPU took the counters in between, so its state is restored from the shadow) its EL0 still
 * has the PMU, and its EL1 reads back what it wrote. Mutations tried: vperf_vpmu_sync_selection
 * (vpmu/fgt.c) not copying PMUSERENR_EL0 (the EL0 read is UNDEF), and copying it without EN
 * (likewise).
 */
static void test_el0_type_trap_judged_by_untrapped_grant(void **state)
{
	struct hv_vcpu *a = hv_vcpu(0, 0), *c = hv_vcpu(2, 2);
	uint64_t t;

	(void)state;
	start(a, 0);
	guest_write(PMEVTYPER0_EL0, CPU_CYCLES);
	assert_int_equal(mdcr_tpm(0), 0);
	t = traps();
	guest_write(PMUSERENR_EL0, PMUSERENR_EN);
	assert_int_equal(traps(), t); /* untrapped: the hardware's */
	sim_set_el(0);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), CPU_CYCLES);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	sim_set_el(1);
	start(c, 0);
	hv_enter(a, 0);
	sim_set_el(0);
	assert_int_equal(guest_read(PMEVTYPER0_EL0), CPU_CYCLES);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	guest_read(PMCCNTR_EL0);
	assert_int_not_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	assert_int_not_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL1);
	sim_set_el(1);
	assert_int_equal(guest_read(PMUSERENR_EL0), PMUSERENR_EN);
	assert_int_equal(sim_error_count(), 0);
}

/* The hypervisor's own values (debug traps, and a PMU trap of its own) while no vCPU runs. */
static void test_host_values_survive(void **state)
{
	const uint64_t rtr = 0x3f | HDFG_PMCCNTR, wtr = 0x3f | HDFGWTR_PMCR;
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = rtr,
						.host_hdfgwtr = wtr };
	struct hv_vcpu *a = hv_vcpu(0, 0), *c = hv_vcpu(2, 2);
	uint64_t t;

	(void)state;
	sim_poke(0, VPERF_ENC_HDFGRTR_EL2, rtr);
	sim_poke(0, VPERF_ENC_HDFGWTR_EL2, wtr);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	start(a, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0x3f | HDFGRTR_TYPES);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f | HDFGWTR_TYPES);
	t = traps();
	guest_write(PMCR_EL0, PMCR_E);
	guest_read(PMCCNTR_EL0);
	assert_int_equal(traps(), t);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	start(c, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0x3f);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	assert_int_equal(sim_error_count(), 0);
}

/* The same host values across a lazy put of a trapped vCPU, which parks its counters and
 * takes the short path: the host's PMU fields come back there too, and the vCPU's own values
 * at its load. */
static void test_host_values_survive_lazy_put(void **state)
{
	const uint64_t rtr = 0x3f | HDFG_PMCCNTR, wtr = 0x3f | HDFGWTR_PMCR;
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = rtr,
						.host_hdfgwtr = wtr };
	struct hv_vcpu *b = hv_vcpu(1, 1);

	(void)state;
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	hv.lazy_put = true;
	start(b, 0);
	guest_write(PMCR_EL0, PMCR_E);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0x3f);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f);
	hv_leave(0);
	assert_true(vperf_vcpu_parked(&b->v));
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	hv_enter(b, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0x3f);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f);
	hv_leave(0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
	assert_int_equal(sim_error_count(), 0);
}

/* The host's PMU traps in one register only, the other's PMU fields clear: the lazy put must
 * still see that the host sets PMU fields and put both registers back. */
static void host_pmu_traps_in_one_register(uint64_t rtr, uint64_t wtr)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = rtr,
						.host_hdfgwtr = wtr };
	struct hv_vcpu *b = hv_vcpu(1, 1);

	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	hv.lazy_put = true;
	for (int i = 0; i < 2; i++) {
		start(b, 0);
		guest_write(PMCR_EL0, PMCR_E);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr & ~HDFGRTR_VPERF_MASK);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr & ~HDFGWTR_VPERF_MASK);
		hv_leave(0);
		assert_true(vperf_vcpu_parked(&b->v));
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	}
	assert_int_equal(sim_error_count(), 0);
}

static void test_host_read_traps_survive_lazy_put(void **state)
{
	(void)state;
	host_pmu_traps_in_one_register(0x3f | HDFG_PMCCNTR | HDFGRTR_PMCEIDN, 0x3f);
}

static void test_host_write_traps_survive_lazy_put(void **state)
{
	(void)state;
	host_pmu_traps_in_one_register(0x3f, 0x3f | HDFGWTR_PMCR | HDFGWTR_PMSWINC);
}

/* Without FEAT_FGT the registers do not exist: host values are refused, none is written. */
static void test_no_fgt_host_values_refused(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2, .host_hdfgwtr = 1 };
	/* Either register alone: HDFGRTR_EL2 exists with FEAT_FGT only, as HDFGWTR_EL2 does (Arm
	 * DDI 0487 K.a, HDFGRTR_EL2). Mutation tried: vperf_fgt_host_ok (fgt.c) checking
	 * host_hdfgwtr alone: the read register's value is accepted and later written. */
	const struct vperf_pcpu_config rcfg = { .host_counters = 2, .host_hdfgrtr = HDFG_PMCCNTR };
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 2, true);

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_EINVAL);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &rcfg), VPERF_EINVAL);
	assert_non_null(strstr(hv.last_log, "without FEAT_FGT"));
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &vm), VPERF_EINVAL); /* no filter without FGT */
	vm = policy(VPERF_PART_TRAPPED, 2, true);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMEVTYPER0_EL0, INST_RETIRED);
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0); /* no HDFG*TR_EL2 access (the model's UNDEF) */
}

/* One pCPU without FEAT_FGT: the policy is refused; a pCPU without it initialised after the VM
 * runs the VM trapped, the filter holding, and never writes the registers it lacks. */
static void test_pcpu_without_fgt(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 2, true);
	struct sim_pe_config cfg;
	struct hv_vcpu *a;
	uint64_t t;

	(void)state;
	model(&cfg);
	cfg.cpus_without_fgt = VPERF_BIT(1);
	hv_init(&cfg, 2);
	assert_false(hv.pcpu[1].caps.fgt);
	assert_int_equal(hv_vm(0, &vm), VPERF_EINVAL);
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &pcfg), VPERF_OK);
	sim_set_cpu(0);
	a = hv_vcpu(0, 0);
	program(a, 1);
	assert_int_equal(mdcr_tpm(1), MDCR_EL2_TPM);
	t = traps();
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	assert_int_equal(traps(), t + 2);
	hv_leave(1);
	hv_enter(a, 0); /* migrated to a pCPU with FGT: untrapped there */
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(mdcr_tpm(0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* The SPE events (SAMPLE_POP to SAMPLE_COLLISION, PMCEID0_EL0 bits 32-35) of a PE with SPE are
 * hidden from a VM without a vSPE of its own, whatever its filter: a direct VM that allows every
 * event still runs with its types and PMCEID traps, so that neither an untrapped PMCEID0_EL0 read
 * nor an untrapped type write shows it the host's sampling. Without FEAT_FGT that cannot hold:
 * such a direct VM is refused. Found by the trap fuzzer (tests/fuzz/regressions/trap/20-*). */
static void test_spe_events_hidden_from_direct(void **state)
{
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 2, false);
	const uint64_t spe_events = 0xfull << 32;
	struct sim_pe_config cfg;
	struct hv_vcpu *a;

	(void)state;
	model(&cfg);
	cfg.pmsver = 1;
	hv_init(&cfg, 1);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	a = hv_vcpu(0, 0);
	start(a, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCEID0_EL0) & spe_events, spe_events);
	assert_int_equal(guest_read(PMCEID0_EL0) & spe_events, 0);
	hv_leave(0);
	start(a, 0);
	assert_int_equal(mdcr_tpm(0), 0); /* untrapped, but for the types and PMCEID */
	assert_int_equal(guest_read(PMCEID0_EL0) & spe_events, 0);
	assert_int_equal(sim_error_count(), 0);

	model(&cfg);
	cfg.pmsver = 1;
	cfg.fgt = false;
	hv_init(&cfg, 1);
	assert_int_equal(hv_vm(0, &vm), VPERF_EINVAL);
}

/* A VM profiled from outside (VPERF_SPE_BUF_EL2) has SPE, but the host's: its SAMPLE_* events
 * count the host's sampling of it and are hidden from it like from a VM without SPE, so a direct
 * one still runs with its types and PMCEID trapped. A VM with a vSPE of its own sees them, and
 * with every event allowed reads PMCEID0_EL0 from the hardware, untrapped. */
static void test_spe_events_by_spe_owner(void **state)
{
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 2, false);
	const uint64_t spe_events = 0xfull << 32;
	struct sim_pe_config cfg;
	struct hv_vcpu *a;
	uint64_t before;

	(void)state;
#ifndef CONFIG_VPERF_VSPE
	skip(); /* a VM with SPE is VPERF_ENOTSUP without the vSPE (a vPMU-only build) */
#endif
	model(&cfg);
	cfg.pmsver = 1;
	hv_init_host_spe(&cfg, 1, true);
	vm.spe = true;
	vm.spe_buffer = VPERF_SPE_BUF_EL2;
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	vm.spe_buffer = VPERF_SPE_BUF_EL1_TRAPPED;
	assert_int_equal(hv_vm(1, &vm), VPERF_OK);

	a = hv_vcpu(0, 0);
	start(a, 0);
	assert_int_equal(mdcr_tpm(0), 0);
	before = traps();
	assert_int_equal(guest_read(PMCEID0_EL0) & spe_events, 0);
	assert_int_equal(traps(), before + 1);
	hv_leave(0);

	a = hv_vcpu(0, 1);
	start(a, 0);
	assert_int_equal(mdcr_tpm(0), 0);
	before = traps();
	assert_int_equal(guest_read(PMCEID0_EL0) & spe_events, spe_events);
	assert_int_equal(traps(), before);
	assert_int_equal(sim_error_count(), 0);
}

/* FEAT_HPMN0: the host keeps every counter (HPMN = 0) and a guest still has the cycle counter;
 * a direct guest with no event counter runs with HPMN = 0 itself, untrapped, where every event
 * counter's bit of PMCNTEN, PMINTEN and PMOVS is RAZ/WI at EL1 (counters at or above HPMN are
 * EL2's, MDCR_EL2.HPMN): the host's counters' bits are out of its reach. KVM's
 * vpmu_counter_access asks this of its first VM. */
static void test_hpmn0(void **state)
{
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 0, false);
	struct sim_pe_config cfg;
	struct hv_vcpu *a;
	uint64_t t;

	(void)state;
	model(&cfg);
	cfg.hpmn0 = true;
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	a = hv_vcpu(0, 0);
	start(a, 0);
	t = traps();
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMCCNTR_EL0), 30);
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	assert_int_equal(traps(), t);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & (MDCR_EL2_TPM | MDCR_EL2_HPMN_MASK), 0);
	guest_write(PMCNTENSET_EL0, 0xffff);
	guest_write(PMINTENSET_EL1, 0xffff);
	guest_write(PMOVSSET_EL0, 0xffff);
	assert_int_equal(guest_read(PMCNTENSET_EL0) & 0x7fffffffull, 0);
	assert_int_equal(guest_read(PMINTENSET_EL1), 0);
	assert_int_equal(guest_read(PMOVSSET_EL0), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & 0x7fffffffull, 0);
	assert_int_equal(traps(), t);
	/* Every counter the host's: a trapped guest with the cycle counter only. */
	hv_init(&cfg, 6);
	assert_int_equal(hv.pcpu[0].hpmn, 0);
	vm = policy(VPERF_PART_TRAPPED, 0, false);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	a = hv_vcpu(0, 0);
	start(a, 0);
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMCCNTR_EL0), 30);
	assert_int_equal(sim_error_count(), 0);
}

/* Without FEAT_HPMN0 on every pCPU, HPMN = 0 is refused: the direct guest with no event counter,
 * and a host keeping every counter. */
static void test_no_hpmn0(void **state)
{
	const struct vperf_pcpu_config all = { .host_counters = 6 };
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 0, false);
	struct sim_pe_config cfg;

	(void)state;
	model(&cfg);
	cfg.hpmn0 = true;
	cfg.cpus_without_hpmn0 = VPERF_BIT(1);
	hv_init(&cfg, 2);
	assert_int_equal(hv_vm(0, &vm), VPERF_EINVAL);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &all), VPERF_EINVAL);
	sim_set_cpu(0);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &all), VPERF_OK);
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &vm), VPERF_EINVAL);
}

/* The pCPU without FEAT_HPMN0 initialised after the VM: the VM runs there trapped, with the
 * host's HPMN (the model reports an HPMN = 0 it does not allow), and untrapped elsewhere. */
static void test_pcpu_without_hpmn0_runs_trapped(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };
	struct vperf_vm_config vm = policy(VPERF_PART_DIRECT, 0, false);
	struct sim_pe_config cfg;
	struct hv_vcpu *a;

	(void)state;
	model(&cfg);
	cfg.hpmn0 = true;
	cfg.cpus_without_hpmn0 = VPERF_BIT(1);
	hv_init(&cfg, 2);
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &pcfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 1);
	guest_write(PMCCNTR_EL0, 0);
	guest_write(PMCNTENSET_EL0, VPERF_BIT(31));
	guest_write(PMCR_EL0, PMCR_E);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMCCNTR_EL0), 30);
	assert_int_equal(mdcr_tpm(1), MDCR_EL2_TPM);
	assert_int_equal(sim_peek(1, VPERF_ENC_MDCR_EL2) & MDCR_EL2_HPMN_MASK, 4);
	hv_leave(1);
	hv_enter(a, 0);
	assert_int_equal(guest_read(PMCCNTR_EL0), 30);
	assert_int_equal(mdcr_tpm(0), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* The model's rules (the oracle): each bit traps its registers and direction only;
 * PMEVCNTRn_EL0 covers PMXEVCNTR_EL0, PMCCFILTR_EL0 does not cover PMXEVTYPER_EL0. */
static void test_model_fgt_rules(void **state)
{
	struct hv_vcpu *c = hv_vcpu(2, 2);
	uint64_t t;

	(void)state;
	start(c, 0);
	guest_write(PMSELR_EL0, 0);
	sim_poke(0, VPERF_ENC_HDFGWTR_EL2, HDFG_PMEVCNTRN);
	t = traps();
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(traps(), t);
	guest_write(PMEVCNTR0_EL0, 5);
	guest_write(PMXEVCNTR_EL0, 6);
	assert_int_equal(traps(), t + 2);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 6);
	sim_poke(0, VPERF_ENC_HDFGWTR_EL2, 0);
	sim_poke(0, VPERF_ENC_HDFGRTR_EL2, HDFG_PMCCFILTR);
	guest_write(PMSELR_EL0, 31);
	t = traps();
	guest_read(PMXEVTYPER_EL0);
	guest_write(PMCCFILTR_EL0, 0);
	assert_int_equal(traps(), t);
	guest_read(PMCCFILTR_EL0);
	assert_int_equal(traps(), t + 1);
	sim_poke(0, VPERF_ENC_HDFGRTR_EL2, 0);
	assert_int_equal(sim_error_count(), 0);
}

/* Writes of HDFGRTR_EL2 and HDFGWTR_EL2 by vperf on cpu since its trace held `since` events. */
static unsigned int fgt_writes(unsigned int cpu, uint64_t since)
{
	uint64_t len = sim_cpu(cpu)->trace_len;
	uint64_t kept = len < SIM_TRACE_LEN ? len : SIM_TRACE_LEN;
	unsigned int n = 0;

	assert_true(len - since <= kept);
	for (uint64_t i = kept - (len - since); i < kept; i++) {
		const struct sim_event *e = sim_trace_at(cpu, i);

		if (e->kind == SIM_WRITE &&
		    (e->enc == VPERF_ENC_HDFGRTR_EL2 || e->enc == VPERF_ENC_HDFGWTR_EL2))
			n++;
	}
	return n;
}

/* The PE resets the trap bits to UNKNOWN (the model seeds what firmware left): the first load
 * after pcpu_init writes the vCPU's values even where they equal what vperf last wrote before. */
static void test_first_load_clears_firmware_traps(void **state)
{
	struct hv_vcpu *c = hv_vcpu(2, 2);
	uint64_t t;

	(void)state;
	assert_int_not_equal(
		sim_peek(0, VPERF_ENC_HDFGRTR_EL2) | sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0);
	start(c, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0);
	t = traps();
	guest_write(PMEVTYPER0_EL0, CPU_CYCLES);
	guest_write(PMCCFILTR_EL0, 0);
	guest_read(PMCEID0_EL0);
	guest_write(PMCR_EL0, PMCR_E);
	guest_write(PMSELR_EL0, 0);
	guest_read(PMEVCNTR0_EL0);
	assert_int_equal(traps(), t);
	assert_int_equal(sim_error_count(), 0);
}

/* Each register on its own: the host's read traps have no PMU field (a VM runs with them as
 * they are), its write traps do (a VM runs without them). Back from a put, the load must see
 * that HDFGWTR_EL2 differs although HDFGRTR_EL2 does not. */
static void test_load_compares_each_register(void **state)
{
	const uint64_t rtr = 0x3f, wtr = 0x3f | HDFGWTR_PMCR | HDFG_PMEVTYPERN;
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = rtr,
						.host_hdfgwtr = wtr };
	struct hv_vcpu *c = hv_vcpu(2, 2);
	uint64_t t;

	(void)state;
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	for (int i = 0; i < 2; i++) {
		start(c, 0);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f);
		t = traps();
		guest_write(PMCR_EL0, PMCR_E);
		guest_write(PMEVTYPER0_EL0, CPU_CYCLES);
		assert_int_equal(traps(), t);
		hv_leave(0);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	}
	assert_int_equal(sim_error_count(), 0);
}

/* The switch fast path (a load that writes nothing) compares each register too: the host sets
 * PMU fields in one register only, and a trapped VM in XENPMU_MODE_HV keeps MDCR_EL2.HPME, so an
 * eager put leaves MDCR_EL2 and the other register as the VM runs with them and changes that one
 * alone. Loaded again on the same pCPU, the VM must not run with the host's value of it. */
static void fast_load_after_put_of_one_register(uint64_t rtr, uint64_t wtr)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = rtr,
						.host_hdfgwtr = wtr };
	struct vperf_vm_config vm = { .pmu_mode = VPERF_PMU_HV,
				      .partition = VPERF_PART_TRAPPED,
				      .nr_counters = 2 };
	struct hv_vcpu *d = hv_vcpu(3, 3);
	uint64_t mdcr;

	vperf_pmu_filter_allow_all(&vm.filter);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	assert_int_equal(hv_vm(3, &vm), VPERF_OK);
	for (int i = 0; i < 2; i++) {
		start(d, 0);
		guest_write(PMCR_EL0, PMCR_E);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr & ~HDFGRTR_VPERF_MASK);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr & ~HDFGWTR_VPERF_MASK);
		mdcr = sim_peek(0, VPERF_ENC_MDCR_EL2);
		hv_leave(0);
		assert_false(vperf_vcpu_parked(&d->v));
		assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2), mdcr);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), rtr);
		assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), wtr);
	}
	assert_int_equal(sim_error_count(), 0);
}

static void test_fast_load_compares_hdfgrtr(void **state)
{
	(void)state;
	fast_load_after_put_of_one_register(0x3f | HDFG_PMCCNTR, 0x3f);
}

static void test_fast_load_compares_hdfgwtr(void **state)
{
	(void)state;
	fast_load_after_put_of_one_register(0x3f, 0x3f | HDFGWTR_PMCR);
}

/* Written only where the value changes: loads and puts of a VM with no fine-grained trap of its
 * own, the host's values outside the PMU fields, touch neither register after the first load;
 * a VM whose types trap costs one write of each at its load and at its put. */
static void test_written_only_when_changed(void **state)
{
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_hdfgrtr = 0x3f,
						.host_hdfgwtr = 0x3f };
	struct hv_vcpu *a = hv_vcpu(0, 0), *c = hv_vcpu(2, 2);
	uint64_t since;

	(void)state;
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &pcfg), VPERF_OK);
	since = sim_cpu(0)->trace_len;
	hv_enter(c, 0);
	assert_int_equal(fgt_writes(0, since), 2);
	for (int i = 0; i < 3; i++) {
		since = sim_cpu(0)->trace_len;
		hv_leave(0);
		assert_int_equal(fgt_writes(0, since), 0);
		since = sim_cpu(0)->trace_len;
		hv_enter(c, 0);
		assert_int_equal(fgt_writes(0, since), 0);
	}
	hv_leave(0);
	for (int i = 0; i < 2; i++) {
		since = sim_cpu(0)->trace_len;
		hv_enter(a, 0);
		assert_int_equal(fgt_writes(0, since), 2);
		since = sim_cpu(0)->trace_len;
		hv_leave(0);
		assert_int_equal(fgt_writes(0, since), 2);
	}
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGRTR_EL2), 0x3f);
	assert_int_equal(sim_peek(0, VPERF_ENC_HDFGWTR_EL2), 0x3f);
	assert_int_equal(sim_error_count(), 0);
}

/* The model (the oracle): without FEAT_FGT on a PE, an EL2 access to HDFGRTR_EL2 or
 * HDFGWTR_EL2 is UNDEFINED; the model reports each as an error and keeps the register as it
 * was. A PE with FEAT_FGT next to it accepts the same accesses. */
static void test_model_no_fgt_el2_access_flagged(void **state)
{
	struct sim_pe_config cfg;

	(void)state;
	model(&cfg);
	cfg.cpus_without_fgt = VPERF_BIT(1);
	hv_init(&cfg, 2);
	assert_int_equal(sim_error_count(), 0);
	sim_set_cpu(1);
	write_sysreg(HDFG_PMEVTYPERN, HDFGWTR_EL2);
	assert_int_equal(sim_error_count(), 1);
	write_sysreg(HDFG_PMEVTYPERN, HDFGRTR_EL2);
	assert_int_equal(sim_error_count(), 2);
	assert_int_equal(sim_peek(1, VPERF_ENC_HDFGWTR_EL2), 0);
	assert_int_equal(sim_peek(1, VPERF_ENC_HDFGRTR_EL2), 0);
	(void)read_sysreg(HDFGRTR_EL2);
	assert_int_equal(sim_error_count(), 3);
	sim_set_cpu(0);
	write_sysreg(HDFG_PMEVTYPERN, HDFGWTR_EL2);
	assert_int_equal(read_sysreg(HDFGWTR_EL2), HDFG_PMEVTYPERN);
	assert_int_equal(sim_error_count(), 3);
	sim_poke(0, VPERF_ENC_HDFGWTR_EL2, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_counts_with_no_counter_trap, setup),
		cmocka_unit_test_setup(test_denied_event_as_trapped, setup),
		cmocka_unit_test_setup(test_ccfiltr_as_trapped, setup),
		cmocka_unit_test_setup(test_host_values_survive, setup),
		cmocka_unit_test_setup(test_host_values_survive_lazy_put, setup),
		cmocka_unit_test_setup(test_host_read_traps_survive_lazy_put, setup),
		cmocka_unit_test_setup(test_host_write_traps_survive_lazy_put, setup),
		cmocka_unit_test_setup(test_no_fgt_host_values_refused, setup),
		cmocka_unit_test_setup(test_pcpu_without_fgt, setup),
		cmocka_unit_test_setup(test_spe_events_hidden_from_direct, setup),
		cmocka_unit_test_setup(test_spe_events_by_spe_owner, setup),
		cmocka_unit_test_setup(test_hpmn0, setup),
		cmocka_unit_test_setup(test_no_hpmn0, setup),
		cmocka_unit_test_setup(test_pcpu_without_hpmn0_runs_trapped, setup),
		cmocka_unit_test_setup(test_model_fgt_rules, setup),
		cmocka_unit_test_setup(test_first_load_clears_firmware_traps, setup),
		cmocka_unit_test_setup(test_load_compares_each_register, setup),
		cmocka_unit_test_setup(test_fast_load_compares_hdfgrtr, setup),
		cmocka_unit_test_setup(test_fast_load_compares_hdfgwtr, setup),
		cmocka_unit_test_setup(test_written_only_when_changed, setup),
		cmocka_unit_test_setup(test_model_no_fgt_el2_access_flagged, setup),
		cmocka_unit_test_setup(test_el0_type_trap_judged_by_untrapped_grant, setup),
	};

	return cmocka_run_group_tests_name("vpmu_fgt", tests, NULL, NULL);
}
