# Unit tests: cmocka programs over the production sources, sim build only.
# The test hypervisor (hv.h): every test on it links these, and so do the trap and blob fuzzers
# (tests/fuzz/vperf.mk).
hv-objs := tests/unit/hv.c tests/unit/hv_host.c tests/unit/hv_switch.c
ifeq ($(ARCH),sim)
tests-y += test_esr test_regdb test_trap test_core test_sim_pmu test_sim_regs
tests-$(CONFIG_VPERF_FDT) += test_fdt
test_fdt-objs := tests/unit/test_fdt.c
test_fdt-ldlibs := -lfdt
# Redeclaring libfdt functions is the point here: conflicting types still fail to compile.
CFLAGS_test_fdt := -I$(srctree)/virt -Wno-redundant-decls
tests-$(CONFIG_VPERF_VPMU) += test_vpmu test_vpmu_isolation test_vpmu_blob test_vpmu_direct \
	test_vpmu_emulated test_vpmu_irq test_vpmu_el0 test_vpmu_badinput \
	test_vpmu_swinc test_vpmu_lazy test_vpmu_lazy_load test_vpmu_fgt test_vpmu_fgt_host \
	test_vpmu_hpmn0 test_vpmu_sync_window test_vpmu_restore \
	test_vpmu_partition_iso test_pcpu_bringup test_trap_fastpath \
	test_vcpu_load test_vpmu_chain test_vpmu_hw_leftovers test_vpmu_aarch32 \
	test_vpmu_hetero test_vpmu_filter test_vpmu_newer_pmu test_core_profiles \
	test_trap_fast_vs_full test_vpmu_second test_vpmu_host_pmcr test_vpmu_multiplexed \
	test_pcpu_down
test_esr-objs := tests/unit/test_esr.c
test_regdb-objs := tests/unit/test_regdb.c
test_trap-objs := tests/unit/test_trap.c tests/unit/fake_hyp.c
test_core-objs := tests/unit/test_core.c tests/unit/fake_hyp.c
test_sim_pmu-objs := tests/unit/test_sim_pmu.c
test_sim_regs-objs := tests/unit/test_sim_regs.c
test_vpmu-objs := tests/unit/test_vpmu.c $(hv-objs)
test_vpmu_isolation-objs := tests/unit/test_vpmu_isolation.c $(hv-objs)
test_vpmu_blob-objs := tests/unit/test_vpmu_blob.c $(hv-objs)
test_vpmu_direct-objs := tests/unit/test_vpmu_direct.c $(hv-objs)
test_vpmu_emulated-objs := tests/unit/test_vpmu_emulated.c $(hv-objs)
test_vpmu_multiplexed-objs := tests/unit/test_vpmu_multiplexed.c $(hv-objs)
test_pcpu_down-objs := tests/unit/test_pcpu_down.c $(hv-objs)
test_vpmu_badinput-objs := tests/unit/test_vpmu_badinput.c $(hv-objs)
test_vpmu_irq-objs := tests/unit/test_vpmu_irq.c $(hv-objs)
test_vpmu_el0-objs := tests/unit/test_vpmu_el0.c $(hv-objs)
test_vpmu_swinc-objs := tests/unit/test_vpmu_swinc.c $(hv-objs)
test_vpmu_lazy-objs := tests/unit/test_vpmu_lazy.c $(hv-objs)
test_vpmu_lazy_load-objs := tests/unit/test_vpmu_lazy_load.c $(hv-objs)
# FEAT_FGT and FEAT_HPMN0: the guest's traps, the host's HDFGRTR_EL2 / HDFGWTR_EL2, HPMN = 0; one
# world (vpmu_fgt_util.c).
$(foreach t,test_vpmu_fgt test_vpmu_fgt_host test_vpmu_hpmn0,$(eval $(t)-objs := \
	tests/unit/$(t).c $(hv-objs) tests/unit/vpmu_fgt_util.c))
test_vpmu_newer_pmu-objs := tests/unit/test_vpmu_newer_pmu.c $(hv-objs)
test_vpmu_sync_window-objs := tests/unit/test_vpmu_sync_window.c $(hv-objs)
test_vpmu_restore-objs := tests/unit/test_vpmu_restore.c $(hv-objs)
test_vpmu_partition_iso-objs := tests/unit/test_vpmu_partition_iso.c $(hv-objs)
test_pcpu_bringup-objs := tests/unit/test_pcpu_bringup.c $(hv-objs)
test_trap_fastpath-objs := tests/unit/test_trap_fastpath.c $(hv-objs)
# The fast path (virt/vpmu/fast.h) against the full path (virt/trap.h): both are virt's own.
test_trap_fast_vs_full-objs := tests/unit/test_trap_fast_vs_full.c $(hv-objs)
CFLAGS_test_trap_fast_vs_full := -I$(srctree)/virt
test_vcpu_load-objs := tests/unit/test_vcpu_load.c $(hv-objs)
test_vpmu_chain-objs := tests/unit/test_vpmu_chain.c $(hv-objs)
test_vpmu_hw_leftovers-objs := tests/unit/test_vpmu_hw_leftovers.c $(hv-objs)
test_vpmu_aarch32-objs := tests/unit/test_vpmu_aarch32.c $(hv-objs)
test_vpmu_hetero-objs := tests/unit/test_vpmu_hetero.c $(hv-objs)
test_vpmu_filter-objs := tests/unit/test_vpmu_filter.c $(hv-objs)
test_vpmu_second-objs := tests/unit/test_vpmu_second.c $(hv-objs)
test_vpmu_host_pmcr-objs := tests/unit/test_vpmu_host_pmcr.c $(hv-objs)
test_core_profiles-objs := tests/unit/test_core_profiles.c $(hv-objs) tests/unit/world.c \
	tests/unit/world_second.c tests/unit/world_hyp.c tests/unit/world_string.c

# The vPMU, interrupt, EL0, filter, blob, isolation and host-PMCR tests again on every other PMU version vperf supports (the
# default model is PMUv3p5): PMUv3, v3p1, v3p4 and v3p7, through HV_PMUVER (tests/unit/hv_host.c),
# with 300 isolation schedules each; results are named test@pmuverN.
ifeq ($(CONFIG_VPERF_VPMU),y)
pmu-versions := 1 4 5 7
pmu-version-tests := $(addprefix $(obj)/tests/bin/,test_vpmu test_vpmu_irq test_vpmu_el0 \
	test_vpmu_filter test_vpmu_sync_window test_vpmu_blob test_vpmu_isolation test_vpmu_swinc \
	test_vpmu_chain test_vpmu_second test_vpmu_host_pmcr)
test-extra-y += pmu-versions
pmu-versions: $(pmu-version-tests)
	$(Q)for v in $(pmu-versions); do \
		HV_PMUVER=$$v HV_SCHEDULES=300 RUN_TESTS_TAG=pmuver$$v \
			$(runtests) $(results) $(pmu-version-tests); \
	done
.PHONY: pmu-versions

# The same tests on the PMU of every real core profile (sim/profiles.h, docs/cores.md: Cortex-A53,
# A57, A72, A76, Neoverse N1, V1, N2, V2), through HV_PROFILE (tests/unit/hv_host.c), with 40
# isolation schedules each; results are named test@<core>.
core-profiles := cortex-a53 cortex-a57 cortex-a72 cortex-a76 neoverse-n1 neoverse-v1 \
	neoverse-n2 neoverse-v2
test-extra-y += core-profiles
core-profiles: $(pmu-version-tests)
	$(Q)for p in $(core-profiles); do \
		HV_PROFILE=$$p HV_SCHEDULES=40 RUN_TESTS_TAG=$$p \
			$(runtests) $(results) $(pmu-version-tests); \
	done
.PHONY: core-profiles

# The isolation property again with every put lazy (vperf_vcpu_put_lazy, a migration flushing
# the pCPU the vCPU was parked on first, as docs/integration.md asks): result test@lazy.
test-extra-y += lazy-put
lazy-put: $(obj)/tests/bin/test_vpmu_isolation
	$(Q)HV_LAZY_PUT=1 HV_SCHEDULES=500 RUN_TESTS_TAG=lazy $(runtests) $(results) $<
.PHONY: lazy-put

# ... and with each put lazy or eager by a seeded draw, no flush after an eager one (as a
# hypervisor that puts lazily while a vCPU stays and eagerly when it moves): test@mixed.
test-extra-y += mixed-put
mixed-put: $(obj)/tests/bin/test_vpmu_isolation
	$(Q)HV_LAZY_PUT=2 HV_SCHEDULES=500 RUN_TESTS_TAG=mixed $(runtests) $(results) $<
.PHONY: mixed-put

# The isolation schedules again with FEAT_FGT in the model: the direct VM has an event filter,
# so its type registers trap through HDFGRTR_EL2/HDFGWTR_EL2 (test@fgt).
test-extra-y += fgt-isolation
fgt-isolation: $(obj)/tests/bin/test_vpmu_isolation
	$(Q)HV_FGT=1 HV_SCHEDULES=300 RUN_TESTS_TAG=fgt $(runtests) $(results) $<
.PHONY: fgt-isolation
endif

# The database checked against the assembler: regdb-asm prints one MRS/MSR per database line,
# aarch64-linux-gnu-as assembles it (warnings fatal: a wrong access direction fails too), and
# test_regdb compares each instruction word with the database's encoding.
hostprogs-y += regdb-asm
regdb-asm-objs := tests/unit/regdb_asm.c
REGDB_BIN := $(obj)/tests/regdb.bin
$(obj)/tests/regdb.S: $(obj)/host/bin/regdb-asm
	@mkdir -p $(@D)
	$(Q)$< >$@
$(REGDB_BIN): $(obj)/tests/regdb.S
	@echo "  AS      tests/regdb.S (aarch64-linux-gnu-as)"
	$(Q)$(CROSS_COMPILE)as --fatal-warnings -march=armv8.8-a+profile $< -o $(@:.bin=.o)
	$(Q)$(CROSS_COMPILE)objcopy -O binary -j .text $(@:.bin=.o) $@
$(obj)/tests/bin/test_regdb: | $(REGDB_BIN)
CFLAGS_test_regdb := -DREGDB_BIN='"$(REGDB_BIN)"'
CFLAGS_test_trap := -I$(srctree)/virt
CFLAGS_test_core := -I$(srctree)/virt
# The vSPE's event decisions alone (virt/vspe/action.c), without the sequences.
tests-$(CONFIG_VPERF_VSPE) += test_vspe_event_action
test_vspe_event_action-objs := tests/unit/test_vspe_event_action.c
CFLAGS_test_vspe_event_action := -I$(srctree)/virt

# The library in one more configuration, for what only it can show, and test_core there: make
# check builds configs/sim_vspe_only_defconfig (a vSPE without a vPMU, whose VMs still save and
# restore their state) and runs this.
core-test: $(obj)/tests/bin/test_core
	$(Q)rm -f $(results)
	$(Q)$(runtests) $(results) $<
	$(Q)$(srctree)/scripts/summary.sh --label test $(results)
.PHONY: core-test
endif

-include $(srctree)/tests/unit/spe.mk
-include $(srctree)/tests/unit/sim_gic.mk
-include $(srctree)/tests/unit/sim_spe.mk
-include $(srctree)/tests/unit/bench.mk
-include $(srctree)/tests/unit/vspe.mk
