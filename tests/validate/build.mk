# make validate (tests/validate/validate.sh, docs/validation.md): the conformance suite, the Linux
# guest and the cost loop against each hypervisor of tests/validate/targets.txt, on the project's
# QEMU; the report in $(O)/validate/report.md and report.html.
#   make validate [TARGETS="bare vperf kvm xen-native"]   default: every runnable target
# make check runs vperf's own targets (validate-vperf): bare QEMU and the reference hypervisor,
# without the Linux runs that qemu-check already makes, and fails when a test that passes on bare
# QEMU fails under vperf (gate.sh).

validate-out := $(obj)/validate
validate-env = $(xen-env) QEMU_RESULTS=/dev/null

validate: qemu-images qemu-linux $(obj)/host/bin/vperf-spe
	$(call deps_for,build qemu linux xen kvm validate)
	$(Q)$(validate-env) $(srctree)/tests/validate/validate.sh $(validate-out) $(TARGETS)

validate-vperf: qemu-images $(obj)/host/bin/vperf-spe
	$(Q)$(validate-env) VALIDATE_SKIP='linux-*' $(srctree)/tests/validate/validate.sh \
		$(validate-out) bare vperf
	$(Q)$(srctree)/tests/validate/gate.sh $(validate-out) bare vperf

.PHONY: validate validate-vperf
