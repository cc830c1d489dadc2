// SPDX-License-Identifier: MIT
/*
 * The Xen ABI vperf adopts (docs/design.md, "Xen ABI"): per-VM PMU modes are Xen's XENPMU_MODE_*
 * values (xen/pmu.h) and the per-domain enable is XEN_DOMCTL_CDF_vpmu (xen/domctl.h). Built
 * with -std=gnu11 -D__XEN_TOOLS__ because Xen's domctl.h requires both; the headers come from
 * Debian's libxen-dev, linked into the build tree as $(O)/include/xenabi/xen.
 */
#include <stdint.h>
#include <xen/xen.h>
#include <xen/domctl.h>
#include <xen/pmu.h>

#include <vperf/vperf.h>

_Static_assert(VPERF_PMU_OFF == XENPMU_MODE_OFF, "XENPMU_MODE_OFF");
_Static_assert(VPERF_PMU_SELF == XENPMU_MODE_SELF, "XENPMU_MODE_SELF");
_Static_assert(VPERF_PMU_HV == XENPMU_MODE_HV, "XENPMU_MODE_HV");
_Static_assert(VPERF_PMU_ALL == XENPMU_MODE_ALL, "XENPMU_MODE_ALL");

enum vperf_pmu_mode vperf_xen_pmu_mode(uint32_t domctl_flags, uint32_t xenpmu_mode)
{
	if (!(domctl_flags & XEN_DOMCTL_CDF_vpmu))
		return VPERF_PMU_OFF;
	switch (xenpmu_mode) {
	case XENPMU_MODE_SELF:
		return VPERF_PMU_SELF;
	case XENPMU_MODE_HV:
		return VPERF_PMU_HV;
	case XENPMU_MODE_ALL:
		return VPERF_PMU_ALL;
	default:
		return VPERF_PMU_OFF;
	}
}
