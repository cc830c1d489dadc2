// SPDX-License-Identifier: MIT
/*
 * The reference hypervisor's side of vperf's vSPE (include/vperf/hyp.h): the guest's virtual
 * address to IPA translation its Profiling Buffer pointers need, the stage 2 mappings vperf asks
 * for, the physical PMBIRQ, and the lazily mapped stage 2 that makes buffer faults really happen
 * on QEMU (mm.c). The SPE supplement (Arm DDI 0586A) is cited as "SPE 3.4" etc., the Arm ARM as
 * Arm DDI 0487 K.a.
 */
#include "hyp.h"

#include <xen/xen.h>

#define DESC_VALID BIT(0)
#define DESC_TABLE BIT(1)  /* a table (levels 0-2) or a page (level 3) */
#define DESC_AP2   BIT(7)  /* AP[2]: read-only at every EL */
#define DESC_DBM   BIT(51) /* dirty bit modifier: writable-clean with TCR_EL1.HD */
#define DESC_APT1  BIT(62) /* APTable[1]: no write below this table */
#define DESC_OA	   0x0000fffffffff000ull
#define TTBR_BADDR 0x0000fffffffffffeull /* BADDR, CnP (bit 0) cleared */
#define PMBSR_S	   BIT(17)

static uint64_t scrub_ticks, pmbirqs, pmbirq_host;
/* make bench: EL2 instructions in vperf's PMBIRQ, a guest's buffer event and (s2) a buffer stage
 * 2 fault recovered (the stage2_map and guest_va_to_ipa ops in it) */
static uint64_t bench_irq_sum, bench_irq_n, bench_s2_sum, bench_s2_n;

/* A guest translation table at ipa, read through the hypervisor's own mapping of the VM's RAM
 * (never through stage 2, which may be unmapped: lazy VMs). NULL when ipa is not its RAM. */
static const volatile uint64_t *guest_table(const struct vm *vm, uint64_t ipa)
{
	uint64_t off = ipa - GUEST_RAM0_BASE;

	if (ipa < GUEST_RAM0_BASE || off >= vm->cfg.mem || (ipa & 7))
		return NULL;
	return (const volatile uint64_t *)(uintptr_t)(vm->ram_pa + off);
}

/* The translation regime's half for va (Arm DDI 0487 K.a D8.1, VMSAv8-64): bit 55 selects TTBR1
 * (T1SZ, TG1, EPD1) or TTBR0; only the 4 KiB granule is walked (Linux's arm64 default, the
 * kernel the tests boot). Returns the first level, 0 when the walk is not one this walker does. */
static int walk_start(uint64_t va, uint64_t *table, unsigned int *va_bits)
{
	uint64_t tcr = read_sysreg(tcr_el1);
	bool upper = (va >> 55) & 1;
	unsigned int tsz = upper ? FIELD(tcr, 21, 16) : FIELD(tcr, 5, 0);
	bool four_k = upper ? FIELD(tcr, 31, 30) == 2 : FIELD(tcr, 15, 14) == 0;
	bool epd = upper ? (tcr & BIT(23)) : (tcr & BIT(7));

	*va_bits = 64 - tsz;
	if (epd || !four_k || *va_bits < 25 || *va_bits > 48)
		return -1;
	*table = (upper ? read_sysreg(ttbr1_el1) : read_sysreg(ttbr0_el1)) & TTBR_BADDR;
	/* 9 bits per level above the 12-bit page offset: 48 bits start at level 0, 39 at 1 */
	return 4 - (int)((*va_bits - 4) / 9);
}

/*
 * The ops contract's guest_va_to_ipa: the IPA the vCPU's stage 1 (EL1&0) gives va for a
 * privileged write, as AT S1E1W would, but walked in software: with a lazy stage 2 the guest's
 * own tables may be unmapped at stage 2, where AT would report a stage 2 fault on the walk and
 * no IPA. The vCPU is the one loaded on this pCPU (its EL1 registers are live). The Profiling
 * Buffer ignores PAN (SPE 3.5.3); a writable-clean page (DBM with AP[2]) is writable.
 *
 * Every table the walk reads is mapped at stage 2 on the way: the Profiling Buffer's own walk
 * of them faults at stage 2 like its write does, and PMBSR_EL1 reports both the same way (EC
 * stage 2 Data Abort, PMBPTR_EL1 the buffer's address: no IPA, no sign of which it was). Mapping
 * only the page vperf asks for would leave the buffer faulting on its walk, recovered again
 * and again until the guest itself touched the table (measured: spe_report's walk count).
 */
int spe_guest_va_to_ipa(void *hv_vcpu, uint64_t va, uint64_t *ipa)
{
	struct vm *vm = ((struct vcpu *)hv_vcpu)->vm;
	uint64_t table, desc;
	unsigned int va_bits;
	bool no_write = false;
	int lvl;

	if (!(read_sysreg(sctlr_el1) & 1)) { /* stage 1 off: VA = IPA */
		*ipa = va;
		return VPERF_OK;
	}
	lvl = walk_start(va, &table, &va_bits);
	if (lvl < 0)
		return VPERF_EINVAL;
	for (; lvl <= 3; lvl++) {
		unsigned int shift = 12 + 9 * (3 - (unsigned int)lvl);
		unsigned int width = va_bits - shift < 9 ? va_bits - shift : 9;
		const volatile uint64_t *t = guest_table(vm, table);
		bool now;

		if (!t)
			return VPERF_EINVAL;
		if (vm->cfg.s2_lazy && stage2_map_ram(vm, table, &now))
			vm->s2_walk_maps += now;
		desc = t[(va >> shift) & ((1ull << width) - 1)];
		if (!(desc & DESC_VALID) || (lvl == 3 && !(desc & DESC_TABLE)))
			return VPERF_EINVAL;
		if (lvl < 3 && (desc & DESC_TABLE)) {
			no_write |= (desc & DESC_APT1) != 0;
			table = desc & DESC_OA;
			continue;
		}
		if (lvl == 0 || no_write || ((desc & DESC_AP2) && !(desc & DESC_DBM)))
			return VPERF_EINVAL; /* no block at level 0 with 4 KiB; read-only */
		*ipa = (desc & DESC_OA & ~((1ull << shift) - 1)) | (va & ((1ull << shift) - 1));
		return VPERF_OK;
	}
	return VPERF_EINVAL;
}

/* vmI.spe=1 (vperf's default buffer policy), trapped (E2PB 0b10), untrapped (0b11) or
 * outside (0b00: the hypervisor samples the VM into its own buffer; docs/vspe.md); vmI.spe_pa=1
 * and vmI.spe_pct=1 grant physical addresses and physical time in its records. v follows
 * "spe". */
void spe_parse(struct vm_config *c, const char *v)
{
	if (!strncmp(v, "_pa=", 4))
		c->spe_pa = v[4] == '1';
	else if (!strncmp(v, "_pct=", 5))
		c->spe_pct = v[5] == '1';
	if (*v++ != '=')
		return;
	c->spe = *v != '0';
	c->spe_buffer = !strncmp(v, "trapped", 7)     ? VPERF_SPE_BUF_EL1_TRAPPED
			: !strncmp(v, "untrapped", 9) ? VPERF_SPE_BUF_EL1
			: !strncmp(v, "outside", 7)   ? VPERF_SPE_BUF_EL2
						      : VPERF_SPE_BUF_DEFAULT;
}

/* The ops contract's stage2_map: [ipa, ipa + size) of the VM's RAM mapped (4 KiB pages). */
int spe_stage2_map(void *hv_vm, uint64_t ipa, uint64_t size)
{
	struct vm *vm = hv_vm;

	if (hyp.mutant == MUT_NO_S2MAP)
		return VPERF_EINVAL;
	for (uint64_t a = ipa & ~0xfffull; a < ipa + size; a += 0x1000) {
		bool now;

		if (!stage2_map_ram(vm, a, &now))
			return VPERF_EINVAL;
		vm->s2_spe_maps += now;
	}
	return VPERF_OK;
}

/* A stage 2 abort of the guest's own access (instruction fetch, data, or its stage 1 walk:
 * HPFAR_EL2 names the IPA each time) on RAM of a lazy VM: map it and let the access run again.
 * False when ipa is not RAM (the caller emulates the device there). */
bool s2_lazy_fault(struct vcpu *v, uint64_t ipa)
{
	bool now;

	if (!v->vm->cfg.s2_lazy || !stage2_map_ram(v->vm, ipa, &now))
		return false;
	v->vm->s2_cpu_maps += now;
	return true;
}

/* Each slice tick: with s2_scrub=N, every Nth takes the lazy VMs' RAM away. */
void s2_tick(void)
{
	if (!hyp.s2_scrub || ++scrub_ticks % hyp.s2_scrub)
		return;
	for (unsigned int i = 0; i < hyp.nr_vms; i++)
		if (hyp.vms[i].running && hyp.vms[i].cfg.s2_lazy)
			hyp.vms[i].s2_unmapped += stage2_unmap_ram(&hyp.vms[i]);
}

/* PMBIRQ (PPI 21): the loaded guest's buffer event is vperf's (a stage 2 fault it recovers
 * through the ops above, or the guest's own event, moved to its virtual PMBSR_EL1 and its virtual
 * PPI); else the hypervisor's own buffer's (spe_outside.c). Otherwise a stale event is cleared so
 * that the level drops (SPE 3.5). */
void spe_pmbirq(void)
{
	struct vcpu *cur = this_pcpu()->current;
	uint64_t fixed = cur ? vperf_vm_stats(&cur->vm->vperf)->spe_s2_fixed : 0;
	uint64_t t0 = hyp.bench ? pmu_host_el2_insns() : 0;
	enum vperf_spe_irq r = vperf_handle_spe_irq(&this_pcpu()->vperf);

	if (hyp.bench && r == VPERF_SPE_IRQ_GUEST &&
	    cur) { /* the loaded guest's buffer event, taken */
		uint64_t n = pmu_host_el2_insns() - t0;

		if (vperf_vm_stats(&cur->vm->vperf)->spe_s2_fixed != fixed) {
			bench_s2_sum += n; /* a stage 2 fault vperf recovered */
			bench_s2_n++;
		} else {
			bench_irq_sum += n;
			bench_irq_n++;
		}
	}
	pmbirqs++;
	if (r || spe_outside_irq())
		return;
	if (read_sysreg(S3_0_C9_C10_3) & PMBSR_S) { /* PMBSR_EL1 */
		pmbirq_host++;
		write_sysreg(0, S3_0_C9_C10_3);
		isb();
	}
}

/* The end of the run: what each SPE VM's buffer did and what the lazy stage 2 recovered.
 * vmI-spe-s2-recovered passes when a lazy VM with SPE had buffer stage 2 faults and vperf
 * recovered them: the point of s2=lazy. */
void spe_report(void)
{
	for (unsigned int i = 0; i < hyp.nr_vms; i++) {
		const struct vm *vm = &hyp.vms[i];
		const struct vperf_stats *s = vperf_vm_stats(&vm->vperf);

		if (!vm->cfg.spe && !vm->cfg.s2_lazy)
			continue;
		hyp_log("vm%u SPE: events %lu (data lost %lu), stage 2 faults recovered %lu, bytes "
			"%lu, live puts %lu; stage 2 pages mapped for the guest %lu, for its "
			"buffer %lu, for its buffer's stage 1 walk %lu, taken away %lu",
			i, s->spe_events, s->spe_dl, s->spe_s2_fixed, s->spe_bytes,
			s->spe_live_puts, vm->s2_cpu_maps, vm->s2_spe_maps, vm->s2_walk_maps,
			vm->s2_unmapped);
		if (vm->cfg.spe && vm->cfg.s2_lazy)
			printf("RESULT host vm%u-spe-s2-recovered %s %lu buffer stage 2 faults "
			       "recovered, %lu pages mapped for the buffer, %lu for the guest\n",
			       i, s->spe_s2_fixed ? "PASS" : "FAIL", s->spe_s2_fixed,
			       vm->s2_spe_maps, vm->s2_cpu_maps);
	}
	if (pmbirqs)
		hyp_log("PMBIRQ %lu, of no guest %lu (host pCPU stray %lu)", pmbirqs, pmbirq_host,
			this_pcpu()->vperf.stats.spe_stray);
	if (bench_irq_n) /* the whole vperf_handle_spe_irq call, the measuring in it */
		printf("BENCH pmbirq-vperf %lu.%02lu insns (n=%lu)\n", bench_irq_sum / bench_irq_n,
		       (bench_irq_sum % bench_irq_n) * 100 / bench_irq_n, bench_irq_n);
	if (bench_s2_n)
		printf("BENCH pmbirq-s2-vperf %lu.%02lu insns (n=%lu)\n", bench_s2_sum / bench_s2_n,
		       (bench_s2_sum % bench_s2_n) * 100 / bench_s2_n, bench_s2_n);
}
