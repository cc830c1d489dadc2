# vSPE tests: the test hypervisor (hv.c) on the model with SPE, guests driving SPE as Linux's
# arm_spe_pmu driver does (vspe_util.c).
ifeq ($(ARCH)$(CONFIG_VPERF_VPMU)$(CONFIG_VPERF_VSPE),simyy)
vspe-tests := test_vspe test_vspe_switch test_vspe_irq test_vspe_host \
	test_vspe_hostile test_vspe_outside test_vspe_blob test_vspe_lazy \
	test_vspe_contract test_isolation_mixed test_vspe_s2own test_vspe_s2own_state \
	test_vspe_hwctl test_vspe_buffer_rules test_vspe_version_regs test_vspe_s2_levels \
	test_vspe_el3 test_vspe_vhe test_vspe_vhe_host \
	test_vspe_pct test_vspe_id_view
tests-y += $(vspe-tests) test_isolation_worlds
$(foreach t,$(vspe-tests),$(eval $(t)-objs := tests/unit/$(t).c $(hv-objs) \
	tests/unit/vspe_util.c))
test_isolation_mixed-objs += tests/unit/iso_prog.c
# Isolation on drawn worlds (docs/model.md, "Isolation on drawn worlds").
test_isolation_worlds-objs := tests/unit/test_isolation_worlds.c tests/unit/iso_worlds_oracle.c \
	tests/unit/iso_worlds_host.c tests/unit/iso_worlds_run.c tests/unit/iso_worlds_shrink.c \
	tests/unit/world.c tests/unit/world_second.c tests/unit/world_hyp.c \
	tests/unit/world_string.c tests/unit/iso_prog.c $(hv-objs) tests/unit/vspe_util.c

# The mixed isolation schedules again on every other SPE version the model offers (the default
# is SPEv1): SPEv1p1, v1p2 and v1p4, 1000 schedules each; results are named
# test_isolation_mixed@pmsverN.
spe-versions := 2 3 5
test-extra-y += spe-versions
spe-versions: $(obj)/tests/bin/test_isolation_mixed
	$(Q)for v in $(spe-versions); do \
		HV_PMSVER=$$v HV_SCHEDULES=1000 RUN_TESTS_TAG=pmsver$$v \
			$(runtests) $(results) $<; \
	done
.PHONY: spe-versions

# The vSPE switch tests again on a VHE host (HCR_EL2.E2H = 1 at every pCPU's bring-up, HV_E2H in
# tests/unit/hv.c): the guest's PMSCR_EL1 is PMSCR_EL12 to vperf there (docs/integration/kvm.md,
# "VHE"); results are named test@vhe.
vhe-tests := test_vspe_switch test_vspe_host test_vspe_outside test_vspe_blob test_vspe_irq \
	test_vspe_contract
test-extra-y += vhe-tests
vhe-tests: $(addprefix $(obj)/tests/bin/,$(vhe-tests))
	$(Q)HV_E2H=1 RUN_TESTS_TAG=vhe $(runtests) $(results) $^
.PHONY: vhe-tests
endif
