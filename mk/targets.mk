# User-facing targets beyond building: test, check, bench, fuzz, format, help.

results := $(obj)/test-results.txt
runtests := $(srctree)/scripts/run-tests.sh

# Run the unit tests of the current (sim) configuration; every test runs, then the summary line
# "test: N passed, N failed" and a non-zero exit status when one failed.
test: all
	$(Q)rm -f $(results)
	$(Q)$(runtests) $(results) $(tests-bin)
	$(Q)$(if $(test-extra-y),$(sub) O=$(O) $(test-extra-y))
	$(Q)$(srctree)/scripts/summary.sh --label test $(results)

# The arm64 build's own checks: the library links with nothing but the ops contract.
arm64-check: $(obj)/libvperf.a
	$(Q)$(runtests) --script $(results) "undefined-symbols" \
		$(srctree)/scripts/check-undef-syms.sh $(CROSS_COMPILE) $(obj)/libvperf.a \
		$(if $(CONFIG_VPERF_FDT),fdt_path_offset fdt_add_subnode fdt_setprop fdt_del_node \
			fdt_check_header fdt_check_full)
	$(Q)$(runtests) --script $(results) "public-headers-nostdinc" \
		$(srctree)/scripts/check-headers.sh $(CROSS_COMPILE)gcc $(srctree) $(obj)

sub = $(MAKE) -f $(srctree)/Makefile

# Everything CI runs: the sim build (ASan/UBSan, cmocka), the same with every optional feature
# configured out (the public headers' stubs), the arm64 cross build, and the QEMU suite (its
# failures are counted by summary.sh, hence the '-'; `test` fails when a test does, and the
# stages after it still run so that the summary counts everything).
check:
	$(call deps_for,build qemu linux fuzz format)
	$(Q)rm -f $(obj)/check-*/test-results.txt
	$(Q)$(sub) O=$(O)/check-sim ARCH=sim defconfig
	-$(Q)$(sub) O=$(O)/check-sim SANITIZE=1 test
	$(Q)$(sub) O=$(O)/check-minimal ARCH=sim DEFCONFIG=sim_minimal_defconfig defconfig
	-$(Q)$(sub) O=$(O)/check-minimal SANITIZE=1 test
	$(Q)$(sub) O=$(O)/check-arm64 ARCH=arm64 defconfig
	$(Q)$(sub) O=$(O)/check-arm64 arm64-check format-test
	$(Q)rm -f $(obj)/check-qemu/test-results.txt
	-$(Q)$(sub) O=$(O)/check-qemu qemu-check
	$(Q)$(srctree)/scripts/summary.sh $(obj)/check-sim/test-results.txt \
		$(obj)/check-minimal/test-results.txt $(obj)/check-arm64/test-results.txt \
		$(obj)/check-qemu/test-results.txt

# The README's quick start on a pristine Debian 12 root (scripts/check-fresh.sh, docs/build.md).
check-fresh:
	$(Q)$(srctree)/scripts/check-fresh.sh $(srctree)

# Mutation testing of virt/ (tests/mutate/mutations.txt, docs/model.md): each mutant of a scratch
# copy of the tree must fail the sim unit tests. Slow, so not part of check. MUTATE=text runs
# only the mutations whose line contains it.
mutate:
	$(call deps_for,build)
	$(Q)$(srctree)/scripts/mutate.sh $(srctree) $(obj)/mutate $(MUTATE)

# The main job: two guests time-sliced on one pCPU under the reference EL2 hypervisor in QEMU,
# each measuring its own workload with its vPMU (tests/qemu, docs/qemu.md).
run:
	$(call deps_for,build qemu)
	$(Q)$(sub) O=$(O) qemu-run

# The same story on the executable model (tools/vperf-demo, docs/model.md).
demo:
	$(call deps_for,build)
	$(Q)test -f $(obj)/demo/.config || $(sub) O=$(O)/demo ARCH=sim defconfig
	$(Q)$(sub) O=$(O)/demo all
	$(Q)$(obj)/demo/tools/bin/vperf-demo

# The C files .clang-format covers: git's list in a checkout; in an exported tree (git archive,
# as make check-fresh uses) every .c/.h outside the build output (build/, */include/generated).
c-sources = cd $(srctree) && { git ls-files '*.c' '*.h' 2>/dev/null || \
	find . \( -name .git -o -path ./build -o -path '*/include/generated' \) -prune -o \
		-type f \( -name '*.c' -o -name '*.h' \) -print; }

# .clang-format holds for every tracked C file (a result line for check).
format-test:
	$(call deps_for,format)
	$(Q)$(runtests) --script $(results) clang-format sh -c \
		"$(c-sources) | xargs clang-format --dry-run --Werror"

format:
	$(call deps_for,format)
	$(Q)$(c-sources) | xargs clang-format -i

format-check:
	$(call deps_for,format)
	$(Q)$(c-sources) | xargs clang-format --dry-run --Werror

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
	@echo '  demo                        two tenants on one pCPU of the executable model (no QEMU):'
	@echo '                              vPMU counts, each tenant'"'"'s SPE records decoded into a'
	@echo '                              profile, the isolation verdict'
	@echo '  bench                       traps, System register accesses and callgrind instructions'
	@echo '                              per guest PMU access, per switch and per PMUIRQ, against a'
	@echo '                              naive full save and an always-trap emulation; vSPE switch,'
	@echo '                              PMBIRQ and records lost per 10^6 switches;'
	@echo '                              QEMU -icount EL2 instructions per trapped access, switch'
	@echo '                              and PMUIRQ (vperf share and whole path) against the empty'
	@echo '                              trap (an HVC without vperf), and'
	@echo '                              the issue-14 targets table: docs/performance.md'
	@echo '  test                        run the unit tests of a sim configuration; ends with'
	@echo '                              "test: N passed, N failed", non-zero exit if one failed'
	@echo '  check                       everything CI runs: sim build + cmocka under'
	@echo '                              ASan/UBSan (default and minimal configuration),'
	@echo '                              arm64 cross build + symbol check, QEMU suite'
	@echo '  check-fresh                 the README quick start (make run, make check) inside a'
	@echo '                              pristine Debian 12 root (debootstrap; root only)'
	@echo '  qemu-check / qemu-images    the QEMU suite alone / its hypervisor and guest images'
	@echo '  qemu-path                   the project'"'"'s QEMU 10 (platform/qemu: Debian'"'"'s source and'
	@echo '                              patches/series), built once per machine into'
	@echo '                              /var/cache/vperf/qemu; prints qemu-system-aarch64'"'"'s path'
	@echo '  mutate [MUTATE=text]        apply each mutation of tests/mutate/mutations.txt to a'
	@echo '                              scratch copy of virt/ and expect the unit tests to fail;'
	@echo '                              prints survivors, ends "mutate: N passed, N failed"'
	@echo '  xen-check                   vperf inside Xen 4.17 on Arm: fetch Debian 12'"'"'s Xen source,'
	@echo '                              apply integrations/xen/patches, build, boot dom0less domUs'
	@echo '                              and a dom0 running the PMU suite and Linux under QEMU, a'
	@echo '                              domU refused SPE, mutants (CI: .ci/run)'
	@echo '  xen-build                   only fetch, patch and build Xen with vperf'
	@echo '  fuzz [FUZZ_TIME=s]          long libFuzzer runs, FUZZ_TIME each (default 600 s): the'
	@echo '                              SPE decoder, and on sim the trap entry, blob restore'
	@echo '                              and device tree (docs/fuzzing.md); crashes are kept'
	@echo '                              in tests/fuzz/regressions'
	@echo '  trap-fuzz-long ...          one harness (trap, blob, fdt, spe) for FUZZ_TIME'
	@echo '  format / format-check       apply / verify .clang-format on tracked C files'
	@echo '  deps [DEPS="group..."]      install missing Debian packages (scripts/deps.sh;'
	@echo '                              groups: scripts/deps.sh --list; default build)'
	@echo '  clean / distclean           remove objects / the whole $$(O)'
	@echo ''
	@echo 'Variables: O=dir (output), ARCH=sim|arm64 (with defconfig), V=1 (show commands),'
	@echo '           SANITIZE=1 (sim: ASan+UBSan), CROSS_COMPILE=aarch64-linux-gnu-'

.PHONY: test arm64-check check check-fresh run demo mutate format format-check format-test help
