# User-facing targets beyond building: test, check, bench, fuzz, format, help.

results := $(obj)/test-results.txt
runtests := $(srctree)/scripts/run-tests.sh

# Run the unit tests of the current (sim) configuration.
test: all
	$(Q)rm -f $(results)
	$(Q)$(runtests) $(results) $(tests-bin)
	$(Q)$(if $(test-extra-y),$(sub) O=$(O) $(test-extra-y))

# The arm64 build's own checks: the library links with nothing but the ops contract.
arm64-check: $(obj)/libvperf.a
	$(Q)$(runtests) --script $(results) "undefined-symbols" \
		$(srctree)/scripts/check-undef-syms.sh $(CROSS_COMPILE) $(obj)/libvperf.a \
		$(if $(CONFIG_FDT),fdt_path_offset fdt_add_subnode fdt_setprop fdt_del_node \
			fdt_check_header fdt_check_full)

sub = $(MAKE) -f $(srctree)/Makefile

# Everything CI runs: the sim build (ASan/UBSan, cmocka), the same with every optional feature
# configured out (the public headers' stubs), the arm64 cross build, and the QEMU suite (its
# failures are counted by summary.sh, hence the '-').
check: deps
	$(Q)rm -f $(obj)/check-*/test-results.txt
	$(Q)$(sub) O=$(O)/check-sim ARCH=sim defconfig
	$(Q)$(sub) O=$(O)/check-sim SANITIZE=1 test
	$(Q)$(sub) O=$(O)/check-minimal ARCH=sim DEFCONFIG=sim_minimal_defconfig defconfig
	$(Q)$(sub) O=$(O)/check-minimal SANITIZE=1 test
	$(Q)$(sub) O=$(O)/check-arm64 ARCH=arm64 defconfig
	$(Q)$(sub) O=$(O)/check-arm64 arm64-check format-test
	$(Q)rm -f $(obj)/check-qemu/test-results.txt
	-$(Q)$(sub) O=$(O)/check-qemu qemu-check
	$(Q)$(srctree)/scripts/summary.sh $(obj)/check-sim/test-results.txt \
		$(obj)/check-minimal/test-results.txt $(obj)/check-arm64/test-results.txt \
		$(obj)/check-qemu/test-results.txt

# The main job: two guests time-sliced on one pCPU under the reference EL2 hypervisor in QEMU,
# each measuring its own workload with its vPMU (tests/qemu, docs/qemu.md).
run: deps
	$(Q)$(sub) O=$(O) qemu-run

# The same story on the executable model (tools/vperf-demo, docs/model.md).
demo: deps
	$(Q)test -f $(obj)/demo/.config || $(sub) O=$(O)/demo ARCH=sim defconfig
	$(Q)$(sub) O=$(O)/demo all
	$(Q)$(obj)/demo/tools/bin/vperf-demo

# .clang-format holds for every tracked C file (a result line for check).
format-test:
	$(Q)$(srctree)/scripts/deps.sh format
	$(Q)$(runtests) --script $(results) clang-format sh -c \
		"cd $(srctree) && git ls-files '*.c' '*.h' | xargs clang-format --dry-run --Werror"

format:
	$(Q)$(srctree)/scripts/deps.sh format
	$(Q)cd $(srctree) && git ls-files '*.c' '*.h' | xargs clang-format -i

format-check:
	$(Q)$(srctree)/scripts/deps.sh format
	$(Q)cd $(srctree) && git ls-files '*.c' '*.h' | xargs clang-format --dry-run --Werror

help:
	@echo 'vperf: virtual PMU and SPE for AArch64 EL2 hypervisors'
	@echo ''
	@echo 'Configuration (written to $$(O)/.config, default O=build):'
	@echo '  defconfig [ARCH=sim|arm64]  configs/$$(ARCH)_defconfig (default ARCH=sim);'
	@echo '                              DEFCONFIG=name picks another file of configs/'
	@echo '  menuconfig                  edit the configuration (kconfig-mconf)'
	@echo '  olddefconfig                update .config, new symbols take defaults'
	@echo '  savedefconfig               write the minimal $$(O)/defconfig'
	@echo ''
	@echo 'Build and test:'
	@echo '  all (default)               libvperf.a for the configured ARCH, host tools, tests (sim)'
	@echo '  run                         the main job: two guests on the reference EL2 hypervisor'
	@echo '                              in QEMU, each measuring itself with its vPMU'
	@echo '  demo                        the same on the executable model (no QEMU)'
	@echo '  bench                       traps, System register accesses and callgrind instructions'
	@echo '                              per guest PMU access and per switch, against a naive full'
	@echo '                              save and an always-trap emulation; QEMU -icount EL2'
	@echo '                              instructions: docs/performance.md'
	@echo '  test                        run the unit tests of a sim configuration'
	@echo '  check                       everything CI runs: sim build + cmocka under'
	@echo '                              ASan/UBSan (default and minimal configuration),'
	@echo '                              arm64 cross build + symbol check, QEMU suite'
	@echo '  qemu-check / qemu-images    the QEMU suite alone / its hypervisor and guest images'
	@echo '  fuzz [FUZZ_TIME=s]          long libFuzzer runs, FUZZ_TIME each (default 600 s): the'
	@echo '                              SPE decoder, and on sim the trap entry, blob restore'
	@echo '                              and device tree (docs/fuzzing.md); crashes are kept'
	@echo '                              in tests/fuzz/regressions'
	@echo '  trap-fuzz-long ...          one harness (trap, blob, fdt, spe) for FUZZ_TIME'
	@echo '  format / format-check       apply / verify .clang-format on tracked C files'
	@echo '  deps                        install missing Debian packages (scripts/deps.sh)'
	@echo '  clean / distclean           remove objects / the whole $$(O)'
	@echo ''
	@echo 'Variables: O=dir (output), ARCH=sim|arm64 (with defconfig), V=1 (show commands),'
	@echo '           SANITIZE=1 (sim: ASan+UBSan), CROSS_COMPILE=aarch64-linux-gnu-'

.PHONY: test arm64-check check run demo format format-check format-test help
