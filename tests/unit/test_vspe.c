// SPDX-License-Identifier: MIT
/*
 * The vSPE's policy and registers on the model: which VMs get SPE, MDCR_EL2 while they run, the
 * ID registers they see, RES0 masking of every trapped register, and the write pointer rules of
 * SPE 3.4.1 with the outcome a guest breaking them gets.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"

#include <arch/sysreg.h>
#include <vperf/esr.h>
#include <vperf/spe_rec.h>

#include "vspe_util.h"

static uint64_t peek(uint32_t enc)
{
	return sim_peek(0, enc);
}

static void test_policy(void **state)
{
	struct vperf_vm_config cfg = { .spe = true };

	(void)state;
	hv_init(NULL, 2); /* a PE without SPE */
	assert_int_equal(hv_vm(0, &cfg), VPERF_ENODEV);
	vs_init(1, 0, 1);
	cfg.spe_buffer = VPERF_SPE_BUF_EL2; /* no pCPU has a host-owned buffer (host_spe) */
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
	cfg.spe_buffer = (enum vperf_spe_buffer)7;
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
	cfg.spe_buffer = VPERF_SPE_BUF_EL1_TRAPPED;
	cfg.spe_virq = 40; /* not a PPI */
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
	cfg.spe_virq = 0;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	cfg.spe_buffer = VPERF_SPE_BUF_DEFAULT;
	cfg.spe_virq = 22;
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	assert_int_equal(vperf_vm_spe_virq(&hv.vm[0]), 22);
}

/* PMSVer only for a VM with SPE, at most SPEv1p2. */
static void test_id_dfr0(void **state)
{
	struct vperf_vm_config plain = { .pmu_mode = VPERF_PMU_OFF };
	uint64_t hw;

	(void)state;
	vs_init(5, 0, 1);
	hw = peek(VPERF_ENC_ID_AA64DFR0_EL1);
	assert_int_equal(V_PMSVER(hw), 5);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(hv_vm(1, &plain), VPERF_OK);
	assert_int_equal(V_PMSVER(vperf_vcpu_id_dfr0(&hv_vcpu(0, 0)->v, hw)), 3);
	assert_int_equal(V_PMSVER(vperf_vcpu_id_dfr0(&hv_vcpu(1, 1)->v, hw)), 0);
	vs_init(1, 0, 1);
	hw = peek(VPERF_ENC_ID_AA64DFR0_EL1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(V_PMSVER(vperf_vcpu_id_dfr0(&hv_vcpu(0, 0)->v, hw)), 1);
	/* pCPU 0 with SPEv1p2, pCPU 1 with SPEv1: a VM that may run on both sees SPEv1. */
	vs_init(3, 0, 1);
	hw = peek(VPERF_ENC_ID_AA64DFR0_EL1);
	sim_poke(1, VPERF_ENC_ID_AA64DFR0_EL1, (hw & ~(0xfull << 32)) | 1ull << 32);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &hv.pcpu[0].cfg), VPERF_OK);
	sim_set_cpu(0);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(V_PMSVER(vperf_vcpu_id_dfr0(&hv_vcpu(0, 0)->v, hw)), 1);
}

/* E2PB = 0b10 and TPMS for a vSPE VM; 0b00 for a VM without; the untrapped policy switches to
 * 0b11 once its buffer is live, and its PMB* accesses stop trapping. */
static void test_mdcr(void **state)
{
	struct vperf_vm_config plain = { .pmu_mode = VPERF_PMU_OFF };
	struct hv_vcpu *a, *b, *c;
	uint64_t traps;

	(void)state;
	vs_init(1, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	assert_int_equal(hv_vm(2, &plain), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	c = hv_vcpu(2, 2);
	hv_enter(a, 0);
	assert_int_equal(V_MDCR_E2PB(peek(VPERF_ENC_MDCR_EL2)), 2);
	assert_true(peek(VPERF_ENC_MDCR_EL2) & V_MDCR_TPMS);
	sim_set_el(0); /* SPE registers are UNDEFINED at EL0, before any trap (SPE 3.2.3, 3.4.6) */
	guest_read(PMSIDR_EL1);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	guest_write(PMBPTR_EL1, V_BUF_VA);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	sim_set_el(1);
	hv_enter(c, 0);
	assert_int_equal(V_MDCR_E2PB(peek(VPERF_ENC_MDCR_EL2)), 0);
	assert_true(peek(VPERF_ENC_MDCR_EL2) & V_MDCR_TPMS);
	guest_write(PMBPTR_EL1, V_BUF_VA); /* no vSPE: UNDEF */
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	hv_enter(b, 0);
	assert_int_equal(V_MDCR_E2PB(peek(VPERF_ENC_MDCR_EL2)), 2);
	guest_write(PMBPTR_EL1, V_BUF_VA);
	guest_write(PMBLIMITR_EL1, (V_BUF_VA + V_BUF_SIZE) | V_PMBLIMITR_E);
	assert_int_equal(V_MDCR_E2PB(peek(VPERF_ENC_MDCR_EL2)), 3);
	traps = sim_guest_stats(0)->el2_traps;
	assert_int_equal(guest_read(PMBPTR_EL1), V_BUF_VA);
	assert_int_equal(sim_guest_stats(0)->el2_traps, traps);
	hv_enter(a, 0); /* b's buffer stays live: back with 0b11 */
	hv_enter(b, 0);
	assert_int_equal(V_MDCR_E2PB(peek(VPERF_ENC_MDCR_EL2)), 3);
	assert_int_equal(sim_error_count(), 0);
}

/* PMSIDR_EL1 without what a SPEv1p2 VM may not use (FDS [7], EFT [26]); PMSDSFR_EL1 UNDEF,
 * PMSNEVFR_EL1 only from SPEv1p2 on. */
static void test_id_regs(void **state)
{
	uint64_t idr;

	(void)state;
	vs_init(5, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	assert_true(peek(VPERF_ENC_PMSIDR_EL1) & (1ull << 7));
	idr = guest_read(PMSIDR_EL1);
	assert_int_equal(idr, peek(VPERF_ENC_PMSIDR_EL1) & ~((1ull << 7) | (1ull << 26)));
	assert_true(idr & (1ull << 6)); /* FnE */
	guest_write(PMSDSFR_EL1, 1);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	guest_write(PMSNEVFR_EL1, 1ull << 1);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
	assert_int_equal(guest_read(PMSNEVFR_EL1), 1ull << 1);
	vs_init(1, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	guest_write(PMSNEVFR_EL1, 1ull << 1);
	assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_UNDEF);
	assert_int_equal(guest_read(PMBIDR_EL1) & 0x10, 0); /* never trapped: P = 0 as owner */
}

/* What each register keeps of all-ones, from the field lists of SPE 4.3 (SPEv1, 12-bit counters,
 * no ERnd): PMSCR E0SPE, E1SPE, CX, PA, TS, PCT; PMSICR COUNT; PMSIRR INTERVAL, RND; PMSFCR
 * FE, FT, FL, B, LD, ST; PMSEVFR E[63:48,31:24,15:12,7,5,3,1]; PMSLATFR MINLAT[11:0]; PMBPTR
 * all; PMBLIMITR LIMIT, FM, E; PMBSR EC, DL, EA, S, COLL, MSS. */
static const struct {
	uint32_t enc;
	uint64_t keep;
} masks[] = {
	{ VPERF_ENC_PMSCR_EL1, 0x7bull },
	{ VPERF_ENC_PMSICR_EL1, 0xffffffffull },
	{ VPERF_ENC_PMSIRR_EL1, 0xffffff01ull },
	{ VPERF_ENC_PMSFCR_EL1, 0x70007ull },
	{ VPERF_ENC_PMSEVFR_EL1, 0xffff0000ff00f0aaull },
	{ VPERF_ENC_PMSLATFR_EL1, 0xfffull },
	{ VPERF_ENC_PMBPTR_EL1, ~0ull },
	{ VPERF_ENC_PMBSR_EL1, 0xfc0fffffull },
	{ VPERF_ENC_PMBLIMITR_EL1, 0xfffffffffffff007ull },
};

static void test_res0(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	vs_init(1, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(masks); i++) {
		uint64_t before = hv.vm[0].stats.bad_value;

		guest_msr(masks[i].enc, ~0ull);
		assert_int_equal(sim_guest_stats(0)->last, SIM_ACC_TRAP_EL2);
		assert_int_equal(guest_mrs(masks[i].enc), masks[i].keep);
		assert_int_equal(hv.vm[0].stats.bad_value, before + (masks[i].keep != ~0ull));
	}
	/* PMBSR_EL1.S written by the guest raises its line (SPE 3.5); clearing it with the buffer
	 * still enabled at PMBPTR = ~0, beyond the limit, is a new event (SPE 3.4.1) ... */
	assert_true(vc->spe_irq_level);
	guest_write(PMBSR_EL1, 0);
	assert_true(vc->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | V_PMBSR_DL | 1);
	/* ... with it disabled, the line drops. */
	guest_write(PMBLIMITR_EL1, 0);
	guest_write(PMBSR_EL1, 0);
	assert_false(vc->spe_irq_level);
	assert_int_equal(sim_error_count(), 0);
}

/* Enable the buffer with ptr and limit; return the virtual PMBSR_EL1 and clear it. */
static uint64_t enable_with(struct hv_vcpu *vc, uint64_t ptr, uint64_t limit)
{
	uint64_t pmbsr;

	guest_write(PMBPTR_EL1, ptr);
	guest_write(PMBLIMITR_EL1, limit | V_PMBLIMITR_E);
	pmbsr = guest_read(PMBSR_EL1);
	assert_int_equal(vc->spe_irq_level, (pmbsr & V_PMBSR_S) != 0);
	if (pmbsr & V_PMBSR_S) /* the hardware never got the buffer */
		assert_int_equal(peek(VPERF_ENC_PMBLIMITR_EL1) & V_PMBLIMITR_E, 0);
	guest_write(PMBLIMITR_EL1, 0);
	guest_write(PMBSR_EL1, 0);
	return pmbsr;
}

/* SPE 3.4.1 and Table 6 with PMBIDR_EL1.Align = 3 (8 bytes) and MaxSize 64 bytes. */
static void test_buffer_rules(void **state)
{
	const uint64_t va = V_BUF_VA, lim = V_BUF_VA + V_BUF_SIZE;
	const uint64_t full = V_PMBSR_S | 1, full_dl = full | V_PMBSR_DL;
	struct hv_vcpu *vc;

	(void)state;
	vs_init(1, 3, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	assert_int_equal(enable_with(vc, va + 4, lim), V_PMBSR_S | V_PMBSR_EC(0x24) | 0x21);
	assert_int_equal(enable_with(vc, lim + 8, lim), full_dl); /* beyond the limit */
	assert_int_equal(enable_with(vc, lim - 32, lim), full);	  /* no room for a record */
	assert_int_equal(enable_with(vc, va & ~(0xffull << 56), lim), full_dl); /* other tag */
	assert_int_equal(enable_with(vc, va, 0), full_dl);			/* limit 0 */
	assert_int_equal(hv.vm[0].stats.bad_value, 5);
	assert_int_equal(enable_with(vc, lim - 64, lim), 0); /* exactly one record of room */
	assert_int_equal(enable_with(vc, va, lim), 0);
	guest_write(PMBPTR_EL1, va + 8);
	guest_write(PMBLIMITR_EL1, lim | V_PMBLIMITR_E);
	assert_int_equal(peek(VPERF_ENC_PMBLIMITR_EL1), lim | V_PMBLIMITR_E);
	assert_int_equal(peek(VPERF_ENC_PMBPTR_EL1), va + 8);
	assert_int_equal(sim_error_count(), 0);
}

/* Random values into every SPE register, with sampling in between: the model sees no record
 * outside the VM's own memory and no hypervisor error, and VM 1's RAM stays untouched. */
static void test_random_values(void **state)
{
	static const uint32_t regs[] = {
		VPERF_ENC_PMSCR_EL1,	VPERF_ENC_PMSICR_EL1,	 VPERF_ENC_PMSIRR_EL1,
		VPERF_ENC_PMSFCR_EL1,	VPERF_ENC_PMSEVFR_EL1,	 VPERF_ENC_PMSLATFR_EL1,
		VPERF_ENC_PMBPTR_EL1,	VPERF_ENC_PMBLIMITR_EL1, VPERF_ENC_PMBSR_EL1,
		VPERF_ENC_PMSNEVFR_EL1, VPERF_ENC_PMSDSFR_EL1,
	};
	const struct sim_uop op = { .pc = V_LOOP_PC(0),
				    .vaddr = 0x1000,
				    .latency = 5,
				    .type = SIM_UOP_LOAD,
				    .size_log2 = 3 };
	struct hv_vcpu *vc;
	uint8_t other[256];

	(void)state;
	vs_init(3, 0, 7);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, false), VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	srand(7);
	for (unsigned int i = 0; i < 3000; i++) {
		uint64_t v = ((uint64_t)rand() << 33) ^ ((uint64_t)rand() << 11) ^ (uint64_t)rand();

		if (i % 3 == 0) /* often a pointer near the buffer */
			v = V_BUF_VA + (v & 0x1ffff);
		guest_msr(regs[(unsigned int)rand() % VPERF_ARRAY_SIZE(regs)], v);
		for (unsigned int j = 0; j < 3; j++)
			guest_run(&op, 1);
		if (i % 100 == 0)
			hv_enter(hv_vcpu(1, 1), 0), hv_enter(vc, 0);
	}
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0);
	sim_mem_read(V_BUF_PA(1), other, sizeof(other));
	for (unsigned int i = 0; i < sizeof(other); i++)
		assert_int_equal(other[i], 0);
}

/* Records of a guest that asks for physical addresses and physical time (PMSCR_EL1.PA, PCT,
 * TS): what it gets follows its VM's policy through PMSCR_EL2 (SPE 3.3: both must be set). */
static void check_pa_pct(bool allow)
{
	const struct vperf_vm_config spe = { .spe = true, .spe_pa = allow, .spe_pct = allow };
	struct lx_spe *lx = calloc(1, sizeof(*lx));
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	struct hv_vcpu *vc;
	unsigned int n = 0;

	assert_non_null(lx);
	vs_init(1, 0, 1);
	assert_int_equal(vs_vm_cfg(0, &spe, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	sim_spe_set_time(0, 1000000, 400000); /* CNTVOFF_EL2: virtual time is 400000 behind */
	sim_spe_set_contextidr(0, 0x11, 0x22);
	*lx = (struct lx_spe){ .size = V_BUF_SIZE,
			       .pmscr = V_PMSCR_E1SPE | V_PMSCR_PA | V_PMSCR_PCT | V_PMSCR_TS };
	lx_start(lx);
	lx_run(lx, vc, 3000);
	lx_stop(lx);
	vperf_spe_iter_init(&it, lx->data, lx->len);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		assert_int_equal(!!(rec.have & VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_DATA_PA)), allow);
		assert_true(rec.have & VPERF_SPE_HAVE_TS);
		assert_int_equal(rec.timestamp >= 1000000, allow); /* physical or virtual time */
		/* CONTEXTIDR_EL2 is the host's: never in a guest's record (PMSCR_EL2.CX = 0). */
		assert_false(rec.have & VPERF_SPE_HAVE_CTX(1));
		n++;
	}
	assert_true(n >= 5);
	free(lx);
}

static void test_pa_pct_policy(void **state)
{
	(void)state;
	check_pa_pct(false);
	check_pa_pct(true);
}

/* Records of lx's session with a physical address, and all records (asserted >= 5). */
static unsigned int pa_records(const struct lx_spe *lx)
{
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	unsigned int n = 0, pa = 0;

	vperf_spe_iter_init(&it, lx->data, lx->len);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		pa += (rec.have & VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_DATA_PA)) != 0;
		n++;
	}
	assert_true(n >= 5);
	return pa;
}

/*
 * Without host_spe vperf leaves PMSCR_EL2 as the last guest with a live buffer had it (PA, PCT of
 * its policy): no write at put for a register nothing reads until the next acquire. Harmless,
 * as this shows: PMSCR_EL2 acts only while profiling is enabled (SPE 3.2.3, 3.3); E2SPE stays 0, so
 * EL2 is never sampled; a guest without vSPE runs with E2PB = 0b00, PMSCR_EL1 = 0 and the buffer
 * off (the put cleared both) and cannot change them (UNDEF); and every guest that samples got
 * its own policy's PMSCR_EL2 at acquire, before its buffer and PMSCR_EL1.
 */
static void test_stale_pmscr_el2(void **state)
{
	const struct vperf_vm_config rich = { .spe = true, .spe_pa = true, .spe_pct = true };
	const struct vperf_vm_config poor = { .spe = true };
	struct vperf_vm_config plain = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 2 };
	const struct sim_uop op = {
		.pc = 0x5000, .vaddr = 0x1000, .latency = 5, .type = SIM_UOP_LOAD, .size_log2 = 3
	};
	struct lx_spe *lx = calloc(2, sizeof(*lx));
	struct hv_vcpu *vc[3];
	uint64_t written;

	(void)state;
	assert_non_null(lx);
	vs_init(1, 0, 1);
	assert_int_equal(vs_vm_cfg(0, &rich, true), VPERF_OK);
	assert_int_equal(vs_vm_cfg(1, &poor, true), VPERF_OK);
	vperf_pmu_filter_allow_all(&plain.filter);
	assert_int_equal(hv_vm(2, &plain), VPERF_OK);
	for (unsigned int i = 0; i < 3; i++)
		vc[i] = hv_vcpu(i, i);
	for (unsigned int i = 0; i < 2; i++) {
		lx[i] = (struct lx_spe){ .vm = i,
					 .size = V_BUF_SIZE,
					 .pmscr = V_PMSCR_E1SPE | V_PMSCR_PA | V_PMSCR_PCT };
		hv_enter(vc[i], 0);
		lx_start(&lx[i]);
		lx_run(&lx[i], vc[i], 3000);
		lx_stop(&lx[i]);
		if (i == 0) { /* VM 0 ran last with a live buffer: its PA and PCT stay */
			hv_leave(0);
			assert_int_equal(peek(VPERF_ENC_PMSCR_EL2), V_PMSCR_PA | V_PMSCR_PCT);
			written = sim_spe_stats(0)->written;
			hv_enter(vc[2], 0); /* no vSPE: nothing samples */
			assert_int_equal(V_MDCR_E2PB(peek(VPERF_ENC_MDCR_EL2)), 0);
			assert_int_equal(peek(VPERF_ENC_PMSCR_EL1) | peek(VPERF_ENC_PMBLIMITR_EL1),
					 0);
			hv_run_n(&op, 3000);
			assert_int_equal(sim_spe_stats(0)->written, written);
		}
	}
	hv_leave(0);
	assert_int_equal(pa_records(&lx[0]), lx_records(&lx[0]));
	assert_int_equal(pa_records(&lx[1]), 0); /* VM 1's own policy, not the stale one */
	assert_int_equal(sim_error_count(), 0);
	free(lx);
}

static struct lx_spe lx;

/* Every SPE register is UNDEFINED at EL0 (SPE 3.2.3, 3.4.6), before any trap: a syndrome that
 * claims an EL0 access, as a confused or hostile hypervisor path could deliver, is UNDEF and
 * changes nothing. */
static void test_el0_syndrome_undef(void **state)
{
	static const uint32_t regs[] = { VPERF_ENC_PMSCR_EL1, VPERF_ENC_PMBPTR_EL1,
					 VPERF_ENC_PMBSR_EL1, VPERF_ENC_PMSIDR_EL1 };
	uint64_t gprs[31] = { 0 };

	(void)state;
	vs_init(1, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	hv_enter(hv_vcpu(0, 0), 0);
	gprs[3] = V_PMSCR_E1SPE;
	for (unsigned int i = 0; i < 4; i++) {
		assert_int_equal(hv_raw_trap(vperf_esr_encode_sysreg(regs[i], 3, false), gprs, 0),
				 VPERF_TRAP_UNDEF);
		assert_int_equal(hv_raw_trap(vperf_esr_encode_sysreg(regs[i], 4, true), gprs, 0),
				 VPERF_TRAP_UNDEF);
	}
	assert_int_equal(gprs[4], 0);
	assert_int_equal(guest_read(PMSCR_EL1), 0);
	assert_int_equal(sim_error_count(), 0);
}

/* A vCPU that ran on pCPU 0 (HPMN 4) moves to pCPU 1, whose host keeps one counter (HPMN 5): it
 * runs with pCPU 1's MDCR_EL2, not the value cached on pCPU 0. */
static void test_mdcr_after_migration(void **state)
{
	const struct vperf_pcpu_config one = { .host_counters = 1 };
	struct vperf_vm_config cfg = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 2 };
	struct hv_vcpu *a;

	(void)state;
	vs_init(1, 0, 1);
	sim_set_cpu(1);
	assert_int_equal(vperf_pcpu_init(&hv.pcpu[1], &one), VPERF_OK);
	hv_host_boot(1);
	sim_set_cpu(0);
	vperf_pmu_filter_allow_all(&cfg.filter);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_MDCR_EL2) & 0x1f, 4);
	hv_leave(0);
	hv_enter(a, 1);
	assert_int_equal(sim_peek(1, VPERF_ENC_MDCR_EL2) & 0x1f, 5);
	assert_int_equal(sim_error_count(), 0);
}

/*
 * vCPU C ran once with no buffer (E2PB = 0b10 cached), then is restored from a blob whose buffer
 * is live, taken from vCPU A of the same VM: at its next load, on the same pCPU, it runs
 * untrapped (E2PB = 0b11) as a load of that state does, not with the cached value.
 */
static void test_mdcr_after_restore_of_live_buffer(void **state)
{
	static uint8_t blob[VPERF_VSPE_BLOB_SIZE];
	struct hv_vcpu *a, *c;
	int len;

	(void)state;
	vs_init(1, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	a = hv_vcpu(0, 0);
	c = hv_vcpu(1, 0);
	hv_enter(c, 0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 2);
	hv_enter(a, 0);
	lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(&lx);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	hv_leave(0);
	len = vperf_vcpu_save(&a->v, blob, sizeof(blob));
	assert_true(len > 0);
	assert_int_equal(vperf_vcpu_restore(&c->v, blob, (size_t)len), VPERF_OK);
	hv_enter(c, 0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	lx_run(&lx, c, 2000);
	lx_stop(&lx);
	assert_true(lx_records(&lx) >= 5);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy),
		cmocka_unit_test(test_id_dfr0),
		cmocka_unit_test(test_mdcr),
		cmocka_unit_test(test_id_regs),
		cmocka_unit_test(test_res0),
		cmocka_unit_test(test_buffer_rules),
		cmocka_unit_test(test_random_values),
		cmocka_unit_test(test_pa_pct_policy),
		cmocka_unit_test(test_stale_pmscr_el2),
		cmocka_unit_test(test_el0_syndrome_undef),
		cmocka_unit_test(test_mdcr_after_migration),
		cmocka_unit_test(test_mdcr_after_restore_of_live_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
