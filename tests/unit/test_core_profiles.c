// SPDX-License-Identifier: MIT
/*
 * vperf on the PMU and SPE of real cores (sim/profiles.h; the values and their sources in
 * docs/cores.md): for each core profile, what vperf_pcpu_init probes, the ID register view and
 * PMCR_EL0 a trapped guest gets, and which policies vperf accepts, written out per core rather
 * than computed, so that a change of vperf's rules shows here core by core.
 */
#include "cmocka_wrap.h"

#include <string.h>

#include <arch/sysreg.h>
#include <sim/profiles.h>
#include <sim/spe.h>
#include <vperf/id_regs.h>
#include <vperf/pmu_regs.h>
#include <vperf/spe_regs.h>

#include "hv.h"
#include "world.h"

#define EV_CYCLES 0x11u

/* What vperf must give a VM on a system of one core profile. */
struct expect {
	const char *core;
	uint8_t guest_pmuver; /* ID_AA64DFR0_EL1.PMUVer a VM with a vPMU sees: at most PMUv3p5 */
	uint8_t guest_pmsver; /* PMSVer a VM with a vSPE sees: at most SPEv1p2 */
	bool lp;	      /* PMCR_EL0.LP a guest may set: PMUv3p5 */
	bool direct;	      /* a direct-partition policy is accepted */
	uint64_t pmsidr;      /* PMSIDR_EL1 a VM with a vSPE reads (SPE 4.3.11), 0 without SPE */
	uint8_t align;	      /* PMBIDR_EL1.Align it reads (SPE 4.3.1) */
};

/*
 * The direct partition needs PMUv3p5 (policy.c), and a core whose PMEVTYPER<n>_EL0.MT may count
 * other threads (MPIDR_EL1.MT = 1, MTPMU 0b0000: every Armv8.2+ core here) or whose SPE events
 * must be hidden from a VM without a vSPE needs FEAT_FGT to trap the types: no core here has it
 * (Neoverse V2's FEAT_FGT read 0 on Graviton4, docs/cores.md), so none accepts the direct partition.
 *
 * The SPE ID registers a VM sees are the core's (docs/cores.md, "SPE ID registers"): N1's
 * Interval 1024 (0b0100) and no ArchInst; V1's FE, FT, FL, LDS, MaxSize 64 bytes and Align 64
 * bytes (0b0110); the rest the model's defaults (Interval 256, MaxSize 64, 12-bit counters).
 */
#define IDR_FILTERS (PMSIDR_FE | PMSIDR_FT | PMSIDR_FL)
#define IDR_DEFAULT (IDR_FILTERS | PMSIDR_ARCHINST | PMSIDR_LDS | 6ull << 12 | 2ull << 16)
static const struct expect expects[SIM_NR_CORE_PROFILES] = {
	{ "cortex-a53", 1, 0, false, false, 0, 0 },
	{ "cortex-a57", 1, 0, false, false, 0, 0 },
	{ "cortex-a72", 1, 0, false, false, 0, 0 },
	{ "cortex-a76", 4, 0, false, false, 0, 0 },
	{ "neoverse-n1", 4, 1, false, false,
	  IDR_FILTERS | PMSIDR_LDS | 4ull << 8 | 6ull << 12 | 2ull << 16, 0 },
	{ "neoverse-v1", 5, 2, false, false, IDR_FILTERS | PMSIDR_LDS | 6ull << 12 | 2ull << 16,
	  6 },
	{ "neoverse-n2", 6, 2, true, false, IDR_DEFAULT, 0 },
	{ "neoverse-v2", 6, 2, true, false, IDR_DEFAULT, 0 },
};

static const struct sim_uop op3 = { .pc = 0x4000, .latency = 3, .type = SIM_UOP_OTHER };

/* Every pCPU the core p, each brought up with the host keeping 2 counters. */
static void boot(const struct sim_core_profile *p)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];
	const struct vperf_pcpu_config pcfg = { .host_counters = 2 };

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		sim_profile_config(p, &cfgs[cpu]);
		cfgs[cpu].seed = cpu + 1;
	}
	hv_init_model(cfgs);
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		assert_int_equal(hv_pcpu_up(cpu, &pcfg), VPERF_OK);
	sim_set_cpu(0);
}

/* vperf_pcpu_init reads the core's parameters from its ID registers as the profile has them. */
static void check_probe(const struct sim_core_profile *p)
{
	const struct vperf_pcpu_caps *c = &hv.pcpu[0].caps;

	assert_int_equal(c->pmuver, p->pmuver);
	assert_int_equal(c->nr_counters, p->nr_counters);
	assert_int_equal(c->pmsver, p->pmsver);
	assert_int_equal(c->aarch32, p->aarch32_el0);
	assert_int_equal(c->fgt, p->fgt);
	assert_int_equal(c->hpmn0, p->hpmn0);
	assert_int_equal(c->mt, p->mt);
	assert_int_equal(hv.pcpu[0].hpmn, p->nr_counters - 2);
}

/* A trapped VM with 4 counters (and a vSPE where the core has SPE): its ID_AA64DFR0_EL1 view,
 * PMCR_EL0, PMCEID0_EL0, PMSIDR_EL1, and its own cycles counted exactly. */
static uint64_t check_trapped(const struct sim_core_profile *p, const struct expect *e)
{
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 4 };
	uint64_t lc = p->aarch32_el0 ? 0 : PMCR_LC, dfr0, ceid;
	struct hv_vcpu *vc;

	cfg.spe = p->pmsver != 0;
	vperf_pmu_filter_allow_all(&cfg.filter);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	dfr0 = vperf_vcpu_id_dfr0(&vc->v, sim_peek(0, VPERF_ENC_ID_AA64DFR0_EL1));
	assert_int_equal(VPERF_FIELD_GET(dfr0, 11, 8), e->guest_pmuver);
	assert_int_equal(VPERF_FIELD_GET(dfr0, 35, 32), e->guest_pmsver);
	assert_int_equal(VPERF_FIELD_GET(dfr0, 63, 60), 0); /* no FEAT_HPMN0: no EL2 */
	/* Arm DDI 0487 K.a I5.3.21: N = the VM's 4, LC RES1 without AArch32 at EL0. */
	assert_int_equal(guest_read(PMCR_EL0), 4u << 11 | lc);
	guest_write(PMCR_EL0, PMCR_E | PMCR_LP);
	assert_int_equal(guest_read(PMCR_EL0), 4u << 11 | lc | PMCR_E | (e->lp ? PMCR_LP : 0));
	/* I5.3.6: CPU_CYCLES is there; the SPE events (0x4000-0x4003) only with a vSPE. */
	ceid = guest_read(PMCEID0_EL0);
	assert_true(ceid & VPERF_BIT(EV_CYCLES));
	assert_int_equal(ceid >> 32 & 0xf, p->pmsver ? 0xf : 0);
	if (p->pmsver) {
		uint64_t hw = sim_peek(0, VPERF_ENC_PMSIDR_EL1);

		assert_int_equal(guest_read(PMSIDR_EL1) & (PMSIDR_INTERVAL | PMSIDR_MAXSIZE),
				 hw & (PMSIDR_INTERVAL | PMSIDR_MAXSIZE));
		assert_int_equal(guest_read(PMSIDR_EL1), e->pmsidr);
		assert_int_equal(guest_read(PMBIDR_EL1) & PMBIDR_ALIGN, e->align);
	}
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMEVCNTR0_EL0, 0);
	guest_write(PMCNTENSET_EL0, 1);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	assert_int_equal(sim_error_count(), 0);
	return dfr0;
}

/* A direct VM with 2 counters, where the core allows one: its guest reads N = 2 (MDCR_EL2.HPMN,
 * Arm DDI 0487 K.a I5.3.21), sees the trapped VM's ID view, and counts its own cycles exactly. */
static void check_direct(const struct sim_core_profile *p, const struct expect *e,
			 uint64_t trapped_dfr0)
{
	uint64_t lc = p->aarch32_el0 ? 0 : PMCR_LC;
	struct hv_vcpu *vc = hv_vcpu(1, 1);

	hv_enter(vc, 0);
	assert_int_equal(vperf_vcpu_id_dfr0(&vc->v, sim_peek(0, VPERF_ENC_ID_AA64DFR0_EL1)) &
				 (ID_DFR0_PMUVER_MASK | ID_DFR0_HPMN0_MASK),
			 trapped_dfr0 & (ID_DFR0_PMUVER_MASK | ID_DFR0_HPMN0_MASK));
	assert_int_equal(guest_read(PMCR_EL0) & (PMCR_N_MASK | PMCR_LC), 2u << 11 | lc);
	guest_write(PMEVTYPER0_EL0, EV_CYCLES);
	guest_write(PMEVCNTR0_EL0, 0);
	guest_write(PMCNTENSET_EL0, 1);
	guest_write(PMCR_EL0, PMCR_E | (e->lp ? PMCR_LP : 0) | lc);
	hv_run_n(&op3, 10);
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 30);
	assert_int_equal(sim_error_count(), 0);
}

/* The direct partition where the core allows it, the emulated one everywhere. */
static void check_policies(const struct sim_core_profile *p, const struct expect *e,
			   uint64_t trapped_dfr0)
{
	struct vperf_vm_config direct = { .pmu_mode = VPERF_PMU_SELF,
					  .partition = VPERF_PART_DIRECT,
					  .nr_counters = 2 };
	struct vperf_vm_config emu = { .pmu_mode = VPERF_PMU_SELF,
				       .partition = VPERF_PART_EMULATED,
				       .nr_counters = 4,
				       .emu_slots = 2 };

	vperf_pmu_filter_allow_all(&direct.filter);
	vperf_pmu_filter_allow_all(&emu.filter);
	assert_int_equal(hv_vm(1, &direct), e->direct ? VPERF_OK : VPERF_EINVAL);
	assert_int_equal(hv_vm(2, &emu), VPERF_OK);
	if (e->direct)
		check_direct(p, e, trapped_dfr0);
}

static void test_each_core(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < SIM_NR_CORE_PROFILES; i++) {
		const struct sim_core_profile *p = &sim_core_profiles[i];
		const struct expect *e = &expects[i];

		print_message("%s\n", p->name);
		assert_string_equal(p->name, e->core);
		boot(p);
		check_probe(p);
		/* The tests' own question (hv_host.c), which HV_PROFILE runs skip the direct cases by. */
		assert_int_equal(hv_direct_offered(), e->direct);
		check_policies(p, e, check_trapped(p, e));
	}
}

/* The table: Arm's implementer code and part numbers (MIDR_EL1, docs/cores.md), names unique
 * and found by name; no name (NULL) is no profile. The model configuration of a profile has its
 * every parameter, and a core without SPE has no SPE ID registers (PMSIDR_EL1 and PMBIDR_EL1 read
 * 0, as ID_AA64DFR0_EL1.PMSVer = 0 says); one with SPE has the ID register fields found for it and
 * the model's defaults elsewhere. */
static void test_table(void **state)
{
	static const uint16_t parts[SIM_NR_CORE_PROFILES] = { 0xd03, 0xd07, 0xd08, 0xd0b,
							      0xd0c, 0xd40, 0xd49, 0xd4f };
	/* docs/cores.md: AArch32 at EL0 on all but Neoverse V2 (ID_AA64PFR0_EL1.EL0 = 1 read on a
	 * Graviton4), MPIDR_EL1.MT from Cortex-A76 on (read on an Altra and a Graviton3). */
	static const bool aarch32_el0[SIM_NR_CORE_PROFILES] = { true, true, true, true,
								true, true, true, false };
	static const bool mt[SIM_NR_CORE_PROFILES] = { false, false, false, true,
						       true,  true,  true,  true };

	(void)state;
	for (unsigned int i = 0; i < SIM_NR_CORE_PROFILES; i++) {
		const struct sim_core_profile *p = &sim_core_profiles[i];
		struct sim_pe_config cfg;

		assert_int_equal(SIM_MIDR_IMPLEMENTER(p->midr), 0x41);
		assert_int_equal(SIM_MIDR_PARTNUM(p->midr), parts[i]);
		assert_ptr_equal(sim_core_profile(p->name), p);
		assert_int_equal(p->aarch32_el0, aarch32_el0[i]);
		assert_int_equal(p->mt, mt[i]);
		memset(&cfg, 0xa5, sizeof(cfg));
		sim_profile_config(p, &cfg);
		assert_int_equal(cfg.pmuver, p->pmuver);
		assert_int_equal(cfg.nr_counters, p->nr_counters);
		assert_int_equal(cfg.aarch32_el0, p->aarch32_el0);
		assert_int_equal(cfg.pmsver, p->pmsver);
		assert_int_equal(cfg.fgt, p->fgt);
		assert_int_equal(cfg.hpmn0, p->hpmn0);
		assert_int_equal(cfg.mt, p->mt);
		assert_int_equal(cfg.mtpmu, p->mtpmu);
		if (!p->pmsver) {
			assert_int_equal(cfg.pmsidr, 0);
			assert_int_equal(cfg.pmbidr, 0);
		} else { /* the fields found, the model's defaults elsewhere */
			static const struct sim_spe_found none;
			const struct sim_spe_found *f = p->spe ? p->spe : &none;

			assert_int_equal(cfg.pmsidr & f->pmsidr_found, f->pmsidr & f->pmsidr_found);
			assert_int_equal(cfg.pmsidr & ~f->pmsidr_found,
					 sim_spe_default_pmsidr(p->pmsver) & ~f->pmsidr_found);
			assert_int_equal(cfg.pmbidr & f->pmbidr_found, f->pmbidr & f->pmbidr_found);
			assert_int_equal(cfg.pmbidr & ~f->pmbidr_found,
					 sim_spe_default_pmbidr() & ~f->pmbidr_found);
		}
	}
	assert_null(sim_core_profile("cortex-a99"));
	assert_null(sim_core_profile(NULL));
}

/* test_isolation_worlds draws one world in four from the profiles (world.c): each such pCPU is
 * its core exactly (PMU, SPE, FGT, HPMN0, MT, AArch32 at EL0, no external agent), every core
 * appears, and a world not drawn from them has no profile pCPU at all. */
static void test_worlds_draw_profiles(void **state)
{
	unsigned int worlds = 0, seen[SIM_NR_CORE_PROFILES] = { 0 };

	(void)state;
	for (uint64_t seed = 1; seed <= 400; seed++) {
		struct world w;
		bool any = false, all = true;

		world_draw(seed, &w);
		for (unsigned int c = 0; c < w.nr_cpus; c++) {
			const struct sim_core_profile *p = sim_core_profile(w.cpu[c].profile);
			const struct sim_pe_config *pe = &w.cpu[c].pe;

			any |= p != NULL;
			all &= p != NULL;
			if (!p)
				continue;
			seen[p - sim_core_profiles]++;
			assert_int_equal(pe->pmuver, p->pmuver);
			assert_int_equal(pe->nr_counters, p->nr_counters);
			assert_int_equal(pe->pmsver, p->pmsver);
			assert_int_equal(pe->fgt, p->fgt);
			assert_int_equal(pe->hpmn0, p->hpmn0);
			assert_int_equal(pe->mt, p->mt);
			assert_int_equal(pe->aarch32_el0, p->aarch32_el0);
			assert_false(pe->extpmn);
			assert_int_equal(w.cpu[c].pc.agent_counters, 0);
		}
		assert_true(any == all); /* a profile world is profiles throughout */
		worlds += any;
	}
	assert_in_range(worlds, 60, 140); /* one in four of 400 */
	for (unsigned int i = 0; i < SIM_NR_CORE_PROFILES; i++)
		assert_true(seen[i] > 0);
}

/* One world in six keeps SPE's buffer in the firmware (MDCR_EL3.NSPB) on some of its pCPUs with
 * SPE (world.c, draw_spe_el3), core profiles included: only where SPE is, and never with the
 * host profiling there (host_spe). */
static void test_worlds_draw_spe_el3(void **state)
{
	unsigned int worlds = 0, cpus = 0, profiled = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 600; seed++) {
		struct world w;
		bool any = false;

		world_draw(seed, &w);
		for (unsigned int c = 0; c < w.nr_cpus; c++) {
			if (!w.cpu[c].pe.mdcr_el3_nspb_secure)
				continue;
			assert_true(w.cpu[c].pe.pmsver != 0);
			assert_true(w.cpu[c].pe.el3);
			assert_false(w.cpu[c].pc.host_spe);
			any = true;
			cpus++;
			profiled += w.cpu[c].profile != NULL;
		}
		worlds += any;
	}
	assert_in_range(worlds, 40, 110); /* 67: 1/6 of 600, less those where none is drawn */
	assert_true(cpus > worlds);
	assert_true(profiled > 0);
}

/* The profiles are drawn from a stream of their own (world.c): every other part of a world is
 * drawn as before they existed, so that a world a report names stays that world. World 606265
 * (docs/model.md, the CHAIN defect fixed in virt/vpmu/map.c) is still three pCPUs, none a core
 * profile, two with PMUv3p5 and one with PMUv3p1 (PMUVer 6, 6, 4), three VMs, VM 0
 * XENPMU_MODE_HV in the emulated partition with N = 2 on one slot and a vSPE, five vCPUs (VM 0's
 * the first two) and 58 schedule slots. */
static void test_worlds_keep_their_draw(void **state)
{
	static const uint8_t pmuvers[3] = { 6, 6, 4 }, vcpu_vm[5] = { 0, 0, 1, 2, 2 };
	struct world w;

	(void)state;
	world_draw(606265, &w);
	assert_int_equal(w.nr_cpus, 3);
	for (unsigned int c = 0; c < w.nr_cpus; c++) {
		assert_null(w.cpu[c].profile);
		assert_int_equal(w.cpu[c].pe.pmuver, pmuvers[c]);
	}
	assert_int_equal(w.nr_vms, 3);
	assert_int_equal(w.vm[0].cfg.pmu_mode, VPERF_PMU_HV);
	assert_int_equal(w.vm[0].cfg.partition, VPERF_PART_EMULATED);
	assert_int_equal(w.vm[0].cfg.nr_counters, 2);
	assert_int_equal(w.vm[0].cfg.emu_slots, 1);
	assert_true(w.vm[0].cfg.spe);
	assert_int_equal(w.nr_vcpus, 5);
	for (unsigned int k = 0; k < w.nr_vcpus; k++)
		assert_int_equal(w.vcpu_vm[k], vcpu_vm[k]);
	assert_int_equal(w.nr_slots, 58);
	for (unsigned int c = 0; c < w.nr_cpus; c++)
		assert_false(w.cpu[c].pe.mdcr_el3_nspb_secure);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_each_core),
		cmocka_unit_test(test_worlds_draw_profiles),
		cmocka_unit_test(test_worlds_keep_their_draw),
		cmocka_unit_test(test_worlds_draw_spe_el3),
	};

	return cmocka_run_group_tests_name("core_profiles", tests, NULL, NULL);
}
