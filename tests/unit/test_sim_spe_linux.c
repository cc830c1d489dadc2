// SPDX-License-Identifier: MIT
/*
 * A guest that programs SPE the way Linux's arm_spe_pmu driver does (probe PMSIDR/PMBIDR,
 * arm_spe_perf_aux_output_begin: PMBPTR/PMBLIMITR; arm_spe_pmu_start: PMSFCR, PMSEVFR,
 * PMSLATFR, PMSIRR, ISB, PMSICR, ISB, PMSCR_EL1 with E1SPE/E0SPE, TS, PA, PCT; stop:
 * arm_spe_pmu_disable_and_drain_local) over a load loop, under a hypervisor that gives it the
 * buffer (MDCR_EL2.E2PB = 0b11) and allows PA and physical time (PMSCR_EL2.PA, PCT). The buffer
 * is decoded with the codec's record iterator and compared with the loop: which operations are
 * sampled follows from SPE 3.1.2 (one in INTERVAL * 256 + 1), which are kept from the load filter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "sim_spe_util.h"
#include <vperf/spe_rec.h>

#define ITERS	   3000
#define LOOP_PC	   0x400100ull
#define DATA_VA	   0x7f0000000000ull
#define DATA_PA	   0x60000000ull
#define PERIOD	   257 /* PMSIRR_EL1.INTERVAL = 1 */
#define MAX_SAMPLE 64

/* Operation j (1-based) of the loop: a load every 3 ops, then "subs" and "b.ne". */
static struct sim_uop loop_op(unsigned int j)
{
	unsigned int it = (j - 1) / 3;
	struct sim_uop op = { .latency = 1, .issue_lat = 1 };

	switch ((j - 1) % 3) {
	case 0:
		op = t_load(LOOP_PC, DATA_VA + (it * 64) % 4096, it % 8 ? 4 : 120);
		op.paddr = DATA_PA + (it * 64) % 4096;
		op.flags = it % 8 ? 0 : SIM_UOP_L1D_REFILL;
		break;
	case 1:
		op.pc = LOOP_PC + 4;
		op.type = SIM_UOP_OTHER;
		break;
	default:
		op.pc = LOOP_PC + 8;
		op.vaddr = LOOP_PC;
		op.type = SIM_UOP_BRANCH;
		op.flags = SIM_UOP_COND | SIM_UOP_TAKEN;
		break;
	}
	return op;
}

static void guest_probe(void)
{
	uint64_t idr = guest_read(PMSIDR_EL1);

	/* arm_spe_pmu_dev_probe: FE/FT/FL, MaxSize, and a buffer this EL may own. */
	assert_int_equal(idr & 7, 7);
	assert_int_equal((idr >> 12) & 0xf, 6);
	assert_int_equal(guest_read(PMBIDR_EL1) & 0x10, 0);
}

static void guest_start(void)
{
	guest_write(PMBPTR_EL1, T_BUF_VA);
	guest_write(PMBLIMITR_EL1, (T_BUF_VA + T_BUF_SIZE) | T_PMBLIMITR_E);
	guest_write(PMSFCR_EL1, (1ull << 17) | 0x2); /* load_filter: LD, FT */
	guest_write(PMSEVFR_EL1, 0);
	guest_write(PMSLATFR_EL1, 0);
	guest_write(PMSIRR_EL1, T_INTERVAL_1);
	isb();
	guest_write(PMSICR_EL1, 0);
	isb();
	guest_write(PMSCR_EL1,
		    T_PMSCR_E0SPE | T_PMSCR_E1SPE | T_PMSCR_TS | T_PMSCR_PA | T_PMSCR_PCT);
	isb(); /* the exception return that starts the profiled code */
}

static void check_record(const struct vperf_spe_record *r, unsigned int j, uint64_t *last_ts)
{
	struct sim_uop op = loop_op(j);

	assert_true(r->have & VPERF_SPE_HAVE_ADDR(VPERF_SPE_ADDR_PC));
	assert_int_equal(r->addr[VPERF_SPE_ADDR_PC].addr, LOOP_PC);
	assert_int_equal(r->addr[VPERF_SPE_ADDR_PC].el, 1);
	assert_int_equal(r->addr[VPERF_SPE_ADDR_DATA_VA].addr, op.vaddr);
	assert_int_equal(r->addr[VPERF_SPE_ADDR_DATA_PA].addr, op.paddr);
	assert_int_equal(r->cnt[VPERF_SPE_CNT_TOTAL], op.latency);
	assert_int_equal(r->op.type, VPERF_SPE_OP_LDST_GP);
	assert_int_equal(r->op.flags & VPERF_SPE_OPF_ST, 0);
	assert_int_equal(!!(r->events & (1u << VPERF_SPE_EV_L1D_REFILL)),
			 !!(op.flags & SIM_UOP_L1D_REFILL));
	assert_true(r->have & VPERF_SPE_HAVE_TS);
	assert_true(r->timestamp > *last_ts);
	*last_ts = r->timestamp;
}

/* With VPERF_SPE_DUMP=FILE: the buffer goes to FILE and the expected samples, one
 * "pc va total-latency" line each, to FILE.expect, for the vperf-spe check (spe_linux_cli.sh). */
static void dump(const uint8_t *buf, size_t len, const unsigned int *expect, unsigned int n)
{
	const char *path = getenv("VPERF_SPE_DUMP");
	char exp_path[512];
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
	snprintf(exp_path, sizeof(exp_path), "%s.expect", path);
	f = fopen(exp_path, "w");
	assert_non_null(f);
	for (unsigned int i = 0; i < n; i++) {
		struct sim_uop op = loop_op(expect[i]);

		fprintf(f, "0x%llx 0x%llx %u\n", (unsigned long long)op.pc,
			(unsigned long long)op.vaddr, op.latency);
	}
	fclose(f);
}

static void test_linux_driver_load_loop(void **state)
{
	unsigned int expect[MAX_SAMPLE], nexp = 0;
	struct vperf_spe_record rec;
	struct vperf_spe_error err;
	struct vperf_spe_iter it;
	static uint8_t buf[T_BUF_SIZE];
	uint64_t end, last_ts = 0;
	unsigned int n = 0;

	(void)state;
	t_init(1, 1);
	write_sysreg(T_PMSCR_PA | T_PMSCR_PCT, PMSCR_EL2);
	isb();
	guest_probe();
	guest_start();
	for (unsigned int j = 1; j <= 3 * ITERS; j++) {
		struct sim_uop op = loop_op(j);

		guest_run(&op, 1);
		if (j % PERIOD == 0 && op.type == SIM_UOP_LOAD && nexp < MAX_SAMPLE)
			expect[nexp++] = j;
	}
	sim_guest_spe_disable_and_drain();
	end = guest_read(PMBPTR_EL1);
	assert_int_equal(guest_read(PMBSR_EL1), 0);
	assert_in_range(nexp, 10, MAX_SAMPLE - 1);
	sim_mem_read(T_BUF_PA, buf, end - T_BUF_VA);
	vperf_spe_iter_init(&it, buf, end - T_BUF_VA);
	while (vperf_spe_next_record(&it, &rec, &err) == VPERF_SPE_RECORD) {
		assert_true(n < nexp);
		check_record(&rec, expect[n++], &last_ts);
	}
	assert_int_equal(n, nexp);
	assert_int_equal(it.nerrors, 0);
	dump(buf, end - T_BUF_VA, expect, nexp);
	assert_int_equal(sim_spe_stats(0)->feed, 3 * ITERS / PERIOD);
	assert_int_equal(sim_error_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linux_driver_load_loop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
