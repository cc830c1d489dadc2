// SPDX-License-Identifier: MIT
/*
 * Fuzz target for vperf_vcpu_restore, on the executable model with the unit tests' hypervisor.
 * Register fields from Arm DDI 0487 K.a and the SPE supplement.
 * An input picks a PE (PMUv3p0, v3p4 or v3p5, counters, the host's and an external agent's ranges; with
 * SPEv1 or SPEv1p2 and a PMBIDR_EL1.Align when the VM has SPE), a VM policy (a guest-owned
 * Profiling Buffer, trapped or not, or none: blob version 2 or 1), and a blob: the raw bytes of the input, or (structure-aware) the blob vperf saved
 * from a vCPU the input programmed, with words the input overwrites and, unless it says not to,
 * the checksum recomputed so that the edits reach the value checks. The restore goes into a vCPU
 * whose virtual line is high. Checked:
 *  - vperf accepts exactly what an oracle written from the blob's documented layout and the
 *    architecture's field rules accepts (not from vperf's code);
 *  - a refused blob changes nothing (the vCPU saves the same blob as before);
 *  - an accepted blob, loaded: the lines (PMUIRQ, PMBIRQ) are the architectural levels of its
 *    state; the guest reads every register back as the blob holds it; it runs; the host's and the agent's counters,
 *    types, enables and flags are untouched (no partition escape), the model saw no error; and
 *    the blob vperf saves afterwards is one the oracle accepts.
 */
#include <string.h>

#include <arch/sysreg.h>
#include <vperf/mdcr.h>
#include <vperf/pmu_regs.h>

#include <sim/mem.h>
#include <sim/spe.h>

#include "../unit/hv.h"
#include "fuzz_input.h"

#define WORDS	 86 /* version 2; version 1 has 75 */
#define W_REGS	 3
#define W_TYPES	 11
#define W_CNTRS	 42
#define W_FLAGS	 73
#define W_POLICY 74 /* version 2 */
#define W_SPE \
	75 /* version 2: PMSCR PMSICR PMSIRR PMSFCR PMSEVFR PMSLATFR PMSNEVFR PMBPTR
		      * PMBLIMITR PMBSR */
#define PMCR_VP	  (PMCR_E | VPERF_BIT(5) | PMCR_LP)			 /* E, DP, LP (I5.3.21) */
#define PMCR_HW	  (PMCR_VP | VPERF_BIT(3) | VPERF_BIT(4) | VPERF_BIT(9)) /* D, X, FZO */
#define TYPE_VP	  (VPERF_BIT(31) | VPERF_BIT(30))			 /* P, U (+ evtCount) */
#define CCFILT_VP (VPERF_BIT(31) | VPERF_BIT(30))

/* The VM's SPE buffer: its stage 1 maps BUF_VA to its RAM at BUF_IPA. */
#define BUF_VA	 0xffff800010000000ull
#define BUF_IPA	 0x80000000ull
#define BUF_PA	 0x40000000ull
#define BUF_SIZE 0x10000ull

static uint8_t blob[VPERF_VSPE_BLOB_SIZE], before[VPERF_VSPE_BLOB_SIZE];
static struct vperf_vm_config vmc;
static uint64_t host_regs[8];
static struct sim_pe_config model;

/* The blob's size and checksum word for the VM: version 2 with SPE. */
static size_t blob_size(void)
{
	return vmc.spe ? 8 * WORDS : 8 * (W_POLICY + 1);
}

static unsigned int w_sum(void)
{
	return (unsigned int)(blob_size() / 8 - 1);
}

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
 * E; DP from PMUv3p1; LP from PMUv3p5; a direct guest also FZO from PMUv3p7, and X where the PE
 * has an event export bus (RAZ/WI without one: no guest could have left it set); D never (no
 * AArch32). */
static uint64_t pmcr_ok(unsigned int pmuver)
{
	uint64_t w = PMCR_E | (pmuver >= 4 ? VPERF_BIT(5) : 0) | (pmuver >= 6 ? PMCR_LP : 0);

	if (direct())
		w |= (model.pmu_export_bus ? VPERF_BIT(4) : 0) | (pmuver >= 7 ? VPERF_BIT(9) : 0);
	return w;
}

static bool regs_ok(const uint64_t *w, uint64_t guest, unsigned int pmuver)
{
	/* EN SW CR ER; UEN, IR and TID belong to features vperf does not offer (PMUv3p9, ICNTR) */
	uint64_t userenr = 0xf;
	/* a direct guest: the fields the PE implements, as the model states them */
	uint64_t ccf = direct() ? sim_pmu_type_fields(true) : CCFILT_VP;

	return !(w[W_REGS] & ~pmcr_ok(pmuver)) && !(w[W_REGS + 1] & ~guest) &&
	       !(w[W_REGS + 2] & ~guest) && !(w[W_REGS + 3] & ~guest) &&
	       !(w[W_REGS + 4] & ~userenr) && w[W_REGS + 5] <= 31 && !(w[W_REGS + 6] & ~ccf);
}

/* The SPE supplement's fields (SPE 4.3) of each register a guest can write, for this PE: PMSCR_EL1
 * E0SPE E1SPE CX PA TS PCT, PCT[1] with FEAT_ECV (Arm DDI 0487 D24.2.88); PMSICR_EL1 COUNT,
 * ECOUNT with PMSIDR_EL1.ERnd; PMSIRR_EL1 INTERVAL RND; PMSFCR_EL1 FE FT FL B LD ST, FnE with
 * PMSIDR_EL1.FnE; PMSEVFR_EL1 and PMSNEVFR_EL1 (SPEv1p2) the event bits; PMSLATFR_EL1 MINLAT as
 * wide as CountSize; PMBPTR_EL1 all; PMBLIMITR_EL1 LIMIT FM E; PMBSR_EL1 EC DL EA S COLL MSS. */
static uint64_t spe_fields(unsigned int r)
{
	uint64_t idr = model.pmsidr;
	bool v1p2 = model.pmsver >= 3;
	/* SPEv1's event bits, SPEv1p1's E[11], E[18:17], SPEv1p2's E[6] (D18.2.6). */
	uint64_t events =
		0xffff0000ff00f0aaull | (model.pmsver >= 2 ? 0x60800ull : 0) | (v1p2 ? 0x40ull : 0);
	const uint64_t f[10] = {
		0x7bull | (model.ecv ? 0x80ull : 0),
		0xffffffffull | (idr & 0x20 ? 0xffull << 56 : 0),
		0xffffff01ull,
		0x70007ull | (v1p2 && (idr & 0x40) ? 0x8ull : 0),
		events,
		((idr >> 16) & 0xf) == 3 ? 0xffffull : 0xfffull,
		v1p2 ? events : 0,
		~0ull,
		~0xfffull | 0x7ull,
		0xfc0f0000ull | 0xffffull,
	};

	return f[r];
}

/* SPE 3.4.1 on a buffer the guest finds enabled (E = 1, S = 0): the pointer aligned to
 * PMBIDR_EL1.Align, at most the limit, in the same tag byte, MaxSize bytes of room before it;
 * none of it in discard mode (FM = 0b10 from SPEv1p2, D17.5.5). */
static bool buffer_ok(uint64_t ptr, uint64_t limitr, uint64_t pmbsr)
{
	uint64_t lim = limitr & ~0xfffull;

	if (!(limitr & 1) || (pmbsr & VPERF_BIT(17)))
		return true;
	if (model.pmsver >= 3 && (limitr & 6) == 4)
		return true;
	return !(ptr & ((1ull << (model.pmbidr & 0xf)) - 1)) && ptr <= lim &&
	       ptr >> 56 == lim >> 56 && lim - ptr >= 1ull << ((model.pmsidr >> 12) & 0xf);
}

static bool spe_ok(const uint64_t *w)
{
	if (w[W_POLICY] != (uint64_t)vmc.spe_buffer)
		return false;
	for (unsigned int r = 0; r < 10; r++)
		if (w[W_SPE + r] & ~spe_fields(r))
			return false;
	return buffer_ok(w[W_SPE + 7], w[W_SPE + 8], w[W_SPE + 9]);
}

static bool oracle(const uint8_t *b, size_t len, unsigned int pmuver)
{
	uint64_t w[WORDS], guest = (VPERF_BIT(vmc.nr_counters) - 1) | VPERF_BIT(31);
	/* evtCount is [9:0] on PMUv3p0, [15:0] from PMUv3p1 (I5.3.30) */
	uint64_t type = direct() ? sim_pmu_type_fields(false)
				 : TYPE_VP | (pmuver >= 4 ? 0xffffull : 0x3ffull);
	uint64_t width = pmuver >= 6 ? ~0ull : 0xffffffffull;
	uint64_t version = vmc.spe ? 2 : 1;

	if (len != blob_size())
		return false;
	for (unsigned int i = 0; i <= w_sum(); i++)
		w[i] = get64(b + 8 * i);
	if (w[0] != 0x554d504652455056ull || w[1] != (version | (uint64_t)vmc.nr_counters << 32) ||
	    w[2] != blob_size() || w[w_sum()] != fnv1a(b, 8 * w_sum()) || w[W_FLAGS] > 1)
		return false;
	if (!regs_ok(w, guest, pmuver) || (vmc.spe && !spe_ok(w)))
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

/* spe: bit 0 SPE, bit 1 untrapped PMB*, bit 2 SPEv1p2 (else SPEv1), bit 3 Align 3 (else 0), bit
 * 4 FEAT_ECV (PMSCR_EL1.PCT[1]). */
static bool make_world(struct fuzz_in *in, unsigned int pmuver, unsigned int spe)
{
	struct vperf_pcpu_config pcfg = { 0 };
	uint8_t b = in_u8(in);
	/* the hypervisor's own MDCR_EL2 bits: the debug traps, HLP (PMUv3p5), TTRF (FEAT_TRF,
	 * which the model lacks); vperf_pcpu_init refuses exactly the bits the PE lacks */
	bool ttrf = (b & 0xc0) == 0xc0, fits = !ttrf && (!(b & 0x40) || pmuver >= 6);

	sim_default_config(&model);
	if (spe & 1) {
		sim_spe_default_config(&model, spe & 4 ? 3 : 1);
		model.pmbidr = spe & 8 ? 3 : 0;
		model.ecv = spe & 16 ? 1 : 0;
	}
	model.pmuver = (uint8_t)pmuver;
	model.nr_counters = (uint8_t)(3 + b % 8);
	pcfg.host_counters = (uint8_t)(b >> 3 & 1);
	pcfg.agent_counters = (uint8_t)(b >> 4 & 1);
	pcfg.host_mdcr = MDCR_EL2_TDA | (b & 0x40 ? MDCR_EL2_HLP : 0) | (ttrf ? MDCR_EL2_TTRF : 0);
	hv_init(&model, 0);
	for (unsigned int cpu = 0; cpu < 2; cpu++) {
		sim_set_cpu(cpu);
		FUZZ_CHECK((vperf_pcpu_init(&hv.pcpu[cpu], &pcfg) == VPERF_OK) == fits);
		if (!fits)
			return false;
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
	if (spe & 1) {
		vmc.spe = true;
		vmc.spe_buffer = spe & 2 ? VPERF_SPE_BUF_EL1 : VPERF_SPE_BUF_EL1_TRAPPED;
		hv_vm_ram(0, BUF_IPA, BUF_PA, BUF_SIZE);
		FUZZ_CHECK(sim_mem_map_s1(SIM_REGIME_EL10, 1, BUF_VA, BUF_IPA, BUF_SIZE,
					  SIM_PERM_RW) == VPERF_OK);
	}
	return hv_vm(0, &vmc) == VPERF_OK;
}

/* The SPE controls from the input, then a buffer in the VM's memory enabled at an offset the
 * input picks (in it, or beyond its limit), a few operations sampled. */
static void program_spe(struct fuzz_in *in)
{
	static const uint32_t regs[] = { VPERF_ENC_PMSCR_EL1,	 VPERF_ENC_PMSICR_EL1,
					 VPERF_ENC_PMSIRR_EL1,	 VPERF_ENC_PMSFCR_EL1,
					 VPERF_ENC_PMSEVFR_EL1,	 VPERF_ENC_PMSLATFR_EL1,
					 VPERF_ENC_PMSNEVFR_EL1, VPERF_ENC_PMBSR_EL1 };
	static const struct sim_uop op = { .pc = 0x4000, .latency = 5, .type = SIM_UOP_LOAD };

	for (unsigned int i = 0; i < VPERF_ARRAY_SIZE(regs); i++)
		if (in_u8(in) & 1)
			guest_msr(regs[i], in_u64(in));
	guest_write(PMBPTR_EL1, BUF_VA + (in_u64(in) & 0x1ffff));
	guest_write(PMBLIMITR_EL1, (BUF_VA + BUF_SIZE) | (in_u8(in) & 7));
	hv_run_n(&op, in_u8(in));
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
		if (vmc.spe)
			program_spe(in);
	}
	hv_leave(0);
}

/* The input's blob: the rest of the input as it is (raw), or vCPU 1's saved state with words
 * overwritten. */
static const uint8_t *make_blob(struct fuzz_in *in, bool raw, size_t *len)
{
	if (raw) {
		*len = in->n;
		if (in->n == blob_size())
			memcpy(blob, in->p, blob_size()); /* for the read-back if accepted */
		return in->p;
	}
	*len = blob_size();
	program(&hv.vcpu[1], in);
	FUZZ_CHECK(vperf_vcpu_save(&hv.vcpu[1].v, blob, sizeof(blob)) == (int)blob_size());
	for (uint8_t k = in_u8(in) % 8; k; k--) {
		unsigned int word = in_u8(in) % w_sum();
		uint64_t v = in_u64(in);

		put64(blob + 8 * word,
		      in_u8(in) & 1 ? v : get64(blob + 8 * word) ^ VPERF_BIT(v & 63));
	}
	if (!(in_u8(in) & 0x80))
		put64(blob + 8 * w_sum(), fnv1a(blob, 8 * w_sum()));
	return blob;
}

/* ---- running an accepted blob ------------------------------------------------------------------ */

/* The guest's SPE registers as the blob holds them (PMSIDR-dependent encodings by the VM's). */
static void check_spe_readback(void)
{
	static const uint32_t enc[10] = {
		VPERF_ENC_PMSCR_EL1,	VPERF_ENC_PMSICR_EL1,  VPERF_ENC_PMSIRR_EL1,
		VPERF_ENC_PMSFCR_EL1,	VPERF_ENC_PMSEVFR_EL1, VPERF_ENC_PMSLATFR_EL1,
		VPERF_ENC_PMSNEVFR_EL1, VPERF_ENC_PMBPTR_EL1,  VPERF_ENC_PMBLIMITR_EL1,
		VPERF_ENC_PMBSR_EL1,
	};

	for (unsigned int r = 0; r < 10; r++)
		if (r != 6 || model.pmsver >= 3)
			FUZZ_CHECK(guest_mrs(enc[r]) == get64(blob + 8 * (W_SPE + r)));
}

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
	/* The architectural levels of the restored state, whatever the vGIC held before. */
	FUZZ_CHECK(vc->irq_level == ((pmcr & PMCR_E) && (ovs & inten)));
	if (vmc.spe) {
		FUZZ_CHECK(vc->spe_irq_level == !!(get64(blob + 8 * (W_SPE + 9)) & VPERF_BIT(17)));
		check_spe_readback();
	}
	check_readback();
	hv_run_n(&op, 16);
	hv_leave(0);
	FUZZ_CHECK(sim_error_count() == 0);
	memset(now, 0, sizeof(now));
	snapshot_host(now);
	FUZZ_CHECK(!memcmp(now, host_regs, sizeof(now)));
	FUZZ_CHECK(vperf_vcpu_save(&vc->v, blob, sizeof(blob)) == (int)blob_size());
	FUZZ_CHECK(oracle(blob, blob_size(), pmuver));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t b = in_u8(&in);
	/* bit 6 without SPE: a PMUv3p0 PE (the 10-bit event number of Cortex-A53/A57/A72) */
	unsigned int pmuver = (b & 0xc0) == 0x40 ? 1 : b & 1 ? 5 : 6;
	struct hv_vcpu *vc;
	const uint8_t *src;
	size_t len;
	bool accept;

	/* b bit 7: a VM with SPE, bits 3-5 and 2 its policy and PE (make_world) */
	if (!make_world(&in, pmuver, b & 0x80 ? 1u | (b >> 2 & 0xe) | (b & 4 ? 16u : 0) : 0))
		return 0;
	vc = hv_vcpu(0, 0);
	hv_vcpu(1, 0);
	program(vc, NULL);
	src = make_blob(&in, b & 2, &len);
	FUZZ_CHECK(vperf_vcpu_save(&vc->v, before, sizeof(before)) == (int)blob_size());
	accept = oracle(src, len, pmuver);
	FUZZ_CHECK((vperf_vcpu_restore(&vc->v, src, len) == VPERF_OK) == accept);
	if (!accept) {
		uint8_t after[VPERF_VSPE_BLOB_SIZE];

		FUZZ_CHECK(vperf_vcpu_save(&vc->v, after, sizeof(after)) == (int)blob_size());
		FUZZ_CHECK(!memcmp(after, before, blob_size()));
		return 0;
	}
	run_accepted(vc, pmuver);
	return 0;
}
