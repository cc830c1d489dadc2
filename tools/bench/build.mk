# vperf-bench and `make bench`: what vperf costs on the simulated PE, written to
# docs/performance.md (tools/bench/bench.sh). Built, like `make run`, in its own non-sanitized
# sim configuration $(O)/bench, so that callgrind counts -O2 code.
ifeq ($(ARCH),sim)
simprogs-y += vperf-bench
vperf-bench-objs := tools/bench/main.c tools/bench/harness.c tools/bench/guest.c \
	tools/bench/ops.c tools/bench/switch.c tools/bench/naive.c tools/bench/cg.c \
	tools/bench/spe.c
endif

bench:
	$(call deps_for,build bench qemu)
	$(Q)test -f $(obj)/bench/.config || $(sub) O=$(O)/bench ARCH=sim defconfig
	$(Q)$(sub) O=$(O)/bench all
	$(Q)$(srctree)/tools/bench/bench.sh $(obj)/bench/tools/bin/vperf-bench \
		$(obj)/bench/results $(srctree)/docs/performance.md \
		$(O)/bench/tools/bin/vperf-bench $(O)/bench/results
	$(Q)BENCH_SIM_CELLS=$(obj)/bench/results/cells.tsv $(sub) O=$(O) qemu-bench

.PHONY: bench
