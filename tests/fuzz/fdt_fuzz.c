// SPDX-License-Identifier: MIT
/*
 * Fuzz target for vperf_fdt_add_nodes: the hypervisor's guest tree (raw bytes from the input,
 * in a buffer as large as its header says, plus some room) and a VM policy. Checked:
 *  - no sanitizer report on any tree;
 *  - a tree that is not valid (fdt_check_full) or already has /pmu: VPERF_EINVAL, and the
 *    buffer is unchanged;
 *  - a valid tree: VPERF_EINVAL with its content untouched when libfdt cannot edit its layout in
 *    place, else VPERF_OK, or VPERF_ENOSPC with no /pmu left behind and then the documented
 *    protocol (grow the buffer with fdt_open_into, retry) succeeds; the result is a valid tree
 *    with every node and property of the input, and one /pmu node that is "arm,armv8-pmuv3" on
 *    the VM's PPI, level-high; an OFF VM's tree is left as it was.
 */
#include <libfdt.h>
#include <string.h>

#include <vperf/vperf.h>

#include "fuzz_input.h"

#define MAX_TREE 8192

static uint8_t buf[2 * MAX_TREE + 512], orig[MAX_TREE + 256];

/* A digest of every node (path depth, name) and property (name, value), in tree order. */
static uint64_t digest(const void *fdt, bool skip_pmu)
{
	uint64_t h = 0xcbf29ce484222325ull;
	int depth = 0;

	for (int node = 0; node >= 0; node = fdt_next_node(fdt, node, &depth)) {
		const char *name = fdt_get_name(fdt, node, NULL);
		int prop;

		if (skip_pmu && depth == 1 && name && !strcmp(name, "pmu"))
			continue;
		h = (h ^ (uint64_t)depth) * 0x100000001b3ull;
		for (const char *c = name; c && *c; c++)
			h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
		fdt_for_each_property_offset(prop, fdt, node)
		{
			const char *pname;
			int len;
			const uint8_t *v = fdt_getprop_by_offset(fdt, prop, &pname, &len);

			for (const char *c = pname; c && *c; c++)
				h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
			for (int i = 0; v && i < len; i++)
				h = (h ^ v[i]) * 0x100000001b3ull;
		}
	}
	return h;
}

static void check_pmu_node(const void *fdt, const struct vperf_vm *vm)
{
	int node = fdt_path_offset(fdt, "/pmu"), len;
	const fdt32_t *irq;

	FUZZ_CHECK(node >= 0);
	FUZZ_CHECK(fdt_node_check_compatible(fdt, node, "arm,armv8-pmuv3") == 0);
	irq = fdt_getprop(fdt, node, "interrupts", &len);
	FUZZ_CHECK(irq && len == 12);
	FUZZ_CHECK(fdt32_ld(irq) == 1 && fdt32_ld(irq + 2) == 4); /* unaligned: fdt32_ld */
	FUZZ_CHECK(fdt32_ld(irq + 1) + 16 == vperf_vm_pmu_virq(vm));
}

static void check_valid(size_t size, const struct vperf_vm *vm)
{
	bool had_pmu = fdt_path_offset(buf, "/pmu") >= 0;
	uint64_t before = digest(buf, true);
	int rc = vperf_fdt_add_nodes(buf, vm);

	if (vm->cfg.pmu_mode == VPERF_PMU_OFF) { /* no PMU: nothing to add */
		FUZZ_CHECK(rc == VPERF_OK && !memcmp(buf, orig, size));
		return;
	}
	if (had_pmu) {
		FUZZ_CHECK(rc == VPERF_EINVAL);
		FUZZ_CHECK(!memcmp(buf, orig, size));
		return;
	}
	/* A valid tree whose blocks libfdt cannot edit in place (out of order or overlapping:
	 * -FDT_ERR_BADLAYOUT, or older than version 17) is refused with its content untouched
	 * (libfdt's editing calls may first lower a version above 17 to 17 in the header). */
	if (rc == VPERF_EINVAL) {
		FUZZ_CHECK(digest(buf, false) == digest(orig, false));
		return;
	}
	FUZZ_CHECK(rc == VPERF_OK || rc == VPERF_ENOSPC);
	if (rc == VPERF_ENOSPC) {
		FUZZ_CHECK(fdt_path_offset(buf, "/pmu") < 0);
		FUZZ_CHECK(digest(buf, true) == before);
		FUZZ_CHECK(fdt_open_into(buf, buf, (int)sizeof(buf)) == 0);
		rc = vperf_fdt_add_nodes(buf, vm);
	}
	FUZZ_CHECK(rc == VPERF_OK);
	FUZZ_CHECK(fdt_check_full(buf, fdt_totalsize(buf)) == 0);
	FUZZ_CHECK(digest(buf, true) == before);
	check_pmu_node(buf, vm);
}

static uint64_t be32_at(const uint8_t *p)
{
	return (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3];
}

/* Every property of the structure block ends inside it. libfdt 1.6.1's fdt_check_full, the
 * validity oracle below, loops forever on a property length near 2^32: screen those out first
 * (in 64-bit arithmetic, where nothing wraps). */
static bool props_fit(const uint8_t *t, size_t size)
{
	uint64_t off = be32_at(t + 8), end = off + be32_at(t + 36);

	if (size < 40 || end > size)
		return false;
	while (off + 4 <= end) {
		uint64_t token = be32_at(t + off);

		off += 4;
		if (token == 1)
			while (off < end && t[off++])
				;
		if (token == 3 && off + 8 <= end)
			off += 8 + be32_at(t + off);
		else if (token == 3 || token == 9)
			return token == 9;
		off = (off + 3) & ~3ull;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct vperf_vm vm;
	uint8_t b = in_u8(&in), room = in_u8(&in);
	size_t bufsize;

	memset(&vm, 0, sizeof(vm));
	vm.cfg.pmu_mode = b & 1 ? VPERF_PMU_SELF : VPERF_PMU_OFF;
	vm.cfg.pmu_virq = b & 2 ? 16 + (b >> 4) : 0;
	if (in.n > MAX_TREE)
		return 0;
	/* The contract: fdt points at a buffer of at least the header's totalsize bytes. */
	bufsize = in.n >= 8 ? (size_t)in.p[4] << 24 | (size_t)in.p[5] << 16 | in.p[6] << 8 | in.p[7]
			    : 0; /* the header's totalsize */
	if (bufsize > MAX_TREE)
		return 0; /* a buffer this harness does not have */
	bufsize = (bufsize > in.n ? bufsize : in.n) + room;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, in.p, in.n);
	memcpy(orig, buf, bufsize);
	/* libfdt 1.6.1's fdt_check_full itself crashes on some trees older than version 17. */
	if (fdt_check_header(buf) == 0 && fdt_version(buf) >= 17 && props_fit(buf, bufsize) &&
	    fdt_check_full(buf, bufsize) == 0) {
		check_valid(bufsize, &vm);
		return 0;
	}
	/* Not a tree: refused, untouched. */
	FUZZ_CHECK(vm.cfg.pmu_mode == VPERF_PMU_OFF ||
		   vperf_fdt_add_nodes(buf, &vm) == VPERF_EINVAL);
	FUZZ_CHECK(!memcmp(buf, orig, bufsize));
	return 0;
}
