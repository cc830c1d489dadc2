/* SPDX-License-Identifier: MIT */
/*
 * What the vPMU tests on the model share (test_vpmu*.c): event numbers and
 * PMEVTYPER filter bits (Arm DDI 0487 K.a I5.3.30), the two-VM world, and peeks at the hardware the
 * guest cannot make.
 */
#ifndef VPERF_TEST_VPMU_UTIL_H
#define VPERF_TEST_VPMU_UTIL_H

#include <sim/model.h>
#include <vperf/esr.h>

#include "hv.h"

#define EV_SW_INCR 0x00
#define EV_INST	   0x08
#define EV_CYCLES  0x11
#define EV_CHAIN   0x1e
#define P_BIT	   VPERF_BIT(31)
#define U_BIT	   VPERF_BIT(30)
#define NSK_BIT	   VPERF_BIT(29)
#define NSU_BIT	   VPERF_BIT(28)
#define NSH_BIT	   VPERF_BIT(27)
#define M_BIT	   VPERF_BIT(26)

/* A guest micro-op of 3 cycles. */
static const struct sim_uop op3 = { .pc = 0x4000, .latency = 3, .type = SIM_UOP_OTHER };

/* A trapped-partition policy with every event allowed. */
static inline struct vperf_vm_config policy(enum vperf_pmu_mode mode, uint8_t nr)
{
	struct vperf_vm_config cfg = { .pmu_mode = mode, .nr_counters = nr };

	vperf_pmu_filter_allow_all(&cfg.filter);
	return cfg;
}

/* N = 6, the host keeps 2 counters: guests get [0, 4), the host [4, 6). VM 0 is SELF with 3
 * counters, VM 1 HV with 4. */
static inline int setup(void **state)
{
	struct vperf_vm_config c0 = policy(VPERF_PMU_SELF, 3), c1 = policy(VPERF_PMU_HV, 4);

	(void)state;
	hv_init(NULL, 2);
	assert_int_equal(hv_vm(0, &c0), VPERF_OK);
	assert_int_equal(hv_vm(1, &c1), VPERF_OK);
	return 0;
}

/* VMs 0 to nr_vms - 1: HV, trapped, 4 counters each (the host keeps [4, 6)); every put is lazy
 * (test_vpmu_lazy*.c). */
static inline void lazy_vms(unsigned int nr_vms)
{
	struct vperf_vm_config c = policy(VPERF_PMU_HV, 4);

	hv_init(NULL, 2);
	hv.lazy_put = true;
	for (unsigned int i = 0; i < nr_vms; i++)
		assert_int_equal(hv_vm(i, &c), VPERF_OK);
}

/* Every pCPU with 6 counters and an EL1 host that keeps the first range, its 2 lower counters
 * (host_first_range: a second-range world, VPERF_PART_SECOND; no VM yet). */
static inline void el1_host_world(void)
{
	struct sim_pe_config cfgs[SIM_MAX_CPUS];
	const struct vperf_pcpu_config pcfg = { .host_counters = 2,
						.host_first_range = true,
						.host_el1 = true };

	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		hv_default_config(&cfgs[cpu]);
		cfgs[cpu].nr_counters = 6;
	}
	hv_init_model(cfgs);
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		assert_int_equal(hv_pcpu_up(cpu, &pcfg), VPERF_OK);
	sim_set_cpu(0);
}

/* The model's PMU has 64-bit event counters and PMCR_EL0.LP (PMUv3p5 and later). */
static inline bool wide(void)
{
	return hv.model.pmuver >= 6;
}

static inline uint64_t hw_counter(unsigned int n)
{
	return sim_peek(sim_current_cpu(), VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7));
}

static inline uint64_t hw_evtyper(unsigned int n)
{
	return sim_peek(sim_current_cpu(), VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7));
}

/* How the model answered the guest's last access. */
static inline enum sim_access last(void)
{
	return sim_guest_stats(sim_current_cpu())->last;
}

/* The default model (PMUv3p5, N = 6, EL3) with the PMU version and EL3 the test names, whatever
 * HV_PMUVER says: for the tests that name their PE. */
static inline void init_model(uint8_t pmuver, bool el3, unsigned int host_counters)
{
	struct sim_pe_config cfg;

	sim_default_config(&cfg);
	cfg.pmuver = pmuver;
	cfg.el3 = el3;
	hv_init(&cfg, host_counters);
}

/* VM 0, a SELF guest with nr counters; its vCPU 0. */
static inline struct hv_vcpu *self_guest(uint8_t nr)
{
	struct vperf_vm_config cfg = policy(VPERF_PMU_SELF, nr);

	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	return hv_vcpu(0, 0);
}

/* A trapped MRS/MSR of enc with Rt = x1 taken at el, straight into vperf_handle_sysreg. */
static inline enum vperf_trap_result raw(uint32_t enc, bool read, uint64_t *gprs, unsigned int el)
{
	return hv_raw_trap(vperf_esr_encode_sysreg(enc, 1, read), gprs, el);
}

#endif /* VPERF_TEST_VPMU_UTIL_H */
