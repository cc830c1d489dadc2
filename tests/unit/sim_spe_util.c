// SPDX-License-Identifier: MIT
/* Shared set-up for the SPE model tests (see sim_spe_util.h). */
#include <string.h>

#include "cmocka_wrap.h"
#include "sim_spe_util.h"

struct t_hyp t_hyp;

/*
 * The load record, packet by packet, from Arm DDI 0487 K.a D18.2 (header bytes: SPE 5.2.1):
 *   b0 + 8 bytes   Address, INDEX 0 (PC): 0x400000, byte 7 = NS (0x80) | EL1 (0x20)
 *   49 00          Operation Type, CLASS 1 (load/store), general-purpose load
 *   52 16 00       Events, halfword: retired (bit 1), L1D access (2), TLB access (4)
 *   98 14 00       Counter 0, total latency 20
 *   99 05 00       Counter 1, issue latency 5
 *   9a 03 00       Counter 2, translation latency 3
 *   b2 + 8 bytes   Address, INDEX 2 (data VA): 0x12345678, tag 0
 *   43 42          Data Source, byte: 0x42
 *   01             End
 */
const uint8_t t_load_rec[T_LOAD_REC_LEN] = {
	0xb0, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0xa0, /* PC */
	0x49, 0x00,					      /* op type */
	0x52, 0x16, 0x00,				      /* events */
	0x98, 0x14, 0x00, 0x99, 0x05, 0x00, 0x9a, 0x03, 0x00, /* counters */
	0xb2, 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x00, 0x00, /* data VA */
	0x43, 0x42,					      /* data source */
	0x01,						      /* End */
};

static void trap(void *ctx, unsigned int cpu, uint64_t esr, uint64_t gprs[31])
{
	unsigned int rt = (unsigned int)((esr >> 5) & 31);

	(void)ctx;
	(void)cpu;
	t_hyp.traps++;
	t_hyp.esr = esr;
	if (t_hyp.undef) {
		sim_inject_undef();
		return;
	}
	if (esr & 1)
		gprs[rt] = 0x5a;
	sim_advance_pc();
}

void t_init_cfg(const struct sim_pe_config *cfg)
{
	const struct sim_handlers h = { .sysreg_trap = trap };
	struct sim_pe_config pe = *cfg;

	/* The SPE tests write MDCR_EL2 with HPMN = 0 (no event counter for EL1): a PE with
	 * FEAT_HPMN0, or the model reports it (CONSTRAINED UNPREDICTABLE otherwise). They count
	 * SAMPLE_* events from zero: the PMU's UNKNOWN reset values are not theirs to test. */
	pe.hpmn0 = true;
	pe.reset_zero = true;
	memset(&t_hyp, 0, sizeof(t_hyp));
	sim_model_init(&pe);
	sim_set_handlers(&h);
	sim_set_cpu(0);
	write_sysreg(MDCR_EL2_E2PB_EL1, MDCR_EL2);
	write_sysreg(1, HCR_EL2); /* VM */
	sim_mem_set_vmid(0, T_VMID);
	assert_int_equal(sim_mem_map_s1(SIM_REGIME_EL10, T_VMID, T_BUF_VA, T_BUF_IPA, T_BUF_SIZE,
					SIM_PERM_RW),
			 VPERF_OK);
	assert_int_equal(sim_mem_map_s2(T_VMID, T_BUF_IPA, T_BUF_PA, T_BUF_SIZE, SIM_PERM_RW),
			 VPERF_OK);
	isb();
	sim_set_el(1);
}

void t_init(uint8_t pmsver, uint64_t seed)
{
	struct sim_pe_config cfg;

	sim_spe_default_config(&cfg, pmsver);
	cfg.seed = seed;
	cfg.el2_trap_cycles = 0;
	t_init_cfg(&cfg);
}

void t_guest_start(uint64_t ptr, uint64_t limit, uint64_t pmscr, uint64_t pmsfcr, uint64_t pmsirr)
{
	guest_write(PMBPTR_EL1, ptr);
	guest_write(PMBLIMITR_EL1, limit | T_PMBLIMITR_E);
	guest_write(PMSFCR_EL1, pmsfcr);
	guest_write(PMSEVFR_EL1, 0);
	guest_write(PMSLATFR_EL1, 0);
	guest_write(PMSIRR_EL1, pmsirr);
	guest_write(PMSICR_EL1, 0);
	isb();
	guest_write(PMSCR_EL1, pmscr);
	isb();
}

struct sim_uop t_load(uint64_t pc, uint64_t va, uint32_t lat)
{
	struct sim_uop op = {
		.pc = pc,
		.vaddr = va,
		.latency = lat,
		.issue_lat = 5,
		.xlat_lat = 3,
		.type = SIM_UOP_LOAD,
		.size_log2 = 3,
		.data_source = 0x42,
	};

	return op;
}

struct sim_uop t_other(uint64_t pc)
{
	struct sim_uop op = { .pc = pc, .latency = 1, .type = SIM_UOP_OTHER };

	return op;
}

void t_run_sampling(const struct sim_uop *filler, unsigned int n, const struct sim_uop *last)
{
	for (unsigned int i = 0; i < n; i++)
		guest_run(filler, 1);
	guest_run(last, 1);
}

void t_buf_read(uint64_t offset, void *dst, size_t n)
{
	sim_mem_read(T_BUF_PA + offset, dst, n);
}

const struct sim_uop t_filler = { .pc = 0x1000, .latency = 1, .type = SIM_UOP_OTHER };

void t_one_record(void)
{
	struct sim_uop ld = t_load(0x400000, 0x12345678, 20);

	t_run_sampling(&t_filler, 256, &ld);
}

bool t_load_rec_at(uint64_t pa)
{
	uint8_t got[T_LOAD_REC_LEN];

	sim_mem_read(pa, got, sizeof(got));
	return memcmp(got, t_load_rec, sizeof(got)) == 0;
}

void t_set_wptr(enum sim_spe_wptr w)
{
	struct sim_spe_options o;

	sim_spe_default_options(&o);
	o.wptr = w;
	sim_spe_set_options(&o);
}

void t_set_unpred(enum sim_spe_unpred u)
{
	struct sim_spe_options o;

	sim_spe_default_options(&o);
	o.unpred = u;
	sim_spe_set_options(&o);
}

void t_drain(void)
{
	isb();
	psb_csync();
	dsb_nsh();
	isb();
}
