/* SPDX-License-Identifier: MIT */
/*
 * Shared set-up of the vSPE tests: the test hypervisor (hv.c) on a model with SPE, VMs whose
 * buffer is mapped at stage 1 and backed by their own RAM, and a guest SPE driver that
 * programs the registers as Linux's arm_spe_pmu driver does (probe, start, stop, buffer
 * interrupt, re-arm), reading what its buffer holds through its own memory.
 */
#ifndef VPERF_TEST_VSPE_UTIL_H
#define VPERF_TEST_VSPE_UTIL_H

#include <arch/barrier.h>
#include <sim/guest_spe.h>
#include <sim/mem.h>
#include <sim/spe.h>
#include <vperf/spe_rec.h>

#include "hv.h"

/* Field values written out from SPE 4.3, not taken from vperf. */
#define V_PMSCR_E0SPE  0x01ull
#define V_PMSCR_E1SPE  0x02ull
#define V_PMSCR_CX     0x08ull
#define V_PMSCR_PA     0x10ull
#define V_PMSCR_TS     0x20ull
#define V_PMSCR_PCT    0x40ull
#define V_PMBLIMITR_E  0x01ull
#define V_PMBSR_S      (1ull << 17)
#define V_PMBSR_EA     (1ull << 18)
#define V_PMBSR_DL     (1ull << 19)
#define V_PMBSR_EC(x)  ((uint64_t)(x) << 26)
#define V_PMSFCR_LD_FT ((1ull << 17) | 0x2ull)
#define V_INTERVAL_1   0x100ull /* PMSIRR_EL1.INTERVAL = 1: one op in 257 */
#define V_PMSVER(dfr0) (((dfr0) >> 32) & 0xfu)
#define V_MDCR_E2PB(m) (((m) >> 12) & 3u)
#define V_MDCR_TPMS    (1ull << 14)

/* VM i: a 64 KB buffer at the same kernel VA in every VM, IPA 0x80000000, backed by its own PA. */
#define V_BUF_VA     0xffff800010000000ull
#define V_BUF_IPA    0x80000000ull
#define V_BUF_PA(i)  (0x40000000ull + (uint64_t)(i)*0x1000000ull)
#define V_BUF_SIZE   0x10000ull
#define V_LOOP_PC(i) (0x400000ull + (uint64_t)(i)*0x10000ull)

/* Model with SPE (PMSVer pmsver, PMBIDR_EL1.Align align, the seed), vperf, the test
 * hypervisor; no vCPU loaded. */
void vs_init(uint8_t pmsver, unsigned int align, uint64_t seed);
/* The same with ID_AA64MMFR0_EL1.ECV = ecv on every pCPU (1: FEAT_ECV, PMSCR_EL1.PCT[1]). */
void vs_init_ecv(uint8_t pmsver, unsigned int align, uint64_t seed, uint8_t ecv);
/* The same with every pCPU's host profiling its own EL2 code (at VS_HOST_PC) into its own
 * EL2-owned buffer (vperf_pcpu_config.host_spe), started. */
void vs_init_host(uint8_t pmsver, uint64_t seed);
/* The host's profiling on one pCPU (brought up with host_spe) started. */
void vs_host_spe_start(unsigned int cpu);
/* Its driver starting the session again at ptr, as Linux's arm_spe_pmu_start(): the buffer and
 * the sampling controls, PMSCR_EL2 last (not MDCR_EL2, which is not the driver's). */
void vs_host_driver_start(unsigned int cpu, uint64_t ptr);
/* Stop and drain cpu's host buffer; every record must satisfy ok: NULL and the records in *n,
 * or what is wrong. */
typedef bool (*vs_host_rec_ok)(const struct vperf_spe_record *rec, void *ctx);
const char *vs_host_check(unsigned int cpu, vs_host_rec_ok ok, void *ctx, unsigned int *n);
/* The host's own code on the current pCPU, no vCPU loaded. */
void vs_host_run(unsigned int n);
/* Stop, drain and decode cpu's host buffer: every record the host's, at EL2. Returns them. */
unsigned int vs_host_records(unsigned int cpu);

/* VM i with SPE (buffer policy buf) and a vPMU of 2 counters, its buffer mapped at stage 1;
 * stage 2 maps on demand, or up front when s2_now. Returns vperf_vm_init's result. */
int vs_vm(unsigned int i, enum vperf_spe_buffer buf, bool s2_now);
/* vs_init(pmsver, 0, seed), VM 0 of policy buf (vs_vm), its vCPU 0 loaded on pCPU 0. */
struct hv_vcpu *vs_setup_on_version(uint8_t pmsver, enum vperf_spe_buffer buf, bool s2_now,
				    uint64_t seed);
/* The same with the SPE fields of spe (spe, spe_buffer, spe_pa, spe_pct, spe_virq). */
int vs_vm_cfg(unsigned int i, const struct vperf_vm_config *spe, bool s2_now);
/* The same with the VM's PMU in mode (VPERF_PMU_OFF: no vPMU). */
int vs_vm_mode(unsigned int i, const struct vperf_vm_config *spe, bool s2_now,
	       enum vperf_pmu_mode mode);

/* n loads of VM vm's loop (each latency cycles) in the vCPU running on the current pCPU, one
 * operation at a time, the guest's interrupt not taken. */
void vs_run_loads(unsigned int vm, unsigned int n, uint32_t latency);
/* As the guest's interrupt entry or its driver's stop: ISB, PSB CSYNC, DSB, ISB, so that the SPU's
 * indirect writes to PMBPTR_EL1 / PMBSR_EL1 are visible to its direct reads (SPE 3.6). */
void vs_drain_visible(void);

/* The sampling controls a guest's driver programs at start (SPE 4.3: RES0 bits are the test's
 * to leave clear); PMSNEVFR_EL1 is written only when not 0 (SPEv1p2). */
struct lx_ctl {
	uint64_t pmsirr, pmsfcr, pmsevfr, pmslatfr, pmsnevfr;
};

/* A guest's SPE driver state, as arm_spe_pmu keeps it per CPU. */
struct lx_spe {
	unsigned int vm;
	uint64_t va;		  /* the buffer's VA (0: V_BUF_VA, whose bytes are read back) */
	uint64_t size;		  /* buffer bytes used from there */
	uint64_t head;		  /* offset where the current window starts */
	uint64_t pmscr;		  /* PMSCR_EL1 it programs */
	const struct lx_ctl *ctl; /* its sampling controls (NULL: loads only, one op in 257) */
	uint8_t data[1 << 20];	  /* what it consumed: the records, in order */
	size_t len;
	unsigned int irqs, truncated, fatal;
	unsigned int spurious; /* interrupts taken with PMBSR_EL1.S clear: none may be */
};

void lx_probe(void);
/* arm_spe_pmu_start after arm_spe_perf_aux_output_begin: buffer, filters, PMSICR = 0, PMSCR. */
void lx_start(struct lx_spe *lx);
/* arm_spe_pmu_stop: disable and drain, then aux_output_end (consume up to PMBPTR_EL1). */
void lx_stop(struct lx_spe *lx);
/* arm_spe_pmu_irq_handler, when the vCPU's virtual PMBIRQ line is high. */
void lx_irq(struct lx_spe *lx);
/* Run n loads of the VM's loop in the vCPU running on the current pCPU, taking the virtual
 * interrupt between operations as the guest would. */
void lx_run(struct lx_spe *lx, struct hv_vcpu *vc, unsigned int n);
/* Records in what the guest consumed: all decodable (but the cut-off record of a truncation),
 * all from its own loop. */
unsigned int lx_records(const struct lx_spe *lx);
/* One of `rounds` runs of n loads of lx's vCPU beside a host buffer (host_spe): parked while the
 * guest owns it (E2PB 0b10 from load to put, 0b00 after), the guest's session started in round 0
 * and stopped in the last. */
void lx_round_beside_host(struct lx_spe *lx, struct hv_vcpu *vc, unsigned int round,
			  unsigned int rounds, unsigned int n);

/* vperf's SPE register reads and writes, barriers and MDCR_EL2 writes on cpu since its trace
 * held `since` events (at most SIM_TRACE_LEN back). */
struct vs_cost {
	unsigned int reads, writes, barriers, mdcr;
};
struct vs_cost vs_cost_since(unsigned int cpu, uint64_t since);
void vs_expect_cost(struct vs_cost c, unsigned int reads, unsigned int writes,
		    unsigned int barriers, unsigned int mdcr);

#endif
