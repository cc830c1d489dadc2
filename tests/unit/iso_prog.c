// SPDX-License-Identifier: MIT
/* The seeded guest programs of the isolation property tests (see iso_prog.h). */
#include <stdio.h>
#include <string.h>

#include "iso_prog.h"
#include "sched_util.h"

#include <vperf/pmu_regs.h>
#include <vperf/spe_rec.h>

static const uint16_t events[] = { 0x00, 0x03, 0x04, 0x08, 0x10, 0x11, 0x13 };
/* The wider set adds CHAIN (0x1E), which counts the even counter's overflows. */
static const uint16_t wide_events[] = { 0x00, 0x03, 0x04, 0x08, 0x10, 0x11, 0x13, 0x1e };

#define PMSELR_SEL_MASK 0x1full
#define PMCR_P		VPERF_BIT(1) /* PMCR_EL0.P, .C: reset the event / cycle counters */
#define PMCR_C		VPERF_BIT(2)

bool iso_trace;

static void observe(struct iso_prog *p, uint64_t v)
{
	if (iso_trace)
		printf("    vm %u step %u obs %u: 0x%llx\n", p->vm, p->next_step, p->nr_obs,
		       (unsigned long long)v);
	if (p->nr_obs < ISO_MAX_OBS)
		p->obs[p->nr_obs++] = v;
}

/* The vCPU's own code, at PCs of its VM only (V_LOOP_PC is the SPE loop's, far above). */
static void run_uops(struct iso_prog *p, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		uint64_t r = sched_next(&p->rng);
		struct sim_uop op = {
			.pc = 0x100000 + p->vm * 0x10000ull + (r & 0xff0),
			.vaddr = 0x100000 + (r >> 20 & 0xfff8),
			.latency = 1 + (uint32_t)(r >> 8 & 7),
			.type = (uint8_t)(r >> 12 & 3),
			.flags = (uint32_t)(r >> 16 & (SIM_UOP_L1D_REFILL | SIM_UOP_MISPRED)),
		};

		hv_run(&op, 1);
		p->uops_run++;
	}
}

/* The virtual PMU line is observed once a pending PMUIRQ has been taken (its latency is the
 * model's choice, hv_settle), and only at some steps: at the others a delayed interrupt may still
 * be in flight when the schedule switches vCPUs. */
static void read_all(struct iso_prog *p, const struct hv_vcpu *vc, bool settle)
{
	for (unsigned int n = 0; n < p->nr_counters; n++)
		observe(p, guest_mrs(sched_evcntr(n)));
	observe(p, guest_read(PMCCNTR_EL0));
	observe(p, guest_read(PMOVSSET_EL0));
	if (p->lx) {
		observe(p, guest_read(PMBPTR_EL1));
		observe(p, guest_read(PMBSR_EL1));
		observe(p, guest_read(PMSCR_EL1));
		observe(p, guest_read(PMSICR_EL1));
	}
	if (!settle)
		return;
	hv_settle();
	observe(p, vc->irq_level);
}

/* An SPE step: start a session, run the profiled loop, or stop the session and keep what the
 * buffer holds (lx_stop: disable, drain, read up to PMBPTR_EL1). */
static void spe_step(struct iso_prog *p, struct hv_vcpu *vc, uint64_t r)
{
	unsigned int n = p->spe_ops ? 1 + (unsigned int)(r >> 16) % p->spe_ops
				    : 50 + (unsigned int)(r >> 16 & 255);

	switch (r % 4) {
	case 0:
		if (!p->spe_on) {
			p->lx->pmscr = V_PMSCR_E1SPE | (r >> 8 & 1 ? V_PMSCR_E0SPE : 0) |
				       (r >> 9 & 1 ? V_PMSCR_CX : 0);
			lx_start(p->lx);
			p->spe_on = true;
		}
		break;
	case 3:
		if (p->spe_on) {
			lx_stop(p->lx);
			p->spe_on = false;
		}
		break;
	default:
		lx_run(p->lx, vc, n);
		p->uops_run += n;
		break;
	}
}

/* Observed, and kept for iso_pmceid_view: the first read, and the first that differs. */
static void note_pmceid(struct iso_prog *p, uint64_t ceid0, uint64_t ceid1)
{
	observe(p, ceid0);
	observe(p, ceid1);
	if (!p->pmceid_seen) {
		p->pmceid[0] = ceid0;
		p->pmceid[1] = ceid1;
		p->pmceid_seen = true;
	} else if (!p->pmceid_changed && (ceid0 != p->pmceid[0] || ceid1 != p->pmceid[1])) {
		p->pmceid_other[0] = ceid0;
		p->pmceid_other[1] = ceid1;
		p->pmceid_changed = true;
	}
}

/* The wider instruction set: the selector registers (a stale PMSELR_EL0.SEL left by another
 * guest must not reach this one: Arm DDI 0487 checks SEL before MDCR_EL2.TPM in the PMXEV*
 * pseudocode), PMCR_EL0 with its resets, PMCEID0_EL0 (the event filter), CHAIN, SPE registers
 * a VM without a vSPE of its own touches. */
static void wide_step(struct iso_prog *p, uint64_t w)
{
	unsigned int nr = p->nr_counters, n = nr ? (unsigned int)(w >> 8) % nr : 0;

	switch (w % 8) {
	case 0: /* any selector, in range or not, then an access through it */
		guest_write(PMSELR_EL0, w >> 16 & PMSELR_SEL_MASK);
		observe(p, guest_read(PMXEVCNTR_EL0));
		break;
	case 1:
		guest_write(PMSELR_EL0, n);
		guest_write(PMXEVTYPER_EL0, wide_events[(w >> 16) % 8]);
		guest_write(PMXEVCNTR_EL0, w >> 24 & 1 ? 0xfffffff0ull : w >> 32);
		break;
	case 2: /* a guest that reads PMXEVCNTR_EL0 without writing PMSELR_EL0 first */
		observe(p, guest_read(PMXEVCNTR_EL0));
		observe(p, guest_read(PMSELR_EL0));
		break;
	case 3:
		observe(p, guest_read(PMCR_EL0));
		note_pmceid(p, guest_read(PMCEID0_EL0), guest_read(PMCEID1_EL0));
		break;
	case 4:
		if (nr >= 2)
			guest_msr(sched_evtyper(n | 1), 0x1e); /* CHAIN on an odd counter */
		break;
	case 5:
		guest_write(PMCR_EL0,
			    PMCR_E | (w >> 16 & 1 ? PMCR_P : 0) | (w >> 17 & 1 ? PMCR_C : 0) |
				    (w >> 18 & 1 ? PMCR_LP : 0) | (w >> 19 & 1 ? PMCR_LC : 0));
		break;
	case 6: /* SPE without a vSPE of its own: UNDEF on every pCPU, with SPE or not, and
		 * never a trap to EL3 where the firmware keeps the buffer (MDCR_EL3.NSPB) */
		if (!p->lx) {
			observe(p, guest_read(PMSIDR_EL1));
			guest_write(PMBLIMITR_EL1, w >> 16);
		}
		break;
	default: /* PMU registers newer than the guest is shown (PMUv3p5: docs/vpmu.md, "Newer PMU
		  * hardware"): the instruction counter and its filter UNDEF for every guest;
		  * PMUACR_EL1 and PMZR_EL0 UNDEF too, or, for a direct guest on a PMUv3p9 pCPU
		  * without FEAT_FGT2, reach only what is its own (nothing another VM left) */
		observe(p, guest_read(PMICNTR_EL0));
		observe(p, guest_read(PMICFILTR_EL0));
		observe(p, guest_read(PMUACR_EL1));
		guest_write(PMUACR_EL1, w >> 16 & 1);
		guest_write(PMZR_EL0, w >> 20 & 0xffffffffu);
		break;
	}
}

/* The wider program starts as a profiler does (perf stat): every counter given an event that
 * counts the guest's work, all of them enabled with the cycle counter, PMCR_EL0.E set. */
static void wide_start(struct iso_prog *p)
{
	static const uint16_t busy[] = { 0x08, 0x11, 0x04, 0x03 };

	for (unsigned int n = 0; n < p->nr_counters; n++)
		guest_msr(sched_evtyper(n), busy[sched_next(&p->rng) % 4]);
	guest_write(PMCNTENSET_EL0, VPERF_BIT(31) | (VPERF_BIT(p->nr_counters) - 1));
	guest_write(PMCR_EL0, PMCR_E);
}

void iso_step(struct iso_prog *p, struct hv_vcpu *vc)
{
	uint64_t r = sched_next(&p->rng);
	unsigned int nr = p->nr_counters, n = nr ? (unsigned int)(r >> 8) % nr : 0;
	unsigned int cpu = sim_current_cpu();
	uint64_t undefs = sim_guest_stats(cpu)->undefs;
	const uint16_t *ev = p->wide ? wide_events : events;
	unsigned int nr_ev = p->wide ? 8 : 7;

	if (p->quiet) {
		run_uops(p, 1 + (unsigned int)(r >> 16 & 15));
		return;
	}
	if (p->wide && p->profiles && !p->started)
		wide_start(p);
	p->started = true;
	if (p->wide) {
		uint64_t w = sched_next(&p->rng);

		if (iso_trace)
			printf("  vm %u step %u on pCPU %u: op %u (0x%llx), wide op %u (0x%llx)\n",
			       p->vm, p->next_step, cpu, (unsigned int)(r % 8),
			       (unsigned long long)r, (unsigned int)(w % 8), (unsigned long long)w);
		wide_step(p, w);
	}
	switch (r % 8) {
	case 0:
		if (nr)
			guest_msr(sched_evtyper(n),
				  ev[(r >> 16) % nr_ev] | (r >> 24 & 1 ? VPERF_BIT(30) : 0));
		break;
	case 1:
		guest_write(PMCNTENSET_EL0, r >> 32);
		guest_write(PMINTENSET_EL1, p->lx ? 0 : r >> 40);
		guest_write(PMCR_EL0, PMCR_E | (r >> 20 & 1 ? PMCR_LP : 0));
		break;
	case 2:
		/* Without an event counter, the cycle counter: near 2^32 too, where a placement
		 * that holds it in an event counter overflows at 32 bits (vpmu/second.c). */
		if (nr)
			guest_msr(sched_evcntr(n),
				  r >> 20 & 1 ? 0xfffffff0ull + (r >> 24 & 0xf) : r >> 40);
		else
			guest_write(PMCCNTR_EL0,
				    r >> 20 & 1 ? 0xfffffff0ull + (r >> 24 & 0xf) : r >> 40);
		break;
	case 3:
		guest_write(PMSWINC_EL0, r >> 32);
		break;
	case 4:
	case 5:
	case 6:
		if (p->lx)
			spe_step(p, vc, r >> 3);
		else if (r % 8 == 6)
			run_uops(p, 1 + (unsigned int)(r >> 16 & 15));
		else
			guest_write(PMOVSCLR_EL0, r >> 32);
		break;
	default:
		run_uops(p, 1 + (unsigned int)(r >> 16 & 15));
		break;
	}
	read_all(p, vc, r >> 63);
	if (p->wide)
		observe(p, sim_guest_stats(cpu)->undefs - undefs);
}

void iso_finish(struct iso_prog *p)
{
	if (p->lx && p->spe_on) {
		lx_stop(p->lx);
		p->spe_on = false;
	}
}

static char why[256];

const char *iso_diff_obs(const struct iso_prog *shared, const struct iso_prog *alone)
{
	if (alone->nr_obs != shared->nr_obs) {
		snprintf(why, sizeof(why), "%u observations shared, %u alone", shared->nr_obs,
			 alone->nr_obs);
		return why;
	}
	for (unsigned int k = 0; k < alone->nr_obs; k++)
		if (alone->obs[k] != shared->obs[k]) {
			snprintf(why, sizeof(why), "observation %u is 0x%llx shared, 0x%llx alone",
				 k, (unsigned long long)shared->obs[k],
				 (unsigned long long)alone->obs[k]);
			return why;
		}
	return NULL;
}

const char *iso_pmceid_view(const struct iso_prog *a, const struct iso_prog *b)
{
	const struct iso_prog *ref = a->pmceid_seen ? a : b;
	const uint64_t *reads[4] = { a->pmceid, a->pmceid_other, b->pmceid, b->pmceid_other };
	const bool made[4] = { a->pmceid_seen, a->pmceid_changed, b->pmceid_seen,
			       b->pmceid_changed };

	for (unsigned int k = 0; k < 4; k++)
		if (made[k] && (reads[k][0] != ref->pmceid[0] || reads[k][1] != ref->pmceid[1])) {
			snprintf(why, sizeof(why), "PMCEID0/1_EL0 read %#llx %#llx and %#llx %#llx",
				 (unsigned long long)ref->pmceid[0],
				 (unsigned long long)ref->pmceid[1],
				 (unsigned long long)reads[k][0], (unsigned long long)reads[k][1]);
			return why;
		}
	return NULL;
}

const char *iso_own_records(const struct lx_spe *lx, unsigned int *n)
{
	uint64_t code = 0x100000 + lx->vm * 0x10000ull;
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;

	*n = 0;
	vperf_spe_iter_init(&it, lx->data, lx->len);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		uint64_t pc = rec.addr[VPERF_SPE_ADDR_PC].addr;

		if (pc != V_LOOP_PC(lx->vm) && (pc < code || pc >= code + 0x1000)) {
			snprintf(why, sizeof(why), "a record of PC 0x%llx in VM %u's buffer",
				 (unsigned long long)pc, lx->vm);
			return why;
		}
		(*n)++;
	}
	if (it.nerrors) {
		snprintf(why, sizeof(why), "%u undecodable bytes in the buffer", it.nerrors);
		return why;
	}
	return NULL;
}

const char *iso_diff_buffer(const struct lx_spe *shared, const struct lx_spe *alone)
{
	unsigned int n;
	const char *bad = iso_own_records(shared, &n);

	if (bad)
		return bad;
	if (shared->len != alone->len || memcmp(shared->data, alone->data, shared->len)) {
		snprintf(why, sizeof(why), "its buffer holds %zu bytes shared, %zu alone%s",
			 shared->len, alone->len,
			 shared->len == alone->len ? ", not the same" : "");
		return why;
	}
	if (shared->irqs || shared->spurious || shared->fatal) {
		snprintf(why, sizeof(why), "%u buffer interrupts, %u spurious, %u fatal",
			 shared->irqs, shared->spurious, shared->fatal);
		return why;
	}
	return NULL;
}
