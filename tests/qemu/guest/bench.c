// SPDX-License-Identifier: MIT
/*
 * Guest side of `make bench` (bootargs bench=1): regions of K identical trapped PMU accesses
 * between two marks to the reference hypervisor, which counts its own EL2 instructions in
 * between (QEMU -icount shift=0). Region 0 is empty: it calibrates the marks themselves. With
 * spe=1 (a VM with a trapped vSPE) two more: MRS PMBPTR_EL1 and MSR PMSCR_EL1 (0: no sampling).
 * bench=direct: the same for a direct-partition VM with an event filter (FEAT_FGT), regions of
 * KD untrapped accesses (labels 11-14) and of K PMEVTYPER0 writes, which trap (label 15).
 */
#include "suite.h"

#define K 2000

enum {
	R_CALIB,
	R_MRS_PMCCNTR,
	R_MSR_PMSWINC,
	R_MRS_PMEVCNTR0,
	R_MSR_PMEVTYPER0,
	R_MRS_PMOVS,
	R_HVC_EMPTY,
	R_LAST = R_HVC_EMPTY,
	R_MRS_PMBPTR,
	R_MSR_PMSCR,
	R_LAST_SPE = R_MSR_PMSCR
};

#define SWITCHES 100
#define KD	 100000

enum {
	RD_MRS_PMCCNTR = 11,
	RD_MRS_PMEVCNTR0,
	RD_MSR_PMEVCNTR0,
	RD_MRS_PMOVS,
	RD_MSR_PMEVTYPER0,
};

/* The floor: an exception the hypervisor answers without vperf (SMCCC PSCI_VERSION by HVC). */
static void hvc_psci_version(void)
{
	register uint64_t x0 __asm__("x0") = 0x84000000u;

	__asm__ volatile("hvc #0" : "+r"(x0) : : "x1", "x2", "x3", "memory");
}

static void region(unsigned int label)
{
	uint64_t sink = 0;

	hyp_mark(1, 0, label);
	for (unsigned int i = 0; label && i < K; i++) {
		switch (label) {
		case R_MRS_PMCCNTR:
			sink += read_sysreg(pmccntr_el0);
			break;
		case R_MSR_PMSWINC:
			write_sysreg(1, pmswinc_el0);
			break;
		case R_MRS_PMEVCNTR0:
			sink += read_sysreg(pmevcntr0_el0);
			break;
		case R_MSR_PMEVTYPER0:
			write_sysreg(EVT_SW_INCR, pmevtyper0_el0);
			break;
		case R_MRS_PMOVS:
			sink += read_sysreg(pmovsset_el0);
			break;
		case R_MRS_PMBPTR:
			sink += read_sysreg(s3_0_c9_c10_1);
			break;
		case R_MSR_PMSCR:
			write_sysreg(0, s3_0_c9_c9_0);
			break;
		default:
			hvc_psci_version();
			break;
		}
	}
	hyp_mark(2, label ? K : 0, label);
	barrier();
	(void)sink;
}

static void region_direct(unsigned int label)
{
	uint64_t sink = 0, k = label == RD_MSR_PMEVTYPER0 ? K : KD;

	hyp_mark(1, 0, label);
	for (uint64_t i = 0; label && i < k; i++) {
		switch (label) {
		case RD_MRS_PMCCNTR:
			sink += read_sysreg(pmccntr_el0);
			break;
		case RD_MRS_PMEVCNTR0:
			sink += read_sysreg(pmevcntr0_el0);
			break;
		case RD_MSR_PMEVCNTR0:
			write_sysreg(i, pmevcntr0_el0);
			break;
		case RD_MRS_PMOVS:
			sink += read_sysreg(pmovsset_el0);
			break;
		default:
			write_sysreg(EVT_SW_INCR, pmevtyper0_el0);
			break;
		}
	}
	hyp_mark(2, label ? k : 0, label);
	barrier();
	(void)sink;
}

static void bench_direct(void)
{
	for (unsigned int rep = 0; rep < 2; rep++) {
		region_direct(0);
		for (unsigned int r = RD_MRS_PMCCNTR; r <= RD_MSR_PMEVTYPER0; r++)
			region_direct(r);
	}
}

void bench_run(void);
void bench_run(void)
{
	unsigned int last = arg_is("spe", "1") ? R_LAST_SPE : R_LAST;

	pmu_quiesce();
	pmu_set_evtyper(0, EVT_SW_INCR);
	write_sysreg(CYCLE_BIT | 1, pmcntenset_el0);
	write_sysreg(PMCR_E | PMCR_LC | PMCR_LP, pmcr_el0);
	if (arg_is("bench", "direct"))
		bench_direct();
	else
		for (unsigned int rep = 0; rep < 2; rep++) /* the first pass warms vperf's state */
			for (unsigned int r = R_CALIB; r <= last; r++)
				region(r);
	/* Put and load of this (active) vCPU on its pCPU, measured by the hypervisor. */
	for (unsigned int i = 0; i < SWITCHES; i++)
		hyp_mark(3, 0, 0);
	result("bench", PASS, "%u regions of %u accesses, %u switches", last, K, SWITCHES);
	pmu_quiesce();
}
