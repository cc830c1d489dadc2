// SPDX-License-Identifier: MIT
/*
 * The trap fuzzer's vSPE part (trap_world.h): a PE with SPE, VMs of every SPE policy beside
 * PMU-only ones (a trapped buffer, E2PB = 0b10; an untrapped one, 0b11 once live; profiled from
 * outside into the host's EL2 buffer, 0b00; no SPE, TPMS), each with its own buffer, code and
 * context; a guest SPE driver's start and stop as one op; and the record check: no record of one
 * VM's operation in another VM's buffer, a VM profiled from outside tagged with its own id.
 */
#include <string.h>

#include <arch/barrier.h>
#include <arch/sysreg.h>
#include <sim/guest_spe.h>
#include <sim/mem.h>
#include <sim/spe.h>
#include <vperf/spe_rec.h>

#include "fuzz_input.h"
#include "trap_world.h"

/* Each VM's buffer: the same VA in every VM, its own RAM. */
#define BUF_VA	  0xffff800010000000ull
#define BUF_IPA	  0x80000000ull
#define BUF_PA(v) (0x40000000ull + (uint64_t)(v)*0x1000000ull)
#define BUF_SIZE  0x8000ull
/* The host's EL2-owned buffer on each pCPU. */
#define HOST_VA(c) (0x0000008000000000ull + (uint64_t)(c)*HOST_SIZE)
#define HOST_PA(c) (0x70000000ull + (uint64_t)(c)*HOST_SIZE)
#define HOST_SIZE  0x10000ull
/* SPE 4.3 fields, written out here. */
#define PMSCR_E0SPE 0x01ull
#define PMSCR_E1SPE 0x02ull
#define PMSCR_CX    0x08ull
#define PMSCR_PA    0x10ull
#define PMSCR_TS    0x20ull
#define PMSCR_PCT   0x40ull
#define PMSIRR_RND  0x01ull
#define LIMITR_E    0x01ull

bool trap_spe_pe(uint8_t b)
{
	/* Two of the eight PE choices have SPE: v3p5 with SPEv1p2, v3p4 with SPEv1. */
	uint8_t pmsver = (b & 7) == 1 ? 3 : (b & 7) == 7 ? 1 : 0;

	if (pmsver) {
		world.model.pmsver = pmsver;
		world.model.pmsidr = sim_spe_default_pmsidr(pmsver);
		world.model.pmbidr = sim_spe_default_pmbidr();
	}
	return pmsver != 0;
}

/* The VM's SPE policy from the bits of its partition byte the PMU leaves (bits 2-6). */
void trap_spe_vm(uint8_t p, struct vperf_vm_config *c, unsigned int v)
{
	static const int8_t bufs[8] = { -1,
					-1,
					-1,
					VPERF_SPE_BUF_EL1_TRAPPED,
					VPERF_SPE_BUF_EL1,
					VPERF_SPE_BUF_EL2,
					VPERF_SPE_BUF_DEFAULT,
					4 /* invalid */ };
	int b = bufs[p >> 2 & 7];

	if (!world.model.pmsver || b < 0)
		return;
	c->spe = true;
	memcpy(&c->spe_buffer, &(int){ b }, sizeof(int));
	c->spe_pa = p >> 5 & 1;
	c->spe_pct = p >> 6 & 1;
	c->spe_context = 0x100 + v;
	if (b == VPERF_SPE_BUF_EL2)
		world.pcfg.host_spe = true;
}

/* The oracle's SPE part, from the API (include/vperf/vspe.h, docs/vspe.md). */
bool trap_spe_policy_valid(const struct vperf_vm_config *c)
{
	if (!c->spe)
		return true;
	if (!world.model.pmsver || (unsigned int)c->spe_buffer > VPERF_SPE_BUF_EL2)
		return false;
	if (c->spe_buffer == VPERF_SPE_BUF_EL2 && !world.pcfg.host_spe)
		return false;
	return !c->spe_virq || (c->spe_virq >= 16 && c->spe_virq <= 31);
}

/* The host profiles into its own buffer when a VM is profiled from outside; it does not sample
 * itself (EL2), vperf adds CX for the VM. */
static void host_buffer(unsigned int cpu)
{
	sim_set_cpu(cpu);
	write_sysreg(hv.pcpu[cpu].host_mdcr, MDCR_EL2);
	FUZZ_CHECK(sim_mem_map_s1(SIM_REGIME_EL2, 0, HOST_VA(cpu), HOST_PA(cpu), HOST_SIZE,
				  SIM_PERM_RW) == VPERF_OK);
	write_sysreg(HOST_VA(cpu), PMBPTR_EL1);
	write_sysreg((HOST_VA(cpu) + HOST_SIZE) | LIMITR_E, PMBLIMITR_EL1);
	write_sysreg(0, PMSFCR_EL1);
	write_sysreg(0x100, PMSIRR_EL1);
	write_sysreg(0x20, PMSICR_EL1);
	write_sysreg(PMSCR_TS, PMSCR_EL2);
	isb();
}

/* After the pCPUs, before the VMs: deterministic choices where the architecture leaves one (the
 * seed's differ between the shared run's two pCPUs and the alone run's one), each VM's buffer
 * mapped at stage 1 and backed by its RAM (stage 2 on demand), the host's buffer. */
void trap_spe_init(void)
{
	struct sim_spe_options o;

	if (!world.model.pmsver)
		return;
	sim_spe_default_options(&o);
	o.unpred = SIM_SPE_UNPRED_WRITE;
	o.wptr = SIM_SPE_WPTR_FULL;
	sim_spe_set_options(&o);
	for (unsigned int v = 0; v < world.nr_vms; v++) {
		hv_vm_ram(v, BUF_IPA, BUF_PA(v), BUF_SIZE);
		FUZZ_CHECK(sim_mem_map_s1(SIM_REGIME_EL10, (uint16_t)(v + 1), BUF_VA, BUF_IPA,
					  BUF_SIZE, SIM_PERM_RW) == VPERF_OK);
	}
	for (unsigned int cpu = 0; cpu < 2; cpu++)
		trap_spe_cpu_up(cpu);
	sim_set_cpu(0);
}

void trap_spe_cpu_up(unsigned int cpu)
{
	if (world.model.pmsver && world.pcfg.host_spe && world.up[cpu])
		host_buffer(cpu);
}

/* Each vCPU's own CONTEXTIDR_EL1 and virtual counter offset, which records carry. */
void trap_spe_vcpu(struct hv_vcpu *vc, unsigned int i)
{
	vc->contextidr = 0xc0de00 + i;
	vc->cntvoff = 0x100000ull * (i + 1);
}

uint64_t trap_spe_pc(unsigned int vm)
{
	return world.model.pmsver ? 0x10000000ull * (vm + 1) : 0;
}

/* What the guest may write: the interval's random part (SPE 3.1.2) is the PE's choice, drawn
 * from the pCPU's stream, so it would sample differently alone. */
uint64_t trap_spe_guest_value(uint32_t enc, uint64_t val)
{
	return enc == VPERF_ENC_PMSIRR_EL1 ? val & ~PMSIRR_RND : val;
}

/* The guest's SPE driver: start (buffer, filters, interval, sampling) or stop (disable and
 * drain as Linux's arm_spe_pmu, then read where the buffer got to and clear the status). */
void trap_spe_driver(uint64_t a, uint64_t seen[2])
{
	if (a & 1) {
		uint64_t size = 0x1000ull << (a >> 1 & 3);
		uint64_t base = BUF_VA + (a >> 3 & 7) * 0x1000ull;

		if (base + size > BUF_VA + BUF_SIZE)
			base = BUF_VA;
		guest_write(PMBPTR_EL1, base + (a >> 6 & 0x3f) * 8);
		guest_write(PMBLIMITR_EL1, (base + size) | LIMITR_E);
		guest_write(PMSFCR_EL1, 0);
		guest_write(PMSIRR_EL1, 0x100);
		guest_write(PMSICR_EL1, a >> 12 & 0x1f);
		isb();
		guest_write(PMSCR_EL1, PMSCR_E1SPE | PMSCR_E0SPE | (a >> 17 & 0xf) << 3);
		isb();
		return;
	}
	sim_guest_spe_disable_and_drain();
	seen[0] = guest_read(PMBPTR_EL1);
	seen[1] = guest_read(PMBSR_EL1);
	guest_write(PMBSR_EL1, 0);
	isb();
}

/* The VM whose code is at pc, or -1. */
static int vm_of_pc(uint64_t pc)
{
	for (unsigned int v = 0; v < world.nr_vms; v++)
		if (pc - trap_spe_pc(v) < 0x10000)
			return (int)v;
	return -1;
}

/* Whether ctx is the CONTEXTIDR_EL1 of a vCPU of a VM other than v. Each vCPU's value is its
 * own (trap_spe_vcpu), so a record that took another VM's context carries that value exactly;
 * a value that is nobody's comes from bytes of an older record a guest's rewound pointer left
 * half overwritten (records are not aligned to the pointer the driver restarts from), parsed
 * from the wrong byte (regression 21). */
static bool foreign_context(unsigned int v, uint32_t ctx)
{
	for (unsigned int i = 0; i < world.nr_vcpus; i++)
		if (hv.vcpu[i].contextidr == ctx)
			return world.vm_of[i] != v;
	return false;
}

/* Every record in buf of a guest's operation (EL0/EL1): the VM whose code it sampled is owner
 * (a VM's buffer), or one profiled from outside tagged with its own id (owner -1, the host's). */
static void check_buffer(const uint8_t *buf, size_t len, int owner)
{
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	enum vperf_spe_next r;

	vperf_spe_iter_init(&it, buf, len);
	while ((r = vperf_spe_next_record(&it, &rec, &err)) != VPERF_SPE_DONE) {
		int v;

		if (r != VPERF_SPE_RECORD || !(rec.have & VPERF_SPE_HAVE_ADDR(0)) ||
		    rec.addr[0].el >= 2)
			continue;
		v = vm_of_pc(rec.addr[0].addr);
		if (v < 0)
			continue; /* bytes a guest's own pointer games left: no VM's code */
		if (owner >= 0) {
			FUZZ_CHECK(v == owner);
			FUZZ_CHECK(!(rec.have & VPERF_SPE_HAVE_CTX(0)) ||
				   !foreign_context((unsigned int)v, rec.ctx[0]));
		} else {
			FUZZ_CHECK(hv.vm[v].cfg.spe &&
				   hv.vm[v].cfg.spe_buffer == VPERF_SPE_BUF_EL2);
			FUZZ_CHECK((rec.have & VPERF_SPE_HAVE_CTX(1)) &&
				   rec.ctx[1] == hv.vm[v].cfg.spe_context);
		}
	}
}

/* After the shared run, every vCPU put: each VM's RAM and each host buffer. */
void trap_spe_check_records(void)
{
	static uint8_t buf[HOST_SIZE];

	if (!world.model.pmsver)
		return;
	for (unsigned int v = 0; v < world.nr_vms; v++) {
		sim_mem_read(BUF_PA(v), buf, BUF_SIZE);
		check_buffer(buf, BUF_SIZE, (int)v);
	}
	for (unsigned int cpu = 0; cpu < 2 && world.pcfg.host_spe; cpu++) {
		uint64_t end;

		if (!world.up[cpu])
			continue; /* late, and no op ever ran there */
		sim_set_cpu(cpu);
		sim_enter_el2(cpu);
		write_sysreg(0, PMSCR_EL2);
		isb();
		psb_csync();
		dsb_nsh();
		isb();
		end = read_sysreg(PMBPTR_EL1) - HOST_VA(cpu);
		FUZZ_CHECK(end <= HOST_SIZE);
		sim_mem_read(HOST_PA(cpu), buf, end);
		check_buffer(buf, end, -1);
		sim_exit_el2(cpu);
	}
	FUZZ_CHECK(sim_error_count() == 0);
}
