// SPDX-License-Identifier: MIT
/* The guest device-tree nodes, read back with libfdt. Including <libfdt.h> beside vperf's own
 * declarations (virt/fdt_api.h) makes any mismatch with the real libfdt a compile error. */
#include <libfdt.h>
#include <string.h>

#include "cmocka_wrap.h"

#include <vperf/vperf.h>

#include "fake_hyp.h"
#include "fdt_api.h"

static uint8_t tree[4096];

static struct vperf_vm vm_with(enum vperf_pmu_mode mode, uint32_t virq)
{
	struct vperf_vm vm;

	memset(&vm, 0, sizeof(vm));
	vm.cfg.pmu_mode = mode;
	vm.cfg.pmu_virq = virq;
	return vm;
}

static void test_pmu_node(void **state)
{
	struct vperf_vm vm = vm_with(VPERF_PMU_SELF, 0);
	const fdt32_t *irq;
	const char *compat;
	int node, len;

	(void)state;
	assert_int_equal(fdt_create_empty_tree(tree, sizeof(tree)), 0);
	assert_int_equal(vperf_fdt_add_nodes(tree, &vm), VPERF_OK);
	node = fdt_path_offset(tree, "/pmu");
	assert_true(node >= 0);
	compat = fdt_getprop(tree, node, "compatible", &len);
	assert_string_equal(compat, "arm,armv8-pmuv3");
	irq = fdt_getprop(tree, node, "interrupts", &len);
	assert_int_equal(len, 12);
	assert_int_equal(fdt32_to_cpu(irq[0]), 1); /* PPI */
	assert_int_equal(fdt32_to_cpu(irq[1]), 7); /* INTID 23 (CONFIG_VPERF_VPMU_PPI) - 16 */
	assert_int_equal(fdt32_to_cpu(irq[2]), 4); /* level-high */
}

static void test_configured_ppi(void **state)
{
	struct vperf_vm vm = vm_with(VPERF_PMU_HV, 30);
	const fdt32_t *irq;
	int len;

	(void)state;
	assert_int_equal(fdt_create_empty_tree(tree, sizeof(tree)), 0);
	assert_int_equal(vperf_fdt_add_nodes(tree, &vm), VPERF_OK);
	irq = fdt_getprop(tree, fdt_path_offset(tree, "/pmu"), "interrupts", &len);
	assert_int_equal(fdt32_to_cpu(irq[1]), 14);
}

/* No PMU, no node: the guest's driver finds nothing to probe. */
static void test_off_vm_no_node(void **state)
{
	struct vperf_vm vm = vm_with(VPERF_PMU_OFF, 0);

	(void)state;
	assert_int_equal(fdt_create_empty_tree(tree, sizeof(tree)), 0);
	assert_int_equal(vperf_fdt_add_nodes(tree, &vm), VPERF_OK);
	assert_true(fdt_path_offset(tree, "/pmu") < 0);
}

/* A VM with SPE gets the node arm_spe_pmu probes, on its PMBIRQ PPI (CONFIG_VPERF_VSPE_PPI 21, or
 * its own), level-high; without SPE there is none. */
static void test_spe_node(void **state)
{
	struct vperf_vm vm = vm_with(VPERF_PMU_OFF, 0);
	const fdt32_t *irq;
	int node, len;

	(void)state;
	assert_int_equal(fdt_create_empty_tree(tree, sizeof(tree)), 0);
	assert_int_equal(vperf_fdt_add_nodes(tree, &vm), VPERF_OK);
	assert_true(fdt_path_offset(tree, "/spe-pmu") < 0);
	vm.cfg.spe = true;
	assert_int_equal(vperf_fdt_add_nodes(tree, &vm), VPERF_OK);
	node = fdt_path_offset(tree, "/spe-pmu");
	assert_true(node >= 0);
	assert_string_equal(fdt_getprop(tree, node, "compatible", &len),
			    "arm,statistical-profiling-extension-v1");
	irq = fdt_getprop(tree, node, "interrupts", &len);
	assert_int_equal(len, 12);
	assert_int_equal(fdt32_to_cpu(irq[0]), 1);
	assert_int_equal(fdt32_to_cpu(irq[1]), 5); /* INTID 21 - 16 */
	assert_int_equal(fdt32_to_cpu(irq[2]), 4);
	assert_true(fdt_path_offset(tree, "/pmu") < 0);
	vm.cfg.spe_virq = 22;
	assert_int_equal(fdt_create_empty_tree(tree, sizeof(tree)), 0);
	assert_int_equal(vperf_fdt_add_nodes(tree, &vm), VPERF_OK);
	irq = fdt_getprop(tree, fdt_path_offset(tree, "/spe-pmu"), "interrupts", &len);
	assert_int_equal(fdt32_to_cpu(irq[1]), 6);
}

/* A full tree is reported so the hypervisor can grow it, and an existing node is an error. */
static void test_errors(void **state)
{
	struct vperf_vm vm = vm_with(VPERF_PMU_SELF, 0);

	(void)state;
	assert_int_equal(fdt_create_empty_tree(tree, 96), 0);
	assert_int_equal(vperf_fdt_add_nodes(tree, &vm), VPERF_ENOSPC);
	assert_int_equal(fdt_create_empty_tree(tree, sizeof(tree)), 0);
	assert_int_equal(vperf_fdt_add_nodes(tree, &vm), VPERF_OK);
	assert_int_equal(vperf_fdt_add_nodes(tree, &vm), VPERF_EINVAL);
	assert_int_equal(-FDT_ERR_NOSPACE, -VPERF_FDT_ERR_NOSPACE);
}

/* Bad input from outside: the documented protocol. Whatever point the buffer runs out at, the tree
 * is left as it was, and growing it and retrying gives one complete node. */
static void test_grow_and_retry(void **state)
{
	struct vperf_vm vm = vm_with(VPERF_PMU_SELF, 0);
	unsigned int enospc = 0;

	(void)state;
	for (int size = 64; size <= 256; size += 4) {
		int err, len;

		memset(tree, 0, sizeof(tree));
		if (fdt_create_empty_tree(tree, size))
			continue; /* too small for an empty tree */
		err = vperf_fdt_add_nodes(tree, &vm);
		if (err == VPERF_ENOSPC) {
			enospc++;
			assert_true(fdt_path_offset(tree, "/pmu") < 0);
			assert_int_equal(fdt_open_into(tree, tree, sizeof(tree)), 0);
			err = vperf_fdt_add_nodes(tree, &vm);
		}
		assert_int_equal(err, VPERF_OK);
		assert_non_null(
			fdt_getprop(tree, fdt_path_offset(tree, "/pmu"), "interrupts", &len));
		assert_int_equal(len, 12);
	}
	assert_true(enospc > 3); /* out of space at the node, at each property */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmu_node),       cmocka_unit_test(test_configured_ppi),
		cmocka_unit_test(test_off_vm_no_node), cmocka_unit_test(test_spe_node),
		cmocka_unit_test(test_errors),	       cmocka_unit_test(test_grow_and_retry),
	};

	return cmocka_run_group_tests_name("fdt", tests, NULL, NULL);
}
