// SPDX-License-Identifier: MIT
/*
 * The hypervisor profiling VMs from outside (VPERF_SPE_BUF_EL2): its own EL2-owned buffer
 * samples the guests, each record tagged with the VM's id in a Context packet (PMSCR_EL2.CX,
 * CONTEXTIDR_EL2), while the guests see no SPE at all; a guest with a vSPE of its own runs
 * beside them on the same pCPU, the host's buffer parked around it.
 */
#include <stdlib.h>

#include "cmocka_wrap.h"
#include "vspe_util.h"
#include <arch/sysreg.h>
#include <vperf/spe_rec.h>

#define HOST_VA	  0x0000008000000000ull /* EL2 regime */
#define HOST_PA	  0x70000000ull
#define HOST_SIZE 0x20000ull
#define HOST_CTX  0x77u /* the host's own CONTEXTIDR_EL2 */
#define VM_CTX(i) (0x100u + (i))
#define CTX2	  1 /* Context packet INDEX 1: CONTEXTIDR_EL2 (Arm DDI 0487 K.a D18.2.2) */

static struct lx_spe lx;

static void init(uint64_t seed)
{
	struct sim_pe_config cfg;

	sim_spe_default_config(&cfg, 3);
	cfg.seed = seed;
	cfg.el2_trap_cycles = 0;
	hv_init_host_spe(&cfg, 2, true);
	write_sysreg(hv.pcpu[0].host_mdcr, MDCR_EL2); /* E2PB = 0b00: the host's buffer */
	assert_int_equal(
		sim_mem_map_s1(SIM_REGIME_EL2, 0, HOST_VA, HOST_PA, HOST_SIZE, SIM_PERM_RW),
		VPERF_OK);
	write_sysreg(HOST_CTX, CONTEXTIDR_EL2);
	write_sysreg(HOST_VA, PMBPTR_EL1);
	write_sysreg((HOST_VA + HOST_SIZE) | V_PMBLIMITR_E, PMBLIMITR_EL1);
	write_sysreg(0, PMSFCR_EL1); /* no filter: its reset value is UNKNOWN (SPE 4.2) */
	write_sysreg(V_INTERVAL_1, PMSIRR_EL1);
	write_sysreg(0, PMSICR_EL1);
	write_sysreg(0, PMSCR_EL2); /* the host samples only its guests */
	isb();
}

static int outside_vm(unsigned int i)
{
	const struct vperf_vm_config spe = { .spe = true,
					     .spe_buffer = VPERF_SPE_BUF_EL2,
					     .spe_context = VM_CTX(i) };

	return vs_vm_cfg(i, &spe, true);
}

/* The host stops, drains and decodes its buffer: every record is a guest's operation at EL0 or
 * EL1 with the id of the VM whose loop it sampled. Returns the records, per VM in n[]. */
static unsigned int host_records(unsigned int n[2])
{
	static uint8_t buf[HOST_SIZE];
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	uint64_t end;

	psb_csync();
	dsb_nsh();
	isb();
	end = read_sysreg(PMBPTR_EL1) - HOST_VA;
	assert_true(end <= HOST_SIZE);
	sim_mem_read(HOST_PA, buf, end);
	vperf_spe_iter_init(&it, buf, end);
	n[0] = n[1] = 0;
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		const struct vperf_spe_addr *pc = &rec.addr[VPERF_SPE_ADDR_PC];
		unsigned int vm = pc->addr == V_LOOP_PC(1);

		assert_true(pc->addr == V_LOOP_PC(0) || pc->addr == V_LOOP_PC(1));
		assert_true(pc->el <= 1);
		assert_true(rec.have & VPERF_SPE_HAVE_CTX(CTX2));
		assert_int_equal(rec.ctx[CTX2], VM_CTX(vm));
		n[vm]++;
	}
	assert_int_equal(it.nerrors, 0);
	return n[0] + n[1];
}

static void run_vm(unsigned int vm, unsigned int ops)
{
	const struct sim_uop op = { .pc = V_LOOP_PC(vm),
				    .vaddr = 0x5000,
				    .latency = 3,
				    .type = SIM_UOP_LOAD,
				    .size_log2 = 3 };

	for (unsigned int j = 0; j < ops; j++) {
		sim_set_el(j % 4 ? 1 : 0); /* EL0 too: E0SPE */
		guest_run(&op, 1);
	}
	sim_set_el(1);
}

/* Two VMs profiled from outside and one with its own vSPE, 8 seeds x 60 switches on one pCPU:
 * every record in the host's buffer is attributed to the right VM, the vSPE guest's records
 * are all in its own buffer, the host's CONTEXTIDR_EL2 and PMSCR_EL2 are back after each put. */
static void test_attribution(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 8; seed++) {
		unsigned int n[2], rng = (unsigned int)seed * 2654435761u;
		struct hv_vcpu *vc[3];
		bool started = false;

		init(seed);
		assert_int_equal(outside_vm(0), VPERF_OK);
		assert_int_equal(outside_vm(1), VPERF_OK);
		assert_int_equal(vs_vm(2, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
		for (unsigned int i = 0; i < 3; i++)
			vc[i] = hv_vcpu(i, i);
		lx = (struct lx_spe){ .vm = 2, .size = V_BUF_SIZE };
		for (unsigned int round = 0; round < 60; round++) {
			unsigned int vm = (rng >> 16) % 3, ops = 200 + (rng >> 8) % 600;

			rng = rng * 1103515245u + 12345u;
			hv_enter(vc[vm], 0);
			if (vm < 2) {
				run_vm(vm, ops);
			} else {
				if (!started)
					lx_start(&lx);
				started = true;
				lx_run(&lx, vc[2], ops);
			}
			hv_leave(0);
			assert_int_equal(sim_peek(0, VPERF_ENC_CONTEXTIDR_EL2), HOST_CTX);
			assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), 0);
			assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), 0);
		}
		hv_enter(vc[2], 0);
		if (started)
			lx_stop(&lx);
		hv_leave(0);
		assert_int_equal(host_records(n) + lx_records(&lx), sim_spe_stats(0)->written);
		assert_true(n[0] >= 10 && n[1] >= 10);
		assert_int_equal(lx.irqs, 0);
		assert_int_equal(sim_error_count(), 0);
	}
}

/* The guest of a VM profiled from outside has no SPE: PMSVer 0, every PMS* and PMB* access
 * UNDEF (its controls untouched), PMBIDR_EL1.P = 1 (the buffer is EL2's, SPE 4.3.1), MDCR_EL2 with
 * E2PB = 0b00 and TPMS = 1, no SPE node in its device tree. */
static void test_guest_sees_no_spe(void **state)
{
	static const uint32_t regs[] = { VPERF_ENC_PMSCR_EL1,	 VPERF_ENC_PMSICR_EL1,
					 VPERF_ENC_PMSIRR_EL1,	 VPERF_ENC_PMSFCR_EL1,
					 VPERF_ENC_PMSEVFR_EL1,	 VPERF_ENC_PMSLATFR_EL1,
					 VPERF_ENC_PMSNEVFR_EL1, VPERF_ENC_PMSIDR_EL1,
					 VPERF_ENC_PMBPTR_EL1,	 VPERF_ENC_PMBLIMITR_EL1,
					 VPERF_ENC_PMBSR_EL1 };
	struct hv_vcpu *vc;
	uint64_t mdcr, undefs;

	(void)state;
	init(1);
	assert_int_equal(outside_vm(0), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	assert_int_equal(
		V_PMSVER(vperf_vcpu_id_dfr0(&vc->v, sim_peek(0, VPERF_ENC_ID_AA64DFR0_EL1))), 0);
	mdcr = sim_peek(0, VPERF_ENC_MDCR_EL2);
	assert_int_equal(V_MDCR_E2PB(mdcr), 0);
	assert_true(mdcr & V_MDCR_TPMS);
	assert_int_equal(guest_read(PMBIDR_EL1) & 0x10, 0x10);
	undefs = sim_guest_stats(0)->undefs;
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		guest_mrs(regs[i]);
		if (regs[i] != VPERF_ENC_PMSIDR_EL1)
			guest_msr(regs[i], ~0ull);
	}
	assert_int_equal(sim_guest_stats(0)->undefs - undefs, 2 * 11 - 1);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL1), V_PMSCR_E1SPE | V_PMSCR_E0SPE);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMSCR_EL2), V_PMSCR_CX);
	assert_int_equal(sim_peek(0, VPERF_ENC_CONTEXTIDR_EL2), VM_CTX(0));
	assert_int_equal(sim_peek(0, VPERF_ENC_PMBPTR_EL1), HOST_VA);
	assert_int_equal(sim_error_count(), 0);
}

/* The SAMPLE_* events (0x4000-0x4003) would count the host's sampling of the VM: a guest profiled
 * from outside does not have them (PMCEID0_EL0 bits 35:32 clear, I5.3.6; a counter programmed
 * with one counts nothing), while a guest with its own vSPE counts its own sampling with them. */
static void test_sample_events_hidden(void **state)
{
	const uint64_t sample_bits = 0xfull << 32;
	struct hv_vcpu *vc[2];

	(void)state;
	init(1);
	assert_int_equal(outside_vm(0), VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	vc[0] = hv_vcpu(0, 0);
	vc[1] = hv_vcpu(1, 1);
	hv_enter(vc[0], 0);
	assert_int_equal(sim_peek(0, VPERF_ENC_PMCEID0_EL0) & sample_bits, sample_bits);
	assert_int_equal(guest_read(PMCEID0_EL0) & sample_bits, 0);
	guest_write(PMEVTYPER0_EL0, 0x4000); /* SAMPLE_POP */
	guest_write(PMEVTYPER1_EL0, 0x4001); /* SAMPLE_FEED */
	guest_write(PMCNTENSET_EL0, 3);
	guest_write(PMCR_EL0, 1);
	run_vm(0, 3000); /* the host samples it */
	assert_int_equal(guest_read(PMEVCNTR0_EL0), 0);
	assert_int_equal(guest_read(PMEVCNTR1_EL0), 0);
	hv_leave(0);
	assert_true(sim_spe_stats(0)->feed > 0);
	hv_enter(vc[1], 0);
	assert_int_equal(guest_read(PMCEID0_EL0) & sample_bits, sample_bits);
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0);
}

/* Without the hypervisor's buffer on every pCPU there is nothing to profile into. */
static void test_needs_host_buffer(void **state)
{
	const struct vperf_vm_config cfg = { .spe = true, .spe_buffer = VPERF_SPE_BUF_EL2 };

	(void)state;
	vs_init(1, 0, 1);
	assert_int_equal(hv_vm(0, &cfg), VPERF_EINVAL);
	init(1);
	assert_int_equal(hv_vm(0, &cfg), VPERF_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attribution),
		cmocka_unit_test(test_guest_sees_no_spe),
		cmocka_unit_test(test_needs_host_buffer),
		cmocka_unit_test(test_sample_events_hidden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
