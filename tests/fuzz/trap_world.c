// SPDX-License-Identifier: MIT
/*
 * The trap fuzzer's world: decoding an input, the policy oracle, the host's and the agent's
 * counters and the checks on them (trap_world.h).
 */
#include <string.h>

#include <arch/sysreg.h>
#include <vperf/pmu_regs.h>

#include "fuzz_input.h"
#include "trap_world.h"

#define HOST_REGS (7 + 2 * 31)

struct world world;
static uint64_t host_regs[SIM_MAX_CPUS][HOST_REGS];

/* HPMN as vperf.h defines it: host_counters where the host keeps the first range, else the
 * counters below the host's and the agent's. */
static unsigned int world_hpmn(void)
{
	unsigned int reserved = world.pcfg.host_counters + world.pcfg.agent_counters;

	return world.pcfg.host_first_range ? world.pcfg.host_counters
					   : world.model.nr_counters - reserved;
}

/* A vPMU's range (docs/vpmu.md, "The second range"): where the host keeps the first range, only
 * VPERF_PART_SECOND, on PMUv3p5 or later without AArch32 at EL0 (LC RES1), not in
 * XENPMU_MODE_ALL, with its N counters and its cycle counter in [HPMN, EPMN); elsewhere every
 * partition but that one. */
static bool range_valid(const struct vperf_vm_config *c)
{
	unsigned int room = world.model.nr_counters - world.pcfg.agent_counters - world_hpmn();

	if (c->partition != VPERF_PART_SECOND)
		return !world.pcfg.host_first_range;
	return world.pcfg.host_first_range && world.model.pmuver >= 6 && !world.model.aarch32_el0 &&
	       !world.pcfg.hpmn_unenforced && c->pmu_mode != VPERF_PMU_ALL &&
	       c->nr_counters + 1u <= room;
}

/* A vPMU and a vSPE of its own on one virtual PPI (each 0 its default): refused, the guest could
 * not tell PMUIRQ from PMBIRQ (docs/vspe.md, spe_virq). */
static bool ppis_collide(const struct vperf_vm_config *c)
{
	uint32_t pmu = c->pmu_virq ? c->pmu_virq : CONFIG_VPERF_VPMU_PPI;
	uint32_t spe = c->spe_virq ? c->spe_virq : CONFIG_VPERF_VSPE_PPI;

	return c->pmu_mode != VPERF_PMU_OFF && c->spe && c->spe_buffer != VPERF_SPE_BUF_EL2 &&
	       pmu == spe;
}

/* The oracle for vperf_vm_init, written from the API's contract, not from its code. */
static bool policy_valid(const struct vperf_vm_config *c)
{
	bool on = c->pmu_mode != VPERF_PMU_OFF;
	unsigned int hpmn = world_hpmn();

	if (ppis_collide(c))
		return false;

	if ((unsigned int)c->partition > VPERF_PART_SECOND || c->nr_counters > 31 ||
	    c->emu_slots > 31 || !trap_spe_policy_valid(c))
		return false;
	if (c->pmu_mode != VPERF_PMU_OFF && c->pmu_mode != VPERF_PMU_SELF &&
	    c->pmu_mode != VPERF_PMU_HV && c->pmu_mode != VPERF_PMU_ALL)
		return false;
	if (on && (c->nr_counters > hpmn || c->emu_slots > hpmn || !range_valid(c)))
		return false;
	return !on || !c->pmu_virq || (c->pmu_virq >= 16 && c->pmu_virq <= 31);
}

static void decode_vm(struct fuzz_in *in, struct vperf_vm_config *c, unsigned int v)
{
	static const uint8_t modes[8] = { 0, 1, 2, 4, 1, 2, 3, 8 };
	uint8_t b = in_u8(in), p = in_u8(in);
	int part = p % 4;

	memset(c, 0, sizeof(*c));
	c->pmu_mode = (enum vperf_pmu_mode)modes[b & 7];
	memcpy(&c->partition, &part, sizeof(part));
	c->nr_counters = in_u8(in);
	c->nr_counters = c->nr_counters >= 0xf0 ? c->nr_counters : c->nr_counters % 8;
	c->emu_slots = in_u8(in) % 4;
	if (b & 0x10)
		c->filter.allow[0] = in_u64(in);
	else
		vperf_pmu_filter_allow_all(&c->filter);
	c->pmu_virq = b & 0x20 ? 16 + (b >> 6) * 5 : 0;
	trap_spe_vm(p, c, v);
}

/* ESR_EL2 of a trapped MSR/MRS, from the ISS layout for EC = 0x18 (Arm DDI 0487 K.a
 * D24.2.40). */
static uint64_t raw_esr(uint32_t enc, unsigned int rt, bool read)
{
	return 0x18ull << 26 | 1ull << 25 | (uint64_t)VPERF_ENC_OP0(enc) << 20 |
	       (uint64_t)VPERF_ENC_OP2(enc) << 17 | (uint64_t)VPERF_ENC_OP1(enc) << 14 |
	       (uint64_t)VPERF_ENC_CRN(enc) << 10 | (uint64_t)rt << 5 |
	       (uint64_t)VPERF_ENC_CRM(enc) << 1 | read;
}

static void decode_op(struct fuzz_in *in, struct op *o)
{
	uint8_t k = in_u8(in);

	memset(o, 0, sizeof(*o));
	o->kind = (uint8_t)(k % 8);
	o->cpu = (uint8_t)(k >> 3 & 1);
	o->vcpu = (uint8_t)((k >> 4) % world.nr_vcpus);
	o->el = (uint8_t)(k >> 6 & 1);
	o->read = (uint8_t)(k >> 7);
	if (o->kind == OP_ACCESS) {
		uint8_t r = in_u8(in);

		o->enc = r < 0xc0 ? vperf_sysregs[r % VPERF_SR_COUNT].enc
				  : VPERF_SYSREG_ENC(3, r & 3 ? 3 : 0, r & 4 ? 14 : 9,
						     8 + (in_u8(in) & 7), in_u8(in) & 7);
		if (r >= 0xf8 && world.model.pmsver)
			o->enc = 0; /* the guest's SPE driver */
		o->a = trap_spe_guest_value(o->enc, in_u64(in));
	} else if (o->kind == OP_RAW) {
		o->a = in_u64(in);
		o->rt = in_u8(in);
		if (o->rt & 0x80) /* EC = 0x18 with random ISS bits */
			o->a = 0x18ull << 26 | 1ull << 25 | (o->a & 0x1ffffff);
		if ((o->rt & 0xc0) == 0xc0) /* at an encoding near the PMU and SPE groups */
			o->a = raw_esr(VPERF_SYSREG_ENC(3, o->a & 1 ? 3 : 0, o->a & 2 ? 14 : 9,
							8 + (o->a >> 2 & 7), o->a >> 5 & 7),
				       (unsigned int)(o->a >> 8 & 31), o->a >> 13 & 1);
		o->b = in_u64(in);
	} else if (o->kind == OP_RUN) {
		o->a = in_u64(in);
	}
}

bool trap_decode(const uint8_t *data, size_t size)
{
	static const uint8_t vers[8] = { 6, 6, 5, 4, 1, 0, 6, 5 };
	struct fuzz_in in = { data, size };
	uint8_t b;

	memset(&world, 0, sizeof(world));
	sim_default_config(&world.model);
	b = in_u8(&in);
	world.model.pmuver = vers[b & 7];
	trap_spe_pe(b);
	world.model.nr_counters = (uint8_t)(2 + (b >> 3) % 10);
	b = in_u8(&in);
	/* The host keeps the first range (an EL1 host, host_first_range) when the input's last
	 * byte is 0xf0 or above: where a second-range VM may be valid (docs/vpmu.md, "The second
	 * range"). Its HPMN is host_counters, at least 1. Taken from the end so that every other
	 * input decodes as before. */
	world.pcfg.host_first_range = world.model.pmuver && size > 2 && data[size - 1] >= 0xf0;
	world.pcfg.host_el1 = world.pcfg.host_first_range;
	/* There, with 0xf7 or 0xff, AArch32 at EL0: PMCR_EL0.LC writable, the placement refused. */
	world.model.aarch32_el0 = world.pcfg.host_first_range && (data[size - 1] & 7) == 7;
	/* Elsewhere, with 0xe0-0xe7, pCPU 1 comes up late: at the schedule's first op on it, once
	 * the VMs exist and their vCPUs may have run on pCPU 0 (a CPU brought online later). */
	world.cpu1_late =
		!world.pcfg.host_first_range && size > 2 && (data[size - 1] & 0xf8) == 0xe0;
	world.pcfg.host_counters = world.model.pmuver ? (uint8_t)(b % 3) : 0;
	world.pcfg.host_counters += world.pcfg.host_first_range;
	world.pcfg.agent_counters = world.model.pmuver ? (uint8_t)(b >> 2 & 1) : 0;
	world.agent_flag = b >> 7;
	world.nr_vms = 1 + (b >> 3) % MAX_VMS;
	world.nr_vcpus = world.nr_vms + (b >> 5 & 1);
	for (unsigned int v = 0; v < world.nr_vms; v++)
		decode_vm(&in, &world.vm[v], v);
	for (unsigned int i = 0; i < world.nr_vcpus; i++)
		world.vm_of[i] = i < world.nr_vms ? i : 0;
	while (in.n && world.nr_ops < MAX_OPS)
		decode_op(&in, &world.ops[world.nr_ops++]);
	return world.pcfg.host_counters + world.pcfg.agent_counters < world.model.nr_counters;
}

/* The host's and the agent's counters: [HPMN, N), or where the host keeps the first range
 * [0, HPMN), the cycle counter and the agent's [EPMN, N). */
static uint64_t host_bits(const struct vperf_pcpu *p)
{
	uint64_t all = VPERF_BIT(p->caps.nr_counters) - 1;

	if (p->cfg.host_first_range)
		return (VPERF_BIT(p->hpmn) - 1) | (all & ~(VPERF_BIT(p->epmn) - 1)) | VPERF_BIT(31);
	return all & ~(VPERF_BIT(p->hpmn) - 1);
}

/* The host's and the agent's counters on each pCPU: enabled, with an interrupt, but filtered so
 * that they count nothing, holding values a reset or a stray write would change; an EL1 host's
 * cycle counter too, its PMCR_EL0.E set. */
static void program_host(unsigned int cpu)
{
	const struct vperf_pcpu *p = &hv.pcpu[cpu];
	uint64_t bits = host_bits(p);

	if (p->cfg.host_first_range) {
		sim_poke(cpu, VPERF_ENC_PMCCFILTR_EL0, VPERF_BIT(31) | VPERF_BIT(30));
		sim_poke(cpu, VPERF_ENC_PMCCNTR_EL0, 0x1234);
		sim_poke(cpu, VPERF_ENC_PMCR_EL0, sim_peek(cpu, VPERF_ENC_PMCR_EL0) | PMCR_E);
	}
	for (unsigned int n = 0; n < p->caps.nr_counters; n++) {
		if (!(bits & VPERF_BIT(n)))
			continue;
		sim_poke(cpu, VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7),
			 VPERF_BIT(31) | VPERF_BIT(30) | 0x11);
		sim_poke(cpu, VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7), 0x1000 * (n + 1));
	}
	sim_poke(cpu, VPERF_ENC_PMCNTENSET_EL0, bits);
	sim_poke(cpu, VPERF_ENC_PMINTENSET_EL1, bits);
	if (world.agent_flag && p->epmn < p->caps.nr_counters)
		sim_poke(cpu, VPERF_ENC_PMOVSSET_EL0, VPERF_BIT(p->epmn));
}

static void snapshot_host(unsigned int cpu, uint64_t *out)
{
	const struct vperf_pcpu *p = &hv.pcpu[cpu];
	uint64_t bits = host_bits(p);
	unsigned int k = 0;

	out[k++] = sim_peek(cpu, VPERF_ENC_PMCNTENSET_EL0) & bits;
	/* The agent's interrupt enables are vperf's to clear when its flag would storm. */
	out[k++] = sim_peek(cpu, VPERF_ENC_PMINTENSET_EL1) & bits &
		   ((VPERF_BIT(p->epmn) - 1) | VPERF_BIT(31));
	out[k++] = sim_peek(cpu, VPERF_ENC_PMOVSSET_EL0) & bits;
	out[k++] = bits;
	if (p->cfg.host_first_range) {
		out[k++] = sim_peek(cpu, VPERF_ENC_PMCCFILTR_EL0);
		out[k++] = sim_peek(cpu, VPERF_ENC_PMCCNTR_EL0);
		out[k++] = sim_peek(cpu, VPERF_ENC_PMCR_EL0);
	}
	for (unsigned int n = 0; n < p->caps.nr_counters; n++) {
		if (!(bits & VPERF_BIT(n)))
			continue;
		out[k++] = sim_peek(cpu, VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7));
		out[k++] = sim_peek(cpu, VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7));
	}
}

void trap_check_world(void)
{
	uint64_t now[HOST_REGS];

	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		if (!world.up[cpu])
			continue;
		memset(now, 0, sizeof(now));
		snapshot_host(cpu, now);
		FUZZ_CHECK(!memcmp(now, host_regs[cpu], sizeof(now)));
	}
	FUZZ_CHECK(sim_error_count() == 0);
	FUZZ_CHECK(hv.max_irq_burst <= 1);
}

/* The model and every pCPU but a late one up: host_spe on each, the two of the schedule with
 * world's configuration later (trap_cpu_up), the others with no host counters. A host that
 * keeps the first range keeps it on every pCPU: a second-range VM needs that of every pCPU
 * initialised (docs/vpmu.md, "The second range"). */
static void pcpus_up(void)
{
	const struct vperf_pcpu_config others = { .host_spe = world.pcfg.host_spe };
	struct sim_pe_config cfgs[SIM_MAX_CPUS];

	if (!world.pcfg.host_first_range && !world.cpu1_late) {
		hv_init_host_spe(&world.model, 0, world.pcfg.host_spe);
		return;
	}
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++)
		cfgs[cpu] = world.model;
	hv_init_model(cfgs);
	for (unsigned int cpu = 0; cpu < SIM_MAX_CPUS; cpu++) {
		if (cpu == 1 && world.cpu1_late)
			continue;
		FUZZ_CHECK(hv_pcpu_up(cpu, world.pcfg.host_first_range ? &world.pcfg : &others) ==
			   VPERF_OK);
	}
}

void trap_cpu_up(unsigned int cpu)
{
	if (world.up[cpu])
		return;
	FUZZ_CHECK(hv_pcpu_up(cpu, &world.pcfg) == VPERF_OK);
	world.up[cpu] = true;
	program_host(cpu);
	trap_spe_cpu_up(cpu);
	memset(host_regs[cpu], 0, sizeof(host_regs[cpu]));
	snapshot_host(cpu, host_regs[cpu]);
}

void trap_init_world(void)
{
	pcpus_up();
	memset(world.up, 0, sizeof(world.up));
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		if (cpu == 1 && world.cpu1_late)
			continue;
		sim_set_cpu(cpu);
		FUZZ_CHECK(vperf_pcpu_init(&hv.pcpu[cpu], &world.pcfg) == VPERF_OK);
		hv_host_boot(cpu);
		program_host(cpu);
		world.up[cpu] = true;
		memset(host_regs[cpu], 0, sizeof(host_regs[cpu]));
		snapshot_host(cpu, host_regs[cpu]);
	}
	sim_set_cpu(0);
	trap_spe_init();
	for (unsigned int v = 0; v < world.nr_vms; v++) {
		static const struct vperf_vm_config off;
		bool valid = policy_valid(&world.vm[v]);
		int err = hv_vm(v, &world.vm[v]);

		/* A valid policy may still be refused for what the PE lacks (direct, no PMU); not a
		 * second-range one, whose PE is all of range_valid. */
		FUZZ_CHECK(valid || err != VPERF_OK);
		FUZZ_CHECK(!valid || world.vm[v].partition != VPERF_PART_SECOND || err == VPERF_OK);
		if (err)
			FUZZ_CHECK(hv_vm(v, &off) == VPERF_OK);
	}
	for (unsigned int i = 0; i < world.nr_vcpus; i++)
		trap_spe_vcpu(hv_vcpu(i, world.vm_of[i]), i);
}
