// SPDX-License-Identifier: MIT
/*
 * PSCI 1.0 for guests over HVC or SMC (SMC Calling Convention, Arm DEN 0028; function IDs
 * from PSCI, Arm DEN 0022), and
 * the hypervisor's own vendor calls (SMCCC vendor-specific hypervisor service range 0xc6xxxxxx)
 * that the benchmarks use to mark a measured region, and that the conformance suite uses to read
 * what its own accesses cost: HYP_TRAP_STATS returns x0 = the vCPU's MSR/MRS traps to EL2,
 * x1 = its loads (each may cost a direct-partition vCPU one trap), x2 and x3 = its VM's vperf
 * statistics traps and bad_value.
 */
#include "hyp.h"

#define PSCI_VERSION	       0x84000000u
#define PSCI_CPU_SUSPEND       0xc4000001u
#define PSCI_CPU_OFF	       0x84000002u
#define PSCI_CPU_ON	       0xc4000003u
#define PSCI_AFFINITY_INFO     0xc4000004u
#define PSCI_MIGRATE_INFO_TYPE 0x84000006u
#define PSCI_SYSTEM_OFF	       0x84000008u
#define PSCI_SYSTEM_RESET      0x84000009u
#define PSCI_FEATURES	       0x8400000au
#define SMCCC_VERSION	       0x80000000u
#define HYP_BENCH_MARK	       0xc6000001u
#define HYP_TRAP_STATS	       0xc6000002u

#define PSCI_SUCCESS	    0
#define PSCI_NOT_SUPPORTED  (-1)
#define PSCI_INVALID_PARAMS (-2)
#define PSCI_ALREADY_ON	    (-4)

/* 32-bit callers use the SMC32 IDs (bit 30 clear) of the 64-bit functions. */
static uint32_t fn64(uint32_t fn)
{
	if (fn == 0x84000001u || fn == 0x84000003u || fn == 0x84000004u)
		return fn | 0x40000000u;
	return fn;
}

static bool supported(uint32_t fn)
{
	switch (fn64(fn)) {
	case PSCI_VERSION:
	case PSCI_CPU_SUSPEND:
	case PSCI_CPU_OFF:
	case PSCI_CPU_ON:
	case PSCI_AFFINITY_INFO:
	case PSCI_MIGRATE_INFO_TYPE:
	case PSCI_SYSTEM_OFF:
	case PSCI_SYSTEM_RESET:
	case PSCI_FEATURES:
		return true;
	default:
		return false;
	}
}

static struct vcpu *target(struct vcpu *v, uint64_t mpidr)
{
	uint64_t idx = mpidr & 0xff;

	if ((mpidr & 0xff00ffff00ull) || idx >= v->vm->nr_vcpus)
		return NULL;
	return &v->vm->vcpus[idx];
}

static int64_t cpu_on(struct vcpu *v, uint64_t mpidr, uint64_t entry, uint64_t ctx)
{
	struct vcpu *t = target(v, mpidr);

	if (!t)
		return PSCI_INVALID_PARAMS;
	if (t->state != VCPU_OFF)
		return PSCI_ALREADY_ON;
	vcpu_reset(t, entry, ctx);
	vperf_vcpu_reset(&t->vperf);
	t->state = VCPU_RUNNABLE;
	return PSCI_SUCCESS;
}

static int64_t affinity_info(struct vcpu *v, uint64_t mpidr)
{
	struct vcpu *t = target(v, mpidr);

	if (!t)
		return PSCI_INVALID_PARAMS;
	return t->state == VCPU_RUNNABLE ? 0 : 1;
}

struct vcpu *psci_call(struct vcpu *v, bool smc)
{
	uint64_t *x = v->regs.x;
	uint32_t fn = (uint32_t)x[0];
	int64_t ret = PSCI_NOT_SUPPORTED;

	(void)smc;
	switch (fn64(fn)) {
	case PSCI_VERSION:
		ret = 0x10000; /* 1.0 */
		break;
	case PSCI_FEATURES:
		ret = supported((uint32_t)x[1]) ? PSCI_SUCCESS : PSCI_NOT_SUPPORTED;
		break;
	case PSCI_CPU_ON:
		ret = cpu_on(v, x[1], x[2], x[3]);
		break;
	case PSCI_AFFINITY_INFO:
		ret = affinity_info(v, x[1]);
		break;
	case PSCI_MIGRATE_INFO_TYPE:
		ret = 2; /* no Trusted OS */
		break;
	case PSCI_CPU_SUSPEND:
		x[0] = PSCI_SUCCESS;
		return sched_wfi(v); /* a standby state: back on the next interrupt */
	case PSCI_CPU_OFF:
		v->state = VCPU_OFF;
		return sched_yield(v);
	case PSCI_SYSTEM_OFF:
		return sched_stop_vm(v, "PSCI SYSTEM_OFF");
	case PSCI_SYSTEM_RESET:
		return sched_stop_vm(v, "PSCI SYSTEM_RESET");
	case HYP_BENCH_MARK:
		pmu_host_bench_mark(v, x[1]);
		ret = PSCI_SUCCESS;
		break;
	case HYP_TRAP_STATS:
		x[0] = v->sysreg_traps;
		x[1] = v->switches;
		x[2] = vperf_vm_stats(&v->vm->vperf)->traps;
		x[3] = vperf_vm_stats(&v->vm->vperf)->bad_value;
		return v;
	case SMCCC_VERSION:
	default:
		break;
	}
	x[0] = (uint64_t)ret;
	return v;
}
