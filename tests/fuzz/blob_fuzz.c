// SPDX-License-Identifier: MIT
/*
 * Fuzz target for vperf_vcpu_restore, on the executable model with the unit tests' hypervisor.
 * An input picks a PE (PMUv3p4 or v3p5, counters, the host's and an external agent's ranges), a
 * VM policy, and a blob: the raw bytes of the input, or (structure-aware) the blob vperf saved
 * from a vCPU the input programmed, with words the input overwrites and, unless it says not to,
 * the checksum recomputed so that the edits reach the value checks. The restore goes into a vCPU
 * whose virtual line is high. Checked:
 *  - vperf accepts exactly what an oracle written from the blob's documented layout and the
 *    architecture's field rules accepts (not from vperf's code);
 *  - a refused blob changes nothing (the vCPU saves the same blob as before);
 *  - an accepted blob, loaded: the line is the architectural level of its state; the guest reads
 *    every register back as the blob holds it; it runs; the host's and the agent's counters,
 *    types, enables and flags are untouched (no partition escape), the model saw no error; and
 *    the blob vperf saves afterwards is one the oracle accepts.
 */
#include <string.h>

#include <arch/sysreg.h>
#include <vperf/mdcr.h>

#include "../unit/hv.h"
#include "fuzz_input.h"

#define WORDS	  75
#define W_REGS	  3
#define W_TYPES	  11
#define W_CNTRS	  42
#define W_FLAGS	  73
#define W_SUM	  74
#define PMCR_VP	  (PMCR_E | VPERF_BIT(5) | PMCR_LP)			 /* E, DP, LP (I5.3.21) */
#define PMCR_HW	  (PMCR_VP | VPERF_BIT(3) | VPERF_BIT(4) | VPERF_BIT(9)) /* D, X, FZO */
#define TYPE_VP	  (VPERF_BIT(31) | VPERF_BIT(30) | 0xffffull)		 /* P, U, evtCount */
#define CCFILT_VP (VPERF_BIT(31) | VPERF_BIT(30))

static uint8_t blob[VPERF_VPMU_BLOB_SIZE], before[VPERF_VPMU_BLOB_SIZE];
static struct vperf_vm_config vmc;
static uint64_t host_regs[8];

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (unsigned int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* ---- the oracle -------------------------------------------------------------------------------- */

static bool direct(void)
{
	return vmc.partition == VPERF_PART_DIRECT;
}

/* PMCR_EL0 fields a restored guest may hold on an AArch64-only PE of this PMU version (I5.3.21):
 * E; DP from PMUv3p1; LP from PMUv3p5; a direct guest also X (RAZ/WI without an export bus) and
 * FZO from PMUv3p7; D never (no AArch32). */
static uint64_t pmcr_ok(unsigned int pmuver)
{
	uint64_t w = PMCR_E | (pmuver >= 4 ? VPERF_BIT(5) : 0) | (pmuver >= 6 ? PMCR_LP : 0);

	if (direct())
		w |= VPERF_BIT(4) | (pmuver >= 7 ? VPERF_BIT(9) : 0);
	return w;
}

static bool regs_ok(const uint64_t *w, uint64_t guest, unsigned int pmuver)
{
	uint64_t userenr = direct() ? 0x7f : 0xf; /* EN SW CR ER; a direct guest [6:0] */
	/* a direct guest: the fields the PE implements, as the model states them */
	uint64_t ccf = direct() ? sim_pmu_type_fields(true) : CCFILT_VP;

	return !(w[W_REGS] & ~pmcr_ok(pmuver)) && !(w[W_REGS + 1] & ~guest) &&
	       !(w[W_REGS + 2] & ~guest) && !(w[W_REGS + 3] & ~guest) &&
	       !(w[W_REGS + 4] & ~userenr) && w[W_REGS + 5] <= 31 && !(w[W_REGS + 6] & ~ccf);
}

static bool oracle(const uint8_t *b, size_t len, unsigned int pmuver)
{
	uint64_t w[WORDS], guest = (VPERF_BIT(vmc.nr_counters) - 1) | VPERF_BIT(31);
	uint64_t type = direct() ? sim_pmu_type_fields(false) : TYPE_VP;
	uint64_t width = pmuver >= 6 ? ~0ull : 0xffffffffull;

	if (len != VPERF_VPMU_BLOB_SIZE)
		return false;
	for (unsigned int i = 0; i < WORDS; i++)
		w[i] = get64(b + 8 * i);
	if (w[0] != 0x554d504652455056ull || w[1] != (1ull | (uint64_t)vmc.nr_counters << 32) ||
	    w[2] != VPERF_VPMU_BLOB_SIZE || w[W_SUM] != fnv1a(b, 8 * W_SUM) || w[W_FLAGS] > 1)
		return false;
	if (!regs_ok(w, guest, pmuver))
		return false;
	for (unsigned int n = 0; n < 31; n++) {
		bool in = n < vmc.nr_counters;

		if ((w[W_TYPES + n] & ~(in ? type : 0)) || (w[W_CNTRS + n] & ~(in ? width : 0)))
			return false;
	}
	return true;
}

/* ---- the world --------------------------------------------------------------------------------- */

static void snapshot_host(uint64_t *out)
{
	const struct vperf_pcpu *p = &hv.pcpu[0];
	uint64_t bits = (VPERF_BIT(p->caps.nr_counters) - 1) & ~(VPERF_BIT(p->hpmn) - 1);

	out[0] = sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) & bits;
	out[1] = sim_peek(0, VPERF_ENC_PMINTENSET_EL1) & bits;
	out[2] = sim_peek(0, VPERF_ENC_PMOVSSET_EL0) & bits;
	for (unsigned int n = p->hpmn, k = 3; n < p->caps.nr_counters && k < 8; n++, k++)
		out[k] = sim_peek(0, VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7));
}

static bool make_world(struct fuzz_in *in, unsigned int pmuver)
{
	struct sim_pe_config model;
	struct vperf_pcpu_config pcfg = { 0 };
	uint8_t b = in_u8(in);

	sim_default_config(&model);
	model.pmuver = (uint8_t)pmuver;
	model.nr_counters = (uint8_t)(3 + b % 8);
	pcfg.host_counters = (uint8_t)(b >> 3 & 1);
	pcfg.agent_counters = (uint8_t)(b >> 4 & 1);
	hv_init(&model, 0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		sim_set_cpu(cpu);
		FUZZ_CHECK(vperf_pcpu_init(&hv.pcpu[cpu], &pcfg) == VPERF_OK);
		hv_host_boot(cpu);
	}
	sim_set_cpu(0);
	/* the host's and the agent's counters hold values, enabled, counting nothing */
	for (unsigned int n = hv.pcpu[0].hpmn; n < model.nr_counters; n++) {
		sim_poke(0, VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7), 0xc0000011ull);
		sim_poke(0, VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7), 77 * n);
		sim_poke(0, VPERF_ENC_PMCNTENSET_EL0,
			 sim_peek(0, VPERF_ENC_PMCNTENSET_EL0) | VPERF_BIT(n));
	}
	memset(host_regs, 0, sizeof(host_regs));
	snapshot_host(host_regs);
	memset(&vmc, 0, sizeof(vmc));
	vmc.pmu_mode = b & 0x20 ? VPERF_PMU_HV : VPERF_PMU_SELF;
	vmc.partition = (enum vperf_partition)(in_u8(in) % 3);
	vmc.nr_counters = (uint8_t)(in_u8(in) % (hv.pcpu[0].hpmn + 1));
	vmc.emu_slots = (uint8_t)(in_u8(in) % (hv.pcpu[0].hpmn + 1));
	vperf_pmu_filter_allow_all(&vmc.filter);
	return hv_vm(0, &vmc) == VPERF_OK;
}

/* A guest with an overflow pending on its line, and (vCPU 1) one the input programs. */
static void program(struct hv_vcpu *vc, struct fuzz_in *in)
{
	static const uint32_t regs[] = { VPERF_ENC_PMCR_EL0,	   VPERF_ENC_PMCNTENSET_EL0,
					 VPERF_ENC_PMINTENSET_EL1, VPERF_ENC_PMOVSSET_EL0,
					 VPERF_ENC_PMUSERENR_EL0,  VPERF_ENC_PMSELR_EL0,
					 VPERF_ENC_PMCCFILTR_EL0,  VPERF_ENC_PMCCNTR_EL0,
					 VPERF_ENC_PMEVTYPER0_EL0, VPERF_ENC_PMEVCNTR1_EL0,
					 VPERF_ENC_PMEVTYPER2_EL0, VPERF_ENC_PMEVCNTR0_EL0 };

	hv_enter(vc, 0);
	if (!in) {
		guest_write(PMINTENSET_EL1, VPERF_BIT(31));
		guest_write(PMOVSSET_EL0, VPERF_BIT(31));
		guest_write(PMCR_EL0, PMCR_E);
	} else {
		for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(regs); i++)
			guest_msr(regs[i], in_u64(in));
	}
	hv_leave(0);
}

/* The input's blob: the rest of the input as it is (raw), or vCPU 1's saved state with words
 * overwritten. */
static const uint8_t *make_blob(struct fuzz_in *in, bool raw, size_t *len)
{
	if (raw) {
		*len = in->n;
		if (in->n == sizeof(blob))
			memcpy(blob, in->p, sizeof(blob)); /* for the read-back if accepted */
		return in->p;
	}
	*len = sizeof(blob);
	program(&hv.vcpu[1], in);
	FUZZ_CHECK(vperf_vcpu_save(&hv.vcpu[1].v, blob, sizeof(blob)) == VPERF_VPMU_BLOB_SIZE);
	for (uint8_t k = in_u8(in) % 8; k; k--) {
		unsigned int word = in_u8(in) % WORDS;
		uint64_t v = in_u64(in);

		put64(blob + 8 * word,
		      in_u8(in) & 1 ? v : get64(blob + 8 * word) ^ VPERF_BIT(v & 63));
	}
	if (!(in_u8(in) & 0x80))
		put64(blob + 8 * W_SUM, fnv1a(blob, 8 * W_SUM));
	return blob;
}

/* ---- running an accepted blob ------------------------------------------------------------------ */

static void check_readback(void)
{
	uint64_t keep = direct() ? PMCR_HW : PMCR_VP;

	FUZZ_CHECK((guest_read(PMCR_EL0) & keep) == get64(blob + 8 * W_REGS));
	FUZZ_CHECK(guest_read(PMCNTENSET_EL0) == get64(blob + 8 * (W_REGS + 1)));
	FUZZ_CHECK(guest_read(PMINTENSET_EL1) == get64(blob + 8 * (W_REGS + 2)));
	FUZZ_CHECK(guest_read(PMOVSSET_EL0) == get64(blob + 8 * (W_REGS + 3)));
	FUZZ_CHECK(guest_read(PMUSERENR_EL0) == get64(blob + 8 * (W_REGS + 4)));
	FUZZ_CHECK(guest_read(PMSELR_EL0) == get64(blob + 8 * (W_REGS + 5)));
	FUZZ_CHECK(guest_read(PMCCFILTR_EL0) == get64(blob + 8 * (W_REGS + 6)));
	for (unsigned int n = 0; n < vmc.nr_counters; n++) {
		FUZZ_CHECK(guest_mrs(VPERF_SYSREG_ENC(3, 3, 14, 12 | (n >> 3), n & 7)) ==
			   get64(blob + 8 * (W_TYPES + n)));
		FUZZ_CHECK(guest_mrs(VPERF_SYSREG_ENC(3, 3, 14, 8 | (n >> 3), n & 7)) ==
			   get64(blob + 8 * (W_CNTRS + n)));
	}
}

static void run_accepted(struct hv_vcpu *vc, unsigned int pmuver)
{
	static const struct sim_uop op = { .pc = 0x4000, .latency = 3, .type = SIM_UOP_LOAD };
	uint64_t pmcr = get64(blob + 8 * W_REGS), inten = get64(blob + 8 * (W_REGS + 2));
	uint64_t ovs = get64(blob + 8 * (W_REGS + 3)), now[8];

	hv_enter(vc, 0);
	/* The architectural level of the restored state, whatever the vGIC held before. */
	FUZZ_CHECK(vc->irq_level == ((pmcr & PMCR_E) && (ovs & inten)));
	check_readback();
	hv_run_n(&op, 16);
	hv_leave(0);
	FUZZ_CHECK(sim_error_count() == 0);
	memset(now, 0, sizeof(now));
	snapshot_host(now);
	FUZZ_CHECK(!memcmp(now, host_regs, sizeof(now)));
	FUZZ_CHECK(vperf_vcpu_save(&vc->v, blob, sizeof(blob)) == VPERF_VPMU_BLOB_SIZE);
	FUZZ_CHECK(oracle(blob, sizeof(blob), pmuver));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t b = in_u8(&in);
	unsigned int pmuver = b & 1 ? 5 : 6;
	struct hv_vcpu *vc;
	const uint8_t *src;
	size_t len;
	bool accept;

	if (!make_world(&in, pmuver))
		return 0;
	vc = hv_vcpu(0, 0);
	hv_vcpu(1, 0);
	program(vc, NULL);
	src = make_blob(&in, b & 2, &len);
	FUZZ_CHECK(vperf_vcpu_save(&vc->v, before, sizeof(before)) == VPERF_VPMU_BLOB_SIZE);
	accept = oracle(src, len, pmuver);
	FUZZ_CHECK((vperf_vcpu_restore(&vc->v, src, len) == VPERF_OK) == accept);
	if (!accept) {
		uint8_t after[VPERF_VPMU_BLOB_SIZE];

		FUZZ_CHECK(vperf_vcpu_save(&vc->v, after, sizeof(after)) == VPERF_VPMU_BLOB_SIZE);
		FUZZ_CHECK(!memcmp(after, before, sizeof(after)));
		return 0;
	}
	run_accepted(vc, pmuver);
	return 0;
}
