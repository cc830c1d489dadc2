# test_bench_counts: the deterministic counts `make bench` reports (docs/performance.md),
# asserted with the benchmark's own measuring code, linked from tools/bench/. The archive is
# scanned again after those objects (the link puts them after it).
ifeq ($(ARCH),sim)
tests-$(CONFIG_VPERF_VPMU) += test_bench_counts
test_bench_counts-objs := tests/unit/test_bench_counts.c
test_bench_counts-ldlibs := $(obj)/libvperf.a
CFLAGS_test_bench_counts := -I$(srctree)/tools/bench
$(obj)/tests/bin/test_bench_counts: \
	$(patsubst %,$(obj)/tools/bench/%.o,harness guest ops switch naive)
endif
