# Fuzzing with libFuzzer (clang -fsanitize=fuzzer,address,undefined): the SPE decoder (lib/spe)
# and, on the sim build, vperf's entry points for untrusted input (tests/fuzz/vperf.mk: the trap
# entry, blob restore, the device tree).
#   make fuzz [FUZZ_TIME=seconds]  the long run of each; a crash is written to tests/fuzz/regressions/T/
#   spe-fuzz-short (make check)    a bounded run from the checked-in corpus (crashes: $(O)/fuzz)
#   spe-fuzz-replay (make check)   every input of tests/fuzz/corpus/spe and regressions/spe through
#                                  the sim build of the codec (gcc, with the sanitizers of the
#                                  configuration)
# Guarded: the top Makefile and tests/unit/spe.mk may both include this file.
ifndef spe-fuzz-mk
spe-fuzz-mk := 1

FUZZ_CC ?= clang
FUZZ_TIME ?= 600
FUZZ_RUNS ?= 100000
FUZZ_CFLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I$(srctree)/include

fuzz-dir := $(obj)/fuzz
spe-fuzz-bin := $(fuzz-dir)/spe_fuzz
spe-fuzz-srcs := $(wildcard $(srctree)/lib/spe/*.c) $(srctree)/tests/fuzz/spe_fuzz.c
spe-fuzz-hdrs := $(wildcard $(srctree)/lib/spe/*.h) $(srctree)/tests/fuzz/spe_fuzz.h \
	$(srctree)/include/vperf/spe_pkt.h $(srctree)/include/vperf/spe_rec.h \
	$(srctree)/include/vperf/types.h
spe-fuzz-inputs := $(srctree)/tests/fuzz/corpus/spe $(srctree)/tests/fuzz/regressions/spe
spe-fuzz-opts := -dict=$(srctree)/tests/fuzz/spe.dict

$(spe-fuzz-bin): $(spe-fuzz-srcs) $(spe-fuzz-hdrs)
	$(Q)$(srctree)/scripts/deps.sh fuzz
	@mkdir -p $(@D)
	@echo "  FUZZCC  tests/fuzz/spe_fuzz ($(FUZZ_CC))"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(spe-fuzz-srcs) -o $@

# The long run: new corpus entries in $(O)/fuzz/corpus-spe, crashes kept as regression inputs.
fuzz: spe-fuzz-long
spe-fuzz-long: $(spe-fuzz-bin)
	@mkdir -p $(fuzz-dir)/corpus-spe
	$(spe-fuzz-bin) $(spe-fuzz-opts) -max_total_time=$(FUZZ_TIME) \
		-artifact_prefix=$(srctree)/tests/fuzz/regressions/spe/ \
		$(fuzz-dir)/corpus-spe $(spe-fuzz-inputs)

# The short run: a fixed seed and run count from a fresh scratch corpus, so that it is repeatable.
# libFuzzer's chatter goes to $(O)/fuzz/short.log; its last lines are shown when the run fails.
spe-fuzz-short-cmd = $(spe-fuzz-bin) $(spe-fuzz-opts) -seed=1 -runs=$(FUZZ_RUNS) \
	-max_total_time=60 -artifact_prefix=$(fuzz-dir)/crashes/ $(fuzz-dir)/short/corpus \
	$(spe-fuzz-inputs)

spe-fuzz-short: $(spe-fuzz-bin)
	$(Q)rm -rf $(fuzz-dir)/short && mkdir -p $(fuzz-dir)/short/corpus $(fuzz-dir)/crashes
	$(Q)$(srctree)/scripts/run-tests.sh --script $(results) spe-fuzz-short sh -c \
		'if $(spe-fuzz-short-cmd) >$(fuzz-dir)/short.log 2>&1; then \
			grep "^Done" $(fuzz-dir)/short.log; \
		else \
			tail -n 40 $(fuzz-dir)/short.log; \
			echo "spe-fuzz-short: failed; crash input in $(fuzz-dir)/crashes/:" \
				"copy it to tests/fuzz/regressions/spe/ with the fix"; \
			exit 1; \
		fi'

ifeq ($(ARCH),sim)
# The replayer: the fuzz target without libFuzzer, over the sim library (ASan/UBSan in check).
$(obj)/fuzz/spe_replay: $(obj)/tests/fuzz/spe_fuzz.o $(obj)/tests/fuzz/replay.o $(obj)/libvperf.a
	@mkdir -p $(@D)
	@echo "  LD      fuzz/spe_replay"
	$(Q)$(CC) $(LDFLAGS_TEST) $^ -o $@

spe-fuzz-replay: $(obj)/fuzz/spe_replay
	$(Q)$(srctree)/scripts/run-tests.sh --script $(results) spe-fuzz-replay \
		$(obj)/fuzz/spe_replay $(spe-fuzz-inputs)

test-extra-y += spe-fuzz-short spe-fuzz-replay
endif

.PHONY: fuzz spe-fuzz-long spe-fuzz-short spe-fuzz-replay
-include $(srctree)/tests/fuzz/vperf.mk
endif
