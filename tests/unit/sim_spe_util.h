/* SPDX-License-Identifier: MIT */
/*
 * Shared set-up for the SPE model tests: a model with SPE, a test hypervisor that emulates
 * trapped accesses (reads return 0x5a) and records the last syndrome, a guest buffer mapped at
 * both stages, and the guest-side programming sequence of Linux's arm_spe_pmu driver.
 */
#ifndef VPERF_TEST_SIM_SPE_UTIL_H
#define VPERF_TEST_SIM_SPE_UTIL_H

#include <arch/barrier.h>
#include <arch/sysreg.h>
#include <sim/guest_spe.h>
#include <sim/spe.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

/* Field values, written out from SPE 4.3 (not taken from the model). */
#define T_PMSCR_E0SPE 0x01ull
#define T_PMSCR_E1SPE 0x02ull
#define T_PMSCR_CX    0x08ull
#define T_PMSCR_PA    0x10ull
#define T_PMSCR_TS    0x20ull
#define T_PMSCR_PCT   0x40ull
#define T_PMBLIMITR_E 0x01ull
#define T_PMBSR_S     (1ull << 17)
#define T_PMBSR_EA    (1ull << 18)
#define T_PMBSR_DL    (1ull << 19)
#define T_PMBSR_COLL  (1ull << 16)
#define T_PMBSR_EC(x) ((uint64_t)(x) << 26)
#define T_INTERVAL_1  0x100ull /* PMSIRR_EL1.INTERVAL = 1: one op in 257 is sampled */

/* The guest's buffer: a kernel VA (TTBR1 half) of VM 1, its IPA, and the PA behind it. */
#define T_VMID	       1
#define T_BUF_VA       0xffff800010000000ull
#define T_BUF_IPA      0x80000000ull
#define T_BUF_PA       0x40000000ull
#define T_BUF_SIZE     0x4000ull /* 16 KB */
#define T_BUF_LIMIT    (T_BUF_VA + T_BUF_SIZE)
#define T_BUF_PAGE1_VA (T_BUF_VA + 0x1000) /* the buffer's second page */

struct t_hyp {
	unsigned int traps;
	uint64_t esr;
	bool undef; /* inject UNDEF instead of emulating */
};
extern struct t_hyp t_hyp;

/* Model with SPE (PMSVer pmsver, default ID registers, the seed), the test hypervisor, EL1
 * owns the buffer untrapped (MDCR_EL2.E2PB = 0b11), HCR_EL2.VM = 1, VMID 1, the buffer mapped
 * read-write at both stages, the guest at EL1, and an ISB so the SPU sees it all. */
void t_init(uint8_t pmsver, uint64_t seed);
void t_init_cfg(const struct sim_pe_config *cfg);

/* Guest (EL1) programming, in the order arm_spe_pmu_start() uses: buffer (PMBPTR, PMBLIMITR),
 * PMSFCR, PMSEVFR, PMSLATFR, PMSIRR, PMSICR = 0, ISB, PMSCR_EL1, then the ISB of the next
 * context synchronization event (exception return). */
void t_guest_start(uint64_t ptr, uint64_t limit, uint64_t pmscr, uint64_t pmsfcr, uint64_t pmsirr);
/* Micro-ops. */
struct sim_uop t_load(uint64_t pc, uint64_t va, uint32_t lat);
struct sim_uop t_other(uint64_t pc);
/* Run n copies of op, then one op "last": with INTERVAL 1 and a fresh counter, the 257th op
 * (last, when n = 256) is the one sampled. */
void t_run_sampling(const struct sim_uop *filler, unsigned int n, const struct sim_uop *last);

/* One t_load(0x400000, 0x12345678, 20) record, sampled after 256 one-cycle fillers. */
void t_one_record(void);
/* The drain a switch-out or a driver does before reading PMBPTR/PMBSR: ISB (the records before
 * it are covered), PSB CSYNC, DSB NSH (they reach memory), ISB (the indirect writes are seen by
 * direct reads), SPE 3.6. */
void t_drain(void);

/* The expected 35-byte record of t_load(0x400000, 0x12345678, 20) at EL1 (issue latency 5,
 * translation latency 3, data source 0x42) with PMSCR_EL1 = E1SPE, no timestamp, no PA, no
 * context. */
#define T_LOAD_REC_LEN 35
extern const uint8_t t_load_rec[T_LOAD_REC_LEN];

/* Bytes of the guest buffer (PA side). */
void t_buf_read(uint64_t offset, void *dst, size_t n);
/* Physical memory at pa holds t_load_rec. */
bool t_load_rec_at(uint64_t pa);

/* The default model options but one: the write-pointer outcome, the UNPREDICTABLE choice. */
void t_set_wptr(enum sim_spe_wptr w);
void t_set_unpred(enum sim_spe_unpred u);

/* A one-cycle micro-op that is not a load, store or branch: the population between samples. */
extern const struct sim_uop t_filler;

#endif
