// SPDX-License-Identifier: MIT
/*
 * The hosts of test_isolation_worlds (iso_worlds.h): each host's own share of a pCPU it brought
 * up (its counters, an EL1 host's first range, its own Profiling Buffer), that state saved and
 * restored around a power-down of the pCPU, and checked after the world: the hosts' counters
 * counted exactly what the policies let them see, their buffers hold only what they may profile,
 * and the model caught no hypervisor error (WF_HOST, WF_MODEL).
 */
#include "iso_worlds.h"
#include "sched_util.h"

#include <arch/barrier.h>
#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>
#include <vperf/spe_regs.h>

#define HOST_EVENT  0x08 /* the host's counter: INST_RETIRED at EL1 and EL0 */
#define HOST_CYCLES 0x11 /* an EL1 host's second counter: CPU_CYCLES, as its PMCCNTR_EL0 */

/* An EL1 host that keeps the first range (host_first_range): its counters [0, HPMN) count
 * instructions at EL1 and EL0, its second one CPU_CYCLES there as its cycle counter does
 * (PMCCFILTR_EL0 = 0), under its own PMCR_EL0.E (LC: 64 bits). */
static uint64_t host_first_type(unsigned int n)
{
	return n == 1 ? HOST_CYCLES : HOST_EVENT;
}

static void host_first_start(unsigned int c)
{
	unsigned int hpmn = hv.pcpu[c].hpmn;

	for (unsigned int n = 0; n < hpmn; n++)
		sim_poke(c, sched_evtyper(n), host_first_type(n));
	sim_poke(c, VPERF_ENC_PMCCFILTR_EL0, 0);
	sim_poke(c, VPERF_ENC_PMCNTENSET_EL0, (VPERF_BIT(hpmn) - 1) | VPERF_BIT(31));
	sim_poke(c, VPERF_ENC_PMCR_EL0, sim_peek(c, VPERF_ENC_PMCR_EL0) | PMCR_E | PMCR_LC);
}

/* The host's own share of a pCPU it brought up: its first counter counts instructions at EL1
 * and EL0, and its buffer profiles its EL2 code. */
void host_start(const struct world *w, unsigned int c)
{
	unsigned int hpmn = hv.pcpu[c].hpmn;

	if (w->cpu[c].pc.host_first_range)
		host_first_start(c);
	else if (w->cpu[c].pc.host_counters) {
		sim_poke(c, sched_evtyper(hpmn), HOST_EVENT);
		sim_poke(c, VPERF_ENC_PMCNTENSET_EL0, VPERF_BIT(hpmn));
	}
	if (w->cpu[c].pc.host_spe)
		vs_host_spe_start(c);
}

/* The host's own state that a power-down loses: its counters' values (its types, enables and
 * buffer set up again by host_start), and where its buffer had got to. */
struct host_saved {
	uint64_t cnt[32], ptr;
};

static void host_save(const struct world *w, unsigned int c, struct host_saved *h)
{
	sim_set_cpu(c);
	for (unsigned int n = 0; n < 31; n++)
		h->cnt[n] = sim_peek(c, sched_evcntr(n));
	h->cnt[31] = sim_peek(c, VPERF_ENC_PMCCNTR_EL0);
	if (!w->cpu[c].pc.host_spe)
		return;
	/* As its driver stops a session: sampling off, its records in memory (SPE 3.6). */
	write_sysreg(0, PMSCR_EL2);
	isb();
	psb_csync();
	dsb_nsh();
	isb();
	h->ptr = read_sysreg(PMBPTR_EL1);
	write_sysreg(0, PMBLIMITR_EL1);
	isb();
}

/* Counters the host keeps (host_start): [0, HPMN) and the cycle counter for an EL1 host that
 * keeps the first range, counter HPMN for one with host_counters. */
static void host_restore(const struct world *w, unsigned int c, const struct host_saved *h)
{
	unsigned int hpmn = hv.pcpu[c].hpmn;

	host_start(w, c);
	if (w->cpu[c].pc.host_first_range) {
		for (unsigned int n = 0; n < hpmn; n++)
			sim_poke(c, sched_evcntr(n), h->cnt[n]);
		sim_poke(c, VPERF_ENC_PMCCNTR_EL0, h->cnt[31]);
	} else if (w->cpu[c].pc.host_counters) {
		sim_poke(c, sched_evcntr(hpmn), h->cnt[hpmn]);
	}
	if (w->cpu[c].pc.host_spe)
		vs_host_driver_start(c, h->ptr);
}

/* pCPU c, with no vCPU loaded, powers down and comes back: the host saves its own state, vperf
 * is told (vperf_pcpu_down), the PE loses its PMU and SPE state (sim_power_cycle), vperf is set
 * up again with the same configuration and the host restores its state. A vCPU parked there
 * finds its state again at its next load: the alone run, without power-downs, says what. */
void power_down(const struct world *w, unsigned int c, struct w_result *res)
{
	struct host_saved h = { .ptr = 0 };
	int rc;

	host_save(w, c, &h);
	hv_power_down(c);
	rc = hv_pcpu_up(c, &w->cpu[c].pc);
	if (rc != VPERF_OK)
		failed(res, WF_REFUSAL, "pCPU %u refused when it came back from a power-down (%d)",
		       c, rc);
	host_restore(w, c, &h);
	res->downs++;
}

static const struct world *checked; /* the world check_hosts checks */

static bool host_record_ok(const struct vperf_spe_record *rec, void *ctx)
{
	const struct world *w = checked;
	uint64_t pc = rec->addr[VPERF_SPE_ADDR_PC].addr;

	(void)ctx;
	if (rec->addr[VPERF_SPE_ADDR_PC].el == 2)
		return true;
	/* A VM the host profiles from outside (VPERF_SPE_BUF_EL2): its own code. */
	for (unsigned int v = 0; v < w->nr_vms; v++)
		if (shared_run.vm_up[v] && w->vm[v].cfg.spe &&
		    w->vm[v].cfg.spe_buffer == VPERF_SPE_BUF_EL2 &&
		    pc >= 0x100000 + v * 0x10000ull && pc < 0x100000 + v * 0x10000ull + 0x1000)
			return true;
	return false;
}

/* An EL1 host's first range and cycle counter (host_first_start) after the world: still its own
 * (types, enables, PMCR_EL0.E, PMCCFILTR_EL0 as it set them), each instruction counter at the
 * instructions run at EL1 and EL0 on the pCPU (every guest's and its own), and PMCCNTR_EL0 at
 * its CPU_CYCLES counter's count (at least the instructions' without one). */
static void check_host_first(unsigned int c, struct w_result *res)
{
	unsigned int hpmn = hv.pcpu[c].hpmn;
	uint64_t want = shared_run.host_uops[c], cycles = sim_peek(c, VPERF_ENC_PMCCNTR_EL0);
	uint64_t en = (VPERF_BIT(hpmn) - 1) | VPERF_BIT(31);

	if ((sim_peek(c, VPERF_ENC_PMCNTENSET_EL0) & en) != en ||
	    !(sim_peek(c, VPERF_ENC_PMCR_EL0) & PMCR_E) || sim_peek(c, VPERF_ENC_PMCCFILTR_EL0))
		failed(res, WF_HOST,
		       "pCPU %u: the EL1 host's enables, PMCR_EL0.E or PMCCFILTR_EL0 "
		       "changed",
		       c);
	for (unsigned int n = 0; n < hpmn; n++) {
		uint64_t got = sim_peek(c, sched_evcntr(n));

		if (sim_peek(c, sched_evtyper(n)) != host_first_type(n))
			failed(res, WF_HOST, "pCPU %u: the EL1 host's type %u changed", c, n);
		else if (n != 1 && got != want)
			failed(res, WF_HOST,
			       "pCPU %u: the EL1 host's counter %u counted %llu, %llu instructions "
			       "ran at EL1 and EL0",
			       c, n, (unsigned long long)got, (unsigned long long)want);
		else if (n == 1 && got != cycles)
			failed(res, WF_HOST,
			       "pCPU %u: the EL1 host's PMCCNTR_EL0 %llu, its CPU_CYCLES counter "
			       "%llu",
			       c, (unsigned long long)cycles, (unsigned long long)got);
	}
	if (hpmn < 2 && cycles < want)
		failed(res, WF_HOST, "pCPU %u: the EL1 host's PMCCNTR_EL0 %llu, below %llu", c,
		       (unsigned long long)cycles, (unsigned long long)want);
}

void check_hosts(const struct world *w, struct w_result *res)
{
	checked = w;
	if (sim_error_count())
		failed(res, WF_MODEL, "%u model errors, first on pCPU %u: %s", sim_error_count(),
		       sim_error_at(0)->cpu, sim_error_at(0)->what);
	if (hv.max_irq_burst > 1)
		failed(res, WF_MODEL,
		       "%u physical interrupts (PMUIRQ, PMBIRQ) in a row with the line left high",
		       hv.max_irq_burst);
	for (unsigned int c = 0; c < w->nr_cpus; c++) {
		uint64_t n;

		if (!shared_run.cpu_up[c])
			continue;
		if (w->cpu[c].pc.host_first_range) {
			check_host_first(c, res);
		} else if (w->cpu[c].pc.host_counters) {
			n = sim_peek(c, sched_evcntr(hv.pcpu[c].hpmn));
			if (n != shared_run.host_uops[c])
				failed(res, WF_HOST,
				       "pCPU %u: the host's counter %u counted %llu, the VMs it "
				       "may "
				       "count ran %llu instructions there",
				       c, hv.pcpu[c].hpmn, (unsigned long long)n,
				       (unsigned long long)shared_run.host_uops[c]);
		}
		if (w->cpu[c].pc.host_spe) {
			unsigned int recs;
			const char *bad = vs_host_check(c, host_record_ok, NULL, &recs);

			if (bad)
				failed(res, WF_HOST, "pCPU %u: %s", c, bad);
			res->host_records += recs;
		}
	}
}
