# libFuzzer harnesses over vperf's entry points for untrusted input, on the sim build (the
# executable model and the unit tests' hypervisor, tests/unit/hv.c):
#   trap  the EC=0x18 trap entry: 1-3 VMs of any policy, raw syndromes and guest accesses at
#         EL0/EL1, loads, puts and migrations over two pCPUs, PMU interrupts, blob round trips
#   blob  vperf_vcpu_restore: raw and structure-aware blobs against an independent oracle
#   fdt   vperf_fdt_add_nodes: raw trees and the grow-and-retry protocol
# For each T: T-fuzz-short and T-fuzz-replay run in make check (a fixed seed and run count, then
# every file of tests/fuzz/corpus/T and tests/fuzz/regressions/T); T-fuzz-long in make fuzz.
# Included by tests/fuzz/build.mk, which guards against a second inclusion.
ifeq ($(ARCH),sim)

vperf-fuzz-targets := $(if $(CONFIG_VPERF_VPMU),trap blob) $(if $(CONFIG_VPERF_FDT),fdt)
# Runs of the short run in make check: a few seconds each on one core.
trap-fuzz-runs ?= 2000
blob-fuzz-runs ?= 5000
fdt-fuzz-runs ?= 20000

# The library compiled again by clang, instrumented for coverage and the sanitizers.
vfuzz-lib-srcs := $(filter-out virt/xen_abi.c,$(lib-y))
vfuzz-lib-objs := $(patsubst %.c,$(fuzz-dir)/obj/%.o,$(vfuzz-lib-srcs))
vfuzz-cflags := -std=c11 -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=all -D_DEFAULT_SOURCE -I$(srctree)/include \
	-I$(srctree)/arch/sim/include -I$(obj)/include \
	-include $(autoconf-h) -MMD -MP
vfuzz-ldlibs := $(if $(CONFIG_VPERF_FDT),-lfdt)
# What each harness links beside its own file.
trap-fuzz-extra := tests/fuzz/trap_world.c tests/fuzz/trap_spe.c $(hv-objs)
blob-fuzz-extra := $(hv-objs)
fdt-fuzz-extra :=

$(fuzz-dir)/obj/%.o: $(srctree)/%.c $(autoconf-h)
	$(Q)$(srctree)/scripts/deps.sh fuzz
	@mkdir -p $(@D)
	@echo "  FUZZCC  $*.c"
	$(Q)$(FUZZ_CC) $(vfuzz-cflags) -c $< -o $@

$(fuzz-dir)/libvperf-fuzz.a: $(vfuzz-lib-objs)
	$(Q)rm -f $@ && ar rcs $@ $^

define vperf_fuzz_rules
$(1)-fuzz-inputs := $(srctree)/tests/fuzz/corpus/$(1) $(srctree)/tests/fuzz/regressions/$(1)
$(1)-fuzz-objs := $(patsubst %.c,$(fuzz-dir)/obj/%.o,tests/fuzz/$(1)_fuzz.c $($(1)-fuzz-extra))

$(fuzz-dir)/$(1)_fuzz: $$($(1)-fuzz-objs) $(fuzz-dir)/libvperf-fuzz.a
	@echo "  FUZZLD  fuzz/$(1)_fuzz"
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $$^ $(vfuzz-ldlibs) -o $$@

$(1)-fuzz-long: $(fuzz-dir)/$(1)_fuzz
	@mkdir -p $(fuzz-dir)/corpus-$(1) $(srctree)/tests/fuzz/regressions/$(1)
	$(fuzz-dir)/$(1)_fuzz -max_total_time=$(FUZZ_TIME) \
		-artifact_prefix=$(srctree)/tests/fuzz/regressions/$(1)/ \
		$(fuzz-dir)/corpus-$(1) $$($(1)-fuzz-inputs)

$(1)-fuzz-short: $(fuzz-dir)/$(1)_fuzz
	$(Q)rm -rf $(fuzz-dir)/short-$(1) && mkdir -p $(fuzz-dir)/short-$(1) $(fuzz-dir)/crashes
	$(Q)$(srctree)/scripts/run-tests.sh --script $$(results) $(1)-fuzz-short sh -c \
		'if $(fuzz-dir)/$(1)_fuzz -seed=1 -runs=$$($(1)-fuzz-runs) -max_total_time=60 \
			-artifact_prefix=$(fuzz-dir)/crashes/ $(fuzz-dir)/short-$(1) \
			$$($(1)-fuzz-inputs) >$(fuzz-dir)/short-$(1).log 2>&1; then \
			grep "^Done" $(fuzz-dir)/short-$(1).log; \
		else \
			tail -n 40 $(fuzz-dir)/short-$(1).log; \
			echo "$(1)-fuzz-short: failed; crash input in $(fuzz-dir)/crashes/:" \
				"copy it to tests/fuzz/regressions/$(1)/ with the fix"; \
			exit 1; \
		fi'

# The replayer: the harness without libFuzzer, gcc and the configuration's sanitizers.
$(obj)/fuzz/$(1)_replay: $(patsubst %.c,$(obj)/%.o,tests/fuzz/$(1)_fuzz.c $($(1)-fuzz-extra)) \
		$(obj)/tests/fuzz/replay.o $(obj)/libvperf.a
	@mkdir -p $$(@D)
	@echo "  LD      fuzz/$(1)_replay"
	$(Q)$(CC) $(LDFLAGS_TEST) $$^ $(vfuzz-ldlibs) -o $$@

$(1)-fuzz-replay: $(obj)/fuzz/$(1)_replay
	$(Q)$(srctree)/scripts/run-tests.sh --script $$(results) $(1)-fuzz-replay \
		$(obj)/fuzz/$(1)_replay $$($(1)-fuzz-inputs)

fuzz: $(1)-fuzz-long
test-extra-y += $(1)-fuzz-short $(1)-fuzz-replay
.PHONY: $(1)-fuzz-long $(1)-fuzz-short $(1)-fuzz-replay
endef
$(foreach t,$(vperf-fuzz-targets),$(eval $(call vperf_fuzz_rules,$(t))))

-include $(shell find $(fuzz-dir)/obj -name '*.d' 2>/dev/null)
endif
