// SPDX-License-Identifier: MIT
/*
 * Fuzz target for the trap entry and everything a guest can reach through it, on the executable
 * model with the unit tests' hypervisor (tests/unit/hv.c). An input is a world (the PE's PMU
 * version and counters, the host's and an external agent's ranges, 1-3 VMs of any policy, valid
 * or not) and a schedule over two pCPUs: loads, puts and migrations, guest MSR/MRS at EL0 or
 * EL1 through the model's trap rules, raw syndromes straight to vperf_handle_sysreg, guest work,
 * spurious PMUIRQ entries, blob round trips and resets. Checked after every step:
 *  - no sanitizer report, no model-detected error (a trap left undecided or decided twice, a
 *    GPR other than Rt changed, a bad sequence);
 *  - the host's and the agent's counters, types, enables and flags are as the host left them;
 *  - no interrupt storm (a PMUIRQ entry leaves the line low);
 *  - a raw syndrome: NOT_MINE touches nothing; UNDEF and HANDLED decide once, change no GPR but
 *    Rt (HANDLED MRS only); an unknown, wrong-direction, SPE, OFF-VM or beyond-N access is UNDEF;
 *  - vm_init accepts exactly the policies the oracle below accepts;
 * and at the end, the differential check: every vCPU (but a XENPMU_MODE_ALL one, whose counters
 * count others by design) observes exactly what it observes running alone with the same runs.
 */
#include <string.h>

#include <arch/sysreg.h>
#include <vperf/mdcr.h>

#include "fuzz_input.h"
#include "trap_world.h"

/* What one vCPU did and saw: its own ops (an index into ops, or PUT_MARK for a put) in order. */
#define PUT_MARK 0xffff
struct trace {
	uint16_t steps[2 * MAX_OPS + 2];
	unsigned int nr_steps;
	uint64_t obs[MAX_OBS];
	unsigned int nr_obs;
};

static struct trace shared[MAX_VCPUS], alone;

static void observe(struct trace *t, uint64_t v)
{
	if (t->nr_obs < MAX_OBS)
		t->obs[t->nr_obs++] = v;
}

/* ---- one vCPU's own ops --------------------------------------------------------------------------- */

static bool vm_on(const struct hv_vcpu *vc)
{
	return vc->v.vm->cfg.pmu_mode != VPERF_PMU_OFF;
}

/* The guest sees SPE: a VM with SPE not profiled from outside (docs/vspe.md). */
static bool vm_spe(const struct hv_vcpu *vc)
{
	return vc->v.vm->cfg.spe && vc->v.vm->cfg.spe_buffer != VPERF_SPE_BUF_EL2;
}

static bool spe_slot(const struct vperf_sysreg_desc *d)
{
	return d->slot >= VPERF_SLOT_SPE_PMSCR;
}

/* How far a guest's Profiling Buffer got (PMBPTR_EL1, PMBSR_EL1, PMSICR_EL1) depends on which
 * samples collide with an operation still in flight (SPE 2.2.4), and the model lets one be in
 * flight across a switch, so on who ran in between: not an observation of the differential
 * check; the record check covers where the records went. */
static bool progress_reg(const struct hv_vcpu *vc, uint32_t enc)
{
	return vm_spe(vc) && (enc == VPERF_ENC_PMBPTR_EL1 || enc == VPERF_ENC_PMBSR_EL1 ||
			      enc == VPERF_ENC_PMSICR_EL1);
}

/* Accesses that must be UNDEF whatever the state: the oracle of the raw path. */
static bool must_undef(const struct hv_vcpu *vc, uint32_t enc, bool read)
{
	const struct vperf_sysreg_desc *d = vperf_sysreg_lookup(enc);

	if (!d || (spe_slot(d) ? !vm_spe(vc) : !vm_on(vc)))
		return true;
	if (!(d->access & (read ? VPERF_ACC_RO : VPERF_ACC_WO)))
		return true;
	return (d->slot == VPERF_SLOT_PMEVCNTR || d->slot == VPERF_SLOT_PMEVTYPER) &&
	       vperf_pmev_index(enc) >= vc->v.vm->cfg.nr_counters;
}

/* ESR_EL2 for EC = 0x18 decoded here from the ISS layout of Arm DDI 0487 K.a D24.2.40, not by
 * vperf. */
struct raw {
	bool sysreg, read;
	uint32_t enc;
	unsigned int rt;
};

static struct raw raw_decode(uint64_t esr)
{
	struct raw r = { .sysreg = (esr >> 26 & 0x3f) == 0x18, .read = esr & 1 };

	r.enc = VPERF_SYSREG_ENC(esr >> 20 & 3, esr >> 14 & 7, esr >> 10 & 15, esr >> 1 & 15,
				 esr >> 17 & 7);
	r.rt = (unsigned int)(esr >> 5 & 31);
	return r;
}

/* The PMU and SPE register groups, from the System register index of Arm DDI 0487 (SPE 4.1;
 * PMSSCR_EL1 at S3_0_C9_C13_3): what vperf must claim, and nothing else (not FEAT_TRBE's
 * S3_0_C9_C11_*). Written here independently of vperf_sysreg_in_space(). */
static bool pmu_spe_group(uint32_t enc)
{
	unsigned int op0 = VPERF_ENC_OP0(enc), op1 = VPERF_ENC_OP1(enc);
	unsigned int crn = VPERF_ENC_CRN(enc), crm = VPERF_ENC_CRM(enc);

	if (op0 != 3 || op1 == 1 || op1 == 2 || op1 > 3)
		return false;
	if (crn == 14)
		return op1 == 3 && crm >= 8;
	if (crn != 9)
		return false;
	/* op1 3, CRm 4 and 6: PMICNTR_EL0 (S3_3_C9_C4_0), PMICFILTR_EL0 (S3_3_C9_C6_0). */
	return op1 == 0 ? (crm == 9 || crm == 10 || crm == 13 || crm == 14)
			: (crm == 12 || crm == 13 || crm == 14 || crm == 4 || crm == 6);
}

static bool spe_untrapped(const struct hv_vcpu *vc)
{
	enum vperf_spe_buffer b = vc->v.vm->cfg.spe_buffer;

#ifdef CONFIG_VPERF_VSPE_BUFFER_UNTRAPPED
	return b == VPERF_SPE_BUF_EL1 || b == VPERF_SPE_BUF_DEFAULT;
#else
	return b == VPERF_SPE_BUF_EL1;
#endif
}

/* The PE traps a PMU register only under MDCR_EL2.TPM (TPMS and E2PB always trap SPE's here).
 * A direct-partition vCPU runs with TPM clear or set depending on the schedule (not on its
 * program), so it gets no raw syndrome of a PMU register at all: its model-driven accesses
 * cover it. */
static bool would_trap(const struct hv_vcpu *vc, uint32_t enc)
{
	const struct vperf_sysreg_desc *d = vperf_sysreg_lookup(enc);

	/* SPE: PMBIDR_EL1 never traps, and the PMB* of an untrapped buffer (E2PB = 0b11) trap or
	 * not with the schedule, as the direct partition's PMU registers do. */
	if (d && spe_slot(d) && vm_spe(vc))
		return d->trap != VPERF_TRAP_NONE &&
		       !((d->trap & VPERF_TRAP_E2PB) && spe_untrapped(vc));
	return !d || !(d->trap & (VPERF_TRAP_TPM | VPERF_TRAP_TPMCR)) ||
	       vc->v.vm->cfg.partition != VPERF_PART_DIRECT;
}

static void do_raw(struct trace *t, struct hv_vcpu *vc, const struct op *o)
{
	uint64_t gprs[31], before[31];
	unsigned int undefs = hv.undefs, adv = hv.pc_advances;
	struct raw a = raw_decode(o->a);
	bool mine = a.sysreg && pmu_spe_group(a.enc);
	enum vperf_trap_result r;

	if (mine && !would_trap(vc, a.enc))
		return;
	for (unsigned int i = 0; i < 31; i++)
		gprs[i] = before[i] = o->b * (i + 1);
	r = hv_raw_trap(o->a, gprs, o->el);
	FUZZ_CHECK((r == VPERF_TRAP_NOT_MINE) == !mine);
	FUZZ_CHECK(hv.undefs - undefs == (r == VPERF_TRAP_UNDEF));
	FUZZ_CHECK(hv.pc_advances - adv == (r == VPERF_TRAP_HANDLED));
	for (unsigned int i = 0; i < 31; i++)
		FUZZ_CHECK(gprs[i] == before[i] ||
			   (r == VPERF_TRAP_HANDLED && a.read && i == a.rt));
	if (mine && must_undef(vc, a.enc, a.read))
		FUZZ_CHECK(r == VPERF_TRAP_UNDEF);
	observe(t, (uint64_t)r);
	observe(t, mine && a.read && a.rt < 31 && !progress_reg(vc, a.enc) ? gprs[a.rt] : 0);
}

static void do_access(struct trace *t, struct hv_vcpu *vc, const struct op *o)
{
	const struct vperf_sysreg_desc *d = vperf_sysreg_lookup(o->enc);
	enum sim_access last;
	uint64_t v = 0;

	if (!o->enc) { /* the guest's SPE driver, at EL1: where it got is progress */
		uint64_t seen[2] = { 0, 0 };

		trap_spe_driver(o->a, seen);
		return;
	}
	sim_set_el(o->el);
	if (o->read)
		v = guest_mrs(o->enc);
	else
		guest_msr(o->enc, o->a);
	/* A counter at or above the guest's N is never reached. */
	if (d && vm_on(vc) && (d->slot == VPERF_SLOT_PMEVCNTR || d->slot == VPERF_SLOT_PMEVTYPER) &&
	    vperf_pmev_index(o->enc) >= vc->v.vm->cfg.nr_counters)
		FUZZ_CHECK(sim_guest_stats(sim_current_cpu())->last == SIM_ACC_UNDEF ||
			   sim_guest_stats(sim_current_cpu())->last == SIM_ACC_TRAP_EL1);
	sim_set_el(1);
	/* Whether it trapped to EL2 is not the guest's to see; UNDEF or a trap to its EL1 is. */
	last = sim_guest_stats(sim_current_cpu())->last;
	observe(t, last == SIM_ACC_TRAP_EL2 ? SIM_ACC_OK : last);
	observe(t, progress_reg(vc, o->enc) ? 0 : v);
}

static void do_run(const struct hv_vcpu *vc, const struct op *o)
{
	uint64_t base = trap_spe_pc((unsigned int)(vc->v.vm - hv.vm));
	uint64_t r = o->a;
	/* With SPE, long enough to be sampled at the shortest interval (256, SPE 3.1.1). */
	unsigned int n = (1 + (unsigned int)(r & 15)) * (base ? 4 : 1);

	for (unsigned int i = 0; i < n;
	     i++, r = r * 6364136223846793005ull + 1442695040888963407ull) {
		struct sim_uop u = {
			.pc = base + 0x8000 + (r >> 8 & 0xff0),
			.vaddr = 0x100000 + (r >> 20 & 0xfff8),
			.latency = 1 + (uint32_t)(r >> 32 & 7),
			.type = (uint8_t)(r >> 36 & 3),
			.flags = (uint32_t)(r >> 40 & (SIM_UOP_L1D_REFILL | SIM_UOP_MISPRED)),
		};

		hv_run(&u, 1);
	}
}

static uint64_t fnv(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* A vCPU that is not loaded: save and restore into itself (always accepted), or reset. */
static void do_offline(struct trace *t, struct hv_vcpu *vc, const struct op *o)
{
	static uint8_t blob[VPERF_VSPE_BLOB_SIZE];
	const struct vperf_vm_config *c = &vc->v.vm->cfg;
	int size = c->spe ? VPERF_VSPE_BLOB_SIZE : VPERF_VPMU_BLOB_SIZE;
	int rc;

	if (o->kind == OP_RESET) {
		observe(t, (uint64_t)vperf_vcpu_reset(&vc->v));
		return;
	}
	rc = vperf_vcpu_save(&vc->v, blob, sizeof(blob));
	FUZZ_CHECK(rc == (vm_on(vc) || c->spe ? size : VPERF_ENODEV));
	if (rc > 0) {
		FUZZ_CHECK(vperf_vcpu_restore(&vc->v, blob, (size_t)rc) == VPERF_OK);
		/* A vSPE blob holds the buffer's progress (progress_reg). */
		observe(t, vm_spe(vc) ? 0 : fnv(blob, (size_t)rc));
	}
}

static void do_own(struct trace *t, struct hv_vcpu *vc, const struct op *o)
{
	switch (o->kind) {
	case OP_ACCESS:
		do_access(t, vc, o);
		break;
	case OP_RAW:
		do_raw(t, vc, o);
		break;
	case OP_RUN:
		do_run(vc, o);
		break;
	default:
		do_offline(t, vc, o);
		break;
	}
	/* The virtual line is observed once a PMUIRQ in flight has been taken: its latency is the
	 * model's seeded choice (GICv3 gives no bound), and it differs between the shared and the
	 * alone run, as the isolation property test settles it too (hv_settle). Only while the
	 * vCPU is loaded: after a reset or restore of a vCPU that is not, the line is pushed at its
	 * next load (vperf.h), before the guest runs, so what the hypervisor holds until then is
	 * stale by design and differs with whether a load came in between. */
	if (vc->v.pcpu) {
		hv_settle();
		observe(t, vc->irq_level);
	}
	trap_check_world();
}

/* ---- the shared run and the alone runs ---------------------------------------------------------- */

static void step(unsigned int i, uint16_t s)
{
	struct trace *t = &shared[i];

	if (t->nr_steps < VPERF_ARRAY_SIZE(t->steps))
		t->steps[t->nr_steps++] = s;
}

static void put(unsigned int cpu)
{
	if (hv.running[cpu]) {
		step((unsigned int)(hv.running[cpu] - hv.vcpu), PUT_MARK);
		hv_leave(cpu);
	}
}

static void spurious_irq(unsigned int cpu)
{
	sim_set_cpu(cpu);
	sim_enter_el2(cpu);
	vperf_handle_pmu_irq(&hv.pcpu[cpu]);
	sim_exit_el2(cpu);
	trap_check_world();
}

static void run_shared(void)
{
	trap_init_world();
	for (unsigned int k = 0; k < world.nr_ops; k++) {
		const struct op *o = &world.ops[k];
		struct hv_vcpu *vc = &hv.vcpu[o->vcpu];
		struct hv_vcpu *on = hv.running[o->cpu];

		trap_cpu_up(o->cpu);
		sim_set_cpu(o->cpu);
		if (o->kind == OP_ENTER && on != vc) {
			if (hv.running[o->cpu ^ 1] == vc)
				put(o->cpu ^ 1); /* a migration */
			put(o->cpu);
			hv_enter(vc, o->cpu);
		} else if (o->kind == OP_LEAVE) {
			put(o->cpu);
		} else if (o->kind == OP_IRQ) {
			spurious_irq(o->cpu);
		} else if (o->kind >= OP_ROUNDTRIP && hv.running[0] != vc && hv.running[1] != vc) {
			step(o->vcpu, (uint16_t)k);
			do_own(&shared[o->vcpu], vc, o);
		} else if (o->kind >= OP_ACCESS && o->kind <= OP_RUN && on) {
			step((unsigned int)(on - hv.vcpu), (uint16_t)k);
			do_own(&shared[on - hv.vcpu], on, o);
		}
	}
	put(0);
	put(1);
}

/* The VMs' policies as the shared run had them (a refused one: its PMU off). */
static struct vperf_vm_config shared_cfg[MAX_VMS];

/* A second-range vCPU (its VM accepted with a vPMU in the shared run). */
static bool second_vcpu(unsigned int i)
{
	return shared_cfg[world.vm_of[i]].partition == VPERF_PART_SECOND &&
	       shared_cfg[world.vm_of[i]].pmu_mode != VPERF_PMU_OFF;
}

/* vCPU i alone on pCPU 0, with the same ops and, with keep_puts, the same runs (a put where it
 * had one); without, in one run but where a blob round trip or a reset needs a put. With
 * trapped, a second-range vCPU's VM is in the trapped partition, on pCPUs whose host keeps the
 * second range above the same HPMN (its host_counters the rest below the agent's): what the
 * guest observes does not depend on where its counters are (docs/vpmu.md, "The second range"),
 * so a translation wrong the same way shared and alone shows against it. The same HPMN, as an
 * EL0 access to a counter in [N, HPMN) with EL0 access disabled traps to the guest's EL1 in
 * both partitions (docs/vpmu.md, the trapped partition's known limit), and from HPMN on is
 * UNDEFINED. */
static void run_alone(unsigned int i, bool keep_puts, bool trapped)
{
	struct vperf_vm_config *cfg = &world.vm[world.vm_of[i]];
	bool second = trapped && second_vcpu(i);
	uint8_t host = world.pcfg.host_counters;
	struct hv_vcpu *vc;

	memset(&alone, 0, sizeof(alone));
	if (second) {
		cfg->partition = VPERF_PART_TRAPPED;
		world.pcfg.host_first_range = world.pcfg.host_el1 = false;
		world.pcfg.host_counters =
			(uint8_t)(world.model.nr_counters - world.pcfg.agent_counters - host);
	}
	trap_init_world();
	if (second) {
		cfg->partition = VPERF_PART_SECOND;
		world.pcfg.host_first_range = world.pcfg.host_el1 = true;
		world.pcfg.host_counters = host;
	}
	vc = &hv.vcpu[i];
	for (unsigned int s = 0; s < shared[i].nr_steps; s++) {
		uint16_t k = shared[i].steps[s];
		bool offline = k != PUT_MARK && world.ops[k].kind >= OP_ROUNDTRIP;

		if (k == PUT_MARK && !keep_puts)
			continue;
		if (k == PUT_MARK && !hv.running[0])
			hv_enter(vc, 0); /* a run with no op of its own */
		if (k == PUT_MARK || (offline && hv.running[0])) {
			hv_leave(0);
			if (k == PUT_MARK)
				continue;
		}
		if (!offline && !hv.running[0])
			hv_enter(vc, 0);
		sim_set_cpu(0);
		do_own(&alone, vc, &world.ops[k]);
	}
	hv_leave(0);
}

/* What a failing differential run needs to be read: the world, the vCPU's steps, the values. */
static void explain(unsigned int i, bool keep_puts, unsigned int k)
{
	fprintf(stderr,
		"PMUVer %u N %u host %u agent %u%s; vCPU %u of VM %u (mode %d part %d N %u "
		"slots %u), %s puts: observation %u is 0x%llx shared, 0x%llx alone\n",
		world.model.pmuver, world.model.nr_counters, world.pcfg.host_counters,
		world.pcfg.agent_counters, world.agent_flag ? " (flag)" : "", i, world.vm_of[i],
		shared_cfg[world.vm_of[i]].pmu_mode, shared_cfg[world.vm_of[i]].partition,
		shared_cfg[world.vm_of[i]].nr_counters, shared_cfg[world.vm_of[i]].emu_slots,
		keep_puts ? "with" : "without", k,
		k < shared[i].nr_obs ? (unsigned long long)shared[i].obs[k] : 0ull,
		k < alone.nr_obs ? (unsigned long long)alone.obs[k] : 0ull);
	for (unsigned int s = 0; s < shared[i].nr_steps; s++) {
		const struct op *o = &world.ops[shared[i].steps[s] % MAX_OPS];

		if (shared[i].steps[s] == PUT_MARK)
			fprintf(stderr, "  put\n");
		else
			fprintf(stderr, "  op %u: kind %u el %u read %u enc 0x%x a 0x%llx\n",
				shared[i].steps[s], o->kind, o->el, o->read, o->enc,
				(unsigned long long)o->a);
	}
}

static void compare(unsigned int i, bool keep_puts)
{
	unsigned int k = 0;

	while (k < alone.nr_obs && k < shared[i].nr_obs && alone.obs[k] == shared[i].obs[k])
		k++;
	if (k == alone.nr_obs && k == shared[i].nr_obs)
		return;
	explain(i, keep_puts, k);
	FUZZ_CHECK(!"each vCPU observes what it observes alone");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!trap_decode(data, size))
		return 0;
	memset(shared, 0, sizeof(shared));
	run_shared();
	trap_spe_check_records();
	for (unsigned int v = 0; v < world.nr_vms; v++)
		shared_cfg[v] = hv.vm[v].cfg;
	for (unsigned int i = 0; i < world.nr_vcpus; i++) {
		const struct vperf_vm_config *c = &shared_cfg[world.vm_of[i]];

		if (c->pmu_mode == VPERF_PMU_ALL)
			continue;
		run_alone(i, true, false);
		compare(i, true);
		if (second_vcpu(i)) {
			run_alone(i, true, true);
			compare(i, true);
		}
		/* Outside the emulated partition (whose multiplexing slices are runs), a put and a
		 * load are invisible to the guest; but not to its sampling, which depends on time
		 * (a collision is a sample taken while the previous one is in flight, SPE 2.2.4), and
		 * a put's EL2 cycles move the guest's operations in time. */
		if (c->partition != VPERF_PART_EMULATED &&
		    !(c->spe && c->spe_buffer != VPERF_SPE_BUF_EL2)) {
			run_alone(i, false, false);
			compare(i, false);
		}
	}
	return 0;
}
