# vSPE tests: the test hypervisor (hv.c) on the model with SPE, guests driving SPE as Linux's
# arm_spe_pmu driver does (vspe_util.c).
ifeq ($(ARCH)$(CONFIG_VPERF_VPMU)$(CONFIG_VPERF_VSPE),simyy)
vspe-tests := test_vspe test_vspe_switch test_vspe_irq test_vspe_host test_vspe_audit \
	test_vspe_hostile test_vspe_outside test_vspe_blob test_vspe_contract
tests-y += $(vspe-tests)
$(foreach t,$(vspe-tests),$(eval $(t)-objs := tests/unit/$(t).c tests/unit/hv.c \
	tests/unit/vspe_util.c))
endif
