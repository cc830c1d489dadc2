# SPE codec tests: cmocka unit tests (sim build, ASan+UBSan under `make check`), the vperf-spe
# command-line test, and the fuzz fragment (short run and regression replay in `make check`).
ifeq ($(ARCH),sim)
tests-y += test_spe_pkt test_spe_fields test_spe_rec
test_spe_pkt-objs := tests/unit/test_spe_pkt.c
test_spe_fields-objs := tests/unit/test_spe_fields.c
test_spe_rec-objs := tests/unit/test_spe_rec.c

# spe-gen writes an encoder-built buffer that the CLI test feeds to vperf-spe.
hostprogs-y += spe-gen
spe-gen-objs := tests/unit/test_spe_gen.c

test-extra-y += spe-cli
spe-cli: $(obj)/host/bin/vperf-spe $(obj)/host/bin/spe-gen
	$(Q)$(srctree)/scripts/run-tests.sh --script $(results) spe-cli \
		$(srctree)/tests/unit/test_spe_cli.sh $(obj)/host/bin/vperf-spe \
		$(obj)/host/bin/spe-gen $(obj)/tests/spe-cli
.PHONY: spe-cli
endif

-include $(srctree)/tests/fuzz/build.mk
