// SPDX-License-Identifier: MIT
/*
 * The hypervisor profiling its VMs from outside (vmI.spe=outside, vperf's VPERF_SPE_BUF_EL2): each
 * pCPU has its own EL2-owned Profiling Buffer (vperf_pcpu_config.host_spe), live from boot; vperf
 * tags the records of an outside VM with its spe_context (CONTEXTIDR_EL2 in a Context packet)
 * and enables sampling of its EL1 and EL0 (PMSCR_EL1), and saves this buffer around the vCPUs
 * that own one. EL2 itself is not sampled (PMSCR_EL2.E2SPE = 0).
 *
 * At the end the buffer is decoded here with vperf's record iterator and every record is
 * attributed by the rule of docs/vspe.md: a PC at EL0 or EL1 belongs to the VM its CONTEXTIDR_EL2
 * names. RESULT host spe-outside-attribution passes when every record is well formed, names an
 * outside VM (id SPE_CONTEXT_BASE + I) and each outside VM has records; the buffer is printed as
 * SPE-BUF lines, which run.sh decodes again with tools/vperf-spe. The SPE supplement (Arm DDI
 * 0586A) is cited as "SPE 3.4" etc., the Arm ARM as Arm DDI 0487 K.a.
 */
#include <vperf/spe_rec.h>

#include "hyp.h"

#define HOST_BUF_SIZE	 0x20000ull /* per pCPU; full, it stops (no wrap: the first records) */
#define HOST_INTERVAL	 0x1000ull  /* PMSIRR_EL1.INTERVAL: one operation in 4096 */
#define SPE_CONTEXT_BASE 0x5e00u
#define PMBLIMITR_E	 BIT(0)
#define PMBSR_S		 BIT(17)

#define PMSCR_EL1     S3_0_C9_C9_0
#define PMSICR_EL1    S3_0_C9_C9_2
#define PMSIRR_EL1    S3_0_C9_C9_3
#define PMSFCR_EL1    S3_0_C9_C9_4
#define PMSCR_EL2     S3_4_C9_C9_0
#define PMBLIMITR_EL1 S3_0_C9_C10_0
#define PMBPTR_EL1    S3_0_C9_C10_1
#define PMBSR_EL1     S3_0_C9_C10_3
#define psb_csync()   __asm__ volatile("hint #17" : : : "memory")
/* The names above by encoding (the assembler knows SPE's names only with +profile): expanded
 * before read_sysreg/write_sysreg stringify them. */
#define spe_read(r)	read_sysreg(r)
#define spe_write(v, r) write_sysreg(v, r)

static uint8_t host_buf[MAX_PCPUS][HOST_BUF_SIZE] __attribute__((aligned(4096)));
static bool host_full[MAX_PCPUS];

bool spe_outside_wanted(void)
{
	for (unsigned int i = 0; i < hyp.nr_vms; i++)
		if (hyp.vms[i].cfg.spe && hyp.vms[i].cfg.spe_buffer == VPERF_SPE_BUF_EL2)
			return true;
	return false;
}

uint32_t spe_outside_context(const struct vm *vm)
{
	return SPE_CONTEXT_BASE + (hyp.mutant == MUT_SAME_CONTEXT ? 0 : vm->id);
}

/* This pCPU's buffer on, EL2 owning it (MDCR_EL2.E2PB = 0b00, the host's MDCR_EL2 vperf gave):
 * PMBPTR_EL1 before PMBLIMITR_EL1 with E (SPE 3.4), the sampling controls, PMSCR_EL1 = 0 (vperf
 * turns it on for an outside VM only) and PMSCR_EL2 = 0 (EL2 not sampled; vperf adds CX). */
void spe_outside_cpu_init(void)
{
	uint64_t buf = (uint64_t)(uintptr_t)host_buf[this_pcpu()->id];

	if (!spe_outside_wanted())
		return;
	spe_write(0, PMSCR_EL1);
	spe_write(0, PMSCR_EL2);
	spe_write(HOST_INTERVAL, PMSIRR_EL1);
	spe_write(0, PMSFCR_EL1);
	spe_write(0, PMSICR_EL1);
	spe_write(buf, PMBPTR_EL1);
	spe_write(0, PMBSR_EL1);
	spe_write((buf + HOST_BUF_SIZE) | PMBLIMITR_E, PMBLIMITR_EL1);
	isb();
	/* Sampling controls written here, not by vperf (docs/integration.md, "SPE controls"). */
	vperf_pcpu_flush(&this_pcpu()->vperf);
}

/* A PMBIRQ vperf did not take is this buffer's (it is live: vperf saves it around vSPE
 * vCPUs): full, or a fault. Sampling stops there (PMBLIMITR_EL1.E = 0) and the event is cleared,
 * which drops the level (SPE 3.5); the records up to PMBPTR_EL1 are kept for the report. */
bool spe_outside_irq(void)
{
	if (!spe_outside_wanted() || !(spe_read(PMBSR_EL1) & PMBSR_S))
		return false;
	hyp_log("pCPU %u: host SPE buffer event PMBSR_EL1 %lx at %lx: sampling stopped",
		this_pcpu()->id, spe_read(PMBSR_EL1), spe_read(PMBPTR_EL1));
	spe_write(0, PMBLIMITR_EL1);
	spe_write(0, PMBSR_EL1);
	isb();
	host_full[this_pcpu()->id] = true;
	return true;
}

/* The VM a record's CONTEXTIDR_EL2 names, -1 for none. */
static int record_vm(const struct vperf_spe_record *r)
{
	uint32_t id = r->ctx[VPERF_SPE_CTX_EL2] - SPE_CONTEXT_BASE;

	if (!(r->have & VPERF_SPE_HAVE_CTX(VPERF_SPE_CTX_EL2)) || id >= hyp.nr_vms)
		return -1;
	return (int)id;
}

/* Decode [buf, buf + len): per-VM counts of the guest's records; false on anything that breaks
 * the rule (malformed, no Context, an id of no outside VM, a PC at EL2: never sampled here). */
static bool attribute(const uint8_t *buf, size_t len, uint64_t *per_vm, uint64_t *bad)
{
	struct vperf_spe_iter it;
	struct vperf_spe_record r;
	struct vperf_spe_error err;
	enum vperf_spe_next n;

	vperf_spe_iter_init(&it, buf, len);
	while ((n = vperf_spe_next_record(&it, &r, &err)) != VPERF_SPE_DONE) {
		int vm = n == VPERF_SPE_RECORD ? record_vm(&r) : -1;
		bool at_el01 = (r.have & VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_PC)) &&
			       r.addr[VPERF_SPE_ADDR_PC].el < 2;

		if (vm < 0 || !at_el01 || hyp.vms[vm].cfg.spe_buffer != VPERF_SPE_BUF_EL2 ||
		    !hyp.vms[vm].cfg.spe)
			(*bad)++;
		else
			per_vm[vm]++;
	}
	return !*bad;
}

/* The buffer as hex, 32 bytes a line, for tools/vperf-spe (run.sh). */
static void dump(const uint8_t *buf, size_t len)
{
	for (size_t off = 0; off < len; off += 32) {
		char line[80];
		size_t n = len - off < 32 ? len - off : 32;

		for (size_t i = 0; i < n; i++)
			snprintf(line + 2 * i, 3, "%02x", buf[off + i]);
		printf("SPE-BUF %s\n", line);
	}
}

/* End of the run, on the reporting pCPU: its buffer (the configurations using this run one
 * pCPU) drained with PSB CSYNC, DSB (SPE 3.6), then judged. */
void spe_outside_report(void)
{
	const uint8_t *buf = host_buf[this_pcpu()->id];
	uint64_t per_vm[MAX_VMS] = { 0 }, bad = 0, len;
	bool ok, each = true;

	if (!spe_outside_wanted())
		return;
	psb_csync();
	dsb(nsh);
	isb();
	len = spe_read(PMBPTR_EL1) - (uint64_t)(uintptr_t)buf;
	if (len > HOST_BUF_SIZE)
		len = 0;
	ok = attribute(buf, len, per_vm, &bad);
	for (unsigned int i = 0; i < hyp.nr_vms; i++) {
		const struct vm *vm = &hyp.vms[i];
		bool outside = vm->cfg.spe && vm->cfg.spe_buffer == VPERF_SPE_BUF_EL2;

		hyp_log("host SPE buffer: vm%u (%s) %lu records", i,
			outside ? "profiled from outside" : "not profiled", per_vm[i]);
		each &= !outside || per_vm[i] > 0;
	}
	printf("RESULT host spe-outside-attribution %s %lu bytes%s, %lu records not of an outside "
	       "VM at EL0/EL1%s\n",
	       ok && each && len ? "PASS" : "FAIL", len,
	       host_full[this_pcpu()->id] ? " (full)" : "", bad,
	       each ? "" : ", an outside VM without records");
	dump(buf, len);
}
