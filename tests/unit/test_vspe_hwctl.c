// SPDX-License-Identifier: MIT
/*
 * The record of each pCPU's SPE sampling controls (virt/vspe/hwctl.h; docs/vspe.md, "The
 * controls in the hardware"): a load writes PMSCR_EL2, PMSIRR_EL1, PMSFCR_EL1, PMSEVFR_EL1,
 * PMSLATFR_EL1 and PMSNEVFR_EL1 only where the hardware holds another value. What must hold
 * whatever the record says: while a guest samples, the model's registers are exactly its
 * controls and its VM's PMSCR_EL2 (checked after every load), and its records are filtered by
 * them (loads only for one VM, stores of at least a latency for the other; physical addresses by
 * each VM's policy, SPE 3.3). On SPEv1, v1p1 and v1p2 (PMSNEVFR_EL1), trapped and untrapped
 * buffers, across pCPUs, around a host that profiles itself (or only keeps its PMSCR_EL2.PA), a
 * VM profiled from outside, a hypervisor that writes the controls itself and calls
 * vperf_pcpu_flush, and a CPU reset followed by vperf_pcpu_init.
 */
#include <stdlib.h>

#include "cmocka_wrap.h"
#include "vspe_util.h"
#include <arch/sysreg.h>
#include <vperf/spe_rec.h>

/* Fields written out from SPE 4.3.9, 4.3.12, 4.3.13 and 4.3.7 (not taken from vperf). */
#define FT	    0x2ull
#define FL	    0x4ull
#define LD	    (1ull << 17)
#define ST	    (1ull << 18)
#define INTERVAL_2  0x200ull	  /* PMSIRR_EL1.INTERVAL = 2 */
#define MINLAT	    6u		  /* PMSLATFR_EL1.MINLAT of VM 1 */
#define EV_RETIRED  (1ull << 1)	  /* PMSEVFR_EL1 / PMSNEVFR_EL1 E[1] */
#define E2SPE	    0x2ull	  /* PMSCR_EL2.E2SPE, as vs_init_host sets it */
#define GARBAGE	    0x5a5a5a00ull /* an UNKNOWN reset value (SPE 4.2) */
#define OUTSIDE_CTX 0x77u

/* The recorded controls, in hwctl.h's order; PMSNEVFR_EL1 only from SPEv1p2. */
static const uint32_t ctl_enc[] = {
	VPERF_ENC_PMSIRR_EL1,	VPERF_ENC_PMSFCR_EL1,	VPERF_ENC_PMSEVFR_EL1,
	VPERF_ENC_PMSLATFR_EL1, VPERF_ENC_PMSNEVFR_EL1, VPERF_ENC_PMSCR_EL2,
};
#define NCTL	   6u
#define ALL_CTLS   ((1u << NCTL) - 1)
#define C_PMSIRR   (1u << 0)
#define C_PMSFCR   (1u << 1)
#define C_PMSEVFR  (1u << 2)
#define C_PMSLATFR (1u << 3)
#define C_PMSNEVFR (1u << 4)
#define C_PMSCR2   (1u << 5)

static const enum vperf_spe_buffer policies[] = { VPERF_SPE_BUF_EL1_TRAPPED, VPERF_SPE_BUF_EL1 };

static struct lx_spe lx[2];
static struct lx_ctl ctl[2]; /* VM i's controls */
static bool pa[2];	     /* VM i's policy allows physical addresses (PMSCR_EL2.PA) */
static uint8_t pmsver;

/* fn for each SPE version and each guest-owned buffer policy. */
static void each_version_policy(void (*fn)(enum vperf_spe_buffer))
{
	for (pmsver = 1; pmsver <= 3; pmsver++)
		for (unsigned int p = 0; p < 2; p++)
			fn(policies[p]);
}

/* VM 0: loads only, one op in 257, physical addresses allowed. VM 1: stores of MINLAT cycles or
 * more, one op in 513, PMSEVFR_EL1 the same as VM 0's (a register the switch never writes),
 * PMSNEVFR_EL1 another (SPEv1p2). FE and FnE stay off: the event registers are there to differ,
 * not to filter. */
static void set_ctls(void)
{
	ctl[0] = (struct lx_ctl){ .pmsirr = V_INTERVAL_1, .pmsfcr = FT | LD };
	ctl[1] =
		(struct lx_ctl){ .pmsirr = INTERVAL_2, .pmsfcr = FT | ST | FL, .pmslatfr = MINLAT };
	if (pmsver >= 3)
		ctl[1].pmsnevfr = EV_RETIRED;
	pa[0] = true;
	pa[1] = false;
}

/* The controls present on this PE. */
static unsigned int present(void)
{
	return pmsver >= 3 ? ALL_CTLS : ALL_CTLS & ~C_PMSNEVFR;
}

/* The controls whose value VM 0 and VM 1 do not share. */
static unsigned int differ(void)
{
	return (C_PMSIRR | C_PMSFCR | C_PMSLATFR | C_PMSCR2 | C_PMSNEVFR) & present();
}

static int vm(unsigned int i, enum vperf_spe_buffer buf)
{
	const struct vperf_vm_config spe = { .spe = true, .spe_buffer = buf, .spe_pa = pa[i] };

	return vs_vm_cfg(i, &spe, true);
}

/* Which controls vperf wrote on cpu since its trace held `since` events. */
static unsigned int ctl_writes(unsigned int cpu, uint64_t since)
{
	uint64_t first, end;
	unsigned int mask = 0;

	assert_true(sim_trace_since(cpu, since, &first, &end));
	for (uint64_t i = first; i < end; i++) {
		const struct sim_event *e = sim_trace_at(cpu, i);

		for (unsigned int c = 0; c < NCTL; c++)
			if (e->kind == SIM_WRITE && e->enc == ctl_enc[c])
				mask |= 1u << c;
	}
	return mask;
}

/* The hardware of cpu holds exactly VM i's controls and PMSCR_EL2. */
static void expect_hw(unsigned int cpu, unsigned int i)
{
	const struct lx_ctl *c = &ctl[i];

	assert_int_equal(sim_peek(cpu, VPERF_ENC_PMSIRR_EL1), c->pmsirr);
	assert_int_equal(sim_peek(cpu, VPERF_ENC_PMSFCR_EL1), c->pmsfcr);
	assert_int_equal(sim_peek(cpu, VPERF_ENC_PMSEVFR_EL1), c->pmsevfr);
	assert_int_equal(sim_peek(cpu, VPERF_ENC_PMSLATFR_EL1), c->pmslatfr);
	if (pmsver >= 3)
		assert_int_equal(sim_peek(cpu, VPERF_ENC_PMSNEVFR_EL1), c->pmsnevfr);
	assert_int_equal(sim_peek(cpu, VPERF_ENC_PMSCR_EL2), pa[i] ? V_PMSCR_PA : 0);
}

/* n operations of VM lx->vm's loop, loads and stores in turn, 2 to 10 cycles each, in vc (the
 * vCPU running on the current pCPU), taking its buffer interrupt as the guest would. */
static void run_mixed(struct lx_spe *l, struct hv_vcpu *vc, unsigned int n)
{
	for (unsigned int j = 0; j < n; j++) {
		const struct sim_uop op = {
			.pc = V_LOOP_PC(l->vm),
			.vaddr = 0x7f0000000000ull + (j % 64) * 64,
			.latency = 2 + j % 9,
			.issue_lat = 1,
			.type = j & 1 ? SIM_UOP_STORE : SIM_UOP_LOAD,
			.size_log2 = 3,
		};

		guest_run(&op, 1);
		if (vc->spe_irq_level)
			lx_irq(l);
	}
}

/* Every record of l's session was filtered by VM i's controls: VM 0's are loads, VM 1's stores of
 * MINLAT cycles or more; a physical address in each as its VM's policy says. Returns how many
 * there are. */
static unsigned int check_records(const struct lx_spe *l, unsigned int i)
{
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	unsigned int n = 0;

	vperf_spe_iter_init(&it, l->data, l->len);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		assert_int_equal(rec.addr[VPERF_SPE_ADDR_PC].addr, V_LOOP_PC(l->vm));
		assert_true(rec.have & VPERF_SPE_HAVE_OP);
		assert_int_equal(rec.op.type, VPERF_SPE_OP_LDST_GP);
		assert_int_equal(!!(rec.op.flags & VPERF_SPE_OPF_ST), i == 1);
		assert_int_equal(!!(rec.have & VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_DATA_PA)), pa[i]);
		if (i == 1) {
			assert_true(rec.have & VPERF_SPE_HAVE_CNT(VPERF_SPE_CNT_TOTAL));
			assert_true(rec.cnt[VPERF_SPE_CNT_TOTAL] >= MINLAT);
		}
		n++;
	}
	assert_int_equal(it.nerrors, 0);
	return n;
}

/* VM i's guest starts its session in vc on cpu (its controls written while its buffer is live:
 * trapped PMS* writes reach the hardware through the record). */
static void start(unsigned int i, struct hv_vcpu *vc, unsigned int cpu)
{
	lx[i] = (struct lx_spe){
		.vm = i, .size = V_BUF_SIZE, .pmscr = V_PMSCR_E1SPE | V_PMSCR_PA, .ctl = &ctl[i]
	};
	hv_enter(vc, cpu);
	lx_probe();
	lx_start(&lx[i]);
	expect_hw(cpu, i);
}

/* Stop both sessions and check every record (at least `min` each). */
static void finish(struct hv_vcpu *vc[2], unsigned int min)
{
	for (unsigned int i = 0; i < 2; i++) {
		for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
			if (cpu != vc[i]->cpu && hv.running[cpu] == vc[i])
				hv_leave(cpu);
		hv_enter(vc[i], vc[i]->cpu);
		lx_stop(&lx[i]);
		assert_int_equal(lx[i].fatal, 0);
		assert_true(check_records(&lx[i], i) >= min);
	}
	assert_int_equal(sim_error_count(), 0);
}

/* A pCPU's first load writes every control, whatever the hardware happens to hold (its reset
 * values are IMPLEMENTATION DEFINED, SPE 4.2: here the guest's own values for some, garbage for
 * the rest); after that, two vCPUs of one VM switched on it write none, and the hardware still
 * holds their controls. */
/* VM 0 with buffer policy b0 and VM 1 with b1, each with its controls (set_ctls), their vCPUs
 * vc[0] and vc[1] started sampling on pCPU 0. */
static void start_two_vms(enum vperf_spe_buffer b0, enum vperf_spe_buffer b1, struct hv_vcpu *vc[2])
{
	set_ctls();
	assert_int_equal(vm(0, b0), VPERF_OK);
	assert_int_equal(vm(1, b1), VPERF_OK);
	for (unsigned int i = 0; i < 2; i++) {
		vc[i] = hv_vcpu(i, i);
		start(i, vc[i], 0);
	}
}

static void skip_when_equal(enum vperf_spe_buffer buf)
{
	struct hv_vcpu *vc[2];
	uint64_t t;

	vs_init(pmsver, 0, 1);
	set_ctls();
	assert_int_equal(vm(0, buf), VPERF_OK);
	for (unsigned int c = 0; c < NCTL; c++)
		if ((present() >> c) & 1)
			sim_poke(0, ctl_enc[c], c % 2 ? 0 : GARBAGE);
	for (unsigned int i = 0; i < 2; i++)
		vc[i] = hv_vcpu(i, 0);
	hv_enter(vc[0], 0);
	t = sim_cpu(0)->trace_len;
	start(0, vc[0], 0);
	assert_int_equal(ctl_writes(0, t), present());
	/* vCPU 1 in the upper half of the VM's buffer (vCPU 0 fills a few records from the
	 * bottom) */
	lx[1] = (struct lx_spe){ .vm = 0,
				 .va = V_BUF_VA + V_BUF_SIZE / 2,
				 .size = V_BUF_SIZE / 2,
				 .pmscr = lx[0].pmscr,
				 .ctl = &ctl[0] };
	hv_enter(vc[1], 0);
	lx_start(&lx[1]);
	for (unsigned int round = 0; round < 12; round++) {
		unsigned int i = round % 2;

		t = sim_cpu(0)->trace_len;
		hv_enter(vc[i], 0);
		assert_int_equal(ctl_writes(0, t), 0);
		expect_hw(0, 0);
		run_mixed(&lx[i], vc[i], 500);
	}
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0);
}

static void test_skip_when_equal(void **state)
{
	(void)state;
	each_version_policy(skip_when_equal);
}

/* Two VMs with different controls alternate on one pCPU: each load writes exactly the controls
 * the two do not share, the hardware holds the loaded guest's, and each VM's records are
 * filtered by its own. */
static void two_vms(enum vperf_spe_buffer b0, enum vperf_spe_buffer b1)
{
	struct hv_vcpu *vc[2];
	uint64_t t;

	vs_init(pmsver, 0, 2);
	start_two_vms(b0, b1, vc);
	for (unsigned int round = 0; round < 24; round++) {
		unsigned int i = round % 2;

		t = sim_cpu(0)->trace_len;
		hv_enter(vc[i], 0);
		assert_int_equal(ctl_writes(0, t), differ());
		expect_hw(0, i);
		run_mixed(&lx[i], vc[i], 1500);
	}
	finish(vc, 5);
}

static void test_two_vms_filters(void **state)
{
	(void)state;
	for (pmsver = 1; pmsver <= 3; pmsver++)
		for (unsigned int p = 0; p < 4; p++)
			two_vms(policies[p & 1], policies[p >> 1]);
}

/* The hypervisor profiles with the same registers between two runs of a vCPU (not through
 * host_spe) and calls vperf_pcpu_flush, as docs/integration.md asks: the next load writes every
 * control, even where the hypervisor left the guest's value. */
/* After the record was forgotten: vCPU vc's load on pCPU 0 writes every control, the hardware then
 * holds VM 0's, and its records are filtered by them. */
static void expect_full_load(struct hv_vcpu *vc)
{
	uint64_t t = sim_cpu(0)->trace_len;

	hv_enter(vc, 0);
	assert_int_equal(ctl_writes(0, t), present());
	expect_hw(0, 0);
	run_mixed(&lx[0], vc, 1500);
	lx_stop(&lx[0]);
	assert_true(check_records(&lx[0], 0) >= 5);
	assert_int_equal(sim_error_count(), 0);
}

/* A fresh world (seed), VM 0 alone with buffer policy buf: its vCPU sampled on pCPU 0 and was
 * put. */
static struct hv_vcpu *vm0_ran(enum vperf_spe_buffer buf, unsigned int seed)
{
	struct hv_vcpu *vc;

	vs_init(pmsver, 0, seed);
	set_ctls();
	assert_int_equal(vm(0, buf), VPERF_OK);
	vc = hv_vcpu(0, 0);
	start(0, vc, 0);
	run_mixed(&lx[0], vc, 1500);
	hv_leave(0);
	return vc;
}

static void flush_forgets(enum vperf_spe_buffer buf)
{
	struct hv_vcpu *vc;

	vc = vm0_ran(buf, 3);
	write_sysreg(FT | ST, PMSFCR_EL1); /* the hypervisor's own filter ... */
	write_sysreg(E2SPE, PMSCR_EL2);
	isb();
	vperf_pcpu_flush(&hv.pcpu[0]); /* ... which it says it wrote */
	expect_full_load(vc);
}

static void test_flush_forgets(void **state)
{
	(void)state;
	each_version_policy(flush_forgets);
}

/* Two VMs' vCPUs migrate between two pCPUs (eager puts: nothing to flush): each pCPU's record is
 * its own, so a load writes what differs from the last controls on that pCPU, nothing when the
 * same vCPU comes back to it, and the hardware always holds the loaded guest's. */
static void test_migration(void **state)
{
	/* (vCPU, pCPU) in order: each vCPU moves, and comes back where it ran last. */
	static const unsigned int plan[][2] = { { 1, 0 }, { 0, 1 }, { 0, 0 }, { 1, 1 },
						{ 1, 0 }, { 1, 1 }, { 0, 1 }, { 0, 0 } };
	struct hv_vcpu *vc[2];
	unsigned int last[2] = { 0, 1 }; /* the VM whose controls each pCPU holds */

	(void)state;
	for (pmsver = 1; pmsver <= 3; pmsver++) {
		vs_init(pmsver, 0, 4);
		set_ctls();
		assert_int_equal(vm(0, VPERF_SPE_BUF_EL1_TRAPPED), VPERF_OK);
		assert_int_equal(vm(1, VPERF_SPE_BUF_EL1), VPERF_OK);
		for (unsigned int i = 0; i < 2; i++) {
			vc[i] = hv_vcpu(i, i);
			start(i, vc[i], i);
			last[i] = i;
		}
		for (unsigned int s = 0; s < sizeof(plan) / sizeof(plan[0]); s++) {
			unsigned int i = plan[s][0], cpu = plan[s][1];
			uint64_t t;

			for (unsigned int other = 0; other < 2; other++)
				if (hv.running[other] == vc[i] && other != cpu)
					hv_leave(other);
			t = sim_cpu(cpu)->trace_len;
			hv_enter(vc[i], cpu);
			assert_int_equal(ctl_writes(cpu, t), last[cpu] == i ? 0 : differ());
			expect_hw(cpu, i);
			last[cpu] = i;
			run_mixed(&lx[i], vc[i], 4000);
		}
		finish(vc, 5);
	}
}

/* A host that samples its own code into its own buffer between the guests (host_spe) and
 * changes its filter meanwhile (sometimes to the value VM 0 uses): its controls are restored at
 * each put and forgotten, so the next load writes every control (PMSCR_EL2 by the park, and by
 * the load where the VM's differs from the park's 0); each guest samples with its own, the
 * host with its own (all its records at EL2). */
static void test_host_between_guests(void **state)
{
	struct hv_vcpu *vc[2];

	(void)state;
	for (pmsver = 1; pmsver <= 3; pmsver++) {
		vs_init_host(pmsver, 5);
		start_two_vms(VPERF_SPE_BUF_EL1_TRAPPED, VPERF_SPE_BUF_EL1, vc);
		for (unsigned int round = 0; round < 16; round++) {
			unsigned int i =
				round % 3 == 2 ? 1 : 0; /* VM 0 twice in a row, then VM 1 */
			uint64_t host_fcr = round & 1 ? FT | LD : 0, t;

			hv_leave(0);
			assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), E2SPE);
			/* The host's driver changes its filter (VM 0's value, every other round). */
			write_sysreg(host_fcr, PMSFCR_EL1);
			isb();
			vs_host_run(200);
			t = sim_cpu(0)->trace_len;
			hv_enter(vc[i], 0);
			assert_int_equal(ctl_writes(0, t), present());
			expect_hw(0, i);
			run_mixed(&lx[i], vc[i], 4000);
			hv_leave(0);
			assert_int_equal(sim_peek(0, VPERF_ENC_PMSFCR_EL1), host_fcr);
		}
		finish(vc, 5);
		hv_leave(0);
		assert_true(vs_host_records(0) > 0);
	}
}

/* A VM profiled from outside (the host's buffer, PMSCR_EL2.CX for its records) runs between
 * runs of a guest with its own buffer: the guest's next load gives it its own PMSCR_EL2 back
 * (no CX: CONTEXTIDR_EL2 is the host's) and its controls. */
static void test_outside_between(void **state)
{
	const struct vperf_vm_config out = { .spe = true,
					     .spe_buffer = VPERF_SPE_BUF_EL2,
					     .spe_context = OUTSIDE_CTX };
	struct hv_vcpu *vc[2], *o;

	(void)state;
	pmsver = 3;
	vs_init_host(pmsver, 6);
	write_sysreg(0, PMSCR_EL2); /* the host samples only its guests */
	isb();
	set_ctls();
	assert_int_equal(vm(0, VPERF_SPE_BUF_EL1_TRAPPED), VPERF_OK);
	assert_int_equal(vm(1, VPERF_SPE_BUF_EL1), VPERF_OK);
	assert_int_equal(vs_vm_cfg(2, &out, true), VPERF_OK);
	o = hv_vcpu(2, 2);
	for (unsigned int i = 0; i < 2; i++) {
		vc[i] = hv_vcpu(i, i);
		start(i, vc[i], 0);
	}
	for (unsigned int round = 0; round < 6; round++) {
		unsigned int i = round % 2;

		hv_enter(o, 0);
		assert_true(sim_peek(0, VPERF_ENC_PMSCR_EL2) & V_PMSCR_CX);
		vs_run_loads(2, 300, 3);
		hv_enter(vc[i], 0);
		expect_hw(0, i);
		run_mixed(&lx[i], vc[i], 4000);
	}
	finish(vc, 5);
}

/* A guest's trapped PMS* write while its state is in the hardware goes through the record: a
 * write of the value the hardware holds writes nothing, another value is written, and the next
 * VM (whose value the record held before) gets its own back. */
static void test_trapped_write(void **state)
{
	struct hv_vcpu *vc[2];
	uint64_t t;

	(void)state;
	for (pmsver = 1; pmsver <= 3; pmsver++) {
		vs_init(pmsver, 0, 7);
		set_ctls();
		ctl[1] = ctl[0]; /* the same controls and policy in both VMs */
		pa[1] = pa[0];
		assert_int_equal(vm(0, VPERF_SPE_BUF_EL1_TRAPPED), VPERF_OK);
		assert_int_equal(vm(1, VPERF_SPE_BUF_EL1), VPERF_OK);
		for (unsigned int i = 0; i < 2; i++) {
			vc[i] = hv_vcpu(i, i);
			start(i, vc[i], 0);
		}
		hv_enter(vc[0], 0);
		t = sim_cpu(0)->trace_len;
		guest_write(PMSFCR_EL1, FT | LD); /* what the hardware holds */
		assert_int_equal(ctl_writes(0, t), 0);
		guest_write(PMSFCR_EL1, FT | ST);
		assert_int_equal(ctl_writes(0, t), C_PMSFCR);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMSFCR_EL1), FT | ST);
		isb();
		run_mixed(&lx[0], vc[0], 500);
		t = sim_cpu(0)->trace_len;
		hv_enter(vc[1], 0);
		assert_int_equal(ctl_writes(0, t), C_PMSFCR);
		expect_hw(0, 1);
		t = sim_cpu(0)->trace_len;
		hv_enter(vc[0], 0);
		assert_int_equal(ctl_writes(0, t), C_PMSFCR);
		assert_int_equal(sim_peek(0, VPERF_ENC_PMSFCR_EL1), FT | ST);
		hv_leave(0);
		assert_int_equal(sim_error_count(), 0);
	}
}

/* A host that keeps PMSCR_EL2.PA but samples nothing of its own (E2SPE = 0: PMSCR_EL2 is the
 * physical-address policy VM 0 also has): parking it writes PMSCR_EL2 = 0, and the record must
 * say 0, what the hardware holds, not the host's value it saved; otherwise VM 0's load finds
 * its PMSCR_EL2 "already there" and samples without PA (SPE 4.3.7). */
static void test_park_records_zero(void **state)
{
	struct hv_vcpu *vc[2];

	(void)state;
	for (pmsver = 1; pmsver <= 3; pmsver++) {
		vs_init_host(pmsver, 8);
		write_sysreg(V_PMSCR_PA, PMSCR_EL2);
		isb();
		start_two_vms(VPERF_SPE_BUF_EL1_TRAPPED, VPERF_SPE_BUF_EL1, vc);
		for (unsigned int round = 0; round < 6; round++) {
			unsigned int i = round % 2;

			hv_leave(0);
			assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), V_PMSCR_PA);
			hv_enter(vc[i], 0);
			expect_hw(0, i);
			run_mixed(&lx[i], vc[i], 4000);
		}
		finish(vc, 5);
	}
}

/* The CPU is reset between two runs of a vCPU (its SPE controls back to IMPLEMENTATION DEFINED
 * values, SPE 4.2: here garbage, and PMSCR_EL2 = 0) and the hypervisor calls vperf_pcpu_init
 * again, as docs/integration.md asks: the record of the old run is gone, and the next load
 * writes every control. */
static void reinit_forgets(enum vperf_spe_buffer buf)
{
	struct vperf_pcpu_config cfg;
	struct hv_vcpu *vc;

	vc = vm0_ran(buf, 9);
	for (unsigned int c = 0; c < NCTL; c++)
		if ((present() >> c) & 1)
			sim_poke(0, ctl_enc[c], ctl_enc[c] == VPERF_ENC_PMSCR_EL2 ? 0 : GARBAGE);
	cfg = hv.pcpu[0].cfg;
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[0], &cfg), VPERF_OK);
	write_sysreg(hv.pcpu[0].host_mdcr, MDCR_EL2);
	isb();
	expect_full_load(vc);
}

static void test_reinit_forgets(void **state)
{
	(void)state;
	each_version_policy(reinit_forgets);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skip_when_equal),
		cmocka_unit_test(test_two_vms_filters),
		cmocka_unit_test(test_flush_forgets),
		cmocka_unit_test(test_migration),
		cmocka_unit_test(test_host_between_guests),
		cmocka_unit_test(test_outside_between),
		cmocka_unit_test(test_trapped_write),
		cmocka_unit_test(test_park_records_zero),
		cmocka_unit_test(test_reinit_forgets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
