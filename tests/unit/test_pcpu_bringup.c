// SPDX-License-Identifier: MIT
/*
 * A pCPU brought up (vperf_pcpu_init) after a VM exists must give that VM its policy, or be
 * refused: a VM's policy was checked against the pCPUs initialised before it (vperf_vm_init),
 * and it runs on every pCPU. On a later pCPU whose first range is smaller than the VM's N, a
 * trapped guest's PMXEVCNTR_EL0 (and its restore) would reach a host counter and a direct
 * guest would own one; one that does not enforce MDCR_EL2.HPMN would run a direct guest with
 * TPM = 0; a lower PMUVer or PMSVer, a common event fewer (PMCEID) or no AArch32 at EL0
 * (PMCR_EL0.LC, D) would change what a guest was shown; one without the host's
 * Profiling Buffer would leave a VM profiled from outside unprofiled. Every test builds a
 * heterogeneous system on the model (CPU 1 with fewer counters, an older PMU or SPE, no EL3),
 * brings the VM up first, then the smaller or weaker pCPU 1, and expects VPERF_EINVAL, a log line
 * naming the reason and the refusal counted; the pCPU initialised again with what it had (a CPU
 * reset) is still accepted. FEAT_FGT and FEAT_HPMN0 are not demanded: a direct VM that needs
 * them runs trapped on a pCPU without them (test_vpmu_fgt_host.c, test_vpmu_hpmn0.c).
 */
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <sim/spe.h>
#include <vperf/id_regs.h>
#include <vperf/pmu_regs.h>

#include "hv.h"
#include "vpmu_util.h"

static const struct vperf_pcpu_config host2 = { .host_counters = 2 };

/* A heterogeneous system: every CPU is cfg0 but CPU 1, cfg1 (sim_model_init_cpus); vperf started
 * again with only pCPU 0 initialised (pcfg). */
static void world(const struct sim_pe_config *cfg0, const struct sim_pe_config *cfg1,
		  const struct vperf_pcpu_config *pcfg)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		cfgs[cpu] = cpu == 1 ? *cfg1 : *cfg0;
	hv_init_cpus(cfgs, 2);
	vperf_init(hv_ops());
	sim_set_cpu(0);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], pcfg), VPERF_OK);
}

/* The default PE (PMUv3p5, 6 counters, EL3) everywhere. */
static void only_pcpu0(const struct vperf_pcpu_config *pcfg)
{
	struct sim_pe_config cfg;

	hv_default_config(&cfg);
	cfg.pmuver = 6;
	world(&cfg, &cfg, pcfg);
}

/* pCPU 1 with pcfg; its result, the log line checked to contain why when refused. */
static int bring_up_pcpu1(const struct vperf_pcpu_config *pcfg, const char *why)
{
	int err;

	hv.last_log[0] = '\0';
	sim_set_cpu(1);
	err = vperf_pcpu_init(&hv.pcpu[1], pcfg);
	sim_set_cpu(0);
	if (err == VPERF_EINVAL) {
		assert_non_null(strstr(hv.last_log, why));
#ifdef CONFIG_VPERF_STATS
		assert_int_equal(hv.pcpu[1].stats.refused, 1);
#endif
	}
	return err;
}

static struct vperf_vm_config part(enum vperf_partition p, uint8_t n)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_HV, n);

	cfg.partition = p;
	return cfg;
}

/* The default PE, PMUv3p5, and one like it with 5 counters instead of 6: the host keeping 2,
 * its first range is [0, 3), while the VMs' N is 4. */
static void smaller_pe(struct sim_pe_config *big, struct sim_pe_config *small)
{
	hv_default_config(big);
	big->pmuver = 6;
	*small = *big;
	small->nr_counters = 5;
}

static void smaller_range_refused(const struct vperf_vm_config *vm)
{
	const struct vperf_pcpu_config host1 = { .host_counters = 1 };
	struct sim_pe_config big, small;

	smaller_pe(&big, &small);
	world(&big, &small, &host2);
	assert_int_equal(hv_vm(0, vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, "first range"), VPERF_EINVAL);
	/* The host keeping one counter there: [0, 4), accepted. */
	assert_int_equal(bring_up_pcpu1(&host1, ""), VPERF_OK);
	/* A CPU reset of pCPU 0, initialised again as it was: accepted. */
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &host2), VPERF_OK);
}

static void test_trapped_vm_smaller_range(void **state)
{
	struct vperf_vm_config vm = part(VPERF_PART_TRAPPED, 4);

	(void)state;
	smaller_range_refused(&vm);
}

static void test_direct_vm_smaller_range(void **state)
{
	struct vperf_vm_config vm = part(VPERF_PART_DIRECT, 4);

	(void)state;
	smaller_range_refused(&vm);
}

static void test_emulated_vm_smaller_range(void **state)
{
	struct vperf_vm_config vm = part(VPERF_PART_EMULATED, 2);

	(void)state;
	vm.emu_slots = 4;
	smaller_range_refused(&vm);
}

/* What the refusal prevents: without it, on the 5-counter pCPU a trapped guest's counter 3 was
 * the host's counter 3 (its second range [3, 5)): the host's count overwritten, through
 * PMXEVCNTR_EL0 or the restore of the guest's counters. */
static void test_host_counter_not_reached(void **state)
{
	struct vperf_vm_config vm = part(VPERF_PART_TRAPPED, 4);
	struct sim_pe_config big, small;
	struct hv_vcpu *a;

	(void)state;
	smaller_pe(&big, &small);
	world(&big, &small, &host2);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	if (bring_up_pcpu1(&host2, "first range") == VPERF_EINVAL)
		return;
	sim_poke(1, VPERF_ENC_PMEVCNTR3_EL0, 4242);
	a = hv_vcpu(0, 0);
	hv_enter(a, 1);
	guest_write(PMEVCNTR3_EL0, 1);
	guest_write(PMSELR_EL0, 3);
	guest_write(PMXEVCNTR_EL0, 2);
	assert_int_equal(sim_peek(1, VPERF_ENC_PMEVCNTR3_EL0), 4242);
}

/* A pCPU that does not enforce MDCR_EL2.HPMN at EL1, after a direct VM. */
static void test_direct_vm_unenforced_hpmn(void **state)
{
	const struct vperf_pcpu_config unenforced = { .host_counters = 2, .hpmn_unenforced = true };
	struct vperf_vm_config vm = part(VPERF_PART_DIRECT, 2);

	(void)state;
	only_pcpu0(&host2);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&unenforced, "HPMN"), VPERF_EINVAL);
	/* Without a direct VM it is a pCPU like another. */
	only_pcpu0(&host2);
	vm.partition = VPERF_PART_TRAPPED;
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&unenforced, ""), VPERF_OK);
}

/* A direct VM holds PMEVTYPER<n>_EL0.NSK, NSU and M itself where every pCPU had EL3: a later
 * pCPU without EL3 (where those fields are RES0) is refused; a trapped VM does not care. */
static void test_direct_vm_el3_fields(void **state)
{
	struct vperf_vm_config vm = part(VPERF_PART_DIRECT, 2);
	struct sim_pe_config cfg, no_el3;

	(void)state;
	hv_default_config(&cfg);
	cfg.pmuver = 6;
	no_el3 = cfg;
	no_el3.el3 = false;
	world(&cfg, &no_el3, &host2);
	assert_true(hv.pcpu[0].caps.el3);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, "EL3"), VPERF_EINVAL);
	world(&cfg, &no_el3, &host2);
	vm.partition = VPERF_PART_TRAPPED;
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, ""), VPERF_OK);
}

/* The same for PMCR_EL0.X, which a direct VM holds where every pCPU had an event export bus. */
static void test_direct_vm_export_bus(void **state)
{
	struct vperf_vm_config vm = part(VPERF_PART_DIRECT, 2);
	struct sim_pe_config cfg, no_bus;

	(void)state;
	hv_default_config(&cfg);
	cfg.pmuver = 6;
	cfg.pmu_export_bus = true;
	no_bus = cfg;
	no_bus.pmu_export_bus = false;
	world(&cfg, &no_bus, &host2);
	assert_true(hv.pcpu[0].caps.export_bus);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, "export bus"), VPERF_EINVAL);
	world(&cfg, &no_bus, &host2);
	vm.partition = VPERF_PART_TRAPPED;
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, ""), VPERF_OK);
}

/*
 * Every pCPU with AArch32 at EL0: a guest's PMCR_EL0.LC and D hold what it writes (I5.3.21), and
 * the hardware applies them (LC = 0: the cycle counter overflows at 2^32). A later pCPU without
 * AArch32 at EL0, where LC is RES1, could do neither for a VM of any partition with a vPMU: its
 * guest would read LC = 1 where it had written 0, or run with 64-bit overflows there. Refused;
 * with the VM's vPMU off, accepted. The guest's PMCR_EL0 keeps its LC = 0 across the refusal.
 */
static void test_aarch32_lc(void **state)
{
	const enum vperf_partition parts[] = { VPERF_PART_TRAPPED, VPERF_PART_EMULATED,
					       VPERF_PART_DIRECT };
	struct sim_pe_config cfg, a64;

	(void)state;
	hv_default_config(&cfg);
	cfg.pmuver = 6;
	cfg.aarch32_el0 = true;
	a64 = cfg;
	a64.aarch32_el0 = false;
	for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(parts); i++) {
		struct vperf_vm_config vm = part(parts[i], 2);

		world(&cfg, &a64, &host2);
		assert_int_equal(hv_vm(0, &vm), VPERF_OK);
		hv_enter(hv_vcpu(0, 0), 0);
		guest_write(PMCR_EL0, PMCR_E);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_LC, 0);
		hv_leave(0);
		assert_int_equal(bring_up_pcpu1(&host2, "AArch32"), VPERF_EINVAL);
		hv_enter(hv_vcpu(0, 0), 0);
		assert_int_equal(guest_read(PMCR_EL0) & PMCR_LC, 0);
		hv_leave(0);
	}
	world(&cfg, &a64, &host2);
	{
		struct vperf_vm_config off = { .pmu_mode = VPERF_PMU_OFF };

		assert_int_equal(hv_vm(0, &off), VPERF_OK);
	}
	assert_int_equal(bring_up_pcpu1(&host2, ""), VPERF_OK);
}

/*
 * A VM's PMCEID0_EL0 shows the common events every pCPU up counts (through its filter). A later
 * pCPU without one of them (here INST_RETIRED, 0x08: PMCEID0_EL0 bit 8) would change what it
 * reads, and count nothing there for an event it was told exists: refused, the guest's view
 * unchanged. A VM whose filter denies 0x08 was never shown it, nor a VM without a vPMU whatever
 * its filter allows: accepted.
 */
static void test_lower_pmceid(void **state)
{
	struct vperf_vm_config vm = part(VPERF_PART_TRAPPED, 2);
	uint64_t shown;

	(void)state;
	only_pcpu0(&host2);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	sim_poke(1, VPERF_ENC_PMCEID0_EL0, sim_peek(1, VPERF_ENC_PMCEID0_EL0) & ~VPERF_BIT(8));
	hv_enter(hv_vcpu(0, 0), 0);
	shown = guest_read(PMCEID0_EL0);
	assert_true(shown & VPERF_BIT(8));
	hv_leave(0);
	assert_int_equal(bring_up_pcpu1(&host2, "common event"), VPERF_EINVAL);
	hv_enter(hv_vcpu(0, 0), 0);
	assert_int_equal(guest_read(PMCEID0_EL0), shown);
	hv_leave(0);
	only_pcpu0(&host2);
	vperf_pmu_filter_set(&vm.filter, 0x08, false);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	sim_poke(1, VPERF_ENC_PMCEID0_EL0, sim_peek(1, VPERF_ENC_PMCEID0_EL0) & ~VPERF_BIT(8));
	assert_int_equal(bring_up_pcpu1(&host2, ""), VPERF_OK);
	only_pcpu0(&host2);
	{
		struct vperf_vm_config off = policy(VPERF_PMU_OFF, 0);

		assert_int_equal(hv_vm(0, &off), VPERF_OK);
	}
	sim_poke(1, VPERF_ENC_PMCEID0_EL0, sim_peek(1, VPERF_ENC_PMCEID0_EL0) & ~VPERF_BIT(8));
	assert_int_equal(bring_up_pcpu1(&host2, ""), VPERF_OK);
}

/*
 * The same for PMCEID1_EL0 (common events 0x20-0x3F), a word of its own in the refusal. The
 * model counts none of them: both CPUs are given STALL_FRONTEND and STALL_BACKEND (0x23, 0x24:
 * bits 3 and 4) and vperf started again on pCPU 0. A later pCPU without STALL_BACKEND is refused;
 * with both, accepted.
 */
static void test_lower_pmceid1(void **state)
{
	struct vperf_vm_config vm = part(VPERF_PART_TRAPPED, 2);
	const uint64_t stalls = VPERF_BIT(3) | VPERF_BIT(4);

	(void)state;
	only_pcpu0(&host2);
	sim_poke(0, VPERF_ENC_PMCEID1_EL0, stalls);
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &host2), VPERF_OK);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	assert_int_equal(guest_read(PMCEID1_EL0), stalls);
	hv_leave(0);
	sim_poke(1, VPERF_ENC_PMCEID1_EL0, VPERF_BIT(3));
	assert_int_equal(bring_up_pcpu1(&host2, "common event"), VPERF_EINVAL);
	sim_poke(1, VPERF_ENC_PMCEID1_EL0, stalls);
	assert_int_equal(bring_up_pcpu1(&host2, ""), VPERF_OK);
}

/* pCPUs alike so far, PMUv3p5 with FEAT_FGT (a filtered direct VM's types and PMCEID reads trap),
 * SPE of PMSVer pmsver (0: none, whose events would be hidden from a VM without a vSPE); only
 * pCPU 0 up. */
static void fgt_world(uint8_t pmsver)
{
	struct sim_pe_config cfg;

	sim_spe_default_config(&cfg, pmsver);
	cfg.pmuver = 6;
	cfg.fgt = true;
	world(&cfg, &cfg, &host2);
}

/* pCPU 1 with one event more than pCPU 0 in PMCEID<reg>_EL0: L1I_CACHE_REFILL (0x01: PMCEID0_EL0
 * bit 1) or STALL_FRONTEND (0x23: PMCEID1_EL0 bit 3), neither of which the model's CPUs list. Its
 * bring-up's result, the log line checked to contain why when refused. */
static int event_more(unsigned int reg, const char *why)
{
	uint32_t enc = reg ? VPERF_ENC_PMCEID1_EL0 : VPERF_ENC_PMCEID0_EL0;

	sim_poke(1, enc, sim_peek(1, enc) | VPERF_BIT(reg ? 3 : 1));
	assert_int_not_equal(sim_peek(1, enc), sim_peek(0, enc));
	return bring_up_pcpu1(&host2, why);
}

#define READS_UNTRAPPED "a direct VM reads untrapped"

/*
 * A direct VM that reads PMCEID0/1_EL0 untrapped (no filter, no SPE events to hide, every pCPU
 * alike so far: the hardware's value is the platform's) would read a later pCPU's own: one whose
 * common events differ at all, with one more in either register, is refused (one fewer is, as
 * for any VM: test_lower_pmceid). A trapped VM reads the platform's, which one more does not
 * change: accepted.
 */
static void test_direct_vm_pmceid_exact(void **state)
{
	struct vperf_vm_config direct = part(VPERF_PART_DIRECT, 2);
	struct vperf_vm_config trapped = part(VPERF_PART_TRAPPED, 2);

	(void)state;
	for (unsigned int reg = 0; reg < 2; reg++) {
		fgt_world(0);
		assert_int_equal(hv_vm(0, &direct), VPERF_OK);
		assert_int_equal(event_more(reg, READS_UNTRAPPED), VPERF_EINVAL);
		fgt_world(0);
		assert_int_equal(hv_vm(0, &trapped), VPERF_OK);
		assert_int_equal(event_more(reg, ""), VPERF_OK);
	}
}

/*
 * The same for a later pCPU with SPE, where the platform had none when the direct VM came: its
 * PMU has SPE's SAMPLE_* events (SPE 2.6, PMCEID0_EL0 bits 32-35), which that VM's untrapped
 * PMCEID0_EL0 would list and its untrapped PMEVTYPER<n>_EL0 count, the host's sampling included
 * (a VM without a vSPE is shown none). Refused; a trapped VM's are hidden: accepted.
 */
static void test_direct_vm_later_spe_pcpu(void **state)
{
	const enum vperf_partition parts[] = { VPERF_PART_DIRECT, VPERF_PART_TRAPPED };
	struct sim_pe_config cfg, spe;

	(void)state;
	hv_default_config(&cfg);
	cfg.pmuver = 6;
	sim_spe_default_config(&cfg, 0);
	spe = cfg;
	sim_spe_default_config(&spe, 1);
	for (unsigned int k = 0; k < 2; k++) {
		struct vperf_vm_config vm = part(parts[k], 2);

		world(&cfg, &spe, &host2);
		assert_int_equal(hv_vm(0, &vm), VPERF_OK);
		assert_int_equal(bring_up_pcpu1(&host2, k ? "" : READS_UNTRAPPED),
				 k ? VPERF_OK : VPERF_EINVAL);
	}
}

/* A direct VM whose event filter denies INST_RETIRED has its types and PMCEID0/1_EL0 reads
 * trapped (FEAT_FGT): it reads the platform's events, which one more does not change. */
static void test_filtered_direct_vm_pmceid_trapped(void **state)
{
	struct vperf_vm_config filtered = part(VPERF_PART_DIRECT, 2);

	(void)state;
	vperf_pmu_filter_set(&filtered.filter, 0x08, false);
	for (unsigned int reg = 0; reg < 2; reg++) {
		fgt_world(0);
		assert_int_equal(hv_vm(0, &filtered), VPERF_OK);
		assert_int_equal(event_more(reg, ""), VPERF_OK);
	}
}

/* The demand stays when a VM that demands no exact events (trapped) is created after the direct
 * one: still refused. */
static void test_pmceid_exact_of_every_vm(void **state)
{
	struct vperf_vm_config direct = part(VPERF_PART_DIRECT, 2);
	struct vperf_vm_config trapped = part(VPERF_PART_TRAPPED, 2);

	(void)state;
	fgt_world(0);
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	assert_int_equal(hv_vm(1, &trapped), VPERF_OK);
	assert_int_equal(event_more(0, READS_UNTRAPPED), VPERF_EINVAL);
}

/* A VM shown PMUv3p5 (64-bit counters, PMCR_EL0.LP), then a pCPU of PMUv3p4, or with no PMUv3
 * (ID_AA64DFR0_EL1.PMUVer poked to 0: no counter for the host either): trapped or direct. */
static void test_lower_pmuver(void **state)
{
	const enum vperf_partition parts[] = { VPERF_PART_TRAPPED, VPERF_PART_DIRECT };
	const struct vperf_pcpu_config none = { .host_counters = 0 };
	struct sim_pe_config cfg, v3p4, v3p7;

	(void)state;
	hv_default_config(&cfg);
	cfg.pmuver = 6;
	v3p4 = cfg;
	v3p4.pmuver = 5;
	v3p7 = cfg;
	v3p7.pmuver = 7;
	for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(parts); i++) {
		struct vperf_vm_config vm = part(parts[i], 2);
		uint64_t dfr0;

		world(&cfg, &v3p4, &host2);
		assert_int_equal(hv_vm(0, &vm), VPERF_OK);
		assert_int_equal(bring_up_pcpu1(&host2, "PMUVer"), VPERF_EINVAL);
		dfr0 = sim_peek(1, VPERF_ENC_ID_AA64DFR0_EL1) & ~ID_DFR0_PMUVER_MASK;
		sim_poke(1, VPERF_ENC_ID_AA64DFR0_EL1, dfr0);
		assert_int_equal(bring_up_pcpu1(&none, "PMUVer"), VPERF_EINVAL);
		/* A later version shows the VM nothing new (capped at PMUv3p5): accepted. */
		world(&cfg, &v3p7, &host2);
		assert_int_equal(hv_vm(0, &vm), VPERF_OK);
		assert_int_equal(bring_up_pcpu1(&host2, ""), VPERF_OK);
	}
	/* A VM without a vPMU relies on no PMU. */
	world(&cfg, &v3p4, &host2);
	{
		struct vperf_vm_config off = { .pmu_mode = VPERF_PMU_OFF };

		assert_int_equal(hv_vm(0, &off), VPERF_OK);
	}
	assert_int_equal(bring_up_pcpu1(&host2, ""), VPERF_OK);
}

/* The demands are every VM's together, not the last one's: a VM with fewer counters after one
 * with more, or a trapped VM after a direct one, lowers none of them. */
static void test_demands_of_every_vm(void **state)
{
	const struct vperf_pcpu_config unenforced = { .host_counters = 2, .hpmn_unenforced = true };
	struct vperf_vm_config big = part(VPERF_PART_TRAPPED, 4);
	struct vperf_vm_config small = part(VPERF_PART_TRAPPED, 2);
	struct vperf_vm_config direct = part(VPERF_PART_DIRECT, 2);
	struct sim_pe_config bigpe, smallpe;

	(void)state;
	smaller_pe(&bigpe, &smallpe);
	world(&bigpe, &smallpe, &host2);
	assert_int_equal(hv_vm(0, &big), VPERF_OK);
	assert_int_equal(hv_vm(1, &small), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, "first range"), VPERF_EINVAL);
	only_pcpu0(&host2);
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	assert_int_equal(hv_vm(1, &small), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&unenforced, "HPMN"), VPERF_EINVAL);
}

/* The same for the common events and AArch32 at EL0: a VM created after one shown INST_RETIRED
 * (0x08) and PMCR_EL0.LC, without a vPMU (it demands neither) or with a filter denying 0x08,
 * lowers neither: a later pCPU without the event, or without AArch32 at EL0, is still refused. */
static void test_events_and_lc_of_every_vm(void **state)
{
	struct vperf_vm_config vm = part(VPERF_PART_TRAPPED, 2);
	struct vperf_vm_config off = policy(VPERF_PMU_OFF, 0);
	struct vperf_vm_config denied = part(VPERF_PART_TRAPPED, 2);
	struct sim_pe_config cfg, a64;

	(void)state;
	vperf_pmu_filter_set(&denied.filter, 0x08, false);
	for (unsigned int i = 0; i < 2; i++) {
		only_pcpu0(&host2);
		assert_int_equal(hv_vm(0, &vm), VPERF_OK);
		assert_int_equal(hv_vm(1, i ? &denied : &off), VPERF_OK);
		sim_poke(1, VPERF_ENC_PMCEID0_EL0,
			 sim_peek(1, VPERF_ENC_PMCEID0_EL0) & ~VPERF_BIT(8));
		assert_int_equal(bring_up_pcpu1(&host2, "common event"), VPERF_EINVAL);
	}
	hv_default_config(&cfg);
	cfg.pmuver = 6;
	cfg.aarch32_el0 = true;
	a64 = cfg;
	a64.aarch32_el0 = false;
	world(&cfg, &a64, &host2);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(hv_vm(1, &off), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, "AArch32"), VPERF_EINVAL);
}

/* PMUv3p7 on the first pCPU: a trapped VM is shown PMUv3p5, vperf's cap (vperf_vcpu_id_dfr0),
 * so a later PMUv3p5 pCPU gives it everything; a direct VM holds the hardware's own PMUv3p7
 * registers and refuses that pCPU, also with a trapped VM created after it. */
static void test_pmuver_cap(void **state)
{
	struct vperf_vm_config trapped = part(VPERF_PART_TRAPPED, 2);
	struct vperf_vm_config direct = part(VPERF_PART_DIRECT, 2);
	struct sim_pe_config v3p7, v3p5;

	(void)state;
	hv_default_config(&v3p7);
	v3p7.pmuver = 7;
	v3p5 = v3p7;
	v3p5.pmuver = 6;
	world(&v3p7, &v3p5, &host2);
	assert_int_equal(hv_vm(0, &trapped), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, ""), VPERF_OK);
	world(&v3p7, &v3p5, &host2);
	assert_int_equal(hv_vm(0, &direct), VPERF_OK);
	assert_int_equal(hv_vm(1, &trapped), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, "PMUVer"), VPERF_EINVAL);
}

#ifdef CONFIG_VPERF_VSPE
static struct vperf_vm_config spe_vm(enum vperf_spe_buffer buf)
{
	struct vperf_vm_config vm = policy(VPERF_PMU_OFF, 0);

	vm.spe = true;
	vm.spe_buffer = buf;
	return vm;
}

/* A VM with a vSPE shown SPEv1p1, then a pCPU with SPEv1, or with no SPE. */
static void test_lower_pmsver(void **state)
{
	struct vperf_vm_config vm = spe_vm(VPERF_SPE_BUF_EL1_TRAPPED);
	struct sim_pe_config v1p1, v1, none;

	(void)state;
	sim_spe_default_config(&v1p1, 2);
	sim_spe_default_config(&v1, 1);
	hv_default_config(&none);
	world(&v1p1, &v1, &host2);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, "PMSVer"), VPERF_EINVAL);
	world(&v1p1, &none, &host2);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, "PMSVer"), VPERF_EINVAL);
	world(&v1p1, &v1p1, &host2);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, ""), VPERF_OK);
}

/* A direct VM with a vSPE whose guest owns its Profiling Buffer untrapped (VPERF_SPE_BUF_EL1):
 * FEAT_FGT traps its PMBSR_EL1 accesses alone, its PMCEID0/1_EL0 reads stay untrapped (the
 * SAMPLE_* events are its own, not hidden): a later pCPU with an event more is refused. */
static void test_direct_spe_vm_pmceid_exact(void **state)
{
	struct vperf_vm_config vm = part(VPERF_PART_DIRECT, 2);

	(void)state;
	vm.spe = true;
	vm.spe_buffer = VPERF_SPE_BUF_EL1;
	fgt_world(1);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(event_more(0, READS_UNTRAPPED), VPERF_EINVAL);
}

/* A VM profiled from outside (VPERF_SPE_BUF_EL2) needs the host's own Profiling Buffer on every
 * pCPU it runs on. */
static void test_outside_spe_needs_host_spe(void **state)
{
	const struct vperf_pcpu_config host_spe = { .host_counters = 2, .host_spe = true };
	struct vperf_vm_config vm = spe_vm(VPERF_SPE_BUF_EL2);
	struct sim_pe_config cfg;

	(void)state;
	sim_spe_default_config(&cfg, 1);
	world(&cfg, &cfg, &host_spe);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, "host_spe"), VPERF_EINVAL);
	assert_int_equal(bring_up_pcpu1(&host_spe, ""), VPERF_OK);
}
#endif

/* The demands stay after the VM: vperf has no VM destroy call. A new vperf_init starts over. */
static void test_vperf_init_starts_over(void **state)
{
	struct vperf_vm_config vm = part(VPERF_PART_TRAPPED, 4);
	struct sim_pe_config big, small;

	(void)state;
	smaller_pe(&big, &small);
	world(&big, &small, &host2);
	assert_int_equal(hv_vm(0, &vm), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, "first range"), VPERF_EINVAL);
	vperf_init(hv_ops());
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &host2), VPERF_OK);
	assert_int_equal(bring_up_pcpu1(&host2, ""), VPERF_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trapped_vm_smaller_range),
		cmocka_unit_test(test_direct_vm_smaller_range),
		cmocka_unit_test(test_emulated_vm_smaller_range),
		cmocka_unit_test(test_host_counter_not_reached),
		cmocka_unit_test(test_direct_vm_unenforced_hpmn),
		cmocka_unit_test(test_direct_vm_el3_fields),
		cmocka_unit_test(test_direct_vm_export_bus),
		cmocka_unit_test(test_aarch32_lc),
		cmocka_unit_test(test_lower_pmceid),
		cmocka_unit_test(test_lower_pmceid1),
		cmocka_unit_test(test_direct_vm_pmceid_exact),
		cmocka_unit_test(test_direct_vm_later_spe_pcpu),
		cmocka_unit_test(test_filtered_direct_vm_pmceid_trapped),
		cmocka_unit_test(test_pmceid_exact_of_every_vm),
		cmocka_unit_test(test_lower_pmuver),
		cmocka_unit_test(test_demands_of_every_vm),
		cmocka_unit_test(test_events_and_lc_of_every_vm),
		cmocka_unit_test(test_pmuver_cap),
#ifdef CONFIG_VPERF_VSPE
		cmocka_unit_test(test_lower_pmsver),
		cmocka_unit_test(test_outside_spe_needs_host_spe),
		cmocka_unit_test(test_direct_spe_vm_pmceid_exact),
#endif
		cmocka_unit_test(test_vperf_init_starts_over),
	};

	return cmocka_run_group_tests_name("pcpu_bringup", tests, NULL, NULL);
}
