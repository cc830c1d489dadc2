// SPDX-License-Identifier: MIT
/* Shared set-up of the vSPE tests (see vspe_util.h). */
#include <string.h>

#include "cmocka_wrap.h"
#include "vspe_util.h"
#include <arch/sysreg.h>
#include <vperf/spe_rec.h>

#define LX_MIN_ROOM 0x1000ull /* re-arm from the start when less is left (the reader drained) */

void vs_init(uint8_t pmsver, unsigned int align, uint64_t seed)
{
	vs_init_ecv(pmsver, align, seed, 0);
}

void vs_init_ecv(uint8_t pmsver, unsigned int align, uint64_t seed, uint8_t ecv)
{
	struct sim_pe_config cfg;

	sim_spe_default_config(&cfg, pmsver);
	cfg.ecv = ecv;
	cfg.pmbidr = align;
	cfg.seed = seed;
	cfg.el2_trap_cycles = 0;
	hv_init(&cfg, 2);
}

#define VS_HOST_VA(cpu) (0x0000008000000000ull + (uint64_t)(cpu)*VS_HOST_SIZE) /* EL2 regime */
#define VS_HOST_PA(cpu) (0x70000000ull + (uint64_t)(cpu)*VS_HOST_SIZE)
#define VS_HOST_SIZE	0x20000ull
#define VS_HOST_PC	0x0000008000001000ull
#define VS_E2SPE	0x02ull

void vs_init_host(uint8_t pmsver, uint64_t seed)
{
	struct sim_pe_config cfg;

	sim_spe_default_config(&cfg, pmsver);
	cfg.seed = seed;
	cfg.el2_trap_cycles = 0;
	hv_init_host_spe(&cfg, 2, true);
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		vs_host_spe_start(cpu);
	sim_set_cpu(0);
}

void vs_host_spe_start(unsigned int cpu)
{
	sim_set_cpu(cpu);
	write_sysreg(hv.pcpu[cpu].host_mdcr, MDCR_EL2); /* E2PB = 0b00 */
	assert_int_equal(sim_mem_map_s1(SIM_REGIME_EL2, 0, VS_HOST_VA(cpu), VS_HOST_PA(cpu),
					VS_HOST_SIZE, SIM_PERM_RW),
			 VPERF_OK);
	vs_host_driver_start(cpu, VS_HOST_VA(cpu));
}

void vs_host_driver_start(unsigned int cpu, uint64_t ptr)
{
	sim_set_cpu(cpu);
	write_sysreg(ptr, PMBPTR_EL1);
	write_sysreg((VS_HOST_VA(cpu) + VS_HOST_SIZE) | V_PMBLIMITR_E, PMBLIMITR_EL1);
	write_sysreg(0, PMSFCR_EL1);
	write_sysreg(V_INTERVAL_1, PMSIRR_EL1);
	write_sysreg(0, PMSICR_EL1);
	write_sysreg(VS_E2SPE, PMSCR_EL2);
	isb();
}

void vs_host_run(unsigned int n)
{
	const struct sim_uop op = { .pc = VS_HOST_PC,
				    .vaddr = 0x8000,
				    .latency = 3,
				    .type = SIM_UOP_LOAD,
				    .size_log2 = 3 };

	sim_set_el(2);
	for (unsigned int i = 0; i < n; i++)
		guest_run(&op, 1);
}

static bool at_el2(const struct vperf_spe_record *rec, void *ctx)
{
	(void)ctx;
	return rec->addr[VPERF_SPE_ADDR_PC].el == 2; /* the host's or vperf's */
}

unsigned int vs_host_records(unsigned int cpu)
{
	unsigned int n;

	assert_null(vs_host_check(cpu, at_el2, NULL, &n));
	return n;
}

const char *vs_host_check(unsigned int cpu, vs_host_rec_ok ok, void *ctx, unsigned int *n)
{
	static uint8_t buf[VS_HOST_SIZE];
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	uint64_t end;

	*n = 0;
	sim_set_cpu(cpu);
	write_sysreg(0, PMSCR_EL2);
	isb();
	psb_csync();
	dsb_nsh();
	isb();
	end = read_sysreg(PMBPTR_EL1) - VS_HOST_VA(cpu);
	if (end > VS_HOST_SIZE)
		return "the host's buffer pointer left its buffer";
	sim_mem_read(VS_HOST_PA(cpu), buf, end);
	vperf_spe_iter_init(&it, buf, end);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		if (!ok(&rec, ctx))
			return "a record in the host's buffer that is not the host's";
		(*n)++;
	}
	return it.nerrors ? "undecodable bytes in the host's buffer" : NULL;
}

int vs_vm_cfg(unsigned int i, const struct vperf_vm_config *spe, bool s2_now)
{
	return vs_vm_mode(i, spe, s2_now, VPERF_PMU_SELF);
}

int vs_vm_mode(unsigned int i, const struct vperf_vm_config *spe, bool s2_now,
	       enum vperf_pmu_mode mode)
{
	struct vperf_vm_config cfg = *spe;
	uint16_t vmid = (uint16_t)(i + 1);

	cfg.pmu_mode = mode;
	cfg.nr_counters = 2;
	vperf_pmu_filter_allow_all(&cfg.filter);
	hv_vm_ram(i, V_BUF_IPA, V_BUF_PA(i), V_BUF_SIZE);
	assert_int_equal(
		sim_mem_map_s1(SIM_REGIME_EL10, vmid, V_BUF_VA, V_BUF_IPA, V_BUF_SIZE, SIM_PERM_RW),
		VPERF_OK);
	if (s2_now)
		assert_int_equal(
			sim_mem_map_s2(vmid, V_BUF_IPA, V_BUF_PA(i), V_BUF_SIZE, SIM_PERM_RW),
			VPERF_OK);
	return hv_vm(i, &cfg);
}

int vs_vm(unsigned int i, enum vperf_spe_buffer buf, bool s2_now)
{
	const struct vperf_vm_config spe = { .spe = true, .spe_buffer = buf };

	return vs_vm_cfg(i, &spe, s2_now);
}

void lx_probe(void)
{
	uint64_t idr = guest_read(PMSIDR_EL1);

	/* arm_spe_pmu_dev_probe: FE, FT and FL, a MaxSize, a buffer this EL owns (P = 0). */
	assert_int_equal(idr & 7, 7);
	assert_true(((idr >> 12) & 0xf) >= 4);
	assert_int_equal(guest_read(PMBIDR_EL1) & 0x10, 0);
}

static uint64_t buf_va(const struct lx_spe *lx)
{
	return lx->va ? lx->va : V_BUF_VA;
}

/* arm_spe_perf_aux_output_begin: the pointer, then the limit with E. */
static void aux_begin(struct lx_spe *lx)
{
	if (lx->size - lx->head < LX_MIN_ROOM)
		lx->head = 0;
	guest_write(PMBPTR_EL1, buf_va(lx) + lx->head);
	guest_write(PMBLIMITR_EL1, (buf_va(lx) + lx->size) | V_PMBLIMITR_E);
}

/* arm_spe_perf_aux_output_end: what lies below PMBPTR_EL1 is the session's. */
static void aux_end(struct lx_spe *lx)
{
	uint64_t end = guest_read(PMBPTR_EL1) - buf_va(lx);

	assert_true(end >= lx->head && end <= lx->size);
	if (lx->va)
		end = lx->head; /* not backed by V_BUF_PA: nothing to read back */
	assert_true(lx->len + (end - lx->head) <= sizeof(lx->data));
	sim_mem_read(V_BUF_PA(lx->vm) + lx->head, lx->data + lx->len, end - lx->head);
	lx->len += end - lx->head;
	lx->head = end;
}

void lx_start(struct lx_spe *lx)
{
	static const struct lx_ctl loads = { .pmsirr = V_INTERVAL_1, .pmsfcr = V_PMSFCR_LD_FT };
	const struct lx_ctl *c = lx->ctl ? lx->ctl : &loads;

	aux_begin(lx);
	guest_write(PMSFCR_EL1, c->pmsfcr);
	guest_write(PMSEVFR_EL1, c->pmsevfr);
	if (c->pmsnevfr)
		guest_write(PMSNEVFR_EL1, c->pmsnevfr);
	guest_write(PMSLATFR_EL1, c->pmslatfr);
	guest_write(PMSIRR_EL1, c->pmsirr);
	isb();
	guest_write(PMSICR_EL1, 0);
	isb();
	guest_write(PMSCR_EL1, lx->pmscr ? lx->pmscr : V_PMSCR_E1SPE);
	isb(); /* the exception return into the profiled code */
}

void lx_stop(struct lx_spe *lx)
{
	sim_guest_spe_disable_and_drain();
	aux_end(lx);
}

/* arm_spe_pmu_buf_get_fault_act and the handler around it. */
void lx_irq(struct lx_spe *lx)
{
	uint64_t pmbsr;

	psb_csync();
	dsb_nsh();
	isb(); /* hardware updates to PMBPTR_EL1 visible */
	pmbsr = guest_read(PMBSR_EL1);
	if (!(pmbsr & V_PMBSR_S)) {
		lx->spurious++;
		return;
	}
	lx->irqs++;
	lx->truncated += (pmbsr & V_PMBSR_DL) != 0;
	if (((pmbsr >> 26) & 0x3f) != 0 || (pmbsr & 0x3f) != 1) {
		lx->fatal++; /* "Unexpected buffer fault" / "Unknown buffer status code" */
		aux_end(lx);
		sim_guest_spe_disable_and_drain();
	} else {
		aux_end(lx);
		if (!(pmbsr & V_PMBSR_DL)) {
			aux_begin(lx);
			isb();
		}
	}
	guest_write(PMBSR_EL1, 0);
}

void lx_run(struct lx_spe *lx, struct hv_vcpu *vc, unsigned int n)
{
	for (unsigned int j = 0; j < n; j++) {
		struct sim_uop op = {
			.pc = V_LOOP_PC(lx->vm),
			.vaddr = 0x7f0000000000ull + (j % 64) * 64,
			.latency = 4 + j % 7,
			.issue_lat = 1,
			.type = SIM_UOP_LOAD,
			.size_log2 = 3,
		};

		guest_run(&op, 1);
		if (vc->spe_irq_level)
			lx_irq(lx);
	}
}

void lx_round_beside_host(struct lx_spe *lx, struct hv_vcpu *vc, unsigned int round,
			  unsigned int rounds, unsigned int n)
{
	hv_enter(vc, 0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 2);
	if (round == 0)
		lx_start(lx);
	lx_run(lx, vc, n);
	if (round == rounds - 1)
		lx_stop(lx);
	hv_leave(0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 0);
}

unsigned int lx_records(const struct lx_spe *lx)
{
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	unsigned int n = 0;

	vperf_spe_iter_init(&it, lx->data, lx->len);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		assert_true(rec.have & VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_PC));
		assert_int_equal(rec.addr[VPERF_SPE_ADDR_PC].addr, V_LOOP_PC(lx->vm));
		n++;
	}
	assert_true(it.nerrors == 0 || (lx->truncated && it.nerrors == 1));
	return n;
}

/* vperf's SPE register accesses, barriers and MDCR_EL2 writes on cpu since `since`. */
struct vs_cost vs_cost_since(unsigned int cpu, uint64_t since)
{
	uint64_t first, end;
	struct vs_cost c = { 0 };

	assert_true(sim_trace_since(cpu, since, &first, &end));
	for (uint64_t i = first; i < end; i++) {
		const struct sim_event *e = sim_trace_at(cpu, i);
		const struct vperf_sysreg_desc *d = vperf_sysreg_lookup(e->enc);
		bool spe = d && (d->feat == VPERF_FEAT_SPE || d->feat == VPERF_FEAT_SPEV1P2);

		if (e->kind != SIM_READ && e->kind != SIM_WRITE)
			c.barriers++;
		else if (e->kind == SIM_WRITE && e->enc == VPERF_ENC_MDCR_EL2)
			c.mdcr++;
		else if (spe)
			*(e->kind == SIM_READ ? &c.reads : &c.writes) += 1;
	}
	return c;
}

void vs_expect_cost(struct vs_cost c, unsigned int r, unsigned int w, unsigned int b,
		    unsigned int m)
{
	assert_int_equal(c.reads, r);
	assert_int_equal(c.writes, w);
	assert_int_equal(c.barriers, b);
	assert_int_equal(c.mdcr, m);
}

void vs_drain_visible(void)
{
	isb();
	psb_csync();
	dsb_nsh();
	isb();
}

void vs_run_loads(unsigned int vm, unsigned int n, uint32_t latency)
{
	const struct sim_uop op = { .pc = V_LOOP_PC(vm),
				    .vaddr = 0x4000,
				    .latency = latency,
				    .type = SIM_UOP_LOAD,
				    .size_log2 = 3 };

	for (unsigned int i = 0; i < n; i++)
		guest_run(&op, 1);
}

struct hv_vcpu *vs_setup_on_version(uint8_t pmsver, enum vperf_spe_buffer buf, bool s2_now,
				    uint64_t seed)
{
	struct hv_vcpu *vc;

	vs_init(pmsver, 0, seed);
	assert_int_equal(vs_vm(0, buf, s2_now), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	return vc;
}
