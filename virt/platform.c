// SPDX-License-Identifier: MIT
/*
 * What vperf knows of the machine it runs on: the hypervisor's ops, and what every initialised
 * pCPU offers (struct vperf_platform, internal.h). The entry points fill it (vperf_init,
 * vperf_pcpu_init); the rest of virt/ only reads it.
 */
#include "internal.h"

const struct vperf_hyp_ops *vperf_ops;
static struct vperf_platform platform;

const struct vperf_platform *vperf_platform(void)
{
	return &platform;
}

void vperf_platform_reset(const struct vperf_hyp_ops *ops)
{
	static const struct vperf_platform none;

	vperf_ops = ops;
	platform = none;
}

void vperf_platform_add(const struct vperf_pcpu *pcpu)
{
	struct vperf_platform *p = &platform;

	if (!p->any || pcpu->hpmn < p->min_hpmn)
		p->min_hpmn = pcpu->hpmn;
	if (!p->any || pcpu->caps.pmuver < p->min_pmuver)
		p->min_pmuver = pcpu->caps.pmuver;
	if (!p->any || pcpu->caps.pmsver < p->min_pmsver)
		p->min_pmsver = pcpu->caps.pmsver;
	if (!p->any)
		p->first_caps = pcpu->caps;
	p->any_newer_regs |= pcpu->direct_newer_regs;
	p->any_mt_counts |= pcpu->mt_counts;
	p->any = true;
	p->any_unenforced |= pcpu->cfg.hpmn_unenforced;
	p->any_aarch64_only |= !pcpu->caps.aarch32;
	p->any_no_el3 |= !pcpu->caps.el3;
	p->any_no_host_spe |= !pcpu->cfg.host_spe;
	p->any_no_export |= !pcpu->caps.export_bus;
	p->any_no_fgt |= !pcpu->caps.fgt;
	p->any_spe |= pcpu->caps.pmsver != 0;
	p->any_no_hpmn0 |= !pcpu->caps.hpmn0;
}
