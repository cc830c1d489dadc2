/* SPDX-License-Identifier: MIT */
/*
 * What the FEAT_FGT and FEAT_HPMN0 tests on the model share (test_vpmu_fgt.c,
 * test_vpmu_fgt_host.c, test_vpmu_hpmn0.c; vpmu_fgt_util.c): the model with FEAT_FGT on every PE,
 * the three-VM world, the guest's first access and the program it runs, and peeks at the traps
 * and MDCR_EL2.TPM the guest cannot make.
 */
#ifndef VPERF_TEST_VPMU_FGT_UTIL_H
#define VPERF_TEST_VPMU_FGT_UTIL_H

#include "hv.h"

#define INST_RETIRED 0x08u
#define CPU_CYCLES   0x11u

/* A guest micro-op of 3 cycles. */
extern const struct sim_uop op3;

/* A SELF policy in partition part with nr counters, every event allowed but INST_RETIRED when
 * filtered. */
struct vperf_vm_config policy(enum vperf_partition part, uint8_t nr, bool filtered);
/* The default model with FEAT_FGT. */
void model(struct sim_pe_config *cfg);
/* FGT on every pCPU, N = 6, the host keeps 2. VM 0: direct, 2 counters, INST_RETIRED denied;
 * VM 1: the same policy in the trapped partition; VM 2: direct, every event allowed. */
int setup(void **state);
/* The guest's traps to EL2 on the current pCPU so far. */
uint64_t traps(void);
/* MDCR_EL2.TPM as cpu holds it. */
uint64_t mdcr_tpm(unsigned int cpu);
/* The first access brings the state in (MDCR_EL2.TPM until then); untrapped afterwards. */
void start(struct hv_vcpu *v, unsigned int cpu);
/* start(), then the types CPU_CYCLES on counter 0 and INST_RETIRED on counter 1, PMCR_EL0.E and ten
 * op3 (30 cycles): the same program on the direct VM and on the trapped one. */
void program(struct hv_vcpu *v, unsigned int cpu);

#endif /* VPERF_TEST_VPMU_FGT_UTIL_H */
