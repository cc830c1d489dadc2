/* SPDX-License-Identifier: MIT */
/*
 * The FEAT_SPE smoke test of the project's QEMU (smoke.c): what its parts share. The register
 * and trap checks are in smoke_regs.c, sampling, the filters and the interval counter in
 * smoke_sampling.c, the Profiling Buffer's switch, full and fault events in smoke_buffer.c, when
 * a sampled operation completes (PMSICR_EL1 writes, Events E[0], AArch32) in smoke_completion.c.
 * SPE supplement: Arm DDI 0586A ("SPE 4.3.x"); packets and filters: Arm DDI 0487 K.a D18.2, D17.5.
 */
#ifndef SPE_SMOKE_H
#define SPE_SMOKE_H

#include <stdint.h>

#include "../lib/lib.h"

/* The SPE registers by encoding (SPE 4.3), so any assembler takes them. */
#define PMSCR_EL1     "S3_0_C9_C9_0"
#define PMSCR_EL2     "S3_4_C9_C9_0"
#define PMSICR_EL1    "S3_0_C9_C9_2"
#define PMSIRR_EL1    "S3_0_C9_C9_3"
#define PMSFCR_EL1    "S3_0_C9_C9_4"
#define PMSEVFR_EL1   "S3_0_C9_C9_5"
#define PMSLATFR_EL1  "S3_0_C9_C9_6"
#define PMSIDR_EL1    "S3_0_C9_C9_7"
#define PMBLIMITR_EL1 "S3_0_C9_C10_0"
#define PMBPTR_EL1    "S3_0_C9_C10_1"
#define PMBSR_EL1     "S3_0_C9_C10_3"
#define PMBIDR_EL1    "S3_0_C9_C10_7"

#define read_sys(r)                                        \
	({                                                 \
		uint64_t v_;                               \
		__asm__ volatile("mrs %0, " r : "=r"(v_)); \
		v_;                                        \
	})
#define write_sys(r, v) __asm__ volatile("msr " r ", %0\n\tisb" : : "r"((uint64_t)(v)))

/* PSB CSYNC (HINT #17) then DSB: the records of earlier operations are in memory (SPE 3.6). */
static inline void psb_csync(void)
{
	__asm__ volatile("hint #17\n\tdsb nsh\n\tisb" ::: "memory");
}

/* head.S: traps from EL1 (counted, the last one's ESR kept); fn runs at EL1 until "hvc #1". */
extern uint64_t trap_esr, trap_count;
void call_el1(void (*fn)(void));
void call_el1_sampled(void (*fn)(void), uint64_t pmscr_el2);
void call_lower_sampled(void (*fn)(void), uint64_t pmscr_el2, uint64_t spsr);
extern const char call_el1_sampled_eret[];

extern uint8_t spe_buf[32768];

/* What the checks read of a record. */
struct record {
	uint64_t pc, ts, pa;
	uint32_t events;
	int has_pa;
};

/* smoke_result.c: "RESULT spe-<name> PASS|FAIL got=.. want=.." lines; the FAILs counted */
extern unsigned int smoke_failures;
void result(const char *name, int ok, uint64_t got, uint64_t want);
void expect(const char *name, uint64_t got, uint64_t want);
uint32_t pmbirq_level(void);
void workload(unsigned int iters);
void program_buffer(uint64_t base, uint64_t limit);
void program_sampler(uint64_t irr, uint64_t icr, uint64_t fcr, uint64_t evfr);
void start_sampling(uint64_t base, uint64_t limit, uint64_t scr);
void stop_sampling(void);
void dump_buffer(const uint8_t *p, uint64_t len);
uint64_t sample_run(uint64_t irr, uint64_t fcr, uint64_t evfr, unsigned int iters);

/* smoke_records.c */
unsigned int packet_size(uint8_t h);
int next_record(const uint8_t *p, uint64_t len, uint64_t *pos, struct record *r);

/* smoke_regs.c */
void check_ids_and_reset(void);
void check_traps(void);
void check_fgt(void);
void check_e2h_alias(void);

/* smoke_sampling.c */
void check_sampling(void);
void check_filter(const char *name, uint64_t fcr, uint64_t minlat, uint8_t op);
void check_event_filter(void);
void check_interval(void);
void check_interval_resume(void);

/* smoke_buffer.c */
void check_switch_without_psb(void);
void check_buffer_full(void);
void check_fault(void);
void check_stage2_fault(void);
void check_exception_completes_sample(void);
void check_disable_completes_sample(void);
void check_eret_completes_sample(void);
void bench(void);

/* smoke_completion.c */
void check_completion(void);

#endif
