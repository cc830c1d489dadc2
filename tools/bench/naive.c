// SPDX-License-Identifier: MIT
/*
 * The baselines vperf is measured against, on the same simulated seam:
 *
 *  - a naive full switch: every PMU register of a PE with 31 counters saved at every put and
 *    restored at every load, whatever the vCPU did (70 reads, 73 writes: the SET/CLR pairs
 *    need a CLR of everything before the SET of what was saved). MDCR_EL2 is left out, which
 *    flatters it.
 *  - an always-trap emulation: every guest PMU register is a shadow and every access, trapped,
 *    is a lookup in the register database. It has no semantics at all (nothing counts): the
 *    least any trap-everything emulator spends per access.
 */
#include <arch/sysreg.h>
#include <vperf/esr.h>

#include "bench.h"

void naive_vcpu_put(struct naive_pmu *p)
{
	for (unsigned int n = 0; n < VPERF_PMU_MAX_COUNTERS; n++) {
		p->evcntr[n] = read_sysreg_enc(bench_evcntr_enc(n));
		p->evtyper[n] = read_sysreg_enc(bench_evtyper_enc(n));
	}
	p->ccntr = read_sysreg(PMCCNTR_EL0);
	p->ccfiltr = read_sysreg(PMCCFILTR_EL0);
	p->cnten = read_sysreg(PMCNTENSET_EL0);
	p->inten = read_sysreg(PMINTENSET_EL1);
	p->ovs = read_sysreg(PMOVSSET_EL0);
	p->userenr = read_sysreg(PMUSERENR_EL0);
	p->selr = read_sysreg(PMSELR_EL0);
	p->pmcr = read_sysreg(PMCR_EL0);
}

void naive_vcpu_load(const struct naive_pmu *p)
{
	write_sysreg(~0ull, PMCNTENCLR_EL0);
	write_sysreg(~0ull, PMINTENCLR_EL1);
	write_sysreg(~0ull, PMOVSCLR_EL0);
	for (unsigned int n = 0; n < VPERF_PMU_MAX_COUNTERS; n++) {
		write_sysreg_enc(bench_evtyper_enc(n), p->evtyper[n]);
		write_sysreg_enc(bench_evcntr_enc(n), p->evcntr[n]);
	}
	write_sysreg(p->ccfiltr, PMCCFILTR_EL0);
	write_sysreg(p->ccntr, PMCCNTR_EL0);
	write_sysreg(p->cnten, PMCNTENSET_EL0);
	write_sysreg(p->inten, PMINTENSET_EL1);
	write_sysreg(p->ovs, PMOVSSET_EL0);
	write_sysreg(p->userenr, PMUSERENR_EL0);
	write_sysreg(p->selr, PMSELR_EL0);
	write_sysreg(p->pmcr, PMCR_EL0);
}

static uint64_t shadow[VPERF_SR_COUNT];

void naive_emul_reset(void)
{
	for (unsigned int i = 0; i < VPERF_SR_COUNT; i++)
		shadow[i] = 0;
}

enum vperf_trap_result naive_handle_sysreg(uint64_t esr, uint64_t gprs[31])
{
	const struct vperf_sysreg_desc *d = NULL;
	struct vperf_esr_sysreg a;
	uint64_t *reg;

	if (vperf_esr_decode_sysreg(esr, &a))
		d = vperf_sysreg_lookup(a.enc);
	if (!d) {
		bench_hyp_ops.inject_undef(NULL);
		return VPERF_TRAP_UNDEF;
	}
	reg = &shadow[d - vperf_sysregs];
	if (!a.read)
		*reg = a.rt == ESR_RT_XZR ? 0 : gprs[a.rt];
	else if (a.rt != ESR_RT_XZR)
		gprs[a.rt] = *reg;
	bench_hyp_ops.advance_pc(NULL);
	return VPERF_TRAP_HANDLED;
}
