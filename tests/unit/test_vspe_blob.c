// SPDX-License-Identifier: MIT
/*
 * The vSPE state in the save/restore blob (version 2, virt/blob.c):
 * a guest sampling with SPE, saved while its buffer is live, restored into another VM whose
 * memory got a copy of the first one's, carries on writing where it stopped, for each buffer
 * policy; every value no guest could have left is refused with nothing applied; version 1 stays
 * the format of a VM without SPE; a pending buffer event comes back as a high virtual PMBIRQ.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "vspe_util.h"
#include <arch/sysreg.h>
#include <vperf/spe_rec.h>

#define W(i)	  (8 * (i))
#define W_POLICY  74
#define W_SPE(r)  (75 + (r))
#define W_SUM2	  85
#define V_PTR_OFF 0x400ull

static uint8_t blob[VPERF_VSPE_BLOB_SIZE];

static void store64(unsigned int word, uint64_t v)
{
	for (unsigned int i = 0; i < 8; i++)
		blob[W(word) + i] = (uint8_t)(v >> (8 * i));
}

static uint64_t load64(unsigned int word)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < 8; i++)
		v |= (uint64_t)blob[W(word) + i] << (8 * i);
	return v;
}

/* FNV-1a 64 of the words before the checksum, written out from the layout's description. */
static void reseal(unsigned int sum)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (unsigned int i = 0; i < W(sum); i++)
		h = (h ^ blob[i]) * 0x100000001b3ull;
	store64(sum, h);
}

/* Records of the guest's loop in VM 0 (before the save) and VM 1 (after), all decodable. */
static void count_records(const struct lx_spe *lx, unsigned int n[2])
{
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;

	n[0] = n[1] = 0;
	vperf_spe_iter_init(&it, lx->data, lx->len);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		uint64_t pc = rec.addr[VPERF_SPE_ADDR_PC].addr;

		assert_true(pc == V_LOOP_PC(0) || pc == V_LOOP_PC(1));
		n[pc == V_LOOP_PC(1)]++;
	}
	assert_int_equal(it.nerrors, 0);
}

/*
 * Save with the buffer live and records sitting unread in it, copy VM 0's buffer memory to VM 1
 * (what a migration does with guest RAM), restore into VM 1, whose stage 2 maps pages only when
 * asked (the restore's prefault at the load, or a fault), and keep sampling: the guest's session holds every record, in order, the ones
 * of before the save and the ones of after, and it saw no event it did not cause.
 */
static void round_trip(enum vperf_spe_buffer policy)
{
	struct lx_spe *lx = calloc(1, sizeof(*lx));
	uint8_t mem[V_BUF_SIZE];
	struct hv_vcpu *a, *b;
	unsigned int n[2];

	assert_non_null(lx);
	vs_init(3, 0, 5);
	assert_int_equal(vs_vm(0, policy, true), VPERF_OK);
	assert_int_equal(vs_vm(1, policy, false), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	lx_probe();
	*lx = (struct lx_spe){ .vm = 0, .size = V_BUF_SIZE };
	lx_start(lx);
	lx_run(lx, a, 2000);
	hv_leave(0); /* the put drains the buffer: the records are in VM 0's memory */
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_VSPE_BLOB_SIZE);
	assert_int_equal(load64(W_POLICY), policy);
	sim_mem_read(V_BUF_PA(0), mem, sizeof(mem));
	assert_true(sim_mem_write(V_BUF_PA(1), mem, sizeof(mem)));
	b = hv_vcpu(1, 1);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
	hv_enter(b, 1);
	assert_false(b->spe_irq_level);
	lx->vm = 1;
	lx_run(lx, b, 20000);
	lx_stop(lx);
	hv_leave(1);
	count_records(lx, n);
	assert_true(n[0] >= 5 && n[1] >= 5);
	assert_int_equal(lx->fatal + lx->truncated, 0);
	/* The restored buffer was mapped at the load (prefault), before its first write: no
	 * fault, and no sample dropped while one was served. */
	assert_int_equal(hv.vm[1].stats.spe_s2_fixed, 0);
	assert_int_equal(sim_spe_stats(1)->discarded, 0);
	assert_int_equal(hv.vm[1].stats.spe_events, lx->irqs);
	assert_int_equal(sim_error_count(), 0);
	free(lx);
}

static void test_round_trip_trapped(void **state)
{
	(void)state;
	round_trip(VPERF_SPE_BUF_EL1_TRAPPED);
}

static void test_round_trip_untrapped(void **state)
{
	(void)state;
	round_trip(VPERF_SPE_BUF_EL1);
}

/* A VM profiled from outside has no guest SPE state: the blob carries its policy and zeros,
 * restores into another such VM and into no VM whose guest owns a buffer. */
static void test_round_trip_outside(void **state)
{
	const struct vperf_vm_config out = { .spe = true, .spe_buffer = VPERF_SPE_BUF_EL2 };
	struct sim_pe_config cfg;
	struct hv_vcpu *a;

	(void)state;
	sim_spe_default_config(&cfg, 3);
	cfg.el2_trap_cycles = 0;
	hv_init_host_spe(&cfg, 2, true);
	assert_int_equal(vs_vm_cfg(0, &out, true), VPERF_OK);
	assert_int_equal(vs_vm_cfg(1, &out, true), VPERF_OK);
	assert_int_equal(vs_vm(2, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_VSPE_BLOB_SIZE);
	assert_int_equal(load64(W_POLICY), VPERF_SPE_BUF_EL2);
	for (unsigned int r = 0; r < VPERF_VSPE_NR_REGS; r++)
		assert_int_equal(load64(W_SPE(r)), 0);
	assert_int_equal(vperf_vcpu_restore(&hv_vcpu(1, 1)->v, blob, sizeof(blob)), VPERF_OK);
	assert_int_equal(vperf_vcpu_restore(&hv_vcpu(2, 2)->v, blob, sizeof(blob)), VPERF_EINVAL);
	store64(W_SPE(VPERF_VSPE_PMSCR), V_PMSCR_E1SPE); /* no register for it to be in */
	reseal(W_SUM2);
	assert_int_equal(vperf_vcpu_restore(&hv_vcpu(1, 1)->v, blob, sizeof(blob)), VPERF_EINVAL);
}

/* A saved, correctly summed blob of a guest with its buffer enabled at V_BUF_VA + V_PTR_OFF, on
 * pCPUs with ID_AA64MMFR0_EL1.ECV = ecv. */
static struct hv_vcpu *saved_enabled_ecv(uint8_t pmsver, unsigned int align, uint8_t ecv)
{
	struct hv_vcpu *a;

	vs_init_ecv(pmsver, align, 1, ecv);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(vs_vm(2, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMBPTR_EL1, V_BUF_VA + V_PTR_OFF);
	guest_write(PMBLIMITR_EL1, (V_BUF_VA + V_BUF_SIZE) | V_PMBLIMITR_E);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_VSPE_BLOB_SIZE);
	return hv_vcpu(1, 1);
}

static struct hv_vcpu *saved_enabled(uint8_t pmsver, unsigned int align)
{
	return saved_enabled_ecv(pmsver, align, 0);
}

static void expect_rejected(struct hv_vcpu *b, size_t len)
{
	struct vperf_vspe spe = b->v.spe;
	struct vperf_vpmu pmu = b->v.pmu;

	assert_int_equal(vperf_vcpu_restore(&b->v, blob, len), VPERF_EINVAL);
	assert_memory_equal(&spe, &b->v.spe, sizeof(spe));
	assert_memory_equal(&pmu, &b->v.pmu, sizeof(pmu));
}

struct bad_field {
	unsigned int word;
	uint64_t value;
	const char *why;
};

#define LIM (V_BUF_VA + V_BUF_SIZE)

/* Values no guest could have left, on a PE with SPEv1p2, PMBIDR_EL1.Align = 3, MaxSize 64. */
static const struct bad_field bad_fields[] = {
	{ 1, 1ull | 2ull << 32, "version 1 framing for a VM with SPE" },
	{ 1, 3ull | 2ull << 32, "version 3" },
	{ 2, VPERF_VPMU_BLOB_SIZE, "size of version 1" },
	{ W_POLICY, VPERF_SPE_BUF_EL1, "another buffer policy" },
	{ W_POLICY, VPERF_SPE_BUF_DEFAULT, "the unresolved default" },
	{ W_POLICY, 4, "no policy" },
	{ W_SPE(VPERF_VSPE_PMSCR), 1ull << 2, "PMSCR_EL1 RES0 bit 2" },
	{ W_SPE(VPERF_VSPE_PMSCR), 1ull << 8, "PMSCR_EL1 RES0 bit 8" },
	{ W_SPE(VPERF_VSPE_PMSIRR), 1ull << 1, "PMSIRR_EL1 RES0 bit 1" },
	{ W_SPE(VPERF_VSPE_PMSIRR), 1ull << 32, "PMSIRR_EL1 RES0 bit 32" },
	{ W_SPE(VPERF_VSPE_PMSICR), 1ull << 33, "PMSICR_EL1 RES0 bit 33" },
	{ W_SPE(VPERF_VSPE_PMSFCR), 1ull << 4, "PMSFCR_EL1 RES0 bit 4" },
	{ W_SPE(VPERF_VSPE_PMSEVFR), 1ull, "PMSEVFR_EL1 RES0 bit 0" },
	{ W_SPE(VPERF_VSPE_PMSNEVFR), 1ull << 2, "PMSNEVFR_EL1 RES0 bit 2" },
	{ W_SPE(VPERF_VSPE_PMSLATFR), 1ull << 16, "PMSLATFR_EL1 RES0 bit 16" },
	{ W_SPE(VPERF_VSPE_PMBLIMITR), LIM | V_PMBLIMITR_E | 1ull << 3, "PMBLIMITR RES0 bit 3" },
	{ W_SPE(VPERF_VSPE_PMBSR), 1ull << 20, "PMBSR_EL1 RES0 bit 20" },
	{ W_SPE(VPERF_VSPE_PMBSR), 1ull << 40, "PMBSR_EL1 RES0 bit 40" },
	{ W_SPE(VPERF_VSPE_PMBPTR), V_BUF_VA + 4, "enabled, pointer not aligned" },
	{ W_SPE(VPERF_VSPE_PMBPTR), LIM + 64, "enabled, pointer beyond the limit" },
	{ W_SPE(VPERF_VSPE_PMBPTR), LIM - 32, "enabled, no room for a record" },
	{ W_SPE(VPERF_VSPE_PMBPTR), V_BUF_VA & ~(0xffull << 56), "enabled, another tag" },
	{ W_SPE(VPERF_VSPE_PMBLIMITR), V_PMBLIMITR_E, "enabled, limit 0" },
	{ 73, 2, "unknown vPMU flag" },
};

static void test_bad_values_rejected(void **state)
{
	uint8_t good[VPERF_VSPE_BLOB_SIZE];
	struct hv_vcpu *b;

	(void)state;
	b = saved_enabled(3, 3);
	memcpy(good, blob, sizeof(good));
	for (size_t i = 0; i < VPERF_ARRAY_SIZE(bad_fields); i++) {
		memcpy(blob, good, sizeof(blob));
		store64(bad_fields[i].word, bad_fields[i].value);
		reseal(W_SUM2);
		if (vperf_vcpu_restore(&b->v, blob, sizeof(blob)) != VPERF_EINVAL)
			fail_msg("accepted: %s", bad_fields[i].why);
		expect_rejected(b, sizeof(blob));
	}
	/* Another policy's VM (VM 2 is untrapped) takes none of it. */
	memcpy(blob, good, sizeof(blob));
	expect_rejected(hv_vcpu(2, 2), sizeof(blob));
	/* The edits alone were refused: the resealed original is accepted, and so is a buffer
	 * that breaks the rules while its event is pending (PMBSR_EL1.S: it is not enabled). */
	reseal(W_SUM2);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
	store64(W_SPE(VPERF_VSPE_PMBPTR), V_BUF_VA + 4);
	store64(W_SPE(VPERF_VSPE_PMBSR), V_PMBSR_S | V_PMBSR_EC(0x24) | 0x21);
	reseal(W_SUM2);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
}

/* Before SPEv1p2 the VM has no PMSNEVFR_EL1 (UNDEF), and without FEAT_ECV no PCT[1]: a blob
 * cannot give either. */
static void test_older_spe(void **state)
{
	uint8_t good[VPERF_VSPE_BLOB_SIZE];
	struct hv_vcpu *b;

	(void)state;
	b = saved_enabled(1, 0);
	memcpy(good, blob, sizeof(good));
	store64(W_SPE(VPERF_VSPE_PMSNEVFR), 1ull << 1);
	reseal(W_SUM2);
	expect_rejected(b, sizeof(blob));
	memcpy(blob, good, sizeof(blob));
	store64(W_SPE(VPERF_VSPE_PMSCR), 1ull << 7);
	reseal(W_SUM2);
	expect_rejected(b, sizeof(blob));
	memcpy(blob, good, sizeof(blob));
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
}

/* PMSCR_EL1.PCT[1] follows FEAT_ECV, not the SPE version (Arm DDI 0487 D24.2.88,
 * vspe/regs.c): a blob cannot give it to an SPEv1p2 VM on pCPUs without FEAT_ECV, and gives it
 * to an SPEv1 VM on pCPUs with it. Breaks: the old rule (PCT[1] from SPEv1p2) takes the first
 * and refuses the second. */
static void test_pct1_follows_ecv(void **state)
{
	uint8_t good[VPERF_VSPE_BLOB_SIZE];
	struct hv_vcpu *b;

	(void)state;
	b = saved_enabled_ecv(3, 0, 0);
	memcpy(good, blob, sizeof(good));
	store64(W_SPE(VPERF_VSPE_PMSCR), V_PMSCR_E1SPE | 3ull << 6);
	reseal(W_SUM2);
	expect_rejected(b, sizeof(blob));
	memcpy(blob, good, sizeof(blob));
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);

	b = saved_enabled_ecv(1, 0, 1);
	store64(W_SPE(VPERF_VSPE_PMSCR), V_PMSCR_E1SPE | 3ull << 6);
	reseal(W_SUM2);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
	assert_int_equal(b->v.spe.reg[VPERF_VSPE_PMSCR], V_PMSCR_E1SPE | 3ull << 6);
}

/* Every single-byte corruption is caught, and nothing is applied. */
static void test_every_byte_flip_rejected(void **state)
{
	uint8_t good[VPERF_VSPE_BLOB_SIZE];
	struct hv_vcpu *b;

	(void)state;
	b = saved_enabled(3, 0);
	memcpy(good, blob, sizeof(good));
	for (size_t i = 0; i < sizeof(good); i++) {
		memcpy(blob, good, sizeof(blob));
		blob[i] ^= (uint8_t)(1u << (i % 8));
		expect_rejected(b, sizeof(blob));
	}
	memcpy(blob, good, sizeof(blob));
	expect_rejected(b, sizeof(blob) - 8);
	expect_rejected(b, VPERF_VPMU_BLOB_SIZE);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
}

/* Version 1 stays the blob of a VM without SPE, both ways; a VM with SPE takes only version 2,
 * and a short buffer is refused. */
static void test_versions(void **state)
{
	struct vperf_vm_config plain = { .pmu_mode = VPERF_PMU_SELF, .nr_counters = 2 };
	uint8_t v1[VPERF_VPMU_BLOB_SIZE];
	struct hv_vcpu *b, *p;

	(void)state;
	b = saved_enabled(3, 0);
	assert_int_equal(vperf_vcpu_save(&b->v, blob, VPERF_VSPE_BLOB_SIZE - 1), VPERF_ENOSPC);
	vperf_pmu_filter_allow_all(&plain.filter);
	assert_int_equal(hv_vm(3, &plain), VPERF_OK);
	p = hv_vcpu(3, 3);
	assert_int_equal(vperf_vcpu_save(&p->v, v1, sizeof(v1)), VPERF_VPMU_BLOB_SIZE);
	assert_int_equal(v1[W(1)], 1);
	assert_int_equal(vperf_vcpu_restore(&p->v, v1, sizeof(v1)), VPERF_OK);
	/* version 1 into a VM with SPE: it would lose the vSPE state */
	memcpy(blob, v1, sizeof(v1));
	expect_rejected(b, sizeof(v1));
	/* version 2 (VM 0's) into the VM without SPE */
	assert_int_equal(vperf_vcpu_save(&hv_vcpu(0, 0)->v, blob, sizeof(blob)),
			 VPERF_VSPE_BLOB_SIZE);
	assert_int_equal(vperf_vcpu_restore(&p->v, blob, sizeof(blob)), VPERF_EINVAL);
	assert_int_equal(vperf_vcpu_restore(&p->v, blob, VPERF_VPMU_BLOB_SIZE), VPERF_EINVAL);
}

/* A buffer event the guest has not served (virtual PMBSR_EL1.S) is saved with the state and
 * raises the virtual PMBIRQ at the first load after the restore, whatever the destination's line
 * was; a state with nothing pending lowers a high line. The guest's clear lowers it. */
static void test_restore_line(void **state)
{
	uint8_t quiet[VPERF_VSPE_BLOB_SIZE];
	struct hv_vcpu *a, *b;

	(void)state;
	vs_init(3, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	assert_int_equal(vs_vm(1, VPERF_SPE_BUF_EL1_TRAPPED, true), VPERF_OK);
	a = hv_vcpu(0, 0);
	b = hv_vcpu(1, 1);
	assert_int_equal(vperf_vcpu_save(&b->v, quiet, sizeof(quiet)), VPERF_VSPE_BLOB_SIZE);
	hv_enter(a, 0);
	guest_write(PMBPTR_EL1, V_BUF_VA + V_BUF_SIZE - 32); /* no room: buffer full */
	guest_write(PMBLIMITR_EL1, (V_BUF_VA + V_BUF_SIZE) | V_PMBLIMITR_E);
	assert_true(a->spe_irq_level);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_VSPE_BLOB_SIZE);
	assert_int_equal(load64(W_SPE(VPERF_VSPE_PMBSR)), V_PMBSR_S | 1);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
	assert_false(b->spe_irq_level); /* pushed at the load, not before */
	hv_enter(b, 1);
	assert_true(b->spe_irq_level);
	assert_int_equal(guest_read(PMBSR_EL1), V_PMBSR_S | 1);
	hv_leave(1);
	assert_int_equal(vperf_vcpu_restore(&b->v, quiet, sizeof(quiet)), VPERF_OK);
	hv_enter(b, 1);
	assert_false(b->spe_irq_level);
	hv_leave(1);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
	hv_enter(b, 1);
	assert_true(b->spe_irq_level);
	guest_write(PMBSR_EL1, 0); /* still no room in the enabled buffer: a new event */
	assert_true(b->spe_irq_level);
	assert_int_equal(b->spe_irq_raises, 2); /* it never dropped: the event came in the trap */
	guest_write(PMBLIMITR_EL1, 0);
	guest_write(PMBSR_EL1, 0);
	assert_false(b->spe_irq_level);
	hv_leave(1);
	assert_int_equal(sim_error_count(), 0);
}

/* Untrapped, the guest reads PMBSR_EL1 from the hardware once its buffer is live: the value it
 * wrote (here MSS, with S = 0) is there, whether the buffer went live at its enable or at a load
 * (found while writing the blob harness's read-back check: vperf used to write 0 to the
 * hardware's). */
static void test_untrapped_pmbsr_value(void **state)
{
	struct hv_vcpu *vc;

	(void)state;
	vs_init(3, 0, 1);
	assert_int_equal(vs_vm(0, VPERF_SPE_BUF_EL1, true), VPERF_OK);
	vc = hv_vcpu(0, 0);
	hv_enter(vc, 0);
	guest_write(PMBSR_EL1, 0x5);
	guest_write(PMBPTR_EL1, V_BUF_VA);
	guest_write(PMBLIMITR_EL1, (V_BUF_VA + V_BUF_SIZE) | V_PMBLIMITR_E);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	assert_int_equal(guest_read(PMBSR_EL1), 0x5);
	hv_leave(0);
	assert_int_equal(vc->v.spe.reg[VPERF_VSPE_PMBSR], 0x5);
	hv_enter(vc, 0);
	assert_int_equal(V_MDCR_E2PB(sim_peek(0, VPERF_ENC_MDCR_EL2)), 3);
	assert_int_equal(guest_read(PMBSR_EL1), 0x5);
	hv_leave(0);
	assert_int_equal(sim_error_count(), 0);
}

/* A VM with SPE and its PMU OFF has no vPMU state, but its vSPE state travels: version 2 with
 * the vPMU words zero, its buffer back where it was; a blob that claims vPMU state in any of
 * those words is refused. */
static void test_pmu_off(void **state)
{
	const struct vperf_vm_config spe = { .spe = true, .spe_buffer = VPERF_SPE_BUF_EL1_TRAPPED };
	const uint64_t lim = (V_BUF_VA + V_BUF_SIZE) | V_PMBLIMITR_E;
	uint8_t good[VPERF_VSPE_BLOB_SIZE];
	struct hv_vcpu *a, *b;

	(void)state;
	vs_init(3, 0, 1);
	assert_int_equal(vs_vm_mode(0, &spe, true, VPERF_PMU_OFF), VPERF_OK);
	assert_int_equal(vs_vm_mode(1, &spe, true, VPERF_PMU_OFF), VPERF_OK);
	a = hv_vcpu(0, 0);
	hv_enter(a, 0);
	guest_write(PMBPTR_EL1, V_BUF_VA + V_PTR_OFF);
	guest_write(PMBLIMITR_EL1, lim);
	hv_leave(0);
	assert_int_equal(vperf_vcpu_save(&a->v, blob, sizeof(blob)), VPERF_VSPE_BLOB_SIZE);
	for (unsigned int i = 3; i < W_POLICY; i++)
		assert_int_equal(load64(i), 0);
	b = hv_vcpu(1, 1);
	assert_int_equal(vperf_vcpu_restore(&b->v, blob, sizeof(blob)), VPERF_OK);
	hv_enter(b, 1);
	assert_int_equal(guest_read(PMBPTR_EL1), V_BUF_VA + V_PTR_OFF);
	assert_int_equal(guest_read(PMBLIMITR_EL1), lim);
	hv_leave(1);
	memcpy(good, blob, sizeof(good));
	/* vPMU state for a VM that has no vPMU, in any of its words (3-73: the PMU registers,
	 * the types, the counters, the flags), is refused: PMCR_EL0.E, a type, a count, ACTIVE. */
	for (unsigned int i = 3; i <= 73; i++) {
		memcpy(blob, good, sizeof(blob));
		store64(i, 1);
		reseal(W_SUM2);
		expect_rejected(b, sizeof(blob));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_trapped),
		cmocka_unit_test(test_round_trip_untrapped),
		cmocka_unit_test(test_round_trip_outside),
		cmocka_unit_test(test_pmu_off),
		cmocka_unit_test(test_bad_values_rejected),
		cmocka_unit_test(test_older_spe),
		cmocka_unit_test(test_pct1_follows_ecv),
		cmocka_unit_test(test_every_byte_flip_rejected),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_restore_line),
		cmocka_unit_test(test_untrapped_pmbsr_value),
	};

	return cmocka_run_group_tests_name("vspe_blob", tests, NULL, NULL);
}
