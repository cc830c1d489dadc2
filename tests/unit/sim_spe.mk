# Tests of the model's SPE family (arch/sim/spe/, arch/sim/mem/): cmocka programs sharing a
# small set-up file; they include the family's private header (arch/sim/spe/spe_internal.h) for the filter tables.
ifeq ($(ARCH),sim)
sim-spe-tests := test_sim_spe test_sim_spe_rec test_sim_spe_filter test_sim_spe_buf \
	test_sim_spe_sync test_sim_spe_linux test_sim_spe_tlb test_sim_spe_enc \
	test_sim_spe_rules test_sim_spe_switch \
	test_sim_spe_irq test_sim_spe_host test_sim_spe_fgt test_sim_spe_pct
tests-y += $(sim-spe-tests)
$(foreach t,$(sim-spe-tests),$(eval $(t)-objs := tests/unit/$(t).c tests/unit/sim_spe_util.c))
$(foreach t,$(sim-spe-tests),$(eval CFLAGS_$(t) := -I$(srctree)/arch/sim/spe))
CFLAGS_sim_spe_util := -I$(srctree)/arch/sim/spe
endif

# The SPE acceptance check end to end: the Linux-driver buffer through the vperf-spe tool.
ifeq ($(ARCH),sim)
test-extra-y += spe-linux-cli
spe-linux-cli: $(obj)/tests/bin/test_sim_spe_linux $(obj)/host/bin/vperf-spe
	$(Q)$(srctree)/scripts/run-tests.sh --script $(results) spe-linux-cli \
		$(srctree)/tests/unit/spe_linux_cli.sh $^
.PHONY: spe-linux-cli
endif
