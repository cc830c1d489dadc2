// SPDX-License-Identifier: MIT
#include <string.h>

#include <sim/cpu.h>
#include <vperf/vperf.h>

#include "fake_hyp.h"

struct fake_hyp fake_hyp;

static void inject_undef(void *hv_vcpu)
{
	((struct fake_vcpu *)hv_vcpu)->undefs++;
}

static void advance_pc(void *hv_vcpu)
{
	((struct fake_vcpu *)hv_vcpu)->pc_advances++;
}

static unsigned int guest_el(void *hv_vcpu)
{
	return ((struct fake_vcpu *)hv_vcpu)->el;
}

static void set_irq_line(void *hv_vcpu, uint32_t intid, bool level)
{
	(void)hv_vcpu;
	(void)intid;
	(void)level;
}

static void host_pmu_overflow(uint64_t ovs)
{
	fake_hyp.host_ovs |= ovs;
	fake_hyp.host_ovs_calls++;
}

static void log_line(enum vperf_log_level level, const char *msg)
{
	(void)level;
	strncpy(fake_hyp.last_log, msg, sizeof(fake_hyp.last_log) - 1);
	fake_hyp.logs++;
}

const struct vperf_hyp_ops fake_hyp_ops = {
	.inject_undef = inject_undef,
	.advance_pc = advance_pc,
	.guest_el = guest_el,
	.set_irq_line = set_irq_line,
	.host_pmu_overflow = host_pmu_overflow,
	.log = log_line,
};

void fake_hyp_reset(void)
{
	memset(&fake_hyp, 0, sizeof(fake_hyp));
	sim_reset();
	vperf_init(&fake_hyp_ops);
}
