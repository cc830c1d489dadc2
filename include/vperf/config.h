/* SPDX-License-Identifier: MIT */
/*
 * The build configuration, generated from Kconfig into $(O)/include/generated/vperf/autoconf.h.
 * A hypervisor adds $(O)/include to its include path next to include/. The header's path is
 * vperf's own, so that a hypervisor's generated/autoconf.h (Xen, Linux) never shadows it.
 */
#ifndef VPERF_CONFIG_H
#define VPERF_CONFIG_H

#include <generated/vperf/autoconf.h>

#ifndef CONFIG_VPERF_VPMU_PPI
#define CONFIG_VPERF_VPMU_PPI 23
#endif
#ifndef CONFIG_VPERF_VSPE_PPI
#define CONFIG_VPERF_VSPE_PPI 21
#endif

#endif /* VPERF_CONFIG_H */
