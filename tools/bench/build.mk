# vperf-bench and `make bench`: what vperf costs on the simulated PE and on QEMU, written into the
# generated sections of $(O)/bench/performance.md, a copy of docs/performance.md made afresh by
# each run (tools/bench/bench.sh, tests/qemu/bench.sh); BENCH_UPDATE_DOCS=1 writes them into
# docs/performance.md itself, the one way make bench changes the source tree. Built, like
# `make run`, in its own non-sanitized sim configuration $(O)/bench, so that callgrind counts -O2
# code.
ifeq ($(ARCH),sim)
simprogs-y += vperf-bench
vperf-bench-objs := tools/bench/main.c tools/bench/harness.c tools/bench/guest.c \
	tools/bench/ops.c tools/bench/switch.c tools/bench/naive.c tools/bench/cg.c \
	tools/bench/spe.c
endif

bench-doc = $(if $(BENCH_UPDATE_DOCS),$(srctree)/docs/performance.md,$(obj)/bench/performance.md)

bench:
	$(call deps_for,build bench qemu)
	$(Q)test -f $(obj)/bench/.config || $(sub) O=$(O)/bench ARCH=sim defconfig
	$(Q)$(sub) O=$(O)/bench all
	$(Q)$(if $(BENCH_UPDATE_DOCS),:,cp $(srctree)/docs/performance.md $(bench-doc))
	$(Q)$(srctree)/tools/bench/bench.sh $(obj)/bench/tools/bin/vperf-bench \
		$(obj)/bench/results $(bench-doc) \
		$(O)/bench/tools/bin/vperf-bench $(O)/bench/results
	$(Q)BENCH_SIM_CELLS=$(obj)/bench/results/cells.tsv $(sub) O=$(O) \
		QEMU_BENCH_OUT=$(bench-doc) qemu-bench
	@echo "bench: tables in $(patsubst $(srctree)/%,%,$(bench-doc))"

.PHONY: bench
